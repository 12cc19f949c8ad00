"""The original box's Perk cards: the shared primitives (horrified_core.perks) and this box's
own. Each card's choices are asked once it is played (which hero, where to), one prompt at a
time, so a tablet shows them like any question; a card is offered only when it can do
something. Heroes moved by a card go alone (no villager comes along): only the Move action
takes villagers (docs/horrified.md, "Readings").
"""

from __future__ import annotations

from typing import Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.prompts import Option, Prompt
from companion.engine.registry import Registry
from companion.games.horrified_core.context import Character, Figure, GameContext
from companion.games.horrified_core.fields import amount, text_field
from companion.games.horrified_core.items import draw_and_place
from companion.games.horrified_core.movement import move_a_monster, move_character
from companion.games.horrified_core.perks import COMMON_PERKS, PerkKind, perk_kind

from .state import bonuses_of

Params = Mapping[str, object]
Action = Mapping[str, object]
STAY = "stay"
PERKS: Registry[PerkKind] = COMMON_PERKS.extended("Perk card primitive")


def _always(ctx: GameContext, holder: str, params: Params) -> dict[str, object] | None:
    return {}


def _with_heroes(ctx: GameContext, holder: str, params: Params) -> dict[str, object] | None:
    return {} if ctx.heroes_on_board() else None


def _with_figures(ctx: GameContext, holder: str, params: Params) -> dict[str, object] | None:
    return {} if any(True for _ in ctx.monster_figures()) else None


# -- where a figure may go ------------------------------------------------------------------------------------

def within(ctx: GameContext, here: str, steps: int, mover: str | None = None) -> list[str]:
    dist = ctx.graph.distances(here, mover)
    return sorted(place for place, d in dist.items() if 0 < d <= steps)


def _where(ctx: GameContext, key: str, text: str, places: list[str], stay: str | None) -> Flow[str]:
    options = ([Option(STAY, stay)] if stay else []) + [Option(p, ctx.place_name(p), {"location": p}) for p in places]
    if not options:
        raise IllegalInput("there is nowhere to go")
    return (yield from ctx.choose(key, text, options))


def _which_hero(ctx: GameContext, text: str, heroes: list[str]) -> Flow[str]:
    options = [Option(h, f"{ctx.hero_name(h)} ({ctx.state.heroes[h].player})") for h in heroes]
    if not options:
        raise IllegalInput("no hero is on the board")
    return (yield from ctx.choose("which-hero", text, options))


def _put_hero(ctx: GameContext, hero_id: str, to: str, walked: bool) -> Flow[None]:
    start = ctx.state.heroes[hero_id].location
    if walked:
        ctx.emit("hero-moved", f"Move {ctx.hero_name(hero_id)} from {ctx.place_name(start)} to {ctx.place_name(to)}.",
                 hero=hero_id, path=[start, to], villagers=[])
    else:
        ctx.emit("hero-placed", f"Put {ctx.hero_name(hero_id)} at {ctx.place_name(to)}.", hero=hero_id, location=to)
    yield from move_character(ctx, Character("hero", hero_id), to)


def _heroes_on_board(ctx: GameContext) -> list[str]:
    return [h for h in ctx.state.seats if ctx.state.heroes[h].location is not None]


# -- the cards -----------------------------------------------------------------------------------------------------

