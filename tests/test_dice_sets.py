"""Dice sets (docs/dice.md "Dice sets"): the Ravenloft box's Monster dice and the original
Horrified box's are two sets of one kind, each pack naming its own in its data. Two small
calibrations of them are made through the owner's procedure from the shipped real d6 photos
(``tests/data/dice``), each set given other photos as its faces, so a reader of the wrong set
reads a photo as another face. Then, over the real service and a real Socket.IO client: the
dice setup is for the pack opened, shows which of its sets is calibrated and refuses another
pack's set; a calibration from before sets is read as the Ravenloft set's and nothing is
rewritten; the backup carries both sets and refuses a foreign one with nothing changed."""

from __future__ import annotations

import base64
import functools
import io
import json
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

import pytest
import requests
from flask_socketio import SocketIO

from calibration.dice import (CALIBRATION_FILE, DiceCalibration, FaceSession, export_calibration, load_calibration,
                              save_calibration)
from companion.server.dice import Dice
from companion.table import Tables
from dice_fixtures import Tray, of_set, pack_set, tower_photo, tower_tray
from hardware.dice.reader import Expect
from service_process import TIMEOUT, Service, call, connect, ok

RAVENLOFT = pack_set("ravenloft", "monster")
ORIGINAL = pack_set("horrified", "monster")
#: Which real d6 photo each set's Monster die faces are taken from (another face for each set).
FACES = {RAVENLOFT: {"hit": "1", "pow": "3", "blank": "5"}, ORIGINAL: {"hit": "5", "pow": "1", "blank": "3"}}


@functools.lru_cache(maxsize=None)
def taught(*set_ids: str) -> DiceCalibration:
    """The tray of the shipped photos and, for each set, its faces captured in turn (no self-test)."""
    calibration = tower_tray()
    for set_id in set_ids:
        session = FaceSession(calibration, "monster")
        while session.current is not None:
            session.capture(tower_photo("d6", FACES[set_id][session.current]))
        calibration = calibration.with_profile(replace(session.profile(), set=set_id))
    return calibration


def taught_d6() -> DiceCalibration:
    """The tray and a d6 (its six real photos), as the shared d6 set."""
    session = FaceSession(tower_tray(), "d6")
    while session.current is not None:
        session.capture(tower_photo("d6", session.current))
    return tower_tray().with_profile(session.profile())


def read(dice: Dice, tables: Tables, pack: str, photo: str) -> str:
    reader = dice.reader_for(tables.kind(pack))
    found = reader.read_view(reader.calibration.tray.warp(tower_photo("d6", photo)), Expect("monster", 1))
    assert len(found.dice) == 1, found
    return found.dice[0].label


def test_each_game_reads_with_its_own_boxs_set(tables: Tables) -> None:
    dice = Dice(tables, SocketIO(), "folder")
    dice.use(taught(RAVENLOFT, ORIGINAL))
    assert [read(dice, tables, "ravenloft", photo) for photo in ("1", "3")] == ["hit", "pow"]
    assert [read(dice, tables, "horrified", photo) for photo in ("1", "5")] == ["pow", "hit"]
    assert dice.reader_for(tables.kind("ravenloft")) is dice.reader_for(tables.kind("ravenloft"))  # kept
    dice.use(taught(RAVENLOFT))
    assert not dice.reader_for(tables.kind("horrified")).can_read("monster")  # not calibrated: typed
    assert dice.reader_for(tables.kind("ravenloft")).can_read("monster")


# -- over the wire ---------------------------------------------------------------------------------------

def camera_service(state: Path, tmp_path: Path) -> Iterator[Service]:
    tray = Tray(tmp_path / "frames", tower_photo("d6", "1"), 3)
    running = Service(state, args=["--camera", f"folder:{tray.folder}"]).start()
    yield running
    running.stop()
    assert "Traceback" not in running.log(), running.log()


def as_before_sets(calibration: DiceCalibration, folder: Path) -> None:
    """Saved as a box from before dice sets saved it: version 1, the profiles by kind (each
    profile of its kind's shared set, so its photos are in the kind's folder, as they were)."""
    save_calibration(calibration, folder)
    data = json.loads((folder / CALIBRATION_FILE).read_text())
    data["version"] = 1
    for profile in data["profiles"].values():
        del profile["kind"]
    (folder / CALIBRATION_FILE).write_text(json.dumps(data))


@pytest.fixture
def old_box(tmp_path: Path) -> Iterator[Service]:
    """The camera and a calibration of the Monster dice saved before there were dice sets."""
    as_before_sets(of_set(taught(RAVENLOFT), RAVENLOFT, "monster"), tmp_path / "state" / "dice")
    yield from camera_service(tmp_path / "state", tmp_path)


def sets_of(setup: dict[str, Any]) -> dict[str, tuple[str, bool]]:
    return {s["kind"]: (s["id"], s["calibrated"]) for s in setup["sets"]}


