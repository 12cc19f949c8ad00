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
    return {**views.state_view(state),
            "mats": views.mat_views(ctx), "figures": views.board_figures(ctx),
            "bonuses": to_plain(state.bonuses), "outcome": state.outcome, "data_id": state.data_id}
