"""The heroes' special actions, as their badges give them (each costs an action, like any other):
pick up items next door (the Archaeologist), move to another hero (the Courier), to any space
on land (the Explorer), to a monster (the Inspector), or move another hero next door to where
they stand (the Professor). A special move is a placement: no villager comes along.

Each kind is a function found by the badge's ``special.kind``; the menu offers every legal
target of the active hero's kind.
"""

from __future__ import annotations

from typing import Callable, Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.registry import Registry
from companion.games.horrified_core.context import Character, GameContext
from companion.games.horrified_core.fields import list_field, text_field
from companion.games.horrified_core.movement import move_character

from .pack_types import badge

Action = Mapping[str, object]
Special = Callable[[GameContext, str, Action], Flow[None]]
Menu = Callable[[GameContext, str], list[dict[str, object]]]
SPECIALS: Registry[tuple[Special, Menu]] = Registry("special action")


def special_action(ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
    kind = badge(ctx.pack, hero_id).special.kind
    yield from SPECIALS[kind][0](ctx, hero_id, action)


def special_menu(ctx: GameContext) -> list[dict[str, object]]:
    hero = ctx.active_player
    if ctx.state.heroes[hero].location is None:
        return []
    return SPECIALS[badge(ctx.pack, hero).special.kind][1](ctx, hero)


def _here(ctx: GameContext, hero_id: str) -> str:
    here = ctx.state.heroes[hero_id].location
    if here is None:
        raise IllegalInput(f"{ctx.hero_name(hero_id)} is not on the board")
    return here


def _place(ctx: GameContext, hero_id: str, to: str, why: str) -> Flow[None]:
    ctx.emit("hero-placed", f"Put {ctx.hero_name(hero_id)} at {ctx.place_name(to)} ({why}).", hero=hero_id, location=to)
    yield from move_character(ctx, Character("hero", hero_id), to)


def _none(ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
    raise IllegalInput(f"{ctx.hero_name(hero_id)} has no special action")
    yield


SPECIALS.add("none", (_none, lambda ctx, hero: []))


# -- the Archaeologist: items from next door -------------------------------------------------------------

def _pick_up_adjacent(ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
    here, there = _here(ctx, hero_id), text_field(action, "from")
    if not ctx.graph.adjacent(here, there):
        raise IllegalInput(f"{ctx.place_name(there)} is not next to {ctx.place_name(here)}")
    items = list_field(action, "items")
    away = [i for i in items if ctx.state.items_at.get(i) != there]
    if not items or away:
        raise IllegalInput(f"pick up one or more items lying at {ctx.place_name(there)}"
                           + (f"; not there: {', '.join(away)}" if away else ""))
    for item in items:
        del ctx.state.items_at[item]
        ctx.state.heroes[hero_id].items.append(item)
    ctx.emit("items-picked-up", f"{ctx.hero_name(hero_id)} picks up {', '.join(ctx.pack.item(i).name for i in items)} "
             f"from {ctx.place_name(there)}.", hero=hero_id, items=items, location=there)
    return
    yield


def _pick_up_menu(ctx: GameContext, hero_id: str) -> list[dict[str, object]]:
    here = _here(ctx, hero_id)
    return [{"action": "special", "from": there, "items": ctx.state.items_on(there)}
            for there in ctx.graph.neighbours[here] if ctx.state.items_on(there)]


SPECIALS.add("pick_up_adjacent", (_pick_up_adjacent, _pick_up_menu))


# -- moves to a place ------------------------------------------------------------------------------------------

def _mover(allowed: Callable[[GameContext, str], list[str]], why: str) -> tuple[Special, Menu]:
    """A special action that puts the hero at one of ``allowed(ctx, hero)``."""
    def run(ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
        _here(ctx, hero_id)
        to = text_field(action, "to")
        if to not in allowed(ctx, hero_id):
            raise IllegalInput(f"{ctx.hero_name(hero_id)}'s special action moves {why}; {ctx.place_name(to)} is not such a space"
                               if to in ctx.graph else f"{to!r} is not a location on this board")
        yield from _place(ctx, hero_id, to, "special action")

    def menu(ctx: GameContext, hero_id: str) -> list[dict[str, object]]:
        return [{"action": "special", "to": to} for to in allowed(ctx, hero_id)]
    return run, menu


def _other_heroes(ctx: GameContext, hero_id: str) -> list[str]:
    here = ctx.state.heroes[hero_id].location
    return sorted({str(h.location) for h in ctx.heroes_on_board() if h.id != hero_id and h.location != here})


def _anywhere(ctx: GameContext, hero_id: str) -> list[str]:
    here = ctx.state.heroes[hero_id].location
    return [place for place in ctx.graph.places if place != here and ctx.walkable(place)]


def _monsters(ctx: GameContext, hero_id: str) -> list[str]:
    here = ctx.state.heroes[hero_id].location
    found = {ctx.where(f) for f in ctx.monster_figures()}
    return sorted(p for p in found if p is not None and p != here and ctx.walkable(p))


SPECIALS.add("move_to_hero", _mover(_other_heroes, "to a space where another hero is"))
SPECIALS.add("move_anywhere", _mover(_anywhere, "to any space on land"))
SPECIALS.add("move_to_monster", _mover(_monsters, "to a space where a monster is"))


# -- the Professor: another hero next door -------------------------------------------------------------------------

def _move_other(ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
    _here(ctx, hero_id)
    other, to = text_field(action, "hero"), text_field(action, "to")
    if other == hero_id or other not in ctx.state.heroes or ctx.state.heroes[other].location is None:
        raise IllegalInput(f"name another hero on the board with 'hero', not {other!r}")
    there = str(ctx.state.heroes[other].location)
    if not ctx.graph.adjacent(there, to):
        raise IllegalInput(f"{ctx.place_name(to)} is not next to {ctx.hero_name(other)} at {ctx.place_name(there)}")
    yield from _place(ctx, other, to, f"{ctx.hero_name(hero_id)}'s special action")


def _move_other_menu(ctx: GameContext, hero_id: str) -> list[dict[str, object]]:
    return [{"action": "special", "hero": h.id, "to": to} for h in ctx.heroes_on_board() if h.id != hero_id
            for to in ctx.graph.neighbours[str(h.location)]]


SPECIALS.add("move_other_hero", (_move_other, _move_other_menu))


def special_label(ctx: GameContext, action: Mapping[str, object]) -> str:
    """The menu's words for a special action."""
    if "from" in action:
        return f"Special action: pick up from {ctx.place_name(str(action['from']))}"
    if "hero" in action:
        return f"Special action: move {ctx.hero_name(str(action['hero']))} to {ctx.place_name(str(action['to']))}"
    return f"Special action: go to {ctx.place_name(str(action.get('to')))}"
