"""How well does the camera read these dice? Calibrate as the tablet does, then read.

    python -m calibration.dice_evaluate CALIBRATION TEST [options]

CALIBRATION is either

* a **saved calibration**: the folder the tablet saves (``<state>/dice``, with its
  ``calibration.json``) or the zip it exports; it is used as it is, self-test
  and all; or
* a **folder of camera frames**, calibrated here step by step as the tablet
  does it: ``empty/`` holds pictures of the empty tray (or give ``--background``
  with one photo of it, aligned onto the first face photo), ``<label>/`` the
  face photos (labels ``1``..``20``, ``hit``/``pow``/``blank`` or ``1``..``6``).
  The tray is four corner taps on the first face photo (``--tray``), taps along
  the rim of a tray of any shape (``--outline``: outside it nothing is read), the
  four ArUco markers in the first empty picture (``--markers``), or the whole frame.
  Every face photo is checked as at the tablet (flat, whole, sharp, like the
  others) and a refused one is named with why; a face left with no photo stops
  the command. Then the self-test: the throws of ``--self-test DIR``
  (``<label>/<frame>``), or, without it, the face photos read by calibrations
  made without them (each face's first photos left out, then its second, ...),
  or with one photo per face twelve new throws made from the photos. The camera
  answers by itself only if the self-test passed, as at the table.

TEST is ``<label>/<frame>`` (each read and scored) or a folder of frames (each
read and printed). Every frame is read as the table reads it: the camera's
size and place checked against the calibration, the dice found and checked
against their face photos, read, and answered only if every one is accepted
and the self-test passed. ``--augment N`` adds N new throws per test frame
(the die turned and moved in the tray view, other light, noise, blur, glare).

It prints the calibration's refusals, the self-test's estimate and verdict,
the accuracy of the answered reads, the refusals with why, a confusion table
(rows: true face; columns: read, "-" = refused) and milliseconds per read over
every frame; and what the reader accepted when the self-test did not pass. The
exit status is 0 whatever the numbers (it measures; the tests judge), 2 when
the calibration cannot be made. Without any picture of the empty tray it reads
the images as close crops (below), as the command always did.

``python -m hardware.dice.evaluate`` (the command's old name) runs this module.

    python -m calibration.dice_evaluate CROPS TEST --crops

reads close crops of one die each (a dataset's labelled boxes, no tray): the
die is found against the crop's border, or taken as the crop's middle; no look,
camera or self-test check (they need a tray).

    python -m calibration.dice_evaluate --cut-boxes SRC DST

cuts the labelled boxes of a dataset's frames (``<frame>.jpg`` + ``<frame>.json``
lists of ``{"label", "box"}``) into ``DST/<label>/<frame>-<i>.png`` crops.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Sequence

import cv2
import numpy as np

from calibration.dice import (KIND_FACES, CalibrationError, DiceCalibration, FaceSession, FaceShot, SelfTest,
                              TraySession, aligned_background, build_profile, load_calibration, restore_calibration,
                              suggest_threshold)
from hardware.dice.calibrated import DieProfile, SelfTestResult, TrayGeometry
from hardware.dice.imaging import Image, Point, crop_around, encode_png, read_image
from hardware.dice.reader import DiceReader, Expect, ReaderSettings, TrayRead
from hardware.dice.segment import Blob, find_single, middle_of
from hardware.dice.synthetic import Changes, carry, changes_for, photo_changes, relocate, spot_in_tray

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp")
REFUSED = "-"
EMPTY = "empty"  # the folder of empty-tray pictures in CALIBRATION


@dataclass(frozen=True)
class Sample:
    label: str
    path: Path


@dataclass
class Tally:
    """Reads of one test run: (truth, read or REFUSED) pairs, times and refusals' reasons."""

    pairs: list[tuple[str, str]] = field(default_factory=list)
    millis: list[float] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=dict)

    def add(self, truth: str, read: str, millis: float, why: str = "") -> None:
        self.pairs.append((truth, read))
        self.millis.append(millis)
        if why:
            self.reasons[why] = self.reasons.get(why, 0) + 1

    @property
    def accepted(self) -> list[tuple[str, str]]:
        return [p for p in self.pairs if p[1] != REFUSED]

    @property
    def accuracy(self) -> float | None:
        """Share of the accepted reads that were right; None when none was accepted (no read, no
        accuracy: never shown as 100 %)."""
        taken = self.accepted
        return sum(t == r for t, r in taken) / len(taken) if taken else None

    @property
    def refusal(self) -> float:
        return 1.0 - len(self.accepted) / len(self.pairs) if self.pairs else 0.0


