"""Dark Gifts (RL-HA-8): accepted at any time, free, permanent; they flip the
hero tile (a new special-action table) and add the Gift's effect."""

from __future__ import annotations

from companion.engine.errors import IllegalInput

from .context import GameContext
from .pack_types import D20Entry


def gift_effects(ctx: GameContext, hero_id: str, accepted: bool = True) -> dict[str, int]:
    """The Gift's effects by kind, with their amount (1 where none is given).

    With ``accepted`` the hero must have taken the Gift; without it, this tells
    what the Gift *would* do (to offer it at the right moment).
    """
    if accepted and not ctx.state.heroes[hero_id].gift:
        return {}
    return {e.kind: _amount(e.params.get("amount", 1)) for e in ctx.pack.hero(hero_id).gift.effects}


def _amount(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 1


def accept_gift(ctx: GameContext, hero_id: str) -> None:
    if hero_id not in ctx.state.heroes:
        raise IllegalInput(f"there is no hero {hero_id!r} in this game")
    hero = ctx.state.heroes[hero_id]
    if hero.gift:
        raise IllegalInput(f"{ctx.hero_name(hero_id)} has already accepted the Dark Gift")
    hero.gift = True
    gift = ctx.pack.hero(hero_id).gift
    ctx.emit("dark-gift", f"{hero.player} accepts the Dark Gift {gift.name}: flip the hero tile. {gift.text}",
             hero=hero_id, gift=gift.name)
    extra = gift_effects(ctx, hero_id).get("extra_actions")
    if extra and ctx.state.phase == "hero" and ctx.active_player == hero_id:
        ctx.state.actions_left += extra


def gift_changes_roll(ctx: GameContext, hero_id: str, value: int, need: int | None) -> bool:
    """Whether accepting the hero's Gift now, before the roll takes effect, can change what it does.

    ``need``: for an Advance or Defeat roll, what the roll's result must reach (the target less the
    items and other bonuses); the Gift matters when its bonus turns a miss into a success. For a
    special action (``need`` None), when the flipped tile's row for this result does something
    else, and not nothing: accepting then would only lose this roll's effect, and the Gift can
    still be accepted once it is done."""
    hero = ctx.state.heroes[hero_id]
    if hero.gift or value == 1:
        return False
    if need is not None:
        bonus = gift_effects(ctx, hero_id, accepted=False).get("roll_bonus_always", 0)
        return value < need <= value + bonus
    tile = ctx.pack.hero(hero_id)
    before, after = table_row(tile.special, value).effect, table_row(tile.special_after_gift, value).effect
    return after.kind != "nothing" and (before.kind, dict(before.params)) != (after.kind, dict(after.params))


def table_row(table: tuple[D20Entry, ...], value: int) -> D20Entry:
    """The row of a hero tile's table for a roll's result (a result over 20 reads as 20)."""
    wanted = max(1, min(value, 20))
    for row in table:
        if row.low <= wanted <= row.high:
            return row
    raise ValueError(f"the hero table has no row for {wanted}")  # the pack loader forbids gaps
