"""Has the camera moved since the tray was calibrated? A check of each settled frame.

Why: the tray view is a fixed warp of the camera frame, and the empty-tray
reference is a fixed picture. A camera nudged, turned or knocked off its stand
puts the tray's walls where the reference has felt, shifts every die's place
against the picture the reader compares it with, and (turned or tilted) changes
how the dice look. Reading on is guessing; so the reader stops, says so, and
asks for a new tray calibration.

How: the edges around the tray (its walls and rim, a band along the four
corners the owner tapped, inside and out) in a small grey copy of the frame,
against the same band in the frame the tray was calibrated on, by phase
correlation. It gives the shift between the two and how well they line up
(the response: near 1 for the same picture, lower as dice cover part of the
band or the light changes, far lower when the camera turned, tilted or zoomed,
which no shift undoes). Edges, not grey levels, so a lamp switched on does
not count as a move; the band, not the whole frame, so dice in the middle of
the tray do not either.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .imaging import Floats, Image

SIDE = 256  # px of the square the frame is shrunk into (an even size the FFT takes as it is)
BAND = 0.16  # the band's width, as a share of the tray's longer side in the frame
STRUCTURE = 60.0  # the band's strongest edges (99th percentile) must reach this to check anything


@dataclass(frozen=True)
class SceneSettings:
    """``max_shift``: the largest shift that is not a move, as a share of the tray's longer side
    in the frame (at least ``least_shift`` px); ``min_response``: below this the frame does not
    line up with the calibrated one at all."""

    max_shift: float = 0.015
    least_shift: float = 3.0
    min_response: float = 0.45


@dataclass(frozen=True)
class SceneCheck:
    """What one frame says about the camera: how far it shifted and how well it lines up."""

    shift: float  # frame px
    response: float
    moved: bool
    why: str = ""


class SceneReference:
    """The edge band of the frame the tray was calibrated on, ready to compare frames with.

    ``corners``: the tray's four corners in the frame (what the owner tapped or the markers
    gave); ``picture``: the grey frame shrunk into SIDE px (what is saved)."""

    def __init__(self, picture: Image, corners: np.ndarray, frame_size: tuple[int, int],
                 settings: SceneSettings = SceneSettings(), inner: bool = False) -> None:
        """``corners``: the tray's rim in the frame (four corners, or an outline's points);
        ``inner``: only the band's part on the tray's side of the rim counts (a tray outlined
        on a table: the table and cloth around it change from shot to shot)."""
        self.picture, self.corners, self.frame_size, self.settings = picture, corners, frame_size, settings
        self.scale = SIDE / max(frame_size)
        self.longest = _longest(corners)
        self.band = _band(corners * self.scale, SIDE, self.longest * self.scale, inner)
        edges = _edges(picture)
        self.strongest = float(np.percentile(edges[self.band > 0.5], 99)) if (self.band > 0.5).any() else 0.0
        self.edges = np.minimum(edges, self.strongest) * self.band

    @classmethod
    def of_frame(cls, frame: Image, corners: np.ndarray, settings: SceneSettings = SceneSettings(),
                 inner: bool = False) -> "SceneReference":
        height, width = frame.shape[:2]
        return cls(shrunk_grey(frame), np.asarray(corners, np.float64), (width, height), settings, inner)

    @property
    def usable(self) -> bool:
        """Whether the tray's edges stand out enough to line frames up by: a camera that sees only
        a plain felt has nothing to go by, and then a move is not noticed (the set-up says so)."""
        return self.strongest >= STRUCTURE

    def check(self, frame: Image) -> SceneCheck:
        """The frame against the calibrated one (a frame of another size: ``ValueError``). A die's
        edges count no more than the strongest of the tray's own, so dice lying at the walls do
        not outweigh them."""
        height, width = frame.shape[:2]
        if (width, height) != self.frame_size:
            raise ValueError(f"a {width}x{height} frame against a {self.frame_size[0]}x{self.frame_size[1]} reference")
        if not self.usable:
            return SceneCheck(0.0, 1.0, False)
        edges = np.minimum(_edges(shrunk_grey(frame)), self.strongest) * self.band
        (dx, dy), response = cv2.phaseCorrelate(self.edges, edges)
        shift = math.hypot(dx, dy) / self.scale
        limit = max(self.settings.least_shift, self.settings.max_shift * self.longest)
        if response < self.settings.min_response:
            why = ("the camera has moved since the tray was calibrated (the tray's edges no longer line up): "
                   "calibrate the tray again")
            return SceneCheck(shift, float(response), True, why)
        if shift > limit:
            why = (f"the camera has moved by about {shift:.0f} px since the tray was calibrated: "
                   "calibrate the tray again")
            return SceneCheck(shift, float(response), True, why)
        return SceneCheck(shift, float(response), False)


def shrunk_grey(frame: Image) -> Image:
    """The frame in grey, its longer side SIDE px, in the top-left of a SIDE x SIDE square (the
    rest repeats its last row or column, so the square's filling makes no edge)."""
    scale = SIDE / max(frame.shape[:2])
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    step = int(max(frame.shape[:2]) // (2 * SIDE))
    if step >= 2:  # a big frame: first a whole factor (OpenCV's fast averaging), then the rest
        height, width = grey.shape[0] // step, grey.shape[1] // step
        grey = cv2.resize(np.ascontiguousarray(grey[:height * step, :width * step]), (width, height),
                          interpolation=cv2.INTER_AREA)
    small = cv2.resize(grey, (max(1, min(SIDE, round(frame.shape[1] * scale))),
                              max(1, min(SIDE, round(frame.shape[0] * scale)))), interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.copyMakeBorder(small, 0, SIDE - small.shape[0], 0, SIDE - small.shape[1],
                                         cv2.BORDER_REPLICATE), dtype=np.uint8)


def _edges(picture: Image) -> Floats:
    soft = cv2.GaussianBlur(picture.astype(np.float32), (0, 0), 1.0)
    return np.asarray(cv2.magnitude(cv2.Sobel(soft, cv2.CV_32F, 1, 0), cv2.Sobel(soft, cv2.CV_32F, 0, 1)),
                      dtype=np.float32)


def _longest(corners: np.ndarray) -> float:
    """The tray's size in the frame: its longest side (four corners), or an outline's widest extent."""
    if len(corners) == 4:
        return max(float(np.linalg.norm(corners[(i + 1) % 4] - corners[i])) for i in range(4))
    return float(np.max(corners.max(axis=0) - corners.min(axis=0)))


def _band(corners: np.ndarray, side: int, longest: float, inner: bool) -> Floats:
    """A soft band along the tray's outline (its walls and rim), 0 elsewhere; ``inner``: only its
    part inside the outline, and a few px over it (the rim itself)."""
    band = np.zeros((side, side), np.uint8)
    polygon = [np.round(corners).astype(np.int32)]
    cv2.polylines(band, polygon, True, 255, max(2, int(BAND * longest)))
    if inner:
        inside = np.zeros_like(band)
        cv2.fillPoly(inside, polygon, 255)
        band = np.asarray(cv2.bitwise_and(band, cv2.dilate(inside, np.ones((5, 5), np.uint8))), np.uint8)
    return np.asarray(cv2.GaussianBlur(band.astype(np.float32) / 255.0, (0, 0), 3.0), dtype=np.float32)
