"""Helpers for Siege of Barovia's tests: a fresh game state on the shipped map,
figures put where a test needs them, and the rules' steps driven with the dice
a test names (each roll prompt is answered with the next die, as the table would)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.engine.effects import Effect, EffectSink
from companion.engine.game import Flow, Game
from companion.engine.prompts import Prompt
from companion.games.siege_of_barovia import dm, hero
from companion.games.siege_of_barovia.gamepack import SiegePack
from companion.games.siege_of_barovia.mapdata import shipped_map
from companion.games.siege_of_barovia.setup import new_game
from companion.games.siege_of_barovia.state import DmDid, Figure, SiegeState

#: The shipped map's keyed squares (data/map.json): tests name places, never raw squares, where they can.
MAP = shipped_map()
SQUARE = {place: MAP.square_of(place) for place in MAP.places}


def fresh(players: int = 1, **setup: Any) -> SiegeState:
    """A new game's state: ``players`` heroes at the entrance, the ghoul and the zombie of the setup."""
    origin = {"players": [{"name": f"P{n}"} for n in range(1, players + 1)], **setup}
    return new_game(origin, MAP, EffectSink())


def put(state: SiegeState, figure_id: str, square: str | None) -> Figure:
    figure = state.figures[figure_id]
    figure.square = square
    return figure


def clear_enemies(state: SiegeState) -> None:
    """No creature on the board (a test then puts the ones it needs)."""
    for figure in state.enemies():
        figure.square = None


def drive(flow: Flow[Any], rolls: Iterable[int] = (), choices: Iterable[str] = ()) -> list[Prompt]:
    """Run one step of the rules to its end; each roll is answered with the next of ``rolls``,
    each choice with the next of ``choices``. Returns the prompts asked."""
    dice, picks, asked = list(rolls), list(choices), []
    try:
        prompt = next(flow)
        while True:
            asked.append(prompt)
            prompt = flow.send((dice.pop(0),) if prompt.kind == "roll" else picks.pop(0))
    except StopIteration:
        assert not dice, f"dice left unrolled: {dice}"
        return asked


def act(state: SiegeState, answer: Mapping[str, object], rolls: Iterable[int] = (),
        sink: EffectSink | None = None) -> list[Effect]:
    """One answer of the active hero's turn, carried out; the effects it made."""
    sink = sink or EffectSink()
    drive(hero.take(state, answer, sink), rolls)
    return list(sink.take())


def dm_does(state: SiegeState, turn: dm.DmTurn, rolls: Iterable[int] = (), edge: str | None = None) -> list[Effect]:
    """A whole DM turn, as a person would play it (Strahd lands on ``edge`` on a summoned 6)."""
    sink = EffectSink()

    def arrive(_: SiegeState) -> Flow[str]:
        assert edge is not None, "a test that summons Strahd names his edge square"
        return edge
        yield

    drive(dm.carry_out(state, turn, DmDid("person"), sink, arrive), rolls)
    return list(sink.take())


def kinds(effects: Iterable[Effect]) -> list[str]:
    return [e.kind for e in effects]


def new_game_of(players: int = 2, **setup: Any) -> Game:
    origin = {"setup": {"players": [{"name": f"P{n}"} for n in range(1, players + 1)], **setup}}
    return Game(SiegePack().rules, origin)
