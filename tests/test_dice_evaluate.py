"""``python -m calibration.dice_evaluate``: calibrate a folder of frames as the tablet does (or use a
saved calibration), self-test, read another folder as the table reads it, and print accuracy,
refusals with why, a confusion table and ms per read.

Besides the ordinary runs, each fix the dice issue asked for: a thing that is not the die (a blue
box at the frame's edge) is not read as one; a face with no usable photo stops the command naming
it; frames of another size than the tray was calibrated on are refused naming both sizes, not a
traceback; every read's time counts, a frame with no die too; a large die in a small tray is
found whole; a folder of frames can be read as it comes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import dice_evaluate as evaluate
from calibration.dice import export_calibration, save_calibration
from dice_fixtures import DICETOWER, TOWER_TAPS, synthetic_calibration, synthetic_tray, write_png
from hardware.dice.synthetic import D6_PIPS_LOOK, MONSTER_LOOK, DieLook, scene

FACES = ("hit", "pow", "blank")


def monster_folders(root: Path, per_face: int, look: DieLook = MONSTER_LOOK, faces: tuple[str, ...] = FACES,
                    shots: int = 1, empty: int = 2) -> tuple[Path, Path]:
    """Camera frames of a drawn die in a felt tray filling the frame: ``empty`` pictures of the empty
    tray and ``shots`` per face to calibrate on, ``per_face`` to read."""
    rng = np.random.default_rng(31)
    background = synthetic_tray()
    calibration, test = root / "calibration", root / "test"
    (calibration / "empty").mkdir(parents=True)
    for i in range(empty):
        write_png(calibration / "empty" / f"{i}.png", background)
    write_png(root / "background.png", background)
    for face in faces:
        for folder, count in ((calibration, shots), (test, per_face)):
            (folder / face).mkdir(parents=True)
            for i in range(count):
                write_png(folder / face / f"{i}.png", scene(background, [(look, face)], rng)[0])
    return calibration, test


def run(capsys: pytest.CaptureFixture[str], *args: object) -> str:
    assert evaluate.main([str(a) for a in args]) == 0
    return capsys.readouterr().out


def test_tray_frames_of_a_monster_die(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    calibration, test = monster_folders(tmp_path, per_face=4)
    out = run(capsys, calibration, test, "--augment", "1")
    assert "monster (symbols): 3 face photos taken" in out
    assert "self-test (12 new throws made from the face photos (one photo per face)): 12 of 12" in out
    assert "passed: the camera answers by itself" in out
    assert "reads: 24  accepted: 24  wrong: 0" in out
    assert "accuracy of accepted reads: 100.00%" in out and "refused: 0.00%" in out
    assert "true\\read" in out and "ms per read" in out


def test_two_photos_a_face_are_self_tested_on_each_other(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    calibration, test = monster_folders(tmp_path, per_face=2, shots=2)
    out = run(capsys, calibration, test)
    assert "self-test (each face photo read by a calibration made without it): 6 of 6 accepted reads right" in out


def test_a_pip_die_says_which_opinions_it_got(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The owner sees whether the pips are counted and which faces the pip network speaks for."""
    calibration, test = monster_folders(tmp_path, 1, D6_PIPS_LOOK, tuple("123456"))
    out = run(capsys, calibration, test, "--style", "pips")
    assert re.search(r"the pips are counted; the pip network speaks for faces: (none|[1-6](, [1-6])*)\n", out), out
    assert "reads: 6  accepted:" in out


