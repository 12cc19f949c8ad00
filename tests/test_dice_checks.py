"""The pieces that let the reader know when it cannot read: the look checks (``looks``), the
camera check (``scene``), the learned reader beside the template match (``learned``), the
self-test (``calibration.dice.SelfTest``) and how all of it is saved and checked on load.
Drawn dice and trays, and real photos where the learned reader's ability is the question."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.dice import (CALIBRATION_FILE, KIND_FACES, CalibrationError, SelfTest, SelfTestThrow,
                              camera_check_note, load_calibration, save_calibration, self_test_result)
from dice_fixtures import nell_byler_crops, synthetic_calibration, tower_calibration, tower_photo
from hardware.dice.imaging import crop_around
from hardware.dice.learned import FaceLearner, LearnedView
from hardware.dice.looks import Look, LookRange
from hardware.dice.reader import DiceReader, Expect, agreed
from hardware.dice.segment import middle_of
from hardware.dice.synthetic import MONSTER_LOOK, scene
from hardware.dice.templates import Reference, TemplateMatcher

RED = (110.0, 190.0, 178.0)  # Lab of the dicetower d20's body


def look(diameter: float = 57.0, fill: float = 0.78, aspect: float = 1.05, colour: tuple[float, float, float] = RED,
         sharpness: float = 4.0, at_edge: bool = False, contrast: float = 40.0) -> Look:
    return Look(diameter, fill, aspect, colour, sharpness, at_edge, contrast)


RANGE = LookRange.of([look(56.5), look(57.5, aspect=1.1, sharpness=3.6), look(57.0, fill=0.8)])


# -- looks ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("seen, words", [
    (look(), ""),
    (look(aspect=1.25), "not lying flat"),
    (look(fill=0.68), "not lying flat"),
    (look(66.0), "bigger"),
    (look(48.0), "smaller"),
    (look(48.0, at_edge=True), "out of the tray's view"),
    (look(at_edge=True), ""),  # whole, against the wall: fine
    (look(colour=(110.0, 150.0, 205.0)), "colour"),  # orange
    (look(colour=(110.0, 128.0, 128.0)), "colour"),  # grey
    (look(colour=(200.0, 190.0, 178.0)), "colour"),  # far too light
    (look(colour=(85.0, 178.0, 168.0)), ""),  # the same red, dimmer
    (look(sharpness=1.2), "blurred"),
    (look(sharpness=1.2, contrast=8.0), ""),  # a faint (blank-looking) face has nothing to blur
])
def test_a_die_is_judged_against_the_range_of_its_face_photos(seen: Look, words: str) -> None:
    why = RANGE.problem(seen, "d20")
    assert (words in why) if words else why == "", why


def test_the_range_is_saved_and_a_broken_one_named() -> None:
    assert LookRange.from_plain(RANGE.to_plain(), "looks") == RANGE
    broken = {**RANGE.to_plain(), "diameter": [60.0, 50.0]}
    with pytest.raises(ValueError, match="looks.diameter: the least is above the most"):
        LookRange.from_plain(broken, "looks")
    with pytest.raises(ValueError, match="looks.sharpness: expected a number"):
        LookRange.from_plain({**RANGE.to_plain(), "sharpness": "sharp"}, "looks")


def test_hues_that_wrap_round_make_one_short_range() -> None:
    reds = LookRange.of([look(colour=(110.0, 190.0, 120.0)), look(colour=(110.0, 190.0, 136.0))])
    assert reds.hue is not None and reds.hue[1] - reds.hue[0] < 20.0
    assert reds.problem(look(colour=(110.0, 190.0, 128.0)), "d20") == ""


# -- the camera check ------------------------------------------------------------------------------

def test_a_tray_with_walls_is_checked_and_a_plain_felt_says_it_cannot_be() -> None:
    walled = synthetic_calibration(walls=True)
    assert walled.scene is not None and walled.scene.usable
    frame = walled.background
    assert not walled.scene.check(frame).moved
    assert not walled.scene.check(np.roll(frame, 2, axis=0)).moved  # a nudge
    moved = walled.scene.check(np.roll(frame, 10, axis=1))
    assert moved.moved and "moved by about 10 px" in moved.why
    with pytest.raises(ValueError, match="a 240x200 frame"):
        walled.scene.check(frame[::2, ::2])
    plain = synthetic_calibration()
    assert plain.scene is not None and not plain.scene.usable
    assert not plain.scene.check(np.roll(plain.background, 40, axis=1)).moved  # nothing to tell it by
    assert camera_check_note(walled) == "" and camera_check_note(None) == ""  # the set-up says nothing
    assert "cannot tell if it is knocked" in camera_check_note(plain)  # ... but here it says why and what to do


def test_the_camera_check_is_saved_with_the_calibration(tmp_path: Path) -> None:
    calibration = tower_calibration(("d20",))
    save_calibration(calibration, tmp_path / "dice")
    loaded = load_calibration(tmp_path / "dice")
    assert loaded.scene is not None and loaded.scene.usable
    frame = tower_photo("d20", "5")
    assert loaded.scene.check(frame).shift == pytest.approx(calibration.scene.check(frame).shift, abs=0.2)  # type: ignore[union-attr]
    assert loaded.profiles["d20"].looks == calibration.profiles["d20"].looks
    assert loaded.profiles["d20"].learned_faces == calibration.profiles["d20"].learned_faces
    assert loaded.profiles["d20"].self_test == calibration.profiles["d20"].self_test


# -- the learned reader ----------------------------------------------------------------------------

def test_the_learned_reader_reads_real_faces_it_learned_in_any_turn() -> None:
    """One photo per face of the real d20, each read turned by angles it never learned it at."""
    profile = tower_calibration(("d20",)).profiles["d20"]
    references = profile.references()
    learner = FaceLearner(references, TemplateMatcher(references).axis)
    right = 0
    for reference in references:
        for turn in (33.0, 101.0, 217.0):
            rotation = cv2.getRotationMatrix2D(reference.centre, turn, 1.0)
            turned = cv2.warpAffine(reference.image, rotation, reference.image.shape[1::-1],
                                    borderMode=cv2.BORDER_REPLICATE)
            right += learner.view(np.asarray(turned, np.uint8), reference.centre, reference.diameter).label == \
                reference.label
    assert right >= 0.95 * 3 * len(references), right


def test_the_learned_reader_speaks_for_faces_whose_photos_agree() -> None:
    """Photos of one die agree with each other: it speaks for every face. Photos of dozens of dice
    (the public pip set's train boxes) do not: it speaks for few, and keeps out of those reads."""
    drawn = synthetic_calibration(seed=5).profiles["monster"]
    assert set(drawn.learned_faces) == {"hit", "pow"}  # blank has no marks: its ink energy tells it
    shots = []
    for label, crop, _ in nell_byler_crops("train", per_face=12):
        blob = middle_of(crop)
        shots.append(Reference(label, crop_around(crop, blob.centre, blob.diameter, 1.5),
                               ((round(blob.diameter * 1.5) - 1) / 2.0,) * 2, blob.diameter))
    many = FaceLearner(shots, TemplateMatcher(shots).axis)
    assert len(many.speaks_for()) <= 2, many.speaks_for()


def test_a_read_stands_only_where_the_learned_reader_agrees() -> None:
    profile = replace(tower_calibration(("d20",)).profiles["d20"], learned_faces=("7", "8"))
    seen = LearnedView("1", 0.8, "7", 0.1)
    assert agreed(profile, (True, "7", 0.3, ""), seen) == (False, "7", 0.0,
                                                           "the photos say 7 but the learned reader sees 1")
    assert agreed(profile, (True, "7", 0.3, ""), replace(seen, label="7"))[0]
    assert agreed(profile, (True, "3", 0.3, ""), seen)[0]  # it speaks for neither 3 nor 1
    assert not agreed(profile, (True, "3", 0.3, ""), replace(seen, label="8"))[0]  # it speaks for 8
    assert agreed(profile, (False, "7", 0.0, "unsure"), seen)[1:] == ("7", 0.0, "unsure")


# -- the self-test ---------------------------------------------------------------------------------

def throws(*reads: tuple[str, str, bool, str]) -> list[SelfTestThrow]:
    return [SelfTestThrow(truth, label, accepted, why) for truth, label, accepted, why in reads]


def test_the_self_test_passes_with_none_wrong_and_at_most_two_in_twelve_refused() -> None:
    good = throws(*[("4", "4", True, "")] * 10, ("2", "", False, "cannot tell 2 from 5"), ("6", "", False, "x"))
    assert self_test_result(good, "d6").passed
    assert self_test_result(good, "d6").estimate == "10 of 10 accepted reads right, 2 of 12 throws refused"
    one_wrong = throws(*[("4", "4", True, "")] * 11, ("6", "9", True, ""))
    failed = self_test_result(one_wrong, "d6")
    assert not failed.passed and failed.advice[0].startswith("a 6 was read as 9: retake face 6's photo and face 9's")
    refusing = throws(*[("4", "4", True, "")] * 9, *[("2", "", False, "the d6 is not lying flat (leaning?)")] * 3)
    assert not self_test_result(refusing, "d6").passed
    assert any("lean on the tray's walls" in a for a in self_test_result(refusing, "d6").advice)


def test_the_self_test_reads_throws_and_takes_the_owners_word(tmp_path: Path) -> None:
    calibration = synthetic_calibration(self_test=False)
    assert not calibration.profiles["monster"].automatic
    reader = DiceReader(calibration)
    assert "has not had its self-test" in reader.read_view(calibration.background, Expect("monster", 1)).off
    test = SelfTest(calibration, "monster", wanted=3)
    with pytest.raises(CalibrationError, match="throw the die first"):
        test.answer("hit")
    with pytest.raises(CalibrationError, match="1 asked for, but I see 0"):
        test.throw_view(calibration.background)
    rng = np.random.default_rng(2)
    for face in KIND_FACES["monster"]:
        read = test.throw_view(scene(calibration.background, [(MONSTER_LOOK, face)], rng)[0])
        assert test.view()["pending"] == {"label": read.label, "accepted": read.accepted, "why": read.why}
        with pytest.raises(CalibrationError, match="not a face"):
            test.answer("crit")
        test.answer(face)
    result = test.result()
    assert result.passed and result.throws == 3
    done = calibration.with_self_test("monster", result)
    save_calibration(done, tmp_path / "dice")
    assert load_calibration(tmp_path / "dice").profiles["monster"].automatic
    with pytest.raises(CalibrationError, match="is not calibrated yet"):
        SelfTest(calibration, "d20")


@pytest.mark.parametrize("change, words", [
    ({"self_test": {"throws": 12, "right": 12, "wrong": 0, "refused": 1, "passed": True}}, "do not add up"),
    ({"self_test": {"throws": 12, "right": 12, "wrong": 0, "refused": 0, "passed": "yes"}}, "passed true or false"),
    ({"self_test": {"throws": 12, "right": 12, "wrong": 0, "refused": 0, "passed": True, "advice": [3]}}, "advice"),
    ({"looks": "round"}, "looks: expected an object"),
    ({"looks": {"diameter": [1, 2]}}, "looks.fill: expected a number"),
    ({"learned_faces": ["21"]}, "learned_faces: expected a list of faces"),
])
def test_a_broken_new_field_is_refused_naming_it(tmp_path: Path, change: dict[str, object], words: str) -> None:
    save_calibration(synthetic_calibration(), tmp_path / "dice")
    path = tmp_path / "dice" / CALIBRATION_FILE
    data = json.loads(path.read_text())
    data["profiles"]["monster"].update(change)
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match=words):
        load_calibration(tmp_path / "dice")


def test_a_calibration_from_before_these_checks_still_loads_and_asks(tmp_path: Path) -> None:
    """No looks, learned faces, self-test or camera view in the file: it reads, but answers nothing
    by itself until its self-test is done."""
    save_calibration(synthetic_calibration(), tmp_path / "dice")
    path = tmp_path / "dice" / CALIBRATION_FILE
    data = json.loads(path.read_text())
    for key in ("looks", "learned_faces", "self_test"):
        data["profiles"]["monster"].pop(key)
    data.pop("scene")
    path.write_text(json.dumps(data))
    old = load_calibration(tmp_path / "dice")
    assert old.scene is None and old.profiles["monster"].looks is None and not old.profiles["monster"].automatic
    view, _ = scene(old.background, [(MONSTER_LOOK, "pow")], np.random.default_rng(3))
    read = DiceReader(old).read_view(view, Expect("monster", 1))
    assert read.dice[0].label == "pow" and read.dice[0].accepted and read.answer() is None
