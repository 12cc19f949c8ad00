"""The dice camera in the table service, over the wire (docs/protocol.md, docs/dice.md):
a real ``python -m companion.server --camera folder:<dir>`` with a dice
calibration (synthetic Monster dice) in its state dir, and real Socket.IO
clients. A game reaches a roll of two Monster dice by simple answers; tray
pictures arrive in the folder; the camera's answer lands in the game (version,
exported journal) and the tablets get the ``dice`` event with crops; a tablet
corrects it by undo + answer; the folder removed mid-game is reported and a
tapped answer works with nothing lost; without a camera the dice are typed."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest
import socketio

from calibration.dice import DiceCalibration, save_calibration
from companion.server.dice import CAMERA_ON, camera_settings
from dice_fixtures import Tray, of_set, pack_set, synthetic_calibration
from service_process import SETUP, Service, connect, next_event, ok, simple_answer

#: The games here are Ravenloft's: its Monster dice are its own set (docs/dice.md "Dice sets").
MONSTER_SET = pack_set("ravenloft", "monster")
CALIBRATION = of_set(synthetic_calibration(), "monster", MONSTER_SET)


@pytest.fixture
def tray(tmp_path: Path) -> Tray:
    return Tray(tmp_path / "frames", CALIBRATION.background, 33)


def folder_camera_service(state: Path, tray: Tray, calibration: DiceCalibration | None) -> Iterator[Service]:
    """The service with ``tray``'s folder as its camera and ``calibration`` saved first (none:
    not calibrated yet), for a fixture to yield; a traceback in its log fails the test."""
    if calibration is not None:
        save_calibration(calibration, state / "dice")
    running = Service(state, args=["--camera", f"folder:{tray.folder}"]).start()
    yield running
    running.stop()
    assert "Traceback" not in running.log(), running.log()


@pytest.fixture
def service(tmp_path: Path, tray: Tray) -> Iterator[Service]:
    yield from folder_camera_service(tmp_path / "state", tray, CALIBRATION)


@pytest.fixture
def client(service: Service) -> Iterator[socketio.SimpleClient]:
    opened = connect(service.url)
    yield opened
    opened.disconnect()


def to_two_monster_dice(client: socketio.SimpleClient) -> dict[str, Any]:
    """A new game answered simply up to a roll of two Monster dice; returns the join reply with that view."""
    game_id = ok(client, "new_game", {"name": "Camera night", "setup": SETUP})["game_id"]
    joined = ok(client, "join", {"game_id": game_id})
    view = joined["view"]
    for _ in range(100):
        prompt = view["prompt"]
        if prompt["key"] == "monster-dice" and prompt["count"] == 2:
            return {**joined, "view": view}
        ok(client, "act", {"game_id": game_id, "version": view["version"], "key": prompt["key"],
                           "answer": simple_answer(prompt)})
        view = next_event(client, "view")
    raise AssertionError("no roll of two Monster dice within 100 inputs")


def next_dice(client: socketio.SimpleClient, status: str) -> dict[str, Any]:
    """The next ``dice`` event with ``status`` (reads of the empty tray, refused, are skipped)."""
    for _ in range(100):
        event: dict[str, Any] = next_event(client, "dice")
        if event["status"] == status:
            return event
    raise AssertionError(f"no dice event {status!r}")


def journal_inputs(service: Service, game_id: str) -> list[dict[str, Any]]:
    journal = service.export(game_id)["journal"]
    return [entry["entry"] for entry in journal if entry["kind"] == "input"]


def test_a_thrown_roll_is_answered_and_shown_with_crops(service: Service, client: socketio.SimpleClient,
                                                        tray: Tray) -> None:
    joined = to_two_monster_dice(client)
    assert joined["dice"] == {"camera": True, "state": joined["dice"]["state"], "reason": "", "hint": CAMERA_ON}
    view = joined["view"]
    tray.throw("pow", "hit")
    read = next_dice(client, "answered")
    assert read["game_id"] == view["game_id"] and read["prompt_key"] == "monster-dice"
    assert read["version"] == view["version"] and sorted(read["answer"]) == ["hit", "pow"]
    assert len(read["dice"]) == 2
    assert all(d["crop"].startswith("data:image/png;base64,") and d["confidence"] > 0 for d in read["dice"])
    last = journal_inputs(service, view["game_id"])[-1]
    assert last["key"] == "monster-dice" and sorted(last["answer"]) == ["hit", "pow"]
    late = connect(service.url)  # a tablet joining now sees the read in the view
    try:
        seen = ok(late, "join", {"game_id": view["game_id"]})["view"]
        assert seen["version"] == view["version"] + 1 and seen["dice"]["status"] == "answered"
    finally:
        late.disconnect()
    assert service.health()["camera"]["answered"] == 1


def test_one_tap_corrects_the_camera(service: Service, client: socketio.SimpleClient, tray: Tray) -> None:
    """The correction flow of docs/protocol.md: undo the camera's input, answer again."""
    view = to_two_monster_dice(client)["view"]
    tray.throw("blank", "hit")
    read = next_dice(client, "answered")
    game_id, version = view["game_id"], read["version"] + 1
    undone = ok(client, "undo", {"game_id": game_id, "version": version, "count": 1})["version"]
    ok(client, "act", {"game_id": game_id, "version": undone, "key": "monster-dice", "answer": ["pow", "hit"]})
    inputs = journal_inputs(service, game_id)
    assert inputs[-1] == {"key": "monster-dice", "answer": ["pow", "hit"]}
    kinds = [entry["kind"] for entry in service.export(game_id)["journal"]]
    assert kinds[-3:] == ["input", "undo", "input"]  # the camera's answer, undone, then the tablet's


