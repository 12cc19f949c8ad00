"""The still picture between animations, as the pack describes it and the LEDs draw it.

Why the pack describes it: what is worth lighting (a monster's location, how
far the Terror track has gone and when it warns, which mat is frenzied, whose
turn it is) is the game's, and the pack reads it from its own *public view*.
The LED layer only draws a ``Scene``: it never reads a game's view itself.

Drawn in this order, a later one over an earlier one on a shared LED: a faint
glow under every location, the markers, the lit connections (a barricade on
the line between two squares), each track's steps, the mats, the active seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from .strip import Colour


@dataclass(frozen=True)
class Marker:
    """Something standing at a location, lit in its colour (a monster, a Twig Blight)."""

    location: str
    colour: Colour


@dataclass(frozen=True)
class LineLight:
    """A connection lit in its colour along its own LEDs (a barricade on the line between two
    squares, a road that is closed): nothing shows where the layout gives it no LEDs."""

    a: str
    b: str
    colour: Colour


@dataclass(frozen=True)
class TrackLevel:
    """How far a track has gone: steps 1 to ``level`` lit (step 0 is where it starts, dark);
    ``warning`` draws them in the warning look (the game is close to being lost)."""

    level: int
    warning: bool = False


@dataclass(frozen=True)
class MatLight:
    """A mat lit in ``colour``: full when ``on`` (the frenzied monster's), else dim."""

    colour: Colour
    on: bool = False


@dataclass(frozen=True)
class Scene:
    markers: tuple[Marker, ...] = ()
    lines: tuple[LineLight, ...] = ()
    tracks: Mapping[str, TrackLevel] = field(default_factory=dict)
    mats: Mapping[str, MatLight] = field(default_factory=dict)
    seat: int | None = None  # the active seat, None when no one's turn is shown


#: Nothing to light but the glow (a change the pack cannot read, a game that has not begun).
EMPTY = Scene()

__all__ = ["EMPTY", "LineLight", "MatLight", "Marker", "Scene", "TrackLevel"]
