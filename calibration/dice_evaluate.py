"""How well does the reader read these dice? Calibrate on one folder, read another.

    python -m calibration.dice_evaluate CALIBRATION_DIR TEST_DIR [options]

Both folders are laid out ``<folder>/<label>/<image>`` with labels ``1``..``20``
(d20), ``hit``/``pow``/``blank`` (Monster die) or ``1``..``6`` (d6); the die kind
follows from the labels (``--kind`` to say it). Each image holds one die:

* **tray photos** (give ``--background`` with the empty tray, or put a
  ``background.*`` file in CALIBRATION_DIR; ``--tray`` with four corner taps
  for a top-down view): dice are found against the empty tray, as at the table;
* **close crops** (no background): the die is found against the crop's border.

Calibration takes every image of CALIBRATION_DIR as a face photo (at most
``--max-shots`` per face); then every image of TEST_DIR is read, and with
``--augment N`` also N new throws made from it (the die turned and moved in
the tray, other light, noise, blur). It prints the accuracy of the reads it
accepted, how many it refused, a confusion table (rows: true face; columns:
what was read, "-" = refused) and milliseconds per read. The exit status is 0
whatever the numbers: it measures, the tests judge.

    python -m calibration.dice_evaluate --cut-boxes SRC DST

cuts the labelled boxes of a dataset's frames (``<frame>.jpg`` + ``<frame>.json``
lists of ``{"label", "box"}``) into ``DST/<label>/<frame>-<i>.png`` crops.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

import cv2
import numpy as np

from calibration.dice import (KIND_FACES, CalibrationError, DiceCalibration, DieProfile, FaceShot, TrayGeometry,
                              aligned_background, build_profile, suggest_threshold)

from hardware.dice.imaging import Image, Point, crop_around, encode_png, read_image
from hardware.dice.reader import DiceReader, ReaderSettings
from hardware.dice.segment import Blob, TrayFinder, find_single, middle_of
from hardware.dice.synthetic import Changes, photo_changes, relocate

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp")
REFUSED = "-"


@dataclass(frozen=True)
class Sample:
    label: str
    path: Path


@dataclass
class Tally:
    """Reads of one test run: (truth, read or REFUSED) pairs and times."""

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
    def accuracy(self) -> float:
        """Share of the accepted reads that were right (1.0 when none were accepted)."""
        taken = self.accepted
        return sum(t == r for t, r in taken) / len(taken) if taken else 1.0

    @property
    def refusal(self) -> float:
        return 1.0 - len(self.accepted) / len(self.pairs) if self.pairs else 0.0


# -- reading the folders ----------------------------------------------------------------------

def samples(folder: Path) -> list[Sample]:
    """Every ``<label>/<image>`` under ``folder``, in a stable order."""
    if not folder.is_dir():
        raise SystemExit(f"{folder}: no such folder (expected <folder>/<label>/<image>)")
    found = [Sample(label.name, path) for label in sorted(folder.iterdir()) if label.is_dir()
             for path in sorted(label.iterdir()) if path.suffix.lower() in IMAGE_SUFFIXES]
    if not found:
        raise SystemExit(f"{folder}: no <label>/<image> files found")
    return found


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


# -- the two ways of finding the die ------------------------------------------------------------

class TrayMode:
    """Tray photos: a top-down view and an empty-tray reference, as at the table."""

    def __init__(self, background: Image, corners: Sequence[Point] | None, first: Image, scale: float = 1.0) -> None:
        self.scale = scale
        height, width = first.shape[:2]
        self.tray = (TrayGeometry.from_corners(corners, (width, height), "taps") if corners
                     else TrayGeometry.whole_frame(width, height))
        self.background = self.tray.warp(aligned_background(background, first))
        self.threshold = suggest_threshold(self.tray.warp(first), self.background)
        self.finder = TrayFinder(self.background, DiceCalibration(self.tray, self.background,
                                                                  self.threshold).find_settings())

    def view(self, path: Path) -> Image:
        return self.tray.warp(load(path, self.scale))

    def die(self, view: Image) -> Blob | None:
        found = self.finder.find(view)
        return max(found.blobs, key=lambda b: b.area) if found.blobs else None

    def throws(self, view: Image, blob: Blob, rng: np.random.Generator, count: int) -> Iterator[Image]:
        for _ in range(count):
            moved, at = relocate(view, blob.centre, blob.diameter, rng)
            yield photo_changes(moved, rng, Changes(glare=0.2), glare_at=at)

    def calibration(self) -> DiceCalibration:
        return DiceCalibration(self.tray, self.background, self.threshold)


class CropMode:
    """Close crops of one die each: the die is what differs from the crop's border."""

    def __init__(self, scale: float = 1.0) -> None:
        self.scale = scale

    def view(self, path: Path) -> Image:
        return load(path, self.scale)

    def die(self, view: Image) -> Blob | None:
        """The die against the crop's border; failing that (a white die on white), the crop's middle."""
        found = find_single(view)
        return found if found is not None else middle_of(view)

    def throws(self, view: Image, blob: Blob, rng: np.random.Generator, count: int) -> Iterator[Image]:
        for _ in range(count):
            matrix = cv2.getRotationMatrix2D(blob.centre, float(rng.uniform(0, 360)), 1.0)
            turned = cv2.warpAffine(view, matrix, (view.shape[1], view.shape[0]), borderMode=cv2.BORDER_REPLICATE)
            yield photo_changes(np.asarray(turned, dtype=np.uint8), rng, Changes(glare=0.2), glare_at=blob.centre)

    def calibration(self, first: Image) -> DiceCalibration:
        height, width = first.shape[:2]
        return DiceCalibration(TrayGeometry.whole_frame(width, height), first, 40.0)


Mode = TrayMode | CropMode


