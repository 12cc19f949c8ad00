"""Perk cards (RL-TU-2): any player may play any number during a Hero Phase,
for no action. Each card names a primitive here (pack perks.json)."""

from __future__ import annotations

from typing import Callable, Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.registry import Registry

from .actions import text_field
from .context import Character, GameContext
from .manual import apply_changes, spare
from .movement import move_character
from .specials import add_bonus, amount, move_a_monster

Action = Mapping[str, object]
Params = Mapping[str, object]
PerkPlay = Callable[[GameContext, str, Params, Action], Flow[None]]
PERKS: Registry[PerkPlay] = Registry("Perk card primitive")



def play_perk(ctx: GameContext, acting_hero: str, action: Action) -> Flow[None]:
    holder, perk_id = text_field(action, "hero"), text_field(action, "perk")
    if holder not in ctx.state.heroes or perk_id not in ctx.state.heroes[holder].perks:
        raise IllegalInput(f"{holder!r} does not hold the Perk card {perk_id!r}")
    card = ctx.pack.perk(perk_id)
    if card.effect.kind == "adjust_roll":
        raise IllegalInput(f"{card.name} changes a d20 roll: it is offered right after a roll, before the roll "
                           "takes effect")
    ctx.state.heroes[holder].perks.remove(perk_id)
    ctx.state.perk_discard.append(perk_id)
    ctx.emit("perk-played", f"{ctx.state.heroes[holder].player} plays {card.name}: {card.effect.text}",
             hero=holder, perk=perk_id)
    yield from PERKS[card.effect.kind](ctx, holder, card.effect.params, action)


@PERKS.register("extra_actions")
def _extra_actions(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """Like Tatyana: the current player gets more actions (RL-EX-1)."""
    ctx.state.actions_left += amount(params, "amount")
    ctx.emit("actions", f"{ctx.hero_name(ctx.active_player)} now has {ctx.state.actions_left} action(s) left.",
             actions_left=ctx.state.actions_left)
    return
    yield


@PERKS.register("place_hero")
def _place_hero(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """"Put your hero at any location" (``anywhere``) or "at the location of another hero"."""
    to = text_field(action, "to")
    if to not in ctx.graph:
        raise IllegalInput(f"{to!r} is not a location on this board")
    if not params.get("anywhere", False):
        _require_another_hero_at(ctx, holder, to)
    ctx.emit("hero-placed", f"Place {ctx.hero_name(holder)} at {ctx.place_name(to)}.", hero=holder, location=to)
    yield from move_character(ctx, Character("hero", holder), to)


def _require_another_hero_at(ctx: GameContext, holder: str, to: str) -> None:
    others = [h for h in ctx.state.heroes_at(to) if h.id != holder]
    if not others:
        raise IllegalInput(f"this Perk puts {ctx.hero_name(holder)} where another hero stands, "
                           f"and no other hero is at {ctx.place_name(to)}")


@PERKS.register("move_villager")
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


@PERKS.register("draw_items")
def _draw_items(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """Items drawn and put at their locations, as the cards say; ``hand``: into the holder's hand instead."""
    for _ in range(amount(params, "count")):
        item = yield from ctx.draw_item("Perk card")
        if item is None:
            continue
        if params.get("hand", False):
            ctx.state.heroes[holder].items.append(item)
            ctx.emit("item-taken", f"{ctx.hero_name(holder)} takes the {ctx.pack.item(item).name}.", hero=holder, item=item)
        else:
            ctx.place_item(item)


@PERKS.register("roll_bonus")
def _roll_bonus(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """"+N to your next Advance or Defeat roll": used up by that roll; ``lasting``: every such roll
    for the rest of this Hero Phase (like the Paladin's bonus)."""
    if params.get("lasting", False):
        add_bonus(ctx, "roll_bonus", amount(params, "amount"), "+{} to Advance and Defeat rolls this Hero Phase.")
    else:
        add_bonus(ctx, "next_roll", amount(params, "amount"), "+{} to the next Advance or Defeat roll this Hero Phase.")
    return
    yield


@PERKS.register("move_monster")
def _move_monster(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    yield from move_a_monster(ctx, amount(params, "steps"))


@PERKS.register("terror")
def _terror(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    ctx.change_terror(amount(params, "amount", -1), "Perk card")
    return
    yield


@PERKS.register("spare_hero")
def _spare_hero(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """"No monster attacks them in the next Monster Phase": the hero named by ``target`` (the holder's own
    by default) is never the target of an attack nor hit by a monster's Power this turn."""
    who = str(action.get("target", holder))
    spare(ctx, who)
    return
    yield


@PERKS.register("manual")
def _manual(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """The players do what the card says; the action may carry the resulting 'changes'."""
    yield from apply_changes(ctx, action)
