"""Does a found die look like the calibrated die, lying flat, whole and sharp?

Why: the reader compares a die with the owner's face photos; a die that does
not look like those photos (leaning on the tray's wall, half out of view,
blurred, another die, another light) is where it reads wrong, so it refuses
such a die before it reads it, and says why. The same measures check each face
photo at calibration, where a tilted or clipped photo would make every later
throw of that face read wrong.

What is measured, on the region the tray finder found:

* **size**: its diameter (a disk of its area). A die leaning on the wall shows
  a side face too and looks bigger; one half out of view looks smaller;
* **shape**: how long its outline is against its width (``aspect``, the
  sides of its smallest turned rectangle) and how much of that rectangle it
  fills (``fill``): from straight above a cube is a square (1.0, 0.97), a d20
  a hexagon (up to 1.16, 0.8); a tilted cube is longer and its outline less
  square;
* **colour**: its body's hue (where it has one), how colourful it is, and its
  lightness; light changes lightness and colourfulness far more than hue;
* **sharpness**: the detail in its middle against its contrast (a Laplacian's
  spread over the grey spread), which blur or a moving die takes away;
* **at the edge**: whether the region touches the tray view's border, where
  a die can be cut off.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

import cv2
import numpy as np

from .imaging import Image, Mask, cut, disk
from .segment import Blob, touches_rim

SHARP_SIZE = 48  # px the die is cut at to measure sharpness
HUED = 20.0  # a colourfulness (Lab a/b distance from grey) from which a die's hue is its own


@dataclass(frozen=True)
class Look:
    diameter: float
    fill: float
    aspect: float
    colour: tuple[float, float, float]  # Lab, OpenCV's 8-bit scale
    sharpness: float
    at_edge: bool = False
    contrast: float = 0.0  # the grey spread in its middle: a blank face has little
    off_axis: float = 0.0  # how far from under the camera: 0 in the frame's middle, 1 at its corner

    @property
    def chroma(self) -> float:
        return math.hypot(self.colour[1] - 128.0, self.colour[2] - 128.0)

    @property
    def hue(self) -> float:
        """Degrees, -180..180 (meaningful only when ``chroma`` >= HUED)."""
        return math.degrees(math.atan2(self.colour[2] - 128.0, self.colour[1] - 128.0))


def look_of(view: Image, blob: Blob, edge: int = 2, rim: Mask | None = None, off_axis: float = 0.0) -> Look:
    """The measures of one found die; ``edge``: px from the view's border that count as touching it;
    ``rim``: the band along a tray outline's rim (``TrayFinder.rim``), for a tray of any shape;
    ``off_axis``: where it lies against the camera's axis (``TrayGeometry.off_axis``)."""
    x, y, w, h = blob.box
    height, width = view.shape[:2]
    touching = x <= edge or y <= edge or x + w >= width - edge or y + h >= height - edge
    touching = touching or (rim is not None and touches_rim(blob, rim))
    detail, contrast = sharpness(view, blob)
    return Look(blob.diameter, blob.fill, blob.aspect, blob.colour, detail, touching, contrast, off_axis)


def sharpness(view: Image, blob: Blob) -> tuple[float, float]:
    """Detail against contrast in the die's middle (about 2-5 for a sharp die, under 1 once blurred
    by more than a pixel and a half, measured on the dicetower photos), and that contrast."""
    patch = cut(view, blob.centre, blob.diameter, SHARP_SIZE)
    grey = np.asarray(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), dtype=np.float32)
    middle = disk(SHARP_SIZE, 0.4 * SHARP_SIZE)
    laplacian = np.asarray(cv2.Laplacian(grey, cv2.CV_32F, ksize=3), dtype=np.float32)
    contrast = float(grey[middle].std())
    return float(laplacian[middle].std() / (contrast + 2.0)), contrast


def hue_gap(a: float, b: float) -> float:
    """Degrees between two hues, 0..180."""
    gap = abs(a - b) % 360.0
    return min(gap, 360.0 - gap)


