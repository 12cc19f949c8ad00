"""The pip network: the shipped file, a broken one, which faces it speaks for, and how its
view changes a pip die's read (docs/dice.md, "The pip network").

The network's accuracy on real photos is measured in test_dice_real.py (the public pip set);
here the rules around it are held, with real reads of real photos where they are needed.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from calibration.dice import (CALIBRATION_FILE, CalibrationError, DieProfile, FaceShot, faces_the_net_reads, load_calibration,
                              save_calibration)
from dice_fixtures import nell_byler_crops, synthetic_calibration
from hardware.dice.segment import middle_of
from hardware.dice.imaging import Image, Point
from hardware.dice.pipnet import MODEL_FILE, NetView, PipNet, PipNetError, shipped_net
from hardware.dice.pips import PipCount
from hardware.dice.reader import ReaderSettings, decide
from hardware.dice.templates import FaceScores


def _train_dice(per_face: int) -> list[tuple[int, Image]]:
    """The first ``per_face`` labelled boxes of each face in the public set's train split."""
    return [(int(label), crop) for label, crop, _ in nell_byler_crops("train", per_face)]


def test_the_shipped_network_sees_real_pip_faces_in_any_turn() -> None:
    """Photos it was trained on, turned: a check that the file and the reader's input agree (a
    mismatch in size, scale or colour order would scatter its answers), not a measure of accuracy."""
    net = shipped_net()
    right = 0
    dice = _train_dice(per_face=5)
    for face, crop in dice:
        blob = middle_of(crop)
        for turn in (0, 1, 2, 3):
            turned = np.ascontiguousarray(np.rot90(crop, turn))
            view = net.view(turned, ((turned.shape[1] - 1) / 2, (turned.shape[0] - 1) / 2), blob.diameter)
            assert abs(sum(view.chances) - 1.0) < 1e-6
            right += view.best == face
    assert right >= 0.95 * 4 * len(dice), f"{right} of {4 * len(dice)}"


def test_a_missing_or_broken_network_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(PipNetError, match="missing.onnx"):
        PipNet(tmp_path / "missing.onnx")
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"this is not a network")
    with pytest.raises(PipNetError, match="broken.onnx: cannot be read"):
        PipNet(broken)
    assert MODEL_FILE.is_file()


class _Seer:
    """A network that sees each photo as the face it was told (by the photo's mean colour)."""

    def __init__(self, answers: dict[int, int]) -> None:
        self.answers = answers

    def view(self, image: Image, centre: Point, diameter: float) -> NetView:
        face = self.answers[int(image.mean())]
        return NetView(tuple(0.9 if f == face else 0.02 for f in range(1, 7)))


def _shot(label: str, shade: int) -> FaceShot:
    return FaceShot(label, np.full((40, 40, 3), shade, dtype=np.uint8), 30.0)


def test_the_network_speaks_only_for_faces_it_reads_right_on_the_owners_photos() -> None:
    """Two photos of each face; the one (a logo) is seen as a four twice, the two once right once
    wrong: the one is left out, the two kept (half its photos right)."""
    shots = [_shot(str(face), 10 * face + k) for face in range(1, 7) for k in (0, 1)]
    answers = {10 * face + k: face for face in range(1, 7) for k in (0, 1)}
    answers.update({10: 4, 11: 4, 21: 5})
    assert faces_the_net_reads(shots, _Seer(answers)) == ("2", "3", "4", "5", "6")  # type: ignore[arg-type]


def _d6_profile(net_faces: tuple[str, ...]) -> DieProfile:
    return DieProfile("d6", "pips", tuple(_shot(str(f), 100) for f in range(1, 7)), 40.0, 0.95, (50.0, 128.0, 128.0),
                      0.022, net_faces=net_faces)


def _decide(count: int, confidence: float, chances: dict[int, float] | None,
            photo: str = "5") -> tuple[bool, str, float, str]:
    profile = _d6_profile(("1", "2", "3", "4", "5", "6"))
    scores = FaceScores(photo, 0.6, "3", 0.5)
    net = None if chances is None else NetView(tuple(chances.get(f, 0.0) for f in range(1, 7)))
    return decide(profile, scores, PipCount(count, confidence), ReaderSettings(), net)


def test_a_sure_count_the_network_rules_out_is_refused() -> None:
    assert _decide(5, 0.8, None)[:2] == (True, "5")
    accepted, _, _, why = _decide(5, 0.8, {5: 0.1, 6: 0.9})
    assert not accepted and why == "I count 5 pips, but the face looks more like 6"
    assert _decide(1, 0.8, {1: 0.1, 3: 0.9}, photo="1")[3] == "I count 1 pip, but the face looks more like 3"


def test_an_unsure_count_the_network_backs_is_taken() -> None:
    assert not _decide(4, 0.1, None)[0]  # the count alone is too unsure, and the photos say 5 or 3
    assert _decide(4, 0.1, {4: 0.7, 5: 0.3})[:2] == (True, "4")
    assert not _decide(4, 0.1, {4: 0.45, 5: 0.55})[0]  # not backed strongly enough
    assert not _decide(4, 0.0, {4: 0.99})[0]  # no face of pips fits at all: not the network's to guess


def test_the_faces_the_network_reads_are_saved_and_checked(tmp_path: Path) -> None:
    calibration = synthetic_calibration()
    save_calibration(calibration.with_profile(_d6_profile(("2", "6"))), tmp_path / "dice")
    assert load_calibration(tmp_path / "dice").profiles["d6"].net_faces == ("2", "6")
    data = json.loads((tmp_path / "dice" / CALIBRATION_FILE).read_text())
    data["profiles"]["d6"]["net_faces"] = ["2", "7"]
    (tmp_path / "dice" / CALIBRATION_FILE).write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match=r"profiles\.d6\.net_faces: expected a list of faces of the d6"):
        load_calibration(tmp_path / "dice")
    del data["profiles"]["d6"]["net_faces"]  # a file saved before the network: it speaks for none
    (tmp_path / "dice" / CALIBRATION_FILE).write_text(json.dumps(data))
    assert load_calibration(tmp_path / "dice").profiles["d6"].net_faces == ()


def test_two_threads_reading_at_once_see_what_one_sees() -> None:
    """The watcher's thread and a calibration check share the one loaded network."""
    from concurrent.futures import ThreadPoolExecutor

    net = shipped_net()
    dice = _train_dice(per_face=2)
    alone = [net.view(crop, middle_of(crop).centre, middle_of(crop).diameter).chances for _, crop in dice]
    with ThreadPoolExecutor(max_workers=2) as pool:
        together = list(pool.map(lambda die: net.view(die[1], middle_of(die[1]).centre,
                                                      middle_of(die[1]).diameter).chances, dice * 3))
    assert together == alone * 3


def test_a_damaged_shipped_network_leaves_pip_dice_to_the_count_and_says_so(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from hardware.dice import reader as reader_module

    def broken() -> PipNet:
        raise PipNetError(f"{MODEL_FILE}: cannot be read as a network (truncated)")

    monkeypatch.setattr(reader_module, "shipped_net", broken)
    calibration = synthetic_calibration().with_profile(_d6_profile(("1", "2", "3", "4", "5", "6")))
    with caplog.at_level("WARNING"):
        reader = reader_module.DiceReader(calibration)
    assert reader.pip_net is None and reader.can_read("d6")
    assert "pip d6 are read without the pip network" in caplog.text and "truncated" in caplog.text
