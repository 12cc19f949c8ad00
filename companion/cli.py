"""The ``companion`` command: play the Monster Phase (or a whole game) in a
terminal, before the table service and the tablets exist.

Every subcommand drives the same engine the table will run: a prompt is
answered (by a policy, a script or a person at the keyboard), the engine
folds the answer in, and the effects are printed as the words the table
would see. Saved games are game logs (companion/gamelog.py), so a game played
here can be replayed, or later loaded by the table service.

Exit codes: 0 done, 1 stopped early (the player quit, a script ran out),
2 bad input (a file, a card, a setup the engine refuses).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Callable, Mapping, Protocol, Sequence

from companion.engine.effects import Effect
from companion.engine.errors import IllegalInput, SetupError
from companion.engine.game import Game, Step
from companion.engine.prompts import D20_SYMBOL, MONSTER_FACES, Prompt
from companion.gamelog import GameLog, GameLogError, load_log, log_of, read_json, replay, save_log
from companion.games.ravenloft.choices import action_options
from companion.games.ravenloft.rules import RavenloftRules
from companion.games.ravenloft.simulate import Policy, context_for, first_policy, play_out, random_policy
from companion.games.ravenloft.state import GameState

GAME = "ravenloft"
DEFAULT_CARD = "ambush"
#: Non-interactive output lists at most this many options of a prompt.
SHOWN_OPTIONS = 8
#: ``play`` stops after this many inputs unless told otherwise: a policy that
#: keeps giving the same refused-then-rerolled answer must not run forever.
DEFAULT_MAX_INPUTS = 5000
QUIT_WORDS = ("q", "quit", "exit")
ENDINGS = ("game-won", "game-lost")
#: Errors the engine may raise on malformed data it did not expect (not a
#: refusal): reported as bad input instead of a traceback.
ENGINE_FAULTS = (TypeError, KeyError, AttributeError, AssertionError)


class CliError(Exception):
    """Bad input: printed as ``error: <where>: <why>`` with exit code 2."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"{where}: {why}")


class Quit(Exception):
    """The person at the keyboard quit (or stdin ended)."""


class ScriptExhausted(Exception):
    """A script had no answer left for the prompt the game is asking."""

    def __init__(self, prompt: Prompt) -> None:
        super().__init__(prompt.key)
        self.prompt = prompt


class ReplyError(ValueError):
    """A typed reply that could not be read as an answer (asked again)."""


# -- words for the terminal -------------------------------------------------------------------

def say(line: str = "") -> None:
    print(line, flush=True)


def effect_lines(effects: Sequence[Effect]) -> list[str]:
    return [f"  - {effect.text}" for effect in effects]


def prompt_head(prompt: Prompt) -> str:
    return f"? {prompt.text}  [{prompt.key}]"


def option_summary(prompt: Prompt) -> str:
    """The options on one line; long lists (cards, items) are cut short."""
    shown = [f"{o.text} ({o.id})" for o in prompt.options[:SHOWN_OPTIONS]]
    more = len(prompt.options) - SHOWN_OPTIONS
    return "; ".join(shown) + (f"; ... (+{more} more)" if more > 0 else "")


def prompt_lines(prompt: Prompt) -> list[str]:
    """The question as a log shows it (no numbers: nobody is asked to type)."""
    if prompt.kind in ("choice", "draw"):
        return [prompt_head(prompt), f"    options: {option_summary(prompt)}"]
    if prompt.kind == "pick":
        return [prompt_head(prompt), f"    pick {pick_range(prompt)} of: {option_summary(prompt)}"]
    if prompt.kind == "roll":
        return [prompt_head(prompt), f"    roll {dice_words(prompt)}"]
    return [prompt_head(prompt)]


def pick_range(prompt: Prompt) -> str:
    if prompt.min_picks == prompt.max_picks:
        return str(prompt.min_picks)
    return f"{prompt.min_picks} to {prompt.max_picks}"


