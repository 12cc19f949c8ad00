"""Playing Perk cards (RL-TU-2): any player, any number, during a Hero Phase, for no
action. Each card names a primitive of its edition's library (``Edition.perks``); this
module holds the playing and the primitives every edition shares, which an edition
extends with its own (``COMMON_PERKS.extended()``). Drawing them is perk_deck.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.registry import Registry

from .context import Character, GameContext
from .fields import amount, text_field
from .items import draw_and_place, draw_item, take_item
from .manual import apply_changes, spare
from .movement import move_a_monster, move_character
from .perk_deck import discard_perk
from .terror import change_terror

Action = Mapping[str, object]
Params = Mapping[str, object]
PerkPlay = Callable[[GameContext, str, Params, Action], Flow[None]]
#: The fields a menu's ``perk`` action carries for a held card; None: the card is not offered.
PerkMenu = Callable[[GameContext, str, Params], "dict[str, object] | None"]


def no_fields(ctx: GameContext, holder: str, params: Params) -> dict[str, object] | None:
    return {}


def never_offered(ctx: GameContext, holder: str, params: Params) -> dict[str, object] | None:
    return None


@dataclass(frozen=True)
class PerkKind:
    """One primitive: how a card of this kind plays, what a menu offers for it, and, for a card
    that is never played as a Hero Phase move, why (its name goes first)."""

    play: PerkPlay
    menu: PerkMenu = no_fields
    refusal: str = ""


COMMON_PERKS: Registry[PerkKind] = Registry("Perk card primitive")


def perk_kind(registry: Registry[PerkKind], kind: str, menu: PerkMenu = no_fields,
              refusal: str = "") -> Callable[[PerkPlay], PerkPlay]:
    """Decorator: file a primitive's play under ``kind`` in ``registry``."""
    def add(play: PerkPlay) -> PerkPlay:
        registry.add(kind, PerkKind(play, menu, refusal))
        return play
    return add


# -- playing --------------------------------------------------------------------------------------

def play_perk(ctx: GameContext, acting_hero: str, action: Action) -> Flow[None]:
    holder, perk_id = text_field(action, "hero"), text_field(action, "perk")
    if holder not in ctx.state.heroes or perk_id not in ctx.state.heroes[holder].perks:
        raise IllegalInput(f"{holder!r} does not hold the Perk card {perk_id!r}")
    card = ctx.pack.perk(perk_id)
    kind = ctx.edition.perks[card.effect.kind]
    if kind.refusal:
        raise IllegalInput(f"{card.name} {kind.refusal}")
    discard_perk(ctx, holder, perk_id)
    ctx.emit("perk-played", f"{ctx.state.heroes[holder].player} plays {card.name}: {card.effect.text}",
             hero=holder, perk=perk_id)
    yield from kind.play(ctx, holder, card.effect.params, action)


# -- the shared primitives ------------------------------------------------------------------------

@perk_kind(COMMON_PERKS, "extra_actions")
def _extra_actions(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """The current player gets more actions (RL-EX-1)."""
    ctx.state.actions_left += amount(params, "amount")
    ctx.emit("actions", f"{ctx.hero_name(ctx.active_player)} now has {ctx.state.actions_left} action(s) left.",
             actions_left=ctx.state.actions_left)
    return
    yield


def _place_hero_fields(ctx: GameContext, holder: str, params: Params) -> dict[str, object] | None:
    """Anywhere: next door (one legal place is enough for a menu); else where another hero stands."""
    here = ctx.state.heroes[holder].location
    if params.get("anywhere", False):
        return {"to": ctx.graph.neighbours[here][0]} if here and ctx.graph.neighbours[here] else None
    others = sorted({str(h.location) for h in ctx.heroes_on_board() if h.id != holder and h.location != here})
    return {"to": others[0]} if others else None


@perk_kind(COMMON_PERKS, "place_hero", menu=_place_hero_fields)
def _place_hero(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """"Put your hero at any location" (``anywhere``) or "at the location of another hero"."""
    to = text_field(action, "to")
    if not ctx.walkable(to):
        raise IllegalInput(f"{to!r} is not a location on this board where a hero may stand")
    if not params.get("anywhere", False):
        _require_another_hero_at(ctx, holder, to)
    ctx.emit("hero-placed", f"Place {ctx.hero_name(holder)} at {ctx.place_name(to)}.", hero=holder, location=to)
    yield from move_character(ctx, Character("hero", holder), to)


def _require_another_hero_at(ctx: GameContext, holder: str, to: str) -> None:
    others = [h for h in ctx.state.heroes_at(to) if h.id != holder]
    if not others:
        raise IllegalInput(f"this Perk puts {ctx.hero_name(holder)} where another hero stands, "
                           f"and no other hero is at {ctx.place_name(to)}")


def _move_villager_fields(ctx: GameContext, holder: str, params: Params) -> dict[str, object] | None:
    for villager in ctx.villagers_on_board():
        if villager.location and ctx.graph.neighbours[villager.location]:
            return {"villager": villager.id, "to": ctx.graph.neighbours[villager.location][0]}
    return None


@perk_kind(COMMON_PERKS, "move_villager", menu=_move_villager_fields)
def _move_villager(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    who, to = text_field(action, "villager"), text_field(action, "to")
    villager = ctx.state.villagers.get(who)
    if villager is None or villager.location is None or to not in ctx.graph:
        raise IllegalInput(f"cannot move villager {who!r} to {to!r}")
    if ctx.graph.distances(villager.location).get(to, 99) > amount(params, "steps"):
        raise IllegalInput(f"{ctx.place_name(to)} is more than {amount(params, 'steps')} location(s) away")
    ctx.emit("villager-moved", f"Move {ctx.pack.villager(who).name} to {ctx.place_name(to)}.",
             villager=who, path=[villager.location, to])
    yield from move_character(ctx, Character("villager", who), to)


@perk_kind(COMMON_PERKS, "draw_items")
def _draw_items(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """Items drawn and put at their locations, as the cards say; ``hand``: into the holder's hand instead."""
    if not params.get("hand", False):
        yield from draw_and_place(ctx, amount(params, "count"), "Perk card")
        return
    for _ in range(amount(params, "count")):
        item = yield from draw_item(ctx, "Perk card")
        if item is not None:
            take_item(ctx, holder, item)


def _move_monster_fields(ctx: GameContext, holder: str, params: Params) -> dict[str, object] | None:
    return {} if any(True for _ in ctx.monster_figures()) else None


@perk_kind(COMMON_PERKS, "move_monster", menu=_move_monster_fields)
def _move_monster(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    yield from move_a_monster(ctx, amount(params, "steps"))


@perk_kind(COMMON_PERKS, "terror")
def _terror(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    change_terror(ctx, amount(params, "amount", -1), "Perk card")
    return
    yield


@perk_kind(COMMON_PERKS, "spare_hero", menu=lambda ctx, holder, params: {"target": holder})
def _spare_hero(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """"No monster attacks them in the next Monster Phase": the hero named by ``target`` (the holder's own
    by default) is never the target of an attack nor hit by a monster's Power this turn."""
    spare(ctx, str(action.get("target", holder)))
    return
    yield


@perk_kind(COMMON_PERKS, "manual", menu=lambda ctx, holder, params: {"changes": []})
def _manual(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """The players do what the card says; the action may carry the resulting 'changes'."""
    yield from apply_changes(ctx, action)