# -- reading the folders ----------------------------------------------------------------------

def samples(folder: Path, skip: Sequence[str] = ()) -> list[Sample]:
    """Every ``<label>/<image>`` under ``folder`` (but the ``skip`` folders), in a stable order."""
    if not folder.is_dir():
        raise SystemExit(f"{folder}: no such folder (expected <folder>/<label>/<image>)")
    found = [Sample(label.name, path) for label in sorted(folder.iterdir()) if label.is_dir() and label.name not in skip
             for path in sorted(label.iterdir()) if path.suffix.lower() in IMAGE_SUFFIXES]
    if not found:
        raise SystemExit(f"{folder}: no <label>/<image> files found")
    return found


def images_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)


def kind_of(labels: set[str]) -> str:
    """The die kind the labels belong to (d6 if they fit one, then d20, then the Monster die)."""
    for kind in ("d6", "d20", "monster"):
        if labels <= set(KIND_FACES[kind]):
            return kind
    raise SystemExit(f"labels {sorted(labels)} fit no die kind (d20: 1-20, d6: 1-6, monster: hit/pow/blank)")


def load(path: Path, scale: float = 1.0) -> Image:
    """An image, resized by ``scale`` (``--scale``: what a smaller camera would see)."""
    image = read_image(str(path))
    if image is None:
        raise SystemExit(f"{path}: not an image")
    if scale != 1.0:
        image = np.asarray(cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA),
                           dtype=np.uint8)
    return image


def _spread(shots: list[Sample], most: int) -> list[Sample]:
    """At most ``most`` photos per face, spread over the ones given."""
    chosen: list[Sample] = []
    for label in sorted({s.label for s in shots}):
        of_label = [s for s in shots if s.label == label]
        step = max(1, len(of_label) / most)
        chosen.extend(of_label[int(i * step)] for i in range(min(most, len(of_label))))
    return chosen


# -- calibrating as the tablet does -----------------------------------------------------------

class NotCalibrated(Exception):
    """The calibration cannot be made (a face with no usable photo): why, and each photo refused."""

    def __init__(self, why: str, refused: list[str]) -> None:
        super().__init__(why)
        self.why, self.refused = why, refused


@dataclass
class Calibrated:
    """A calibration made (or loaded) here, with what was refused on the way."""

    calibration: DiceCalibration
    kind: str
    refused: list[str] = field(default_factory=list)
    self_test: str = ""  # how the self-test was done


def calibrate_frames(arguments: argparse.Namespace, shots: list[Sample], kind: str, style: str) -> Calibrated:
    """The tablet's steps on a folder of frames: tray, empty tray, each face photo, the self-test."""
    shots = _spread(shots, arguments.max_shots)
    first = load(shots[0].path, arguments.scale)
    base = tray_calibration(arguments, first)
    if len(_empty_frames(arguments)) < 2:  # no flicker to judge the tray's noise by: the photos' own split
        frames = [load(s.path, arguments.scale) for s in shots]
        views = [base.tray.warp(frame) for frame in frames if frame.shape == first.shape]
        base = DiceCalibration(base.tray, base.background, suggest_threshold(views, base.background, base.tray.inside()), {},
                               base.exposure, base.created, base.scene)
    session = FaceSession(base, kind, style)
    refused = [problem for sample in shots if (problem := _capture(session, sample, arguments.scale))]
    refused += _drop_unlike(session)
    missing = [face for face in session.faces if face not in session.shots]
    if missing:
        raise NotCalibrated(f"no usable photo of face(s) {', '.join(missing)}", refused)
    done = Calibrated(base.with_profile(session.profile()), kind, refused)
    return self_tested(done, arguments, shots, session)