def dice_words(prompt: Prompt) -> str:
    if prompt.die == "monster":
        return f"{prompt.count} Monster {'die' if prompt.count == 1 else 'dice'} ({' / '.join(MONSTER_FACES)})"
    return f"{prompt.count} {prompt.die} (1 to {20 if prompt.die == 'd20' else 6})"


def answer_line(prompt: Prompt, answer: object) -> str:
    return f"  > {answer_words(prompt, answer)}"


def answer_words(prompt: Prompt, answer: object) -> str:
    if prompt.kind in ("choice", "draw"):
        return option_words(prompt, str(answer))
    if prompt.kind == "pick" and isinstance(answer, list):
        return ", ".join(option_words(prompt, str(a)) for a in answer) or "nothing"
    if prompt.kind == "roll" and isinstance(answer, list):
        return ", ".join(str(face) for face in answer)
    return action_words(answer)


def option_words(prompt: Prompt, option_id: str) -> str:
    texts = [o.text for o in prompt.options if o.id == option_id]
    return f"{texts[0]} ({option_id})" if texts else option_id


def action_words(action: object) -> str:
    """``move to=krezk villagers=[]``: the action's name, then its fields."""
    if not isinstance(action, Mapping):
        return json.dumps(action)
    fields = " ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in action.items() if k != "action")
    return f"{action.get('action')} {fields}".strip()


def show_step(prompt: Prompt, answer: object, step: Step, with_prompt: bool) -> None:
    lines = prompt_lines(prompt) if with_prompt else []
    for line in lines + [answer_line(prompt, answer)] + effect_lines(step.effects):
        say(line)


def show_entry(prompt: Prompt, entry: Mapping[str, object], step: Step, with_prompt: bool) -> None:
    """A logged input: an answer to ``prompt``, or one made beside it (game data changed, a move
    made at any time), which leaves the question standing."""
    if "answer" in entry:
        show_step(prompt, entry["answer"], step, with_prompt)
        return
    aside = f"at any time: {action_words(entry['anytime'])}" if "anytime" in entry else "the game data changed"
    for line in ([prompt_head(prompt)] if with_prompt else []) + [f"  > {aside}"] + effect_lines(step.effects):
        say(line)


# -- the table summary --------------------------------------------------------------------------

def summary_lines(rules: RavenloftRules, game: Game) -> list[str]:
    """The table in a few lines, read from the state alone, so a replay prints what the game printed."""
    state = game.state
    assert isinstance(state, GameState)
    return (["== The table =="] + _status_lines(rules, state, game) + ["Monsters:"] + _monster_lines(rules, state)
            + ["Heroes:"] + _hero_lines(rules, state) + [_villager_line(rules, state)] + _next_lines(game))


def _status_lines(rules: RavenloftRules, state: GameState, game: Game) -> list[str]:
    ctx = context_for(rules, state)
    hero = state.active_hero
    frenzy = ctx.monster(state.frenzy).name if state.frenzy else "nobody"
    status = f"Game over: {state.outcome}" if game.over else f"Game on: turn {state.turn}, {state.phase} phase"
    return [status,
            f"Terror: {state.terror} of {ctx.pack.board.terror_max}    Frenzy: {frenzy}",
            f"Whose turn: {hero.player} ({ctx.hero_name(hero.id)}), {state.actions_left} action(s) left",
            f"Monster cards left: {len(state.deck)}"]


def _monster_lines(rules: RavenloftRules, state: GameState) -> list[str]:
    ctx = context_for(rules, state)
    lines = []
    for monster in state.monsters.values():
        where = "defeated" if monster.defeated else ctx.place_name(monster.location)
        blights = [ctx.place_name(b) for b in getattr(state.mats.get(monster.id), "blights", []) if b is not None]
        extra = f" (Twig Blights at {', '.join(blights)})" if blights and not monster.defeated else ""
        lines.append(f"  {ctx.monster(monster.id).name:<22} {where}{extra}")
    return lines


def _hero_lines(rules: RavenloftRules, state: GameState) -> list[str]:
    ctx = context_for(rules, state)
    lines = []
    for hero in state.heroes.values():
        items = ", ".join(ctx.pack.item(i).name for i in hero.items) or "no items"
        who = f"{hero.player} ({ctx.hero_name(hero.id)})"
        lines.append(f"  {who:<26} {ctx.place_name(hero.location):<24} {items}")
    return lines


