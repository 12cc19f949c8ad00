"""The dice camera at a real table: a real Ravenloft game in a SQLite store asks
for two Monster dice, tray pictures arrive in a folder (the frame source), and
the answer lands in the game log; a refused read leaves the prompt to the
tablet; a camera unplugged mid-game is reported and the prompt is answered by
taps with nothing lost."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

from companion.games import pack_makers
from companion.store import Store
from companion.table import Table, TableError, Tables
from calibration.dice import DiceCalibration
from dice_fixtures import Tray, synthetic_calibration
from polling import wait_for
from hardware.camera import FolderSource
from hardware.dice.reader import DiceReader
from hardware.dice.settle import SettleDetector, SettleSettings
from hardware.dice.wiring import DiceWatcher, job_from_view, start_dice

#: The Carrionette at Vallaki, the Sorcerer one step away; the "Ambush" card draws two items,
#: moves her onto the Sorcerer and attacks with two Monster dice.
POSITION = {"phase": "monster", "monsters": {"carrionette": "vallaki"},
            "heroes": [{"hero": "sorcerer", "player": "Sam", "at": "madam-evas-tent"}]}
CALIBRATION = synthetic_calibration()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    store = Store(tmp_path / "games.sqlite")
    game_id = store.create_game("ravenloft", "camera test", {"position": POSITION})
    yield Tables(store, pack_makers("")).get(game_id)
    store.close()


def to_monster_dice(table: Table) -> None:
    """Play the card and draw its items by taps, up to the Monster dice."""
    table.act({"key": "monster-card", "answer": "ambush"}, table.version)
    while _prompt(table)["key"] == "item":
        options = _prompt(table)["options"]
        assert isinstance(options, list)
        table.act({"key": "item", "answer": options[0]["id"]}, table.version)
    prompt = _prompt(table)
    assert (prompt["key"], prompt["die"], prompt["count"]) == ("monster-dice", "monster", 2)


def _prompt(table: Table) -> dict[str, object]:
    prompt = table.view()["prompt"]
    assert isinstance(prompt, dict)
    return prompt


def inputs(table: Table) -> list[dict[str, object]]:
    return [dict(e.entry or {}) for e in table.store.journal(table.game_id) if e.kind == "input"]


class Camera(Tray):
    """A folder the test drops tray pictures into, and the watcher reading it."""

    def __init__(self, folder: Path, calibration: DiceCalibration = CALIBRATION) -> None:
        super().__init__(folder, calibration.background, 21)
        self.reports: list[dict[str, object]] = []
        settle = SettleDetector(SettleSettings(still_frames=3))
        self.watcher = DiceWatcher(FolderSource(folder), DiceReader(calibration), self.reports.append,
                                   settle=settle, frame_interval=0.005, retry_after=0.05, idle_wait=0.05)

    def statuses(self) -> list[object]:
        """What was reported so far (a held picture of dice in the air may be refused first: fine)."""
        return [r["status"] for r in list(self.reports)]


@pytest.fixture
def camera(tmp_path: Path) -> Iterator[Camera]:
    made = Camera(tmp_path / "frames")
    yield made
    made.watcher.close()


def test_a_roll_prompt_is_answered_from_the_tray(table: Table, camera: Camera) -> None:
    camera.watcher.follow(table)
    to_monster_dice(table)
    before = table.version
    camera.throw("pow", "hit")
    assert wait_for(lambda: "answered" in camera.statuses()), camera.reports
    assert table.version == before + 1
    last = inputs(table)[-1]
    assert last["key"] == "monster-dice" and sorted(last["answer"]) == ["hit", "pow"]  # type: ignore[arg-type]
    report = next(r for r in camera.reports if r["status"] == "answered")
    assert report["prompt_key"] == "monster-dice" and report["version"] == before
    dice = report["dice"]
    assert isinstance(dice, list) and all(str(d["crop"]).startswith("data:image/png") for d in dice)
    assert camera.watcher.health.answered == 1


def test_a_read_it_is_unsure_of_is_left_for_the_tablet(table: Table, camera: Camera) -> None:
    camera.watcher.follow(table)
    to_monster_dice(table)
    version = table.version
    camera.throw("hit")  # one die where two were asked for
    assert wait_for(lambda: any("2 asked for, but I see 1" in str(r.get("problem")) for r in list(camera.reports))), \
        camera.reports
    assert table.version == version and _prompt(table)["key"] == "monster-dice"
    table.act({"key": "monster-dice", "answer": ["hit", "blank"]}, version)  # typed on the tablet
    assert inputs(table)[-1] == {"key": "monster-dice", "answer": ["hit", "blank"]}


def test_a_tap_first_wins_and_the_camera_does_not_answer_twice(table: Table, camera: Camera) -> None:
    camera.watcher.follow(table)
    to_monster_dice(table)
    table.act({"key": "monster-dice", "answer": ["blank", "blank"]}, table.version)
    after = table.version
    camera.throw("pow", "pow")
    assert wait_for(lambda: camera.watcher.health.state == "idle")
    assert table.version == after and inputs(table)[-1]["answer"] == ["blank", "blank"]


def test_a_camera_unplugged_mid_game_falls_back_to_taps(table: Table, camera: Camera) -> None:
    camera.watcher.follow(table)
    to_monster_dice(table)
    assert wait_for(lambda: camera.watcher.health.state == "watching")
    kept = inputs(table)
    shutil.rmtree(camera.folder)  # the webcam's cable pulled
    assert wait_for(lambda: "camera-lost" in camera.statuses()), camera.reports
    assert camera.watcher.health.state == "lost"
    lost = next(r for r in camera.reports if r["status"] == "camera-lost")
    assert "enter the dice on the tablet" in str(lost["message"])
    assert inputs(table) == kept and _prompt(table)["key"] == "monster-dice"
    table.act({"key": "monster-dice", "answer": ["pow", "blank"]}, table.version)  # by taps
    assert inputs(table) == [*kept, {"key": "monster-dice", "answer": ["pow", "blank"]}]


def test_the_camera_comes_back_after_being_plugged_in_again(table: Table, camera: Camera) -> None:
    camera.watcher.follow(table)
    to_monster_dice(table)
    shutil.rmtree(camera.folder)
    assert wait_for(lambda: camera.watcher.health.state == "lost")
    camera.folder.mkdir()
    camera.count = 0
    camera.put(CALIBRATION.background)
    assert wait_for(lambda: "camera-back" in camera.statuses()), camera.reports
    before = table.version
    camera.throw("blank", "pow")
    assert wait_for(lambda: table.version == before + 1), camera.reports
    assert sorted(inputs(table)[-1]["answer"]) == ["blank", "pow"]  # type: ignore[arg-type]


def test_close_stops_the_thread_and_is_safe_twice(tmp_path: Path, table: Table) -> None:
    camera = Camera(tmp_path / "frames")
    camera.watcher.follow(table)
    camera.watcher.close()
    camera.watcher.close()
    assert not camera.watcher._thread.is_alive()
    assert camera.watcher.health.state == "stopped" and camera.watcher.source.closed


def test_only_roll_prompts_the_reader_knows_are_watched() -> None:
    assert job_from_view({"version": 3, "game_id": "g", "prompt": {"kind": "roll", "key": "monster-dice",
                                                                   "die": "monster", "count": 2}}) is not None
    assert job_from_view({"version": 3, "prompt": {"kind": "choice", "key": "path"}}) is None
    assert job_from_view({"version": 3, "prompt": None}) is None


def test_no_camera_or_no_calibration_means_typed_dice(tmp_path: Path) -> None:
    from hardware.camera import NoCamera

    assert start_dice(NoCamera(), DiceReader(CALIBRATION)) is None
    folder = tmp_path / "f"
    folder.mkdir()
    source = FolderSource(folder)
    assert start_dice(source, None) is None and source.closed


def test_a_table_refusing_the_answer_is_reported(table: Table, camera: Camera) -> None:
    """The camera's answer reaches a table that moved on (a stale version): reported, nothing changes."""
    camera.watcher.follow(table)
    to_monster_dice(table)
    original = table.act

    def busy(entry: object, version: int, seat: str | None = None, physical: bool = False) -> dict[str, object]:
        raise TableError("stale", "someone else answered first")

    table.act = busy  # type: ignore[method-assign]
    camera.throw("pow", "hit")
    assert wait_for(lambda: "not-applied" in camera.statuses()), camera.reports
    table.act = original  # type: ignore[method-assign]
    assert _prompt(table)["key"] == "monster-dice"


