"""Monster card Events, built from a small library of primitives.

Each primitive is a function registered under its kind (see docs/game-data.md);
a card's event is data naming one of them, looked up in its edition's library
(``Edition.events``: this module's ``COMMON_EVENTS``, which an edition may extend).
An event about a symbol no monster in play carries is ignored (RL-MP-3); events move
monsters, never their minions (RL-GT-3).
"""

from __future__ import annotations

from typing import Callable, Mapping

from companion.engine.game import Flow
from companion.engine.registry import Registry
from companion.engine.prompts import Option, Prompt

from .arrivals import hero_arrives, villager_arrives
from .context import Figure, GameContext
from .frenzy import pass_frenzy
from .manual import apply_changes
from .movement import move_toward_closest, move_toward_location
from .pack_types import Effect

EventStep = Callable[[GameContext, Mapping[str, object], str], Flow[None]]
COMMON_EVENTS: Registry[EventStep] = Registry("card event primitive")


def resolve_event(ctx: GameContext, effect: Effect) -> Flow[None]:
    symbol = effect.params.get("symbol")
    if isinstance(symbol, str) and not monsters_with(ctx, symbol):
        ctx.emit("event-ignored", f"No monster in play has the {symbol} symbol: ignore the Event.", symbol=symbol)
        return
    if effect.kind != "none":
        ctx.emit("event", f"Event: {effect.text}", kind=effect.kind)
    yield from ctx.edition.events[effect.kind](ctx, effect.params, effect.text)


def monsters_with(ctx: GameContext, symbol: str) -> list[str]:
    """Monsters in play whose mat shows ``symbol``, in Frenzy Order."""
    return [m.id for m in ctx.state.monsters_in_play() if symbol in ctx.monster(m.id).symbols]


def in_chosen_order(ctx: GameContext, monster_ids: list[str], key: str) -> Flow[list[str]]:
    """The active player orders monsters an Event moves at once (RL-MP-5)."""
    labels = {m: ctx.monster(m).name for m in monster_ids}
    previews = labels if ctx.quiet else {m: _where(ctx, m) for m in monster_ids}
    return (yield from ask_order(ctx, key, "The Event moves several monsters", labels, previews))


def _where(ctx: GameContext, monster_id: str) -> str:
    here = ctx.state.monsters[monster_id].location
    name = ctx.monster(monster_id).name
    return f"{name} at {ctx.place_name(here)}" if here else f"{name} (off the board)"


def ask_order(ctx: GameContext, key: str, why: str, labels: Mapping[str, str],
              previews: Mapping[str, str]) -> Flow[list[str]]:
    """The active player orders things that act at once (RL-MP-5), one question per place in
    the order. Each question names every monster still to place and what each would do, and
    after the first it says the order chosen so far, so a tap visibly moves the order on."""
    left, order = list(labels), list[str]()
    while left:
        options = [Option(k, previews[k], {"label": labels[k]}) for k in left]
        text = _order_text(why, [labels[k] for k in order], [labels[k] for k in left])
        about = {"monsters": [k.partition("/")[0] for k in left], "order": list(order)}
        chosen = yield from ctx.choose(key, text, options, about)
        left.remove(chosen)
        order.append(chosen)
    return order


def _order_text(why: str, done: list[str], left: list[str]) -> str:
    if not done:
        return f"{why}: {_and(left)}. Which goes first?"
    return f"Order so far: {', then '.join(done)}. Still to go: {_and(left)}. Which goes next?"


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@COMMON_EVENTS.register("none")
def _none(ctx: GameContext, params: Mapping[str, object], text: str) -> Flow[None]:
    return
    yield


@COMMON_EVENTS.register("place_villager")
def _place_villager(ctx: GameContext, params: Mapping[str, object], text: str) -> Flow[None]:
    """RL-VI-1: the villager enters at the printed location (if it is not already on the board)."""
    villager = ctx.state.villagers[str(params["villager"])]
    location = str(params["location"])
    name = ctx.pack.villager(villager.id).name
    if villager.location is not None:
        ctx.emit("note", f"{name} is already on the board; leave them where they are.", villager=villager.id)
        return
    villager.location, villager.clutched = location, False
    ctx.emit("villager-placed", f"Put {name} at {ctx.place_name(location)}.", villager=villager.id, location=location)
    yield from villager_arrives(ctx, villager.id)