def _villager_line(rules: RavenloftRules, state: GameState) -> str:
    ctx = context_for(rules, state)
    names = [f"{ctx.pack.villager(v.id).name} ({ctx.place_name(v.location)})" for v in ctx.villagers_on_board()]
    return "Villagers on the board: " + (", ".join(names) or "none")


def _next_lines(game: Game) -> list[str]:
    if game.prompt is None:
        return []
    return [f"Next question: {game.prompt.text} [{game.prompt.key}]"]


# -- answering ------------------------------------------------------------------------------------

class Answerer(Protocol):
    """Answers the game's current prompt and returns what the engine made of it."""

    shows_prompt: bool

    def step(self, game: Game) -> Step:
        ...


def current(game: Game) -> Prompt:
    assert game.prompt is not None, "the game is over: nothing to answer"
    return game.prompt


@dataclass
class PolicyAnswerer:
    """A policy from simulate.py; ``play_out`` retries refused actions, then ends the phase."""

    policy: Policy
    shows_prompt: bool = False

    def step(self, game: Game) -> Step:
        return play_out(game, self.policy, game.version + 1)[0]


@dataclass
class ScriptAnswerer:
    """Answers from a file, in order; a refused answer is bad input."""

    entries: list[Mapping[str, object]]
    where: str
    used: int = 0
    shows_prompt: bool = False

    def step(self, game: Game) -> Step:
        prompt = current(game)
        if self.used >= len(self.entries):
            raise ScriptExhausted(prompt)
        self.used += 1
        try:
            return game.apply(self.entries[self.used - 1])
        except IllegalInput as problem:
            raise CliError(self.where, f"answer {self.used} was refused at prompt {prompt.key!r}: {problem}") from None


@dataclass
class InteractiveAnswerer:
    """A person at the keyboard: numbered menus, re-asked until the engine accepts."""

    rules: RavenloftRules
    read: Callable[[str], str] = input
    shows_prompt: bool = True

    def step(self, game: Game) -> Step:
        prompt = current(game)
        menu = self.menu(game, prompt)
        for line in [prompt_head(prompt)] + menu_lines(prompt, menu):
            say(line)
        while True:
            try:
                return game.apply({"key": prompt.key, "answer": parse_reply(prompt, menu, self._line())})
            except (IllegalInput, ReplyError) as problem:
                say(f"  refused: {problem}")
            except ENGINE_FAULTS as fault:
                say(f"  refused: the engine could not use that answer ({type(fault).__name__}: {fault}); "
                    "nothing changed")

    def menu(self, game: Game, prompt: Prompt) -> list[object]:
        """What each number stands for: an option id, or a whole action."""
        if prompt.kind == "action":
            state = game.state
            assert isinstance(state, GameState)
            return list(action_options(context_for(self.rules, state), prompt))
        return list(prompt.option_ids())

    def _line(self) -> str:
        try:
            line = self.read("> ").strip()
        except (EOFError, KeyboardInterrupt):
            raise Quit() from None
        if line.lower() in QUIT_WORDS:
            raise Quit()
        return line


def menu_lines(prompt: Prompt, menu: list[object]) -> list[str]:
    if prompt.kind == "roll":
        example = "hit pow" if prompt.die == "monster" else "13 (the symbol counts as 20: type 'symbol' or 20)"
        return [f"    roll {dice_words(prompt)}: type the faces, e.g. {example}"]
    if prompt.kind == "action":
        lines = [f"    {n}. {action_words(a)}" for n, a in enumerate(menu, 1)]
        return lines + ["    (type a number, or an action as JSON, e.g. {\"action\": \"end\"})"]
    lines = [f"    {n}. {o.text} ({o.id})" for n, o in enumerate(prompt.options, 1)]
    if prompt.kind == "pick":
        lines.append(f"    (pick {pick_range(prompt)}: numbers or ids separated by spaces)")
    return lines


