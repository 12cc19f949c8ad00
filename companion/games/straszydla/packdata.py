"""Straszydła's game data: the box's tiles, creatures, imps, pacts, the help card's tables
and the colour of each element's fear cubes, read from ``data/*.json`` and checked whole.

Why every field is checked up front: almost all of it is our guess (the rulebook prints
one district's name, the 3/3 creatures, two rows of the scaring table and one horror-cube
action), and an owner corrects it by hand from their own box. A slip must be named, with
where it is, before a game starts, never in the middle of one; so every problem is listed
at once (``<file>: <field path>: <why>``, companion/games/datafiles.py). The formats are
in docs/straszydla.md.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, TypeVar

from companion.games.datafiles import Node, PackError, Sink, choice, ids, unique

_T = TypeVar("_T")
DATA_DIR: Final = Path(__file__).resolve().with_name("data")
PACK_FILES: Final = ("elements.json", "tiles.json", "creatures.json", "pacts.json", "helpcard.json")
#: The four colours of fear cubes the rulebook lists (which element is which is the data's).
FEAR_COLOURS: Final = ("green", "orange", "purple", "blue")
TILE_KINDS: Final = ("centre", "suburb", "district")
TIMES: Final = ("day", "night")
PACT_SIZE: Final = 5  # "gathered and fed 5 creatures (of elements matching the symbols on your pact card)"
#: What a horror-cube action of the help card does, as the box plays it ("by-hand": the players do it).
HORROR_KINDS: Final = ("feed-free", "fear-cube", "energy", "imp", "by-hand")


@dataclass(frozen=True)
class Element:
    id: str
    name: str
    colour: str  # the colour of its fear cubes


@dataclass(frozen=True)
class Tile:
    """A district tile: its time of day (when it is replenished), the fear cubes it produces
    each round of that time ("Each district produces fear cubes (in one of four colours)":
    one element, ``cubes`` of it), and whether scaring or summoning an imp is allowed there."""

    id: str
    name: str
    kind: str  # centre | suburb | district
    time: str
    element: str
    cubes: int
    scare: bool
    summon: bool
    guess: bool = False  # not from the rulebook nor confirmed by the owner

    @property
    def produces(self) -> dict[str, int]:
        return {self.element: self.cubes}


@dataclass(frozen=True)
class Creature:
    """``stack``: the element stack it starts in; ``elements``: what it feeds on (the 3/3
    starters have all four: any one colour) and what pact symbols it stands for."""

    id: str
    name: str
    day: int
    night: int
    elements: tuple[str, ...]
    stack: str
    starter: bool

    guess: bool = False  # not from the rulebook nor confirmed by the owner

    def strength(self, time: str) -> int:
        return self.day if time == "day" else self.night

    @property
    def price(self) -> int:
        """What buying it costs: "the sum of its day and night strength"."""
        return self.day + self.night


@dataclass(frozen=True)
class Imp:
    id: str
    name: str
    element: str
    text: str


@dataclass(frozen=True)
class Pact:
    id: str
    name: str
    elements: tuple[str, ...]


@dataclass(frozen=True)
class ScareRow:
    """A row of the help card's scaring table: a dice total ``from``..``to`` points from the
    creatures' strength (negative: under it) gives ``cubes`` fear cubes."""

    id: str
    low: int
    high: int
    cubes: int
    guess: bool = False  # not from the rulebook nor confirmed by the owner

    def holds(self, difference: int) -> bool:
        return self.low <= difference <= self.high


@dataclass(frozen=True)
class HorrorAction:
    id: str
    name: str
    cost: int
    kind: str
    amount: int
    guess: bool = False  # not from the rulebook nor confirmed by the owner


@dataclass(frozen=True)
class Pack:
    elements: tuple[Element, ...]
    columns: int
    rows: int
    tiles: tuple[Tile, ...]
    creatures: tuple[Creature, ...]
    imps: tuple[Imp, ...]
    pacts: tuple[Pact, ...]
    scaring: tuple[ScareRow, ...]
    horror: tuple[HorrorAction, ...]

    def element(self, element_id: str) -> Element:
        return _find(self.elements, element_id, "element")

    def tile(self, tile_id: str) -> Tile:
        return _find(self.tiles, tile_id, "tile")

    def creature(self, creature_id: str) -> Creature:
        return _find(self.creatures, creature_id, "creature")

    def imp(self, imp_id: str) -> Imp:
        return _find(self.imps, imp_id, "imp")

    def pact(self, pact_id: str) -> Pact:
        return _find(self.pacts, pact_id, "pact card")

    def horror_action(self, action_id: str) -> HorrorAction:
        return _find(self.horror, action_id, "horror-cube action")

    def colour(self, element_id: str) -> str:
        return self.element(element_id).colour

    def scare_cubes(self, difference: int) -> int:
        """Fear cubes for a scaring total this far from the strength (0 off the table)."""
        row = self.scare_row(difference)
        return row.cubes if row else 0

    def scare_row(self, difference: int) -> ScareRow | None:
        """The help card's row for a scaring total this far from the strength (None: off the table)."""
        return next((row for row in self.scaring if row.holds(difference)), None)

    @property
    def starters(self) -> tuple[Creature, ...]:
        return tuple(c for c in self.creatures if c.starter)


