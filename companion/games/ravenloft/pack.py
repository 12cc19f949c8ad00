"""Load the Ravenloft game pack from ``data/*.json`` and check it thoroughly.

Why so strict: most of the pack is our guess and an owner will correct it by
hand from the real box. A typo must never surface in the middle of a game, so
every file is checked up front and *every* problem is reported at once, each
as ``<file>: <field path>: <why>``, so that one run of the loader is enough to
fix them all. The formats and the primitive library are described in
docs/game-data.md.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Final, Literal, TypeVar

from .pack_types import (
    FRENZY,
    ITEM_TYPES,
    SYMBOL_COLOURS,
    AttackLine,
    Area,
    BabaLysagaDetails,
    BoardData,
    CarrionetteDetails,
    Connection,
    D20Entry,
    DarkGift,
    DieFace,
    Effect,
    GulthiasTreeDetails,
    Hero,
    HutSpace,
    HutToken,
    Item,
    ItemType,
    Location,
    Monster,
    MonsterCard,
    MonsterDetails,
    Pack,
    Perk,
    Relic,
    RootGroup,
    SparePart,
    StrahdDetails,
    TarokkaCard,
    Villager,
)

__all__ = [
    "DATA_DIR",
    "EVENT_KINDS",
    "GIFT_KINDS",
    "PERK_KINDS",
    "SPECIAL_KINDS",
    "PACK_FILES",
    "PackError",
    "load_pack",
    "pack_from_files",
    "read_pack_files",
]

_T = TypeVar("_T")
HutKind = Literal["scarecrow", "raven", "witch"]

#: Where the shipped pack lives: the ``data`` folder beside this module.
DATA_DIR: Final = Path(__file__).resolve().with_name("data")
PACK_NAME: Final = "Horrified: Dungeons & Dragons – Ravenloft"

# --- The primitive library: kind -> names of its required params -----------

#: Monster card events. Any event may also carry an optional ``symbol``.
EVENT_KINDS: Final[dict[str, frozenset[str]]] = {
    "none": frozenset(),
    "place_villager": frozenset({"villager", "location"}),
    "move_monsters": frozenset({"symbol", "steps"}),
    "move_monsters_to": frozenset({"symbol", "location", "steps"}),
    "pull_adjacent": frozenset({"symbol"}),
    "frenzy_next": frozenset(),
    "place_monster": frozenset({"symbol", "location"}),
    "sequence": frozenset({"steps"}),
    "manual": frozenset(),
}

#: Rows of a hero tile's special-action table.
SPECIAL_KINDS: Final[dict[str, frozenset[str]]] = {
    "nothing": frozenset(),
    "place_item": frozenset({"count"}),
    "move_monster": frozenset({"steps"}),
    "hero_draws": frozenset({"items", "perk"}),
    "distanced_advance": frozenset(),
    "roll_bonus": frozenset({"amount"}),
    "slow_monsters": frozenset({"amount"}),
    "ward": frozenset({"hits"}),
    "place_hero": frozenset({"steps"}),
    "gain_perk": frozenset(),
}

#: Lasting effects of an accepted Dark Gift.
GIFT_KINDS: Final[dict[str, frozenset[str]]] = {
    "ignore_first_hit": frozenset(),
    "villager_death_terror": frozenset({"amount"}),
    "extra_actions": frozenset({"amount"}),
    "roll_bonus_always": frozenset({"amount"}),
    "defeat_terror": frozenset({"amount"}),
    "defence_items_lost": frozenset(),
    "special_one_terror": frozenset({"amount"}),
    "manual": frozenset(),
}

#: Perk cards.
PERK_KINDS: Final[dict[str, frozenset[str]]] = {
    "extra_actions": frozenset({"amount"}),
    "place_hero": frozenset({"anywhere"}),
    "move_villager": frozenset({"steps"}),
    "draw_items": frozenset({"count"}),
    "roll_bonus": frozenset({"amount"}),
    "adjust_roll": frozenset({"amount"}),
    "move_monster": frozenset({"steps"}),
    "terror": frozenset({"amount"}),
    "spare_hero": frozenset(),
    "manual": frozenset(),
}

#: Params a Perk may add to say how its card reads (docs/game-data.md); left out, the card
#: reads as the shipped ones do.
PERK_OPTIONAL: Final[dict[str, frozenset[str]]] = {
    "adjust_roll": frozenset({"either_way"}),
    "roll_bonus": frozenset({"lasting"}),
    "draw_items": frozenset({"hand"}),
}

_EVENT_OPTIONAL: Final = frozenset({"symbol"})

# --- Counts printed in the rulebook's component list ------------------------

_D20: Final = range(1, 21)
_ITEMS: Final = 60  # RL-IT-1
_CARDS: Final = 30  # RL-SU-2
_PERKS: Final = 20
_VILLAGERS: Final = 10
_HEROES: Final = 5
_ROOTS: Final = 9  # RL-SU-7
_TAROKKA: Final = 6  # RL-SU-9
_HUT_TOKENS: Final = 5  # RL-SU-8
_RELICS: Final = 3

_KEBAB: Final = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_AREAS: Final[dict[str, Area]] = {"board": "board", "castle-mat": "castle-mat"}
_AREA_NAMES: Final[dict[str, str]] = {"board": "the main board", "castle-mat": "Strahd's castle mat"}
_ITEM_TYPES: Final[dict[str, ItemType]] = {kind: kind for kind in ITEM_TYPES}
_DIE_FACES: Final[dict[str, DieFace]] = {"hit": "hit", "pow": "pow", "blank": "blank"}
_HUT_KINDS: Final[dict[str, HutKind]] = {"scarecrow": "scarecrow", "raven": "raven", "witch": "witch"}
_ALWAYS_ALLOWED: Final = frozenset({"note", "verified_fields"})


class PackError(ValueError):
    """The pack's data (not the code) is wrong. It is a ValueError so callers
    can treat it like any bad input; the message lists every problem, one a
    line, so an owner can fix them all in one pass."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems: tuple[str, ...] = tuple(dict.fromkeys(problems))
        count = len(self.problems)
        lines = "\n".join(f"  {problem}" for problem in self.problems)
        super().__init__(f"the game pack has {count} problem{'' if count == 1 else 's'}:\n{lines}")


