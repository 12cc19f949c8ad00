"""Dice calibration: where the tray is, what it looks like empty, and what each
face of the owner's dice looks like.

Why calibrate at all: the reader compares a die with photos of *the owner's*
dice taken by *this* camera over *this* tray, which is far more reliable than
any general model (see docs/dice.md for the measured accuracy). The
procedure, driven by the tablet (or a test, or ``calibration.dice_evaluate``):

1. **Tray** (``TraySession``): four ArUco markers at the tray's corners give a
   top-down view by a homography; without markers the owner taps the four
   corners on the camera picture. Then a few frames of the empty tray make
   the empty-tray reference, and exposure and white balance are locked where
   the camera allows, so the dice look the same at every roll.
2. **Faces** (``FaceSession``), per die kind: the tablet asks for each face in
   turn ("put the d20 in the tray with 7 on top, then tap Capture"): 1-20 with
   the symbol face as 20; HIT, POW and blank for a Monster die; 1-6 for a d6
   (numerals or pips). Each capture checks there is exactly one die, and at the
   end every face is read back turned, to warn of faces that look alike.
3. **Saved** (``save_calibration``) in the state directory as
   ``calibration.json`` plus PNG crops, validated on load, exported and
   restored as one zip file.
"""

from __future__ import annotations

import io
import json
import math
import os
import shutil
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import cv2
import numpy as np

from companion.engine.dice import DICE, SET_ID
from hardware.dice.calibrated import KIND_FACES as KIND_FACES
from hardware.dice.calibrated import KIND_NAMES as KIND_NAMES
from hardware.dice.calibrated import KIND_PLURALS as KIND_PLURALS
from hardware.dice.calibrated import MAX_TRAY_SIDE as MAX_TRAY_SIDE
from hardware.dice.calibrated import STYLES as STYLES
from hardware.dice.calibrated import CalibrationError as CalibrationError
from hardware.dice.calibrated import DiceCalibration as DiceCalibration
from hardware.dice.calibrated import DieProfile as DieProfile
from hardware.dice.calibrated import FaceShot as FaceShot
from hardware.dice.calibrated import TrayGeometry as TrayGeometry
from hardware.dice.calibrated import FLAT_SHAPES, SELF_TEST_REFUSALS, SELF_TEST_THROWS, SelfTestResult
from hardware.dice.imaging import Image, Point, crop_around, encode_png, read_image
from hardware.dice.learned import FaceLearner
from hardware.dice.looks import HUED, OFF_AXIS_ASPECT, OFF_AXIS_FILL, OFF_AXIS_SIZE, Look, LookRange, hue_gap, look_of
from hardware.dice.pipnet import PipNet, PipNetError, shipped_net
from hardware.dice.reader import DieRead, DiceReader, Expect, TrayRead
from hardware.dice.scene import SIDE as SCENE_SIDE
from hardware.dice.scene import SceneReference
from hardware.dice.pips import pip_area_of
from hardware.dice.segment import Blob, FindSettings, TrayFinder, lab_bytes, lab_distance
from hardware.dice.templates import BLANK, MatchSettings, TemplateMatcher

FORMAT = "table-companion.dice-calibration"
VERSION = 2  # 2: the dice by set (docs/dice.md "Dice sets"); 1, by kind, is still read
MARKER_IDS = (0, 1, 2, 3)  # top-left, top-right, bottom-right, bottom-left of the tray
MARKER_DICTIONARY = "DICT_4X4_50"
SHOT_SCALE = 1.5  # a saved face photo is this many die diameters across
CHECK_TURNS = (37.0, 143.0, 251.0)  # the self-check reads every face at these turns
PHOTO_SIZE_SPREAD = 0.10  # a face photo's die this much bigger or smaller than the others' is refused
PHOTO_SHARPNESS = 0.6  # ... one less sharp than this share of the others' (median)
PHOTO_HUE_SPREAD = 25.0  # ... one whose hue is this many degrees off the others'
MAX_DIE_ASPECT = 2.5  # a found region longer than this against its width is not a die
PHOTO_ASPECT_SPREAD = 0.10  # ... one whose outline is this much longer (against its width) than the others'


# -- the tray ---------------------------------------------------------------------------------

def tray_from_plain(data: object) -> TrayGeometry:
    if not isinstance(data, Mapping):
        raise CalibrationError("tray: expected an object")
    matrix = _floats(data.get("homography"), 9, "tray.homography")
    size, frame = _ints(data.get("size"), "tray.size"), _ints(data.get("frame_size"), "tray.frame_size")
    method = data.get("method")
    if method not in ("aruco", "taps", "outline", "whole-frame"):
        raise CalibrationError(f"tray.method: {method!r} is not aruco, taps, outline or whole-frame")
    if abs(np.linalg.det(np.reshape(matrix, (3, 3)))) < 1e-12:
        raise CalibrationError("tray.homography: the matrix cannot be inverted")
    return TrayGeometry(tuple(matrix), size, frame, str(method), _outline(data.get("outline"), size))


def _outline(value: object, size: tuple[int, int]) -> tuple[float, ...]:
    """A saved tray outline: x, y pairs within the view (absent: the whole view is tray)."""
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) % 2 or len(value) < 6:
        raise CalibrationError("tray.outline: expected x, y pairs of at least three points")
    points = _floats(value, len(value), "tray.outline")
    if not all(-1.0 <= v <= size[i % 2] for i, v in enumerate(points)):
        raise CalibrationError("tray.outline: a point lies outside the tray view")
    return tuple(points)


def _floats(value: object, count: int, where: str) -> list[float]:
    if not isinstance(value, list) or len(value) != count:
        raise CalibrationError(f"{where}: expected {count} numbers")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value):
        raise CalibrationError(f"{where}: expected finite numbers")
    return [float(v) for v in value]


def _ints(value: object, where: str) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and 8 <= v <= 10000 for v in value)):
        raise CalibrationError(f"{where}: expected [width, height] in pixels")
    return int(value[0]), int(value[1])


# -- ArUco markers ----------------------------------------------------------------------------

def _aruco() -> Any:
    """``cv2.aruco``, untyped: its API changed in 4.7 and this must run on 4.6 (Debian) to 5."""
    return getattr(cv2, "aruco")


def _dictionary() -> Any:
    aruco = _aruco()
    return aruco.getPredefinedDictionary(getattr(aruco, MARKER_DICTIONARY))


