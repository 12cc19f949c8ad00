"""Shared checks for Advance and Defeat actions (RL-HA-5, RL-HA-6, RL-IT-4): where the hero
must stand, which items they spend, and the bounded item choices a menu offers."""

from __future__ import annotations

from typing import Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow

from .context import GameContext
from .items import discard_item
from .pack_types import ItemType


def require_at(ctx: GameContext, hero_id: str, location: str | None, what: str, distanced: bool = False) -> None:
    """The hero must stand at ``location`` (a distanced Advance skips this)."""
    here = ctx.state.heroes[hero_id].location
    if distanced:
        return
    if location is None or here != location:
        raise IllegalInput(f"{ctx.hero_name(hero_id)} must be at {ctx.place_name(location)} to {what}, "
                           f"but is at {ctx.place_name(here)}")


def away_from(ctx: GameContext, hero_id: str, location: str | None, what: str) -> str | None:
    """Why the hero is in the wrong place for ``what``, or None if they stand right."""
    try:
        require_at(ctx, hero_id, location, what)
    except IllegalInput as problem:
        return str(problem)
    return None


def items_named(action: Mapping[str, object], key: str = "items") -> list[str]:
    value = action.get(key, [])
    if isinstance(value, str):
        return [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise IllegalInput(f"'{key}' must be a list of item ids, got {value!r}")
    return list(value)


def check_items(ctx: GameContext, hero_id: str, items: list[str], item_type: ItemType | None = None,
                count: int | None = None, at_least: int = 1) -> list[str]:
    """Items the hero holds, of the type asked for: ``count`` exactly, or ``at_least`` (RL-IT-4)."""
    hero = ctx.state.heroes[hero_id]
    if len(set(items)) != len(items):
        raise IllegalInput("the same item was named twice")
    missing = [i for i in items if i not in hero.items]
    if missing:
        raise IllegalInput(f"{ctx.hero_name(hero_id)} does not hold {', '.join(missing)}")
    wrong = [i for i in items if item_type is not None and ctx.pack.item(i).type != item_type]
    if wrong:
        raise IllegalInput(f"only {item_type} items count here, not {', '.join(wrong)}")
    if count is not None and len(items) != count:
        raise IllegalInput(f"exactly {count} item(s) are needed, not {len(items)}")
    if len(items) < at_least:
        raise IllegalInput(f"at least {at_least} {item_type or ''} item(s) are needed".replace("  ", " "))
    return items


def strength(ctx: GameContext, items: list[str]) -> int:
    return sum(ctx.pack.item(i).strength for i in items)


def spend(ctx: GameContext, items: list[str], why: str) -> None:
    for item in items:
        discard_item(ctx, item, why)


def spend_and_check(ctx: GameContext, items: list[str], key: str, what: str, target: int) -> Flow[bool]:
    """Items go to the discard before the check: they were put at risk, so they are spent
    either way. The edition says how the check is made (a roll, or the strength alone)."""
    spend(ctx, items, f"spent to {what}")
    return (yield from ctx.edition.challenge_check(ctx, key, what, strength(ctx, items), target))


def held_of_type(ctx: GameContext, hero_id: str, item_type: ItemType | None) -> list[str]:
    return [i for i in ctx.state.heroes[hero_id].items if item_type is None or ctx.pack.item(i).type == item_type]


def by_strength(ctx: GameContext, items: list[str], strongest_first: bool = False) -> list[str]:
    sign = -1 if strongest_first else 1
    return sorted(items, key=lambda i: (sign * ctx.pack.item(i).strength, i))


def one_per_strength(ctx: GameContext, items: list[str]) -> list[str]:
    """The weakest item of each different strength: the only choices that play differently."""
    chosen: dict[int, str] = {}
    for item in by_strength(ctx, items):
        chosen.setdefault(ctx.pack.item(item).strength, item)
    return list(chosen.values())


def item_sets(ctx: GameContext, items: list[str], limit: int = 6) -> list[list[str]]:
    """Bounded item choices for a roll: the strongest one, the strongest two, ... up to ``limit``."""
    ranked = by_strength(ctx, items, strongest_first=True)
    return [ranked[:count] for count in range(1, min(len(ranked), limit) + 1)]


def names_of(ctx: GameContext, items: list[str]) -> str:
    return ", ".join(f"the {ctx.pack.item(i).name}" for i in items) or "nothing"