# --- Walking JSON with a path, so each complaint can say where --------------

_MISSING: Final = object()


@dataclass(frozen=True)
class _Sink:
    """Where one file's complaints go; names the file in each of them."""

    file: str
    problems: list[str]

    def report(self, path: str, why: str) -> None:
        self.problems.append(f"{self.file}: {path or '(top level)'}: {why}")


@dataclass(frozen=True)
class _Node:
    """A JSON value with its field path. ``broken`` marks a value below one
    that was already reported, so one mistake yields one complaint."""

    sink: _Sink
    path: str
    value: object
    broken: bool = False

    @property
    def present(self) -> bool:
        return self.value is not _MISSING

    def fail(self, why: str) -> None:
        if not self.broken:
            self.sink.report(self.path, why)

    def expected(self, what: str) -> None:
        self.fail("missing" if not self.present else f"expected {what}, got {_describe(self.value)}")

    def child(self, key: str) -> _Node:
        path = f"{self.path}.{key}" if self.path else key
        if isinstance(self.value, dict):
            return _Node(self.sink, path, self.value.get(key, _MISSING))
        self.expected("an object")
        return _Node(self.sink, path, _MISSING, broken=True)

    def elements(self) -> list[_Node]:
        if isinstance(self.value, list):
            return [_Node(self.sink, f"{self.path}[{i}]", value) for i, value in enumerate(self.value)]
        self.expected("a list")
        return []

    def text(self) -> str:
        if isinstance(self.value, str) and self.value.strip():
            return self.value
        self.expected("non-empty text")
        return ""

    def ident(self) -> str:
        value = self.text()
        if value and not _KEBAB.fullmatch(value):
            self.fail(f"{value!r} is not kebab-case (lower-case words joined by '-')")
        return value

    def integer(self, low: int, high: int) -> int:
        value = self.value
        if not isinstance(value, int) or isinstance(value, bool):
            self.expected("a whole number")
            return low
        if not low <= value <= high:
            self.fail(f"{value} is outside {low}..{high}")
        return value

    def number(self, low: float, high: float) -> float:
        value = self.value
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            self.expected("a number")
            return low
        if not low <= value <= high:
            self.fail(f"{value} is outside {low}..{high}")
        return float(value)

    def flag(self) -> bool:
        if isinstance(self.value, bool):
            return self.value
        self.expected("true or false")
        return False

    def fields(self, *names: str) -> None:
        """Refuse unknown fields: a misspelt key would otherwise be silently ignored."""
        if not isinstance(self.value, dict):
            self.expected("an object")
            return
        for key in self.value:
            if key not in names and key not in _ALWAYS_ALLOWED:
                self.child(str(key)).fail(f"unknown field (expected: {', '.join(names)})")
        self._check_annotations()

    def _check_annotations(self) -> None:
        note = self.child("note")
        if note.present:
            note.text()
        listed = self.child("verified_fields")
        if listed.present:
            for entry in listed.elements():
                entry.text()


def _describe(value: object) -> str:
    if value is None:
        return "null"
    names = {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)


# --- What earlier files taught us, for cross-references ----------------------


@dataclass
class _Known:
    """Names defined so far. ``None`` means that file failed to load, so
    references into it are not checked (one broken file, one complaint)."""

    areas: dict[str, Area] | None = None
    villagers: frozenset[str] | None = None
    monsters: frozenset[str] | None = None


def _reference(node: _Node, table: Collection[str] | None, noun: str) -> str:
    value = node.text()
    if value and table is not None and value not in table:
        node.fail(f"no {noun} called {value!r}")
    return value


def _location(node: _Node, known: _Known, area: Area | None = None) -> str:
    """A location id; with ``area``, it must also lie in that area."""
    value = _reference(node, known.areas, "location")
    found = known.areas.get(value) if known.areas is not None else None
    if found is not None and area is not None and found != area:
        node.fail(f"{value!r} is on {_AREA_NAMES[found]}, it must be on {_AREA_NAMES[area]}")
    return value


def _choice(node: _Node, options: Mapping[str, _T], noun: str) -> _T | None:
    value = node.text()
    if value and value not in options:
        node.fail(f"unknown {noun} {value!r} (expected one of: {', '.join(options)})")
    return options.get(value)


def _item_type(node: _Node) -> ItemType:
    return _choice(node, _ITEM_TYPES, "item type") or "weapon"


def _colour(node: _Node) -> str:
    value = node.text()
    if value and value not in SYMBOL_COLOURS:
        node.fail(f"no colour symbol called {value!r} (expected one of: {', '.join(SYMBOL_COLOURS)})")
    return value


def _unique(nodes: Iterable[_Node], values: Iterable[str], noun: str) -> None:
    first: dict[str, str] = {}
    for node, value in zip(nodes, values):
        if value in first:
            node.fail(f"{noun} {value!r} is used twice (first at {first[value]})")
        elif value:
            first[value] = node.path