@COMMON_EVENTS.register("move_monsters")
def _move_monsters(ctx: GameContext, params: Mapping[str, object], text: str) -> Flow[None]:
    steps = int(str(params["steps"]))
    for monster_id in (yield from in_chosen_order(ctx, _movable(ctx, str(params["symbol"])), "event-order")):
        yield from move_toward_closest(ctx, Figure(monster_id), steps)


@COMMON_EVENTS.register("move_monsters_to")
def _move_monsters_to(ctx: GameContext, params: Mapping[str, object], text: str) -> Flow[None]:
    steps, goal = int(str(params["steps"])), str(params["location"])
    for monster_id in (yield from in_chosen_order(ctx, _movable(ctx, str(params["symbol"])), "event-order")):
        yield from move_toward_location(ctx, Figure(monster_id), goal, steps)


def _movable(ctx: GameContext, symbol: str) -> list[str]:
    return [m for m in monsters_with(ctx, symbol) if not ctx.monster_rules[m].rooted]


@COMMON_EVENTS.register("pull_adjacent")
def _pull_adjacent(ctx: GameContext, params: Mapping[str, object], text: str) -> Flow[None]:
    """"Ambush!": everyone next to the monster is pulled into its location."""
    for monster_id in (yield from in_chosen_order(ctx, monsters_with(ctx, str(params["symbol"])), "event-order")):
        yield from _pull_into(ctx, monster_id)


def _pull_into(ctx: GameContext, monster_id: str) -> Flow[None]:
    there = ctx.state.monsters[monster_id].location
    if there is None:
        return
    for other in ctx.state.monsters_in_play():
        rules = ctx.monster_rules[other.id]
        if other.location and ctx.graph.adjacent(other.location, there, rules.mover) and not rules.rooted:
            _say_pulled(ctx, ctx.monster(other.id).name, other.location, there)
            ctx.put(Figure(other.id), there)
    for hero in ctx.heroes_on_board():
        if hero.location and ctx.graph.adjacent(hero.location, there):
            _say_pulled(ctx, ctx.hero_name(hero.id), hero.location, there)
            hero.location = there
            yield from hero_arrives(ctx, hero.id)
    for villager in ctx.villagers_on_board():
        if villager.location and ctx.graph.adjacent(villager.location, there):
            _say_pulled(ctx, ctx.pack.villager(villager.id).name, villager.location, there)
            villager.location, villager.clutched = there, False
            yield from villager_arrives(ctx, villager.id)


def _say_pulled(ctx: GameContext, name: str, start: str, there: str) -> None:
    ctx.emit("figure-moved", f"Move {name} from {ctx.place_name(start)} to {ctx.place_name(there)}.",
             figure=name, path=[start, there])


@COMMON_EVENTS.register("frenzy_next")
def _frenzy_next(ctx: GameContext, params: Mapping[str, object], text: str) -> Flow[None]:
    pass_frenzy(ctx)
    return
    yield


@COMMON_EVENTS.register("place_monster")
def _place_monster(ctx: GameContext, params: Mapping[str, object], text: str) -> Flow[None]:
    location = str(params["location"])
    for monster_id in _movable(ctx, str(params["symbol"])):
        ctx.emit("monster-placed", f"Put {ctx.monster(monster_id).name} at {ctx.place_name(location)}.",
                 monster=monster_id, location=location)
        ctx.put(Figure(monster_id), location)
    return
    yield


@COMMON_EVENTS.register("sequence")
def _sequence(ctx: GameContext, params: Mapping[str, object], text: str) -> Flow[None]:
    steps = params["steps"]
    assert isinstance(steps, (list, tuple))
    for step in steps:
        yield from resolve_event(ctx, step if isinstance(step, Effect) else _effect_from(step))


def _effect_from(data: object) -> Effect:
    assert isinstance(data, Mapping)
    params = data.get("params", {})
    assert isinstance(params, Mapping)
    return Effect(str(data["kind"]), params, str(data.get("text", "")))


@COMMON_EVENTS.register("manual")
def _manual(ctx: GameContext, params: Mapping[str, object], text: str) -> Flow[None]:
    """The players do what the card says and report what changed on the table."""
    answer = yield Prompt("action", "manual-event",
                          f"Do what the card says: {text} Then tell me what changed (or that nothing did).",
                          ctx.active_player, context={"changes": "see docs/engine.md#manual-changes"})
    assert isinstance(answer, Mapping)
    yield from apply_changes(ctx, answer)