def find_markers(frame: Image) -> dict[int, np.ndarray]:
    """ArUco markers in ``frame``: id -> its four corners (4x2)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    aruco = _aruco()
    if hasattr(aruco, "ArucoDetector"):
        corners, ids, _ = aruco.ArucoDetector(_dictionary(), aruco.DetectorParameters()).detectMarkers(grey)
    else:  # OpenCV before 4.7 (Debian Bookworm's python3-opencv)
        corners, ids, _ = aruco.detectMarkers(grey, _dictionary())
    if ids is None:
        return {}
    return {int(i): np.asarray(c, dtype=np.float32).reshape(4, 2) for i, c in zip(np.ravel(ids), corners)}


def tray_from_markers(frame: Image, max_side: int = MAX_TRAY_SIDE) -> TrayGeometry:
    """The tray view from the four corner markers: each marker's corner nearest the tray's middle."""
    markers = find_markers(frame)
    missing = [i for i in MARKER_IDS if i not in markers]
    if missing:
        seen = ", ".join(str(i) for i in sorted(markers)) or "none"
        raise CalibrationError(f"markers {', '.join(map(str, missing))} not found (seen: {seen}); check the "
                               "light and that no die covers them, or tap the corners instead")
    middle = np.mean([markers[i].mean(axis=0) for i in MARKER_IDS], axis=0)
    inner = [_nearest(markers[i], middle) for i in MARKER_IDS]
    height, width = frame.shape[:2]
    return TrayGeometry.from_corners(inner, (width, height), "aruco", max_side)


def _nearest(corners: np.ndarray, point: np.ndarray) -> Point:
    best = corners[int(np.argmin(np.linalg.norm(corners - point, axis=1)))]
    return float(best[0]), float(best[1])


def marker_image(marker_id: int, side: int = 200) -> Image:
    """One marker to print (white border included), on OpenCV 4.6 to 5."""
    aruco = _aruco()
    make = aruco.generateImageMarker if hasattr(aruco, "generateImageMarker") else aruco.drawMarker
    marker = np.asarray(make(_dictionary(), marker_id, side), dtype=np.uint8)
    padded = cv2.copyMakeBorder(marker, side // 5, side // 5, side // 5, side // 5, cv2.BORDER_CONSTANT, value=255)
    return np.asarray(cv2.cvtColor(padded, cv2.COLOR_GRAY2BGR), dtype=np.uint8)


# -- the saved result -------------------------------------------------------------------------

# -- capturing the tray -----------------------------------------------------------------------

def suggest_threshold(view: Image | Sequence[Image], background: Image, inside: np.ndarray | None = None) -> float:
    """A "something is here" distance for pictures of a die in the tray against the empty tray:
    between the tray's own noise and the die, in each picture (the median over them).

    How, per picture: Otsu's split of the distances from the empty tray parts the die from the
    tray; the threshold is halfway between that split and the tray's noise (the 99th
    percentile of the distances below the split), kept within 15 to 90. Why not a percentile
    of the whole picture: a large die in a small tray is more than the top few per cent of it,
    and a threshold taken there finds only part of the die. ``inside``: the tray's own pixels (a
    tray outline: the table around it, changing from shot to shot, does not count)."""
    views = [view] if isinstance(view, np.ndarray) else list(view)
    return float(np.median([_split_threshold(v, background, inside) for v in views]))


def _split_threshold(view: Image, background: Image, inside: np.ndarray | None = None) -> float:
    distance = lab_distance(lab_bytes(view), lab_bytes(background))
    if inside is not None:
        distance = np.ascontiguousarray(distance[inside]).reshape(-1, 1)
    level, _ = cv2.threshold(distance, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    below = distance[distance < level]
    noise = float(np.percentile(below, 99)) if below.size else 0.0
    return float(np.clip((float(level) + noise) / 2.0, 15.0, 90.0))


def aligned_background(background: Image, frame: Image) -> Image:
    """An empty-tray photo shifted onto ``frame`` when the camera was nudged between them.

    Why: a reference taken before the camera moved a few pixels shows the tray's
    walls and specks where the frame does not; a translation found by phase
    correlation puts them back in place (rotation or tilt needs a new tray
    calibration).
    """
    if background.shape != frame.shape:
        background = np.asarray(cv2.resize(background, (frame.shape[1], frame.shape[0])), dtype=np.uint8)
    grey = [np.asarray(cv2.cvtColor(i, cv2.COLOR_BGR2GRAY), dtype=np.float32) for i in (frame, background)]
    (dx, dy), _ = cv2.phaseCorrelate(grey[0], grey[1])
    matrix = np.array([[1.0, 0.0, -dx], [0.0, 1.0, -dy]], dtype=np.float64)
    size = (frame.shape[1], frame.shape[0])
    return np.asarray(cv2.warpAffine(background, matrix, size, borderMode=cv2.BORDER_REPLICATE), dtype=np.uint8)


class TraySession:
    """Tray calibration: corners (markers or taps), then the empty tray, then exposure.

    The frame the corners were found or tapped on (else the first empty frame) is kept as the
    camera's view of the tray's edges (``scene``): a later frame whose edges no longer line up
    with it means the camera moved (``hardware.dice.scene``)."""

    def __init__(self, frame_size: tuple[int, int]) -> None:
        self.frame_size = frame_size
        self.tray: TrayGeometry | None = None
        self.empty: list[Image] = []
        self.exposure: dict[str, float] = {}
        self.scene_frame: Image | None = None

    def use_markers(self, frame: Image) -> TrayGeometry:
        return self._found(tray_from_markers(frame), frame)

    def use_taps(self, corners: Sequence[Point], frame: Image | None = None) -> TrayGeometry:
        """``frame``: the picture the owner tapped on (the scene reference; else the first empty frame)."""
        return self._found(TrayGeometry.from_corners(corners, self.frame_size, "taps"), frame)

    def use_outline(self, points: Sequence[Point], frame: Image | None = None) -> TrayGeometry:
        """A tray of any shape: the owner's taps along its rim, in order, on ``frame`` (the camera
        straight above it). Outside the outline nothing is read, nor counts as motion."""
        return self._found(TrayGeometry.from_outline(points, self.frame_size), frame)

    def use_whole_frame(self, frame: Image | None = None) -> TrayGeometry:
        return self._found(TrayGeometry.whole_frame(*self.frame_size), frame)

    def _found(self, tray: TrayGeometry, frame: Image | None) -> TrayGeometry:
        if frame is not None:
            _same_size(frame, self.frame_size)
        self.tray, self.scene_frame = tray, frame
        self.empty.clear()
        return tray

    def add_empty(self, frame: Image) -> int:
        """One frame of the empty tray; a few (3-5) make a steady reference."""
        view = self._tray().warp(frame)
        if self.scene_frame is None:
            self.scene_frame = frame
        self.empty.append(view)
        return len(self.empty)

    def set_exposure(self, settings: Mapping[str, float]) -> None:
        """What the camera's exposure lock returned, saved to re-apply at start."""
        self.exposure = {str(k): float(v) for k, v in settings.items()}

    def _tray(self) -> TrayGeometry:
        if self.tray is None:
            raise CalibrationError("find the tray first (markers or four taps)")
        return self.tray

    def result(self) -> DiceCalibration:
        """The calibration so far (no dice yet): the median of the empty frames as reference."""
        if not self.empty or self.scene_frame is None:
            raise CalibrationError("take at least one picture of the empty tray")
        tray = self._tray()
        background = np.median(np.stack(self.empty), axis=0).astype(np.uint8)
        threshold = _noise_threshold(self.empty, tray.inside())
        scene = SceneReference.of_frame(self.scene_frame, tray.frame_rim(), inner=bool(tray.outline))
        return DiceCalibration(tray, background, threshold, {}, dict(self.exposure), time.time(), scene)


