"""Shared pieces for the dice tests: the real photos shipped in ``tests/data/dice``
(a chosen part of three public sets, each with its licence and source:
``tests/data/dice/README.md``), calibrations built from them through the owner's
own procedure, and synthetic Monster dice.

The dicetower photos are shipped at half their published size, cut to the tray
and a margin around it (448x464: what a 640x480 camera over the tray sees), and
the tests calibrate the tray with the four-corner taps an owner would make on them.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterator, Sequence

import cv2
import numpy as np

from calibration.dice import (KIND_FACES, DiceCalibration, FaceSession, SelfTest, TrayGeometry, TraySession,
                              aligned_background, suggest_threshold)
from hardware.dice.imaging import Image, Point, read_image
from hardware.dice.reader import DiceReader, Expect
from hardware.dice.segment import Blob, TrayFinder
from hardware.dice.synthetic import MONSTER_LOOK, Changes, DieLook, photo_changes, relocate, scene, tray_image

DATA = Path(__file__).resolve().parent / "data" / "dice"
DICETOWER = DATA / "dicetower"
NELL_BYLER = DATA / "nell-byler"
#: The tray's inner corners in the shipped dicetower photos, as an owner would tap them.
TOWER_TAPS: tuple[Point, ...] = ((26.5, 31.5), (414.0, 34.0), (411.5, 414.0), (24.0, 416.5))
#: What the tests ask of the reader (the issue's target): accepted reads >= 99 % right, <= 10 % refused.
MIN_ACCURACY = 0.99
MAX_REFUSAL = 0.10
FELT = (40, 95, 45)


def photo(path: Path) -> Image:
    """A shipped photo; its absence is a broken checkout, so it fails the test rather than skipping it."""
    image = read_image(str(path))
    assert image is not None, f"{path} is missing or not an image (tests/data/dice/README.md lists the photos)"
    return image


@functools.lru_cache(maxsize=None)
def tower_photo(die: str, value: str) -> Image:
    """One dicetower photo of ``die`` with ``value`` up."""
    return photo(DICETOWER / die / value / "1.jpg")


@functools.lru_cache(maxsize=None)
def tower_background() -> Image:
    return photo(DICETOWER / "background.jpg")


def tower_tray() -> DiceCalibration:
    """Tray calibration on the dicetower photos: four taps, the empty tray (aligned: the camera moved
    between the empty photo and the dice photos), no dice yet."""
    first = tower_photo("d20", "1")
    session = TraySession((first.shape[1], first.shape[0]))
    session.use_taps(TOWER_TAPS, first)
    session.add_empty(aligned_background(tower_background(), first))
    calibration = session.result()
    threshold = suggest_threshold(calibration.tray.warp(first), calibration.background)
    return replace(calibration, threshold=threshold)


@functools.lru_cache(maxsize=None)
def tower_calibration(kinds: tuple[str, ...] = ("d20",)) -> DiceCalibration:
    """The owner's procedure on the real photos: each face put in the tray and captured in turn."""
    calibration = tower_tray()
    for kind in kinds:
        session = FaceSession(calibration, kind)
        while session.current is not None:
            session.capture(tower_photo(kind, session.current))
        calibration = calibration.with_profile(session.profile())
    for kind in kinds:
        calibration = self_tested(calibration, kind, _tower_thrower(calibration, kind, np.random.default_rng(12)))
    return calibration


def _tower_thrower(calibration: DiceCalibration, kind: str, rng: np.random.Generator) -> Callable[[str], Image]:
    """New throws of the real photos (the die moved and turned in the tray, other light), as tray views."""
    finder = TrayFinder(calibration.background, calibration.find_settings())

    def throw(face: str) -> Image:
        view = calibration.tray.warp(tower_photo(kind, face))
        blob = max(finder.find(view).blobs, key=lambda b: b.area)
        moved, at = relocate(view, blob.centre, blob.diameter, rng)
        return photo_changes(moved, rng, Changes(glare=0.2), glare_at=at)
    return throw


@functools.lru_cache(maxsize=None)
def tower_reader(kinds: tuple[str, ...] = ("d20",)) -> DiceReader:
    return DiceReader(tower_calibration(kinds))


# -- scoring ------------------------------------------------------------------------------------