def tray_calibration(arguments: argparse.Namespace, first: Image) -> DiceCalibration:
    """The tray (taps on the first face photo, the markers, or the whole frame) and the empty tray."""
    height, width = first.shape[:2]
    session = TraySession((width, height))
    empties = _empty_frames(arguments)
    corners = corners_of(arguments.tray, arguments.scale)
    outline = outline_of(arguments.outline, arguments.scale)
    try:
        if arguments.markers:
            session.use_markers(empties[0] if empties else first)
        elif outline:
            session.use_outline(outline, first)
        elif corners:
            session.use_taps(corners, first)
        else:
            session.use_whole_frame(first)
        for frame in empties or [aligned_background(_background(arguments), first)]:
            session.add_empty(frame)
        return session.result()
    except CalibrationError as problem:
        raise NotCalibrated(f"the tray: {problem}", []) from None


def _empty_frames(arguments: argparse.Namespace) -> list[Image]:
    folder = arguments.calibration / EMPTY
    return [load(path, arguments.scale) for path in images_in(folder)] if folder.is_dir() else []


def _background(arguments: argparse.Namespace) -> Image:
    found = background_of(arguments)
    if found is None:
        raise NotCalibrated(f"no picture of the empty tray (put some in {arguments.calibration / EMPTY}"
                            " or give --background)", [])
    return found


def _capture(session: FaceSession, sample: Sample, scale: float) -> str:
    """One face photo taken as the tablet takes it; the why if it is refused ("" if taken)."""
    try:
        session.capture(load(sample.path, scale), sample.label)
    except CalibrationError as problem:
        return f"refused {sample.path}: {problem}"
    return ""


def _drop_unlike(session: FaceSession) -> list[str]:
    """Photos that are not like the others once all are in (checked again, as Finish does): dropped."""
    refused = []
    for face, index, why in sorted(session.problems(), key=lambda p: -p[1]):
        refused.append(f"refused photo {index + 1} of face {face}: {why}")
        session.drop(face, index)
    return refused


# -- the self-test ----------------------------------------------------------------------------

def self_tested(done: Calibrated, arguments: argparse.Namespace, shots: list[Sample], session: FaceSession) -> Calibrated:
    """The self-test, with the throws given, else the photos read without themselves, else new throws."""
    if arguments.self_test is not None:
        result, how = _throws_given(done, arguments), f"the {len(samples(arguments.self_test))} throws in {arguments.self_test}"
    elif min(len(photos) for photos in session.shots.values()) >= 2:
        result, how = _photos_held_out(done, arguments, shots), "each face photo read by a calibration made without it"
    else:
        result, how = _new_throws(done, arguments.seed), "12 new throws made from the face photos (one photo per face)"
    return Calibrated(done.calibration.with_self_test(done.kind, result), done.kind, done.refused, how)


def _throws_given(done: Calibrated, arguments: argparse.Namespace) -> SelfTestResult:
    test = SelfTest(done.calibration, done.kind, wanted=1)
    for sample in samples(arguments.self_test):
        try:
            test.throw(load(sample.path, arguments.scale))
            test.answer(sample.label)
        except CalibrationError as problem:
            test.add(sample.label, "", False, str(problem))
    return test.result()


def _photos_held_out(done: Calibrated, arguments: argparse.Namespace, shots: list[Sample]) -> SelfTestResult:
    """Each face's k-th photo read by a calibration of the others (k = 1, 2, ...): every photo once."""
    test = SelfTest(done.calibration, done.kind, wanted=1)
    order = [[t for t in shots if t.label == s.label].index(s) for s in shots]
    for fold in range(max(order) + 1):
        left_out = [s for s, k in zip(shots, order) if k == fold]
        kept = [s for s, k in zip(shots, order) if k != fold or _only(s, shots)]
        reader = _fold_reader(done, arguments, kept)
        for sample in left_out:
            if reader is None or _only(sample, shots):
                continue
            read = reader.read(load(sample.path, arguments.scale), Expect(done.kind, 1))
            die = read.dice[0] if len(read.dice) == 1 and not read.problem else None
            test.add(sample.label, die.label if die else "", die is not None and die.accepted,
                     read.problem or (die.why if die else "no die found"))
    return test.result()