#: How much more of its sides a die shows per unit of ``off_axis`` (0 under the camera, 1 at the
#: frame's corner), seen by a camera straight above: its outline longer against its width, less
#: full, and bigger. A wide lens sees a cube at the frame's corner about 35 degrees off its axis,
#: its side then about 0.7 of its top: these allow most of that.
OFF_AXIS_ASPECT = 0.6
OFF_AXIS_FILL = 0.15
OFF_AXIS_SIZE = 0.3


@dataclass(frozen=True)
class Tolerance:
    """How far a read die may stray from what the face photos showed. Chosen on the dicetower
    photos' new throws (turned, moved, other light, blur; docs/dice.md "Looks"): ``size``
    share of the diameter either way; ``aspect`` and ``fill`` added to the photos' widest;
    ``hue`` degrees; ``chroma`` a share either way plus ``chroma_plus`` units; ``light``
    Lab L units either way; ``sharpness`` the share of the least sharp photo's; ``side_*``: the
    more a die further from the camera's axis than any photo's may show of its sides (per unit of
    ``off_axis`` beyond theirs): longer, less full and bigger.""" 

    size: float = 0.10
    aspect: float = 0.08
    fill: float = 0.05
    hue: float = 20.0
    chroma: float = 0.4
    chroma_plus: float = 10.0
    light: float = 55.0
    sharpness: float = 0.4
    side_aspect: float = OFF_AXIS_ASPECT
    side_fill: float = OFF_AXIS_FILL
    side_size: float = OFF_AXIS_SIZE