def parse_reply(prompt: Prompt, menu: list[object], line: str) -> object:
    """A typed line as the answer the engine expects; the engine still checks it."""
    if prompt.kind in ("choice", "draw"):
        return by_number(menu, line) if line else _nothing_typed()
    if prompt.kind == "pick":
        return [by_number(menu, word) for word in words(line)]
    if prompt.kind == "roll":
        return [die_face(prompt, word) for word in words(line)]
    return action_reply(menu, line)


def _nothing_typed() -> object:
    raise ReplyError("type a number or an id (or 'quit')")


def words(line: str) -> list[str]:
    return line.replace(",", " ").split()


def by_number(menu: list[object], word: str) -> object:
    """``3`` means the third entry of the menu; anything else is taken as typed."""
    if not word.isdigit():
        return word
    number = int(word)
    if not 1 <= number <= len(menu):
        raise ReplyError(f"choose a number from 1 to {len(menu)}")
    return menu[number - 1]


def die_face(prompt: Prompt, word: str) -> object:
    word = word.lower()
    if prompt.die == "monster":
        faces = {face[0]: face for face in MONSTER_FACES}
        return faces.get(word, word)
    if word in (D20_SYMBOL, "s"):
        return D20_SYMBOL
    if not word.isdigit():
        raise ReplyError(f"{word!r} is not a number on the {prompt.die}")
    return int(word)


def action_reply(menu: list[object], line: str) -> object:
    if line.startswith("{"):
        try:
            return json.loads(line)
        except json.JSONDecodeError as problem:
            raise ReplyError(f"that is not valid JSON ({problem.msg} at column {problem.colno})") from None
    if not line:
        raise ReplyError("type a number from the menu, or an action as JSON")
    return by_number(menu, line) if line.isdigit() else {"action": line}


# -- driving a game ----------------------------------------------------------------------------

Stop = Callable[[Game], bool]


def monster_phase_over(game: Game) -> bool:
    """The Monster Phase is done once the next Hero Phase asks for an action (or the game ended)."""
    return game.prompt is None or game.prompt.key == "hero-action"


@dataclass
class Session:
    """One game being driven: who answers, what is printed, where it is saved."""

    rules: RavenloftRules
    game: Game
    answerer: Answerer
    quiet: bool = False
    save: Path | None = None
    notes: list[str] = field(default_factory=list)

    def one(self) -> None:
        prompt = current(self.game)
        step = self.answerer.step(self.game)
        if not self.quiet:
            show_entry(prompt, self.game.inputs[-1], step, with_prompt=not self.answerer.shows_prompt)
            return
        for line in effect_lines([e for e in step.effects if e.kind in ENDINGS]):
            say(line)  # --quiet still says how the game ended

    def run(self, stop: Stop, max_inputs: int | None = None) -> int:
        """Answer until ``stop``; the exit code says whether it got there."""
        try:
            while not stop(self.game):
                if max_inputs is not None and self.game.version >= max_inputs:
                    say(f"Stopped after {self.game.version} inputs (--max-inputs {max_inputs}).")
                    return 0
                self.one()
        except Quit:
            say("Stopped: you quit.")
            return 1
        except ScriptExhausted as ran_out:
            say(f"Stopped: the script ran out of answers at prompt {ran_out.prompt.key!r} "
                f"({ran_out.prompt.text}).")
            return 1
        finally:
            self.save_now()
        return 0

    def save_now(self) -> None:
        if self.save is not None:
            save_log(self.save, log_of(self.game, GAME))
            say(f"Saved the game log to {self.save} ({self.game.version} inputs).")


def start_game(rules: RavenloftRules, origin: Mapping[str, object], where: str) -> Game:
    """A game from an origin; a refused setup or position is bad input named after ``where``."""
    try:
        return rules.new_game(origin)
    except SetupError as problem:
        raise CliError(where, str(problem)) from None
    except ENGINE_FAULTS as fault:
        raise CliError(where, f"the engine could not read it ({type(fault).__name__}: {fault})") from None


def show_opening(game: Game, quiet: bool = False) -> None:
    if not quiet:
        for line in effect_lines(game.opening_effects):
            say(line)


