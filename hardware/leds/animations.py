"""The moving pictures: each animation draws itself at a local time ``t``
(seconds since it began) and, once over, may leave a still image (``hold``)
until the next change, so a monster's path stays lit while the players move
the figure, without the animation thread doing any work.

Everything here is pure: time comes in as a number, frames are bytearrays, so
tests can sample any moment exactly. Board-wide animations (the win sweep, the
loss glow) paint contiguous runs of LEDs with one slice each and touch single
LEDs only where the picture differs, so a 300-LED frame stays well under half
a millisecond.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Sequence

from .palette import Look, chase, shade
from .strip import Colour

TRAIL_LEVEL = 0.45  # LEDs the trail has passed, under the pattern
HOLD_PATH = 0.3  # the path once the animation is over
HOLD_END = 1.0  # its destination
OFF = bytes(3)


def put(frame: bytearray, index: int, rgb: bytes) -> None:
    start = 3 * index
    if 0 <= start < len(frame):
        frame[start:start + 3] = rgb


def fill(frame: bytearray, leds: Sequence[int], rgb: bytes) -> None:
    for index in leds:
        put(frame, index, rgb)


class Runs:
    """A set of LEDs as contiguous index runs, for painting many at once."""

    def __init__(self, leds: Sequence[int]) -> None:
        self.runs: list[tuple[int, int]] = []
        for index in sorted(set(leds)):
            if self.runs and self.runs[-1][1] == index:
                self.runs[-1] = (self.runs[-1][0], index + 1)
            else:
                self.runs.append((index, index + 1))

    def paint(self, frame: bytearray, rgb: bytes) -> None:
        limit = len(frame) // 3
        for first, end in self.runs:
            end = min(end, limit)
            if first < end:
                frame[3 * first:3 * end] = rgb * (end - first)


@dataclass(frozen=True)
class Point:
    """One LED of a trail: when it lights (local seconds) and its place along the trail."""

    led: int
    at: float
    position: int


class Animation:
    """Base: ``duration`` seconds of motion, then an optional still ``hold``."""

    duration = 0.0

    def draw(self, frame: bytearray, t: float) -> None:
        raise NotImplementedError

    def hold(self, frame: bytearray) -> None:
        """No still image by default."""


class Trail(Animation):
    """A path lighting step by step in the monster's colour and rhythm; then its
    destination beats for ``dwell`` seconds; then the path stays faintly lit.

    The still layer already shows the monster at its destination; until the
    trail gets there, that spot is drawn as ``unreached`` (an empty location's
    glow) so the monster does not seem to be in two places.
    """

    def __init__(self, points: Sequence[Point], end: Sequence[int], look: Look, dwell: float,
                 unreached: bytes = OFF) -> None:
        self.points = tuple(points)
        self.end = frozenset(end)
        self.look = look
        self.unreached = unreached
        self.arrive = max((p.at for p in self.points), default=0.0)
        self.duration = self.arrive + dwell
        self.fresh = max(0.25, self.arrive / max(1, len(self.points)) * 2)

    def draw(self, frame: bytearray, t: float) -> None:
        colour, pattern = self.look.colour, self.look.pattern
        for point in self.points:
            if t >= point.at:
                put(frame, point.led, shade(colour, self._level(point, t) * pattern(t, point.position)))
            elif point.led in self.end:
                put(frame, point.led, self.unreached)

    def _level(self, point: Point, t: float) -> float:
        if t - point.at < self.fresh or (t >= self.arrive and point.led in self.end):
            return 1.0
        return TRAIL_LEVEL

    def hold(self, frame: bytearray) -> None:
        for point in self.points:
            put(frame, point.led, shade(self.look.colour, HOLD_END if point.led in self.end else HOLD_PATH))


class Pulse(Animation):
    """LEDs swelling and fading (0.8 s a beat) under the look's own rhythm."""

    def __init__(self, leds: Sequence[int], look: Look, duration: float, hold_level: float = 0.0) -> None:
        self.leds = tuple(leds)
        self.runs = Runs(leds)
        self.look = look
        self.duration = duration
        self.hold_level = hold_level

    def draw(self, frame: bytearray, t: float) -> None:
        swell = 0.55 + 0.45 * math.cos(2.0 * math.pi * t / 0.8)
        if self.look.pattern is not chase:  # the same level everywhere: paint runs
            self.runs.paint(frame, shade(self.look.colour, swell * self.look.pattern(t, 0)))
            return
        for position, led in enumerate(self.leds):
            put(frame, led, shade(self.look.colour, swell * self.look.pattern(t, position)))

    def hold(self, frame: bytearray) -> None:
        if self.hold_level > 0:
            self.runs.paint(frame, shade(self.look.colour, self.hold_level))