def test_setup_is_for_the_pack_opened_and_an_older_calibration_is_ravenlofts(old_box: Service) -> None:
    before = (old_box.state_dir / "dice" / CALIBRATION_FILE).read_bytes()
    assert old_box.health()["camera"]["state"] != "off", old_box.health()
    with connect(old_box.url) as tablet:
        setup = ok(tablet, "dice_setup_start", {"pack": "ravenloft"})["setup"]
        assert setup["pack"] == "ravenloft" and setup["calibrated"] == [RAVENLOFT] and setup["others"] == []
        assert sets_of(setup)["monster"] == (RAVENLOFT, True) and sets_of(setup)["d20"] == ("d20", False)
        assert setup["step"] == "ready" and list(setup["self_tests"]) == [RAVENLOFT]

        setup = ok(tablet, "dice_setup_start", {"pack": "horrified"})["setup"]
        assert setup["pack"] == "horrified" and sets_of(setup)["monster"] == (ORIGINAL, False)
        assert [o["id"] for o in setup["others"]] == [RAVENLOFT] and "Ravenloft" in setup["others"][0]["name"]

        for event in ("dice_faces_start", "dice_selftest_start"):
            refused = call(tablet, event, {"kind": "monster", "set": RAVENLOFT})
            assert refused["ok"] is False and refused["error"]["code"] == "illegal", refused
            assert RAVENLOFT in refused["error"]["message"] and ORIGINAL in refused["error"]["message"]
        assert call(tablet, "dice_setup_start", {"pack": "monopoly"})["error"]["code"] == "bad-request"
        assert ok(tablet, "dice_faces_start", {"kind": "monster"})["setup"]["faces"]["asking"] == "hit"
        ok(tablet, "dice_cancel")
    assert (old_box.state_dir / "dice" / CALIBRATION_FILE).read_bytes() == before  # read as the set's, not rewritten
    assert sorted(load_calibration(old_box.state_dir / "dice", {"monster": RAVENLOFT}).profiles) == [RAVENLOFT]


@pytest.fixture
def two_sets(tmp_path: Path) -> Iterator[Service]:
    save_calibration(taught(RAVENLOFT, ORIGINAL), tmp_path / "state" / "dice")
    yield from camera_service(tmp_path / "state", tmp_path)


def backup_of(service: Service) -> bytes:
    reply = requests.get(f"{service.url}/api/backup", timeout=TIMEOUT)
    assert reply.status_code == 200
    return reply.content


def restore(service: Service, data: bytes) -> requests.Response:
    return requests.post(f"{service.url}/api/backup/restore", data=data,
                         headers={"Content-Type": "application/zip"}, timeout=TIMEOUT)


def with_dice(backup: bytes, calibration: bytes) -> bytes:
    """The backup with another calibration zip in it."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(backup)) as old, zipfile.ZipFile(out, "w") as new:
        for name in old.namelist():
            new.writestr(name, calibration if name == "dice/calibration.zip" else old.read(name))
    return out.getvalue()


def looks(calibration: DiceCalibration) -> dict[str, tuple[str, tuple[str, ...], float]]:
    return {set_id: (p.kind, p.faces, round(p.diameter, 3)) for set_id, p in calibration.profiles.items()}


def test_the_backup_carries_both_sets_and_refuses_a_foreign_one(two_sets: Service, tmp_path: Path) -> None:
    folder = two_sets.state_dir / "dice"
    both = looks(load_calibration(folder))
    backup = backup_of(two_sets)
    save_calibration(taught(RAVENLOFT), tmp_path / "one")
    with connect(two_sets.url) as tablet:  # the owner loads a file with the Ravenloft set alone
        one = export_calibration(tmp_path / "one")
        assert ok(tablet, "dice_restore", {"file": base64.b64encode(one).decode()})["calibrated"] == [RAVENLOFT]
    assert sorted(load_calibration(folder).profiles) == [RAVENLOFT]

    # A calibration (from elsewhere) whose Ravenloft set holds a d6: refused whole, nothing changed.
    save_calibration(of_set(taught_d6(), "d6", RAVENLOFT), tmp_path / "foreign")
    assert load_calibration(tmp_path / "foreign").profiles[RAVENLOFT].kind == "d6"  # a sound file otherwise
    refused = restore(two_sets, with_dice(backup, export_calibration(tmp_path / "foreign")))
    assert refused.status_code == 400, refused.text
    message = refused.json()["error"]["message"]
    assert "nothing was changed" in message and f"{RAVENLOFT}' holds a d6" in message, message
    assert sorted(load_calibration(folder).profiles) == [RAVENLOFT]

    restored = restore(two_sets, backup)
    assert restored.status_code == 200 and "dice" in restored.json()["restored"]["calibration"], restored.text
    assert looks(load_calibration(folder)) == both and sorted(both) == sorted([RAVENLOFT, ORIGINAL])
    with connect(two_sets.url) as tablet:
        for pack, own in (("ravenloft", RAVENLOFT), ("horrified", ORIGINAL)):
            assert sets_of(ok(tablet, "dice_setup_start", {"pack": pack})["setup"])["monster"] == (own, True)
        ok(tablet, "dice_cancel")

