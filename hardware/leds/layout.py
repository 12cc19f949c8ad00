"""Which LEDs sit where: under each location, along each connection (in order
from ``from`` to ``to``, so a path lights as a trail), on each step of each of
the board's tracks (a Terror track), at each mat and each seat.

The layout is the owner's data (their strip, their wiring), so it lives in a
JSON file that is validated as a whole: every problem is reported with its
field and why (an index out of range, an index used twice, a location or
connection the board does not have), because a calibration screen must be
able to show all of them at once. The format is in docs/leds.md: each track
is a field named after it (``"terror": [[110], [111], ...]``), so a layout of
a board with one track called ``terror`` reads as it always has.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from itertools import count as counter
from pathlib import Path
from typing import Iterator, Mapping, Sequence

from companion.engine.errors import Refusal

from .board import BoardShape

FORMAT = "table-companion.led-layout"
VERSION = 1
Leds = tuple[int, ...]


@dataclass(frozen=True)
class Problem:
    field: str
    why: str

    def __str__(self) -> str:
        return f"{self.field}: {self.why}"


class LayoutError(Refusal):
    """A layout refused, with every problem found (field and why)."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(str(p) for p in problems), problems)
        self.found = tuple(problems)


@dataclass(frozen=True)
class Layout:
    board: str
    count: int
    locations: Mapping[str, Leds] = field(default_factory=dict)
    connections: Mapping[tuple[str, str], Leds] = field(default_factory=dict)
    tracks: Mapping[str, tuple[Leds, ...]] = field(default_factory=dict)  # track -> the LEDs of each step
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

    def step(self, track: str, step: int) -> Leds:
        """The LEDs of one step of a track (none for a step or track not laid)."""
        steps = self.tracks.get(track, ())
        return steps[step] if 0 <= step < len(steps) else ()

    def mat(self, name: str) -> Leds:
        return self.mats.get(name, ())

    def seat(self, seat: int) -> Leds:
        return self.seats[seat] if 0 <= seat < len(self.seats) else ()

    def used(self) -> Iterator[int]:
        steps = [group for track in self.tracks.values() for group in track]
        for group in (*self.locations.values(), *self.connections.values(), *steps, *self.mats.values(),
                      *self.seats):
            yield from group

    def to_plain(self) -> dict[str, object]:
        """The layout file's contents; each track is a field of its own, between the connections and the mats."""
        return {
            "format": FORMAT, "version": VERSION, "board": self.board, "count": self.count,
            "locations": {k: list(v) for k, v in self.locations.items()},
            "connections": [{"from": a, "to": b, "leds": list(v)} for (a, b), v in self.connections.items()],
            **{track: [list(v) for v in steps] for track, steps in self.tracks.items()},
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
    """The default layout the pack ships for its board (``shape.layout_file``), or, for a
    board that ships none, the generated one (``default_layout``)."""
    if shape.layout_file is None:
        return default_layout(shape)
    return load_layout(shape.layout_file, shape)


def default_layout(shape: BoardShape, per_connection: int = 2) -> Layout:
    """A starting point, not the owner's wiring: one LED under each location, ``per_connection``
    along each connection (from its first location to its second), one per step of each
    track, one per mat and one per seat, numbered in that order."""
    numbers = counter()

    def take(n: int) -> Leds:
        return tuple(next(numbers) for _ in range(n))

    locations = {name: take(1) for name in shape.locations}
    connections = {pair: take(per_connection) for pair in shape.connections}
    tracks = {track: tuple(take(1) for _ in range(steps)) for track, steps in shape.tracks.items()}
    mats = {name: take(1) for name in shape.mats}
    seats = tuple(take(1) for _ in range(shape.seats))
    used = next(numbers)
    return validate(Layout(shape.name, used, locations, connections, tracks, mats, seats), shape)


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
            tracks={track: self.steps(track, data.get(track, []), steps) for track, steps in self.shape.tracks.items()},
            mats=self.mats(data.get("mats", {})),
            seats=self.steps("seats", data.get("seats", []), self.shape.seats),
        )

    def header(self, data: Mapping[str, object]) -> None:
        known = {"format", "version", "board", "count", "locations", "connections", "mats", "seats", "note",
                 *self.shape.tracks}
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
        noun = self.shape.mat_noun
        if not isinstance(value, Mapping):
            self.fail("mats", f"must be an object: {noun} id -> LED indices")
            return {}
        found = {}
        for name, leds in value.items():
            if name not in self.shape.mats:
                self.fail(f"mats.{name}", f"no such {noun} in this game")
                continue
            found[str(name)] = self.leds(f"mats.{name}", leds)
        return found
