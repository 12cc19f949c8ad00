"""The public view of a game of this pack: what every tablet, phone and the LEDs see of it, on
the original board or in a mixed game (docs/protocol.md, "The original Horrified's view").

Nothing in Horrified is one player's secret (it is cooperative, and the Perk cards are played
face up), so there is no seat view; the owner's data document a game carries is left out (it
reaches a tablet once, in the pack view).
"""

from __future__ import annotations

from companion.engine.plain import to_plain
from companion.games.horrified_core import views
from companion.games.horrified_core.context import GameContext, areas_of
from companion.games.horrified_core.state import GameState

from .mixed import MixedGame
from .ownerdata import GAME

View = dict[str, object]


def public_view(ctx: GameContext) -> View:
    """Each monster's mat is its plug-in's view of it (``lines``: the mat in words), ``figures`` the
    tokens and second figures its plug-in puts on the board, ``areas`` the parts of the board on
    the table, ``board`` whose board it is and ``mix`` the mapping of a mixed game (None otherwise)."""
    state = ctx.state
    return {**views.state_view(state),
            "mats": views.mat_views(ctx), "figures": views.board_figures(ctx), "bonuses": to_plain(state.bonuses),
            "areas": sorted(areas_of(ctx.monster_rules.values())), **_board(state),
            "outcome": state.outcome, "data_id": state.data_id}


def _board(state: GameState) -> View:
    if not isinstance(state, MixedGame):
        return {"board": GAME, "mix": None}
    return {"board": state.mix.get("board"), "mix": {k: v for k, v in state.mix.items() if k != "data"}}
