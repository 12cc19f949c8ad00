"""Walking a pack's JSON files with a path, so each complaint can say where: the toolkit
every edition's loader and every monster plug-in's ``details`` parser uses, and the
checks of effects built from the primitive library.

Why so strict: most of a pack is a guess that an owner corrects by hand from the real
box. A typo must never surface in the middle of a game, so every file is checked up front
and *every* problem is reported at once, each as ``<file>: <field path>: <why>``, so that
one run of the loader is enough to fix them all (docs/game-data.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, TypeVar

from .pack_types import MAIN_BOARD, Effect

_T = TypeVar("_T")

KEBAB: Final = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
ALWAYS_ALLOWED: Final = frozenset({"note", "verified_fields"})


class PackError(ValueError):
    """The pack's data (not the code) is wrong. It is a ValueError so callers
    can treat it like any bad input; the message lists every problem, one a
    line, so an owner can fix them all in one pass."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems: tuple[str, ...] = tuple(dict.fromkeys(problems))
        count = len(self.problems)
        lines = "\n".join(f"  {problem}" for problem in self.problems)
        super().__init__(f"the game pack has {count} problem{'' if count == 1 else 's'}:\n{lines}")


MISSING: Final = object()


@dataclass(frozen=True)
class Sink:
    """Where one file's complaints go; names the file in each of them."""

    file: str
    problems: list[str]

    def report(self, path: str, why: str) -> None:
        self.problems.append(f"{self.file}: {path or '(top level)'}: {why}")


@dataclass(frozen=True)
class Node:
    """A JSON value with its field path. ``broken`` marks a value below one
    that was already reported, so one mistake yields one complaint."""

    sink: Sink
    path: str
    value: object
    broken: bool = False

    @property
    def present(self) -> bool:
        return self.value is not MISSING

    def fail(self, why: str) -> None:
        if not self.broken:
            self.sink.report(self.path, why)

    def expected(self, what: str) -> None:
        self.fail("missing" if not self.present else f"expected {what}, got {describe(self.value)}")

    def child(self, key: str) -> Node:
        path = f"{self.path}.{key}" if self.path else key
        if isinstance(self.value, dict):
            return Node(self.sink, path, self.value.get(key, MISSING))
        self.expected("an object")
        return Node(self.sink, path, MISSING, broken=True)

    def elements(self) -> list[Node]:
        if isinstance(self.value, list):
            return [Node(self.sink, f"{self.path}[{i}]", value) for i, value in enumerate(self.value)]
        self.expected("a list")
        return []

    def text(self) -> str:
        if isinstance(self.value, str) and self.value.strip():
            return self.value
        self.expected("non-empty text")
        return ""

    def ident(self) -> str:
        value = self.text()
        if value and not KEBAB.fullmatch(value):
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
            if key not in names and key not in ALWAYS_ALLOWED:
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


def describe(value: object) -> str:
    if value is None:
        return "null"
    names = {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)


# --- What earlier files taught us, for cross-references ----------------------


@dataclass
class Known:
    """The edition's fixed words (its symbols, item types, areas) and the names defined by
    the files loaded so far. A name table left ``None`` means that file failed to load, so
    references into it are not checked (one broken file, one complaint)."""

    symbols: Collection[str] = ()
    symbol_noun: str = "symbol"
    item_types: Collection[str] = ()
    area_names: Mapping[str, str] = field(default_factory=lambda: {MAIN_BOARD: "the main board"})
    areas: dict[str, str] | None = None
    villagers: frozenset[str] | None = None
    monsters: frozenset[str] | None = None


def reference(node: Node, table: Collection[str] | None, noun: str) -> str:
    value = node.text()
    if value and table is not None and value not in table:
        node.fail(f"no {noun} called {value!r}")
    return value


def location(node: Node, known: Known, area: str | None = None) -> str:
    """A location id; with ``area``, it must also lie in that area."""
    value = reference(node, known.areas, "location")
    found = known.areas.get(value) if known.areas is not None else None
    if found is not None and area is not None and found != area:
        names = known.area_names
        node.fail(f"{value!r} is on {names.get(found, found)}, it must be on {names.get(area, area)}")
    return value


def choice(node: Node, options: Mapping[str, _T], noun: str) -> _T | None:
    value = node.text()
    if value and value not in options:
        node.fail(f"unknown {noun} {value!r} (expected one of: {', '.join(options)})")
    return options.get(value)


def item_type(node: Node, known: Known) -> str:
    return choice(node, {kind: kind for kind in known.item_types}, "item type") or next(iter(known.item_types), "")


def symbol(node: Node, known: Known) -> str:
    value = node.text()
    if value and value not in known.symbols:
        node.fail(f"no {known.symbol_noun} called {value!r} (expected one of: {', '.join(known.symbols)})")
    return value


def unique(nodes: Iterable[Node], values: Iterable[str], noun: str) -> None:
    first: dict[str, str] = {}
    for node, value in zip(nodes, values):
        if value in first:
            node.fail(f"{noun} {value!r} is used twice (first at {first[value]})")
        elif value:
            first[value] = node.path