def camera_check_note(calibration: DiceCalibration | None) -> str:
    """What the set-up must tell the owner about the camera check ("" when it works): on a tray
    with no edges the camera can line frames up by (a plain felt filling the picture), a camera
    that is knocked is not noticed, and dice would be read against a tray that is no longer there."""
    scene = None if calibration is None else calibration.scene
    if scene is None or scene.usable:
        return ""
    return ("the camera sees no edges to line its pictures up by (a plain felt?), so it cannot tell if it is "
            "knocked: let a tray wall or the four markers show in the picture, then calibrate the tray again")


def _same_size(frame: Image, frame_size: tuple[int, int]) -> None:
    height, width = frame.shape[:2]
    if (width, height) != frame_size:
        raise CalibrationError(f"the picture is {width}x{height} but the camera gave {frame_size[0]}x"
                               f"{frame_size[1]} when the setup began: start the setup again")


def _noise_threshold(frames: list[Image], inside: np.ndarray | None = None) -> float:
    """From two empty frames, how much the tray flickers (inside its outline: a cloth around it
    moving between the two is not the tray's flicker); a single frame gives the default."""
    if len(frames) < 2:
        return FindSettings().threshold
    noise = lab_distance(lab_bytes(frames[0]), lab_bytes(frames[-1]))
    if inside is not None:
        noise = noise[inside]
    return float(np.clip(4.0 * np.percentile(noise, 99.5), 30.0, 90.0))


# -- capturing the faces ----------------------------------------------------------------------

def face_prompt(kind: str, label: str) -> str:
    """What the tablet says for one capture."""
    name, die = KIND_NAMES[kind], DICE[kind]
    face = die.face(die.value_of(label))
    if face.shows:
        shown = f"the {label} ({face.shows} face)"
    elif not die.numbered:
        shown = "the blank face" if label == BLANK else f"the {label.upper()} face"
    else:
        shown = label
    return f"Put only the {name} in the tray with {shown} on top, then tap Capture."


