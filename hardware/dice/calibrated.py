"""What calibration gives the dice reader: the tray's geometry and each die kind's profile.

Why here, below ``calibration.dice``: the reader needs these shapes to read,
and the calibration builds, checks and saves them; keeping the shapes with the
reader lets ``calibration`` import ``hardware.dice`` and never the other way.
The die kinds are named here too (their faces, and which face is "20"), the
one list the reader, calibration and the tablet share.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

import cv2
import numpy as np

from companion.engine.dice import DICE
from companion.engine.errors import Refusal

from .imaging import Image, Mask, Point
from .looks import LookRange
from .scene import SceneReference
from .segment import FindSettings
from .templates import Reference

#: Each die kind's faces by label, its name and plural: from the engine's die-kind registry, so a
#: kind the games add is one the camera can be calibrated for.
KIND_FACES: dict[str, tuple[str, ...]] = {kind.id: kind.labels for kind in DICE.kinds()}
KIND_NAMES = {kind.id: kind.name for kind in DICE.kinds()}
KIND_PLURALS = {kind.id: kind.plural for kind in DICE.kinds()}
STYLES = ("numerals", "pips", "symbols")
#: How a die of each kind looks from straight above when it lies flat: its outline's most
#: aspect (longer over shorter side of its smallest rectangle) and least fill of that rectangle.
#: A cube is a square (1.0, 0.97); a d20 a hexagon (up to 1.16, 0.8); the limits leave room for
#: a shadow or a lens that is not quite flat. A face photo outside them is refused: the die is
#: tilted, or the camera is not looking straight down. (A photo less square than the others is
#: refused too: ``calibration.dice.photo_problem``.)
FLAT_SHAPES: dict[str, tuple[float, float]] = {"d20": (1.30, 0.68), "monster": (1.20, 0.85), "d6": (1.20, 0.85)}
MAX_TRAY_SIDE = 900  # px of the top-down view: enough for 1-inch dice, cheap to read


class CalibrationError(Refusal):
    """A capture, an answer or a saved file the calibration refuses, with why: a ``Refusal``, so a
    caller that takes every refusal of the owner's data (a backup's restore) reads it the same way."""


# -- the tray ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class TrayGeometry:
    """How to turn a camera frame into the top-down tray view.

    ``homography``: 3x3, row by row; ``size``: the view's (width, height);
    ``frame_size``: the camera frame it applies to; ``method``: "aruco",
    "taps" (four corners), "outline" (a tray of any shape: the owner's taps along
    its rim) or "whole-frame" (no tray calibration: the frame as it is).
    ``outline``: the tray's rim in the view, x, y pairs (``()``: the whole view is
    tray). Everything outside it is not tray (a table, a cloth, a hand resting
    there): the finder, the settle check and the camera check ignore it.
    """

    homography: tuple[float, ...]
    size: tuple[int, int]
    frame_size: tuple[int, int]
    method: str
    outline: tuple[float, ...] = ()

    def matrix(self) -> np.ndarray:
        return np.asarray(self.homography, dtype=np.float64).reshape(3, 3)

    def warp(self, frame: Image) -> Image:
        """The tray view of ``frame``; refuses a frame of another size (recalibrate after a resolution change)."""
        height, width = frame.shape[:2]
        if (width, height) != self.frame_size:
            raise CalibrationError(f"the camera gives {width}x{height} frames but the tray was calibrated on "
                                   f"{self.frame_size[0]}x{self.frame_size[1]}: calibrate the tray again")
        if self.method == "whole-frame":
            return frame
        matrix = self.matrix()
        if np.allclose(matrix[2], (0.0, 0.0, 1.0)):  # a straight-down outline: a cut and a scale, cheaper
            return np.asarray(cv2.warpAffine(frame, matrix[:2], self.size, flags=cv2.INTER_LINEAR), dtype=np.uint8)
        return np.asarray(cv2.warpPerspective(frame, matrix, self.size, flags=cv2.INTER_LINEAR), dtype=np.uint8)

    def rim(self) -> np.ndarray:
        """The tray's rim in the view, (N, 2): the outline, or the view's four corners."""
        if self.outline:
            return np.asarray(self.outline, np.float64).reshape(-1, 2)
        width, height = self.size
        return np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], np.float64)

    def inside(self) -> Mask | None:
        """The view's pixels inside the outline (None: the whole view is tray)."""
        if not self.outline:
            return None
        mask = np.zeros((self.size[1], self.size[0]), np.uint8)
        cv2.fillPoly(mask, [np.round(self.rim()).astype(np.int32)], 1)
        return np.asarray(mask, np.bool_)

    def frame_rim(self) -> np.ndarray:
        """The tray's rim in the camera frame, (N, 2): the outline as tapped, or the four corners."""
        if not self.outline:
            return self.corners()
        points = self.rim().reshape(1, -1, 2)
        return np.asarray(cv2.perspectiveTransform(points, np.linalg.inv(self.matrix())), np.float64).reshape(-1, 2)

    def corners(self) -> np.ndarray:
        """The tray's four corners in the camera frame (top-left, top-right, bottom-right, bottom-left)."""
        width, height = self.size
        view = np.array([[[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]]], np.float64)
        return np.asarray(cv2.perspectiveTransform(view, np.linalg.inv(self.matrix())), np.float64).reshape(4, 2)

    def off_axis(self, point: Point) -> float:
        """How far a point of the view lies from the camera's axis (taken as the frame's middle): 0
        there, 1 at the frame's corner. A die there, seen by a camera straight above, shows more of
        its sides (``looks.OFF_AXIS_ASPECT``)."""
        if self.method == "whole-frame":
            x, y = point
        else:
            at = cv2.perspectiveTransform(np.array([[point]], np.float64), np.linalg.inv(self.matrix()))
            x, y = float(at[0, 0, 0]), float(at[0, 0, 1])
        width, height = self.frame_size
        return float(min(1.0, math.hypot(x - (width - 1) / 2.0, y - (height - 1) / 2.0) / (math.hypot(width, height) / 2.0)))

    def to_plain(self) -> dict[str, object]:
        plain: dict[str, object] = {"homography": list(self.homography), "size": list(self.size),
                                    "frame_size": list(self.frame_size), "method": self.method}
        if self.outline:
            plain["outline"] = [round(v, 2) for v in self.outline]
        return plain

    @classmethod
    def whole_frame(cls, width: int, height: int) -> "TrayGeometry":
        return cls((1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0), (width, height), (width, height), "whole-frame")

    @classmethod
    def from_corners(cls, corners: Sequence[Point], frame_size: tuple[int, int], method: str,
                     max_side: int = MAX_TRAY_SIDE) -> "TrayGeometry":
        """The view whose corners are ``corners`` (top-left, top-right, bottom-right, bottom-left)."""
        points = _checked_corners(corners, frame_size)
        width, height = _view_size(points, max_side)
        target = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], dtype=np.float32)
        matrix = cv2.getPerspectiveTransform(points, target)
        return cls(tuple(float(v) for v in np.asarray(matrix).ravel()), (width, height), frame_size, method)


    @classmethod
    def from_outline(cls, points: Sequence[Point], frame_size: tuple[int, int],
                     max_side: int = MAX_TRAY_SIDE) -> "TrayGeometry":
        """A tray of any shape from the owner's taps along its rim, in order (a hexagon: six), for
        a camera straight above it: the view is the outline's bounding box (no wider than
        ``max_side``), and what lies outside the outline is not tray."""
        rim = checked_outline(points, frame_size)
        left, top = np.floor(rim.min(axis=0))
        right, bottom = np.ceil(rim.max(axis=0))
        left, top = max(0.0, float(left)), max(0.0, float(top))
        right, bottom = min(frame_size[0] - 1.0, float(right)), min(frame_size[1] - 1.0, float(bottom))
        scale = min(1.0, max_side / max(right - left + 1, bottom - top + 1))
        size = (max(32, int(round((right - left + 1) * scale))), max(32, int(round((bottom - top + 1) * scale))))
        matrix = np.array([[scale, 0.0, -left * scale], [0.0, scale, -top * scale], [0.0, 0.0, 1.0]])
        in_view = (rim - (left, top)) * scale
        outline = tuple(float(v) for v in np.clip(in_view, 0, (size[0] - 1, size[1] - 1)).ravel())
        return cls(tuple(float(v) for v in matrix.ravel()), size, frame_size, "outline", outline)