class Score:
    """Accepted-and-right, accepted-and-wrong and refused reads, with the wrong ones named."""

    def __init__(self) -> None:
        self.right = self.wrong = self.refused = 0
        self.mistakes: list[str] = []

    def add(self, truth: str, label: str, accepted: bool) -> None:
        if not accepted:
            self.refused += 1
        elif label == truth:
            self.right += 1
        else:
            self.wrong += 1
            self.mistakes.append(f"{truth} read as {label}")

    @property
    def total(self) -> int:
        return self.right + self.wrong + self.refused

    @property
    def accuracy(self) -> float:
        taken = self.right + self.wrong
        return self.right / taken if taken else 0.0

    @property
    def refusal(self) -> float:
        return self.refused / self.total if self.total else 1.0

    def __str__(self) -> str:
        return (f"{self.total} reads: {100 * self.accuracy:.2f}% of accepted right, {100 * self.refusal:.2f}% "
                f"refused; mistakes: {self.mistakes[:10]}")

    def meets_target(self) -> bool:
        return self.accuracy >= MIN_ACCURACY and self.refusal <= MAX_REFUSAL


def read_throws(reader: DiceReader, kind: str, labels: Sequence[str], throws: int, seed: int,
                photo: Callable[[str], Image], changes: Changes = Changes(glare=0.2)) -> Score:
    """Each real photo read as it is, then ``throws`` new throws made from it (die turned and moved, other light)."""
    rng = np.random.default_rng(seed)
    score = Score()
    for label in labels:
        view = reader.calibration.tray.warp(photo(label))
        _read_into(score, reader, view, kind, label)
        blob = max(reader.finder.find(view).blobs, key=lambda b: b.area)
        for _ in range(throws):
            moved, at = relocate(view, blob.centre, blob.diameter, rng)
            _read_into(score, reader, photo_changes(moved, rng, changes, glare_at=at), kind, label)
    return score


def _read_into(score: Score, reader: DiceReader, view: Image, kind: str, truth: str) -> None:
    read = reader.read_view(view, Expect(kind, 1))
    if read.problem or len(read.dice) != 1:
        score.add(truth, "", False)
    else:
        score.add(truth, read.dice[0].label, read.dice[0].accepted)


# -- synthetic Monster dice -------------------------------------------------------------------------

def synthetic_tray(seed: int = 5, size: tuple[int, int] = (480, 400), felt: tuple[int, int, int] = FELT,
                   walls: bool = False) -> Image:
    """A drawn felt tray filling the frame; ``walls``: with a wooden rim along its edges, which a
    camera can be lined up by (a plain felt gives nothing to notice a moved camera by)."""
    tray = tray_image(size[0], size[1], np.random.default_rng(seed), felt)
    if walls:
        cv2.rectangle(tray, (0, 0), (size[0] - 1, size[1] - 1), (60, 120, 170), 14)
        cv2.rectangle(tray, (14, 14), (size[0] - 15, size[1] - 15), (25, 60, 90), 3)
    return tray


def synthetic_calibration(look: DieLook = MONSTER_LOOK, kind: str = "monster", style: str | None = None,
                          seed: int = 5, felt: tuple[int, int, int] = FELT, self_test: bool = True,
                          walls: bool = False) -> DiceCalibration:
    """Tray (whole frame, two empty frames), one capture per face of a synthetic die and (unless
    told not to) the owner's self-test: a dozen throws, each face told."""
    rng = np.random.default_rng(seed)
    background = synthetic_tray(seed, felt=felt, walls=walls)
    session = TraySession((background.shape[1], background.shape[0]))
    session.use_whole_frame()
    session.add_empty(background)
    session.add_empty(photo_changes(background, rng, Changes((0.99, 1.01), (1.0, 1.0), 0.0, 2.0, 0.0)))
    calibration = session.result()
    faces = FaceSession(calibration, kind, style)
    while faces.current is not None:
        view, _ = scene(background, [(look, faces.current)], rng)
        faces.capture_view(view)
    calibration = calibration.with_profile(faces.profile())
    if not self_test:
        return calibration
    return self_tested(calibration, kind, lambda face: scene(background, [(look, face)], rng)[0])