def _ids(nodes: list[_Node]) -> list[_Node]:
    return [node.child("id") for node in nodes]


def _count(node: _Node, found: int, wanted: int, noun: str, rule: str) -> None:
    if found != wanted:
        node.fail(f"expected {wanted} {noun}, found {found} ({rule})")


def _ranges(numbers: Iterable[int]) -> str:
    """1,2,3,7 -> '1–3, 7': short enough to read in an error line."""
    spans: list[list[int]] = []
    for number in sorted(numbers):
        if spans and spans[-1][1] == number - 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in spans)


# --- Effects: the primitive library ------------------------------------------

_ParamCheck = Callable[[_Node, _Known], object]


def _positive(node: _Node, known: _Known) -> object:
    return node.integer(1, 20)


def _amount(node: _Node, known: _Known) -> object:
    value = node.integer(-20, 20)
    if value == 0:
        node.fail("must not be 0")
    return value


def _flag(node: _Node, known: _Known) -> object:
    return node.flag()


def _villager_param(node: _Node, known: _Known) -> object:
    return _reference(node, known.villagers, "villager")


def _monster_param(node: _Node, known: _Known) -> object:
    return _reference(node, known.monsters, "monster")


def _location_param(node: _Node, known: _Known) -> object:
    """Effects only name main-board places: the castle mat is out only with Strahd."""
    return _location(node, known, "board")


def _symbol_param(node: _Node, known: _Known) -> object:
    return _colour(node)


def _sequence_steps(node: _Node, known: _Known) -> object:
    steps = tuple(_effect(step, EVENT_KINDS, known, _EVENT_OPTIONAL, needs_text=False) for step in node.elements())
    if not steps and isinstance(node.value, list):
        node.fail("a sequence needs at least one step")
    return steps


_PARAM_CHECKS: Final[dict[str, _ParamCheck]] = {
    "villager": _villager_param,
    "location": _location_param,
    "symbol": _symbol_param,
    "monster": _monster_param,
    "steps": _positive,
    "count": _positive,
    "items": _positive,
    "hits": _positive,
    "amount": _amount,
    "perk": _flag,
    "anywhere": _flag,
    "either_way": _flag,
    "lasting": _flag,
    "hand": _flag,
}

#: Where one param name means something else for one kind.
_KIND_PARAM_CHECKS: Final[dict[tuple[str, str], _ParamCheck]] = {("sequence", "steps"): _sequence_steps}


def _param(node: _Node, kind: str, name: str, known: _Known, required: bool) -> object:
    if node.value is None and not required:
        return None  # an optional param left empty, e.g. the colour of a gray event
    check = _KIND_PARAM_CHECKS.get((kind, name), _PARAM_CHECKS.get(name))
    if check is None:
        node.fail(f"no check is known for param {name!r}")
        return None
    return check(node, known)


def _params(node: _Node, kind: str, required: frozenset[str], optional: frozenset[str], known: _Known) -> dict[str, object]:
    values: dict[str, object] = {}
    given = node.value if isinstance(node.value, dict) else {}
    if node.present and not isinstance(node.value, dict):
        node.expected("an object")
    for name in sorted(required | (optional & given.keys())):
        values[name] = _param(node.child(name), kind, name, known, name in required)
    for name in sorted(given.keys() - required - optional):
        wanted = ", ".join(sorted(required | optional)) or "none"
        node.child(str(name)).fail(f"unknown param for kind {kind!r} (it takes: {wanted})")
    return values


def _effect(node: _Node, kinds: Mapping[str, frozenset[str]], known: _Known,
            optional: frozenset[str] = frozenset(), needs_text: bool = True,
            optional_by_kind: Mapping[str, frozenset[str]] | None = None) -> Effect:
    """One Effect; ``kinds`` is the part of the library allowed here."""
    node.fields("kind", "params", "text")
    kind = _choice(node.child("kind"), {k: k for k in kinds}, "kind")
    text_node = node.child("text")
    text = text_node.text() if needs_text or text_node.present else ""
    if kind is None:
        return Effect(kind="", text=text)
    allowed = optional | (optional_by_kind or {}).get(kind, frozenset())
    params = _params(node.child("params"), kind, kinds[kind], allowed, known)
    return Effect(kind=kind, params=MappingProxyType(params), text=text)


# --- board.json -------------------------------------------------------------


def _location_record(node: _Node) -> Location:
    node.fields("id", "name", "number", "x", "y", "area", "verified")
    number = node.child("number")
    return Location(
        id=node.child("id").ident(),
        name=node.child("name").text(),
        number=None if number.value is None else number.integer(1, 20),
        x=node.child("x").number(0.0, 1.0),
        y=node.child("y").number(0.0, 1.0),
        area=_choice(node.child("area"), _AREAS, "area") or "board",
        verified=node.child("verified").flag(),
    )


def _check_numbers(listing: _Node, nodes: list[_Node], locations: tuple[Location, ...]) -> None:
    """Each of 1..20 exactly once: d20 rolls place the Twig Blights (RL-SU-7)."""
    owner: dict[int, str] = {}
    for node, location in zip(nodes, locations):
        if location.number is None:
            continue
        if location.area != "board":
            node.child("number").fail("castle-mat locations carry no d20 number")
        elif location.number in owner:
            node.child("number").fail(f"number {location.number} is also used by {owner[location.number]!r}")
        else:
            owner[location.number] = location.id
    gaps = [number for number in _D20 if number not in owner]
    if gaps:
        listing.fail(f"no location has number {_ranges(gaps)}; each of 1–20 needs exactly one (RL-SU-7)")


