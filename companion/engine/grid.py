"""A grid as a kind of board: squares at (column, row), each joined to its 4 or
8 neighbours, with compass directions, the lines between squares and the
board's edge.

Why a board and not something beside it: the rules ask a grid the same
questions as any board (who can reach what, every tied shortest path, for
which mover) and it changes the same way (a ``Wall`` on the line between two
squares: a barricade; a ``Block`` on a square: a blockade), so it is a
``Board`` whose places have coordinates.

Rows count down the board as it is read: row 0 is the north edge, column 0
the west edge. Ways between side neighbours are of kind ``"side"``, between
corner neighbours ``"corner"``; a wall closes the side way only (a diagonal
step past a walled line is the game's to refuse, by walling the corner too).
"""

from __future__ import annotations

from enum import Enum
from typing import Iterable, Mapping

from .board import Board, Change, UnknownLocation, Wall, Way

Square = tuple[int, int]  # (column, row)


class Direction(Enum):
    """A compass direction and its step (columns east, rows south)."""

    N = (0, -1)
    NE = (1, -1)
    E = (1, 0)
    SE = (1, 1)
    S = (0, 1)
    SW = (-1, 1)
    W = (-1, 0)
    NW = (-1, -1)

    @property
    def step(self) -> Square:
        return self.value

    @property
    def diagonal(self) -> bool:
        return 0 not in self.value

    def turned(self, eighths: int) -> "Direction":
        """Turned clockwise by ``eighths`` eighths of a turn (2: a right angle; -2: left).
        A player sitting at another side plans "ahead" in their own direction."""
        order = list(Direction)
        return order[(order.index(self) + eighths) % len(order)]

    @classmethod
    def between(cls, a: Square, b: Square) -> "Direction | None":
        """The direction of one step from square ``a`` to square ``b``, or None if they are not neighbours."""
        step = (b[0] - a[0], b[1] - a[1])
        return next((d for d in cls if d.value == step), None)


SIDES = (Direction.N, Direction.E, Direction.S, Direction.W)


def square_name(column: int, row: int) -> str:
    """The default name of a square: ``"3,2"`` for column 3, row 2."""
    return f"{column},{row}"


class Grid(Board):
    """A board of squares. ``squares``: which (column, row) exist (default: every square
    of ``columns`` x ``rows``); ``names``: squares with names of their own ("E7");
    ``diagonals``: 8 neighbours instead of 4."""

    def __init__(self, columns: int, rows: int, *, diagonals: bool = False, squares: Iterable[Square] | None = None,
                 names: Mapping[Square, str] | None = None, changes: Iterable[Change] = ()) -> None:
        if columns < 1 or rows < 1:
            raise ValueError(f"a grid needs at least one column and one row, not {columns} x {rows}")
        self.columns, self.rows, self.diagonals = columns, rows, diagonals
        cells = list(dict.fromkeys(squares)) if squares is not None else \
            [(c, r) for r in range(rows) for c in range(columns)]
        outside = [cell for cell in cells if not (0 <= cell[0] < columns and 0 <= cell[1] < rows)]
        if outside:
            raise ValueError(f"the square {outside[0]} is outside a grid of {columns} x {rows}")
        self.named: dict[Square, str] = {cell: (names or {}).get(cell) or square_name(*cell) for cell in cells}
        self.coordinates: dict[str, Square] = {name: cell for cell, name in self.named.items()}
        if len(self.coordinates) != len(self.named):
            raise ValueError("two squares of the grid have the same name")
        super().__init__(self.named.values(), self._neighbour_ways(), changes)

    def _neighbour_ways(self) -> list[Way]:
        """Each pair of neighbours once: east and south (and the two southern corners)."""
        directions = (Direction.E, Direction.S, Direction.SE, Direction.SW) if self.diagonals else \
            (Direction.E, Direction.S)
        ways = []
        for cell, name in self.named.items():
            for direction in directions:
                there = self.named.get(_moved(cell, direction))
                if there is not None:
                    ways.append(Way(name, there, "corner" if direction.diagonal else "side"))
        return ways

    # -- where things are ------------------------------------------------------------------
    def square(self, column: int, row: int) -> str | None:
        """The square at (column, row), or None off the board."""
        return self.named.get((column, row))

    def coordinates_of(self, place: str) -> Square:
        try:
            return self.coordinates[place]
        except KeyError:
            raise UnknownLocation(f"{place!r} is not a square of this grid") from None

    def toward(self, place: str, direction: Direction) -> str | None:
        """The square one step from ``place`` in ``direction``; None off the board.
        (Geometry only: whether a figure may step there is ``steps`` / ``adjacent``.)"""
        return self.named.get(_moved(self.coordinates_of(place), direction))

    def direction(self, a: str, b: str) -> Direction | None:
        """Which way ``b`` lies from ``a``, if they are neighbours."""
        return Direction.between(self.coordinates_of(a), self.coordinates_of(b))

    def off_board(self, place: str) -> tuple[Direction, ...]:
        """The sides of a square that are the board's edge."""
        return tuple(d for d in SIDES if self.toward(place, d) is None)

    def edge(self) -> list[str]:
        """Every square with a side on the board's edge (where a figure may arrive from off the board; suburbs)."""
        return [place for place in self.places if self.off_board(place)]

    # -- lines between squares ---------------------------------------------------------------
    def lines(self, place: str) -> dict[Direction, str]:
        """The lines of a square that lie between it and another: direction -> the other square."""
        return {d: there for d in SIDES if (there := self.toward(place, d)) is not None}

    def wall(self, place: str, side: Direction, passes: Iterable[str] = ()) -> Wall:
        """The change that walls the line on ``side`` of ``place`` (a barricade only Strahd
        crosses: ``passes=["strahd"]``)."""
        if side.diagonal:
            raise ValueError(f"a square's lines are its sides (N, E, S, W), not {side.name}")
        there = self.toward(place, side)
        if there is None:
            raise ValueError(f"the {side.name} side of {place!r} is the board's edge: no line to wall there")
        return Wall(place, there, frozenset(passes))

    def walls(self) -> list[Wall]:
        return sorted((c for c in self.changes if isinstance(c, Wall)), key=lambda w: (w.a, w.b))

    def _identity(self) -> tuple[object, ...]:
        return (*super()._identity(), tuple(self.named.items()), self.diagonals)


def _moved(cell: Square, direction: Direction) -> Square:
    return cell[0] + direction.step[0], cell[1] + direction.step[1]


__all__ = ["Direction", "Grid", "SIDES", "Square", "square_name"]