def draw_card(session: Session, card_id: str) -> None:
    """Answer the Monster card prompt with the card named on the command line."""
    game = session.game
    state = game.state
    assert isinstance(state, GameState)
    pack = session.rules.pack_for(state)  # the owner's cards when the game plays with their data
    prompt = game.prompt
    if prompt is None or prompt.key != "monster-card":
        asked = prompt.key if prompt else "nothing (the game is over)"
        raise CliError("--card", f"the game is not drawing a Monster card; it is asking {asked}")
    if not pack.has("card", card_id):
        raise CliError("--card", f"no Monster card called {card_id!r} (the cards: "
                                 f"{', '.join(sorted(c.id for c in pack.cards))})")
    if card_id not in prompt.option_ids():
        raise CliError("--card", f"{pack.card(card_id).name} ({card_id}) is not in the deck: it was already played")
    step = game.apply({"key": prompt.key, "answer": card_id})
    show_step(prompt, card_id, step, with_prompt=True)


def default_card(rules: RavenloftRules, game: Game) -> str:
    """Ambush! if it is still in the deck, else the first card whose attack line moves a monster in play."""
    state = game.state
    assert isinstance(state, GameState)
    if DEFAULT_CARD in state.deck:
        return DEFAULT_CARD
    ctx = context_for(rules, state)
    colours = {s for m in state.monsters_in_play() for s in ctx.monster(m.id).symbols}
    for card_id in sorted(state.deck):
        line = ctx.pack.card(card_id).attack
        if line.move > 0 and any(s in colours or (s == "frenzy" and state.frenzy) for s in line.symbols):
            return card_id
    return sorted(state.deck)[0] if state.deck else DEFAULT_CARD


def resolve_phase(session: Session, card: str | None) -> int:
    """One Monster Phase: the card, then every prompt until the next Hero Phase."""
    if session.game.over:
        say("The game is already over.")
        return finish(session, 0)
    draw_card(session, card or default_card(session.rules, session.game))
    return finish(session, session.run(monster_phase_over))


def finish(session: Session, code: int) -> int:
    return show_summary(session.rules, session.game, code)


def show_summary(rules: RavenloftRules, game: Game, code: int) -> int:
    """Print the table as it stands; returns ``code`` so commands can end with it."""
    say()
    for line in summary_lines(rules, game):
        say(line)
    return code


# -- policies --------------------------------------------------------------------------------

def make_answerer(rules: RavenloftRules, args: argparse.Namespace) -> Answerer:
    """An explicit --policy wins; otherwise a person at a terminal answers, and a pipe gets 'first'."""
    name = args.policy or ("interactive" if sys.stdin.isatty() else "first")
    if name == "interactive":
        return InteractiveAnswerer(rules)
    if name == "random":
        return PolicyAnswerer(random_policy(rules, args.seed))
    if name == "script":
        return script_answerer(getattr(args, "script", None))
    return PolicyAnswerer(first_policy(rules))


def script_answerer(path: Path | None) -> ScriptAnswerer:
    if path is None:
        raise CliError("--script", "the script policy needs --script ANSWERS.json")
    data = read_file(path)
    if not isinstance(data, list):
        raise CliError(str(path), "a script must be a JSON list of {\"key\": ..., \"answer\": ...}")
    for number, entry in enumerate(data, 1):
        if not isinstance(entry, Mapping) or not ("answer" in entry or "anytime" in entry):
            raise CliError(str(path), f"answer {number} must be an object with an 'answer' (or an 'anytime' move), "
                                      f"got {entry!r}")
    return ScriptAnswerer(list(data), str(path))


def read_file(path: Path) -> object:
    try:
        return read_json(path)
    except GameLogError as problem:
        raise CliError(problem.where, problem.why) from None


# -- subcommands ---------------------------------------------------------------------------

def sample_position() -> object:
    """The shipped example: a Monster Phase with all four monsters in play."""
    text = resources.files("companion.games.ravenloft").joinpath("examples/sample-position.json").read_text("utf-8")
    return json.loads(text)


