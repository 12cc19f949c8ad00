"""Boards: places, the ways between them, who may take each way, how the board
changes during a game, and the shortest-path questions the rules ask.

Ties matter: when two paths or two targets are equally short the active player
chooses (RL-MP-8, RL-MP-12, RL-MP-14), so every query returns *all*
the tied answers, never an arbitrary one, for whichever figure is moving.

Who may go where is per *mover*, a name the game gives its figures ("creature",
"strahd", "zombie"); ``None`` is an ordinary figure. A way open to some movers
only says so (``Way(only=...)``): water that only the Creature swims. A change
during the game is a value (``Wall``, ``Block``): a barricade that stops every
figure but Strahd, a blockade no one may enter. Boards never change in place:
``board.changed(walls)`` is the board with those changes, kept and handed out
again for the same changes (up to ``DERIVED_KEPT`` of them), so its distances,
computed once, can never be a stale answer about another board.

Ways cost one move each unless they say otherwise; a way of cost 0 is a free
jump (from one suburb to any other). Paths are shortest in moves,
then in steps, so a free jump is never taken twice in a row for nothing.
"""

from __future__ import annotations

import copy
import heapq
import threading
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping, Sequence

Path = tuple[str, ...]
Mover = str | None  # who is moving; None: an ordinary figure, which takes only ways open to all
DERIVED_KEPT = 64  # changed boards kept per board (a game has few barricade patterns alive at once)


class UnknownLocation(ValueError):
    """A location that is not on this board."""


class UnknownWay(ValueError):
    """A change for a way the board does not have (a wall between two places not joined)."""


@dataclass(frozen=True)
class Way:
    """A way from ``a`` to ``b`` (and back, unless ``one_way``). ``kind`` says what it is
    on the board ("road", "water", "side" ...); ``only`` lists the movers who may take it
    (None: everyone); ``cost`` is how many moves it takes (0: a free jump)."""

    a: str
    b: str
    kind: str = ""
    only: frozenset[str] | None = None
    one_way: bool = False
    cost: int = 1

    def lets(self, mover: Mover) -> bool:
        return self.only is None or mover in self.only

    def joins(self, a: str, b: str) -> bool:
        return (self.a, self.b) == (a, b) or (self.b, self.a) == (a, b)


@dataclass(frozen=True)
class Wall:
    """A change: every way between ``a`` and ``b`` closed, except to the movers in ``passes``
    (a barricade that only Strahd crosses: ``passes={"strahd"}``). One line is one wall, whichever
    end it is named from: the ends are kept in order."""

    a: str
    b: str
    passes: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.b < self.a:
            first, second = self.b, self.a
            object.__setattr__(self, "a", first)
            object.__setattr__(self, "b", second)


@dataclass(frozen=True)
class Block:
    """A change: no mover but those in ``passes`` may enter ``place`` or pass through it
    (a blockade); a figure already there may leave."""

    place: str
    passes: frozenset[str] = frozenset()


Change = Wall | Block


class _Moves:
    """One mover's view of one board: where it can step, and the distances found so far."""

    def __init__(self, forward: dict[str, tuple[str, ...]], costs: dict[tuple[str, str], int] | None) -> None:
        self.forward = forward
        self.backward = _transpose(forward)
        self.symmetric = self.backward == forward  # then distances to a goal are distances from it
        self.costs = costs  # None: every step costs one move
        self.outward: dict[str, dict[str, int]] = {}  # from a place: fewest moves to each place
        self.inward: dict[str, dict[str, int]] = {}  # to a place, one-move steps: from each place
        self.keys: dict[str, dict[str, tuple[int, int]]] = {}  # to a place, costed: (moves, steps) from each

    def cost(self, here: str, there: str) -> int:
        return 1 if self.costs is None else self.costs[(here, there)]


