"""The village map: a grid of squares, the keyed places on it, the heroes'
entrance, the edge squares where Count Strahd arrives, squares that are not
part of the board and the barricades at the start.

Why a checked file: no source keeps the rules' map (it was a picture), so the
shipped one is ours and the owner draws theirs in the grid editor. Whatever
they save goes through ``map_from_files``, which reports every problem at
once (``PackError``), so a game never starts on a map it cannot play.

Squares are keyed ``"column,row"`` (``"3,4"``), row 0 the north edge, as the
engine's ``Grid`` keys them; a line between two squares is the pair of their
keys in order. A key is for files and answers only: every sentence a person
reads counts from 1 (``square_words``: the key "3,4" is column 4, row 5).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Final, Mapping

from companion.engine.grid import Grid
from companion.games.datafiles import Node, PackError, Sink, reachable

Line = tuple[str, str]
FILE: Final = "map.json"
SQUARE: Final = re.compile(r"(\d{1,2}),(\d{1,2})")
MOST: Final = 32  # squares a side: larger than any printed village, small enough for a tablet
#: The keyed places, by id: what each one is for in the rules.
ROLES: Final[dict[str, str]] = {
    "town-square": "Ashlyn or Ireena may be recruited here",
    "mercantile": "a safe house; weapons are upgraded here",
    "tavern": "a safe house; heroes rest here",
    "church": "zombies are summoned here; the plague is stopped here",
    "graveyard": "the first ghoul starts here; summoned ghouls come here",
    "estate": "a safe house; Ashlyn or Ireena may be recruited here",
}
SAFE_HOUSES: Final = ("tavern", "mercantile", "estate")


@dataclass(frozen=True)
class Place:
    id: str
    name: str
    code: str
    square: str


@dataclass(frozen=True)
class Frame:
    """Where the grid's outer corners lie on the owner's photo, as fractions of it."""

    left: float = 0.0
    top: float = 0.0
    right: float = 1.0
    bottom: float = 1.0


@dataclass(frozen=True)
class SiegeMap:
    columns: int
    rows: int
    places: Mapping[str, Place]
    entrance: str
    edge: tuple[str, ...]
    off_board: tuple[str, ...]
    barricades: tuple[Line, ...]
    frame: Frame
    data_id: str = ""

    @functools.cached_property
    def grid(self) -> Grid:
        """The bare grid (no barricades): the game's barricades are changes on it."""
        holes = {square_cell(s) for s in self.off_board}
        cells = [(c, r) for r in range(self.rows) for c in range(self.columns) if (c, r) not in holes]
        return Grid(self.columns, self.rows, squares=cells)

    def square_of(self, place: str) -> str:
        return self.places[place].square

    def place_at(self, square: str) -> Place | None:
        return next((p for p in self.places.values() if p.square == square), None)

    def lines(self) -> list[Line]:
        """Every line between two squares of the board (where a barricade may stand)."""
        return sorted({line_of(w.a, w.b) for w in self.grid.ways})


def square_cell(name: str) -> tuple[int, int]:
    found = SQUARE.fullmatch(name)
    if found is None:
        raise ValueError(f"{name!r} is not a square name like '3,4'")
    return int(found.group(1)), int(found.group(2))


def line_of(a: str, b: str) -> Line:
    return (a, b) if a <= b else (b, a)


# -- reading the files -----------------------------------------------------------------------------

def read_map_files() -> dict[str, object]:
    """The shipped files (parsed afresh each time: callers may change what they get)."""
    return {FILE: json.loads(_shipped_text())}


@functools.lru_cache(maxsize=1)
def _shipped_text() -> str:
    return resources.files("companion.games.siege_of_barovia").joinpath("data", FILE).read_text("utf-8")


def map_from_files(files: Mapping[str, object], data_id: str = "") -> SiegeMap:
    """The checked map; ``PackError`` lists every problem."""
    problems: list[str] = []
    root = Node(Sink(FILE, problems), "", files.get(FILE))
    root.fields("grid", "frame", "entrance", "edge", "off_board", "barricades", "places")
    reader = _Reader(root)
    siege_map = reader.read(data_id)
    if problems:
        raise PackError(problems)
    return siege_map