def _only(sample: Sample, shots: list[Sample]) -> bool:
    return sum(s.label == sample.label for s in shots) < 2


def _fold_reader(done: Calibrated, arguments: argparse.Namespace, kept: list[Sample]) -> DiceReader | None:
    base = done.calibration
    session = FaceSession(DiceCalibration(base.tray, base.background, base.threshold, {}, base.exposure,
                                          base.created, base.scene), done.kind, base.profiles[done.kind].style)
    for sample in kept:
        _capture(session, sample, arguments.scale)
    _drop_unlike(session)
    if any(face not in session.shots for face in session.faces):
        return None
    return DiceReader(session.calibration.with_profile(session.profile()))


def _new_throws(done: Calibrated, seed: int) -> SelfTestResult:
    test = SelfTest(done.calibration, done.kind)
    rng = np.random.default_rng(seed)
    profile = done.calibration.profiles[done.kind]
    for number in range(test.wanted):
        shot = profile.shots[number % len(profile.shots)]
        view = _shot_in_tray(done.calibration, shot, rng)
        try:
            test.throw_view(view)
            test.answer(shot.label)
        except CalibrationError as problem:
            test.add(shot.label, "", False, str(problem))
    return test.result()


def _shot_in_tray(calibration: DiceCalibration, shot: FaceShot, rng: np.random.Generator) -> Image:
    """A face photo carried into the empty tray, turned and moved, in other light."""
    view = calibration.background.copy()
    target = spot_in_tray(view.shape[:2], shot.diameter, rng, calibration.tray.inside())
    carry(view, shot.image, shot.centre, shot.diameter, target, float(rng.uniform(0, 360)))
    return photo_changes(view, rng, changes_for(shot.diameter, Changes(glare=0.2)), glare_at=target)


# -- reading ----------------------------------------------------------------------------------

@dataclass
class Readings:
    """The test reads twice over: as the table answers them (``answered``), and as the reader accepted
    them whether or not the self-test lets it answer (``accepted``)."""

    answered: Tally = field(default_factory=Tally)
    accepted: Tally = field(default_factory=Tally)


def read_frames(reader: DiceReader, tests: list[Sample], kind: str, arguments: argparse.Namespace) -> Readings:
    rng = np.random.default_rng(arguments.seed)
    readings = Readings()
    for sample in tests:
        frame = tinted(load(sample.path, arguments.scale), arguments.tint)
        read = _timed(lambda: reader.read(frame, Expect(kind, 1)))
        _count(readings, sample.label, read)
        for view in _throws_of(reader, frame, read, rng, arguments.augment):
            _count(readings, sample.label, _timed(lambda: reader.read_view(view, Expect(kind, 1))))
    return readings


def tinted(image: Image, tint: str | None) -> Image:
    """``--tint R,G,B``: the test frames in light of another colour (each channel's gain: 1.2,1,0.8 is a
    warm lamp), to see whether a calibration made in one light reads in another."""
    if not tint:
        return image
    gains = [float(v) for v in tint.split(",")]
    if len(gains) != 3 or not all(0.0 < g <= 4.0 for g in gains):
        raise SystemExit("--tint needs three gains R,G,B between 0 and 4")
    blue_green_red = np.array(gains[::-1], np.float32)
    return np.asarray(np.clip(image.astype(np.float32) * blue_green_red, 0, 255), np.uint8)


def _timed(work: Callable[[], TrayRead]) -> TrayRead:
    start = time.perf_counter()
    read = work()
    return TrayRead(read.dice, read.others, read.expect, read.problem, (time.perf_counter() - start) * 1000.0,
                    read.moved, read.off)


def _count(readings: Readings, truth: str, read: TrayRead) -> None:
    """A read into both tallies; its time is the whole read, however it ended."""
    die = read.dice[0] if len(read.dice) == 1 else None
    why = _reason(read.problem or (die.why if die is not None and not die.accepted else ""))
    answer = read.answer()
    readings.answered.add(truth, die.label if answer is not None and die is not None else REFUSED, read.millis,
                          why or _reason(read.off))
    accepted = die is not None and die.accepted and not read.problem
    readings.accepted.add(truth, die.label if accepted and die is not None else REFUSED, read.millis, why)


