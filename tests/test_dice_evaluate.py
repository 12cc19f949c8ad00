"""``python -m calibration.dice_evaluate``: calibrate on one folder, read another,
print accuracy, refusals, a confusion table and ms per read."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from dice_fixtures import DICETOWER, TOWER_TAPS, synthetic_tray, write_png
from calibration import dice_evaluate as evaluate
from hardware.dice.synthetic import D6_PIPS_LOOK, MONSTER_LOOK, DieLook, scene


def monster_folders(root: Path, per_face: int, look: DieLook = MONSTER_LOOK,
                    faces: tuple[str, ...] = ("hit", "pow", "blank")) -> tuple[Path, Path]:
    """Tray pictures of a synthetic die (a Monster die unless told): one per face to calibrate,
    ``per_face`` to read."""
    rng = np.random.default_rng(31)
    background = synthetic_tray()
    calibration, test = root / "calibration", root / "test"
    write_png(root / "background.png", background)
    for face in faces:
        for folder, count in ((calibration, 1), (test, per_face)):
            (folder / face).mkdir(parents=True)
            for i in range(count):
                write_png(folder / face / f"{i}.png", scene(background, [(look, face)], rng)[0])
    return calibration, test


def test_tray_photos_of_a_monster_die(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    calibration, test = monster_folders(tmp_path, per_face=4)
    assert evaluate.main([str(calibration), str(test), "--background", str(tmp_path / "background.png"),
                          "--augment", "1"]) == 0
    out = capsys.readouterr().out
    assert "monster (symbols), tray mode" in out
    assert "reads: 24  accepted: 24  wrong: 0" in out
    assert "accuracy of accepted reads: 100.00%" in out and "refused: 0.00%" in out
    assert "true\\read" in out and "ms per read" in out


def test_a_pip_die_says_which_opinions_it_got(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The owner sees whether the pips are counted and which faces the pip network speaks for."""
    calibration, test = monster_folders(tmp_path, 1, D6_PIPS_LOOK, tuple("123456"))
    assert evaluate.main([str(calibration), str(test), "--background", str(tmp_path / "background.png"),
                          "--style", "pips"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"the pips are counted; the pip network speaks for faces: (none|[1-6](, [1-6])*)\n", out), out
    assert "reads: 6  accepted:" in out


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


def test_cut_boxes_makes_a_labelled_crop_folder(tmp_path: Path) -> None:
    rng = np.random.default_rng(32)
    view, placed = scene(synthetic_tray(), [(MONSTER_LOOK, "pow"), (MONSTER_LOOK, "hit")], rng)
    write_png(tmp_path / "frame.png", view)
    boxes = [{"label": p.label, "box": [p.centre[0] - 28, p.centre[1] - 28, p.centre[0] + 28, p.centre[1] + 28]}
             for p in placed]
    (tmp_path / "frame.json").write_text(json.dumps(boxes))
    assert evaluate.cut_boxes(tmp_path, tmp_path / "crops", 0.2) == 2
    assert sorted(p.parent.name for p in (tmp_path / "crops").rglob("*.png")) == ["hit", "pow"]


def test_real_d20_photos_through_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    taps = ",".join(f"{x},{y}" for x, y in TOWER_TAPS)
    evaluate.main([str(DICETOWER / "d20"), str(DICETOWER / "d20"), "--background",
                   str(DICETOWER / "background.jpg"), "--tray", taps])
    out = capsys.readouterr().out
    assert "reads: 20  accepted: 20  wrong: 0" in out