def _find(records: tuple[_T, ...], record_id: str, noun: str) -> _T:
    for record in records:
        if getattr(record, "id") == record_id:
            return record
    raise KeyError(f"no {noun} {record_id!r} in the game data")


# -- reading ---------------------------------------------------------------------------------------------

def read_pack_files(folder: Path = DATA_DIR) -> dict[str, object]:
    """The data files as JSON (a missing or broken file is a PackError naming it)."""
    files: dict[str, object] = {}
    problems = []
    for name in PACK_FILES:
        try:
            files[name] = json.loads((folder / name).read_text(encoding="utf-8"))
        except (OSError, ValueError) as problem:
            problems.append(f"{name}: cannot be read ({problem})")
    if problems:
        raise PackError(problems)
    return files


def load_pack(folder: Path = DATA_DIR) -> Pack:
    return pack_from_files(read_pack_files(folder))


def pack_from_files(files: Mapping[str, object]) -> Pack:
    """The checked pack, or a PackError listing every problem of every file."""
    problems: list[str] = []
    root = {name: Node(Sink(name, problems), "", files.get(name)) for name in PACK_FILES}
    elements = _elements(root["elements.json"])
    known = {e.id for e in elements}
    columns, rows, tiles = _tiles(root["tiles.json"], known)
    creatures, imps = _creatures(root["creatures.json"], known)
    pacts = _pacts(root["pacts.json"], known)
    scaring, horror = _helpcard(root["helpcard.json"])
    if problems:
        raise PackError(problems)
    return Pack(elements, columns, rows, tiles, creatures, imps, pacts, scaring, horror)


def _records(node: Node, key: str, *fields: str) -> list[Node]:
    found = node.child(key).elements()
    for record in found:
        record.fields("id", *fields, "verified")
        verified = record.child("verified")
        if verified.present:
            verified.flag()
    unique(ids(found), [r.child("id").ident() for r in found], f"{key[:-1]} id")
    return found


def _elements(node: Node) -> tuple[Element, ...]:
    node.fields("elements")
    found = _records(node, "elements", "name", "colour")
    elements = tuple(Element(r.child("id").ident(), r.child("name").text(),
                             choice(r.child("colour"), {c: c for c in FEAR_COLOURS}, "fear-cube colour") or "")
                     for r in found)
    unique([r.child("colour") for r in found], [e.colour for e in elements], "colour")
    if len(elements) < 1:
        node.child("elements").fail("the game needs its elements")
    return elements


def _element(node: Node, known: set[str]) -> str:
    value = node.ident()
    if value and value not in known:
        node.fail(f"no element {value!r} (the elements: {', '.join(sorted(known))})")
    return value


def _tiles(node: Node, known: set[str]) -> tuple[int, int, tuple[Tile, ...]]:
    node.fields("size", "tiles")
    size = node.child("size")
    size.fields("columns", "rows", "verified")
    columns, rows = size.child("columns").integer(3, 12), size.child("rows").integer(3, 12)
    tiles = tuple(_tile(r, known) for r in _records(node, "tiles", "name", "kind", "time", "produces", "scare",
                                                     "summon"))
    kinds = Counter(t.kind for t in tiles)
    if kinds["centre"] != 1:
        node.child("tiles").fail(f"the box has one Centre tile, found {kinds['centre']}")
    if kinds["suburb"] < 2:
        node.child("tiles").fail(f"at least two Suburb tiles are needed (found {kinds['suburb']}): a move jumps "
                                 "from one suburb to another")
    if len(tiles) < columns * rows:
        node.child("tiles").fail(f"a board of {columns} x {rows} needs {columns * rows} tiles, found {len(tiles)}")
    return columns, rows, tiles