def _reason(why: str) -> str:
    return why.split(" (")[0].split(": calibrate")[0]


def _throws_of(reader: DiceReader, frame: Image, read: TrayRead, rng: np.random.Generator, count: int) -> Iterator[Image]:
    """New throws of a test frame's die (moved and turned in the tray view, other light)."""
    if count <= 0 or read.moved or len(read.dice) != 1:
        return
    view = reader.calibration.tray.warp(frame)
    die = read.dice[0]
    inside = reader.calibration.tray.inside()
    for _ in range(count):
        moved, at = relocate(view, die.centre, die.diameter, rng, inside=inside)
        yield photo_changes(moved, rng, changes_for(die.diameter, Changes(glare=0.2)), glare_at=at)


def read_folder(reader: DiceReader, folder: Path, kind: str, scale: float) -> str:
    """Every frame of an unlabelled folder read and described, one line each."""
    lines = []
    for path in images_in(folder):
        read = _timed(lambda: reader.read(load(path, scale), Expect(kind, 1)))
        answer = read.answer()
        shown = ", ".join(f"{d.label or '?'}{'' if d.accepted else ' (refused: ' + d.why + ')'}" for d in read.dice)
        state = f"answered {answer}" if answer is not None else f"not answered: {read.problem or read.off or shown}"
        lines.append(f"{path.name}: {shown or 'no die'}; {state} ({read.millis:.1f} ms)")
    return "\n".join(lines)


# -- close crops (dataset boxes) ---------------------------------------------------------------

def crop_die(view: Image) -> Blob:
    """The die against the crop's border; failing that (a white die on white), the crop's middle."""
    found = find_single(view)
    return found if found is not None else middle_of(view)


def crops_reader(shots: list[Sample], kind: str, style: str, arguments: argparse.Namespace) -> DiceReader:
    faces, blobs = [], []
    for sample in _spread(shots, arguments.max_shots):
        view = load(sample.path, arguments.scale)
        blob = crop_die(view)
        faces.append(FaceShot(sample.label, crop_around(view, blob.centre, blob.diameter, 1.5), blob.diameter))
        blobs.append(blob)
    first = load(shots[0].path, arguments.scale)
    height, width = first.shape[:2]
    calibration = DiceCalibration(TrayGeometry.whole_frame(width, height), first, 40.0)
    return DiceReader(calibration.with_profile(build_profile(kind, style, faces, blobs)), ReaderSettings())


def read_crops(reader: DiceReader, tests: list[Sample], kind: str, arguments: argparse.Namespace) -> Tally:
    rng = np.random.default_rng(arguments.seed)
    tally = Tally()
    for sample in tests:
        view = load(sample.path, arguments.scale)
        _read_crop(reader, view, sample.label, kind, tally)
        centre = crop_die(view).centre
        for _ in range(arguments.augment):
            matrix = cv2.getRotationMatrix2D(centre, float(rng.uniform(0, 360)), 1.0)
            turned = cv2.warpAffine(view, matrix, (view.shape[1], view.shape[0]), borderMode=cv2.BORDER_REPLICATE)
            _read_crop(reader, photo_changes(np.asarray(turned, np.uint8), rng, Changes(glare=0.2), glare_at=centre),
                       sample.label, kind, tally)
    return tally


def _read_crop(reader: DiceReader, view: Image, truth: str, kind: str, tally: Tally) -> None:
    start = time.perf_counter()
    read = reader.read_die(view, crop_die(view), kind)
    tally.add(truth, read.label if read.accepted else REFUSED, (time.perf_counter() - start) * 1000.0,
              _reason(read.why))


# -- the report -------------------------------------------------------------------------------

