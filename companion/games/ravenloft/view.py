"""Ravenloft's public view: what every tablet, phone and the LEDs see of a game
(docs/protocol.md, "Ravenloft's view").

Why a view of its own and not the state: the state is the rules' bookkeeping
and changes shape with them; the view is the protocol, documented and kept
stable. Nothing in Ravenloft is hidden from anyone at the table (it is
cooperative: the Perk cards in hand are shown and discussed), so there is no
seat view; but the owner's data document the game carries is left out (it
reaches a tablet once, in the pack view).
"""

from __future__ import annotations

from companion.engine.plain import to_plain
from companion.games.horrified_core import views
from companion.games.horrified_core.context import GameContext

from .state import GameState

View = dict[str, object]


def public_view(ctx: GameContext) -> View:
    """Each monster's mat is its plug-in's view of it (its fields, and ``lines``: the mat in
    words), and ``figures`` are the minions and tokens its plug-in puts on the board."""
    state = ctx.state
    assert isinstance(state, GameState)
    return {**_turn(state), **_figures(state), **_cards_and_items(state),
            "mats": views.mat_views(ctx), "figures": views.board_figures(ctx),
            "bonuses": to_plain(state.bonuses), "outcome": state.outcome, "data_id": state.data_id}


def _turn(state: GameState) -> View:
    return {"phase": state.phase, "turn": state.turn, "seats": list(state.seats), "active": state.active,
            "actions_left": state.actions_left, "terror": state.terror, "frenzy": state.frenzy}


def _figures(state: GameState) -> View:
    return {"heroes": {h: to_plain(hero) for h, hero in state.heroes.items()},
            "monsters": {m: to_plain(monster) for m, monster in state.monsters.items()},
            "villagers": {v: to_plain(villager) for v, villager in state.villagers.items()}}


def _cards_and_items(state: GameState) -> View:
    """Which cards and tokens are left is no secret: each deck and the Haversack hold what is nowhere else."""
    return {"deck": list(state.deck), "played_cards": list(state.played_cards),
            "entered_cards": to_plain(state.entered_cards), "items_at": dict(state.items_at),
            "item_discard": list(state.item_discard), "removed_items": list(state.removed_items),
            "haversack": list(state.haversack), "perk_deck": list(state.perk_deck),
            "perk_discard": list(state.perk_discard)}