def self_tested(calibration: DiceCalibration, kind: str, throw: Callable[[str], Image]) -> DiceCalibration:
    """The self-test as the owner does it on the tablet: the die thrown a dozen times (each face in
    turn; ``throw`` gives the tray view), each read told the face that was up; the result kept,
    passed or not."""
    test = SelfTest(calibration, kind)
    faces = KIND_FACES[kind]
    for number in range(test.wanted):
        face = faces[number % len(faces)]
        test.throw_view(throw(face))
        test.answer(face)
    return calibration.with_self_test(kind, test.result())


def pack_set(pack_id: str, kind: str) -> str:
    """The id of the dice set of ``kind`` a pack's games roll, from the pack's own data."""
    from companion.games.registry import pack_makers
    from companion.server.dicesets import reading

    return reading(pack_makers()[pack_id]())[kind]


def of_set(calibration: DiceCalibration, key: str, set_id: str) -> DiceCalibration:
    """``calibration`` with its profile of set ``key`` (a kind's id: its shared set) taken as the dice
    set ``set_id`` (a box's own dice; its kind's id: the shared set)."""
    profile = calibration.profiles[key]
    profiles = {other: p for other, p in calibration.profiles.items() if other != key}
    profiles[set_id] = replace(profile, set="" if set_id == profile.kind else set_id)
    return replace(calibration, profiles=profiles)


def monster_faces() -> tuple[str, ...]:
    return KIND_FACES["monster"]


def write_png(path: Path, image: Image) -> None:
    """Write a frame so a folder source sees it whole (written aside, then renamed)."""
    partial = path.with_name("." + path.name + ".part")
    ok, data = cv2.imencode(".png", image)
    assert ok
    partial.write_bytes(data.tobytes())
    partial.rename(path)


def geometry_of(calibration: DiceCalibration) -> TrayGeometry:
    return calibration.tray


class Tray:
    """A camera's folder: a test drops tray pictures into it, as a webcam would see
    them, starting with the empty tray; thrown Monster dice fly (blurred), then rest."""

    def __init__(self, folder: Path, background: Image, seed: int) -> None:
        self.folder, self.background = folder, background
        folder.mkdir()
        self.count = 0
        self.rng = np.random.default_rng(seed)
        self.put(background)

    def put(self, image: Image) -> None:
        write_png(self.folder / f"{self.count:04d}.png", image)
        self.count += 1

    def throw(self, *faces: str) -> None:
        flying, _ = scene(self.background, [(MONSTER_LOOK, "hit") for _ in faces], self.rng)
        self.put(np.asarray(cv2.GaussianBlur(flying, (0, 0), 3.0), dtype=np.uint8))
        self.put(scene(self.background, [(MONSTER_LOOK, face) for face in faces], self.rng)[0])


# -- the public pip d6 set -------------------------------------------------------------------------

def nell_byler_crops(split: str, per_face: int | None = None) -> list[tuple[str, np.ndarray, tuple[str, int]]]:
    """The labelled boxes of one split of the public pip set, each cut with 15 % around it (at
    most ``per_face`` per face), with where each comes from: (photo, box number in its file)."""
    found: list[tuple[str, np.ndarray, tuple[str, int]]] = []
    counts: dict[str, int] = {}
    for label, image, box, where in _nell_byler_boxes(split):
        if per_face is not None and counts.get(label, 0) >= per_face:
            if len(counts) == 6 and min(counts.values()) >= per_face:
                break
            continue
        counts[label] = counts.get(label, 0) + 1
        found.append((label, _labelled_box(image, box), where))
    return found


def nell_byler_throws(split: str, throws: int, seed: int) -> list[tuple[str, np.ndarray, tuple[str, int]]]:
    """New throws of every labelled die of one split: the whole photo turned to any angle about
    the die, the die cut by its labelled box (15 % around it) as before, and put in other light
    (brighter, dimmer, warmer, colder, noisier, softer, sometimes a glare spot).

    Why the same box, not the upright box around the turned one: the die's size is read off
    its crop (``middle_of``), as a tray finder would measure it, and a die does not grow when
    it turns; a crop up to 1.4 times wider makes the die look that much bigger (measured on
    train dice: a third of them refused for that alone). A die square in its box and turned
    by 45° loses the tips of its corners to the crop; its top face stays whole."""
    rng = np.random.default_rng(seed)
    found: list[tuple[str, np.ndarray, tuple[str, int]]] = []
    for label, image, box, where in _nell_byler_boxes(split):
        for _ in range(throws):
            found.append((label, _thrown(image, box, rng), where))
    return found