def _connection(node: _Node, known: _Known) -> Connection:
    node.fields("between", "verified")
    between = node.child("between")
    ends = [_location(end, known) for end in between.elements()]
    if isinstance(between.value, list) and len(ends) != 2:
        between.fail(f"must name exactly two locations, found {len(ends)}")
    ends = (ends + ["", ""])[:2]
    if ends[0] and ends[0] == ends[1]:
        between.fail(f"joins {ends[0]!r} to itself")
    return Connection(a=ends[0], b=ends[1], verified=node.child("verified").flag())


def _castle_link(node: _Node, known: _Known) -> tuple[str, str]:
    ends = node.elements()
    if isinstance(node.value, list) and len(ends) != 2:
        node.fail(f"must name two locations (Grand Stairway, then Stairs), found {len(ends)}")
        return ("", "")
    if len(ends) != 2:
        return ("", "")
    return (_location(ends[0], known, "board"), _location(ends[1], known, "castle-mat"))


def _terror_max(node: _Node) -> tuple[int, bool]:
    node.fields("value", "verified")
    return node.child("value").integer(1, 30), node.child("verified").flag()


def _board(root: _Node, known: _Known) -> BoardData:
    root.fields("terror_max", "gates", "madam_evas_tent", "castle_link", "locations", "connections")
    listing = root.child("locations")
    nodes = listing.elements()
    locations = tuple(_location_record(node) for node in nodes)
    if isinstance(listing.value, list):  # else leave references unchecked: one complaint is enough
        known.areas = {location.id: location.area for location in locations if location.id}
    _unique(_ids(nodes), (location.id for location in locations), "location id")
    _check_numbers(listing, nodes, locations)
    connection_nodes = root.child("connections").elements()
    terror_max, terror_verified = _terror_max(root.child("terror_max"))
    board = BoardData(
        locations=locations,
        connections=tuple(_connection(node, known) for node in connection_nodes),
        terror_max=terror_max,
        terror_max_verified=terror_verified,
        gates=_location(root.child("gates"), known, "board"),
        madam_evas_tent=_location(root.child("madam_evas_tent"), known, "board"),
        castle_link=_castle_link(root.child("castle_link"), known),
    )
    _check_graph(root, nodes, connection_nodes, board)
    return board


# --- board.json: the shape of the map ----------------------------------------


def _pair(connection: Connection) -> frozenset[str]:
    return frozenset((connection.a, connection.b))


def _reachable(start: str, edges: Iterable[frozenset[str]]) -> set[str]:
    neighbours: dict[str, set[str]] = {}
    for edge in edges:
        for end in edge:
            neighbours.setdefault(end, set()).update(edge - {end})
    seen, todo = {start}, [start]
    while todo:
        for nxt in neighbours.get(todo.pop(), set()) - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def _check_graph(root: _Node, nodes: list[_Node], connection_nodes: list[_Node], board: BoardData) -> None:
    """The map must be one piece, and Strahd's mat may hang on it only by the
    castle link (RL-ST-6, RL-SU-9): without Strahd the mat is not on the table."""
    areas = {location.id: location.area for location in board.locations}
    valid = [c for c in board.connections if c.a in areas and c.b in areas and c.a != c.b]
    _check_duplicate_connections(connection_nodes, board.connections)
    _check_mat_edges(connection_nodes, board, areas)
    _check_link_listed(root.child("castle_link"), board, valid)
    _check_connected(nodes, board, areas, valid)


def _check_duplicate_connections(nodes: list[_Node], connections: tuple[Connection, ...]) -> None:
    pairs = ["–".join(sorted(_pair(c))) if c.a and c.b else "" for c in connections]
    _unique([node.child("between") for node in nodes], pairs, "connection")


def _check_mat_edges(nodes: list[_Node], board: BoardData, areas: Mapping[str, Area]) -> None:
    link = frozenset(board.castle_link)
    for node, connection in zip(nodes, board.connections):
        ends = {areas.get(connection.a), areas.get(connection.b)}
        if ends == {"board", "castle-mat"} and _pair(connection) != link:
            node.child("between").fail("joins the castle mat to the main board; only castle_link may (RL-ST-6)")


def _check_link_listed(node: _Node, board: BoardData, valid: list[Connection]) -> None:
    link = frozenset(board.castle_link)
    if "" not in link and link not in {_pair(c) for c in valid}:
        node.fail(f"{board.castle_link[0]!r}–{board.castle_link[1]!r} is not among the connections")


def _check_connected(nodes: list[_Node], board: BoardData, areas: Mapping[str, Area], valid: list[Connection]) -> None:
    """Every main-board place reachable over the main board alone, every mat place via the link."""
    on_board = [_pair(c) for c in valid if areas[c.a] == areas[c.b] == "board"]
    start = board.gates if areas.get(board.gates) == "board" else next(iter(areas), "")
    from_board = _reachable(start, on_board)
    from_all = _reachable(start, (_pair(c) for c in valid))
    for node, location in zip(nodes, board.locations):
        if location.area == "board" and location.id and location.id not in from_board:
            node.child("id").fail(f"{location.id!r} cannot be reached from {start!r} over the main board")
        elif location.area == "castle-mat" and location.id and location.id not in from_all:
            node.child("id").fail(f"{location.id!r} cannot be reached from the main board through castle_link")


# --- villagers.json, items.json ----------------------------------------------