def report(tally: Tally, faces: Sequence[str]) -> str:
    if not tally.pairs:
        return "reads: 0 (nothing was read)"
    wrong = sum(t != r for t, r in tally.accepted)
    accuracy = tally.accuracy
    lines = [f"reads: {len(tally.pairs)}  accepted: {len(tally.accepted)}  wrong: {wrong}",
             "accuracy of accepted reads: " + ("none accepted" if accuracy is None else f"{100 * accuracy:.2f}%"),
             f"refused: {100 * tally.refusal:.2f}%",
             f"ms per read (every read, however it ended): mean {statistics.fmean(tally.millis):.1f}, "
             f"p95 {float(np.percentile(tally.millis, 95)):.1f}", "", confusion(tally, faces)]
    if tally.reasons:
        lines += ["", "refusals and why:"] + [f"  {n:5d}  {why}" for why, n in
                                             sorted(tally.reasons.items(), key=lambda kv: -kv[1]) if why]
    return "\n".join(lines)


def confusion(tally: Tally, faces: Sequence[str]) -> str:
    """Rows: the true face; columns: what was read ("-": refused)."""
    columns = [f for f in faces if any(f in pair for pair in tally.pairs)] + [REFUSED]
    rows = [f for f in faces if any(t == f for t, _ in tally.pairs)]
    width = max(5, *(len(c) + 1 for c in columns))
    head = "true\\read".ljust(10) + "".join(c.rjust(width) for c in columns)
    body = [row.ljust(10) + "".join(str(tally.pairs.count((row, c)) or ".").rjust(width) for c in columns)
            for row in rows]
    return "\n".join([head, *body])


def calibration_report(done: Calibrated, style: str) -> str:
    profile = done.calibration.profiles[done.kind]
    lines = [f"{done.kind} ({style}): {len(profile.shots)} face photos taken" +
             (f", {len(done.refused)} refused:" if done.refused else "")]
    lines += [f"  {why}" for why in done.refused]
    if style == "pips":
        lines.append(pip_helpers(profile))
    learned = ", ".join(profile.learned_faces) or "none"
    lines.append(f"the learned reader speaks for faces: {learned}")
    test = profile.self_test
    if test is None:
        lines.append("self-test: none (the camera would not answer by itself)")
    else:
        verdict = "passed: the camera answers by itself" if test.passed else "not passed: every roll is asked on the tablet"
        lines.append(f"self-test ({done.self_test or 'as saved'}): {test.estimate}; {verdict}")
        lines += [f"  to change: {advice}" for advice in test.advice]
    scene = done.calibration.scene
    if scene is None or not scene.usable:
        lines.append("camera check: none (no tray edges to line frames up by): a moved camera is not noticed")
    return "\n".join(lines)


def pip_helpers(profile: DieProfile) -> str:
    """Which second and third opinions a pip die got at calibration, for the owner to see."""
    counter = "the pips are counted" if profile.pip_area is not None else "the pips could not be counted on its photos"
    faces = ", ".join(profile.net_faces) if profile.net_faces else "none"
    return f"{counter}; the pip network speaks for faces: {faces}"


# -- cutting dataset boxes --------------------------------------------------------------------

def cut_boxes(source: Path, target: Path, margin: float) -> int:
    """Labelled boxes of ``source``'s frames as ``target/<label>/<frame>-<i>.png`` crops."""
    count = 0
    for labels in sorted(source.glob("*.json")):
        frame = next((p for p in (labels.with_suffix(s) for s in IMAGE_SUFFIXES) if p.exists()), None)
        if frame is None:
            continue
        image = load(frame)
        for i, item in enumerate(json.loads(labels.read_text())):
            if isinstance(item, dict) and "box" in item:
                _save_box(image, item, target / str(item["label"]) / f"{labels.stem}-{i}.png", margin)
                count += 1
    return count


def _save_box(image: Image, item: dict[str, object], path: Path, margin: float) -> None:
    box = item["box"]
    assert isinstance(box, list) and len(box) == 4
    x0, y0, x1, y1 = (float(v) for v in box)
    pad_x, pad_y = (x1 - x0) * margin, (y1 - y0) * margin
    top, left = max(0, int(y0 - pad_y)), max(0, int(x0 - pad_x))
    crop = image[top:int(y1 + pad_y) + 1, left:int(x1 + pad_x) + 1]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(encode_png(np.ascontiguousarray(crop)))