def nell_byler_throw(split: str, where: tuple[str, int], seed: int) -> tuple[str, np.ndarray]:
    """One new throw (as ``nell_byler_throws`` makes them) of one labelled die: (label, crop)."""
    labels = NELL_BYLER / split / f"{where[0]}.json"
    image = photo(labels.with_suffix(".jpg"))
    item = json.loads(labels.read_text())[where[1]]
    return str(item["label"]), _thrown(image, item["box"], np.random.default_rng(seed))


def _thrown(image: np.ndarray, box: list[float], rng: np.random.Generator) -> np.ndarray:
    crop = _labelled_box(_turned_about(image, box, float(rng.uniform(0.0, 360.0))), box)
    middle = (crop.shape[1] / 2.0, crop.shape[0] / 2.0)
    return photo_changes(crop, rng, Changes(glare=0.2), glare_at=middle)


def _turned_about(image: np.ndarray, box: list[float], angle: float) -> np.ndarray:
    centre = ((box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0)
    turn = cv2.getRotationMatrix2D(centre, angle, 1.0)
    return np.asarray(cv2.warpAffine(image, turn, (image.shape[1], image.shape[0]), borderMode=cv2.BORDER_REFLECT),
                      dtype=np.uint8)


def _nell_byler_boxes(split: str) -> Iterator[tuple[str, np.ndarray, list[float], tuple[str, int]]]:
    """Every labelled box of a split, photo by photo: (label, photo, box, (photo name, box number))."""
    found = sorted((NELL_BYLER / split).glob("*.json"))
    assert found, f"{NELL_BYLER / split} holds no labelled photos (tests/data/dice/README.md)"
    for labels in found:
        image = photo(labels.with_suffix(".jpg"))
        for number, item in enumerate(json.loads(labels.read_text())):
            yield str(item["label"]), image, item["box"], (labels.stem, number)


def _labelled_box(image: np.ndarray, box: list[float]) -> np.ndarray:
    """The box with 15 % of its size around it (as ``--cut-boxes`` cuts)."""
    x0, y0, x1, y1 = box
    dx, dy = (x1 - x0) * 0.15, (y1 - y0) * 0.15
    return np.ascontiguousarray(image[max(0, int(y0 - dy)):int(y1 + dy) + 1, max(0, int(x0 - dx)):int(x1 + dx) + 1])


# -- dice that are not lying flat and whole, made of real photos ------------------------------------

def face_square(view: Image, blob: Blob) -> Image:
    """The top face of a real die photographed from straight above, turned square to the picture."""
    side = math.sqrt(blob.area)
    turn = cv2.getRotationMatrix2D(blob.centre, blob.angle, 1.0)
    turn[0, 2] += side / 2 - blob.centre[0]
    turn[1, 2] += side / 2 - blob.centre[1]
    return np.asarray(cv2.warpAffine(view, turn, (int(side), int(side)), flags=cv2.INTER_LINEAR), dtype=np.uint8)


def tilted_cube(tray: Image, top: Image, side: Image, tilt: float, at: Point, turn: float) -> Image:
    """``tray`` with a cube leaning by ``tilt`` degrees, as a camera straight above sees it: its top
    face (a real face photo, ``face_square``) shortened by cos(tilt), and beside it the side face
    that comes into view (another real face photo), sin(tilt) deep and in shade; turned by
    ``turn`` degrees about ``at``, its middle."""
    return cube_seen(tray, top, side, math.cos(math.radians(tilt)), math.sin(math.radians(tilt)), at, turn)


def oblique_cube(tray: Image, top: Image, side: Image, slant: float, at: Point, turn: float) -> Image:
    """``tray`` (the tray's top-down view) with a cube lying flat, as a camera ``slant`` degrees
    off straight down sees it once the tray's floor is squared up: its top face whole, and the side
    face towards the camera laid out beside it, tan(slant) deep (a camera looking through a dome
    or from the side of the table)."""
    return cube_seen(tray, top, side, 1.0, math.tan(math.radians(slant)), at, turn)


def cube_seen(tray: Image, top: Image, side: Image, top_depth: float, side_depth: float, at: Point,
              turn: float) -> Image:
    """``tray`` with a cube's top face (``top_depth`` of its side deep) and one side face beside it
    (``side_depth`` deep, in shade), turned by ``turn`` degrees about ``at``, its middle."""
    size = top.shape[0]
    deep = int(round(size * side_depth))
    parts = [cv2.resize(top, (size, max(1, int(round(size * top_depth)))), interpolation=cv2.INTER_AREA)]
    if deep > 0:
        parts.append(np.asarray(cv2.resize(side, (size, deep), interpolation=cv2.INTER_AREA) * 0.6, dtype=np.uint8))
    die = np.vstack(parts)
    die = cv2.copyMakeBorder(die, size, size, size, size, cv2.BORDER_CONSTANT)
    cover = cv2.copyMakeBorder(np.full((sum(p.shape[0] for p in parts), size), 255, np.uint8), size, size, size, size,
                               cv2.BORDER_CONSTANT)
    middle = (size + size / 2.0, size + (die.shape[0] - 2 * size) / 2.0)
    move = cv2.getRotationMatrix2D(middle, turn, 1.0)
    move[0, 2] += at[0] - middle[0]
    move[1, 2] += at[1] - middle[1]
    shape = (tray.shape[1], tray.shape[0])
    placed = cv2.warpAffine(die, move, shape).astype(np.float32)
    weight = cv2.GaussianBlur(cv2.warpAffine(cover, move, shape), (3, 3), 0).astype(np.float32)[..., None] / 255.0
    return np.asarray(tray * (1.0 - weight) + placed * weight, dtype=np.uint8)


def recoloured(view: Image, blob: Blob, hue: float) -> Image:
    """``view`` with its colours turned (Lab a/b about grey) so ``blob``'s body has ``hue`` degrees:
    another die in the calibrated die's colour."""
    lab = cv2.cvtColor(view, cv2.COLOR_BGR2LAB).astype(np.float32)
    a, b = lab[..., 1] - 128.0, lab[..., 2] - 128.0
    by = math.radians(hue) - math.atan2(blob.colour[2] - 128.0, blob.colour[1] - 128.0)
    lab[..., 1] = 128.0 + a * math.cos(by) - b * math.sin(by)
    lab[..., 2] = 128.0 + a * math.sin(by) + b * math.cos(by)
    return np.asarray(cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR), dtype=np.uint8)