def _villager(node: _Node, known: _Known) -> Villager:
    node.fields("id", "name", "safe_location", "verified")
    return Villager(
        id=node.child("id").ident(),
        name=node.child("name").text(),
        safe_location=_location(node.child("safe_location"), known, "board"),
        verified=node.child("verified").flag(),
    )


def _villagers(root: _Node, known: _Known) -> tuple[Villager, ...]:
    root.fields("villagers")
    listing = root.child("villagers")
    nodes = listing.elements()
    villagers = tuple(_villager(node, known) for node in nodes)
    _unique(_ids(nodes), (v.id for v in villagers), "villager id")
    _count(listing, len(villagers), _VILLAGERS, "villagers", "the box holds ten standees")
    if isinstance(listing.value, list):
        known.villagers = frozenset(v.id for v in villagers)
    return villagers


def _item(node: _Node, known: _Known) -> Item:
    """Items are drawn onto the main board only, so their places must be there (RL-MP-2)."""
    node.fields("id", "name", "type", "strength", "location", "verified")
    return Item(
        id=node.child("id").ident(),
        name=node.child("name").text(),
        type=_item_type(node.child("type")),
        strength=node.child("strength").integer(1, 6),
        location=_location(node.child("location"), known, "board"),
        verified=node.child("verified").flag(),
    )


def _items(root: _Node, known: _Known) -> tuple[Item, ...]:
    root.fields("items")
    listing = root.child("items")
    nodes = listing.elements()
    items = tuple(_item(node, known) for node in nodes)
    _unique(_ids(nodes), (item.id for item in items), "item id")
    _count(listing, len(items), _ITEMS, "items", "RL-IT-1: sixty tokens in the Haversack")
    return items


# --- heroes.json --------------------------------------------------------------


def _d20_entry(node: _Node, known: _Known) -> D20Entry:
    node.fields("low", "high", "effect")
    low, high = node.child("low").integer(1, 20), node.child("high").integer(1, 20)
    if low > high:
        node.child("high").fail(f"high ({high}) is below low ({low})")
    return D20Entry(low=low, high=high, effect=_effect(node.child("effect"), SPECIAL_KINDS, known))


def _check_coverage(table: _Node, nodes: list[_Node], entries: tuple[D20Entry, ...]) -> None:
    """Every d20 result 1..20 maps to one row; a 1 never helps (RL-D20-3)."""
    hits = Counter(result for entry in entries for result in range(entry.low, entry.high + 1))
    gaps = [result for result in _D20 if hits[result] == 0]
    doubles = [result for result in _D20 if hits[result] > 1]
    if gaps:
        table.fail(f"d20 results {_ranges(gaps)} are not covered")
    if doubles:
        table.fail(f"d20 results {_ranges(doubles)} are covered by more than one row")
    for node, entry in zip(nodes, entries):
        if entry.low == 1 and entry.effect.kind not in ("", "nothing"):
            node.child("effect").child("kind").fail("a roll of 1 must do nothing (RL-D20-3)")


def _table(node: _Node, known: _Known) -> tuple[D20Entry, ...]:
    nodes = node.elements()
    entries = tuple(_d20_entry(entry, known) for entry in nodes)
    _check_coverage(node, nodes, entries)
    return entries


def _gift(node: _Node, known: _Known) -> DarkGift:
    node.fields("name", "text", "effects")
    listing = node.child("effects")
    effects = tuple(_effect(effect, GIFT_KINDS, known) for effect in listing.elements())
    if not effects and isinstance(listing.value, list):
        listing.fail("a Dark Gift needs at least one effect")
    return DarkGift(name=node.child("name").text(), text=node.child("text").text(), effects=effects)


def _hero(node: _Node, known: _Known) -> Hero:
    node.fields("id", "name", "actions", "start", "verified", "special", "gift", "special_after_gift")
    return Hero(
        id=node.child("id").ident(),
        name=node.child("name").text(),
        actions=node.child("actions").integer(1, 10),
        start=_location(node.child("start"), known, "board"),
        special=_table(node.child("special"), known),
        gift=_gift(node.child("gift"), known),
        special_after_gift=_table(node.child("special_after_gift"), known),
        verified=node.child("verified").flag(),
    )


def _heroes(root: _Node, known: _Known) -> tuple[Hero, ...]:
    root.fields("heroes")
    listing = root.child("heroes")
    nodes = listing.elements()
    heroes = tuple(_hero(node, known) for node in nodes)
    _unique(_ids(nodes), (hero.id for hero in heroes), "hero id")
    _count(listing, len(heroes), _HEROES, "heroes", "the box holds five hero tiles")
    return heroes


# --- perks.json, cards.json -------------------------------------------------


def _perk(node: _Node, known: _Known) -> Perk:
    node.fields("id", "name", "effect", "verified")
    return Perk(
        id=node.child("id").ident(),
        name=node.child("name").text(),
        effect=_effect(node.child("effect"), PERK_KINDS, known, optional_by_kind=PERK_OPTIONAL),
        verified=node.child("verified").flag(),
    )


def _perks(root: _Node, known: _Known) -> tuple[Perk, ...]:
    root.fields("perks")
    listing = root.child("perks")
    nodes = listing.elements()
    perks = tuple(_perk(node, known) for node in nodes)
    _unique(_ids(nodes), (perk.id for perk in perks), "perk id")
    _count(listing, len(perks), _PERKS, "perks", "the box holds twenty Perk cards")
    return perks


def _attack_symbol(node: _Node) -> str:
    return FRENZY if node.value == FRENZY else _colour(node)


