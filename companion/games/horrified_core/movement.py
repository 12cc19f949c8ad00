"""Monster movement: toward the closest character along a shortest path
(RL-MP-7 .. RL-MP-12), with the active player choosing between ties. Each figure moves
as its plug-in's ``mover`` may (a swimmer takes ways no one else may): every distance
and path is asked for that mover."""

from __future__ import annotations

from collections.abc import Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.board import Mover
from companion.engine.graph import Path, distinct_prefixes
from companion.engine.prompts import Option

from .arrivals import villager_arrives, hero_arrives
from .context import Character, Figure, GameContext


def closest_places(ctx: GameContext, here: str, mover: Mover = None) -> list[str]:
    """The nearest places with a character, reached as ``mover`` goes. In an edition whose monsters go
    for heroes first (RL-MP-8), a hero beats a villager at the same distance; otherwise every place
    with a person at the closest distance is one."""
    dist = ctx.graph.distances(here, mover)
    heroes = {h.location for h in ctx.heroes_on_board() if h.location is not None and h.location in dist}
    villagers = {v.location for v in ctx.villagers_on_board() if v.location is not None and v.location in dist}
    everyone = heroes | villagers
    if not everyone:
        return []
    best = min(dist[loc] for loc in everyone)
    if not ctx.edition.heroes_first_when_moving(ctx):
        return sorted(loc for loc in everyone if dist[loc] == best)
    tied = sorted(loc for loc in heroes if dist[loc] == best)
    return tied or sorted(loc for loc in villagers if dist[loc] == best)


def closest_character_goal(ctx: GameContext, figure: Figure, here: str, mover: Mover = None) -> Flow[str | None]:
    """The location ``figure`` (at ``here``) heads for, or None with no character on the board;
    equally close places (``closest_places``) are the active player's choice (RL-MP-8)."""
    tied = closest_places(ctx, here, mover)
    if not tied:
        return None
    options = [Option(loc, _toward_text(ctx, loc), {"location": loc}) for loc in tied]
    name = ctx.figure_name(figure)
    return (yield from ctx.choose("move-toward", f"{name} is equally close to several characters. Which does {name} go for?",
                                  options, ctx.about(figure)))


def _toward_text(ctx: GameContext, location: str) -> str:
    names = ", ".join(ctx.character_name(c) for c in ctx.characters_at(location))
    return f"{names} at {ctx.place_name(location)}"


def choose_path(ctx: GameContext, figure: Figure, here: str, goal: str, steps: int,
                mover: Mover = None) -> Flow[Path]:
    """The part of a shortest path monster ``figure`` will walk; ask only if the walked parts differ."""
    return (yield from choose_walk(ctx, ctx.figure_name(figure), here, goal, steps, mover, ctx.about(figure)))


def choose_walk(ctx: GameContext, name: str, here: str, goal: str, steps: int, mover: Mover = None,
                context: Mapping[str, object] | None = None) -> Flow[Path]:
    """The part of a shortest path ``name`` (a monster, a hero, a villager) will walk; asked, naming
    the walker, only if the walked parts differ. A goal the mover cannot reach leaves it where it is."""
    prefixes = distinct_prefixes(ctx.graph.shortest_paths(here, goal, mover), steps)
    if not prefixes:
        return (here,)
    options = [Option(str(i), _path_text(ctx, p), {"path": list(p)}) for i, p in enumerate(prefixes)]
    text = f"{name} has several shortest paths toward {ctx.place_name(goal)}. Which way does {name} go?"
    chosen = yield from ctx.choose("path", text, options, context)
    return prefixes[int(chosen)]


def _path_text(ctx: GameContext, path: Path) -> str:
    return "via " + " → ".join(ctx.place_name(loc) for loc in path[1:])


def walk_monster(ctx: GameContext, figure: Figure, path: Path, stop_at_characters: bool = True) -> Path:
    """Move the figure along ``path``; it stops on entering a location with a character (RL-MP-10).
    The move is said before the figure is put down, so what its arrival sets off comes after it."""
    walked = [path[0]]
    for location in path[1:]:
        walked.append(location)
        if stop_at_characters and ctx.characters_at(location):
            break
    _say_moved(ctx, figure, tuple(walked))
    ctx.put(figure, walked[-1])
    return tuple(walked)