def test_a_box_at_the_edge_is_not_read_as_the_die(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The kind check: a blue box lying at the frame's edge, where no die is, is no read of the die."""
    calibration, test = monster_folders(tmp_path, per_face=1)
    boxed = test / "pow" / "0.png"
    frame = synthetic_tray()
    cv2.rectangle(frame, (2, 150), (60, 215), (200, 60, 20), -1)
    write_png(boxed, frame)
    out = run(capsys, calibration, test)
    assert "reads: 3  accepted: 2  wrong: 0" in out, out
    assert re.search(r"pow +\. +\. +\. +1", out), out  # the box: refused, not read as any face


def test_a_face_with_no_usable_photo_stops_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    calibration, test = monster_folders(tmp_path, per_face=1)
    blurred = calibration / "pow" / "0.png"
    write_png(blurred, np.asarray(cv2.GaussianBlur(cv2.imread(str(blurred)), (0, 0), 4.0), np.uint8))
    write_png(calibration / "pow" / "1.png", synthetic_tray())  # and one with no die at all
    assert evaluate.main([str(calibration), str(test)]) == 2
    out = capsys.readouterr().out
    assert "calibration refused: no usable photo of face(s) pow" in out
    assert "the photo is blurred" in out and "I see no die" in out
    assert "nothing read: the 3 test frames were not read (no calibration)" in out
    assert "100.00%" not in out and "accuracy of accepted reads" not in out and "0.0" not in out, out
    for path in (calibration / "hit").iterdir():
        path.unlink()
    (calibration / "hit").rmdir()
    assert evaluate.main([str(calibration), str(test)]) == 2
    assert "no usable photo of face(s) hit" in capsys.readouterr().out


def test_a_tray_that_cannot_be_calibrated_is_reported_refused_with_why(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Taps that make no tray: the calibration is refused with the reason, exit status 2, no figures."""
    calibration, test = monster_folders(tmp_path, per_face=1)
    assert evaluate.main([str(calibration), str(test), "--tray", "1,1,2,2,3,3,4,4"]) == 2
    out = capsys.readouterr().out
    assert "calibration refused: the tray: the four corners do not make a tray" in out, out
    assert "nothing read: the 3 test frames" in out and "%" not in out and " ms" not in out, out


def test_no_accepted_read_has_no_accuracy() -> None:
    """A run where every read was refused says so; it is never "100 % right"."""
    tally = evaluate.Tally()
    tally.add("1", evaluate.REFUSED, 12.0, "cannot tell 1 from 7")
    assert tally.accuracy is None
    text = evaluate.report(tally, ["1", "7"])
    assert "accuracy of accepted reads: none accepted" in text and "refused: 100.00%" in text
    assert evaluate.report(evaluate.Tally(), ["1"]) == "reads: 0 (nothing was read)"


def test_frames_of_another_size_are_refused_naming_both(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    calibration, test = monster_folders(tmp_path, per_face=1)
    for path in test.rglob("*.png"):
        write_png(path, np.asarray(cv2.resize(cv2.imread(str(path)), (320, 267)), np.uint8))
    out = run(capsys, calibration, test)
    assert "reads: 3  accepted: 0" in out
    assert "the camera gives 320x267 pictures but the tray was calibrated on 480x400" in out


def test_every_read_is_timed_a_frame_with_no_die_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    calibration, test = monster_folders(tmp_path, per_face=1)
    for path in test.rglob("*.png"):
        write_png(path, synthetic_tray())  # the empty tray: nothing to find
    out = run(capsys, calibration, test)
    assert "reads: 3  accepted: 0" in out and "1 asked for, but I see 0" in out
    mean = float(re.search(r"ms per read \(every read, however it ended\): mean ([0-9.]+)", out).group(1))  # type: ignore[union-attr]
    assert mean > 0.0


def test_a_large_die_in_a_small_tray_is_found_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The detection threshold comes from the split between tray and die in every face photo, not from
    the top few per cent of the first one (which a die filling a fifth of the tray is)."""
    big = DieLook(size=190, body=(60, 140, 70))  # a green die, nearly as wide as a fifth of the tray
    calibration, test = monster_folders(tmp_path, per_face=2, look=big, empty=1)
    out = run(capsys, calibration, test)
    assert "3 face photos taken\n" in out, out  # none refused (a die found in part would be: too small)
    assert "reads: 6  accepted: 6  wrong: 0" in out, out
    profile = evaluate.calibrate_frames(evaluate.parser().parse_args([str(calibration), str(test)]),
                                        evaluate.samples(calibration, ("empty",)), "monster", "symbols")
    assert profile.calibration.profiles["monster"].diameter > 0.9 * 190


def test_a_saved_calibration_and_its_export_read_a_folder_of_frames(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The calibration the tablet saved (or exported) reads an unlabelled folder of frames as it comes."""
    calibration = synthetic_calibration()
    save_calibration(calibration, tmp_path / "dice")
    (tmp_path / "export.zip").write_bytes(export_calibration(tmp_path / "dice"))
    frames = tmp_path / "frames"
    frames.mkdir()
    rng = np.random.default_rng(4)
    for i, face in enumerate(FACES):
        write_png(frames / f"{i:02d}.png", scene(calibration.background, [(MONSTER_LOOK, face)], rng)[0])
    write_png(frames / "03.png", calibration.background)
    for saved in (tmp_path / "dice", tmp_path / "export.zip"):
        out = run(capsys, saved, frames)
        assert "self-test (as saved): 12 of 12 accepted reads right" in out
        lines = [line for line in out.splitlines() if line.startswith(("00.png", "01.png", "02.png", "03.png"))]
        assert [line.split(";")[1].strip().split(" (")[0] for line in lines] == [
            "answered ['hit']", "answered ['pow']", "answered ['blank']", "not answered: 1 asked for, but I see 0 Monster dice in the tray"]


def test_a_self_test_that_fails_turns_automatic_answers_off(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Throws whose faces are told wrong (as an owner correcting the reads would tell them) fail the
    self-test: every read is then refused as an answer, and what the reader accepted is shown beside."""
    calibration, test = monster_folders(tmp_path, per_face=2)
    throws = tmp_path / "throws"
    for face, told in (("hit", "pow"), ("pow", "hit"), ("blank", "blank")):
        (throws / told).mkdir(parents=True)
        for path in (test / face).iterdir():
            (throws / told / path.name).write_bytes(path.read_bytes())
    out = run(capsys, calibration, test, "--self-test", throws)
    assert "self-test (the 6 throws in" in out and "not passed: every roll is asked on the tablet" in out
    assert "a hit was read as pow" in out or "a pow was read as hit" in out
    assert "reads: 6  accepted: 0" in out
    assert "as the reader accepted them" in out and "reads: 6  accepted: 6  wrong: 0" in out


def test_the_tally_and_the_confusion_table() -> None:
    tally = evaluate.Tally()
    for truth, read in (("1", "1"), ("1", "7"), ("7", "7"), ("7", evaluate.REFUSED)):
        tally.add(truth, read, 5.0, "cannot tell 7 from 1" if read == evaluate.REFUSED else "")
    assert tally.accuracy == pytest.approx(2 / 3) and tally.refusal == pytest.approx(1 / 4)
    table = evaluate.confusion(tally, [str(i) for i in range(1, 21)]).splitlines()
    assert table[0].split() == ["true\\read", "1", "7", "-"]
    assert table[1].split() == ["1", "1", "1", "."] and table[2].split() == ["7", ".", "1", "1"]
    assert "1  cannot tell 7 from 1" in evaluate.report(tally, ["1", "7"])


def test_the_kind_follows_from_the_labels() -> None:
    assert evaluate.kind_of({"1", "6"}) == "d6"
    assert evaluate.kind_of({"1", "17"}) == "d20"
    assert evaluate.kind_of({"hit", "blank"}) == "monster"
    with pytest.raises(SystemExit, match="fit no die kind"):
        evaluate.kind_of({"1", "hit"})


def test_a_missing_or_empty_folder_is_named_not_a_traceback(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=r"calib: no such folder \(expected <folder>/<label>/<image>\)"):
        evaluate.main([str(tmp_path / "calib"), str(tmp_path)])
    (tmp_path / "empty" / "3").mkdir(parents=True)
    with pytest.raises(SystemExit, match="empty: no <label>/<image> files found"):
        evaluate.main([str(tmp_path / "empty"), str(tmp_path)])
    (tmp_path / "one" / "3").mkdir(parents=True)
    write_png(tmp_path / "one" / "3" / "0.png", synthetic_tray())
    with pytest.raises(SystemExit, match="test: no such folder"):
        evaluate.main([str(tmp_path / "one"), str(tmp_path / "test")])


def test_cut_boxes_makes_a_labelled_crop_folder(tmp_path: Path) -> None:
    rng = np.random.default_rng(32)
    view, placed = scene(synthetic_tray(), [(MONSTER_LOOK, "pow"), (MONSTER_LOOK, "hit")], rng)
    write_png(tmp_path / "frame.png", view)
    boxes = [{"label": p.label, "box": [p.centre[0] - 28, p.centre[1] - 28, p.centre[0] + 28, p.centre[1] + 28]}
             for p in placed]
    (tmp_path / "frame.json").write_text(json.dumps(boxes))
    assert evaluate.cut_boxes(tmp_path, tmp_path / "crops", 0.2) == 2
    assert sorted(p.parent.name for p in (tmp_path / "crops").rglob("*.png")) == ["hit", "pow"]
    out_of = evaluate.main([str(tmp_path / "crops"), str(tmp_path / "crops"), "--crops"])
    assert out_of == 0


def test_real_d20_photos_through_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    taps = ",".join(f"{x},{y}" for x, y in TOWER_TAPS)
    out = run(capsys, DICETOWER / "d20", DICETOWER / "d20", "--background", DICETOWER / "background.jpg",
              "--tray", taps)
    assert "self-test (12 new throws made from the face photos (one photo per face)): 12 of 12" in out, out
    assert "reads: 20  accepted: 20  wrong: 0" in out


def test_frames_in_tinted_light_are_read_as_told(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--tint``: the test frames in coloured light; a gain out of range is refused naming the option."""
    calibration, test = monster_folders(tmp_path, per_face=1)
    out = run(capsys, calibration, test, "--tint", "1.15,1,0.85")
    assert "reads: 3  accepted: 3  wrong: 0" in out, out
    assert evaluate.tinted(np.full((2, 2, 3), 100, np.uint8), "1.2,1,0.5")[0, 0].tolist() == [50, 100, 120]
    with pytest.raises(SystemExit, match="--tint needs three gains"):
        evaluate.main([str(calibration), str(test), "--tint", "1,1"])
