"""Straszydła's part of the ``companion`` command: ``play --game straszydla`` with its options
(how many players, the first time of day, readings), the players who answer a played game,
and the table in a few lines."""

from __future__ import annotations

import argparse
import random
from collections.abc import Mapping

from companion.engine.game import Game, Step
from companion.games.gamepack import Policy

from .policy import Player, first_policy, random_policy
from .readings import BY_ID
from .rules import StraszydlaRules
from .setup import PLAYERS, default_setup
from .state import GameState


class StraszydlaCli:
    """``companion.games.gamepack.PackCli`` for Straszydła."""

    def __init__(self, rules: StraszydlaRules) -> None:
        self.rules = rules

    def add_play_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--players", type=int, default=3, help="2 to 4 players (default: 3); the tiles are laid "
                            "out at random from --seed")
        parser.add_argument("--time", choices=("day", "night"), default=None,
                            help="the time of day the game begins in (default: chosen at random from --seed)")
        parser.add_argument("--reading", action="append", default=[], metavar="ID=ANSWER",
                            help=f"play another reading of the rules (ids: {', '.join(BY_ID)}; docs/straszydla.md)")

    def setup(self, args: argparse.Namespace) -> Mapping[str, object]:
        if args.players not in PLAYERS:
            raise ValueError(f"Straszydła is for 2 to 4 players, not {args.players}")
        setup = default_setup(self.rules.pack, args.players, random.Random(args.seed))
        if args.time:
            setup["time"] = args.time
        setup["readings"] = dict(_reading(text) for text in args.reading)
        return setup

    def policy(self, name: str, seed: int) -> Policy:
        return random_policy(self.rules, seed) if name == "random" else first_policy(self.rules)

    def step(self, game: Game, policy: Policy) -> Step:
        """Answer the question; one each seat answers for itself is answered by one of them (any)."""
        prompt = game.prompt
        assert prompt is not None
        seat = policy.seat(prompt) if isinstance(policy, Player) else None
        answer = policy.answer(prompt, game.state, seat) if isinstance(policy, Player) else policy(prompt, game.state)
        entry: dict[str, object] = {"key": prompt.key, "answer": answer}
        if prompt.each and seat is not None:
            entry["seat"] = seat
        return game.apply(entry)

    def summary(self, game: Game) -> list[str]:
        return summary_lines(self.rules, game)

    def add_commands(self, commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
        return None


def _reading(text: str) -> tuple[str, str]:
    key, _, value = text.partition("=")
    if not value:
        raise ValueError(f"--reading {text!r}: write it as ID=ANSWER, e.g. retreat_cube=loser")
    return key.strip(), value.strip()


def summary_lines(rules: StraszydlaRules, game: Game) -> list[str]:
    state = game.state
    assert isinstance(state, GameState)
    pack = rules.pack_for(state)
    lines = ["== The table ==", f"Round {state.round} ({state.time}, {state.card} horror cubes on the day/night card;"
             f" {state.players[state.starting].name} starts)"]
    for seat in state.order:
        player = state.players[seat]
        creatures = ", ".join(pack.creature(c).name for c in player.creatures) or "no creatures"
        cubes = ", ".join(f"{n} {pack.colour(e)}" for e, n in player.cubes.items() if n) or "no fear cubes"
        lines.append(f"  {player.name:<8} at {pack.tile(player.at).name:<24} {creatures}; {cubes}; "
                     f"{player.energy} white, {player.horror} horror")
    blocked = ", ".join(pack.tile(t).name for t in state.blockades) or "none"
    lines.append(f"Blockades: {blocked}")
    if game.prompt is not None:
        lines.append(f"Next question: {game.prompt.text} [{game.prompt.key}]")
    return lines


__all__ = ["StraszydlaCli", "summary_lines"]
