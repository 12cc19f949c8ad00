"""The board as a graph, and the shortest-path questions the Monster AI asks.

Ties matter in Horrified: when two paths or two targets are equally short the
active player chooses (RL-MP-8, RL-MP-12, RL-MP-14), so every query here returns
*all* the tied answers, never an arbitrary one.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Mapping, Sequence

Path = tuple[str, ...]


class UnknownLocation(ValueError):
    """A location that is not on this board."""


@dataclass(frozen=True)
class Graph:
    """Undirected adjacency between location ids."""

    neighbours: Mapping[str, tuple[str, ...]]
    _distances: dict[str, Mapping[str, int]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_edges(cls, nodes: Iterable[str], edges: Iterable[tuple[str, str]]) -> "Graph":
        adjacency: dict[str, set[str]] = {node: set() for node in nodes}
        for a, b in edges:
            if a in adjacency and b in adjacency:
                adjacency[a].add(b)
                adjacency[b].add(a)
        return cls({node: tuple(sorted(others)) for node, others in adjacency.items()})

    def __contains__(self, node: object) -> bool:
        return node in self.neighbours

    def check(self, node: str) -> str:
        if node not in self.neighbours:
            raise UnknownLocation(f"{node!r} is not a location on this board")
        return node

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours.get(a, ())

    def distances(self, source: str) -> Mapping[str, int]:
        """Breadth-first distances from ``source`` to every reachable location.

        The board never changes during a game, so each answer is kept (read-only).
        """
        known = self._distances.get(source)
        if known is None:
            known = self._distances[source] = self._breadth_first(source)
        return known

    def _breadth_first(self, source: str) -> dict[str, int]:
        seen = {self.check(source): 0}
        queue = deque([source])
        while queue:
            here = queue.popleft()
            for there in self.neighbours[here]:
                if there not in seen:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        return seen

    def shortest_paths(self, source: str, goal: str) -> list[Path]:
        """Every shortest path from ``source`` to ``goal`` (both included), sorted."""
        to_goal = self.distances(self.check(goal))
        if source not in to_goal:
            return []
        return sorted(self._walk_down(source, to_goal))

    def _walk_down(self, here: str, to_goal: Mapping[str, int]) -> Iterator[Path]:
        if to_goal[here] == 0:
            yield (here,)
            return
        for there in self.neighbours[here]:
            if to_goal.get(there) == to_goal[here] - 1:
                for rest in self._walk_down(there, to_goal):
                    yield (here,) + rest

    def closest(self, source: str, candidates: Iterable[str]) -> tuple[int, list[str]]:
        """The smallest distance to any candidate location and all candidates at it.

        Returns ``(-1, [])`` when no candidate can be reached.
        """
        dist = self.distances(source)
        reachable = sorted({c for c in candidates if c in dist})
        if not reachable:
            return -1, []
        best = min(dist[c] for c in reachable)
        return best, [c for c in reachable if dist[c] == best]

    def connected(self) -> bool:
        nodes = list(self.neighbours)
        return not nodes or len(self.distances(nodes[0])) == len(nodes)


def distinct_prefixes(paths: Sequence[Path], steps: int) -> list[Path]:
    """The different first ``steps`` moves among ``paths``: only these matter
    for a monster that walks ``steps`` locations of a longer path."""
    seen: dict[Path, None] = {}
    for path in paths:
        seen.setdefault(path[: steps + 1], None)
    return list(seen)