@perk_kind(PERKS, "items_per_player", menu=_always)
def _items_per_player(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """Each player draws ``count`` items and puts them at their places."""
    yield from draw_and_place(ctx, amount(params, "count") * len(ctx.state.seats), "Perk card, one for each player")


@perk_kind(PERKS, "skip_monster_phase", menu=_always)
def _skip(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    bonuses_of(ctx.state).no_monster_phase = True
    ctx.emit("bonus", "No Monster Phase this turn.", no_monster_phase=True)
    yield from draw_and_place(ctx, amount(params, "count"), "Perk card")


@perk_kind(PERKS, "move_hero", menu=_with_heroes)
def _move_hero(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    steps = amount(params, "steps")
    hero = yield from _which_hero(ctx, f"Which hero moves up to {steps} spaces?", _heroes_on_board(ctx))
    here = str(ctx.state.heroes[hero].location)
    to = yield from _where(ctx, "move-hero-to", f"Move {ctx.hero_name(hero)} where?", within(ctx, here, steps), None)
    yield from _put_hero(ctx, hero, to, walked=True)


@perk_kind(PERKS, "move_heroes", menu=_with_heroes)
def _move_heroes(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    steps = amount(params, "steps")
    for hero in _heroes_on_board(ctx):
        here = str(ctx.state.heroes[hero].location)
        to = yield from _where(ctx, "move-hero-to", f"Move {ctx.hero_name(hero)} up to {steps} spaces: where?",
                               within(ctx, here, steps), f"{ctx.hero_name(hero)} stays")
        if to != STAY:
            yield from _put_hero(ctx, hero, to, walked=True)


@perk_kind(PERKS, "place_any_hero", menu=_with_heroes)
def _place_any_hero(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    hero = yield from _which_hero(ctx, "Which hero do you put somewhere else?", _heroes_on_board(ctx))
    here = ctx.state.heroes[hero].location
    land = [p for p in ctx.graph.places if p != here and ctx.walkable(p)]
    to = yield from _where(ctx, "place-hero-to", f"Put {ctx.hero_name(hero)} where?", land, None)
    yield from _put_hero(ctx, hero, to, walked=False)


@perk_kind(PERKS, "move_monsters", menu=_with_figures)
def _move_monsters(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """Every monster figure (the Bride too) may move up to ``steps`` spaces, or stay."""
    steps = amount(params, "steps")
    for figure in list(ctx.monster_figures()):
        here = ctx.where(figure)
        if here is None or ctx.monster_rules[figure.monster].rooted:
            continue
        to = yield from _where(ctx, "move-monster-to", f"Move {ctx.figure_name(figure)} up to {steps} spaces: where?",
                               within(ctx, here, steps, ctx.mover(figure)), f"{ctx.figure_name(figure)} stays")
        if to != STAY:
            _moved(ctx, figure, here, to)


def _moved(ctx: GameContext, figure: Figure, here: str, to: str) -> None:
    ctx.emit("monster-moved", f"Move {ctx.figure_name(figure)} from {ctx.place_name(here)} to {ctx.place_name(to)}.",
             monster=figure.monster, blight=figure.minion, path=[here, to])
    ctx.put(figure, to)


def _own_figures(ctx: GameContext, monster: str) -> list[Figure]:
    return [f for f in ctx.monster_figures() if f.monster == monster]


@perk_kind(PERKS, "place_or_move_monster", menu=_with_figures)
def _place_or_move(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """"Put <monster> in any space, or move any monster up to N spaces": the first only while that monster
    is in play (either figure of a two-figure mat)."""
    steps, own = amount(params, "steps"), _own_figures(ctx, text_field(params, "monster"))
    options = [Option(f"place:{'' if f.minion is None else f.minion}", f"Put {ctx.figure_name(f)} in any space")
               for f in own]
    options.append(Option("move", f"Move any monster up to {steps} spaces"))
    chosen = yield from ctx.choose("perk-choice", "Which way do you play the card?", options)
    if chosen == "move":
        yield from move_a_monster(ctx, steps)
        return
    minion = chosen.partition(":")[2]
    figure = Figure(own[0].monster, int(minion) if minion else None)
    here = ctx.where(figure)
    places = [p for p in ctx.graph.places if p != here and (ctx.mover(figure) or ctx.walkable(p))]
    to = yield from _where(ctx, "place-monster-to", f"Put {ctx.figure_name(figure)} where?", places, None)
    ctx.emit("monster-placed", f"Put {ctx.figure_name(figure)} at {ctx.place_name(to)}.", monster=figure.monster,
             location=to, blight=figure.minion)
    ctx.put(figure, to)


def _two_heroes(ctx: GameContext, holder: str, params: Params) -> dict[str, object] | None:
    with_items = any(h.items for h in ctx.state.heroes.values())
    return {} if with_items and len(ctx.state.heroes) > 1 else None


@perk_kind(PERKS, "give_items", menu=_two_heroes)
def _give_items(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    givers = [h for h in ctx.state.seats if ctx.state.heroes[h].items]
    giver = yield from _which_hero(ctx, "Which hero gives items?", givers)
    taker = yield from ctx.choose("which-hero-gets", "Who gets them?",
                                  [Option(h, ctx.hero_name(h)) for h in ctx.state.seats if h != giver])
    held = ctx.state.heroes[giver].items
    chosen = tuple(held) if len(held) == 1 else (yield Prompt(
        "pick", "give-items", f"Which items does {ctx.hero_name(giver)} give to {ctx.hero_name(taker)}?",
        ctx.active_player, tuple(Option(i, ctx.pack.item_label(i)) for i in held), min_picks=1, max_picks=len(held)))
    assert isinstance(chosen, tuple)
    for item in chosen:
        held.remove(str(item))
        ctx.state.heroes[taker].items.append(str(item))
        ctx.emit("item-shared", f"{ctx.hero_name(giver)} gives the {ctx.pack.item(str(item)).name} to "
                 f"{ctx.hero_name(taker)}.", item=item, giver=giver, taker=taker)


def _gathering(ctx: GameContext, holder: str, params: Params) -> dict[str, object] | None:
    return {} if len({h.location for h in ctx.heroes_on_board()}) > 1 else None


@perk_kind(PERKS, "gather_heroes", menu=_gathering)
def _gather(ctx: GameContext, holder: str, params: Params, action: Action) -> Flow[None]:
    """Choose a space with a hero; any number of the other heroes are put there."""
    places = sorted({str(h.location) for h in ctx.heroes_on_board()})
    at = yield from _where(ctx, "gather-at", "Choose a space where a hero is:", places, None)
    others = [h for h in ctx.state.seats if ctx.state.heroes[h].location not in (at, None)]
    if not others:
        ctx.emit("note", "Every hero on the board is there already.")
        return
    chosen = yield Prompt("pick", "gather-heroes", f"Which heroes come to {ctx.place_name(at)}?", ctx.active_player,
                          tuple(Option(h, ctx.hero_name(h)) for h in others), min_picks=0, max_picks=len(others))
    assert isinstance(chosen, tuple)
    for hero in chosen:
        yield from _put_hero(ctx, str(hero), at, walked=False)
