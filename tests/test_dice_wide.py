"""A camera straight above the tray with a wide lens: a die near the tray's rim, far from under
the camera, shows a side beside its top (further out, more of it), so it looks longer, less square
and bigger than one in the middle. Its face photos are judged against the owner's other photos and
where each die lay (docs/dice.md, "Checks against the owner's own photos"), not against the fixed
shape of a die under the camera: three photos a face, one in the middle and two near the rim, are
all taken, and such dice are read right or refused, never read wrong. A camera looking from the
side shows every die's side, in the middle too: still refused (``test_dice_refusals``).

The dice are the d6's real face photos (``face_square``) with a real side face beside them
(``cube_seen``), tan(off-axis angle) deep, the angle growing to 35 degrees at the frame's corner."""

from __future__ import annotations

import math

import numpy as np

from calibration.dice import CalibrationError, DiceCalibration, FaceSession
from dice_fixtures import Score, cube_seen, face_square, tower_photo, tower_reader, tower_tray
from hardware.dice.imaging import Image, Point
from hardware.dice.reader import DiceReader, Expect
from hardware.dice.segment import TrayFinder
from test_dice_refusals import BESIDE, _as_frame

CORNER_ANGLE = 35.0  # degrees off the camera's axis at the frame's corner (a wide lens)


def faces(calibration: DiceCalibration) -> dict[str, tuple[Image, Image]]:
    """Each face's top (square, from straight above) and the face beside it."""
    finder = TrayFinder(calibration.background, tower_reader(("d6",)).calibration.find_settings())
    tops = {}
    for face in "123456":
        view = calibration.tray.warp(tower_photo("d6", face))
        tops[face] = face_square(view, max(finder.find(view).blobs, key=lambda b: b.area))
    return {face: (tops[face], tops[BESIDE[face]]) for face in tops}


def seen_at(calibration: DiceCalibration, top: Image, side: Image, at: Point, turn: float) -> Image:
    """The cube lying flat at ``at`` (tray view) as the wide camera straight above sees it."""
    angle = math.radians(CORNER_ANGLE * calibration.tray.off_axis(at))
    view = cube_seen(calibration.background, top, side, 1.0, math.tan(angle), at, turn)
    return _as_frame(calibration, view)


def spots(calibration: DiceCalibration, rng: np.random.Generator) -> list[Point]:
    """The middle, and two places near the tray's rim (about three quarters of the way to a corner)."""
    width, height = calibration.tray.size
    middle = (width / 2.0, height / 2.0)
    corners = [(0.13 * width, 0.13 * height), (0.87 * width, 0.13 * height), (0.87 * width, 0.87 * height),
               (0.13 * width, 0.87 * height)]
    picked = rng.choice(4, 2, replace=False)
    return [middle] + [corners[int(i)] for i in picked]


def test_a_wide_camera_straight_above_calibrates_and_reads_dice_near_the_rim() -> None:
    base = tower_tray()
    rng = np.random.default_rng(23)
    looks = faces(base)
    session = FaceSession(base, "d6")
    refused = []
    for face, (top, side) in looks.items():
        for at in spots(base, rng):
            try:
                session.capture(seen_at(base, top, side, at, float(rng.uniform(0, 360))), face)
            except CalibrationError as problem:
                refused.append(f"{face} at {at}: {problem}")
    assert refused == [], refused
    assert max(look.off_axis for shots in session.looks.values() for look in shots) > 0.55
    reader = DiceReader(base.with_profile(session.profile()))
    score = Score()
    for face, (top, side) in looks.items():
        for _ in range(6):
            width, height = base.tray.size
            at = (float(rng.uniform(0.12, 0.88) * width), float(rng.uniform(0.12, 0.88) * height))
            read = reader.read(seen_at(base, top, side, at, float(rng.uniform(0, 360))), Expect("d6", 1))
            die = read.dice[0] if len(read.dice) == 1 and not read.problem else None
            score.add(face, die.label if die else "", die is not None and die.accepted)
    print(f"the d6 anywhere in the tray, a wide camera straight above: {score}")
    assert score.wrong == 0 and score.refusal <= 0.2, str(score)