# -- a tray of another shape on the real photos ------------------------------------------------------

#: A hexagonal tray inside the shipped dicetower frames, as an owner would tap its rim (six corners).
HEX_RIM: tuple[Point, ...] = tuple((220.0 + 170.0 * math.cos(math.radians(a)), 224.0 + 170.0 * math.sin(math.radians(a)))
                                   for a in range(0, 360, 60))


def in_hex_tray(frame: Image, rng: np.random.Generator, rim: Sequence[Point] = HEX_RIM) -> Image:
    """A real dicetower frame as a hexagonal tray on a busy table would show it: inside the rim the
    photo as it is, a grey wall along the rim, and outside it a table and cloth that change from shot to
    shot (the photo itself shifted and tinted, and coloured things lying about: other dice, a sleeve)."""
    height, width = frame.shape[:2]
    polygon = [np.round(np.asarray(rim)).astype(np.int32)]
    inside = np.zeros((height, width), np.uint8)
    cv2.fillPoly(inside, polygon, 255)
    table = np.roll(frame, (int(rng.integers(-80, 80)), int(rng.integers(-80, 80))), axis=(0, 1)).astype(np.float32)
    table = table * rng.uniform(0.6, 1.4, 3) + rng.uniform(-30, 30, 3)
    for _ in range(6):
        centre = (int(rng.integers(0, width)), int(rng.integers(0, height)))
        axes = (int(rng.integers(10, 60)), int(rng.integers(5, 30)))
        cv2.ellipse(table, centre, axes, float(rng.uniform(0, 180)), 0, 360, tuple(float(v) for v in rng.uniform(0, 255, 3)), -1)
    shown = frame.copy()
    outside = inside == 0
    shown[outside] = np.clip(table, 0, 255).astype(np.uint8)[outside]
    cv2.polylines(shown, polygon, True, (90, 90, 95), 5)
    return shown
