"""Changes the players report after doing something by hand (a "manual" card
event or perk): figures placed, terror moved, the Frenzy marker moved, items
discarded or given to another hero, a hero no monster attacks this turn.
Every change is checked before any is applied."""

from __future__ import annotations

from typing import Callable, Mapping, Protocol

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow

from .arrivals import hero_arrives, villager_arrives
from .context import GameContext
from .items import discard_item
from .terror import change_terror

Change = Mapping[str, object]


def apply_changes(ctx: GameContext, answer: Mapping[str, object]) -> Flow[None]:
    changes = answer.get("changes", [])
    if not isinstance(changes, list) or not all(isinstance(c, Mapping) for c in changes):
        raise IllegalInput("'changes' must be a list of objects like {'place': 'hero:HERO', 'at': 'LOCATION'}")
    _refuse_an_item_twice(changes)
    appliers = [_checked(ctx, change) for change in changes]
    for apply in appliers:
        yield from apply()


def _refuse_an_item_twice(changes: list[Mapping[str, object]]) -> None:
    """Every change is checked against the table as it was: one item cannot be handed on twice."""
    named = [str(c.get("give", c.get("discard"))) for c in changes if "give" in c or "discard" in c]
    twice = sorted({item for item in named if named.count(item) > 1})
    if twice:
        raise IllegalInput(f"these items are given or discarded more than once in one report: {', '.join(twice)}")


def _checked(ctx: GameContext, change: Change) -> Callable[[], Flow[None]]:
    for key, checker in _CHECKERS.items():
        if key in change:
            return checker(ctx, change)
    raise IllegalInput(f"unknown change {dict(change)!r}: use {', '.join(_CHECKERS)}")


def _check_place(ctx: GameContext, change: Change) -> Callable[[], Flow[None]]:
    kind, _, who = str(change["place"]).partition(":")
    at = change.get("at")
    if at is not None and (not isinstance(at, str) or at not in ctx.graph):
        raise IllegalInput(f"cannot place anything at {at!r}: no such location on this board")
    table = _figures(ctx).get(kind)
    if table is None or who not in table:
        raise IllegalInput(f"no {kind or 'figure'} called {who!r} in this game")
    location = at if isinstance(at, str) else None
    if location is not None and kind != "monster" and not ctx.walkable(location):
        raise IllegalInput(f"a {kind} cannot stand at {ctx.place_name(location)}")

    def apply() -> Flow[None]:
        table[who].location = location
        ctx.emit("figure-placed", f"{who} is now at {ctx.place_name(location)}.", figure=f"{kind}:{who}", location=location)
        if kind == "hero":
            yield from hero_arrives(ctx, who)
        elif kind == "villager":
            ctx.state.villagers[who].clutched = False
            yield from villager_arrives(ctx, who)
    return apply


class _Placeable(Protocol):
    location: str | None


def _figures(ctx: GameContext) -> dict[str, Mapping[str, _Placeable]]:
    return {"hero": ctx.state.heroes, "villager": ctx.state.villagers, "monster": ctx.state.monsters}


def _check_terror(ctx: GameContext, change: Change) -> Callable[[], Flow[None]]:
    delta = change["terror"]
    if isinstance(delta, bool) or not isinstance(delta, int) or not -3 <= delta <= 3:
        raise IllegalInput(f"terror change must be a whole number from -3 to 3, got {delta!r}")

    def apply() -> Flow[None]:
        change_terror(ctx, delta, "the card says so")
        return
        yield
    return apply


def _check_frenzy(ctx: GameContext, change: Change) -> Callable[[], Flow[None]]:
    monster = change["frenzy"]
    if monster not in {m.id for m in ctx.state.monsters_in_play()}:
        raise IllegalInput(f"the Frenzy marker can only go to a monster in play, not {monster!r}")

    def apply() -> Flow[None]:
        ctx.state.frenzy = str(monster)
        ctx.emit("frenzy", f"The Frenzy marker is on {ctx.monster(str(monster)).name}.", monster=monster)
        return
        yield
    return apply


def _check_discard(ctx: GameContext, change: Change) -> Callable[[], Flow[None]]:
    item = change["discard"]
    held = {i for h in ctx.state.heroes.values() for i in h.items} | set(ctx.state.items_at)
    if item not in held:
        raise IllegalInput(f"{item!r} is not on the board or in a hero's hands, so it cannot be discarded")

    def apply() -> Flow[None]:
        discard_item(ctx, str(item), "the card says so")
        return
        yield
    return apply


def _check_give(ctx: GameContext, change: Change) -> Callable[[], Flow[None]]:
    """An item passes from one hero's hands to another's (cards that make heroes trade)."""
    item, taker = change["give"], change.get("to")
    giver = next((h for h in ctx.state.heroes.values() if item in h.items), None)
    if giver is None:
        raise IllegalInput(f"no hero holds {item!r}, so it cannot be given")
    if not isinstance(taker, str) or taker not in ctx.state.heroes:
        raise IllegalInput(f"'to' must name a hero in this game, got {taker!r}")

    def apply() -> Flow[None]:
        giver.items.remove(str(item))
        ctx.state.heroes[taker].items.append(str(item))
        ctx.emit("item-shared", f"{ctx.hero_name(giver.id)} gives the {ctx.pack.item(str(item)).name} "
                 f"to {ctx.hero_name(taker)}.", item=item, giver=giver.id, taker=taker)
        return
        yield
    return apply


def _check_spare(ctx: GameContext, change: Change) -> Callable[[], Flow[None]]:
    """A hero no monster attacks for the rest of this turn (a card like Rictavio's Disguise, done by hand)."""
    who = change["spare"]
    if not isinstance(who, str) or who not in ctx.state.heroes:
        raise IllegalInput(f"'spare' must name a hero in this game, got {who!r}")

    def apply() -> Flow[None]:
        spare(ctx, who)
        return
        yield
    return apply


def spare(ctx: GameContext, hero_id: str) -> None:
    """No monster attacks ``hero_id`` in this turn's Monster Phase (its targets and its Powers' hits)."""
    if hero_id not in ctx.state.heroes:
        raise IllegalInput(f"there is no hero {hero_id!r} in this game")
    spared = ctx.state.bonuses.spared
    if hero_id not in spared:
        spared.append(hero_id)
    ctx.emit("hero-spared", f"No monster attacks {ctx.hero_name(hero_id)} in this turn's Monster Phase.",
             hero=hero_id)


_CHECKERS: dict[str, Callable[[GameContext, Change], Callable[[], Flow[None]]]] = {
    "give": _check_give,
    "spare": _check_spare,
    "place": _check_place,
    "terror": _check_terror,
    "frenzy": _check_frenzy,
    "discard": _check_discard,
}
