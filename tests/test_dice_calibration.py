"""Dice calibration: the tray from ArUco markers or four taps, the empty tray,
the per-face capture state machine the tablet drives, and the saved result
(validated on load, exported and restored as one file)."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.dice import (BACKGROUND_FILE, CALIBRATION_FILE, KIND_FACES, CalibrationError, DiceCalibration,
                              FaceSession, TrayGeometry, TraySession, export_calibration, face_prompt,
                              find_markers, load_calibration, marker_image, restore_calibration, save_calibration,
                              tray_from_markers)
from dice_fixtures import synthetic_calibration, synthetic_tray
from hardware.dice.reader import DiceReader, Expect
from hardware.dice.synthetic import MONSTER_LOOK, scene

TRAY_CORNERS = ((170.0, 110.0), (570.0, 110.0), (570.0, 410.0), (170.0, 410.0))  # on the flat canvas


def camera_frame(view: np.ndarray, marker_side: int = 56) -> np.ndarray:
    """``view`` (a 400x300 tray) on white card with a marker at each corner, seen by a tilted camera."""
    canvas = np.full((520, 740, 3), 235, np.uint8)
    (x0, y0), _, (x1, y1), _ = TRAY_CORNERS
    canvas[int(y0):int(y1), int(x0):int(x1)] = cv2.resize(view, (int(x1 - x0), int(y1 - y0)))
    for marker_id, (cx, cy), (dx, dy) in zip(range(4), TRAY_CORNERS, ((-1, -1), (1, -1), (1, 1), (-1, 1))):
        marker = _bare_marker(marker_id, marker_side)
        xs = slice(int(cx), int(cx) + marker_side) if dx > 0 else slice(int(cx) - marker_side, int(cx))
        ys = slice(int(cy), int(cy) + marker_side) if dy > 0 else slice(int(cy) - marker_side, int(cy))
        canvas[ys, xs] = marker
    tilt = cv2.getPerspectiveTransform(np.float32([[0, 0], [740, 0], [740, 520], [0, 520]]),
                                       np.float32([[40, 30], [610, 10], [640, 470], [10, 440]]))
    return np.asarray(cv2.warpPerspective(canvas, tilt, (640, 480), borderValue=(90, 90, 90)), dtype=np.uint8)


def _bare_marker(marker_id: int, side: int) -> np.ndarray:
    padded = marker_image(marker_id, side)
    pad = side // 5
    return padded[pad:pad + side, pad:pad + side]


# -- the tray ---------------------------------------------------------------------------------------

def test_aruco_markers_give_a_top_down_view_of_the_tray() -> None:
    rng = np.random.default_rng(1)
    view, _ = scene(synthetic_tray(size=(400, 300)), [(MONSTER_LOOK, "pow")], rng)
    frame = camera_frame(view)
    assert sorted(find_markers(frame)) == [0, 1, 2, 3]
    tray = tray_from_markers(frame)
    assert tray.method == "aruco" and tray.frame_size == (640, 480)
    straight = tray.warp(frame)
    expected = cv2.resize(view, tray.size)
    inner = (slice(10, -10), slice(10, -10))
    assert float(np.mean(cv2.absdiff(straight[inner], expected[inner]))) < 12.0


def test_a_missing_marker_is_named() -> None:
    rng = np.random.default_rng(2)
    frame = camera_frame(scene(synthetic_tray(size=(400, 300)), [], rng)[0])
    hidden = frame.copy()
    markers = find_markers(frame)
    x, y = markers[2].mean(axis=0)
    cv2.circle(hidden, (int(x), int(y)), 40, (235, 235, 235), -1)  # a die lying on marker 2
    with pytest.raises(CalibrationError, match="markers 2 not found"):
        tray_from_markers(hidden)


def test_four_taps_give_the_same_view_as_markers() -> None:
    rng = np.random.default_rng(3)
    frame = camera_frame(scene(synthetic_tray(size=(400, 300)), [(MONSTER_LOOK, "hit")], rng)[0])
    corners = [tuple(map(float, cv2.perspectiveTransform(np.float32([[p]]), _tilt())[0, 0])) for p in TRAY_CORNERS]
    tapped = TrayGeometry.from_corners(corners, (640, 480), "taps")
    marked = tray_from_markers(frame)
    assert abs(tapped.size[0] - marked.size[0]) <= 5 and abs(tapped.size[1] - marked.size[1]) <= 5
    difference = cv2.absdiff(tapped.warp(frame), cv2.resize(marked.warp(frame), tapped.size))
    assert float(np.mean(difference[10:-10, 10:-10])) < 8.0


def _tilt() -> np.ndarray:
    return np.asarray(cv2.getPerspectiveTransform(np.float32([[0, 0], [740, 0], [740, 520], [0, 520]]),
                                                  np.float32([[40, 30], [610, 10], [640, 470], [10, 440]])))


@pytest.mark.parametrize("corners, why", [
    ([(0, 0), (10, 0), (10, 10)], "four corners"),
    ([(0, 0), (300, 300), (300, 0), (0, 300)], "do not make a tray"),
    ([(0, 0), (900, 0), (900, 400), (0, 400)], "outside the camera picture"),
])
def test_bad_taps_are_refused(corners: list[tuple[float, float]], why: str) -> None:
    with pytest.raises(CalibrationError, match=why):
        TrayGeometry.from_corners(corners, (640, 480), "taps")


def test_a_frame_of_another_size_asks_for_a_new_tray_calibration() -> None:
    tray = TrayGeometry.from_corners([(10, 10), (600, 10), (600, 400), (10, 400)], (640, 480), "taps")
    with pytest.raises(CalibrationError, match="calibrate the tray again"):
        tray.warp(np.zeros((720, 1280, 3), np.uint8))


def test_the_empty_tray_and_its_noise_set_the_threshold() -> None:
    background = synthetic_tray()
    session = TraySession((background.shape[1], background.shape[0]))
    with pytest.raises(CalibrationError, match="find the tray first"):
        session.add_empty(background)
    session.use_whole_frame()
    with pytest.raises(CalibrationError, match="empty tray"):
        session.result()
    session.add_empty(background)
    session.add_empty(background)
    session.set_exposure({"ExposureTime": 8000, "AnalogueGain": 1.5})
    calibration = session.result()
    assert calibration.threshold == 30.0  # no flicker at all: the floor
    assert calibration.exposure == {"ExposureTime": 8000.0, "AnalogueGain": 1.5}
    assert np.array_equal(calibration.background, background)


# -- the faces ------------------------------------------------------------------------------------

def test_the_face_session_walks_every_face_and_can_go_back() -> None:
    base = synthetic_calibration()
    tray = DiceCalibration(base.tray, base.background, base.threshold)
    session = FaceSession(tray, "monster")
    rng = np.random.default_rng(5)
    assert session.view()["text"] == "Put only the Monster die in the tray with the HIT face on top, then tap Capture."
    with pytest.raises(CalibrationError, match="no die"):
        session.capture_view(tray.background)
    two, _ = scene(tray.background, [(MONSTER_LOOK, "hit"), (MONSTER_LOOK, "pow")], rng)
    with pytest.raises(CalibrationError, match="I see 2 dice"):
        session.capture_view(two)
    for face in ("hit", "pow"):
        session.capture_view(scene(tray.background, [(MONSTER_LOOK, face)], rng)[0])
    assert session.current == "blank"
    session.back()
    assert session.current == "pow" and session.view()["captured"] == ["hit"]
    with pytest.raises(CalibrationError, match="not captured yet: pow, blank"):
        session.profile()
    for face in ("pow", "blank"):
        session.capture_view(scene(tray.background, [(MONSTER_LOOK, face)], rng)[0])
    assert session.current is None and session.view()["step"] == 3
    session.retake("hit")
    assert session.current == "hit"
    session.capture_view(scene(tray.background, [(MONSTER_LOOK, "hit")], rng)[0])
    profile = session.profile()
    assert profile.faces == KIND_FACES["monster"] and profile.style == "symbols"


def test_face_prompts_name_the_special_faces() -> None:
    assert face_prompt("d20", "20") == "Put only the d20 in the tray with the 20 (the symbol face) on top, then tap Capture."
    assert "the blank face" in face_prompt("monster", "blank")
    assert "with 4 on top" in face_prompt("d6", "4")
    with pytest.raises(CalibrationError, match="unknown die kind"):
        FaceSession(synthetic_calibration(), "d12")


# -- saved, exported, restored ------------------------------------------------------------------------

def test_saved_and_loaded_it_reads_the_same(tmp_path: Path) -> None:
    calibration = synthetic_calibration()
    save_calibration(calibration, tmp_path / "dice")
    loaded = load_calibration(tmp_path / "dice")
    assert loaded.tray == calibration.tray and loaded.threshold == calibration.threshold
    assert np.array_equal(loaded.background, calibration.background)
    assert loaded.profiles["monster"].faces == ("hit", "pow", "blank")
    view, _ = scene(calibration.background, [(MONSTER_LOOK, "pow"), (MONSTER_LOOK, "blank")],
                    np.random.default_rng(6))
    assert sorted(DiceReader(loaded).read_view(view, Expect("monster", 2)).answer() or []) == ["blank", "pow"]


def test_saving_again_keeps_the_previous_calibration(tmp_path: Path) -> None:
    calibration = synthetic_calibration()
    save_calibration(calibration, tmp_path / "dice")
    save_calibration(replace(calibration, threshold=55.0), tmp_path / "dice")
    assert load_calibration(tmp_path / "dice").threshold == 55.0
    assert load_calibration(tmp_path / "dice.previous").threshold == calibration.threshold


def _edit(folder: Path, change: dict[str, object]) -> None:
    data = json.loads((folder / CALIBRATION_FILE).read_text())
    data.update(change)
    (folder / CALIBRATION_FILE).write_text(json.dumps(data))


@pytest.mark.parametrize("change, why", [
    ({"format": "something-else"}, "not a dice calibration"),
    ({"version": 99}, "version 99 is not supported"),
    ({"threshold": -3}, "threshold: expected a number"),
    ({"background": "../../etc/passwd"}, "background: expected a file name inside"),
    ({"tray": {"homography": [0] * 9, "size": [480, 400], "frame_size": [480, 400], "method": "taps"}},
     "cannot be inverted"),
    ({"profiles": {"d12": {}}}, "unknown die kind"),
])
def test_a_broken_saved_calibration_is_refused_with_why(tmp_path: Path, change: dict[str, object],
                                                         why: str) -> None:
    save_calibration(synthetic_calibration(), tmp_path / "dice")
    _edit(tmp_path / "dice", change)
    with pytest.raises(CalibrationError, match=why):
        load_calibration(tmp_path / "dice")


def test_a_dice_set_is_named_and_not_another_kinds(tmp_path: Path) -> None:
    """Profiles are by dice set (docs/dice.md "Dice sets"): a set id that is no name, or that is another
    kind's shared set, is refused; a version 1 file is by kind, each read as the set it is told."""
    folder = tmp_path / "dice"
    save_calibration(synthetic_calibration(), folder)
    monster = json.loads((folder / CALIBRATION_FILE).read_text())["profiles"]["monster"]
    for key, why in (("d20", "'d20' cannot name a set of Monster dice"), ("Big Box", "'Big Box' cannot name")):
        _edit(folder, {"profiles": {key: monster}})
        with pytest.raises(CalibrationError, match=why):
            load_calibration(folder)
    _edit(folder, {"version": 1, "profiles": {"monster": {k: v for k, v in monster.items() if k != "kind"}}})
    assert list(load_calibration(folder, {"monster": "my-box"}).profiles) == ["my-box"]
    assert load_calibration(folder, {"monster": "my-box"}).profiles["my-box"].kind == "monster"
    assert list(load_calibration(folder).profiles) == ["monster"]  # no set named: the shared one


