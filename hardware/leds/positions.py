"""Where each LED sits on the board picture, for the tablet's overlay and for
board-wide animations (the win sweep crosses the board left to right).

Locations and connections use the pack's drawing positions (x, y in 0..1);
LEDs of one connection are spaced evenly from its ``from`` end to its ``to``
end. The tracks, mats and seats are off the picture in reality, so they are
drawn in a band just below it (y > 1), a row per track and then one for the
mats and seats: the tablet extends its canvas.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

from .board import BoardShape
from .layout import Layout, Leds

FIRST_ROW, ROW_GAP = 1.06, 0.06  # the first track's row below the picture, and the gap to the next row
RING = 0.012  # spread of several LEDs under one location


@dataclass(frozen=True)
class LedPosition:
    index: int
    x: float
    y: float
    role: str  # "location", "connection", a track's name ("terror"), "mat", "seat"
    name: str  # location id, "a|b", step number, mat name or seat number

    def to_plain(self) -> dict[str, object]:
        return {"index": self.index, "x": round(self.x, 4), "y": round(self.y, 4), "role": self.role, "name": self.name}


def led_positions(layout: Layout, shape: BoardShape) -> list[LedPosition]:
    tracks = [position for n, track in enumerate(shape.tracks)
              for position in _row(layout.tracks.get(track, ()), track, 0.05, FIRST_ROW + ROW_GAP * n)]
    mat_row = FIRST_ROW + ROW_GAP * len(shape.tracks)
    found = [*_locations(layout, shape), *_connections(layout, shape), *tracks,
             *_named_row(layout.mats, "mat", 0.05, mat_row), *_row(layout.seats, "seat", 0.6, mat_row)]
    return sorted(found, key=lambda p: p.index)


def _locations(layout: Layout, shape: BoardShape) -> list[LedPosition]:
    found = []
    for name, leds in layout.locations.items():
        x, y = shape.locations[name]
        for n, index in enumerate(leds):
            angle = 2.0 * math.pi * n / len(leds)
            spread = RING if len(leds) > 1 else 0.0
            found.append(LedPosition(index, x + spread * math.cos(angle), y + spread * math.sin(angle), "location", name))
    return found


def _connections(layout: Layout, shape: BoardShape) -> list[LedPosition]:
    found = []
    for (a, b), leds in layout.connections.items():
        (ax, ay), (bx, by) = shape.locations[a], shape.locations[b]
        for n, index in enumerate(leds):
            f = (n + 1) / (len(leds) + 1)
            found.append(LedPosition(index, ax + (bx - ax) * f, ay + (by - ay) * f, "connection", f"{a}|{b}"))
    return found


def _row(groups: tuple[Leds, ...], role: str, x0: float, y: float) -> list[LedPosition]:
    return [LedPosition(index, x0 + 0.04 * n + 0.01 * k, y, role, str(n))
            for n, leds in enumerate(groups) for k, index in enumerate(leds)]


def _named_row(groups: Mapping[str, Leds], role: str, x0: float, y: float) -> list[LedPosition]:
    return [LedPosition(index, x0 + 0.1 * n + 0.01 * k, y, role, name)
            for n, (name, leds) in enumerate(groups.items()) for k, index in enumerate(leds)]