def test_the_camera_lost_mid_game_falls_back_to_taps(service: Service, client: socketio.SimpleClient,
                                                     tray: Tray) -> None:
    view = to_two_monster_dice(client)["view"]
    kept = journal_inputs(service, view["game_id"])
    shutil.rmtree(tray.folder)  # the webcam's cable pulled
    lost = next_dice(client, "camera-lost")
    assert "enter the dice on the tablet" in lost["message"] and lost["prompt_key"] == "monster-dice"
    assert service.health()["camera"]["state"] == "lost"
    seen = ok(client, "join", {"game_id": view["game_id"]})
    assert seen["view"]["prompt"]["key"] == "monster-dice" and seen["view"]["version"] == view["version"]
    assert seen["view"]["dice"]["status"] == "camera-lost"
    ok(client, "act", {"game_id": view["game_id"], "version": view["version"], "key": "monster-dice",
                       "answer": ["pow", "blank"]})
    assert journal_inputs(service, view["game_id"]) == [*kept, {"key": "monster-dice", "answer": ["pow", "blank"]}]


def test_without_a_camera_the_dice_are_typed(tmp_path: Path) -> None:
    own = Service(tmp_path / "state").start()
    try:
        assert own.health()["camera"]["state"] == "off"
        assert "Dice camera: none (off) - no dice camera configured: dice are entered on the tablet" in own.output
        tablet = connect(own.url)
        try:
            game_id = ok(tablet, "new_game", {"name": "No camera", "setup": SETUP})["game_id"]
            joined = ok(tablet, "join", {"game_id": game_id})
            assert joined["dice"]["camera"] is False and joined["dice"]["hint"] == ""
            assert joined["view"]["dice"] is None
        finally:
            tablet.disconnect()
    finally:
        own.stop()


def test_a_camera_without_a_calibration_says_so(tmp_path: Path, tray: Tray) -> None:
    own = Service(tmp_path / "state", args=["--camera", f"folder:{tray.folder}"]).start()
    try:
        camera = own.health()["camera"]
        assert camera["state"] == "off" and camera["backend"] == "folder"
        assert "the dice are not calibrated" in camera["reason"]
    finally:
        own.stop()


def test_camera_option_forms() -> None:
    assert camera_settings("none") == {"backend": "none"}
    assert camera_settings("picamera2") == {"backend": "picamera2"}
    assert camera_settings("folder:/tmp/x") == {"backend": "folder", "path": "/tmp/x"}
    assert camera_settings("video:/a/b.mp4") == {"backend": "video", "path": "/a/b.mp4"}
    assert camera_settings("v4l2:/dev/v4l/by-id/usb-cam") == {"backend": "v4l2", "device": "/dev/v4l/by-id/usb-cam"}
    for wrong in ("folder", "usb", "none:x"):
        with pytest.raises(ValueError, match="--camera"):
            camera_settings(wrong)
