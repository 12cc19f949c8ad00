"""Dark Gifts (RL-HA-8): accepted at any time, free, permanent; they flip the
hero tile (a new special-action table) and add the Gift's effect."""

from __future__ import annotations

from companion.engine.errors import IllegalInput

from .context import GameContext


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