def test_paused_for_calibration_it_reads_nothing_then_resumes(table: Table, camera: Camera) -> None:
    camera.watcher.follow(table)
    to_monster_dice(table)
    camera.watcher.pause()
    assert wait_for(lambda: camera.watcher.health.state == "idle")
    before = table.version
    camera.throw("hit", "hit")  # a die in the tray for calibration: seen by the calibration screens only
    seen = [camera.watcher.frame() for _ in range(3)]
    assert all(f.shape == CALIBRATION.background.shape for f in seen)
    assert table.version == before
    camera.watcher.resume(DiceReader(CALIBRATION))
    camera.throw("pow", "blank")
    assert wait_for(lambda: table.version == before + 1), camera.reports
    assert sorted(inputs(table)[-1]["answer"]) == ["blank", "pow"]  # type: ignore[arg-type]


def test_only_the_game_followed_last_is_watched(tmp_path: Path, table: Table, camera: Camera) -> None:
    """A tablet joined another game: the first game's rolls are left to its tablets."""
    other = Tables(table.store, pack_makers("")).get(table.store.create_game("ravenloft", "other", {"position": POSITION}))
    camera.watcher.follow(table)
    camera.watcher.follow(other)
    to_monster_dice(table)
    before = table.version
    camera.throw("pow", "hit")
    assert wait_for(lambda: camera.count == 3 and camera.watcher.health.state == "idle")
    assert camera.watcher._job is None and table.version == before
    to_monster_dice(other)
    assert wait_for(lambda: camera.watcher._job is not None and camera.watcher._job.game_id == other.game_id)