def cmd_demo(args: argparse.Namespace) -> int:
    rules = RavenloftRules()
    game = start_game(rules, {"position": sample_position()}, "sample-position.json")
    say("Demo: one Monster Phase on the sample table (all four monsters in play).")
    show_opening(game)
    return resolve_phase(Session(rules, game, make_answerer(rules, args)), args.card)


def cmd_resolve(args: argparse.Namespace) -> int:
    rules = RavenloftRules()
    where = str(args.position)
    game = start_game(rules, position_origin(read_file(args.position), where, args.data), where)
    session = Session(rules, game, make_answerer(rules, args), save=args.save)
    show_opening(game)
    if game.prompt is not None and game.prompt.key == "hero-action":
        end_hero_phase(session, where, args.from_hero_phase)
    try:
        return resolve_phase(session, args.card)
    except GameLogError:
        raise
    except (ValueError, *ENGINE_FAULTS) as fault:
        # The position passed the engine's checks but holds something they miss (a mat naming a
        # place that does not exist): the user's file is at fault, so say so instead of a traceback.
        raise CliError(where, f"the engine failed while resolving this position "
                              f"({type(fault).__name__}: {fault})") from None


def position_origin(found: object, where: str, data_path: Path | None) -> dict[str, object]:
    """A position file is a bare position, or ``{"position": ..., "data": ...}`` (the owner's game
    data beside it, as a game log's origin has it); ``--data`` gives the data from a file of its own."""
    if isinstance(found, Mapping) and "position" in found:
        extra = sorted(str(k) for k in found if k not in ("position", "data"))
        if extra:
            raise CliError(where, f"unknown field(s) {', '.join(extra)} beside 'position' (only 'data' may be there)")
        origin = dict(found)
    else:
        origin = {"position": found}
    if data_path is not None:
        if "data" in origin:
            raise CliError("--data", f"{where} already carries its own game data; give it in one place only")
        origin["data"] = read_file(data_path)
    return origin


def end_hero_phase(session: Session, where: str, allowed: bool) -> None:
    """A Hero Phase position is refused unless --from-hero-phase says to end that phase first."""
    if not allowed:
        raise CliError(where, "this position is in the Hero Phase (\"phase\": \"hero\"); set \"phase\": \"monster\" "
                              "or pass --from-hero-phase to end the Hero Phase first")
    prompt = current(session.game)
    step = session.game.apply({"key": prompt.key, "answer": {"action": "end"}})
    show_step(prompt, {"action": "end"}, step, with_prompt=True)


def cmd_play(args: argparse.Namespace) -> int:
    rules = RavenloftRules()
    setup = {"monsters": split_list(args.monsters), "heroes": [seat(s) for s in split_list(args.heroes)]}
    game = start_game(rules, {"setup": setup}, "--monsters/--heroes")
    session = Session(rules, game, make_answerer(rules, args), quiet=args.quiet, save=args.save)
    show_opening(game, args.quiet)
    code = session.run(lambda g: g.over, args.max_inputs)
    return finish(session, code)


def split_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def seat(text: str) -> dict[str, str]:
    """``sorcerer:Sam`` is the Sorcerer played by Sam; ``sorcerer`` alone gets a default name."""
    hero, _, player = text.partition(":")
    return {"hero": hero.strip(), "player": player.strip()} if player.strip() else {"hero": hero.strip()}


def cmd_replay(args: argparse.Namespace) -> int:
    rules = RavenloftRules()
    where = str(args.log)
    log = load_game_log(args.log)
    try:
        game = replay(rules, log, where, show_replayed if args.steps else None, show_opening if args.steps else None)
    except ENGINE_FAULTS as fault:
        raise CliError(where, f"the engine could not replay it ({type(fault).__name__}: {fault})") from None
    say(f"Replayed {game.version} inputs from {where}.")
    return show_summary(rules, game, 0)


def load_game_log(path: Path) -> GameLog:
    try:
        log = load_log(path)
    except GameLogError as problem:
        raise CliError(problem.where, problem.why) from None
    if log.game != GAME:
        raise CliError(str(path), f"this is a log of {log.game!r}, not {GAME!r}")
    return log


