"""Which LEDs sit where: under each location, along each connection (in order
from ``from`` to ``to``, so a path lights as a trail), on each Terror step, at
each monster's mat and each player's seat.

The layout is the owner's data (their strip, their wiring), so it lives in a
JSON file that is validated as a whole: every problem is reported with its
field and why (an index out of range, an index used twice, a location or
connection the board does not have), because a calibration screen must be
able to show all of them at once. The format is in docs/leds.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Mapping, Sequence

from .board import BoardShape

FORMAT = "table-companion.led-layout"
VERSION = 1
SHIPPED = Path(__file__).resolve().parent / "layouts"
Leds = tuple[int, ...]


@dataclass(frozen=True)
class Problem:
    field: str
    why: str

    def __str__(self) -> str:
        return f"{self.field}: {self.why}"


class LayoutError(ValueError):
    """A layout refused, with every problem found (field and why)."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = tuple(problems)


@dataclass(frozen=True)
class Layout:
    board: str
    count: int
    locations: Mapping[str, Leds] = field(default_factory=dict)
    connections: Mapping[tuple[str, str], Leds] = field(default_factory=dict)
    terror: tuple[Leds, ...] = ()
    mats: Mapping[str, Leds] = field(default_factory=dict)
    seats: tuple[Leds, ...] = ()

    def location(self, location: str) -> Leds:
        return self.locations.get(location, ())

    def segment(self, a: str, b: str) -> Leds:
        """The LEDs between two locations in order from ``a`` to ``b``, whichever way they were laid."""
        forward = self.connections.get((a, b))
        if forward is not None:
            return forward
        return tuple(reversed(self.connections.get((b, a), ())))

    def terror_step(self, step: int) -> Leds:
        return self.terror[step] if 0 <= step < len(self.terror) else ()

    def mat(self, monster: str) -> Leds:
        return self.mats.get(monster, ())

    def seat(self, seat: int) -> Leds:
        return self.seats[seat] if 0 <= seat < len(self.seats) else ()

    def used(self) -> Iterator[int]:
        for group in (*self.locations.values(), *self.connections.values(), *self.terror,
                      *self.mats.values(), *self.seats):
            yield from group

    def to_plain(self) -> dict[str, object]:
        return {
            "format": FORMAT, "version": VERSION, "board": self.board, "count": self.count,
            "locations": {k: list(v) for k, v in self.locations.items()},
            "connections": [{"from": a, "to": b, "leds": list(v)} for (a, b), v in self.connections.items()],
            "terror": [list(v) for v in self.terror],
            "mats": {k: list(v) for k, v in self.mats.items()},
            "seats": [list(v) for v in self.seats],
        }


def validate(layout: Layout, shape: BoardShape) -> Layout:
    """Check a layout built in code (the generator, calibration) like a loaded one."""
    return parse_layout(layout.to_plain(), shape)


def load_layout(path: Path, shape: BoardShape) -> Layout:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as problem:
        raise LayoutError([Problem(str(path), f"cannot read the layout: {problem}")]) from None
    return parse_layout(data, shape)


def shipped_layout(shape: BoardShape) -> Layout:
    """The default layout shipped for a board (hardware/leds/layouts/<board>.json)."""
    return load_layout(SHIPPED / f"{shape.name}.json", shape)


def parse_layout(data: object, shape: BoardShape) -> Layout:
    checker = _Checker(shape)
    layout = checker.layout(data)
    if checker.problems:
        raise LayoutError(checker.problems)
    assert layout is not None
    return layout


