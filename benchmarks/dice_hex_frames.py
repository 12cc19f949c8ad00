"""Camera frames of the documented set-up built from the shipped photos, for the evaluation command.

A Pi camera's 1296x950 frames straight above a hexagonal tray on a busy table: the shipped dicetower
d6 photos scaled 3 times (the die about 150 px across), the hexagon's wall drawn, and outside it a
table and cloth that change from shot to shot. Three pictures of the empty tray (``empty/``), three
face photos a face at different places in the tray, and ``--throws`` new throws a face to read
(each die moved and turned within the hexagon, in other light)::

    python benchmarks/dice_hex_frames.py OUT [--throws 10] [--seed 77]
    python -m calibration.dice_evaluate OUT/cal OUT/test --outline <the printed outline>

(docs/dice.md, "Measured accuracy": the run with the outline, and with four corners inside the
hexagon instead).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_dice import DICETOWER, framed, hex_rim, shipped, tower  # noqa: E402
from calibration.dice import aligned_background  # noqa: E402
from hardware.dice.synthetic import Changes, photo_changes, relocate  # noqa: E402

SIZE, SCALE = (1296, 950), 3.0


def on_table(frame: np.ndarray, inside: np.ndarray, rim: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Outside the hexagon: the picture shifted and tinted, with coloured things lying about."""
    table = np.roll(frame, (int(rng.integers(-200, 200)), int(rng.integers(-200, 200))), axis=(0, 1)).astype(np.float32)
    table = np.asarray(table * rng.uniform(0.6, 1.4, 3) + rng.uniform(-30, 30, 3), np.float32)
    for _ in range(8):
        centre = (int(rng.integers(0, SIZE[0])), int(rng.integers(0, SIZE[1])))
        axes = (int(rng.integers(30, 150)), int(rng.integers(15, 80)))
        cv2.ellipse(table, centre, axes, float(rng.uniform(0, 180)), 0, 360, tuple(float(v) for v in rng.uniform(0, 255, 3)), -1)
    shown = frame.copy()
    shown[~inside] = np.clip(table, 0, 255).astype(np.uint8)[~inside]
    cv2.polylines(shown, [np.round(rim).astype(np.int32)], True, (90, 90, 95), 15)
    return shown


def the_die(frame: np.ndarray, empty: np.ndarray, inside: np.ndarray) -> tuple[tuple[float, float], float]:
    """Where the one die of a frame lies and how big it is (against the empty tray)."""
    lab = [cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.int16) for image in (frame, empty)]
    changed = (np.abs(lab[0] - lab[1]).sum(axis=2) > 60) & inside
    _, _, stats, centres = cv2.connectedComponentsWithStats(changed.astype(np.uint8))
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return (float(centres[largest][0]), float(centres[largest][1])), 2 * math.sqrt(stats[largest, cv2.CC_STAT_AREA] / math.pi)


def main() -> int:
    ask = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ask.add_argument("out", type=Path)
    ask.add_argument("--throws", type=int, default=10)
    ask.add_argument("--seed", type=int, default=77)
    arguments = ask.parse_args()
    rng = np.random.default_rng(arguments.seed)
    rim = np.asarray(hex_rim(SCALE, SIZE))
    inside = np.zeros((SIZE[1], SIZE[0]), np.uint8)
    cv2.fillPoly(inside, [np.round(rim).astype(np.int32)], 1)
    inside_tray = inside.astype(np.bool_)
    empty = framed(aligned_background(shipped(DICETOWER / "background.jpg"), tower("d6", "1")), SCALE, SIZE)
    for i in range(3):
        flicker = photo_changes(empty, rng, Changes((0.98, 1.02), (1.0, 1.0), 0.0, 2.0, 0.0))
        write(arguments.out / "cal" / "empty" / f"{i}.png", on_table(flicker, inside_tray, rim, rng))
    for face in "123456":
        frame = framed(tower("d6", face), SCALE, SIZE)
        centre, diameter = the_die(frame, empty, inside_tray)
        for folder, count in (("cal", 3), ("test", arguments.throws)):
            for i in range(count):
                shot = frame
                if folder == "test" or i > 0:
                    moved, at = relocate(frame, centre, diameter, rng, inside=inside_tray)
                    shot = photo_changes(moved, rng, Changes(glare=0.1), glare_at=at)
                write(arguments.out / folder / face / f"{i}.png", on_table(shot, inside_tray, rim, rng))
    print("--outline " + ",".join(f"{x:.1f},{y:.1f}" for x, y in rim))
    return 0


def write(path: Path, image: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), image)


if __name__ == "__main__":
    sys.exit(main())