def show_replayed(prompt: Prompt, entry: Mapping[str, object], step: Step) -> None:
    show_entry(prompt, entry, step, with_prompt=True)


# -- the parser ----------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Horrified: Ravenloft table companion "
                                     "(terminal edition): run the Monster Phase, play or replay a game.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _serve_parser(commands)
    _demo_parser(commands)
    _resolve_parser(commands)
    _play_parser(commands)
    _replay_parser(commands)
    return parser


def _policy_options(sub: argparse.ArgumentParser, choices: Sequence[str], default: str | None) -> None:
    sub.add_argument("--policy", choices=list(choices), default=default,
                     help="who answers the prompts (default: you at a terminal, else 'first')" if default is None
                     else f"who answers the prompts (default: {default})")
    sub.add_argument("--seed", type=int, default=1, help="seed of the random policy (default: 1)")


def _serve_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = commands.add_parser("serve", add_help=False,
                              help="run the table service for the tablets (serve --help for its options)")
    sub.add_argument("options", nargs=argparse.REMAINDER)
    sub.set_defaults(run=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    """The service lives in companion.server; imported here so the other commands start fast."""
    from companion.server.serve import main as serve_main

    return serve_main(list(args.options))


def _demo_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = commands.add_parser("demo", help="resolve one Monster Phase on the sample table")
    sub.add_argument("--card", help=f"the Monster card drawn (default: {DEFAULT_CARD})")
    _policy_options(sub, ("first", "random", "interactive"), None)
    sub.set_defaults(run=cmd_demo)


def _resolve_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = commands.add_parser("resolve", help="resolve one Monster Phase from a position file")
    sub.add_argument("position", type=Path, metavar="POSITION.json",
                     help="a position, or {\"position\": ..., \"data\": ...} with the owner's game data")
    sub.add_argument("--data", type=Path, metavar="OWNER.json", default=None,
                     help="play on the owner's game data (their board, cards, items: docs/game-data.md)")
    sub.add_argument("--card", required=True, help="the Monster card drawn")
    _policy_options(sub, ("first", "random", "interactive", "script"), None)
    sub.add_argument("--script", type=Path, metavar="ANSWERS.json", help="answers for --policy script")
    sub.add_argument("--from-hero-phase", action="store_true",
                     help="accept a Hero Phase position: end the Hero Phase, then resolve")
    sub.add_argument("--save", type=Path, metavar="LOG.json", help="save the game log here")
    sub.set_defaults(run=cmd_resolve)


def _play_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = commands.add_parser("play", help="play a new game from setup until it ends")
    sub.add_argument("--monsters", required=True, help="e.g. carrionette,baba-lysaga")
    sub.add_argument("--heroes", required=True, help="e.g. sorcerer:Sam,druid:Beau (clockwise)")
    _policy_options(sub, ("random", "first", "interactive", "script"), "random")
    sub.add_argument("--script", type=Path, metavar="ANSWERS.json", help="answers for --policy script")
    sub.add_argument("--max-inputs", type=int, default=DEFAULT_MAX_INPUTS,
                     help=f"stop after this many inputs (default: {DEFAULT_MAX_INPUTS})")
    sub.add_argument("--save", type=Path, metavar="LOG.json", help="save the game log here")
    sub.add_argument("--quiet", action="store_true", help="print only the outcome and the table")
    sub.set_defaults(run=cmd_play)


def _replay_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = commands.add_parser("replay", help="replay a saved game log")
    sub.add_argument("log", type=Path, metavar="LOG.json")
    sub.add_argument("--steps", action="store_true", help="print every step, not just the final table")
    sub.set_defaults(run=cmd_replay)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["serve"]:  # its options (even --help) belong to the service's own parser
        return cmd_serve(argparse.Namespace(options=argv[1:]))
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except (CliError, GameLogError) as problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return quiet_broken_pipe()


def quiet_broken_pipe() -> int:
    """Output piped into ``head`` that stopped reading: end quietly, as other tools do."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