class FaceSession:
    """Per-face captures for one die kind: a state machine the tablet drives.

    ``current`` is the face asked for next (None when all are captured);
    ``capture`` takes a camera frame, ``capture_view`` an already top-down
    tray view (tests, evaluation); with a ``label`` it adds another photo of
    that face (helps faces that look alike). ``back`` undoes the last
    capture and ``retake`` forgets a face's photos.

    Each photo must show the die flat, whole and sharp, and like the other photos
    (``photo_problem``); one that does not is refused with why, and the face is asked for
    again: one tilted photo would make every later throw of that face read wrong.
    """

    def __init__(self, calibration: DiceCalibration, kind: str, style: str | None = None) -> None:
        if kind not in KIND_FACES:
            raise CalibrationError(f"unknown die kind {kind!r} (known: {', '.join(KIND_FACES)})")
        self.calibration = calibration
        self.kind = kind
        self.style = style or {"d20": "numerals", "monster": "symbols", "d6": "numerals"}[kind]
        if self.style not in STYLES:
            raise CalibrationError(f"unknown style {self.style!r} (known: {', '.join(STYLES)})")
        self.faces = KIND_FACES[kind]
        self.shots: dict[str, list[FaceShot]] = {}
        self.looks: dict[str, list[Look]] = {}
        self.blobs: dict[str, list[Blob]] = {}
        self.taken: list[str] = []  # the faces captured, in order (for back)
        self.asking: str | None = self.faces[0]
        self.finder = TrayFinder(calibration.background, FindSettings(threshold=calibration.threshold),
                                 calibration.tray.inside())

    @property
    def current(self) -> str | None:
        return self.asking

    def capture(self, frame: Image, label: str | None = None) -> FaceShot:
        """The face asked for (or ``label``), from a camera frame: refused if the camera moved since
        the tray was calibrated."""
        _unmoved(self.calibration, frame)
        return self.capture_view(self.calibration.tray.warp(frame), label)

    def capture_view(self, view: Image, label: str | None = None) -> FaceShot:
        """Take the one die in the tray as the photo of ``label`` (default: the face asked for)."""
        face = label if label is not None else self.asking
        if face is None or face not in self.faces:
            raise CalibrationError("every face is captured; tap Finish, or Retake a face")
        blob = self._one_die(view)
        look = look_of(view, blob, self.finder.settings.margin + 2, self.finder.rim,
                       self.calibration.tray.off_axis(blob.centre))
        why = photo_problem(self.kind, face, look, self._other_looks())
        if why:
            raise CalibrationError(f"{why}, then capture {_face_words(self.kind, face)} again")
        shot = FaceShot(face, crop_around(view, blob.centre, blob.diameter, SHOT_SCALE), blob.diameter)
        self.shots.setdefault(face, []).append(shot)
        self.looks.setdefault(face, []).append(look)
        self.blobs.setdefault(face, []).append(blob)
        self.taken.append(face)
        self.asking = self._next_missing()
        return shot

    def _other_looks(self, leave: tuple[str, int] | None = None) -> list[tuple[str, Look]]:
        return [(face, look) for face, looks in self.looks.items() for i, look in enumerate(looks)
                if leave != (face, i)]

    def _one_die(self, view: Image) -> Blob:
        found = self.finder.find(view)
        if found.problem:
            raise CalibrationError(found.problem)
        # a long thin region is no die (a strip of wall or table the empty tray's picture shows a little
        # elsewhere, a sleeve): even a die leaning on the wall is far from that long
        compact = [blob for blob in found.blobs if blob.aspect <= MAX_DIE_ASPECT]
        if not compact:
            raise CalibrationError("I see no die in the tray: is the light on and the tray in view?")
        ranked = sorted(compact, key=lambda b: -b.area)
        if len(ranked) > 1 and ranked[1].area > 0.35 * ranked[0].area:
            raise CalibrationError(f"I see {len(ranked)} dice: leave only the {KIND_NAMES[self.kind]} in the tray")
        return ranked[0]

    def _next_missing(self) -> str | None:
        return next((f for f in self.faces if f not in self.shots), None)

    def retake(self, label: str) -> None:
        """Forget ``label``'s photos and ask for it next."""
        if label not in self.faces:
            raise CalibrationError(f"{label!r} is not a face of a {KIND_NAMES[self.kind]}")
        self.shots.pop(label, None)
        self.looks.pop(label, None)
        self.blobs.pop(label, None)
        self.taken = [f for f in self.taken if f != label]
        self.asking = label

    def back(self) -> None:
        """Undo the last capture: its photo is dropped and its face asked for again."""
        if not self.taken:
            return
        face = self.taken.pop()
        for photos in (self.shots, self.looks, self.blobs):
            photos[face].pop()
        if not self.shots[face]:
            del self.shots[face], self.looks[face], self.blobs[face]
        self.asking = face

    def view(self) -> dict[str, object]:
        """What the tablet shows: the face asked for, the words, and progress."""
        done = [f for f in self.faces if f in self.shots]
        return {"kind": self.kind, "style": self.style, "faces": list(self.faces), "captured": done,
                "asking": self.asking, "text": face_prompt(self.kind, self.asking) if self.asking else
                "Every face is captured: tap Finish.", "step": len(done), "steps": len(self.faces)}

    def problems(self) -> list[tuple[str, int, str]]:
        """Every photo checked against all the others (an early photo was checked against fewer):
        (face, which of its photos, why) for each that cannot be used."""
        found = []
        every = [look for looks in self.looks.values() for look in looks]
        for face, looks in self.looks.items():
            for i, look in enumerate(looks):
                why = photo_problem(self.kind, face, look, self._other_looks((face, i)))
                if not why and not_straight_above(self.kind, every):
                    why = ("every photo shows the die's side (is the camera straight above the tray?): put the camera "
                           "straight above the tray's middle")
                if why:
                    found.append((face, i, why))
        return found

    def drop(self, label: str, index: int) -> None:
        """Forget one photo of ``label`` (the face is asked for again if it was its only one)."""
        for photos in (self.shots, self.looks, self.blobs):
            photos[label].pop(index)
        self.taken.reverse()
        self.taken.remove(label)
        self.taken.reverse()
        if not self.shots[label]:
            del self.shots[label], self.looks[label], self.blobs[label]
            self.asking = self._next_missing()

    def profile(self) -> DieProfile:
        """The finished profile; refuses while a face is missing or a photo is not like the others."""
        missing = [f for f in self.faces if f not in self.shots]
        if missing:
            raise CalibrationError(f"faces not captured yet: {', '.join(missing)}")
        problems = self.problems()
        if problems:
            raise CalibrationError("; ".join(f"{_face_words(self.kind, face)}'s photo: {why}"
                                             for face, _, why in problems) + ": retake them")
        shots = [shot for face in self.faces for shot in self.shots[face]]
        looks = [look for face in self.faces for look in self.looks[face]]
        blobs = [blob for face in self.faces for blob in self.blobs[face]]
        marked = [look for face in self.faces if face != BLANK for look in self.looks[face]]
        return build_profile(self.kind, self.style, shots, blobs, looks, marked)


def _face_words(kind: str, face: str) -> str:
    """A face as the tablet names it: "face 4", "the HIT face", "the blank face"."""
    if kind == "monster":
        return "the blank face" if face == BLANK else f"the {face.upper()} face"
    return f"face {face}"


def _unmoved(calibration: DiceCalibration, frame: Image) -> None:
    """Refuses a frame of another size, or one whose tray edges no longer line up with the calibrated ones."""
    height, width = frame.shape[:2]
    if (width, height) != calibration.tray.frame_size:
        size = calibration.tray.frame_size
        raise CalibrationError(f"the camera gives {width}x{height} pictures but the tray was calibrated on "
                               f"{size[0]}x{size[1]}: calibrate the tray again")
    if calibration.scene is not None:
        check = calibration.scene.check(frame)
        if check.moved:
            raise CalibrationError(check.why)


def photo_problem(kind: str, face: str, look: Look, others: Sequence[tuple[str, Look]]) -> str:
    """Why a face photo cannot be used ("" if it can): the die cut off at the view's edge, not lying
    flat, another size than in the other photos, blurred against them, or another colour.

    Why each: a photo is every later throw's reference for its face; a die cut off, tilted or
    blurred in it makes that face read wrong or not at all, and a photo of another die (or in
    other light) teaches the reader the wrong die. Each is judged against the owner's other photos
    (their middle and their spread), as what is normal depends on the die, the tray and the camera;
    and where the die lay: a camera straight above sees more of a die's sides the further it lies
    from under the camera (``looks.OFF_AXIS_ASPECT``), so a die near the tray's rim may look longer
    and bigger than one in its middle. The one fixed limit is the flat shape under the camera."""
    name = KIND_NAMES[kind]
    if look.at_edge and _cut_off(kind, look, others):
        return "the die touches the edge of the tray's view (part of it may be cut off): put it nearer the middle"
    most_aspect, least_fill = FLAT_SHAPES[kind]
    if (look.aspect > most_aspect + OFF_AXIS_ASPECT * look.off_axis
            or look.fill < least_fill - OFF_AXIS_FILL * look.off_axis):
        return (f"the {name} does not look flat (leaning on the wall, or the camera not straight above the "
                "tray?): lay it flat in the middle of the tray")
    return _unlike_the_others(name, face, look, others)