# -- the command ------------------------------------------------------------------------------

def parser() -> argparse.ArgumentParser:
    ask = argparse.ArgumentParser(prog="python -m calibration.dice_evaluate", description=__doc__.split("\n\n")[0])
    ask.add_argument("calibration", type=Path, help="CALIBRATION: a saved calibration (folder or zip), a folder of "
                                                    "frames, or SRC with --cut-boxes")
    ask.add_argument("test", type=Path, help="TEST_DIR (or DST with --cut-boxes)")
    ask.add_argument("--kind", choices=sorted(KIND_FACES), help="die kind (default: from the labels)")
    ask.add_argument("--style", choices=("numerals", "pips", "symbols"), help="d6 faces: numerals or pips")
    ask.add_argument("--set", help="a saved calibration's dice set of that kind to read with (default: its only one)")
    ask.add_argument("--background", type=Path, help="one photo of the empty tray (else CALIBRATION/empty/)")
    ask.add_argument("--tray", help="four corner taps x,y,x,y,x,y,x,y (top-left, top-right, bottom-right, "
                                    "bottom-left) on the first face photo")
    ask.add_argument("--outline", help="a tray of any shape: taps along its rim in order, x,y,x,y,... (at least "
                                       "three points) on the first face photo; outside it nothing is read")
    ask.add_argument("--markers", action="store_true", help="find the tray by its four ArUco markers")
    ask.add_argument("--self-test", type=Path, help="labelled throws <label>/<frame> for the self-test")
    ask.add_argument("--crops", action="store_true", help="close crops of one die each (dataset boxes), no tray")
    ask.add_argument("--augment", type=int, default=0, help="new throws made from each test image")
    ask.add_argument("--tint", help="the test frames in coloured light: gains R,G,B (e.g. 1.2,1,0.8)")
    ask.add_argument("--seed", type=int, default=1)
    ask.add_argument("--max-shots", type=int, default=12, help="face photos kept per face")
    ask.add_argument("--scale", type=float, default=1.0, help="resize every image (and the taps) by this")
    ask.add_argument("--cut-boxes", action="store_true", help="cut labelled dataset boxes into crops")
    ask.add_argument("--margin", type=float, default=0.15, help="--cut-boxes: margin around each box")
    return ask


def corners_of(text: str | None, scale: float = 1.0) -> list[Point] | None:
    if not text:
        return None
    values = [float(v) * scale for v in text.split(",")]
    if len(values) != 8:
        raise SystemExit("--tray needs eight numbers: x,y of four corners")
    return [(values[i], values[i + 1]) for i in range(0, 8, 2)]


def outline_of(text: str | None, scale: float = 1.0) -> list[Point] | None:
    if not text:
        return None
    values = [float(v) * scale for v in text.split(",")]
    if len(values) % 2 or len(values) < 6:
        raise SystemExit("--outline needs x,y of at least three points along the tray's rim")
    return [(values[i], values[i + 1]) for i in range(0, len(values), 2)]


def background_of(arguments: argparse.Namespace) -> Image | None:
    if arguments.background is not None:
        return load(arguments.background, arguments.scale)
    found = sorted(p for p in arguments.calibration.glob("background.*") if p.suffix.lower() in IMAGE_SUFFIXES)
    return load(found[0], arguments.scale) if found else None