MIN_OUTLINE = 3  # taps: a triangle at least
MAX_OUTLINE = 64  # taps: a round tray needs a dozen or two, not hundreds


def checked_outline(points: Sequence[Point], frame_size: tuple[int, int]) -> np.ndarray:
    """The owner's taps along a tray's rim, refused if too few or too many, outside the picture, too
    small, or crossing themselves (taps out of order): (N, 2) floats."""
    if not MIN_OUTLINE <= len(points) <= MAX_OUTLINE:
        raise CalibrationError(f"tap the tray's rim at {MIN_OUTLINE} to {MAX_OUTLINE} points in order, "
                               f"not {len(points)}")
    rim = np.array([[float(x), float(y)] for x, y in points], dtype=np.float64)
    width, height = frame_size
    if not np.isfinite(rim).all() or not ((rim[:, 0] >= -1) & (rim[:, 0] <= width) & (rim[:, 1] >= -1)
                                          & (rim[:, 1] <= height)).all():
        raise CalibrationError("a point of the tray's rim lies outside the camera picture")
    if _crosses_itself(rim):
        raise CalibrationError("the outline crosses itself: tap the rim's points in order, around the tray")
    if abs(cv2.contourArea(rim.astype(np.float32))) < 0.01 * width * height:
        raise CalibrationError("the outline is too small to be the tray: tap along the tray's rim")
    return rim