def ids(nodes: list[Node]) -> list[Node]:
    return [node.child("id") for node in nodes]


def count(node: Node, found: int, wanted: int, noun: str, rule: str) -> None:
    if found != wanted:
        node.fail(f"expected {wanted} {noun}, found {found} ({rule})")


def target(node: Node, key: str) -> int:
    """A number to reach on a roll or with items' strength."""
    return node.child(key).integer(1, 30)


def ranges(numbers: Iterable[int]) -> str:
    """1,2,3,7 -> '1–3, 7': short enough to read in an error line."""
    spans: list[list[int]] = []
    for number in sorted(numbers):
        if spans and spans[-1][1] == number - 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in spans)


def reachable(start: str, edges: Iterable[frozenset[str]]) -> set[str]:
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


# --- Effects: the primitive library ------------------------------------------

ParamCheck = Callable[[Node, Known], object]


@dataclass(frozen=True)
class Library:
    """The primitives allowed at one place of the data (card events, Perks, ...): each kind
    with the params it requires, the optional params any kind (``optional``) or one kind
    (``optional_by_kind``) may add, and how each param is checked (``checks`` by name;
    ``kind_checks`` where one param means something else for one kind)."""

    kinds: Mapping[str, frozenset[str]]
    checks: Mapping[str, ParamCheck]
    optional: frozenset[str] = frozenset()
    optional_by_kind: Mapping[str, frozenset[str]] = field(default_factory=dict)
    kind_checks: Mapping[tuple[str, str], ParamCheck] = field(default_factory=dict)


def positive(node: Node, known: Known) -> object:
    return node.integer(1, 20)


def nonzero_amount(node: Node, known: Known) -> object:
    value = node.integer(-20, 20)
    if value == 0:
        node.fail("must not be 0")
    return value


def flag(node: Node, known: Known) -> object:
    return node.flag()


def _villager_param(node: Node, known: Known) -> object:
    return reference(node, known.villagers, "villager")


def _monster_param(node: Node, known: Known) -> object:
    return reference(node, known.monsters, "monster")


def _location_param(node: Node, known: Known) -> object:
    """Effects only name main-board places: an extra mat is out only with its monster."""
    return location(node, known, MAIN_BOARD)


def _symbol_param(node: Node, known: Known) -> object:
    return symbol(node, known)


#: How the params every edition's primitives share are checked.
COMMON_PARAM_CHECKS: Final[Mapping[str, ParamCheck]] = MappingProxyType({
    "villager": _villager_param,
    "location": _location_param,
    "symbol": _symbol_param,
    "monster": _monster_param,
    "steps": positive,
    "count": positive,
    "amount": nonzero_amount,
    "anywhere": flag,
    "hand": flag,
})


def _param(node: Node, kind: str, name: str, known: Known, required: bool, library: Library) -> object:
    if node.value is None and not required:
        return None  # an optional param left empty, e.g. the colour of a gray event
    check = library.kind_checks.get((kind, name), library.checks.get(name))
    if check is None:
        node.fail(f"no check is known for param {name!r}")
        return None
    return check(node, known)


def _params(node: Node, kind: str, library: Library, known: Known) -> dict[str, object]:
    required = library.kinds[kind]
    optional = library.optional | library.optional_by_kind.get(kind, frozenset())
    values: dict[str, object] = {}
    given = node.value if isinstance(node.value, dict) else {}
    if node.present and not isinstance(node.value, dict):
        node.expected("an object")
    for name in sorted(required | (optional & given.keys())):
        values[name] = _param(node.child(name), kind, name, known, name in required, library)
    for name in sorted(given.keys() - required - optional):
        wanted = ", ".join(sorted(required | optional)) or "none"
        node.child(str(name)).fail(f"unknown param for kind {kind!r} (it takes: {wanted})")
    return values


def effect(node: Node, library: Library, known: Known, needs_text: bool = True) -> Effect:
    """One Effect of ``library``."""
    node.fields("kind", "params", "text")
    kind = choice(node.child("kind"), {k: k for k in library.kinds}, "kind")
    text_node = node.child("text")
    text = text_node.text() if needs_text or text_node.present else ""
    if kind is None:
        return Effect(kind="", text=text)
    params = _params(node.child("params"), kind, library, known)
    return Effect(kind=kind, params=MappingProxyType(params), text=text)


def event_library(kinds: Mapping[str, frozenset[str]], checks: Mapping[str, ParamCheck]) -> Library:
    """Monster card events: any may carry a ``symbol`` (the monster it is about); a ``sequence``'s
    ``steps`` are events themselves, checked like any."""

    def steps(node: Node, known: Known) -> object:
        found = tuple(effect(step, library, known, needs_text=False) for step in node.elements())
        if not found and isinstance(node.value, list):
            node.fail("a sequence needs at least one step")
        return found

    library = Library(kinds, checks, optional=frozenset({"symbol"}), kind_checks={("sequence", "steps"): steps})
    return library
