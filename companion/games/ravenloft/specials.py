"""Hero special actions (RL-HA-7): roll the d20 and apply the tile's row at
once. Rows are data (pack heroes.json); each row names a primitive here."""

from __future__ import annotations

from typing import Callable, Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.registry import Registry
from companion.engine.prompts import Option, Prompt

from .challenges import advance
from .context import Character, Figure, GameContext
from .d20 import hero_roll
from .gifts import gift_effects, table_row
from .movement import move_character

Params = Mapping[str, object]
Special = Callable[[GameContext, str, Params], Flow[None]]
SPECIALS: Registry[Special] = Registry("special-action primitive")



def special_action(ctx: GameContext, hero_id: str, action: Mapping[str, object]) -> Flow[None]:
    """RL-HA-7. The tile side is read after the roll window: a Gift accepted there flips it first."""
    hero = ctx.pack.hero(hero_id)
    value = yield from hero_roll(ctx, "special", f"{ctx.hero_name(hero_id)}'s special action: roll the d20.")
    table = hero.special_after_gift if ctx.state.heroes[hero_id].gift else hero.special
    row = table_row(table, value)
    ctx.emit("special", f"{value}: {row.effect.text or row.effect.kind}", hero=hero_id, value=value, effect=row.effect.kind)
    if value == 1:
        _one_costs_terror(ctx, hero_id)
        return
    yield from SPECIALS[row.effect.kind](ctx, hero_id, row.effect.params)


def _one_costs_terror(ctx: GameContext, hero_id: str) -> None:
    """A Gift whose price is terror whenever the special roll's result is a 1 (the Warlock's, as we guess it)."""
    times = gift_effects(ctx, hero_id).get("special_one_terror", 0)
    if times:
        ctx.change_terror(times, f"{ctx.hero_name(hero_id)}'s Dark Gift: the special roll was a 1")


def amount(params: Params, key: str, default: int = 1) -> int:
    value = params.get(key, default)
    return value if isinstance(value, int) else default


def add_bonus(ctx: GameContext, name: str, more: int, text: str) -> None:
    """Effects that last part of a turn add together (RL-HA-9); ``text`` shows the new total."""
    total = getattr(ctx.state.bonuses, name) + more
    setattr(ctx.state.bonuses, name, total)
    ctx.emit("bonus", text.format(total), **{name: total})


@SPECIALS.register("nothing")
def _nothing(ctx: GameContext, hero_id: str, params: Params) -> Flow[None]:
    return
    yield


@SPECIALS.register("place_item")
def _place_item(ctx: GameContext, hero_id: str, params: Params) -> Flow[None]:
    for _ in range(amount(params, "count")):
        item = yield from ctx.draw_item("special action")
        if item is not None:
            ctx.place_item(item)


@SPECIALS.register("move_monster")
def _move_monster(ctx: GameContext, hero_id: str, params: Params) -> Flow[None]:
    yield from move_a_monster(ctx, amount(params, "steps"))


def move_a_monster(ctx: GameContext, steps: int) -> Flow[None]:
    """Move one monster figure (not the rooted Tree) up to ``steps`` locations."""
    figures = [f for f in ctx.monster_figures() if f.blight is not None or not getattr(ctx.monster_rules[f.monster], "rooted", False)]
    if not figures:
        ctx.emit("note", "No monster can be moved.")
        return
    options = [Option(f"{f.monster}:{'' if f.blight is None else f.blight}", ctx.figure_name(f)) for f in figures]
    chosen = yield from ctx.choose("move-which-monster", "Which monster do you move?", options)
    monster, _, blight = chosen.partition(":")
    figure = Figure(monster, int(blight) if blight else None)
    here = ctx.where(figure)
    assert here is not None
    to = yield from choose_location_within(ctx, here, steps, "move-monster-to", f"Move {ctx.figure_name(figure)} where?")
    ctx.put(figure, to)
    ctx.emit("monster-moved", f"Move {ctx.figure_name(figure)} from {ctx.place_name(here)} to {ctx.place_name(to)}.",
             monster=figure.monster, blight=figure.blight, path=[here, to])