@dataclass(frozen=True)
class LookRange:
    """The range the calibration photos of one die kind span."""

    diameter: tuple[float, float]
    fill: float  # the least
    aspect: float  # the most
    hue: tuple[float, float] | None  # the span of hues (None: a grey, white or black die)
    chroma: tuple[float, float]
    light: tuple[float, float]
    sharpness: float  # the least, of the photos of marked faces
    contrast: float = 0.0  # the least contrast of those photos (a die with far less is read as blank)
    off_axis: float = 0.0  # the furthest from the camera's axis a photo's die lay

    @classmethod
    def of(cls, looks: Sequence[Look], marked: Sequence[Look] | None = None) -> "LookRange":
        """The range of ``looks``; sharpness and contrast from ``marked`` (the photos of faces
        that are not blank; default all): a blank face has no detail to be sharp or blurred."""
        hues = [look.hue for look in looks if look.chroma >= HUED]
        hue = _hue_span(hues) if len(hues) == len(looks) else None
        inked = list(marked) if marked else list(looks)
        return cls((min(k.diameter for k in looks), max(k.diameter for k in looks)), min(k.fill for k in looks),
                   max(k.aspect for k in looks), hue, (min(k.chroma for k in looks), max(k.chroma for k in looks)),
                   (min(k.colour[0] for k in looks), max(k.colour[0] for k in looks)),
                   min(k.sharpness for k in inked), min(k.contrast for k in inked), max(k.off_axis for k in looks))

    def problem(self, look: Look, kind_name: str, tolerance: Tolerance = Tolerance()) -> str:
        """Why ``look`` is not the calibrated die lying flat, whole and sharp ("" if it is)."""
        for check in (self._edge, self._shape, self._size, self._colour, self._sharp):
            why = check(look, kind_name, tolerance)
            if why:
                return why
        return ""

    def _beyond(self, look: Look) -> float:
        """How much further from the camera's axis than any photo's this die lies (0 if not)."""
        return max(0.0, look.off_axis - self.off_axis)

    def _longest(self, look: Look, tolerance: Tolerance) -> float:
        return self.aspect + tolerance.aspect + tolerance.side_aspect * self._beyond(look)

    def _least_fill(self, look: Look, tolerance: Tolerance) -> float:
        return self.fill - tolerance.fill - tolerance.side_fill * self._beyond(look)

    def _edge(self, look: Look, name: str, tolerance: Tolerance) -> str:
        """At the view's edge a die's side cannot be told from the die cut off: the photos' own shape."""
        cut_off = (look.diameter < (1 - tolerance.size) * self.diameter[0] or look.fill < self.fill - tolerance.fill
                   or look.aspect > self.aspect + tolerance.aspect)
        return "part of the die is out of the tray's view: roll again" if look.at_edge and cut_off else ""

    def _shape(self, look: Look, name: str, tolerance: Tolerance) -> str:
        if look.aspect > self._longest(look, tolerance) or look.fill < self._least_fill(look, tolerance):
            return f"the {name} is not lying flat (leaning on the wall?): its top face is not square to the camera"
        return ""

    def _size(self, look: Look, name: str, tolerance: Tolerance) -> str:
        if look.diameter > (1 + tolerance.size + tolerance.side_size * self._beyond(look)) * self.diameter[1]:
            return f"this looks bigger than the calibrated {name} (leaning, or two dice together?)"
        if look.diameter < (1 - tolerance.size) * self.diameter[0]:
            return f"this looks smaller than the calibrated {name} (another die, or part of it hidden?)"
        return ""

    def _colour(self, look: Look, name: str, tolerance: Tolerance) -> str:
        low, high = self.chroma
        hue_off = (self.hue is not None and look.chroma >= HUED and
                   hue_gap(look.hue, _mid(self.hue)) > tolerance.hue + _half(self.hue))
        most = max((1 + tolerance.chroma) * high, HUED) + tolerance.chroma_plus  # a colour cast tints a white die
        chroma_off = not (1 - tolerance.chroma) * low - tolerance.chroma_plus <= look.chroma <= most
        light_off = not self.light[0] - tolerance.light <= look.colour[0] <= self.light[1] + tolerance.light
        if hue_off or chroma_off or light_off:
            return f"its colour is not the calibrated {name}'s (another die, or other light?)"
        return ""

    def _sharp(self, look: Look, name: str, tolerance: Tolerance) -> str:
        faint = look.contrast < 0.5 * self.contrast  # a blank face: nothing to be blurred
        if not faint and look.sharpness < tolerance.sharpness * self.sharpness:
            return "the picture of the die is blurred (still rolling, or the camera out of focus?)"
        return ""

    def to_plain(self) -> dict[str, object]:
        return {"diameter": list(self.diameter), "fill": self.fill, "aspect": self.aspect,
                "hue": None if self.hue is None else list(self.hue), "chroma": list(self.chroma),
                "light": list(self.light), "sharpness": self.sharpness, "contrast": self.contrast,
                "off_axis": self.off_axis}

    @classmethod
    def from_plain(cls, data: Mapping[str, object], where: str) -> "LookRange":
        """From a saved calibration; ``ValueError`` naming the field that is wrong."""
        hue = data.get("hue")
        return cls(_pair(data.get("diameter"), f"{where}.diameter"), _real(data.get("fill"), f"{where}.fill"),
                   _real(data.get("aspect"), f"{where}.aspect"),
                   None if hue is None else _pair(hue, f"{where}.hue", -360.0),
                   _pair(data.get("chroma"), f"{where}.chroma"), _pair(data.get("light"), f"{where}.light"),
                   _real(data.get("sharpness"), f"{where}.sharpness"), _real(data.get("contrast"), f"{where}.contrast"),
                   _real(data.get("off_axis", 0.0), f"{where}.off_axis"))


def _hue_span(hues: Sequence[float]) -> tuple[float, float]:
    """The shortest arc holding every hue, as (start, end) degrees with end >= start."""
    ordered = sorted(h % 360.0 for h in hues)
    gaps = [ordered[i + 1] - ordered[i] for i in range(len(ordered) - 1)] + [ordered[0] + 360.0 - ordered[-1]]
    widest = int(np.argmax(gaps))  # the arc holding them all is the circle less its widest gap
    start = ordered[(widest + 1) % len(ordered)]
    return start, start + 360.0 - gaps[widest]


def _mid(span: tuple[float, float]) -> float:
    return (span[0] + span[1]) / 2.0


def _half(span: tuple[float, float]) -> float:
    return (span[1] - span[0]) / 2.0


def _real(value: object, where: str, low: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < low:
        raise ValueError(f"{where}: expected a number")
    return float(value)


def _pair(value: object, where: str, low: float = 0.0) -> tuple[float, float]:
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"{where}: expected [least, most]")
    first, second = _real(value[0], where, low), _real(value[1], where, low)
    if second < first:
        raise ValueError(f"{where}: the least is above the most")
    return first, second
