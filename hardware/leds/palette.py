"""Colours and blink patterns, chosen so that colour is never the only signal.

Colours come from the Okabe-Ito palette (Okabe & Ito, "Color Universal
Design", 2008), whose eight colours stay distinct for the common forms of
colour blindness. A *look* is a colour and a *pattern* (steady, double blink,
slow breathing, marching chase) that a figure's trail and its pulses follow,
so two figures are told apart by rhythm as well as hue. Which figure has which
look is the pack's (its LED module gives its figures theirs);
the roles the board itself draws are fixed here (docs/leds.md has the table):

=================  ===============  =================================
what               colour           pattern / shape
=================  ===============  =================================
a track (Terror)   yellow           solid bar
its warning        vermillion       hatched bar (every other LED dim)
active seat        warm white       solid
idle glow          warm white, 4 %  solid
threat glow        vermillion, dim  solid under a threatened location
a figure without   sky blue, ...    steady
a look of its own
=================  ===============  =================================
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from .strip import BLACK as BLACK  # re-exported: the palette's "off"
from .strip import Colour as Colour

# Okabe-Ito
ORANGE: Colour = (230, 159, 0)
SKY_BLUE: Colour = (86, 180, 233)
BLUISH_GREEN: Colour = (0, 158, 115)
YELLOW: Colour = (240, 228, 66)
BLUE: Colour = (0, 114, 178)
VERMILLION: Colour = (213, 94, 0)
REDDISH_PURPLE: Colour = (204, 121, 167)
WHITE: Colour = (255, 244, 229)  # a warm white: full white is harsh under a board
OKABE_ITO = (ORANGE, SKY_BLUE, BLUISH_GREEN, YELLOW, BLUE, VERMILLION, REDDISH_PURPLE)

#: level(t seconds since the animation began, position along its LEDs) -> 0..1
Pattern = Callable[[float, int], float]


def steady(t: float, position: int) -> float:
    return 1.0


def double_blink(t: float, position: int) -> float:
    """Two short flashes a second, resting at a quarter so the trail stays visible."""
    phase = t % 1.0
    return 1.0 if phase < 0.12 or 0.24 <= phase < 0.36 else 0.25


def breathe(t: float, position: int) -> float:
    """A slow swell, 1.6 s per breath, never below a third."""
    return 0.35 + 0.65 * (0.5 - 0.5 * math.cos(2.0 * math.pi * t / 1.6))


def chase(t: float, position: int) -> float:
    """Marching ants: every other LED bright, the pair swapping 6 times a second."""
    return 1.0 if (position + int(t * 6.0)) % 2 == 0 else 0.2


def blink(t: float, position: int) -> float:
    """Plain 2 Hz on/off, for warnings."""
    return 1.0 if t % 0.5 < 0.25 else 0.0


@dataclass(frozen=True)
class Look:
    """How one figure shows: a colour and a rhythm."""

    colour: Colour
    pattern: Pattern
    pattern_name: str


_SPARE = (SKY_BLUE, YELLOW, ORANGE, REDDISH_PURPLE)
NEUTRAL = Look(WHITE, steady, "steady")


def spare_look(name: str) -> Look:
    """A look for a figure its pack gave none: a spare colour (the same for the same name), steady."""
    return Look(_SPARE[sum(name.encode()) % len(_SPARE)], steady, "steady")


def scaled(colour: Colour, level: float) -> Colour:
    level = min(1.0, max(0.0, level))
    return int(colour[0] * level), int(colour[1] * level), int(colour[2] * level)


def shade(colour: Colour, level: float) -> bytes:
    """``colour`` at ``level`` (0..1) as the 3 bytes a frame holds, from a cache:
    frames are composed many times a second from few distinct shades."""
    return _shade(colour, int(min(1.0, max(0.0, level)) * 255.0 + 0.5))


@lru_cache(maxsize=16384)
def _shade(colour: Colour, step: int) -> bytes:
    return bytes(channel * step // 255 for channel in colour)
