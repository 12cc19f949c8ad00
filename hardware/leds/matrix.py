"""An LED layout for a WS281x matrix under a board, generated from where each
LED of the matrix lies: the panels as they are sold (8 x 8, 16 x 16, 8 x 32 ...),
each wired as one strip that runs along its rows or columns and, on most
panels, turns back at the end of each ("serpentine"), and several panels
chained into one matrix.

Why: a grid board (or any board) laid over a matrix needs no LED-by-LED
calibration to start with: which LEDs lie under which square and which along
which line between two squares follows from the matrix's wiring and the
board's drawing positions. The owner gives the matrix (panel size, how many
panels, where the data comes in, which way it runs) and the part of the board
picture it covers; LED calibration (calibration/leds.py) corrects anything
the generator could not know.

Each LED goes to the nearest location of the board, unless it lies near the
middle of a connection between two locations (within ``line_reach`` of that
connection's length), where it goes to the connection; an LED farther from
every location than the board's usual spacing (outside the board) is left
out. On a grid this puts the LEDs inside each square under it and the LEDs on
a line between two squares on that line: a matrix of 4 LEDs a square's side
(32 x 32 under 8 x 8 squares) gives 8 LEDs to each square (more to those on the
border, which take the border's LEDs) and 4 to each line;
one of 2 a side gives each square 4 LEDs and the lines none.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Literal

from .board import BoardShape
from .layout import Layout, validate

Corner = Literal["top-left", "top-right", "bottom-left", "bottom-right"]
Along = Literal["rows", "columns"]
CORNERS: tuple[Corner, ...] = ("top-left", "top-right", "bottom-left", "bottom-right")
LINE_REACH = 0.25
MOST_LEDS = 2700  # what a layout may count


class MatrixError(ValueError):
    """A matrix that cannot be (a panel of no LEDs, a wiring that is not one of the kinds sold)."""


@dataclass(frozen=True)
class Wiring:
    """How a strip runs over a rectangle of cells: from ``start``, along rows or columns, turning back
    at the end of each (``serpentine``) or starting each one again from the same side."""

    start: Corner = "top-left"
    along: Along = "rows"
    serpentine: bool = True

    def __post_init__(self) -> None:
        if self.start not in CORNERS or self.along not in ("rows", "columns"):
            raise MatrixError(f"a wiring starts at a corner ({', '.join(CORNERS)}) and runs along rows or columns, "
                              f"not {self.start!r} along {self.along!r}")

    def order(self, columns: int, rows: int) -> list[tuple[int, int]]:
        """The cells (column, row from the top-left) in the order the strip passes them."""
        lines, length = (rows, columns) if self.along == "rows" else (columns, rows)
        flip_lines = self.start.startswith("bottom") if self.along == "rows" else self.start.endswith("right")
        flip_first = self.start.endswith("right") if self.along == "rows" else self.start.startswith("bottom")
        cells = []
        for n in range(lines):
            line = lines - 1 - n if flip_lines else n
            backwards = flip_first != (self.serpentine and n % 2 == 1)
            for k in range(length):
                step = length - 1 - k if backwards else k
                cells.append((step, line) if self.along == "rows" else (line, step))
        return cells


@dataclass(frozen=True)
class Matrix:
    """``panels_across`` x ``panels_down`` panels of ``panel_columns`` x ``panel_rows`` LEDs; ``wiring``
    inside each panel, ``chain`` the order the panels are joined in (the same kinds of wiring)."""

    panel_columns: int
    panel_rows: int
    panels_across: int = 1
    panels_down: int = 1
    wiring: Wiring = Wiring()
    chain: Wiring = Wiring(serpentine=False)

    def __post_init__(self) -> None:
        sizes = (self.panel_columns, self.panel_rows, self.panels_across, self.panels_down)
        if any(n < 1 for n in sizes):
            raise MatrixError(f"a matrix needs at least one LED and one panel each way, not {sizes}")
        if self.count > MOST_LEDS:
            raise MatrixError(f"a matrix of {self.count} LEDs is more than a layout may hold ({MOST_LEDS})")

    @property
    def columns(self) -> int:
        return self.panel_columns * self.panels_across

    @property
    def rows(self) -> int:
        return self.panel_rows * self.panels_down

    @property
    def count(self) -> int:
        return self.columns * self.rows

    def cells(self) -> list[tuple[int, int]]:
        """Each LED's (column, row) over the whole matrix, by its index on the strip."""
        found = []
        for across, down in self.chain.order(self.panels_across, self.panels_down):
            for c, r in self.wiring.order(self.panel_columns, self.panel_rows):
                found.append((across * self.panel_columns + c, down * self.panel_rows + r))
        return found