def _tile(record: Node, known: set[str]) -> Tile:
    produces = record.child("produces")
    cubes: list[tuple[str, int]] = []
    if isinstance(produces.value, dict) and produces.value:
        cubes = [(_key_element(produces.child(k), k, known), produces.child(k).integer(1, 9)) for k in produces.value]
    else:
        produces.expected("an object of element: cubes, e.g. {\"water\": 2}")
    if len(cubes) > 1:
        produces.fail(f"a district produces fear cubes of one colour (the rulebook: \"Each district produces fear "
                      f"cubes (in one of four colours)\"), not of {len(cubes)}")
    element, n = cubes[0] if cubes else ("", 1)
    return Tile(record.child("id").ident(), record.child("name").text(),
                choice(record.child("kind"), {k: k for k in TILE_KINDS}, "tile kind") or "district",
                choice(record.child("time"), {t: t for t in TIMES}, "time of day") or "day",
                element, n, record.child("scare").flag(), record.child("summon").flag(), _guess(record))


def _guess(record: Node) -> bool:
    """A record is our guess unless marked ``verified`` (stated by the rulebook, or confirmed by the owner:
    the overlay marks what they confirm)."""
    return record.value.get("verified") is not True if isinstance(record.value, dict) else True


def _key_element(node: Node, key: str, known: set[str]) -> str:
    if key not in known:
        node.fail(f"no element {key!r} (the elements: {', '.join(sorted(known))})")
    return key


def _creatures(node: Node, known: set[str]) -> tuple[tuple[Creature, ...], tuple[Imp, ...]]:
    node.fields("creatures", "imps")
    creatures = tuple(_creature(r, known) for r in _records(node, "creatures", "name", "day", "night", "elements",
                                                             "stack", "starter"))
    imps = tuple(Imp(r.child("id").ident(), r.child("name").text(), _element(r.child("element"), known),
                     r.child("text").text()) for r in _records(node, "imps", "name", "element", "text"))
    starters = [c for c in creatures if c.starter]
    stacks = Counter(c.stack for c in starters)
    for element in sorted(known):
        if stacks[element] > 1:
            node.child("creatures").fail(f"two 3/3 creatures start on the {element} stack: one tops each stack")
    if len(starters) < 2:
        node.child("creatures").fail("at least two starting (3/3) creatures are needed, one per player")
    return creatures, imps


def _creature(record: Node, known: set[str]) -> Creature:
    elements = record.child("elements")
    found = tuple(_element(e, known) for e in elements.elements())
    if not found and isinstance(elements.value, list):
        elements.fail("a creature has at least one element")
    unique(elements.elements(), found, "element")
    return Creature(record.child("id").ident(), record.child("name").text(), record.child("day").integer(0, 20),
                    record.child("night").integer(0, 20), found, _element(record.child("stack"), known),
                    record.child("starter").flag(), _guess(record))


def _pacts(node: Node, known: set[str]) -> tuple[Pact, ...]:
    node.fields("pacts")
    pacts = []
    for record in _records(node, "pacts", "name", "elements"):
        symbols = tuple(_element(e, known) for e in record.child("elements").elements())
        if len(symbols) != PACT_SIZE:
            record.child("elements").fail(f"a pact card shows {PACT_SIZE} element symbols, found {len(symbols)}")
        pacts.append(Pact(record.child("id").ident(), record.child("name").text(), symbols))
    if len(pacts) < 2:
        node.child("pacts").fail("at least two pact cards are needed, one per player")
    return tuple(pacts)


def _helpcard(node: Node) -> tuple[tuple[ScareRow, ...], tuple[HorrorAction, ...]]:
    node.fields("scaring", "horror")
    rows = tuple(ScareRow(r.child("id").ident(), r.child("from").integer(-60, 60), r.child("to").integer(-60, 60),
                          r.child("cubes").integer(0, 20), _guess(r))
                 for r in _records(node, "scaring", "from", "to", "cubes"))
    _check_rows(node.child("scaring"), rows)
    horror = tuple(HorrorAction(r.child("id").ident(), r.child("name").text(), r.child("cost").integer(1, 20),
                                choice(r.child("kind"), {k: k for k in HORROR_KINDS}, "horror-cube action") or
                                "by-hand", r.child("amount").integer(0, 20), _guess(r))
                   for r in _records(node, "horror", "name", "cost", "kind", "amount"))
    return rows, horror


def _check_rows(node: Node, rows: tuple[ScareRow, ...]) -> None:
    """Rows run from low to high and never overlap: a total gives one result."""
    for row in rows:
        if row.low > row.high:
            node.fail(f"row {row.id!r} runs from {row.low} to {row.high}: 'from' must not be above 'to'")
    for n, row in enumerate(rows):
        for other in rows[n + 1:]:
            if row.low <= other.high and other.low <= row.high:
                node.fail(f"rows {row.id!r} and {other.id!r} overlap: a difference must have one result")


__all__ = ["DATA_DIR", "FEAR_COLOURS", "HORROR_KINDS", "PACK_FILES", "Creature", "Element", "HorrorAction", "Imp",
           "Pack", "PackError", "Pact", "ScareRow", "Tile", "load_pack", "pack_from_files", "read_pack_files"]