def _cut_off(kind: str, look: Look, others: Sequence[tuple[str, Look]]) -> bool:
    """Whether a die touching the view's edge looks cut off: smaller, less full or longer than the
    others (without others: than a die of its kind lying flat). Whole against the wall, it is fine."""
    if not others:
        most_aspect, least_fill = FLAT_SHAPES[kind]
        return look.aspect > most_aspect or look.fill < least_fill
    size = float(np.median([other.diameter for _, other in others]))
    fill = float(np.median([other.fill for _, other in others]))
    aspect = float(np.median([other.aspect for _, other in others]))
    return look.diameter < (1 - PHOTO_SIZE_SPREAD) * size or look.fill < fill - 0.05 or look.aspect > aspect + 0.1


def _unlike_the_others(name: str, face: str, look: Look, others: Sequence[tuple[str, Look]]) -> str:
    """Another die (its colour), a die tilted or found in part (its size), or a blurred photo, against
    the other photos of the session: their middle, with their own spread and where they lay."""
    if not others:
        return ""
    hues = [other.hue for _, other in others if other.chroma >= HUED]
    if look.chroma >= HUED and hues and hue_gap(look.hue, _median_hue(hues)) > PHOTO_HUE_SPREAD:
        return "the die's colour is not the one in the other photos (another die, or the light changed?)"
    off = look.off_axis - float(np.median([other.off_axis for _, other in others]))
    if look.aspect > float(np.median([other.aspect for _, other in others])) + PHOTO_ASPECT_SPREAD + \
            OFF_AXIS_ASPECT * max(0.0, off):
        return (f"the {name} does not look as flat as in the other photos (leaning on the wall?): lay it flat "
                "in the middle of the tray")
    sizes = [other.diameter for _, other in others]
    size = float(np.median(sizes))
    spread = PHOTO_SIZE_SPREAD + OFF_AXIS_SIZE * abs(off) + 2.0 * _relative_spread(sizes)
    if abs(look.diameter / size - 1.0) > spread:
        change = "bigger" if look.diameter > size else "smaller"
        return (f"the die looks {abs(look.diameter / size - 1.0):.0%} {change} than in the other photos "
                "(tilted, or another die?)")
    marked = [other.sharpness for other_face, other in others if other_face != BLANK]
    if face != BLANK and marked and look.sharpness < PHOTO_SHARPNESS * float(np.median(marked)):
        return "the photo is blurred (the die still moving, or the camera out of focus)"
    return ""


def _relative_spread(values: Sequence[float]) -> float:
    """How much values vary about their middle, as a share of it (a robust standard deviation: the
    median distance from the median, scaled), 0 with fewer than three."""
    if len(values) < 3:
        return 0.0
    middle = float(np.median(values))
    return 1.4826 * float(np.median([abs(v - middle) for v in values])) / max(middle, 1e-6)


def not_straight_above(kind: str, looks: Sequence[Look]) -> bool:
    """Whether the photos together say the camera is not straight above the tray: a camera straight
    above sees a die under it flat, and its sides only further out; one looking from the side sees
    every die's side, wherever it lies. Judged on the photos' middle once the sides their places
    explain are taken off (three photos at least)."""
    if len(looks) < 3:
        return False
    most_aspect, _ = FLAT_SHAPES[kind]
    return float(np.median([look.aspect - OFF_AXIS_ASPECT * look.off_axis for look in looks])) > most_aspect


def _median_hue(hues: Sequence[float]) -> float:
    """A middle hue: the one with the least summed gap to the others (hues wrap round)."""
    return min(hues, key=lambda h: sum(hue_gap(h, other) for other in hues))


def build_profile(kind: str, style: str, shots: Sequence[FaceShot], blobs: Sequence[Blob],
                  looks: Sequence[Look] = (), marked: Sequence[Look] = ()) -> DieProfile:
    """A profile from face photos and the regions they were found as (size, shape, colour), with
    what the learned reader speaks for and (given each photo's ``looks``) the range they span."""
    colour = tuple(float(np.median([b.colour[i] for b in blobs])) for i in range(3))
    pip_area: float | None = None
    net_faces: tuple[str, ...] = ()
    if style == "pips":
        pip_area = pip_area_of([(s.image, s.centre, s.diameter, None, int(s.label)) for s in shots])
        net_faces = () if pip_area is None else faces_the_net_reads(shots)
    references = [shot.reference() for shot in shots]
    learner = FaceLearner(references, TemplateMatcher(references).axis)
    return DieProfile(kind, style, tuple(shots), float(np.median([b.diameter for b in blobs])),
                      float(np.median([b.fill for b in blobs])), (colour[0], colour[1], colour[2]), pip_area,
                      net_faces=net_faces, learned_faces=learner.speaks_for(),
                      looks=LookRange.of(looks, marked) if looks else None)


def faces_the_net_reads(shots: Sequence[FaceShot], net: PipNet | None = None) -> tuple[str, ...]:
    """The faces at least half of whose photos the pip network reads right (its best, and
    at least even odds). Why per face: an owner's die with a logo for its one, or a
    style of pips the network never saw, would have every such read vetoed."""
    try:
        net = shipped_net() if net is None else net
    except PipNetError as problem:
        raise CalibrationError(f"the pip network that ships with the reader cannot be used: {problem}") from problem
    right: dict[str, list[bool]] = {}
    for shot in shots:
        view = net.view(shot.image, shot.centre, shot.diameter)
        right.setdefault(shot.label, []).append(view.best == int(shot.label) and view.of(int(shot.label)) >= 0.5)
    return tuple(face for face, reads in right.items() if sum(reads) >= 0.5 * len(reads))


# -- the self-test ----------------------------------------------------------------------------

@dataclass(frozen=True)
class SelfTestThrow:
    """One throw of the self-test: what the camera read, and the face the owner says was up."""

    truth: str
    label: str
    accepted: bool
    why: str = ""