@dataclass(frozen=True)
class Area:
    """The part of the board picture the matrix covers (0..1 of its width and height)."""

    left: float = 0.0
    top: float = 0.0
    right: float = 1.0
    bottom: float = 1.0


def generator(matrix: Matrix, area: Area = Area()) -> Callable[[BoardShape], Layout]:
    """A board's layout generator (``BoardShape.generated``) for ``matrix`` under ``area`` of it."""
    return lambda shape: matrix_layout(shape, matrix, area)


def led_points(matrix: Matrix, area: Area = Area()) -> list[tuple[float, float]]:
    """Where each LED lies on the board picture, by index (each at the middle of its cell)."""
    width, height = area.right - area.left, area.bottom - area.top
    return [(area.left + width * (c + 0.5) / matrix.columns, area.top + height * (r + 0.5) / matrix.rows)
            for c, r in matrix.cells()]


def matrix_layout(shape: BoardShape, matrix: Matrix, area: Area = Area(), line_reach: float = LINE_REACH) -> Layout:
    """The layout of ``matrix`` under the board (see the module's docstring for which LED goes where)."""
    spacing = _spacing(shape)
    locations: dict[str, list[int]] = {name: [] for name in shape.locations}
    lines: dict[tuple[str, str], list[tuple[tuple[float, float], int]]] = {pair: [] for pair in shape.connections}
    for index, point in enumerate(led_points(matrix, area)):
        place, distance = _nearest_location(shape, point)
        line = _near_line(shape, point, line_reach)
        if line is not None and line[1] < distance:
            lines[line[0]].append((_along(shape, line[0], point), index))
        elif place is not None and distance <= spacing:
            locations[place].append(index)
    connections = {pair: tuple(i for _, i in sorted(found)) for pair, found in lines.items() if found}
    return validate(Layout(shape.name, matrix.count, {k: tuple(v) for k, v in locations.items() if v},
                           connections), shape)


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _spacing(shape: BoardShape) -> float:
    """How far apart the board's locations usually are: the median distance to each one's nearest."""
    points = list(shape.locations.values())
    if len(points) < 2:
        return math.inf
    nearest = sorted(min(_distance(p, q) for q in points if q is not p) for p in points)
    return nearest[len(nearest) // 2]


def _nearest_location(shape: BoardShape, point: tuple[float, float]) -> tuple[str | None, float]:
    best: tuple[str | None, float] = (None, math.inf)
    for name, where in shape.locations.items():
        distance = _distance(point, where)
        if distance < best[1]:
            best = (name, distance)
    return best


def _near_line(shape: BoardShape, point: tuple[float, float],
               reach: float) -> tuple[tuple[str, str], float] | None:
    """The connection whose middle ``point`` lies within ``reach`` of its length of, nearest first."""
    best: tuple[tuple[str, str], float] | None = None
    for a, b in shape.connections:
        pa, pb = shape.locations[a], shape.locations[b]
        middle = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
        distance = _distance(point, middle)
        if distance <= reach * _distance(pa, pb) and (best is None or distance < best[1]):
            best = ((a, b), distance)
    return best


def _along(shape: BoardShape, pair: tuple[str, str], point: tuple[float, float]) -> tuple[float, float]:
    """How far along from ``pair[0]`` towards ``pair[1]`` a point lies, then across (for LEDs side by side
    on a line crossing the connection): the order the layout keeps them in."""
    (ax, ay), (bx, by) = shape.locations[pair[0]], shape.locations[pair[1]]
    dx, dy = bx - ax, by - ay
    along = (point[0] - ax) * dx + (point[1] - ay) * dy
    across = (point[0] - ax) * -dy + (point[1] - ay) * dx
    return round(along, 9), round(across, 9)


__all__ = ["Area", "CORNERS", "LINE_REACH", "Matrix", "MatrixError", "Wiring", "generator", "led_points", "matrix_layout"]
