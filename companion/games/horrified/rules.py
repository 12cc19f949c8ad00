"""The original Horrified's rules as the engine runs them: the Horrified core (horrified_core.rules)
with this box's edition, its shipped pack and its owner-data overlay, and the setup rules of the
box: one to five players, and the solo game (the Terror marker higher, a hero and two Perk cards
left out, as the board's ``solo`` data says)."""

from __future__ import annotations

from companion.engine.errors import SetupError
from companion.games.horrified_core.pack_types import Pack
from companion.games.horrified_core.rules import HorrifiedRules, Origin
from companion.games.horrified_core.state import GameState

from .edition import OriginalEdition
from .ownerdata import OVERLAY
from .pack import load_pack
from .pack_types import board_of

PLAYERS = 5  # the box plays 1 to 5


class OriginalRules(HorrifiedRules):
    """The Rules the generic :class:`Game` runner plays for a game on the original board."""

    name = "horrified"

    def __init__(self, pack: Pack | None = None) -> None:
        super().__init__(OriginalEdition(), OVERLAY, pack or load_pack())

    def starting_state(self, origin: Origin) -> GameState:
        state = super().starting_state(origin)
        if "setup" in origin:
            solo_setup(self.pack_for(state), state)
        return state


def solo_setup(pack: Pack, state: GameState) -> None:
    """One to five players; alone, the Terror marker starts higher, and a hero and some Perk cards
    are not played (they could do nothing without another hero)."""
    if len(state.seats) > PLAYERS:
        raise SetupError(f"the box plays 1 to {PLAYERS} players, not {len(state.seats)}")
    if len(state.seats) != 1:
        return
    solo = board_of(pack).solo
    left_out = [h for h in state.seats if h in solo.no_heroes]
    if left_out:
        raise SetupError(f"the {pack.hero(left_out[0]).name} is not played alone (their special action needs "
                         "another hero): choose another hero")
    state.terror = solo.terror
    state.perk_deck = [p for p in state.perk_deck if p not in solo.no_perks]
