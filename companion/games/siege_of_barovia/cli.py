"""Siege of Barovia's part of the ``companion`` command: the options of ``play
--game siege-of-barovia`` (the players, who plays the DM, its level, the
seed, the readings), its policies, the table in a few lines, and its own
command ``siege-leds`` (an LED layout for a matrix under the owner's grid)."""

from __future__ import annotations

import argparse
from typing import Mapping

from companion.engine.game import Game, Step
from companion.games.gamepack import GamePack, Policy

from .readings import BY_ID, words
from .setup import DM_MODES, LEVELS
from .simulate import answer_one, first_policy, random_policy
from .state import SiegeState
from .words import where


class SiegeCli:
    """``companion.games.gamepack.PackCli`` for Siege of Barovia."""

    def __init__(self, pack: GamePack) -> None:
        self.pack = pack

    def add_play_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--heroes", default="3", help="how many heroes' players (1 to 6), or their names: "
                            "Ana,Ben,Cy (default: 3)")
        parser.add_argument("--dm", choices=DM_MODES, default="box", help="who plays the Dungeon Master: the box, "
                            "or a person (here: the policy answers for them too) (default: box)")
        parser.add_argument("--level", choices=LEVELS, default="normal", help="the box DM's level (default: normal)")
        parser.add_argument("--reading", action="append", default=[], metavar="ID=CHOICE",
                            help=f"play a reading the other way, e.g. ghoul_summon=printed-e11 (readings: "
                                 f"{', '.join(BY_ID)})")

    def setup(self, args: argparse.Namespace) -> Mapping[str, object]:
        return {"players": players(args.heroes), "dm": args.dm, "level": args.level, "seed": args.seed,
                "readings": readings(args.reading)}

    def policy(self, name: str, seed: int) -> Policy:
        return random_policy(seed) if name == "random" else first_policy()

    def step(self, game: Game, policy: Policy) -> Step:
        return answer_one(game, policy)

    def summary(self, game: Game) -> list[str]:
        return summary_lines(game)

    def add_commands(self, commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
        from .leds import add_layout_command

        add_layout_command(commands)


def players(text: str) -> list[dict[str, str]]:
    if text.strip().isdigit():
        count = int(text)
        if not 1 <= count <= 6:
            raise ValueError("from 1 to 6 heroes")
        return [{"name": f"Player {n}"} for n in range(1, count + 1)]
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise ValueError("give a number of heroes or their players' names")
    return [{"name": name} for name in names]


def readings(entries: list[str]) -> dict[str, str]:
    chosen = {}
    for entry in entries:
        key, _, choice = entry.partition("=")
        if not choice:
            raise ValueError(f"--reading {entry!r}: write ID=CHOICE, e.g. ghoul_summon=printed-e11")
        chosen[key.strip()] = choice.strip()
    return chosen


def summary_lines(game: Game) -> list[str]:
    """The table in a few lines, from the state alone (a replay prints what the game printed)."""
    state = game.state
    assert isinstance(state, SiegeState)
    status = f"Game over: {state.outcome}" if game.over else f"Game on: round {state.turn}, {state.player.name}'s turn"
    houses = ", ".join(f"{state.map.places[h].name}{' (destroyed)' if h in state.destroyed else ''}"
                       for h in ("tavern", "mercantile", "estate"))
    lines = ["== The village ==", status, f"DM: {'the box, ' + state.level if state.dm == 'box' else 'a person'}"
             f" ({state.dm_turns} turns)", f"Safe houses: {houses}", f"Barricades: {len(state.barricades)}", "Heroes:"]
    for player in state.players:
        figure = state.figure_of(player)
        lines.append(f"  {player.name:<12} " + (f"{figure.name}, {figure.hp} hp, at {where(state, figure.square)}"
                                               f"{', upgraded' if figure.upgraded else ''}" if figure else "no figure"))
    enemies = state.enemies()
    lines.append("Enemies: " + (", ".join(f"{e.name} at {where(state, e.square)}" for e in enemies) or "none"))
    return lines + ["Readings:"] + [f"  {line}" for line in words(state.readings)]


__all__ = ["SiegeCli", "players", "readings", "summary_lines"]