def _attack(node: _Node) -> AttackLine:
    node.fields("symbols", "move", "dice")
    listing = node.child("symbols")
    symbols = tuple(_attack_symbol(symbol) for symbol in listing.elements())
    if isinstance(listing.value, list) and not 1 <= len(symbols) <= 3:
        listing.fail(f"an attack line shows 1 to 3 symbols, found {len(symbols)}")
    return AttackLine(symbols=symbols, move=node.child("move").integer(1, 3), dice=node.child("dice").integer(1, 3))


def _card(node: _Node, known: _Known) -> MonsterCard:
    node.fields("id", "name", "items", "event", "attack", "verified")
    return MonsterCard(
        id=node.child("id").ident(),
        name=node.child("name").text(),
        items=node.child("items").integer(0, 3),
        event=_effect(node.child("event"), EVENT_KINDS, known, _EVENT_OPTIONAL),
        attack=_attack(node.child("attack")),
        verified=node.child("verified").flag(),
    )


def _cards(root: _Node, known: _Known) -> tuple[MonsterCard, ...]:
    root.fields("cards")
    listing = root.child("cards")
    nodes = listing.elements()
    cards = tuple(_card(node, known) for node in nodes)
    _unique(_ids(nodes), (card.id for card in cards), "card id")
    _count(listing, len(cards), _CARDS, "Monster cards", "RL-SU-2")
    return cards


# --- monsters.json: one details parser per monster ----------------------------


def _target(node: _Node, key: str) -> int:
    return node.child(key).integer(1, 30)


def _spare_part(node: _Node) -> SparePart:
    node.fields("type", "strength")
    return SparePart(type=_item_type(node.child("type")), strength=node.child("strength").integer(1, 6))


def _carrionette(node: _Node, known: _Known) -> MonsterDetails:
    node.fields("spare_parts", "swap_target", "match_bonus", "double_match_bonus", "defeat_target")
    listing = node.child("spare_parts")
    parts = tuple(_spare_part(part) for part in listing.elements())
    if not parts and isinstance(listing.value, list):
        listing.fail("the Carrionette needs at least one spare part")
    return CarrionetteDetails(
        spare_parts=parts,
        swap_target=_target(node, "swap_target"),
        match_bonus=_target(node, "match_bonus"),
        double_match_bonus=_target(node, "double_match_bonus"),
        defeat_target=_target(node, "defeat_target"),
    )


def _root_group(node: _Node) -> RootGroup:
    node.fields("id", "count")
    return RootGroup(id=node.child("id").ident(), count=node.child("count").integer(1, _ROOTS))


def _gulthias_tree(node: _Node, known: _Known) -> MonsterDetails:
    node.fields("roots", "blights", "prune_target", "defeat_target")
    listing = node.child("roots")
    nodes = listing.elements()
    roots = tuple(_root_group(root) for root in nodes)
    _unique(_ids(nodes), (root.id for root in roots), "root group")
    total = sum(root.count for root in roots)
    if isinstance(listing.value, list) and total != _ROOTS:
        listing.fail(f"root counts add up to {total}, the box has {_ROOTS} Root tokens (RL-SU-7)")
    return GulthiasTreeDetails(
        roots=roots,
        blights=node.child("blights").integer(1, 10),
        prune_target=_target(node, "prune_target"),
        defeat_target=_target(node, "defeat_target"),
    )


def _hut_space(node: _Node) -> HutSpace:
    node.fields("id", "links")
    return HutSpace(id=node.child("id").ident(), links=tuple(link.text() for link in node.child("links").elements()))


def _hut_token(node: _Node) -> HutToken:
    """Scarecrows and ravens carry a target to beat; the witch has none (RL-BL-2)."""
    node.fields("id", "kind", "target")
    kind = _choice(node.child("kind"), _HUT_KINDS, "hut token kind") or "scarecrow"
    target = node.child("target")
    if kind == "witch" and target.value is not None:
        target.fail("the witch's token has no target: use null")
    number = None if kind == "witch" else target.integer(1, 30)
    return HutToken(id=node.child("id").ident(), kind=kind, target=number)


def _check_hut_links(nodes: list[_Node], spaces: tuple[HutSpace, ...]) -> None:
    """Links name real spaces and go both ways, so the Gem can move back too."""
    links = {space.id: set(space.links) for space in spaces}
    for node, space in zip(nodes, spaces):
        for link_node, link in zip(node.child("links").elements(), space.links):
            if link not in links:
                link_node.fail(f"no hut space called {link!r}")
            elif space.id not in links[link]:
                link_node.fail(f"{link!r} does not link back to {space.id!r}")


def _check_hut_paths(node: _Node, spaces: tuple[HutSpace, ...], gem: str, door: str) -> None:
    """Her own token can never be moved (RL-BL-4): wherever it lies, a way
    round it must exist, else the game could not be won."""
    edges = [frozenset((space.id, link)) for space in spaces for link in space.links]
    if door not in _reachable(gem, edges):
        node.fail(f"no path leads from {gem!r} to {door!r}")
        return
    for space in spaces:
        if space.id in (gem, door):
            continue
        around = [edge for edge in edges if space.id not in edge]
        if door not in _reachable(gem, around):
            node.fail(f"a token on {space.id!r} would cut every path from {gem!r} to {door!r} (RL-BL-4)")


