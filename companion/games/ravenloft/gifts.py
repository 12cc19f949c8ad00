"""Dark Gifts (RL-HA-8): accepted at any time, free, permanent; they flip the
hero tile (a new special-action table) and add the Gift's effect."""

from __future__ import annotations

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.prompts import Option
from companion.games.horrified_core.attack import Defence, defend_hero
from companion.games.horrified_core.context import Figure, GameContext
from companion.games.horrified_core.terror import raise_terror

from .pack_types import D20Entry, tile
from .state import hero_of


def gift_effects(ctx: GameContext, hero_id: str, accepted: bool = True) -> dict[str, int]:
    """The Gift's effects by kind, with their amount (1 where none is given).

    With ``accepted`` the hero must have taken the Gift; without it, this tells
    what the Gift *would* do (to offer it at the right moment).
    """
    if accepted and not hero_of(ctx.state, hero_id).gift:
        return {}
    return {e.kind: _amount(e.params.get("amount", 1)) for e in tile(ctx.pack, hero_id).gift.effects}


def _amount(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 1


def accept_gift(ctx: GameContext, hero_id: str) -> None:
    if hero_id not in ctx.state.heroes:
        raise IllegalInput(f"there is no hero {hero_id!r} in this game")
    hero = hero_of(ctx.state, hero_id)
    if hero.gift:
        raise IllegalInput(f"{ctx.hero_name(hero_id)} has already accepted the Dark Gift")
    hero.gift = True
    gift = tile(ctx.pack, hero_id).gift
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
    hero = hero_of(ctx.state, hero_id)
    if hero.gift or value == 1:
        return False
    if need is not None:
        bonus = gift_effects(ctx, hero_id, accepted=False).get("roll_bonus_always", 0)
        return value < need <= value + bonus
    tiled = tile(ctx.pack, hero_id)
    before, after = table_row(tiled.special, value).effect, table_row(tiled.special_after_gift, value).effect
    return after.kind != "nothing" and (before.kind, dict(before.params)) != (after.kind, dict(after.params))


def table_row(table: tuple[D20Entry, ...], value: int) -> D20Entry:
    """The row of a hero tile's table for a roll's result (a result over 20 reads as 20)."""
    wanted = max(1, min(value, 20))
    for row in table:
        if row.low <= wanted <= row.high:
            return row
    raise ValueError(f"the hero table has no row for {wanted}")  # the pack loader forbids gaps


# -- what a Gift does when monsters attack (RL-HE-1 and the tiles) ---------------------------------

def ignore_first_hit(ctx: GameContext, hero_id: str, hits: int) -> int:
    """Yog's Gift: the first hit on the hero each turn is ignored."""
    hero = hero_of(ctx.state, hero_id)
    if hits and hero.gift and "ignore_first_hit" in gift_effects(ctx, hero_id) and hero.hit_ignored_turn != ctx.state.turn:
        hero.hit_ignored_turn = ctx.state.turn
        hits -= 1
        ctx.emit("hit-ignored", f"{ctx.hero_name(hero_id)}'s Dark Gift ignores the first hit this turn.", hero=hero_id, hits=1)
    return hits


def gift_defences(ctx: GameContext, hero_id: str, hits: int) -> list[Defence]:
    """A hit hero whose Gift would ignore a hit may accept it first (RL-HA-8)."""
    if hero_of(ctx.state, hero_id).gift or "ignore_first_hit" not in gift_effects(ctx, hero_id, accepted=False):
        return []
    gift = tile(ctx.pack, hero_id).gift.name
    option = Option("gift", f"Accept the Dark Gift ({gift}) first",
                    {"confirm": f"{gift} is for good: {ctx.hero_name(hero_id)}'s tile is flipped for the rest of the game."})
    return [Defence(option, _accept_gift_then_defend)]


def _accept_gift_then_defend(ctx: GameContext, hero_id: str, hits: int, by: Figure | None) -> Flow[None]:
    if not hero_of(ctx.state, hero_id).gift:  # it may have been accepted while the question stood
        accept_gift(ctx, hero_id)
    hits = ctx.edition.absorb_hits(ctx, hero_id, hits)
    if hits > 0:
        yield from defend_hero(ctx, hero_id, hits, by)


def defence_items_lost(ctx: GameContext, hero_id: str) -> str:
    if "defence_items_lost" not in gift_effects(ctx, hero_id):
        return ""
    return f"{ctx.hero_name(hero_id)}'s Dark Gift: an item that stops a hit is lost for good"


def defeat_costs_more(ctx: GameContext, hero_id: str) -> None:
    extra = gift_effects(ctx, hero_id).get("defeat_terror", 0)
    if extra:
        raise_terror(ctx, f"{ctx.hero_name(hero_id)}'s Dark Gift: a defeat costs more", times=extra)


def villager_death_terror(ctx: GameContext) -> int:
    """How far terror rises for a dead villager: more with the Sorcerer's Gift (RL-HE-1)."""
    extra = [gift_effects(ctx, h.id).get("villager_death_terror", 1) for h in ctx.state.heroes.values()
             if hero_of(ctx.state, h.id).gift]
    return max([1, *extra])