class Board:
    """Places and the ways between them, with the changes made during the game. Never
    changed in place (its attributes are read-only by contract): ``changed``, ``with_ways``."""

    def __init__(self, places: Iterable[str], ways: Iterable[Way] = (), changes: Iterable[Change] = ()) -> None:
        self.places: tuple[str, ...] = tuple(dict.fromkeys(places))
        self._known = frozenset(self.places)
        self.ways: tuple[Way, ...] = tuple(ways)
        self.changes: frozenset[Change] = frozenset(changes)
        self._check_ways()
        self._check_changes()
        self._fresh_caches()

    def _fresh_caches(self) -> None:
        self._moves: dict[Mover, _Moves] = {}
        self._derived: OrderedDict[frozenset[Change], Board] = OrderedDict()
        self._derived_lock = threading.Lock()
        self._base: Board = self

    @classmethod
    def from_edges(cls, nodes: Iterable[str], edges: Iterable[tuple[str, str]], kind: str = "") -> "Board":
        """Two-way ways open to every mover; an edge with an end that is not a node is left out."""
        places = list(dict.fromkeys(nodes))
        known = set(places)
        return cls(places, [Way(a, b, kind) for a, b in dict.fromkeys(edges) if a in known and b in known and a != b])

    # -- places -------------------------------------------------------------------------
    def __contains__(self, place: object) -> bool:
        return place in self._known

    def check(self, place: str) -> str:
        if place not in self._known:
            raise UnknownLocation(f"{place!r} is not a location on this board")
        return place

    @property
    def neighbours(self) -> Mapping[str, tuple[str, ...]]:
        """Where an ordinary figure can go from each place in one step (sorted)."""
        return self._for(None).forward

    def steps(self, place: str, mover: Mover = None) -> tuple[str, ...]:
        """Where ``mover`` can go from ``place`` in one step (sorted)."""
        return self._for(mover).forward[self.check(place)]

    def adjacent(self, a: str, b: str, mover: Mover = None) -> bool:
        return b in self._for(mover).forward.get(a, ())

    def ways_between(self, a: str, b: str) -> list[Way]:
        return [way for way in self.ways if way.joins(a, b)]

    # -- changes ------------------------------------------------------------------------
    def changed(self, changes: Iterable[Change]) -> "Board":
        """This board's base with exactly ``changes`` (the game's walls and blocks as they
        are now). The same changes give the same board again, with what it has worked out."""
        key = frozenset(changes)
        base = self._base
        if key == self.changes:
            return self
        if not key:
            return base
        with base._derived_lock:
            found = base._derived.get(key)
            if found is None:
                found = base._derived[key] = base._derive(key)
                if len(base._derived) > DERIVED_KEPT:
                    base._derived.popitem(last=False)
            base._derived.move_to_end(key)
        return found

    def with_changes(self, *changes: Change) -> "Board":
        return self.changed(self.changes | set(changes))

    def without(self, *changes: Change) -> "Board":
        return self.changed(self.changes - set(changes))

    def with_ways(self, ways: Iterable[Way]) -> "Board":
        """A new base board with more ways for good (suburbs joined by jumps), and this board's changes."""
        base = copy.copy(self)
        base.ways, base.changes = self.ways + tuple(ways), frozenset()
        base._check_ways()
        base._fresh_caches()
        return base.changed(self.changes)

    def _derive(self, changes: frozenset[Change]) -> "Board":
        board = copy.copy(self)
        board.changes = changes
        board._check_changes()
        board._fresh_caches()
        board._base = self
        return board

    def _check_ways(self) -> None:
        for way in self.ways:
            self.check(way.a)
            self.check(way.b)
            if way.cost < 0:
                raise ValueError(f"the way {way.a} - {way.b} costs {way.cost} moves: a way costs 0 or more")

    def _check_changes(self) -> None:
        for change in self.changes:
            if isinstance(change, Block):
                self.check(change.place)
            elif not self.ways_between(self.check(change.a), self.check(change.b)):
                raise UnknownWay(f"there is no way between {change.a!r} and {change.b!r} to wall off")

    def passes(self, way: Way, mover: Mover) -> bool:
        """Whether ``mover`` may take ``way`` on this board as it is now."""
        return way.lets(mover) and all(mover in change.passes for change in self.changes
                                       if isinstance(change, Wall) and way.joins(change.a, change.b))

    def enters(self, place: str, mover: Mover) -> bool:
        """Whether ``mover`` may step into ``place`` (not blocked to it)."""
        return all(mover in change.passes for change in self.changes
                   if isinstance(change, Block) and change.place == place)

    # -- distances and paths ------------------------------------------------------------------
    def distances(self, source: str, mover: Mover = None) -> Mapping[str, int]:
        """The fewest moves from ``source`` to every place ``mover`` can reach (kept: read-only)."""
        moves = self._moves.get(mover) or self._for(mover)
        known = moves.outward.get(source)
        if known is None:
            known = moves.outward[source] = self._outward(moves, self.check(source))
        return known

    def shortest_paths(self, source: str, goal: str, mover: Mover = None) -> list[Path]:
        """Every shortest path from ``source`` to ``goal`` (both included), sorted; none from
        a place the mover cannot reach the goal from (or that is not on the board)."""
        moves = self._moves.get(mover) or self._for(mover)
        if moves.costs is not None:
            keys = self._keys(moves, self.check(goal))
            return sorted(_walk_down_costed(moves, source, keys)) if source in keys else []
        if moves.symmetric:
            to_goal = moves.outward.get(goal) or self.distances(goal, mover)
        else:
            to_goal = self._inward(moves, self.check(goal))
        return sorted(_walk_down(moves.forward, source, to_goal)) if source in to_goal else []

    def closest(self, source: str, candidates: Iterable[str], mover: Mover = None) -> tuple[int, list[str]]:
        """The fewest moves to any candidate and every candidate at that many.

        Returns ``(-1, [])`` when no candidate can be reached.
        """
        moves = self._moves.get(mover)
        dist = (moves.outward.get(source) if moves else None) or self.distances(source, mover)
        reachable = sorted({c for c in candidates if c in dist})
        if not reachable:
            return -1, []
        best = min(dist[c] for c in reachable)
        return best, [c for c in reachable if dist[c] == best]

    def connected(self, mover: Mover = None) -> bool:
        return not self.places or len(self.distances(self.places[0], mover)) == len(self.places)

    # -- internals ------------------------------------------------------------------------------
    def _for(self, mover: Mover) -> _Moves:
        moves = self._moves.get(mover)
        if moves is None:
            moves = self._moves[mover] = self._build(mover)
        return moves

    def _build(self, mover: Mover) -> _Moves:
        reach: dict[str, dict[str, int]] = {place: {} for place in self.places}
        for way in self.ways:
            if self.passes(way, mover):
                for a, b in ((way.a, way.b),) if way.one_way else ((way.a, way.b), (way.b, way.a)):
                    if self.enters(b, mover):
                        reach[a][b] = min(reach[a].get(b, way.cost), way.cost)
        forward = {place: tuple(sorted(others)) for place, others in reach.items()}
        costs = {(a, b): c for a, others in reach.items() for b, c in others.items()}
        return _Moves(forward, None if all(c == 1 for c in costs.values()) else costs)

    def _outward(self, moves: _Moves, source: str) -> dict[str, int]:
        if moves.costs is None:
            return _breadth_first(moves.forward, source)
        return {place: key[0] for place, key in _cheapest(moves, source, outward=True).items()}

    def _inward(self, moves: _Moves, goal: str) -> dict[str, int]:
        """Steps to ``goal`` from every place that reaches it (one-way ways, blocked places)."""
        known = moves.inward.get(goal)
        if known is None:
            known = moves.inward[goal] = _breadth_first(moves.backward, goal)
        return known

    def _keys(self, moves: _Moves, goal: str) -> dict[str, tuple[int, int]]:
        known = moves.keys.get(goal)
        if known is None:
            known = moves.keys[goal] = _cheapest(moves, goal, outward=False)
        return known

    # -- comparing ------------------------------------------------------------------------------
    def _identity(self) -> tuple[object, ...]:
        return type(self), self.places, self.ways, self.changes

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self.places)} places, {len(self.ways)} ways, {len(self.changes)} changes)"