# -- calibrate, then read ---------------------------------------------------------------------

def pip_helpers(profile: DieProfile) -> str:
    """Which second and third opinions a pip die got at calibration, for the owner to see."""
    counter = "the pips are counted" if profile.pip_area is not None else "the pips could not be counted on its photos"
    faces = ", ".join(profile.net_faces) if profile.net_faces else "none"
    return f"{counter}; the pip network speaks for faces: {faces}"


def calibrate(mode: Mode, shots: list[Sample], kind: str, style: str, max_shots: int) -> DiceReader:
    """A reader calibrated on ``shots`` (each image: one photo of its label's face)."""
    faces, blobs = [], []
    for sample in _spread(shots, max_shots):
        view = mode.view(sample.path)
        blob = mode.die(view)
        if blob is None:
            print(f"warning: no die found in calibration image {sample.path}", file=sys.stderr)
            continue
        faces.append(FaceShot(sample.label, crop_around(view, blob.centre, blob.diameter, 1.5), blob.diameter))
        blobs.append(blob)
    calibration = mode.calibration() if isinstance(mode, TrayMode) else mode.calibration(mode.view(shots[0].path))
    profile = build_profile(kind, style, faces, blobs)
    return DiceReader(calibration.with_profile(profile), ReaderSettings())


def _spread(shots: list[Sample], most: int) -> list[Sample]:
    """At most ``most`` photos per face, spread over the ones given."""
    chosen: list[Sample] = []
    for label in sorted({s.label for s in shots}):
        of_label = [s for s in shots if s.label == label]
        step = max(1, len(of_label) / most)
        chosen.extend(of_label[int(i * step)] for i in range(min(most, len(of_label))))
    return chosen


def evaluate(reader: DiceReader, mode: Mode, tests: list[Sample], kind: str, augment: int, seed: int) -> Tally:
    rng = np.random.default_rng(seed)
    tally = Tally()
    for sample in tests:
        view = mode.view(sample.path)
        blob = mode.die(view)
        if blob is None:
            tally.add(sample.label, REFUSED, 0.0, "no die found")
            continue
        read_one(reader, mode, view, sample.label, kind, tally)
        for throw in mode.throws(view, blob, rng, augment):
            read_one(reader, mode, throw, sample.label, kind, tally)
    return tally


def read_one(reader: DiceReader, mode: Mode, view: Image, truth: str, kind: str, tally: Tally) -> None:
    """Find and read the one die of ``view``; a missing die or a refusal counts as refused."""
    start = time.perf_counter()
    blob = mode.die(view)
    read = reader.read_die(view, blob, kind) if blob is not None else None
    millis = (time.perf_counter() - start) * 1000.0
    if read is None:
        tally.add(truth, REFUSED, millis, "no die found")
    else:
        tally.add(truth, read.label if read.accepted else REFUSED, millis, read.why.split(" (")[0])


# -- the report -------------------------------------------------------------------------------

def report(tally: Tally, faces: Sequence[str]) -> str:
    wrong = sum(t != r for t, r in tally.accepted)
    lines = [f"reads: {len(tally.pairs)}  accepted: {len(tally.accepted)}  wrong: {wrong}",
             f"accuracy of accepted reads: {100 * tally.accuracy:.2f}%",
             f"refused: {100 * tally.refusal:.2f}%",
             f"ms per read: mean {statistics.fmean(tally.millis):.1f}, "
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
    ask.add_argument("calibration", type=Path, help="CALIBRATION_DIR (or SRC with --cut-boxes)")
    ask.add_argument("test", type=Path, help="TEST_DIR (or DST with --cut-boxes)")
    ask.add_argument("--kind", choices=sorted(KIND_FACES), help="die kind (default: from the labels)")
    ask.add_argument("--style", choices=("numerals", "pips", "symbols"), help="d6 faces: numerals or pips")
    ask.add_argument("--background", type=Path, help="photo of the empty tray (tray mode)")
    ask.add_argument("--tray", help="four corner taps x,y,x,y,x,y,x,y (top-left, top-right, bottom-right, "
                                    "bottom-left) for a top-down view")
    ask.add_argument("--augment", type=int, default=0, help="new throws made from each test image")
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


def background_of(arguments: argparse.Namespace) -> Image | None:
    if arguments.background is not None:
        return load(arguments.background, arguments.scale)
    found = sorted(p for p in arguments.calibration.glob("background.*") if p.suffix.lower() in IMAGE_SUFFIXES)
    return load(found[0], arguments.scale) if found else None


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parser().parse_args(argv)
    if arguments.cut_boxes:
        print(f"{cut_boxes(arguments.calibration, arguments.test, arguments.margin)} crops written")
        return 0
    shots, tests = samples(arguments.calibration), samples(arguments.test)
    kind = arguments.kind or kind_of({s.label for s in shots} | {s.label for s in tests})
    style = arguments.style or {"d20": "numerals", "monster": "symbols", "d6": "numerals"}[kind]
    background = background_of(arguments)
    scale = arguments.scale
    mode: Mode = (TrayMode(background, corners_of(arguments.tray, scale), load(shots[0].path, scale), scale)
                  if background is not None else CropMode(scale))
    try:
        reader = calibrate(mode, shots, kind, style, arguments.max_shots)
    except CalibrationError as problem:
        raise SystemExit(f"calibration failed: {problem}") from None
    print(f"{kind} ({style}), {'tray' if isinstance(mode, TrayMode) else 'crop'} mode: calibrated on "
          f"{len(shots)} images, reading {len(tests)} images x {1 + arguments.augment}")
    if style == "pips":
        print(pip_helpers(reader.calibration.profiles[kind]))
    tally = evaluate(reader, mode, tests, kind, arguments.augment, arguments.seed)
    print(report(tally, KIND_FACES[kind]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