class Flash(Animation):
    """Cycle through ``colours`` (black = off), ``period`` seconds each: blinks,
    alternations (defeat: white / monster colour) and sparkles."""

    def __init__(self, leds: Sequence[int], colours: Sequence[Colour], period: float, duration: float,
                 stagger: bool = False) -> None:
        self.leds = tuple(leds)
        self.colours = tuple(bytes(colour) for colour in colours)
        self.period = period
        self.duration = duration
        self.stagger = stagger

    def draw(self, frame: bytearray, t: float) -> None:
        step = int(t / self.period)
        for position, led in enumerate(self.leds):
            shift = position if self.stagger else 0
            put(frame, led, self.colours[(step + shift) % len(self.colours)])


class Fade(Animation):
    """From a colour down to off: a Terror step going out, a mat going dark."""

    def __init__(self, leds: Sequence[int], colour: Colour, duration: float) -> None:
        self.leds = tuple(leds)
        self.colour = colour
        self.duration = duration

    def draw(self, frame: bytearray, t: float) -> None:
        fill(frame, self.leds, shade(self.colour, 1.0 - t / self.duration))


class Sweep(Animation):
    """A band of light crossing the board left to right ``passes`` times; then the
    board stays softly lit in the colour. ``leds`` come with their x (0..1),
    sorted by x, so the band is one slice of them found by bisection."""

    WIDTH = 0.15  # half the band, in board widths

    def __init__(self, leds: Sequence[int], xs: Sequence[float], colour: Colour, duration: float,
                 passes: int = 2, hold_level: float = 0.25) -> None:
        order = sorted(zip(xs, leds))
        self.xs = [x for x, _ in order]
        self.leds = [led for _, led in order]
        self.runs = Runs(self.leds)
        self.colour = colour
        self.duration = duration
        self.passes = passes
        self.hold_level = hold_level

    def draw(self, frame: bytearray, t: float) -> None:
        self.hold(frame)
        front = (t * self.passes / self.duration) % 1.0 * (1.0 + 2 * self.WIDTH) - self.WIDTH
        low, high = bisect_left(self.xs, front - self.WIDTH), bisect_right(self.xs, front + self.WIDTH)
        for x, led in zip(self.xs[low:high], self.leds[low:high]):
            near = 1.0 - abs(x - front) / self.WIDTH
            if near > self.hold_level:
                put(frame, led, shade(self.colour, near))

    def hold(self, frame: bytearray) -> None:
        self.runs.paint(frame, shade(self.colour, self.hold_level))


class Together(Animation):
    """Several animations as one step of the show (a defeat: the location flashes
    while the mat goes dark)."""

    def __init__(self, parts: Sequence[Animation]) -> None:
        self.parts = tuple(parts)
        self.duration = max((part.duration for part in self.parts), default=0.0)

    def draw(self, frame: bytearray, t: float) -> None:
        for part in self.parts:
            if t < part.duration:
                part.draw(frame, t)

    def hold(self, frame: bytearray) -> None:
        for part in self.parts:
            part.hold(frame)
