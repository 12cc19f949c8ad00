"""The original box's Monster card Events: the shared primitives (horrified_core.events) and this
box's own, each found by the card's ``event.kind``. An Event about a monster that is not in
the game is ignored before it gets here (its ``symbol``). Events that belong to one mat alone
(The Hunt Is On, Reincarnated Soul, The Meeting) ask that monster's plug-in.
"""

from __future__ import annotations

from typing import Callable, Mapping, TypeVar

from companion.engine.game import Flow
from companion.engine.prompts import Option
from companion.engine.registry import Registry
from companion.games.horrified_core.context import Character, Figure, GameContext
from companion.games.horrified_core.events import COMMON_EVENTS, EventStep, monsters_with
from companion.games.horrified_core.fields import amount
from companion.games.horrified_core.items import discard_item
from companion.games.horrified_core.monsters import MonsterRules
from companion.games.horrified_core.movement import choose_path, move_character

from .monsters.frankenstein import PairRules
from .monsters.mummy import MummyRules
from .monsters.wolf_man import WolfManRules

Params = Mapping[str, object]
R = TypeVar("R", bound=MonsterRules)
EVENTS: Registry[EventStep] = COMMON_EVENTS.extended("card event primitive")


def _about(ctx: GameContext, params: Params) -> list[str]:
    """The monsters in play the Event is about (those showing its symbol), in Frenzy Order."""
    return monsters_with(ctx, str(params["symbol"]))


@EVENTS.register("villagers_to_safety")
def _villagers_home(ctx: GameContext, params: Params, text: str) -> Flow[None]:
    """Every villager on the board moves ``steps`` spaces toward their safe place (and is rescued there)."""
    steps = amount(params, "steps")
    for villager in list(ctx.villagers_on_board()):
        start, home = villager.location, ctx.pack.villager(villager.id).safe_location
        if start is None or start == home:
            continue
        path = yield from choose_path(ctx, start, home, steps)
        if len(path) > 1:
            ctx.emit("villager-moved", f"Move {ctx.pack.villager(villager.id).name} from {ctx.place_name(start)} to "
                     f"{ctx.place_name(path[-1])}, toward safety.", villager=villager.id, path=list(path))
            yield from move_character(ctx, Character("villager", villager.id), path[-1])


@EVENTS.register("monster_to_active_hero")
def _to_active_hero(ctx: GameContext, params: Params, text: str) -> Flow[None]:
    where = ctx.state.active_hero.location
    for monster in _about(ctx, params):
        if where is None:
            ctx.emit("note", f"{ctx.hero_name(ctx.active_player)} is off the board: {ctx.monster(monster).name} stays.")
            continue
        ctx.emit("monster-placed", f"Put {ctx.monster(monster).name} at {ctx.place_name(where)}, with "
                 f"{ctx.hero_name(ctx.active_player)}.", monster=monster, location=where)
        ctx.put(Figure(monster), where)
    return
    yield


@EVENTS.register("pull_closest")
def _pull_closest(ctx: GameContext, params: Params, text: str) -> Flow[None]:
    """The person closest to the monster (a hero before a villager at one distance; the active player
    chooses among the rest) moves ``steps`` spaces toward it."""
    for monster in _about(ctx, params):
        there = ctx.state.monsters[monster].location
        if there is not None:
            yield from _pull_one(ctx, there, amount(params, "steps"))


def _pull_one(ctx: GameContext, there: str, steps: int) -> Flow[None]:
    dist = ctx.graph.distances(there)
    near = [c for loc in dist for c in ctx.characters_at(loc)]
    if not near:
        return
    best = min(dist[str(ctx.character_location(c))] for c in near)
    tied = [c for c in near if dist[str(ctx.character_location(c))] == best]
    tied = [c for c in tied if c.kind == "hero"] or tied
    if best == 0:
        return
    options = [Option(f"{c.kind}:{c.id}", f"{ctx.character_name(c)} at {ctx.place_name(ctx.character_location(c))}")
               for c in tied]
    chosen = yield from ctx.choose("pulled", "Equally close: who is drawn toward the monster?", options)
    kind, _, who_id = chosen.partition(":")
    who = Character(kind, who_id)
    start = str(ctx.character_location(who))
    path = yield from choose_path(ctx, start, there, steps)
    ctx.emit("figure-moved", f"Move {ctx.character_name(who)} from {ctx.place_name(start)} to {ctx.place_name(path[-1])}.",
             figure=ctx.character_name(who), path=list(path))
    yield from move_character(ctx, who, path[-1])


@EVENTS.register("monster_to_most_items")
def _thief(ctx: GameContext, params: Params, text: str) -> Flow[None]:
    """The monster goes where the most items lie (the active player chooses among equal piles), and
    every item there is discarded."""
    counts: dict[str, int] = {}
    for where in ctx.state.items_at.values():
        counts[where] = counts.get(where, 0) + 1
    if not counts:
        ctx.emit("note", "No item lies on the board: nothing happens.")
        return
    most = max(counts.values())
    options = [Option(p, f"{ctx.place_name(p)} ({most} items)", {"location": p}) for p in sorted(counts) if counts[p] == most]
    for monster in _about(ctx, params):
        where = yield from ctx.choose("most-items", "Equal piles of items: where does he go?", options)
        ctx.emit("monster-placed", f"Put {ctx.monster(monster).name} at {ctx.place_name(where)}.", monster=monster,
                 location=where)
        ctx.put(Figure(monster), where)
        for item in ctx.state.items_on(where):
            discard_item(ctx, item, f"{ctx.monster(monster).name} took it")


def _plugins(ctx: GameContext, params: Params, cls: type[R]) -> list[R]:
    found = [ctx.monster_rules[m] for m in _about(ctx, params)]
    return [rules for rules in found if isinstance(rules, cls)]


def _plugin_event(cls: type[R], run: Callable[[R, GameContext, int], Flow[None]]) -> EventStep:
    def step(ctx: GameContext, params: Params, text: str) -> Flow[None]:
        for rules in _plugins(ctx, params, cls):
            yield from run(rules, ctx, amount(params, "steps"))
    return step


EVENTS.add("hunt", _plugin_event(WolfManRules, WolfManRules.hunt))
EVENTS.add("soul", _plugin_event(MummyRules, MummyRules.soul))
EVENTS.add("meeting", _plugin_event(PairRules, PairRules.bride_toward_him))

__all__ = ["EVENTS"]