class SelfTest:
    """After the face photos, a dozen throws read with the new calibration, each confirmed or
    corrected by the owner (the tablet shows the read; one tap says it was right, or which face
    was up). The camera answers rolls of this die by itself only if none was read wrong and at
    most one in six was refused (``SELF_TEST_REFUSALS`` of ``SELF_TEST_THROWS``); otherwise
    the box says what to change.

    Why throws and not the photos: the photos were taken where the owner put the die; throws
    land at the walls, in corners, turned, tilted, in the light of the game, which is what
    the reader must get right. Twelve throws cannot show 99 %, but they show a calibration
    that reads one throw in ten wrong, or refuses one in three, and why."""

    def __init__(self, calibration: DiceCalibration, kind: str, wanted: int = SELF_TEST_THROWS,
                 reader: DiceReader | None = None) -> None:
        if kind not in calibration.profiles:
            raise CalibrationError(f"the {KIND_NAMES.get(kind, kind)} is not calibrated yet: capture its faces first")
        self.calibration, self.kind, self.wanted = calibration, kind, wanted
        self.reader = reader if reader is not None else DiceReader(calibration)
        self.throws: list[SelfTestThrow] = []
        self.pending: DieRead | None = None

    def throw(self, frame: Image) -> DieRead:
        """Read one throw (the owner says next what was up); refused with why if nothing can be
        read at all (no die, two dice, a hand, a camera that moved)."""
        return self._pending(self.reader.read(frame, Expect(self.kind, 1)))

    def throw_view(self, view: Image) -> DieRead:
        """``throw`` for an already top-down tray view (tests, the evaluation command)."""
        return self._pending(self.reader.read_view(view, Expect(self.kind, 1)))

    def _pending(self, read: TrayRead) -> DieRead:
        if read.problem or len(read.dice) != 1:
            raise CalibrationError(read.problem or "throw the one die into the tray")
        self.pending = read.dice[0]
        return self.pending

    def answer(self, face: str) -> SelfTestThrow:
        """The face that was up in the throw just read (the read's own face if it was right)."""
        if self.pending is None:
            raise CalibrationError("throw the die first, then say which face is up")
        if face not in KIND_FACES[self.kind]:
            raise CalibrationError(f"{face!r} is not a face of a {KIND_NAMES[self.kind]}")
        done = self.add(face, self.pending.label, self.pending.accepted, self.pending.why)
        self.pending = None
        return done

    def add(self, truth: str, label: str, accepted: bool, why: str = "") -> SelfTestThrow:
        """One read and the face that was up (the evaluation command's throws come this way)."""
        done = SelfTestThrow(truth, label, accepted, why)
        self.throws.append(done)
        return done

    @property
    def done(self) -> bool:
        return len(self.throws) >= self.wanted

    def result(self) -> SelfTestResult:
        """The estimate and the verdict; refused before the throws asked for are in."""
        if not self.done:
            raise CalibrationError(f"{self.wanted - len(self.throws)} more throws, then the self-test is done")
        return self_test_result(self.throws, self.kind)

    def view(self) -> dict[str, object]:
        """What the tablet shows: progress, the throw waiting for its answer, and the estimate so far."""
        right = sum(t.accepted and t.label == t.truth for t in self.throws)
        wrong = sum(t.accepted and t.label != t.truth for t in self.throws)
        pending = self.pending
        return {"kind": self.kind, "faces": list(KIND_FACES[self.kind]), "wanted": self.wanted,
                "throws": len(self.throws), "right": right, "wrong": wrong,
                "refused": sum(not t.accepted for t in self.throws),
                "pending": None if pending is None else {"label": pending.label, "accepted": pending.accepted,
                                                         "why": pending.why}}


def self_test_result(throws: Sequence[SelfTestThrow], kind: str) -> SelfTestResult:
    right = sum(t.accepted and t.label == t.truth for t in throws)
    wrong = sum(t.accepted and t.label != t.truth for t in throws)
    refused = sum(not t.accepted for t in throws)
    passed = wrong == 0 and refused * SELF_TEST_THROWS <= SELF_TEST_REFUSALS * len(throws) and len(throws) > 0
    return SelfTestResult(len(throws), right, wrong, refused, passed, tuple(self_test_advice(throws, kind)),
                          time.time())


#: What a refusal's reason says about the set-up, and what to change (the first fitting words count).
ADVICE: tuple[tuple[tuple[str, ...], str], ...] = (
    (("camera has moved", "calibrate the tray again"), "the camera moved: calibrate the tray again"),
    (("not lying flat", "leaning"), "dice lean on the tray's walls, or the camera is not looking straight down: "
                                   "put the camera straight above the tray's middle"),
    (("out of the tray's view",), "dice stop partly out of the camera's view: tap the tray's corners at the walls, "
                                  "or let the camera see all of the tray"),
    (("blurred",), "the pictures are blurred: more light, or check the camera's focus"),
    (("colour", "bigger", "smaller"), "the die looks different from its photos: the light changed since they were "
                                      "taken, or another die was thrown; take the photos again in the game's light"),
)


def self_test_advice(throws: Sequence[SelfTestThrow], kind: str) -> list[str]:
    """What to change, from what went wrong: each misread face first, then what the refusals say."""
    advice = []
    for throw in throws:
        if throw.accepted and throw.label != throw.truth:
            advice.append(f"a {throw.truth} was read as {throw.label}: retake {_face_words(kind, throw.truth)}'s "
                          f"photo and {_face_words(kind, throw.label)}'s, or add a second photo of each")
    refused = [throw for throw in throws if not throw.accepted]
    for words, change in ADVICE:
        if any(any(word in throw.why for word in words) for throw in refused) and change not in advice:
            advice.append(change)
    if any(not any(word in t.why for words, _ in ADVICE for word in words) for t in refused):
        advice.append("some faces were hard to tell apart: add a second photo of each face")
    return list(dict.fromkeys(advice))


def check_profile(profile: DieProfile, settings: MatchSettings = MatchSettings()) -> list[str]:
    """Read every face photo back, turned, against the others: warnings for faces that look alike."""
    matcher = TemplateMatcher(profile.references(), settings)
    warnings = []
    for shot in profile.shots:
        if shot.label == BLANK:
            continue
        for turn in CHECK_TURNS:
            turned = _turned(shot, turn)
            scores = matcher.match(turned, shot.centre, shot.diameter)
            if scores.label != shot.label or scores.margin < profile.min_margin:
                warnings.append(f"{shot.label} looks like {scores.runner_up if scores.label == shot.label else scores.label}"
                                f" when turned: take a second photo of each, or check the light")
                break
    return warnings


def _turned(shot: FaceShot, angle: float) -> Image:
    centre = shot.centre
    matrix = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle, 1.0)
    size = (shot.image.shape[1], shot.image.shape[0])
    return np.asarray(cv2.warpAffine(shot.image, matrix, size, borderMode=cv2.BORDER_REPLICATE), dtype=np.uint8)


# -- saving, loading, export, restore ---------------------------------------------------------

CALIBRATION_FILE = "calibration.json"
BACKGROUND_FILE = "background.png"
SCENE_FILE = "scene.png"  # the frame the tray was calibrated on, grey and small: has the camera moved since?