class _Checker:
    """Collects every problem; remembers which field first used each index."""

    def __init__(self, shape: BoardShape) -> None:
        self.shape = shape
        self.problems: list[Problem] = []
        self.owner: dict[int, str] = {}
        self.count = 0

    def fail(self, where: str, why: str) -> None:
        self.problems.append(Problem(where, why))

    def layout(self, data: object) -> Layout | None:
        if not isinstance(data, Mapping):
            self.fail("layout", "must be a JSON object")
            return None
        self.header(data)
        return Layout(
            board=self.shape.name, count=self.count,
            locations=self.locations(data.get("locations", {})),
            connections=self.connections(data.get("connections", [])),
            terror=self.steps("terror", data.get("terror", []), self.shape.terror_steps),
            mats=self.mats(data.get("mats", {})),
            seats=self.steps("seats", data.get("seats", []), self.shape.seats),
        )

    def header(self, data: Mapping[str, object]) -> None:
        known = {"format", "version", "board", "count", "locations", "connections", "terror", "mats", "seats", "note"}
        for key in data:
            if key not in known:
                self.fail(str(key), "unknown field")
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            self.fail("format", f"must be {FORMAT!r} version {VERSION}")
        if data.get("board") != self.shape.name:
            self.fail("board", f"this layout is for {data.get('board')!r}, the board is {self.shape.name!r}")
        count = data.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 2700:
            self.fail("count", f"must be a whole number from 1 to 2700, got {count!r}")
        else:
            self.count = count

    def leds(self, where: str, value: object) -> Leds:
        if not isinstance(value, list):
            self.fail(where, "must be a list of LED indices")
            return ()
        return tuple(i for n, i in enumerate(value) if self.index(f"{where}[{n}]", i))

    def index(self, where: str, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < max(self.count, 1):
            self.fail(where, f"LED index must be a whole number from 0 to {self.count - 1}, got {value!r}")
            return False
        if value in self.owner:
            self.fail(where, f"LED {value} is already used by {self.owner[value]}")
            return False
        self.owner[value] = where
        return True

    def locations(self, value: object) -> dict[str, Leds]:
        if not isinstance(value, Mapping):
            self.fail("locations", "must be an object: location id -> LED indices")
            return {}
        found = {}
        for name, leds in value.items():
            if name not in self.shape.locations:
                self.fail(f"locations.{name}", "no such location on the board")
                continue
            found[str(name)] = self.leds(f"locations.{name}", leds)
        return found

    def connections(self, value: object) -> dict[tuple[str, str], Leds]:
        if not isinstance(value, list):
            self.fail("connections", "must be a list of {from, to, leds}")
            return {}
        found: dict[tuple[str, str], Leds] = {}
        for n, entry in enumerate(value):
            key = self.connection(f"connections[{n}]", entry, found)
            if key is not None and isinstance(entry, Mapping):
                found[key] = self.leds(f"connections[{n}].leds", entry.get("leds"))
        return found

    def connection(self, where: str, entry: object, found: Mapping[tuple[str, str], Leds]) -> tuple[str, str] | None:
        if not isinstance(entry, Mapping) or set(entry) != {"from", "to", "leds"}:
            self.fail(where, "must be an object with exactly 'from', 'to' and 'leds'")
            return None
        a, b = entry["from"], entry["to"]
        if not (isinstance(a, str) and isinstance(b, str) and self.shape.connected(a, b)):
            self.fail(where, f"the board has no connection between {a!r} and {b!r}")
            return None
        if (a, b) in found or (b, a) in found:
            self.fail(where, f"the connection {a} - {b} is listed twice")
            return None
        return a, b

    def steps(self, name: str, value: object, most: int) -> tuple[Leds, ...]:
        if not isinstance(value, list) or len(value) > most:
            self.fail(name, f"must be a list of at most {most} lists of LED indices")
            return ()
        return tuple(self.leds(f"{name}[{n}]", leds) for n, leds in enumerate(value))

    def mats(self, value: object) -> dict[str, Leds]:
        if not isinstance(value, Mapping):
            self.fail("mats", "must be an object: monster id -> LED indices")
            return {}
        found = {}
        for name, leds in value.items():
            if name not in self.shape.monsters:
                self.fail(f"mats.{name}", "no such monster in this game")
                continue
            found[str(name)] = self.leds(f"mats.{name}", leds)
        return found
