"""Driving a game in a terminal: the words it prints for prompts, answers and
effects, who answers (a policy, a script, a person at the keyboard), and a
session that answers until a stop and saves the game log. Shared by every
pack's commands (``companion play``, Ravenloft's ``demo`` and ``resolve`` ...);
the ``companion`` command itself is companion/cli.py.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Protocol, Sequence

from companion.engine.effects import Effect
from companion.engine.errors import IllegalInput, SetupError
from companion.engine.game import Game, Step
from companion.engine.dice import DICE
from companion.engine.prompts import Prompt
from companion.gamelog import GameLog, GameLogError, load_log, log_of, read_json, save_log
from companion.games.gamepack import GamePack, Policy

#: Non-interactive output lists at most this many options of a prompt.
SHOWN_OPTIONS = 8
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
    """``2 Monster dice (hit / pow / blank)``, ``1 d20 (1 to 20)``: from the die registry."""
    kind = DICE[str(prompt.die)]
    name = kind.name if prompt.count == 1 else kind.plural
    faces = kind.describe() if kind.numbered else " / ".join(kind.labels)
    return f"{prompt.count} {name} ({faces})"


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
    """A pack's policy, answering the pack's way (Ravenloft retries a refused action, then ends
    the phase)."""

    pack: GamePack
    policy: Policy
    shows_prompt: bool = False

    def step(self, game: Game) -> Step:
        return self.pack.cli().step(game, self.policy)


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

    pack: GamePack
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
            return [_without_label(action) for action in self.pack.action_menu(game, None)]
        return list(prompt.option_ids())

    def _line(self) -> str:
        try:
            line = self.read("> ").strip()
        except (EOFError, KeyboardInterrupt):
            raise Quit() from None
        if line.lower() in QUIT_WORDS:
            raise Quit()
        return line


def _without_label(action: Mapping[str, object]) -> dict[str, object]:
    """A menu entry as the answer it stands for (the tablet's button label is not part of it)."""
    return {key: value for key, value in action.items() if key != "label"}


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
    """A typed face: a number, a face's name or its first letter (``h`` for hit, ``s`` for the
    d20's symbol); the engine still checks it."""
    word = word.lower()
    if word.isdigit():
        return int(word)
    kind = DICE[str(prompt.die)]
    for face in kind.faces:
        for name in (face.label, *face.words):
            if word in (name, name[:1]):
                return name if name in face.words else face.value
    return word  # the engine says why it is no face of this die


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


@dataclass
class Session:
    """One game being driven: who answers, what is printed, where it is saved."""

    pack: GamePack
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
            save_log(self.save, log_of(self.game, self.pack.id))
            say(f"Saved the game log to {self.save} ({self.game.version} inputs).")


def start_game(pack: GamePack, origin: Mapping[str, object], where: str) -> Game:
    """A game from an origin; a refused setup or position is bad input named after ``where``."""
    try:
        return Game(pack.rules, origin)
    except SetupError as problem:
        raise CliError(where, str(problem)) from None
    except ENGINE_FAULTS as fault:
        raise CliError(where, f"the engine could not read it ({type(fault).__name__}: {fault})") from None


def show_opening(game: Game, quiet: bool = False) -> None:
    if not quiet:
        for line in effect_lines(game.opening_effects):
            say(line)


def finish(session: Session, code: int) -> int:
    return show_summary(session.pack, session.game, code)


def show_summary(pack: GamePack, game: Game, code: int) -> int:
    """Print the table as it stands, and how the game ended if it did; returns ``code``."""
    say()
    for line in pack.cli().summary(game):
        say(line)
    if game.over:
        say(f"Outcome: {pack.outcome(game)}")
    return code


# -- policies --------------------------------------------------------------------------------

def make_answerer(pack: GamePack, args: argparse.Namespace) -> Answerer:
    """An explicit --policy wins; otherwise a person at a terminal answers, and a pipe gets 'first'."""
    name = args.policy or ("interactive" if sys.stdin.isatty() else "first")
    if name == "interactive":
        return InteractiveAnswerer(pack)
    if name == "script":
        return script_answerer(getattr(args, "script", None))
    return PolicyAnswerer(pack, pack.cli().policy(name, args.seed))


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


def load_game_log(path: Path) -> GameLog:
    try:
        return load_log(path)
    except GameLogError as problem:
        raise CliError(problem.where, problem.why) from None


def show_replayed(prompt: Prompt, entry: Mapping[str, object], step: Step) -> None:
    show_entry(prompt, entry, step, with_prompt=True)


def policy_options(sub: argparse.ArgumentParser, choices: Sequence[str], default: str | None) -> None:
    sub.add_argument("--policy", choices=list(choices), default=default,
                     help="who answers the prompts (default: you at a terminal, else 'first')" if default is None
                     else f"who answers the prompts (default: {default})")
    sub.add_argument("--seed", type=int, default=1, help="seed of the random policy (default: 1)")