def calibration_to_plain(calibration: DiceCalibration) -> dict[str, object]:
    plain: dict[str, object] = {
        "format": FORMAT, "version": VERSION, "created": calibration.created,
        "tray": calibration.tray.to_plain(), "background": BACKGROUND_FILE,
        "threshold": calibration.threshold, "exposure": dict(calibration.exposure),
        "profiles": {set_id: _profile_plain(p) for set_id, p in calibration.profiles.items()}}
    if calibration.scene is not None:
        plain["scene"] = SCENE_FILE
    return plain


def _profile_plain(profile: DieProfile) -> dict[str, object]:
    return {"kind": profile.kind, "style": profile.style, "diameter": profile.diameter, "fill": profile.fill,
            "colour": list(profile.colour), "pip_area": profile.pip_area, "min_score": profile.min_score,
            "min_margin": profile.min_margin, "net_faces": list(profile.net_faces),
            "learned_faces": list(profile.learned_faces),
            "looks": None if profile.looks is None else profile.looks.to_plain(),
            "self_test": None if profile.self_test is None else profile.self_test.to_plain(),
            "shots": [{"label": s.label, "diameter": s.diameter, "file": _shot_file(profile.set_id, s.label, i)}
                      for i, s in enumerate(profile.shots)]}


def _shot_file(set_id: str, label: str, index: int) -> str:
    return f"{set_id}/{index:02d}-{label}.png"


def save_calibration(calibration: DiceCalibration, directory: Path | str) -> None:
    """Write the calibration atomically: a new folder, then swapped in (the old one kept as .previous)."""
    target = Path(directory)
    target.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        _write_files(calibration, fresh)
        _swap_in(fresh, target)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise


def _write_files(calibration: DiceCalibration, folder: Path) -> None:
    _durable(folder / BACKGROUND_FILE, encode_png(calibration.background))
    if calibration.scene is not None:
        _durable(folder / SCENE_FILE, encode_png(calibration.scene.picture))
    for set_id, profile in calibration.profiles.items():
        (folder / set_id).mkdir()
        for i, shot in enumerate(profile.shots):
            _durable(folder / _shot_file(set_id, shot.label, i), encode_png(shot.image))
    text = json.dumps(calibration_to_plain(calibration), indent=1)
    _durable(folder / CALIBRATION_FILE, text.encode("utf-8"))


def _durable(path: Path, data: bytes) -> None:
    """Written and on disk before the folder is swapped in (a power cut leaves the old one whole)."""
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _swap_in(fresh: Path, target: Path) -> None:
    previous = _previous(target)
    if target.exists():
        shutil.rmtree(previous, ignore_errors=True)
        os.replace(target, previous)
    os.replace(fresh, target)
    _sync_folder(target.parent)


def _previous(target: Path) -> Path:
    return target.with_name(target.name + ".previous")


def _sync_folder(folder: Path) -> None:
    """The renames on disk too (POSIX; a no-op where folders cannot be opened)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def load_calibration(directory: Path | str, older: Mapping[str, str] | None = None) -> DiceCalibration:
    """Read and check a saved calibration; ``CalibrationError`` naming the problem found.

    If the power went between the two renames of a save, the folder is missing
    and its ``.previous`` is whole: that one is read. ``older``: kind -> the dice set a file from
    before sets (version 1, its dice by kind) was made of; a kind not named there is its shared set.
    """
    folder = Path(directory)
    if not folder.exists() and _previous(folder).exists():
        folder = _previous(folder)
    try:
        data = json.loads((folder / CALIBRATION_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CalibrationError(f"no dice calibration in {folder}") from None
    except (OSError, ValueError) as problem:
        raise CalibrationError(f"{folder / CALIBRATION_FILE} cannot be read: {problem}") from None
    return calibration_from_plain(data, folder, older)


def calibration_from_plain(data: object, folder: Path, older: Mapping[str, str] | None = None) -> DiceCalibration:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CalibrationError(f"not a dice calibration (format should be {FORMAT!r})")
    version = data.get("version")
    if version not in (1, VERSION) or isinstance(version, bool):
        raise CalibrationError(f"dice calibration version {version!r} is not supported (only 1 and {VERSION})")
    tray = tray_from_plain(data.get("tray"))
    background = _image(folder, data.get("background"), "background")
    if (background.shape[1], background.shape[0]) != tray.size:
        raise CalibrationError(f"background is {background.shape[1]}x{background.shape[0]} but the tray view "
                               f"is {tray.size[0]}x{tray.size[1]}")
    threshold = _number(data.get("threshold"), "threshold", 1.0, 255.0)
    profiles = _profiles(data.get("profiles"), folder, (older or {}) if version == 1 else None)
    return DiceCalibration(tray, background, threshold, profiles, _exposure(data.get("exposure")),
                           _number(data.get("created", 0.0), "created", 0.0, 1e12), _scene(data, folder, tray))


def _scene(data: Mapping[str, object], folder: Path, tray: TrayGeometry) -> SceneReference | None:
    """The camera's view of the tray's edges (absent in files from before it: None)."""
    if data.get("scene") is None:
        return None
    picture = _image(folder, data.get("scene"), "scene")
    if picture.shape[:2] != (SCENE_SIDE, SCENE_SIDE):
        raise CalibrationError(f"scene: expected a {SCENE_SIDE}x{SCENE_SIDE} picture")
    return SceneReference(np.asarray(cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY), np.uint8), tray.frame_rim(),
                          tray.frame_size, inner=bool(tray.outline))


def _image(folder: Path, name: object, where: str) -> Image:
    if not isinstance(name, str) or not name or Path(name).is_absolute() or ".." in Path(name).parts:
        raise CalibrationError(f"{where}: expected a file name inside the calibration folder")
    image = read_image(str(folder / name))
    if image is None:
        raise CalibrationError(f"{where}: {name} is missing or not an image")
    return image


def _number(value: object, where: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= float(value) <= high:
        raise CalibrationError(f"{where}: expected a number from {low:g} to {high:g}, got {value!r}")
    return float(value)


def _exposure(value: object) -> dict[str, float]:
    if not isinstance(value, dict):
        raise CalibrationError("exposure: expected an object")
    return {str(k): _number(v, f"exposure.{k}", -1e9, 1e9) for k, v in value.items()}


def _profiles(value: object, folder: Path, older: Mapping[str, str] | None) -> dict[str, DieProfile]:
    """By dice set; ``older`` is given for a file from before sets (its profiles by kind), and says
    which set each kind's profile was made of."""
    if not isinstance(value, dict):
        raise CalibrationError("profiles: expected an object")
    found = [_profile(str(key), data, folder, older) for key, data in value.items()]
    return {profile.set_id: profile for profile in found}