def _say_moved(ctx: GameContext, figure: Figure, walked: Path) -> None:
    name = ctx.figure_name(figure)
    if len(walked) == 1:
        ctx.emit("monster-stays", f"{name} stays at {ctx.place_name(walked[0])}.",
                 monster=figure.monster, blight=figure.minion, location=walked[0])
        return
    ctx.emit("monster-moved",
             f"Move {name} from {ctx.place_name(walked[0])} to {ctx.place_name(walked[-1])}"
             f" ({len(walked) - 1} location{'s' if len(walked) > 2 else ''}).",
             monster=figure.monster, blight=figure.minion, path=list(walked))


def move_toward_closest(ctx: GameContext, figure: Figure, steps: int) -> Flow[None]:
    """A monster's move on the attack line (RL-MP-7, -9, -10, -11, -12)."""
    here = ctx.where(figure)
    if here is None:
        return
    if ctx.characters_at(here):
        ctx.emit("monster-stays", f"{ctx.figure_name(figure)} starts with a character, so it does not move.",
                 monster=figure.monster, blight=figure.minion, location=here)
        return
    mover = ctx.mover(figure)
    goal = yield from closest_character_goal(ctx, figure, here, mover)
    if goal is None:
        ctx.emit("monster-stays", f"No character is on the board: {ctx.figure_name(figure)} does not move.",
                 monster=figure.monster, blight=figure.minion, location=here)
        return
    if steps <= 0:
        _say_moved(ctx, figure, (here,))
        return
    path = yield from choose_path(ctx, figure, here, goal, steps, mover)
    walk_monster(ctx, figure, path)


def move_toward_location(ctx: GameContext, figure: Figure, goal: str, steps: int) -> Flow[None]:
    """An event's "move toward <place>": shortest path, stops at the goal (RL-MP-12)."""
    here = ctx.where(figure)
    if here is None or here == goal or goal not in ctx.graph:
        return
    path = yield from choose_path(ctx, figure, here, goal, steps, ctx.mover(figure))
    walk_monster(ctx, figure, path, stop_at_characters=False)


def move_a_monster(ctx: GameContext, steps: int) -> Flow[None]:
    """Move one monster figure (never a rooted one; its minions may go) up to ``steps`` locations."""
    figures = [f for f in ctx.monster_figures() if f.minion is not None or not ctx.monster_rules[f.monster].rooted]
    if not figures:
        ctx.emit("note", "No monster can be moved.")
        return
    options = [Option(f"{f.monster}:{'' if f.minion is None else f.minion}", ctx.figure_name(f)) for f in figures]
    chosen = yield from ctx.choose("move-which-monster", "Which monster do you move?", options)
    monster, _, minion = chosen.partition(":")
    figure = Figure(monster, int(minion) if minion else None)
    here = ctx.where(figure)
    assert here is not None
    to = yield from choose_location_within(ctx, here, steps, "move-monster-to", f"Move {ctx.figure_name(figure)} where?",
                                           ctx.mover(figure), ctx.about(figure))
    ctx.emit("monster-moved", f"Move {ctx.figure_name(figure)} from {ctx.place_name(here)} to {ctx.place_name(to)}.",
             monster=figure.monster, blight=figure.minion, path=[here, to])
    ctx.put(figure, to)


def choose_location_within(ctx: GameContext, here: str, steps: int, key: str, text: str,
                           mover: Mover = None, context: Mapping[str, object] | None = None) -> Flow[str]:
    dist = ctx.graph.distances(here, mover)
    reachable = sorted(loc for loc, d in dist.items() if 0 < d <= steps)
    if not reachable:
        raise IllegalInput(f"nowhere to go from {ctx.place_name(here)}")
    options = [Option(loc, ctx.place_name(loc)) for loc in reachable]
    return (yield from ctx.choose(key, text, options, context))


def move_character(ctx: GameContext, who: Character, to: str) -> Flow[None]:
    """A hero or villager moved or placed at ``to``; rescues happen on arrival."""
    if who.kind == "hero":
        ctx.state.heroes[who.id].location = to
        yield from hero_arrives(ctx, who.id)
    else:
        villager = ctx.state.villagers[who.id]
        villager.location, villager.clutched = to, False
        yield from villager_arrives(ctx, who.id)