class _Reader:
    """One pass over the file, every complaint into its sink."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self.columns = self.rows = 1

    def read(self, data_id: str) -> SiegeMap:
        self._grid(self.root.child("grid"))
        off_board = tuple(self._squares(self.root.child("off_board"), "squares", allow_null=False) or ())
        on_board = {f"{c},{r}" for r in range(self.rows) for c in range(self.columns)} - set(off_board)
        places = self._places(self.root.child("places"), on_board)
        entrance = self._one_square(self.root.child("entrance"), on_board)
        edge = self._edge(on_board)
        barricades = self._barricades(self.root.child("barricades"), on_board)
        siege_map = SiegeMap(self.columns, self.rows, places, entrance, edge, off_board, barricades,
                             self._frame(self.root.child("frame")), data_id)
        self._check_reach(siege_map, on_board)
        return siege_map

    def _grid(self, node: Node) -> None:
        node.fields("columns", "rows", "verified")
        self.columns = node.child("columns").integer(2, MOST)
        self.rows = node.child("rows").integer(2, MOST)
        _verified(node)

    def _frame(self, node: Node) -> Frame:
        node.fields("left", "top", "right", "bottom")
        left, top, right, bottom = (node.child(k).number(0.0, 1.0) for k in ("left", "top", "right", "bottom"))
        if node.present and not node.broken and (right - left < 0.05 or bottom - top < 0.05):
            node.fail("the grid must cover some of the photo: right > left and bottom > top")
        return Frame(left, top, right, bottom) if right > left and bottom > top else Frame()

    def _square(self, node: Node, on_board: set[str]) -> str:
        name = node.text()
        if not name:
            return ""
        if not SQUARE.fullmatch(name):
            node.fail(f"{name!r} is not a square like '3,4' (column,row from the north-west corner, from 0)")
        elif name not in on_board:
            node.fail(f"{square_words(name)} is not on the board (a grid of {self.columns} x {self.rows}"
                      f"{', less the squares off the board' if on_board else ''})")
        return name

    def _squares(self, node: Node, key: str, allow_null: bool) -> list[str] | None:
        node.fields(key, "verified")
        _verified(node)
        listed = node.child(key)
        if allow_null and listed.value is None:
            return None
        every = {f"{c},{r}" for r in range(self.rows) for c in range(self.columns)}
        return [self._square(entry, every) for entry in listed.elements()]

    def _one_square(self, node: Node, on_board: set[str]) -> str:
        node.fields("square", "verified")
        _verified(node)
        return self._square(node.child("square"), on_board)

    def _edge(self, on_board: set[str]) -> tuple[str, ...]:
        node = self.root.child("edge")
        listed = self._squares(node, "squares", allow_null=True)
        if listed is None:
            return tuple(s for s in _by_position(on_board) if _on_border(s, self.columns, self.rows))
        outside = [s for s in listed if s and s not in on_board]
        if outside:
            node.child("squares").fail(f"edge squares off the board: {'; '.join(map(square_words, outside))}")
        if not listed:
            node.child("squares").fail("Count Strahd needs at least one edge square to arrive on")
        return tuple(dict.fromkeys(s for s in listed if s in on_board))

    def _places(self, node: Node, on_board: set[str]) -> dict[str, Place]:
        found: dict[str, Place] = {}
        for entry in node.elements():
            entry.fields("id", "code", "name", "square", "verified")
            _verified(entry)
            place_id = entry.child("id").ident()
            if place_id and place_id not in ROLES:
                entry.child("id").fail(f"no such place in the rules (the places: {', '.join(ROLES)})")
            elif place_id in found:
                entry.child("id").fail(f"the place {place_id!r} is listed twice")
            place = Place(place_id, entry.child("name").text(), entry.child("code").text(),
                          self._square(entry.child("square"), on_board))
            if place_id in ROLES and place_id not in found:
                found[place_id] = place
        self._check_places(node, found)
        return found

    def _check_places(self, node: Node, found: Mapping[str, Place]) -> None:
        missing = [p for p in ROLES if p not in found]
        if missing:
            node.fail(f"every keyed place must be on the map; missing: {', '.join(missing)}")
        by_square: dict[str, str] = {}
        for place in found.values():
            if place.square and place.square in by_square:
                node.fail(f"{by_square[place.square]!r} and {place.id!r} are both on {square_words(place.square)}")
            by_square.setdefault(place.square, place.id)

    def _barricades(self, node: Node, on_board: set[str]) -> tuple[Line, ...]:
        node.fields("lines", "verified")
        _verified(node)
        lines: dict[Line, None] = {}
        for entry in node.child("lines").elements():
            ends = [self._square(end, on_board) for end in entry.elements()]
            if len(ends) != 2:
                entry.fail("a barricade is the pair of squares on either side of its line")
            elif all(ends) and not _neighbours(*ends):
                entry.fail(f"{square_words(ends[0])} and {square_words(ends[1])} are not side by side: a barricade "
                           "stands on the line between two")
            elif all(ends):
                if line_of(*ends) in lines:
                    entry.fail(f"the barricade between {square_words(ends[0])} and {square_words(ends[1])} is "
                               "listed twice")
                lines[line_of(*ends)] = None
        return tuple(lines)

    def _check_reach(self, siege_map: SiegeMap, on_board: set[str]) -> None:
        """Every place must be reachable from the entrance when no barricade stands (the holes may not cut it off)."""
        if self.root.sink.problems or siege_map.entrance not in on_board:
            return
        pairs = [frozenset((w.a, w.b)) for w in siege_map.grid.ways]
        seen = reachable(siege_map.entrance, pairs)
        cut = [p.id for p in siege_map.places.values() if p.square not in seen]
        if cut:
            self.root.child("off_board").fail(f"the squares off the board cut {', '.join(cut)} off from the entrance")


def square_words(square: str) -> str:
    """``"3,4"`` as people count it: column 4, row 5 (from the north-west corner, from 1), as every
    sentence, label and doc says it; the key itself counts from 0 and is never shown."""
    column, _, row = square.partition(",")
    return f"the square in column {int(column) + 1}, row {int(row) + 1}"


def _verified(node: Node) -> None:
    flag = node.child("verified")
    if flag.present:
        flag.flag()


def _neighbours(a: str, b: str) -> bool:
    (ac, ar), (bc, br) = square_cell(a), square_cell(b)
    return abs(ac - bc) + abs(ar - br) == 1


def _on_border(square: str, columns: int, rows: int) -> bool:
    c, r = square_cell(square)
    return c in (0, columns - 1) or r in (0, rows - 1)


def _by_position(squares: set[str]) -> list[str]:
    return sorted(squares, key=lambda s: square_cell(s)[::-1])


@functools.lru_cache(maxsize=1)
def shipped_map() -> SiegeMap:
    return map_from_files(read_map_files())


__all__ = ["FILE", "Frame", "Line", "Place", "ROLES", "SAFE_HOUSES", "SiegeMap", "line_of", "map_from_files",
           "read_map_files", "shipped_map", "square_cell"]