def _set_and_kind(key: str, data: Mapping[str, object], older: Mapping[str, str] | None) -> tuple[str, str]:
    """A profile's dice set ("" for the shared one) and die kind: from its key and ``kind`` field,
    or (a file from before sets) its key is the kind and ``older`` names the set."""
    where = f"profiles.{key}"
    kind = key if older is not None else data.get("kind")
    if kind not in KIND_FACES:
        raise CalibrationError(f"{where}: unknown die kind {kind!r} (known: {', '.join(KIND_FACES)})")
    set_id = older.get(str(kind), str(kind)) if older is not None else key
    if not SET_ID.fullmatch(set_id) or (set_id in KIND_FACES and set_id != kind):
        raise CalibrationError(f"{where}: {set_id!r} cannot name a set of {KIND_PLURALS[str(kind)]} (a set's id is "
                               "lower-case letters, digits and dashes, and not another die kind)")
    return ("" if set_id == kind else set_id), str(kind)


def _profile(key: str, data: object, folder: Path, older: Mapping[str, str] | None) -> DieProfile:
    where = f"profiles.{key}"
    if not isinstance(data, dict):
        raise CalibrationError(f"{where}: expected an object")
    set_id, kind = _set_and_kind(key, data, older)
    if data.get("style") not in STYLES:
        raise CalibrationError(f"{where}.style: expected one of {', '.join(STYLES)}")
    shots = tuple(_shot(kind, item, folder, f"{where}.shots[{i}]") for i, item in enumerate(_list(data, where)))
    missing = [f for f in KIND_FACES[kind] if f not in {s.label for s in shots}]
    if missing:
        raise CalibrationError(f"{where}: no photo of face(s) {', '.join(missing)}")
    colour = _floats(data.get("colour"), 3, f"{where}.colour")
    pip_area = data.get("pip_area")
    return DieProfile(kind, str(data["style"]), shots, _number(data.get("diameter"), f"{where}.diameter", 4, 4000),
                      _number(data.get("fill"), f"{where}.fill", 0.1, 2.0), (colour[0], colour[1], colour[2]),
                      None if pip_area is None else _number(pip_area, f"{where}.pip_area", 0.0001, 0.5),
                      _number(data.get("min_score"), f"{where}.min_score", -1.0, 1.0),
                      _number(data.get("min_margin"), f"{where}.min_margin", 0.0, 1.0),
                      _net_faces(data.get("net_faces", []), kind, f"{where}.net_faces"),
                      _net_faces(data.get("learned_faces", []), kind, f"{where}.learned_faces"),
                      _looks(data.get("looks"), f"{where}.looks"), _self_test(data.get("self_test"), f"{where}.self_test"),
                      set_id)


def _looks(value: object, where: str) -> LookRange | None:
    """The range the face photos span (absent in files from before it: None, and no die is refused
    for how it looks)."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise CalibrationError(f"{where}: expected an object")
    try:
        return LookRange.from_plain(value, where)
    except ValueError as problem:
        raise CalibrationError(str(problem)) from None


def _self_test(value: object, where: str) -> SelfTestResult | None:
    """How the self-test went (absent: not done, and rolls are confirmed on the tablet)."""
    if value is None:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("passed"), bool):
        raise CalibrationError(f"{where}: expected an object with passed true or false")
    counts = [int(_number(value.get(k), f"{where}.{k}", 0, 10000)) for k in ("throws", "right", "wrong", "refused")]
    advice = value.get("advice", [])
    if not isinstance(advice, list) or not all(isinstance(a, str) for a in advice):
        raise CalibrationError(f"{where}.advice: expected a list of sentences")
    if counts[1] + counts[2] + counts[3] != counts[0]:
        raise CalibrationError(f"{where}: right, wrong and refused do not add up to the throws")
    return SelfTestResult(counts[0], counts[1], counts[2], counts[3], bool(value["passed"]), tuple(advice),
                          _number(value.get("when", 0.0), f"{where}.when", 0.0, 1e12))


def _net_faces(value: object, kind: str, where: str) -> tuple[str, ...]:
    """The faces the pip network speaks for (absent in files from before it: none)."""
    if not isinstance(value, list) or any(face not in KIND_FACES[kind] for face in value):
        raise CalibrationError(f"{where}: expected a list of faces of the {kind} ({', '.join(KIND_FACES[kind])})")
    return tuple(str(face) for face in value)


def _list(data: Mapping[str, object], where: str) -> list[object]:
    shots = data.get("shots")
    if not isinstance(shots, list) or not shots:
        raise CalibrationError(f"{where}.shots: expected a list of face photos")
    return shots


def _shot(kind: str, item: object, folder: Path, where: str) -> FaceShot:
    if not isinstance(item, dict) or item.get("label") not in KIND_FACES[kind]:
        raise CalibrationError(f"{where}.label: expected one of {', '.join(KIND_FACES[kind])}")
    image = _image(folder, item.get("file"), where)
    diameter = _number(item.get("diameter"), f"{where}.diameter", 4, 4000)
    if min(image.shape[:2]) < diameter:
        raise CalibrationError(f"{where}: the photo is smaller than the die")
    return FaceShot(str(item["label"]), image, diameter)


def export_calibration(directory: Path | str) -> bytes:
    """The saved calibration as one zip file (checked first, so a broken one is not exported)."""
    folder = Path(directory)
    load_calibration(folder)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            archive.write(path, path.relative_to(folder).as_posix())
    return buffer.getvalue()


def restore_calibration(data: bytes, directory: Path | str, older: Mapping[str, str] | None = None) -> DiceCalibration:
    """Install an exported zip, after checking it loads (``older``: as ``load_calibration``); the
    current one is kept as .previous."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "restore"
        _unzip(data, folder)
        calibration = load_calibration(folder, older)
    save_calibration(calibration, directory)
    return calibration


def _unzip(data: bytes, folder: Path) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for name in archive.namelist():
                if name.startswith("/") or ".." in Path(name).parts:
                    raise CalibrationError(f"the file holds an unsafe path {name!r}")
            archive.extractall(folder)
    except zipfile.BadZipFile:
        raise CalibrationError("not a calibration export (not a zip file)") from None