def saved_calibration(path: Path) -> DiceCalibration | None:
    """A calibration the tablet saved (its folder) or exported (its zip); None if ``path`` is neither."""
    try:
        if path.is_file() and path.suffix.lower() == ".zip":
            with tempfile.TemporaryDirectory() as scratch:
                return restore_calibration(path.read_bytes(), Path(scratch) / "dice")
        if (path / "calibration.json").is_file():
            return load_calibration(path)
    except CalibrationError as problem:
        raise SystemExit(f"{path}: {problem}") from None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parser().parse_args(argv)
    if arguments.cut_boxes:
        print(f"{cut_boxes(arguments.calibration, arguments.test, arguments.margin)} crops written")
        return 0
    saved = saved_calibration(arguments.calibration)
    shots = samples(arguments.calibration, skip=(EMPTY,)) if saved is None else []
    if not arguments.test.is_dir():
        raise SystemExit(f"{arguments.test}: no such folder (expected <folder>/<label>/<image>, or frames)")
    labelled = any(p.is_dir() for p in arguments.test.iterdir())
    tests = samples(arguments.test) if labelled else []
    if saved is not None:
        return _with_saved(saved, arguments, tests)
    kind = arguments.kind or kind_of({s.label for s in shots} | {s.label for s in tests})
    style = arguments.style or {"d20": "numerals", "monster": "symbols", "d6": "numerals"}[kind]
    if arguments.crops or not _has_empty_tray(arguments):
        if not arguments.crops:
            print(f"no picture of the empty tray ({arguments.calibration / EMPTY}/, background.* or --background): "
                  "reading the images as close crops of one die each")
        return _with_crops(arguments, shots, tests, kind, style)
    try:
        done = calibrate_frames(arguments, shots, kind, style)
    except NotCalibrated as failed:
        return _not_calibrated(failed, tests)
    print(calibration_report(done, style))
    return _read_and_report(DiceReader(done.calibration), arguments, tests, kind)


def _has_empty_tray(arguments: argparse.Namespace) -> bool:
    return bool(_empty_frames(arguments)) or background_of(arguments) is not None


def _not_calibrated(failed: NotCalibrated, tests: list[Sample]) -> int:
    """Nothing can be read: said, with the reasons (each refused photo), and no accuracy or time,
    for no frame was read (the table would ask for every roll). Exit status 2."""
    print(f"calibration refused: {failed.why}", *[f"  {why}" for why in failed.refused], sep="\n")
    if tests:
        print(f"nothing read: the {len(tests)} test frames were not read (no calibration): no accuracy, no time")
    return 2


def _with_saved(saved: DiceCalibration, arguments: argparse.Namespace, tests: list[Sample]) -> int:
    """A saved calibration, read with one dice set of the kind (docs/dice.md "Dice sets") and one of each other kind."""
    kinds = sorted({p.kind for p in saved.profiles.values()})
    kind = arguments.kind or (kind_of({s.label for s in tests}) if tests else kinds[0])
    sets = sorted(set_id for set_id, p in saved.profiles.items() if p.kind == kind)
    set_id = arguments.set or (sets[0] if len(sets) == 1 else kind)
    if set_id not in sets:
        raise SystemExit(f"the saved calibration has no {kind} of the set {set_id!r} (it has: "
                         f"{', '.join(sorted(saved.profiles)) or 'no dice'}; choose one with --set)")
    chosen = {p.kind: other for other, p in sorted(saved.profiles.items())}
    reading = saved.reading({**chosen, kind: set_id})
    print(calibration_report(Calibrated(reading, kind), reading.profiles[kind].style))
    return _read_and_report(DiceReader(reading), arguments, tests, kind)


def _read_and_report(reader: DiceReader, arguments: argparse.Namespace, tests: list[Sample], kind: str) -> int:
    if not tests:
        print(read_folder(reader, arguments.test, kind, arguments.scale))
        return 0
    print(f"reading {len(tests)} frames x {1 + arguments.augment}, as the table reads them")
    readings = read_frames(reader, tests, kind, arguments)
    print(report(readings.answered, KIND_FACES[kind]))
    if readings.answered.pairs != readings.accepted.pairs:
        print("\nas the reader accepted them (the camera does not answer these by itself: its self-test did not pass):")
        print(report(readings.accepted, KIND_FACES[kind]))
    return 0


def _with_crops(arguments: argparse.Namespace, shots: list[Sample], tests: list[Sample], kind: str, style: str) -> int:
    reader = crops_reader(shots, kind, style, arguments)
    print(f"{kind} ({style}), crop mode: calibrated on {len(shots)} crops, reading {len(tests)} crops x "
          f"{1 + arguments.augment} (no tray: no look, camera or self-test check)")
    if style == "pips":
        print(pip_helpers(reader.calibration.profiles[kind]))
    print(report(read_crops(reader, tests, kind, arguments), KIND_FACES[kind]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
