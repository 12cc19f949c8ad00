"""Tell the owner's die kinds apart in the tray: size, shape and colour.

Why these three: from straight above a d20 is a hexagon that fills about 80%
of its bounding rectangle while a d6 or Monster die is a square that fills
nearly all of it; and the owner's dice of different kinds usually differ in
size or colour. Each feature is measured against what the calibration saw,
in units of how much it may vary; a region far from every kind is not a die
(a coin, a finger tip, a figure knocked into the tray).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .segment import Blob

#: How much each feature may wander between rolls of the same die.
SIZE_SPREAD = 0.10  # share of the diameter (perspective, a die leaning on the wall)
FILL_SPREAD = 0.07
HUE_SPREAD = 14.0  # Lab a/b units
LIGHT_SPREAD = 35.0  # Lab L units (light changes across the tray)
FAR = 3.2  # beyond this distance from every kind, it is not one of the owner's dice


@dataclass(frozen=True)
class KindModel:
    kind: str
    diameter: float
    fill: float
    colour: tuple[float, float, float]


@dataclass(frozen=True)
class KindGuess:
    kind: str | None  # None: not one of the owner's dice
    distance: float
    runner_up: float  # distance to the next kind (inf with one kind)


def distance(blob: Blob, model: KindModel) -> float:
    """How far a found region is from a kind, in spreads (about 1 = typical, 3 = unlikely)."""
    size = (blob.diameter - model.diameter) / (SIZE_SPREAD * model.diameter)
    fill = (blob.fill - model.fill) / FILL_SPREAD
    hue = math.hypot(blob.colour[1] - model.colour[1], blob.colour[2] - model.colour[2]) / HUE_SPREAD
    light = (blob.colour[0] - model.colour[0]) / LIGHT_SPREAD
    return math.sqrt(size * size + fill * fill + hue * hue + light * light)


def classify(blob: Blob, models: list[KindModel]) -> KindGuess:
    """The nearest kind, or None if the region is far from all of them."""
    ranked = sorted((distance(blob, m), m.kind) for m in models)
    if not ranked:
        return KindGuess(None, math.inf, math.inf)
    best, kind = ranked[0]
    runner = ranked[1][0] if len(ranked) > 1 else math.inf
    return KindGuess(kind if best <= FAR else None, best, runner)
