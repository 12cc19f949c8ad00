"""The Horrified family's checks of its pack files, on the walker every pack uses
(companion/games/datafiles.py): names defined by earlier files, locations and areas,
item types and symbols, and the effects built from the primitive library.

Why so strict: most of a pack is a guess that an owner corrects by hand from the real
box. A typo must never surface in the middle of a game, so every file is checked up front
and *every* problem is reported at once, each as ``<file>: <field path>: <why>``, so that
one run of the loader is enough to fix them all (docs/game-data.md).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, TypeVar

from companion.games.datafiles import Node, choice

from .pack_types import MAIN_BOARD, Effect

_T = TypeVar("_T")

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


def item_type(node: Node, known: Known) -> str:
    return choice(node, {kind: kind for kind in known.item_types}, "item type") or next(iter(known.item_types), "")


def symbol(node: Node, known: Known) -> str:
    value = node.text()
    if value and value not in known.symbols:
        node.fail(f"no {known.symbol_noun} called {value!r} (expected one of: {', '.join(known.symbols)})")
    return value


def target(node: Node, key: str) -> int:
    """A number to reach on a roll or with items' strength."""
    return node.child(key).integer(1, 30)


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
