"""Straszydła's duel dice read by the camera: the service as it runs on the box, with a folder for a
camera and a dice calibration made the owner's way from the shipped photos of a real d6 (each face
put in the tray and captured); a game of three on the shipped box reaches a duel, each side's d6s
are "thrown" into the tray (real photos of the die, placed side by side in one picture) and the
camera's reading answers the roll the duel asks, seen by the shared tablet and kept in the journal."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import cv2
import numpy as np
import pytest

from calibration.dice import DiceCalibration, save_calibration
from companion.games.straszydla.packdata import load_pack
from dice_fixtures import tower_calibration, tower_photo, write_png
from hardware.dice.reader import DiceReader
from hardware.dice.synthetic import carry
from service_process import Service
from test_straszydla_service import SEATS, Table, meeting_setup


@pytest.fixture(scope="module")
def calibration() -> DiceCalibration:
    return tower_calibration(("d6",))


class Tray:
    """The camera's folder: pictures as the camera sees them, the empty tray first."""

    def __init__(self, folder: Path, calibration: DiceCalibration) -> None:
        self.folder, self.calibration, self.count = folder, calibration, 0
        self.finder = DiceReader(calibration).finder
        folder.mkdir()
        self.put(calibration.background)

    def put(self, view: np.ndarray) -> None:
        """``view`` (the tray as the reader sees it) back in the camera's perspective, as a frame."""
        frame = tower_photo("d6", "1")
        inverse, size = np.linalg.inv(self.calibration.tray.matrix()), (frame.shape[1], frame.shape[0])
        back = cv2.warpPerspective(view, inverse, size, flags=cv2.INTER_LINEAR)
        inside = cv2.warpPerspective(np.full(view.shape[:2], 255, np.uint8), inverse, size) > 0
        shown = frame.copy()
        shown[inside] = back[inside]
        write_png(self.folder / f"{self.count:04d}.png", shown)
        self.count += 1

    def throw(self, *faces: str) -> None:
        """The d6 photographed with each of ``faces`` up, side by side in the tray."""
        view = self.calibration.background.copy()
        height, width = view.shape[:2]
        for n, face in enumerate(faces):
            photo = self.calibration.tray.warp(tower_photo("d6", face))
            die = max(self.finder.find(photo).blobs, key=lambda b: b.area)
            carry(view, photo, die.centre, die.diameter, (width * (n + 1) / (len(faces) + 1), height / 2), 25.0 * n)
        self.put(view)


@pytest.fixture
def box(tmp_path: Path, calibration: DiceCalibration) -> Iterator[tuple[Service, Tray]]:
    state = tmp_path / "state"
    save_calibration(calibration, state / "dice")
    tray = Tray(tmp_path / "frames", calibration)
    running = Service(state, args=["--camera", f"folder:{tray.folder}"]).start()
    yield running, tray
    running.stop()
    assert "Traceback" not in running.log(), running.log()


def own_view(table: Table, seat: str) -> dict[str, Any]:
    """The view ``seat``'s phone has of the game as it stands (pushed to it with the shared screen's)."""
    seen: dict[str, Any] = table.views[seat]
    if seen["version"] == table.view["version"]:
        return seen
    found: dict[str, Any] = table._next_view(seat, table.clients[seat], table.view["version"])
    return found


def camera_answers(table: Table) -> dict[str, Any]:
    """The shared tablet's next ``dice`` event that answered, and the view after it (kept as the table's);
    the service may send either first."""
    answered: dict[str, Any] | None = None
    asked = table.view["version"]
    for _ in range(200):
        name, data = table.shared.receive(timeout=20)
        if name == "dice" and data.get("status") == "answered":
            answered = data
        elif name == "view" and data["game_id"] == table.game_id and data["version"] > asked:
            table.view = data
        if answered is not None and table.view["version"] > answered["version"]:
            return answered
    raise AssertionError("the camera answered no roll")


def test_the_camera_reads_each_sides_d6s_for_a_duel(box: tuple[Service, Tray]) -> None:
    """The duel's "take 2 dice each" (a third for the stronger side) asked as d6s: the holder's dice and then
    the challenger's are read from the tray, and the answers land in the game as if tapped."""
    service, tray = box
    setup, plans = meeting_setup()
    table = Table(service, setup)
    try:
        for seat, pact in zip(SEATS, (p.id for p in load_pack().pacts)):
            table.act(seat, pact)
        for seat in SEATS:
            table.act(seat, {"action": "plan", "moves": plans[seat]})
        thrown = {"p1": ("5", "3", "6"), "p2": ("2", "4", "1")}
        for seat in ("p1", "p2"):
            assert table.view["prompt"]["answerers"] == [seat]  # the shared tablet waits for that seat's dice
            prompt = own_view(table, seat)["prompt"]  # the seat's phone sees the roll it is asked
            assert (prompt["key"], prompt["die"], prompt["player"]) == ("duel-roll", "d6", seat)
            faces = thrown[seat][:prompt["count"]]
            tray.throw(*faces)
            read = camera_answers(table)
            assert read["prompt_key"] == "duel-roll" and sorted(read["answer"]) == sorted(map(int, faces))
            assert table.view["state"]["duel"]["dice"][seat] == sorted(read["answer"], reverse=True)  # high to low
            tray.put(tray.calibration.background)  # the dice picked up again
        journal = [e["entry"] for e in service.export(table.game_id)["journal"] if e["kind"] == "input"]
        assert [e["key"] for e in journal[-2:]] == ["duel-roll", "duel-roll"]
        assert table.view["prompt"]["key"] == "duel-bid"
    finally:
        table.close()