def _crosses_itself(rim: np.ndarray) -> bool:
    """Whether two sides of the closed polygon that do not share a corner cross."""
    sides = [(rim[i], rim[(i + 1) % len(rim)]) for i in range(len(rim))]
    for i, (a, b) in enumerate(sides):
        for j in range(i + 2, len(sides)):
            if i == 0 and j == len(sides) - 1:
                continue
            if _cross(a, b, *sides[j]):
                return True
    return False


def _cross(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> bool:
    def turn(p: np.ndarray, q: np.ndarray, r: np.ndarray) -> float:
        return float((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]))
    return turn(a, b, c) * turn(a, b, d) < 0 and turn(c, d, a) * turn(c, d, b) < 0


def _checked_corners(corners: Sequence[Point], frame_size: tuple[int, int]) -> np.ndarray:
    if len(corners) != 4:
        raise CalibrationError(f"tap the tray's four corners, not {len(corners)}")
    points = np.array([[float(x), float(y)] for x, y in corners], dtype=np.float32)
    width, height = frame_size
    if not ((points[:, 0] >= -1) & (points[:, 0] <= width) & (points[:, 1] >= -1) & (points[:, 1] <= height)).all():
        raise CalibrationError("a corner lies outside the camera picture")
    if abs(cv2.contourArea(points)) < 0.01 * width * height or not cv2.isContourConvex(points.reshape(-1, 1, 2)):
        raise CalibrationError("the four corners do not make a tray: tap top-left, top-right, bottom-right, "
                               "bottom-left")
    return points


def _view_size(points: np.ndarray, max_side: int) -> tuple[int, int]:
    """Keep the camera's own resolution along each side (no upscaling), at most ``max_side``."""
    width = max(_length(points[1] - points[0]), _length(points[2] - points[3]))
    height = max(_length(points[3] - points[0]), _length(points[2] - points[1]))
    scale = min(1.0, max_side / max(width, height))
    return max(32, int(round(width * scale))), max(32, int(round(height * scale)))


def _length(vector: np.ndarray) -> float:
    return float(np.hypot(float(vector[0]), float(vector[1])))


# -- the dice -------------------------------------------------------------------------------

@dataclass(frozen=True)
class FaceShot:
    """One photo of one face: the die in the middle of ``image``, ``diameter`` px across."""

    label: str
    image: Image = field(repr=False, compare=False)
    diameter: float

    @property
    def centre(self) -> Point:
        return (self.image.shape[1] - 1) / 2.0, (self.image.shape[0] - 1) / 2.0

    def reference(self) -> Reference:
        return Reference(self.label, self.image, self.centre, self.diameter)