def choose_location_within(ctx: GameContext, here: str, steps: int, key: str, text: str) -> Flow[str]:
    dist = ctx.graph.distances(here)
    reachable = sorted(loc for loc, d in dist.items() if 0 < d <= steps)
    if not reachable:
        raise IllegalInput(f"nowhere to go from {ctx.place_name(here)}")
    options = [Option(loc, ctx.place_name(loc)) for loc in reachable]
    return (yield from ctx.choose(key, text, options))


@SPECIALS.register("hero_draws")
def _hero_draws(ctx: GameContext, hero_id: str, params: Params) -> Flow[None]:
    options = [Option(h, ctx.hero_name(h)) for h in ctx.state.seats]
    chosen = yield from ctx.choose("which-hero", "Which hero draws?", options)
    for _ in range(amount(params, "items", 2)):
        item = yield from ctx.draw_item(f"{ctx.hero_name(chosen)} draws")
        if item is not None:
            ctx.state.heroes[chosen].items.append(item)
            ctx.emit("item-taken", f"{ctx.hero_name(chosen)} takes the {ctx.pack.item(item).name}.", hero=chosen, item=item)
    if params.get("perk", True):
        yield from ctx.gain_perk(chosen, "special action")


@SPECIALS.register("distanced_advance")
def _distanced_advance(ctx: GameContext, hero_id: str, params: Params) -> Flow[None]:
    answer = yield Prompt("action", "distanced-advance",
                          f"{ctx.hero_name(hero_id)} may Advance a monster's challenge from afar (or skip).",
                          hero_id, context={"hero": hero_id})
    assert isinstance(answer, Mapping)
    if answer["action"] == "skip":
        return
    if answer["action"] != "advance":
        raise IllegalInput("answer with an 'advance' action or 'skip'")
    yield from advance(ctx, hero_id, answer, distanced=True)


@SPECIALS.register("roll_bonus")
def _roll_bonus(ctx: GameContext, hero_id: str, params: Params) -> Flow[None]:
    """Paladin: adds up within this Hero Phase, then ends (RL-HA-9)."""
    add_bonus(ctx, "roll_bonus", amount(params, "amount"), "+{} to Advance and Defeat rolls for the rest of this Hero Phase.")
    return
    yield


@SPECIALS.register("slow_monsters")
def _slow_monsters(ctx: GameContext, hero_id: str, params: Params) -> Flow[None]:
    """Ranger: applies in this turn's Monster Phase, then ends (RL-HA-9, RL-MP-20)."""
    add_bonus(ctx, "slow_monsters", amount(params, "amount"), "This Monster Phase, monsters move {} fewer.")
    return
    yield


@SPECIALS.register("ward")
def _ward(ctx: GameContext, hero_id: str, params: Params) -> Flow[None]:
    """Warlock: hits ignored in this turn's Monster Phase (RL-HA-9, RL-MP-20)."""
    add_bonus(ctx, "ward", amount(params, "hits"), "This Monster Phase, the first {} hit(s) on heroes are ignored.")
    return
    yield


@SPECIALS.register("place_hero")
def _place_hero(ctx: GameContext, hero_id: str, params: Params) -> Flow[None]:
    here = ctx.state.heroes[hero_id].location
    assert here is not None
    to = yield from choose_location_within(ctx, here, amount(params, "steps"), "place-hero-to", "Place the hero where?")
    ctx.emit("hero-placed", f"Place {ctx.hero_name(hero_id)} at {ctx.place_name(to)}.", hero=hero_id, location=to)
    yield from move_character(ctx, Character("hero", hero_id), to)


@SPECIALS.register("gain_perk")
def _gain_perk(ctx: GameContext, hero_id: str, params: Params) -> Flow[None]:
    yield from ctx.gain_perk(hero_id, "special action")
