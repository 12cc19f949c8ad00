"""Ravenloft's part of the ``companion`` command: the options ``play --game
ravenloft`` takes (monsters and heroes), its policies, the table summary, and
its own commands ``demo`` and ``resolve`` (one Monster Phase, on the sample
table or a position file, with the owner's data if given)."""

from __future__ import annotations

import argparse
import json
from importlib import resources
from pathlib import Path
from typing import Mapping

from companion.engine.game import Game, Step
from companion.games.gamepack import GamePack, Policy
from companion.gamelog import GameLogError
from companion.terminal import (CliError, Session, current, finish, make_answerer, policy_options, read_file, say,
                                show_opening, show_step, start_game)

from .rules import RavenloftRules
from .simulate import context_for, first_policy, play_out, random_policy
from .state import GameState

DEFAULT_CARD = "ambush"
FIRST_MONSTERS = "carrionette,baba-lysaga"
FIRST_HEROES = "sorcerer:Sam,druid:Beau"
ENGINE_FAULTS = (TypeError, KeyError, AttributeError, AssertionError)


class RavenloftCli:
    """``companion.games.gamepack.PackCli`` for Ravenloft."""

    def __init__(self, pack: GamePack, rules: RavenloftRules) -> None:
        self.pack = pack
        self.rules = rules

    def add_play_options(self, parser: argparse.ArgumentParser) -> None:
        """Left out, a game has the monsters the rulebook recommends for a first game and the
        heroes of its examples."""
        parser.add_argument("--monsters", default=FIRST_MONSTERS, help=f"e.g. carrionette,strahd (default: "
                            f"{FIRST_MONSTERS}, the rulebook's first game)")
        parser.add_argument("--heroes", default=FIRST_HEROES, help=f"clockwise, e.g. sorcerer:Sam,druid:Beau "
                            f"(default: {FIRST_HEROES})")

    def setup(self, args: argparse.Namespace) -> Mapping[str, object]:
        return {"monsters": split_list(args.monsters), "heroes": [seat(s) for s in split_list(args.heroes)]}

    def policy(self, name: str, seed: int) -> Policy:
        return random_policy(self.rules, seed) if name == "random" else first_policy(self.rules)

    def step(self, game: Game, policy: Policy) -> Step:
        return play_out(game, policy, game.version + 1)[0]

    def summary(self, game: Game) -> list[str]:
        return summary_lines(self.rules, game)

    def add_commands(self, commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
        _demo_parser(commands, self.pack)
        _resolve_parser(commands, self.pack)


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


def draw_card(session: Session, card_id: str) -> None:
    """Answer the Monster card prompt with the card named on the command line."""
    game = session.game
    state = game.state
    assert isinstance(state, GameState)
    pack = _rules(session).pack_for(state)  # the owner's cards when the game plays with their data
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
    draw_card(session, card or default_card(_rules(session), session.game))
    return finish(session, session.run(monster_phase_over))


def monster_phase_over(game: Game) -> bool:
    """The Monster Phase is done once the next Hero Phase asks for an action (or the game ended)."""
    return game.prompt is None or game.prompt.key == "hero-action"


def _rules(session: Session) -> RavenloftRules:
    rules = session.pack.rules
    assert isinstance(rules, RavenloftRules)
    return rules


def sample_position() -> object:
    """The shipped example: a Monster Phase with all four monsters in play."""
    text = resources.files("companion.games.ravenloft").joinpath("examples/sample-position.json").read_text("utf-8")
    return json.loads(text)


def cmd_demo(pack: GamePack, args: argparse.Namespace) -> int:
    game = start_game(pack, {"position": sample_position()}, "sample-position.json")
    say("Demo: one Monster Phase on the sample table (all four monsters in play).")
    show_opening(game)
    return resolve_phase(Session(pack, game, make_answerer(pack, args)), args.card)


def cmd_resolve(pack: GamePack, args: argparse.Namespace) -> int:
    where = str(args.position)
    game = start_game(pack, position_origin(read_file(args.position), where, args.data), where)
    session = Session(pack, game, make_answerer(pack, args), save=args.save)
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



def split_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def seat(text: str) -> dict[str, str]:
    """``sorcerer:Sam`` is the Sorcerer played by Sam; ``sorcerer`` alone gets a default name."""
    hero, _, player = text.partition(":")
    return {"hero": hero.strip(), "player": player.strip()} if player.strip() else {"hero": hero.strip()}


def _demo_parser(commands: "argparse._SubParsersAction[argparse.ArgumentParser]", pack: GamePack) -> None:
    sub = commands.add_parser("demo", help="Ravenloft: resolve one Monster Phase on the sample table")
    sub.add_argument("--card", help=f"the Monster card drawn (default: {DEFAULT_CARD})")
    policy_options(sub, ("first", "random", "interactive"), None)
    sub.set_defaults(run=lambda args: cmd_demo(pack, args))


def _resolve_parser(commands: "argparse._SubParsersAction[argparse.ArgumentParser]", pack: GamePack) -> None:
    sub = commands.add_parser("resolve", help="Ravenloft: resolve one Monster Phase from a position file")
    sub.add_argument("position", type=Path, metavar="POSITION.json",
                     help="a position, or {\"position\": ..., \"data\": ...} with the owner's game data")
    sub.add_argument("--data", type=Path, metavar="OWNER.json", default=None,
                     help="play on the owner's game data (their board, cards, items: docs/game-data.md)")
    sub.add_argument("--card", required=True, help="the Monster card drawn")
    policy_options(sub, ("first", "random", "interactive", "script"), None)
    sub.add_argument("--script", type=Path, metavar="ANSWERS.json", help="answers for --policy script")
    sub.add_argument("--from-hero-phase", action="store_true",
                     help="accept a Hero Phase position: end the Hero Phase, then resolve")
    sub.add_argument("--save", type=Path, metavar="LOG.json", help="save the game log here")
    sub.set_defaults(run=lambda args: cmd_resolve(pack, args))
