"""Hero special actions (RL-HA-7): roll the d20 and apply the tile's row at once.
Rows are data (pack heroes.json); each row names a primitive here. The Paladin's,
Ranger's and Warlock's rows give bonuses for part of the turn (RL-HA-9): the ward
stops hits before a hero answers them, the slow-down shortens the monsters' moves."""

from __future__ import annotations

from typing import Callable, Literal, Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.prompts import Option, Prompt
from companion.engine.registry import Registry
from companion.games.horrified_core.challenges import advance
from companion.games.horrified_core.context import Character, GameContext
from companion.games.horrified_core.fields import Params, amount
from companion.games.horrified_core.items import draw_and_place, draw_item, take_item
from companion.games.horrified_core.movement import choose_location_within, move_a_monster, move_character
from companion.games.horrified_core.perk_deck import gain_perk
from companion.games.horrified_core.terror import change_terror

from .d20 import hero_roll
from .gifts import gift_effects, table_row
from .pack_types import tile
from .state import bonuses_of, hero_of

Special = Callable[[GameContext, str, Params], Flow[None]]
SPECIALS: Registry[Special] = Registry("special-action primitive")


def special_action(ctx: GameContext, hero_id: str, action: Mapping[str, object]) -> Flow[None]:
    """RL-HA-7. The tile side is read after the roll window: a Gift accepted there flips it first."""
    hero = tile(ctx.pack, hero_id)
    value = yield from hero_roll(ctx, "special", f"{ctx.hero_name(hero_id)}'s special action: roll the d20.")
    table = hero.special_after_gift if hero_of(ctx.state, hero_id).gift else hero.special
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
        change_terror(ctx, times, f"{ctx.hero_name(hero_id)}'s Dark Gift: the special roll was a 1")


Bonus = Literal["roll_bonus", "next_roll", "slow_monsters", "ward"]


def add_bonus(ctx: GameContext, name: Bonus, more: int, text: str) -> None:
    """Effects that last part of a turn add together (RL-HA-9); ``text`` shows the new total."""
    bonuses = bonuses_of(ctx.state)
    total = getattr(bonuses, name) + more
    setattr(bonuses, name, total)
    ctx.emit("bonus", text.format(total), **{name: total})


def slowed(ctx: GameContext, steps: int) -> int:
    """A monster's move on the attack line, less the Ranger's slow-down (RL-MP-20)."""
    return max(0, steps - bonuses_of(ctx.state).slow_monsters)


def warded(ctx: GameContext, hero_id: str, hits: int) -> int:
    """The Warlock's ward stops the first hits on heroes this Monster Phase (RL-MP-20)."""
    bonuses = bonuses_of(ctx.state)
    ward = min(bonuses.ward, hits)
    if ward:
        bonuses.ward -= ward
        ctx.emit("hit-ignored", f"The ward stops {ward} hit{'s' if ward > 1 else ''} on {ctx.hero_name(hero_id)}.",
                 hero=hero_id, hits=ward)
    return hits - ward


@SPECIALS.register("nothing")
def _nothing(ctx: GameContext, hero_id: str, params: Params) -> Flow[None]:
    return
    yield


@SPECIALS.register("place_item")
def _place_item(ctx: GameContext, hero_id: str, params: Params) -> Flow[None]:
    yield from draw_and_place(ctx, amount(params, "count"), "special action")


@SPECIALS.register("move_monster")
def _move_monster(ctx: GameContext, hero_id: str, params: Params) -> Flow[None]:
    yield from move_a_monster(ctx, amount(params, "steps"))


@SPECIALS.register("hero_draws")
def _hero_draws(ctx: GameContext, hero_id: str, params: Params) -> Flow[None]:
    options = [Option(h, ctx.hero_name(h)) for h in ctx.state.seats]
    chosen = yield from ctx.choose("which-hero", "Which hero draws?", options)
    for _ in range(amount(params, "items", 2)):
        item = yield from draw_item(ctx, f"{ctx.hero_name(chosen)} draws")
        if item is not None:
            take_item(ctx, chosen, item)
    if params.get("perk", True):
        yield from gain_perk(ctx, chosen, "special action")


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
    yield from gain_perk(ctx, hero_id, "special action")
