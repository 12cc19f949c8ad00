"""Engine effects turned into animations ("cues"): one small handler per effect
kind, filed in the pack's ``CueBook``, so a new kind is a new function, not
another branch, and each game brings its own cues.

A handler gets the stage (layout, board shape, pace), the effect's ``data``
and the pack's public view after the change, and returns the animation to
play, or None when the effect shows nothing on the LEDs (a die roll, a note).
Effects of kinds the book does not have are ignored: the LEDs show what is on
the board; the tablet says everything else in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence

from .animations import Animation, Point, Pulse, Sweep
from .board import BoardShape
from .layout import Layout, Leds
from .palette import VERMILLION, Colour, Look, breathe
from .positions import led_positions

Data = Mapping[str, object]
View = Mapping[str, object]  # a pack's public view


@dataclass(frozen=True)
class Timing:
    """Seconds. The defaults are a readable pace at the table; ``scaled`` speeds
    everything up for tests and slows it down for a "steady" setting."""

    step: float = 0.5  # a trail advances one location
    dwell: float = 1.5  # the destination beats after the trail arrives
    pulse: float = 2.0  # a target (a figure attacked)
    flash: float = 1.2  # short signals (a track moving, a turn, a rescue, a defeat)
    finale: float = 5.0  # the game's end (won / lost)

    def scaled(self, factor: float) -> "Timing":
        return Timing(*(value * factor for value in (self.step, self.dwell, self.pulse, self.flash, self.finale)))


@dataclass(frozen=True)
class Style:
    """Still levels (0..1 of a colour) of the board between animations."""

    idle_glow: float = 0.04  # every location, so the board looks alive
    marker: float = 0.3  # each marker's location (a monster standing there)
    line: float = 0.6  # a lit connection (a barricade on its line)
    mat_dim: float = 0.15  # a mat that is lit but not on (a monster in play; the one that is on is full)
    seat: float = 0.6  # the active player's seat
    track: float = 0.8  # a track's lit steps (a Terror bar)
    hatch: float = 0.35  # every other step in the warning look
    threat: float = 0.22  # the threat glow's brightest (a forecast's place at 1.0): dim, under every marker


@dataclass(frozen=True)
class Stage:
    """What every handler may use: the layout, the board and the pace."""

    layout: Layout
    shape: BoardShape
    timing: Timing = Timing()
    style: Style = Style()
    _xs: dict[int, float] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        self._xs.update({p.index: p.x for p in led_positions(self.layout, self.shape)})

    def board_leds(self) -> tuple[list[int], list[float]]:
        """Every LED on the board picture, left to right, with its x."""
        ordered = sorted(self._xs.items(), key=lambda item: item[1])
        return [i for i, _ in ordered], [x for _, x in ordered]


Handler = Callable[[Stage, Data, View], Animation | None]


def finale_sweep(stage: Stage, colour: Colour) -> Animation:
    """A game's happy end: ``colour`` swept twice across the whole board, then a low glow."""
    leds, xs = stage.board_leds()
    return Sweep(leds, xs, colour, stage.timing.finale, passes=2, hold_level=0.25)


def finale_pulse(stage: Stage) -> Animation:
    """A game lost: the whole board breathing vermillion, then a faint glow."""
    leds, _ = stage.board_leds()
    return Pulse(leds, Look(VERMILLION, breathe, "slow breathing"), stage.timing.finale, hold_level=0.12)


class CueBook:
    """A pack's cues: which handler plays each effect kind. The pack builds its book
    (``CueBook({"monster-moved": moved, ...})`` or ``book.add(...)``) and hands it to
    the LED board; nothing is registered at import, and two packs never share one."""

    def __init__(self, handlers: Mapping[str, Handler] | None = None) -> None:
        self._handlers: dict[str, Handler] = dict(handlers or {})

    def add(self, kinds: str | Iterable[str], handler: Handler) -> "CueBook":
        for kind in (kinds,) if isinstance(kinds, str) else kinds:
            if kind in self._handlers:
                raise ValueError(f"two cues for the effect kind {kind!r}")
            self._handlers[kind] = handler
        return self

    def kinds(self) -> frozenset[str]:
        return frozenset(self._handlers)

    def animations(self, stage: Stage, effects: Sequence[Mapping[str, object]], view: View) -> list[Animation]:
        """The show for one change, in the order the effects happened."""
        found = []
        for effect in effects:
            handler = self._handlers.get(str(effect.get("kind")))
            data = effect.get("data")
            animation = handler(stage, data if isinstance(data, Mapping) else {}, view) if handler else None
            if animation is not None and animation.duration > 0:
                found.append(animation)
        return found


def trail_points(layout: Layout, path: Sequence[str], step: float) -> list[Point]:
    """Each LED along the path with the moment it lights: the start at once, a
    connection's LEDs spread over its step, each location at the step's end."""
    points: list[Point] = []
    seen: set[int] = set()

    def add(leds: Leds, at: float) -> None:
        for led in leds:
            if led not in seen:
                seen.add(led)
                points.append(Point(led, at, len(points)))

    add(layout.location(path[0]), 0.0)
    for k, (a, b) in enumerate(zip(path, path[1:])):
        segment = layout.segment(a, b)
        for j, led in enumerate(segment):
            add((led,), (k + (j + 1) / (len(segment) + 1)) * step)
        add(layout.location(b), (k + 1) * step)
    return points
