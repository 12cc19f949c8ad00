"""The hero actions every edition has (RL-HA-1 .. RL-HA-4): each checks the table first
and raises ``IllegalInput`` with the reason when the rules do not allow it."""

from __future__ import annotations

from typing import Callable, Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow

from .arrivals import hero_arrives, villager_arrives
from .context import GameContext
from .fields import list_field, text_field
from .monsters import MonsterRules

Action = Mapping[str, object]
HeroAction = Callable[[GameContext, str, Action], Flow[None]]


def here_of(ctx: GameContext, hero_id: str) -> str:
    here = ctx.state.heroes[hero_id].location
    if here is None:
        raise IllegalInput(f"{ctx.hero_name(hero_id)} is not on the board")
    return here


def require_adjacent(ctx: GameContext, a: str, b: str) -> None:
    if b not in ctx.graph:
        raise IllegalInput(f"{b!r} is not a location on this board")
    if not ctx.graph.adjacent(a, b):
        raise IllegalInput(f"{ctx.place_name(b)} is not next to {ctx.place_name(a)}")


def move(ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
    """RL-HA-1: to an adjacent location, villagers from the start location may come along."""
    here, to = here_of(ctx, hero_id), text_field(action, "to")
    require_adjacent(ctx, here, to)
    escorted = list_field(action, "villagers")
    for villager in escorted:
        if villager not in ctx.state.villagers or ctx.state.villagers[villager].location != here:
            raise IllegalInput(f"{villager!r} is not at {ctx.place_name(here)}, so cannot come along")
    ctx.state.heroes[hero_id].location = to
    ctx.emit("hero-moved", f"Move {ctx.hero_name(hero_id)} from {ctx.place_name(here)} to {ctx.place_name(to)}"
             + (f" with {', '.join(ctx.pack.villager(v).name for v in escorted)}." if escorted else "."),
             hero=hero_id, path=[here, to], villagers=escorted)
    for villager in escorted:
        ctx.state.villagers[villager].location, ctx.state.villagers[villager].clutched = to, False
        yield from villager_arrives(ctx, villager)
    yield from hero_arrives(ctx, hero_id)


def guide(ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
    """RL-HA-2: one villager from here to next door, or from next door to here."""
    here, to = here_of(ctx, hero_id), text_field(action, "to")
    who = text_field(action, "villager")
    villager = ctx.state.villagers.get(who)
    if villager is None or villager.location is None:
        raise IllegalInput(f"{who!r} is not a villager on the board")
    start = villager.location
    if not ((start == here and ctx.graph.adjacent(here, to)) or (to == here and ctx.graph.adjacent(start, here))):
        raise IllegalInput(f"Guide moves a villager between {ctx.place_name(here)} and a location next to it; "
                           f"{ctx.place_name(start)} → {ctx.place_name(to)} is not that")
    villager.location, villager.clutched = to, False
    ctx.emit("villager-moved", f"Move {ctx.pack.villager(who).name} from {ctx.place_name(start)} to {ctx.place_name(to)}.",
             villager=who, path=[start, to])
    yield from villager_arrives(ctx, who)


def pick_up(ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
    """RL-HA-3: any number of items (and Relics, RL-IT-5) from the hero's location."""
    here = here_of(ctx, hero_id)
    items, relics = list_field(action, "items"), list_field(action, "relics")
    if not items and not relics:
        raise IllegalInput("Pick Up needs at least one item or relic")
    away = [i for i in items if ctx.state.items_at.get(i) != here]
    if away:
        raise IllegalInput(f"not at {ctx.place_name(here)}: {', '.join(away)}")
    for item in items:
        del ctx.state.items_at[item]
        ctx.state.heroes[hero_id].items.append(item)
    if items:
        ctx.emit("items-picked-up", f"{ctx.hero_name(hero_id)} picks up {', '.join(ctx.pack.item(i).name for i in items)}.",
                 hero=hero_id, items=items, location=here)
    if relics:
        _pick_up_relics(ctx, hero_id, relics)
    return
    yield


def _pick_up_relics(ctx: GameContext, hero_id: str, relics: list[str]) -> None:
    """Relics are a monster's tokens: its plug-in says where they lie and hands them over."""
    _relics_owner(ctx, relics).pick_up_relics(ctx, hero_id, relics)


def _relics_owner(ctx: GameContext, relics: list[str]) -> MonsterRules:
    owners = [rules for rules in ctx.monster_rules.values() if rules.relic_ids()]
    if not owners:
        raise IllegalInput("there are no relics in this game")
    return next((rules for rules in owners if set(relics) <= set(rules.relic_ids())), owners[0])


def share(ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
    """RL-HA-4: one action in which the heroes at the active hero's location exchange any number of
    items (and Relics, RL-IT-5), both ways, not one for one; the active hero need not take part.
    Each hand-over is checked against what the heroes hold after the ones before it, so an item
    may be handed on again in the same Share; nothing changes unless every hand-over holds."""
    here = here_of(ctx, hero_id)
    gives = action.get("give", [])
    if not isinstance(gives, list) or not gives:
        raise IllegalInput("Share needs 'give': a list of {item or relic, from, to}")
    holding = {h.id: {"items": list(h.items), "relics": list(h.relics)} for h in ctx.state.heroes_at(here)}
    moves = [_check_give(ctx, here, give, holding) for give in gives]
    for thing, kind, giver, taker in moves:
        _hands(ctx, giver, kind).remove(thing)
        _hands(ctx, taker, kind).append(thing)
        ctx.emit("item-shared", f"{ctx.hero_name(giver)} gives {_thing_name(ctx, thing, kind)} to {ctx.hero_name(taker)}.",
                 item=thing, giver=giver, taker=taker)
    return
    yield


def _hands(ctx: GameContext, hero_id: str, kind: str) -> list[str]:
    hero = ctx.state.heroes[hero_id]
    return hero.relics if kind == "relics" else hero.items


def _check_give(ctx: GameContext, here: str, give: object,
                holding: dict[str, dict[str, list[str]]]) -> tuple[str, str, str, str]:
    """One hand-over, checked and recorded in ``holding`` (what each hero at ``here`` holds so far)."""
    if not isinstance(give, Mapping):
        raise IllegalInput(f"each share must be an object like {{'item': ..., 'from': ..., 'to': ...}}, got {give!r}")
    kind = "relics" if "relic" in give else "items"
    thing = text_field(give, "relic" if kind == "relics" else "item")
    giver, taker = text_field(give, "from"), text_field(give, "to")
    for hero in (giver, taker):
        if hero not in holding:
            raise IllegalInput(f"{hero!r} is not a hero at {ctx.place_name(here)}")
    if giver == taker:
        raise IllegalInput(f"{ctx.hero_name(giver)} cannot give {thing!r} to themselves")
    if thing not in holding[giver][kind]:
        raise IllegalInput(f"{ctx.hero_name(giver)} does not hold {thing!r}")
    holding[giver][kind].remove(thing)
    holding[taker][kind].append(thing)
    return thing, kind, giver, taker


def _thing_name(ctx: GameContext, thing: str, kind: str) -> str:
    return ctx.pack.item(thing).name if kind == "items" else thing  # a relic is named by its id
