"""Siege of Barovia's rules as the engine's coroutine: each player's turn in
seat order (their hero's move and action, or a militia raised), then the
Dungeon Master's turn, until a hero stops the plague in the Church or the DM
has destroyed every safe house.

The DM's turn is asked of the DM's seat alone when a person plays it (their
phone; the heroes' tablets see only that the DM is choosing, and cannot
answer), or decided by the box's policy (policy.py) from the state and the
game's seed. Either way the dice are rolled at the table, in the open.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from companion.engine.effects import EffectSink
from companion.engine.errors import SetupError
from companion.engine.game import Flow
from companion.engine.prompts import Prompt

from . import dm, hero, policy
from .ownerdata import Maps
from .setup import new_game
from .state import DM_SEAT, DmDid, SiegeState

HERO_TURN: Final = "hero-turn"
DM_TURN: Final = "dm-turn"


class SiegeRules:
    """``begin`` for the engine (companion.engine.game.Rules)."""

    def __init__(self, maps: Maps | None = None) -> None:
        self.maps = maps or Maps()

    def begin(self, origin: Mapping[str, object], sink: EffectSink) -> tuple[SiegeState, Flow[None]]:
        if "setup" not in origin:
            raise SetupError("a game of Siege of Barovia starts from a 'setup' (players, dm, level, seed, readings)")
        try:
            siege_map = self.maps.for_data(origin.get("data"))
        except ValueError as problem:
            raise SetupError(f"the owner's map cannot be played: {problem}") from None
        state = new_game(origin["setup"], siege_map, sink)
        return state, play(state, sink)


def play(state: SiegeState, sink: EffectSink) -> Flow[None]:
    try:
        while True:
            yield from player_turn(state, sink)
            yield from dm_turn(state, sink)
            _pass_on(state)
    except hero.GameEnded:
        state.phase = "over"


# -- a player's turn --------------------------------------------------------------------------------------

def player_turn(state: SiegeState, sink: EffectSink) -> Flow[None]:
    player = state.player
    state.phase, state.moved, state.acted, state.hustled = "hero", False, False, False
    figure = state.figure_of(player)
    sink.emit("turn", f"{player.name}'s turn" + (f" ({figure.name})." if figure else ": no figure on the board."),
              player=player.id, turn=state.turn)
    while not hero.turn_over(state):
        answer = yield hero_prompt(state)
        assert isinstance(answer, Mapping)
        yield from hero.take(state, answer, sink)


def hero_prompt(state: SiegeState) -> Prompt:
    player = state.player
    figure = state.figure_of(player)
    if figure is None:
        text = f"{player.name} has no figure on the board: raise a peasant militia at a safe house, or pass."
    elif not state.moved and not state.acted:
        text = f"{player.name}'s turn: move {figure.name} one square and take one action."
    elif not state.acted:
        text = f"{figure.name} has moved: now one action, or end the turn."
    else:
        text = f"{figure.name} has acted: move one square, or end the turn."
    return Prompt("action", HERO_TURN, text, player.id,
                  context={"player": player.id, "figure": figure.id if figure else None, "moved": state.moved,
                           "acted": state.acted})


# -- the Dungeon Master's turn ----------------------------------------------------------------------------

def dm_turn(state: SiegeState, sink: EffectSink) -> Flow[None]:
    state.phase = "dm"
    state.dm_turns += 1
    sink.emit("dm-turn-begins", "The Dungeon Master's turn" + (": the box plays it." if state.dm == "box" else "."),
              by=state.dm)
    if state.dm == "box":
        choice = policy.choose(state)
        sink.emit("dm-why", choice.why, why=choice.why, turn=choice.turn.to_plain())
        yield from dm.carry_out(state, choice.turn, DmDid("box", why=choice.why), sink, _box_arrival)
        return
    answer = yield Prompt("action", DM_TURN, "Dungeon Master: move one zombie, ghoul or Count Strahd one square, "
                          "then attack, summon or destroy a safe house.", DM_SEAT, audience=(DM_SEAT,))
    assert isinstance(answer, Mapping)
    turn = dm.parse_turn(state, answer)
    yield from dm.carry_out(state, turn, DmDid("person"), sink, _person_arrival)


def _box_arrival(state: SiegeState) -> Flow[str]:
    return policy.arrival(state)
    yield


def _person_arrival(state: SiegeState) -> Flow[str]:
    if len(state.map.edge) == 1:
        return state.map.edge[0]
    answer = yield dm.edge_prompt(state)
    return str(answer)


def _pass_on(state: SiegeState) -> None:
    state.active = (state.active + 1) % len(state.players)
    if state.active == 0:
        state.turn += 1


__all__ = ["DM_TURN", "HERO_TURN", "SiegeRules", "hero_prompt", "play"]