def test_a_missing_face_photo_is_refused(tmp_path: Path) -> None:
    save_calibration(synthetic_calibration(), tmp_path / "dice")
    next((tmp_path / "dice" / "monster").glob("*-pow.png")).unlink()
    with pytest.raises(CalibrationError, match="missing or not an image"):
        load_calibration(tmp_path / "dice")
    (tmp_path / "dice" / BACKGROUND_FILE).write_bytes(b"not a png")
    with pytest.raises(CalibrationError, match="background"):
        load_calibration(tmp_path / "dice")


def test_export_and_restore_on_another_box(tmp_path: Path) -> None:
    calibration = synthetic_calibration()
    save_calibration(calibration, tmp_path / "here")
    exported = export_calibration(tmp_path / "here")
    restored = restore_calibration(exported, tmp_path / "there")
    assert restored.profiles["monster"].faces == calibration.profiles["monster"].faces
    assert load_calibration(tmp_path / "there").tray == calibration.tray


def test_a_bad_export_is_refused_and_the_current_one_kept(tmp_path: Path) -> None:
    calibration = synthetic_calibration()
    save_calibration(calibration, tmp_path / "dice")
    with pytest.raises(CalibrationError, match="not a zip"):
        restore_calibration(b"hello", tmp_path / "dice")
    broken = tmp_path / "broken"
    shutil.copytree(tmp_path / "dice", broken)
    (broken / BACKGROUND_FILE).unlink()
    with pytest.raises(CalibrationError):
        export_calibration(broken)
    assert load_calibration(tmp_path / "dice").threshold == calibration.threshold
    assert not (tmp_path / "dice.previous").exists()
