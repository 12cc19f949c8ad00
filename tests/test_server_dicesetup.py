"""Dice setup over the wire (docs/protocol.md "Dice setup", docs/dice.md): a real
``python -m companion.server --camera folder:<dir>`` with no calibration yet,
and a real Socket.IO client driving the whole setup — a snapshot, the tray's
corners tapped, the empty tray, each face of a Monster die put in the tray
(synthetic pictures written to the camera's folder), back and retake, finish —
then the watcher reads a thrown roll with the new calibration. Bad input is
refused with clear errors and changes nothing; export and restore carry it."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest
import socketio

from calibration.dice import load_calibration
from polling import wait_for
from hardware.dice.synthetic import MONSTER_LOOK, Changes, photo_changes, scene
from service_process import Service, call, connect, ok
from test_server_dice import CALIBRATION, MONSTER_SET, Tray, folder_camera_service, next_dice, to_two_monster_dice

BACKGROUND = CALIBRATION.background
WHOLE = [[0, 0], [1, 0], [1, 1], [0, 1]]  # the tray fills the synthetic camera's picture


def refused(client: socketio.SimpleClient, code: str, event: str, data: Any = None, words: str = "") -> str:
    reply = call(client, event, data)
    assert reply["ok"] is False and reply["error"]["code"] == code, reply
    message: str = reply["error"]["message"]
    assert len(message) > 10 and words.lower() in message.lower(), message
    return message


@pytest.fixture
def tray(tmp_path: Path) -> Tray:
    return Tray(tmp_path / "frames", CALIBRATION.background, 33)


@pytest.fixture
def fresh(tmp_path: Path, tray: Tray) -> Iterator[Service]:
    """A camera and no dice calibration yet."""
    yield from folder_camera_service(tmp_path / "state", tray, None)


@pytest.fixture
def calibrated(tmp_path: Path, tray: Tray) -> Iterator[Service]:
    """A camera and a saved calibration of the Monster die."""
    yield from folder_camera_service(tmp_path / "state", tray, CALIBRATION)


@pytest.fixture
def client(fresh: Service) -> Iterator[socketio.SimpleClient]:
    opened = connect(fresh.url)
    yield opened
    opened.disconnect()


def put_die(tray: Tray, face: str, count: int = 1) -> None:
    tray.put(scene(BACKGROUND, [(MONSTER_LOOK, face) for _ in range(count)], tray.rng)[0])


def test_the_whole_setup_then_the_watcher_reads_with_it(fresh: Service, client: socketio.SimpleClient,
                                                        tray: Tray) -> None:
    assert "the dice are not calibrated" in fresh.health()["camera"]["reason"]
    setup = ok(client, "dice_setup_start")["setup"]
    assert setup["step"] == "tray" and setup["calibrated"] == [] and setup["frame"] == [480, 400]
    snap = ok(client, "dice_tray_snapshot")
    assert snap["image"].startswith("data:image/jpeg;base64,") and (snap["width"], snap["height"]) == (480, 400)
    assert base64.b64decode(snap["image"].split(",", 1)[1])[:2] == b"\xff\xd8"

    # The tray: wrong taps are refused saying what to do; no markers are named; four taps work.
    refused(client, "bad-request", "dice_tray_corners", {"corners": WHOLE[:3]}, "four taps")
    refused(client, "bad-request", "dice_tray_corners", {"corners": [[0, 0], [1, 0], [1, 1], [0, 2]]}, "fractions")
    refused(client, "illegal", "dice_tray_corners", {"corners": [[0, 0], [1, 1], [1, 0], [0, 1]]}, "do not make a tray")
    refused(client, "illegal", "dice_tray_corners", {"corners": "auto"}, "markers 0, 1, 2, 3 not found")
    refused(client, "illegal", "dice_faces_start", {"kind": "monster"}, "calibrate the tray first")
    # A tray of any shape: taps along its rim (a hexagon), checked; then four corners after all.
    hexagon = [[0.5 + 0.4 * np.cos(a), 0.5 + 0.4 * np.sin(a)] for a in np.radians(range(0, 360, 60))]
    refused(client, "bad-request", "dice_tray_corners", {"outline": "hexagon"}, "along the tray's rim")
    refused(client, "illegal", "dice_tray_corners", {"outline": hexagon[:2]}, "3 to 64 points")
    refused(client, "illegal", "dice_tray_corners", {"outline": [hexagon[i] for i in (0, 3, 1, 4)]}, "crosses itself")
    setup = ok(client, "dice_tray_corners", {"outline": hexagon})["setup"]
    assert setup["step"] == "empty" and setup["tray"]["method"] == "outline"
    setup = ok(client, "dice_tray_corners", {"corners": WHOLE})["setup"]
    assert setup["step"] == "empty" and setup["tray"]["method"] == "taps" and setup["tray"]["new"] is True
    refused(client, "illegal", "dice_faces_start", {"kind": "monster"}, "empty tray")

    # The empty tray, twice (the first locks exposure: a folder cannot, and says so).
    tray.put(BACKGROUND)
    setup = ok(client, "dice_tray_empty")["setup"]
    assert setup["step"] == "ready" and setup["empty"] == 1 and "exposure" in setup["exposure"]
    assert "cannot tell if it is knocked" in setup["camera_check"]  # a plain felt filling the picture
    tray.put(photo_changes(BACKGROUND, np.random.default_rng(1), Changes((0.99, 1.01), (1.0, 1.0), 0.0, 2.0, 0.0)))
    assert ok(client, "dice_tray_empty")["setup"]["empty"] == 2

    # The faces of a Monster die, one by one.
    refused(client, "illegal", "dice_capture", None, "choose a die")
    refused(client, "bad-request", "dice_faces_start", {"kind": "d12"}, "d20, monster, d6")
    refused(client, "bad-request", "dice_faces_start", {"kind": "d6", "style": "dots"}, "numerals, pips")
    faces = ok(client, "dice_faces_start", {"kind": "monster"})["setup"]["faces"]
    assert faces["asking"] == "hit" and faces["step"] == 0 and faces["steps"] == 3
    assert faces["text"] == "Put only the Monster die in the tray with the HIT face on top, then tap Capture."
    tray.put(BACKGROUND)
    refused(client, "illegal", "dice_capture", None, "no die")
    put_die(tray, "hit", 2)
    refused(client, "illegal", "dice_capture", None, "2 dice")
    put_die(tray, "hit")
    reply = ok(client, "dice_capture")
    assert reply["captured"] == "hit" and reply["setup"]["faces"]["asking"] == "pow"
    assert reply["setup"]["shot"].startswith("data:image/png;base64,")
    assert ok(client, "dice_back")["setup"]["faces"]["asking"] == "hit"  # undone: hit again
    put_die(tray, "hit")
    ok(client, "dice_capture")
    put_die(tray, "pow")
    assert ok(client, "dice_capture")["setup"]["faces"]["asking"] == "blank"
    refused(client, "illegal", "dice_finish", None, "faces not captured yet: blank")
    refused(client, "illegal", "dice_retake", {"label": "crit"}, "not a face")
    refused(client, "bad-request", "dice_retake", {}, "label")
    put_die(tray, "blank")
    done = ok(client, "dice_capture")["setup"]["faces"]
    assert done["asking"] is None and done["step"] == 3 and "Finish" in done["text"]
    assert ok(client, "dice_retake", {"label": "pow"})["setup"]["faces"]["asking"] == "pow"
    put_die(tray, "pow")
    ok(client, "dice_capture")

    finished = ok(client, "dice_finish")
    assert finished["calibrated"] == [MONSTER_SET] and finished["dropped"] == []
    assert isinstance(finished["warnings"], list)
    saved = load_calibration(fresh.state_dir / "dice")
    assert saved.tray.method == "taps" and saved.profiles[MONSTER_SET].faces == ("hit", "pow", "blank")
    assert saved.profiles[MONSTER_SET].self_test is None and not saved.profiles[MONSTER_SET].automatic

    # The self-test: a dozen throws, each read shown and the face that was up told.
    test = finished["setup"]["selftest"]
    assert finished["setup"]["step"] == "selftest" and test["wanted"] == 12 and test["throws"] == 0
    refused(client, "illegal", "dice_selftest_answer", {"face": "hit"}, "throw the die first")
    refused(client, "illegal", "dice_selftest_finish", None, "12 more throws")
    refused(client, "illegal", "dice_capture", None, "choose a die")
    for number in range(12):
        face = ("hit", "pow", "blank")[number % 3]
        put_die(tray, face)
        read = ok(client, "dice_selftest_throw")
        assert read["read"]["accepted"] and read["read"]["label"] == face, read["read"]
        assert read["setup"]["selftest"]["pending"]["label"] == face and read["setup"]["shot"].startswith("data:")
        if number == 0:
            refused(client, "illegal", "dice_selftest_answer", {"face": "crit"}, "not a face")
            refused(client, "bad-request", "dice_selftest_answer", {}, "face")
        assert ok(client, "dice_selftest_answer", {"face": face})["setup"]["selftest"]["throws"] == number + 1
    done = ok(client, "dice_selftest_finish")
    assert done["passed"] is True and done["estimate"] == "12 of 12 accepted reads right, 0 of 12 throws refused"
    assert load_calibration(fresh.state_dir / "dice").profiles[MONSTER_SET].automatic
    refused(client, "illegal", "dice_capture", None, "no dice setup is under way")

    # In use at once: a roll of two Monster dice thrown into the tray is read and answered.
    tray.put(BACKGROUND)
    joined = to_two_monster_dice(client)
    assert joined["dice"]["camera"] is True
    tray.throw("pow", "hit")
    read = next_dice(client, "answered")
    assert sorted(read["answer"]) == ["hit", "pow"]

    # Export, and restore: garbage refused with why; the export goes back in.
    exported = ok(client, "dice_export")
    archive = base64.b64decode(exported["file"])
    assert archive[:2] == b"PK" and exported["bytes"] == len(archive) and exported["name"].endswith(".zip")
    refused(client, "bad-request", "dice_restore", {"file": "not base64!"}, "base64")
    refused(client, "illegal", "dice_restore", {"file": base64.b64encode(b"hello").decode()}, "not a zip")
    assert ok(client, "dice_restore", {"file": exported["file"]})["calibrated"] == [MONSTER_SET]
    assert (fresh.state_dir / "dice.previous" / "calibration.json").exists()


def test_setup_pauses_the_watcher_and_cancel_gives_it_back(calibrated: Service, tray: Tray) -> None:
    """A calibrated service: setup starts on the saved tray and holds the watcher (a face photo is no
    roll); cancel gives the camera back to the game and the roll is read."""
    own = calibrated
    client = connect(own.url)
    try:
        to_two_monster_dice(client)
        setup = ok(client, "dice_setup_start")["setup"]
        assert setup["step"] == "ready" and setup["calibrated"] == [MONSTER_SET] and setup["tray"]["new"] is False
        assert wait_for(lambda: own.health()["camera"]["state"] == "idle")  # paused: not watching the roll prompt
        ok(client, "dice_faces_start", {"kind": "d6"})
        ok(client, "dice_cancel")
        refused(client, "illegal", "dice_back", None, "no dice setup")
        tray.throw("hit", "hit")
        assert sorted(next_dice(client, "answered")["answer"]) == ["hit", "hit"]
    finally:
        client.disconnect()


def test_without_a_camera_setup_says_how_to_get_one(tmp_path: Path) -> None:
    own = Service(tmp_path / "state").start()
    client = connect(own.url)
    try:
        refused(client, "illegal", "dice_setup_start", None, "restart the box")
        refused(client, "illegal", "dice_export", None, "no dice calibration")
        ok(client, "dice_cancel")
    finally:
        client.disconnect()
        own.stop()


def test_a_tablet_that_drops_gives_the_camera_back_and_the_setup_is_kept(calibrated: Service) -> None:
    own = calibrated
    player = connect(own.url)
    try:
        to_two_monster_dice(player)
        assert wait_for(lambda: own.health()["camera"]["state"] == "watching")
        owner = connect(own.url)
        ok(owner, "dice_setup_start")
        ok(owner, "dice_faces_start", {"kind": "monster"})
        assert wait_for(lambda: own.health()["camera"]["state"] == "idle")
        owner.disconnect()  # the owner's tablet drops: the roll prompt is watched again
        assert wait_for(lambda: own.health()["camera"]["state"] == "watching")
        again = connect(own.url)
        try:
            setup = ok(again, "dice_setup_start")["setup"]
            assert setup["step"] == "faces" and setup["faces"]["asking"] == "hit"  # carried on
            assert wait_for(lambda: own.health()["camera"]["state"] == "idle")
            ok(again, "dice_setup_leave")
            assert wait_for(lambda: own.health()["camera"]["state"] == "watching")
        finally:
            again.disconnect()
    finally:
        player.disconnect()
