"""Reading a pack's JSON data files, for every pack: a JSON value walked with its field
path, so each complaint says where it is, and every complaint gathered before one
``PackError`` lists them all.

Why so strict: much of every pack is a guess an owner corrects by hand from their own
box. A typo must never surface in the middle of a game, so each file is checked up front
and *every* problem is reported at once, each as ``<file>: <field path>: <why>``, so one
run of the loader is enough to fix them all (docs/game-data.md). A pack's loader builds
its own checks on these (the Horrified family's in horrified_core/packdata.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final, TypeVar

from companion.engine.errors import Refusal

_T = TypeVar("_T")

KEBAB: Final = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
ALWAYS_ALLOWED: Final = frozenset({"note", "verified_fields", "confidence"})
#: How sure the sources a datum was taken from are (a pack without sources leaves it out):
#: two or more independent sources agree, only one says so, or it is weak, conflicting or guessed.
CONFIDENCES: Final = ("verified", "single-source", "unverified")


class PackError(Refusal):
    """The pack's data (not the code) is wrong; the message lists every problem, one a line,
    so an owner can fix them all in one pass."""

    def __init__(self, problems: Iterable[str]) -> None:
        listed = tuple(dict.fromkeys(problems))
        lines = "\n".join(f"  {problem}" for problem in listed)
        super().__init__(f"the game pack has {len(listed)} problem{'' if len(listed) == 1 else 's'}:\n{lines}", listed)


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
        confidence = self.child("confidence")
        if confidence.present:
            choice(confidence, {level: level for level in CONFIDENCES}, "confidence")


def describe(value: object) -> str:
    if value is None:
        return "null"
    names = {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)


def choice(node: Node, options: Mapping[str, _T], noun: str) -> _T | None:
    value = node.text()
    if value and value not in options:
        node.fail(f"unknown {noun} {value!r} (expected one of: {', '.join(options)})")
    return options.get(value)


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