@dataclass(frozen=True)
class DieProfile:
    """Everything the reader knows about one kind of the owner's dice.

    ``diameter``, ``fill`` (area over its bounding rectangle: about 0.95 for a
    cube) and ``colour`` (Lab) tell this kind from the others in the tray;
    ``pip_area`` is set for pip d6 whose pips count right; ``net_faces`` are the
    faces (of such a die) whose photos the pip network reads right, the faces
    its view counts for (a die with a logo for its one keeps its one out); ``min_score`` and
    ``min_margin`` are the reader's acceptance thresholds for this die; ``learned_faces``
    the faces the learned reader speaks for (``hardware.dice.learned``); ``looks`` the range
    the face photos span (size, shape, colour, sharpness: a die read outside it is refused;
    None in files from before it); ``self_test`` how the throws after calibration were read
    (None: not done yet): the camera answers rolls of this die by itself only once it passed.
    ``set``: the dice set it was taken of (``companion.engine.dice.DiceSet``; "" for the kind's
    shared set, whose id is the kind's).
    """

    kind: str
    style: str
    shots: tuple[FaceShot, ...]
    diameter: float
    fill: float
    colour: tuple[float, float, float]
    pip_area: float | None = None
    min_score: float = 0.45
    min_margin: float = 0.05
    net_faces: tuple[str, ...] = ()
    learned_faces: tuple[str, ...] = ()
    looks: LookRange | None = None
    self_test: "SelfTestResult | None" = None
    set: str = ""

    @property
    def set_id(self) -> str:
        """The dice set this profile is of: its own, or the kind's shared set."""
        return self.set or self.kind

    @property
    def automatic(self) -> bool:
        """Whether the camera may answer rolls of this die without a tap: its self-test passed."""
        return self.self_test is not None and self.self_test.passed

    @property
    def faces(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(shot.label for shot in self.shots))

    def references(self) -> list[Reference]:
        return [shot.reference() for shot in self.shots]


@dataclass(frozen=True)
class SelfTestResult:
    """The throws read after calibration, each confirmed or corrected by the owner on the tablet.

    ``passed``: no throw read wrong, and at most ``SELF_TEST_REFUSALS`` of ``SELF_TEST_THROWS``
    refused; ``advice``: what to change when it did not pass (or what cost refusals)."""

    throws: int
    right: int
    wrong: int
    refused: int
    passed: bool
    advice: tuple[str, ...] = ()
    when: float = 0.0

    @property
    def estimate(self) -> str:
        """The accuracy estimate, in words, for the tablet and the evaluation command."""
        taken = self.right + self.wrong
        return (f"{self.right} of {taken} accepted reads right, {self.refused} of {self.throws} throws refused"
                if taken else f"all {self.throws} throws refused")

    def to_plain(self) -> dict[str, object]:
        return {"throws": self.throws, "right": self.right, "wrong": self.wrong, "refused": self.refused,
                "passed": self.passed, "advice": list(self.advice), "when": self.when}


SELF_TEST_THROWS = 12  # throws the tablet asks for after the face photos
SELF_TEST_REFUSALS = 2  # the most of them that may be refused for the test to pass (none may be wrong)


@dataclass(frozen=True)
class DiceCalibration:
    """The whole saved result: tray, empty tray, detection threshold, dice, exposure, and the
    camera's view of the tray's edges when it was calibrated (``scene``: None in files from
    before it, and then a moved camera is not noticed).

    ``profiles`` are by dice set (``DieProfile.set_id``): the saved calibration holds every set
    taught (two boxes' Monster dice side by side). The reader wants one profile per kind, the
    sets one game rolls: ``reading`` gives that view (its profiles are by kind)."""

    tray: TrayGeometry
    background: Image = field(repr=False, compare=False)
    threshold: float
    profiles: Mapping[str, DieProfile] = field(default_factory=dict)
    exposure: Mapping[str, float] = field(default_factory=dict)
    created: float = 0.0
    scene: SceneReference | None = field(default=None, repr=False, compare=False)

    def with_profile(self, profile: DieProfile) -> "DiceCalibration":
        """This calibration with ``profile`` added (or replacing the same set's)."""
        return replace(self, profiles={**self.profiles, profile.set_id: profile}, created=time.time())

    def with_self_test(self, set_id: str, result: SelfTestResult) -> "DiceCalibration":
        """This calibration with the self-test of ``set_id`` (a shared set's id is its kind's) done,
        whether it passed or not."""
        return replace(self, profiles={**self.profiles, set_id: replace(self.profiles[set_id], self_test=result)})

    def reading(self, sets: Mapping[str, str]) -> "DiceCalibration":
        """What a game reads with: ``sets`` is kind -> the set it rolls; the profiles are by kind,
        each of that set (a kind whose set is not calibrated is left out: typed on the tablet)."""
        return replace(self, profiles={kind: self.profiles[set_id] for kind, set_id in sets.items()
                                       if set_id in self.profiles and self.profiles[set_id].kind == kind})

    def find_settings(self) -> FindSettings:
        areas = tuple(math.pi * (p.diameter / 2) ** 2 for p in self.profiles.values())
        fills = tuple(p.fill for p in self.profiles.values())
        return FindSettings(threshold=self.threshold, die_areas=areas, die_fills=fills)