def _transpose(forward: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    back: dict[str, list[str]] = {place: [] for place in forward}
    for here, theres in forward.items():
        for there in theres:
            back[there].append(here)
    return {place: tuple(sorted(others)) for place, others in back.items()}


def _breadth_first(steps: Mapping[str, tuple[str, ...]], source: str) -> dict[str, int]:
    seen = {source: 0}
    queue = deque([source])
    while queue:
        here = queue.popleft()
        for there in steps[here]:
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def _cheapest(moves: _Moves, start: str, outward: bool) -> dict[str, tuple[int, int]]:
    """(moves, steps) between ``start`` and every place, fewest moves first, then fewest
    steps (Dijkstra): from ``start`` when ``outward``, else to it."""
    steps = moves.forward if outward else moves.backward
    best = {start: (0, 0)}
    queue = [(0, 0, start)]
    while queue:
        cost, hops, here = heapq.heappop(queue)
        if (cost, hops) > best[here]:
            continue
        for there in steps[here]:
            key = (cost + (moves.cost(here, there) if outward else moves.cost(there, here)), hops + 1)
            if key < best.get(there, (1 << 60, 0)):
                best[there] = key
                heapq.heappush(queue, (*key, there))
    return best


def _walk_down(steps: Mapping[str, tuple[str, ...]], here: str, to_goal: Mapping[str, int]) -> Iterator[Path]:
    if to_goal[here] == 0:
        yield (here,)
        return
    for there in steps[here]:
        if to_goal.get(there) == to_goal[here] - 1:
            for rest in _walk_down(steps, there, to_goal):
                yield (here,) + rest


def _walk_down_costed(moves: _Moves, here: str, keys: Mapping[str, tuple[int, int]]) -> Iterator[Path]:
    cost, hops = keys[here]
    if hops == 0:
        yield (here,)
        return
    for there in moves.forward[here]:
        if keys.get(there) == (cost - moves.cost(here, there), hops - 1):
            for rest in _walk_down_costed(moves, there, keys):
                yield (here,) + rest


def jumps(places: Sequence[str], kind: str = "jump") -> list[Way]:
    """Free ways between every two of ``places`` (reach a suburb, go on from any other)."""
    return [Way(a, b, kind, cost=0) for n, a in enumerate(places) for b in places[n + 1:]]


def distinct_prefixes(paths: Sequence[Path], steps: int) -> list[Path]:
    """The different first ``steps`` moves among ``paths``: only these matter
    for a monster that walks ``steps`` locations of a longer path."""
    seen: dict[Path, None] = {}
    for path in paths:
        seen.setdefault(path[: steps + 1], None)
    return list(seen)


__all__ = ["Block", "Board", "Change", "DERIVED_KEPT", "Mover", "Path", "UnknownLocation", "UnknownWay", "Wall", "Way",
           "distinct_prefixes", "jumps"]