def _check_hut_tokens(listing: _Node, tokens: tuple[HutToken, ...], spaces: tuple[HutSpace, ...]) -> None:
    """One token on every space but the Gem's and the Door (RL-SU-8), one of them hers."""
    _count(listing, len(tokens), _HUT_TOKENS, "hut tokens", "RL-SU-8")
    if isinstance(listing.value, list) and len(spaces) - 2 != len(tokens):
        listing.fail(f"{len(tokens)} tokens need {len(tokens) + 2} hut spaces, found {len(spaces)}")
    witches = sum(token.kind == "witch" for token in tokens)
    if isinstance(listing.value, list) and witches != 1:
        listing.fail(f"exactly one token must be the witch herself, found {witches}")


def _baba_lysaga(node: _Node, known: _Known) -> MonsterDetails:
    node.fields("spaces", "gem_start", "door", "tokens", "defeat_target")
    space_list = node.child("spaces")
    space_nodes = space_list.elements()
    spaces = tuple(_hut_space(space) for space in space_nodes)
    names = {space.id for space in spaces}
    _unique(_ids(space_nodes), (space.id for space in spaces), "hut space")
    _check_hut_links(space_nodes, spaces)
    gem, door = _reference(node.child("gem_start"), names, "hut space"), _reference(node.child("door"), names, "hut space")
    if gem in names and door in names and gem != door:
        _check_hut_paths(space_list, spaces, gem, door)
    token_list = node.child("tokens")
    token_nodes = token_list.elements()
    tokens = tuple(_hut_token(token) for token in token_nodes)
    _unique(_ids(token_nodes), (token.id for token in tokens), "hut token")
    _check_hut_tokens(token_list, tokens, spaces)
    return BabaLysagaDetails(spaces=spaces, gem_start=gem, door=door, tokens=tokens,
                             defeat_target=_target(node, "defeat_target"))


def _relic(node: _Node, known: _Known) -> Relic:
    node.fields("id", "name", "return_to")
    return Relic(id=node.child("id").ident(), name=node.child("name").text(),
                 return_to=_location(node.child("return_to"), known))


def _tarokka(node: _Node, known: _Known, relics: Collection[str]) -> TarokkaCard:
    """The Relic lies where the card says; that place must be on the main board."""
    node.fields("id", "name", "type", "location", "relic")
    return TarokkaCard(
        id=node.child("id").ident(),
        name=node.child("name").text(),
        type=_item_type(node.child("type")),
        location=_location(node.child("location"), known, "board"),
        relic=_reference(node.child("relic"), relics, "relic"),
    )


def _check_relic_by_type(nodes: list[_Node], cards: tuple[TarokkaCard, ...], listing: _Node) -> None:
    """An item's type picks the card (RL-ST-2), so one type must always mean one relic."""
    relic_of: dict[str, str] = {}
    for node, card in zip(nodes, cards):
        first = relic_of.setdefault(card.type, card.relic)
        if card.relic and first and card.relic != first:
            node.child("relic").fail(f"{card.type} cards lead to {first!r}, not {card.relic!r}")
    missing = [kind for kind in ITEM_TYPES if kind not in relic_of]
    if missing and nodes:
        listing.fail(f"no Tarokka card for item type {', '.join(missing)}")


def _strahd(node: _Node, known: _Known) -> MonsterDetails:
    node.fields("tarokka", "relics", "heart_location", "north_tower", "heart_target", "defeat_target", "showdown_items")
    relic_list = node.child("relics")
    relic_nodes = relic_list.elements()
    relics = tuple(_relic(relic, known) for relic in relic_nodes)
    _unique(_ids(relic_nodes), (relic.id for relic in relics), "relic")
    _count(relic_list, len(relics), _RELICS, "relics", "RL-ST-3")
    card_list = node.child("tarokka")
    card_nodes = card_list.elements()
    cards = tuple(_tarokka(card, known, {relic.id for relic in relics}) for card in card_nodes)
    _unique(_ids(card_nodes), (card.id for card in cards), "Tarokka card")
    _count(card_list, len(cards), _TAROKKA, "Tarokka cards", "RL-SU-9")
    _check_relic_by_type(card_nodes, cards, card_list)
    return StrahdDetails(
        tarokka=cards,
        relics=relics,
        heart_location=_location(node.child("heart_location"), known, "castle-mat"),
        north_tower=_location(node.child("north_tower"), known, "castle-mat"),
        heart_target=_target(node, "heart_target"),
        defeat_target=_target(node, "defeat_target"),
        showdown_items=node.child("showdown_items").integer(1, 6),
    )


#: Monster id -> the parser of that mat's ``details``. A new monster is one new entry.
DETAILS_PARSERS: Final[dict[str, Callable[[_Node, _Known], MonsterDetails]]] = {
    "carrionette": _carrionette,
    "baba-lysaga": _baba_lysaga,
    "strahd": _strahd,
    "gulthias-tree": _gulthias_tree,
}


def _symbols(node: _Node) -> tuple[str, ...]:
    nodes = node.elements()
    symbols = tuple(_colour(symbol) for symbol in nodes)
    _unique(nodes, symbols, "symbol")
    if not symbols and isinstance(node.value, list):
        node.fail("a monster shows at least one colour symbol")
    return symbols


def _monster(node: _Node, known: _Known) -> Monster | None:
    node.fields("id", "name", "frenzy_order", "symbols", "start", "complexity", "power", "verified", "details")
    parser = _choice(node.child("id"), DETAILS_PARSERS, "monster id")
    if parser is None:
        return None
    return Monster(
        id=node.child("id").ident(),
        name=node.child("name").text(),
        frenzy_order=node.child("frenzy_order").integer(1, 20),
        symbols=_symbols(node.child("symbols")),
        start=_location(node.child("start"), known, "board"),
        complexity=_choice(node.child("complexity"), {"Low": "Low", "High": "High"}, "complexity") or "",
        power=node.child("power").text(),
        details=parser(node.child("details"), known),
        verified=node.child("verified").flag(),
    )


