"""Ravenloft's Perk primitives: the shared library (horrified_core.perks) and the cards
that change a d20 roll, which only Ravenloft has: "+N to your next Advance or Defeat
roll" (played as a Hero Phase move) and "change the result" (played in a roll's window,
d20.py, never as a move)."""

from __future__ import annotations

from typing import Mapping

from companion.engine.game import Flow
from companion.games.horrified_core.context import GameContext
from companion.games.horrified_core.fields import Params, amount
from companion.games.horrified_core.perks import COMMON_PERKS, never_offered, perk_kind

from .specials import add_bonus

Action = Mapping[str, object]
PERKS = COMMON_PERKS.extended()


@perk_kind(PERKS, "roll_bonus")
def _roll_bonus(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """"+N to your next Advance or Defeat roll": used up by that roll; ``lasting``: every such roll
    for the rest of this Hero Phase (like the Paladin's bonus)."""
    if params.get("lasting", False):
        add_bonus(ctx, "roll_bonus", amount(params, "amount"), "+{} to Advance and Defeat rolls this Hero Phase.")
    else:
        add_bonus(ctx, "next_roll", amount(params, "amount"), "+{} to the next Advance or Defeat roll this Hero Phase.")
    return
    yield


@perk_kind(PERKS, "adjust_roll", menu=never_offered,
           refusal="changes a d20 roll: it is offered right after a roll, before the roll takes effect")
def _adjust_roll(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """Never reached: the card is played in a roll's window (d20.py), and refused as a move."""
    return
    yield