def test_after_the_camera_moved_nothing_is_answered_until_the_tray_is_calibrated_again(
        tmp_path: Path, table: Table) -> None:
    """A tray with walls, so a move can be seen: a throw after the camera moved is refused, saying
    so, and so is a good throw after it (the camera may have been put back a little off); a new
    calibration (``use``) trusts it again."""
    walled = synthetic_calibration(walls=True)
    camera = Camera(tmp_path / "frames", walled)
    try:
        camera.watcher.follow(table)
        to_monster_dice(table)
        before = table.version
        camera.background = np.roll(walled.background, 12, axis=1)  # knocked sideways
        camera.throw("pow", "hit")
        assert wait_for(lambda: camera.watcher.health.state == "moved"), camera.reports
        refused = [r for r in camera.reports if r["status"] == "refused"]
        assert "the camera has moved" in str(refused[-1]["message"]) and refused[-1]["moved"] is True
        camera.background = walled.background  # back where it was, or nearly
        camera.throw("pow", "hit")
        count = len(camera.reports)
        assert wait_for(lambda: len(camera.reports) > count)
        assert table.version == before and "the camera has moved" in str(camera.reports[-1]["message"])
        camera.watcher.use(DiceReader(walled))
        camera.throw("blank", "hit")
        assert wait_for(lambda: table.version == before + 1), camera.reports
        assert camera.watcher.health.state != "moved"
    finally:
        camera.watcher.close()


def test_a_die_whose_self_test_has_not_passed_is_shown_not_answered(tmp_path: Path, table: Table) -> None:
    untested = synthetic_calibration(self_test=False)
    camera = Camera(tmp_path / "frames", untested)
    try:
        camera.watcher.follow(table)
        to_monster_dice(table)
        before = table.version
        camera.throw("pow", "hit")

        def shown() -> list[dict[str, object]]:  # the die in the air, blurred, may be refused first
            return [r for r in list(camera.reports) if r["status"] == "refused" and r.get("off")
                    and sorted(d["label"] for d in r["dice"]) == ["hit", "pow"]]  # type: ignore[union-attr]
        assert wait_for(lambda: bool(shown())), camera.reports
        report = shown()[0]
        assert "has not had its self-test yet" in str(report["message"]) and report["answer"] is None
        assert table.version == before
    finally:
        camera.watcher.close()