def _monsters(root: _Node, known: _Known) -> tuple[Monster, ...]:
    root.fields("monsters")
    listing = root.child("monsters")
    pairs = [(node, _monster(node, known)) for node in listing.elements()]
    found = [(node, monster) for node, monster in pairs if monster is not None]
    _unique([node.child("id") for node, _ in found], (m.id for _, m in found), "monster id")
    _unique([node.child("frenzy_order") for node, _ in found], (str(m.frenzy_order) for _, m in found), "frenzy order")
    missing = sorted(DETAILS_PARSERS.keys() - {m.id for _, m in found})
    if missing and isinstance(listing.value, list):
        listing.fail(f"no record for {', '.join(missing)}")
    if isinstance(listing.value, list):
        known.monsters = frozenset(m.id for _, m in found)
    return tuple(m for _, m in found)


# --- dice.json ---------------------------------------------------------------


def _dice(root: _Node, known: _Known) -> tuple[tuple[DieFace, ...], bool]:
    root.fields("monster_die")
    die = root.child("monster_die")
    die.fields("faces", "verified")
    listing = die.child("faces")
    faces = tuple(_choice(face, _DIE_FACES, "die face") or "blank" for face in listing.elements())
    if isinstance(listing.value, list) and len(faces) != 6:
        listing.fail(f"a die has 6 faces, found {len(faces)}")
    return faces, die.child("verified").flag()


# --- Putting it together -----------------------------------------------------


#: The pack's files in the order they load: later files are checked against earlier names.
PACK_FILES: Final = ("board.json", "villagers.json", "items.json", "monsters.json", "heroes.json", "perks.json",
                     "cards.json", "dice.json")


def read_pack_files(directory: Path | None = None) -> dict[str, object]:
    """Every pack file of a folder as parsed JSON; raises PackError for files that
    are missing or are not JSON (all of them at once)."""
    folder = DATA_DIR if directory is None else Path(directory)
    problems: list[str] = []
    found = {name: _read(folder, name, problems) for name in PACK_FILES}
    if problems:
        raise PackError(problems)
    return found


def _read(folder: Path, name: str, problems: list[str]) -> object:
    """One file as JSON; a missing or unreadable file is a problem like any other."""
    path = folder / name
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        problems.append(f"{name}: (file): missing from {folder}")
        return None
    except (OSError, UnicodeDecodeError) as error:
        problems.append(f"{name}: (file): cannot be read: {error}")
        return None
    try:
        data: object = json.loads(text)
    except json.JSONDecodeError as error:
        problems.append(f"{name}: line {error.lineno}, column {error.colno}: invalid JSON: {error.msg}")
        return None
    return data


def _load(files: Mapping[str, object], name: str, problems: list[str], known: _Known,
          parse: Callable[[_Node, _Known], _T]) -> _T | None:
    return parse(_Node(_Sink(name, problems), "", files.get(name)), known)


def _need(value: _T | None) -> _T:
    if value is None:  # only reachable if a parser forgot to report its problem
        raise PackError(["(pack): a file failed to load without saying why"])
    return value


def load_pack(directory: Path | None = None) -> Pack:
    """Read and check every pack file; return the Pack, or raise one PackError
    that lists every problem found."""
    return pack_from_files(read_pack_files(directory))


def pack_from_files(files: Mapping[str, object]) -> Pack:
    """The Pack of parsed pack files (``PACK_FILES`` names to JSON data), checked
    as thoroughly as files on disk: the owner's corrected data comes this way.
    Files load in dependency order (board first) so that later files can be
    checked against earlier names."""
    problems: list[str] = []
    known = _Known()
    board = _load(files, "board.json", problems, known, _board)
    villagers = _load(files, "villagers.json", problems, known, _villagers)
    items = _load(files, "items.json", problems, known, _items)
    monsters = _load(files, "monsters.json", problems, known, _monsters)
    heroes = _load(files, "heroes.json", problems, known, _heroes)
    perks = _load(files, "perks.json", problems, known, _perks)
    cards = _load(files, "cards.json", problems, known, _cards)
    dice = _load(files, "dice.json", problems, known, _dice)
    if problems:
        raise PackError(problems)
    faces, faces_verified = _need(dice)
    return Pack(name=PACK_NAME, board=_need(board), items=_need(items), villagers=_need(villagers),
                heroes=_need(heroes), perks=_need(perks), cards=_need(cards), monsters=_need(monsters),
                monster_die=faces, monster_die_verified=faces_verified)


def parse_entered_card(pack: Pack, data: object, card_id: str) -> MonsterCard:
    """A Monster card the players typed in at the table (the card builder).

    Checked exactly like a card in cards.json against this pack's names; the
    players' own words say what it is, so it is marked verified.
    """
    known = _Known(areas={loc.id: loc.area for loc in pack.board.locations},
                   villagers=frozenset(v.id for v in pack.villagers),
                   monsters=frozenset(m.id for m in pack.monsters))
    sink = _Sink("entered card", [])
    body = dict(data) if isinstance(data, Mapping) else data
    if isinstance(body, dict):
        body = {**body, "id": card_id, "verified": True}
    card = _card(_Node(sink, "card", body), known)
    if sink.problems:
        raise PackError(sink.problems)
    return card
