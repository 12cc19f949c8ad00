"""The owner's game data through the real service: checked live, saved, handed to the
games in play (their next Monster Phase uses it), kept across a restart, exported and
imported into a fresh box, refused whole with every problem named."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import cv2
import numpy as np
import pytest
import requests

from companion.games.ravenloft.ownerdata import FORMAT
from service_process import ROOT, SETUP, TIMEOUT, Service, call, connect, next_event, ok, play_socket_until

BROKEN = {"connections": {"add": [["krezk", "nowhere"]]}, "locations": {"krezk": {"number": 3}}}
PNG = bytes(cv2.imencode(".png", np.full((40, 60, 3), 90, np.uint8))[1].tobytes())  # a real picture


def doc(board: dict[str, Any] | None = None, confirmed: list[str] | None = None) -> dict[str, Any]:
    return {"format": FORMAT, "version": 1, "game": "ravenloft", "changes": {"board": board} if board else {},
            "confirmed": confirmed or []}


def new_road(files: dict[str, Any]) -> list[str]:
    """Two main-board locations with no road between them, read from the files the service sent."""
    board = files["board.json"]
    joined = {frozenset(c["between"]) for c in board["connections"]}
    places = [loc["id"] for loc in board["locations"] if loc["area"] == "board"]
    return next([a, b] for a in places for b in places if a < b and frozenset((a, b)) not in joined)


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Service]:
    service = Service(tmp_path / "box").start()
    yield service
    service.stop()


def test_a_saved_correction_reaches_the_game_in_play_and_new_games(box: Service) -> None:
    with connect(box.url) as tablet:
        game_id = ok(tablet, "new_game", {"setup": SETUP})["game_id"]
        joined = ok(tablet, "join", {"game_id": game_id})
        current = ok(tablet, "data_get", {"game": "ravenloft"})
        assert current["problems"] == [] and current["data"]["changes"] == {} and current["photo"] is False
        road = new_road(current["files"])
        assert road not in joined["pack"]["board"]["connections"]
        mine = doc({"connections": {"add": [road]}}, confirmed=["board.locations.krezk"])
        checked = ok(tablet, "data_check", {"game": "ravenloft", "data": mine})
        assert checked["problems"] == [] and checked["status"]["summary"]["location"]["confirmed"] == 1
        saved = ok(tablet, "data_save", {"game": "ravenloft", "data": mine})
        assert saved["games"] == [{"game_id": game_id, "name": "New game", "applied": True,
                                   "why": "the next steps use the new data"}]
        view = next_event(tablet, "view")
        assert view["version"] == joined["view"]["version"] + 1 and view["state"]["data_id"]
        assert "data" not in view["state"]  # the document travels with join's pack, not with every push
        again = ok(tablet, "join", {"game_id": game_id})
        assert sorted(road) in [sorted(c) for c in again["pack"]["board"]["connections"]]
        fresh = ok(tablet, "new_game", {"setup": SETUP})["game_id"]
        assert sorted(road) in [sorted(c) for c in ok(tablet, "join", {"game_id": fresh})["pack"]["board"]["connections"]]
    assert box.export(fresh)["origin"]["data"] == mine  # the game replays with the data it started with
    box.stop()
    box.start()
    with connect(box.url) as tablet:
        assert ok(tablet, "data_get", {"game": "ravenloft"})["data"] == mine
        assert ok(tablet, "join", {"game_id": game_id})["view"]["state"]["data_id"] == view["state"]["data_id"]


def test_the_data_file_goes_to_a_fresh_box_and_a_broken_one_changes_nothing(box: Service, tmp_path: Path) -> None:
    with connect(box.url) as tablet:
        road = new_road(ok(tablet, "data_get", {"game": "ravenloft"})["files"])
        ok(tablet, "data_save", {"game": "ravenloft", "data": doc({"connections": {"add": [road]}})})
    exported = requests.get(f"{box.url}/api/data/ravenloft", timeout=TIMEOUT)
    assert exported.headers["Content-Disposition"].endswith('owner-data-ravenloft.json"')
    other = Service(tmp_path / "other-box").start()
    try:
        assert requests.post(f"{other.url}/api/data/ravenloft", data=exported.content, timeout=TIMEOUT).json()["ok"]
        with connect(other.url) as tablet:
            assert ok(tablet, "data_get", {"game": "ravenloft"})["data"] == exported.json()
        refused = requests.post(f"{other.url}/api/data/ravenloft", json=doc(BROKEN), timeout=TIMEOUT)
        error = refused.json()["error"]
        assert refused.status_code == 400 and error["code"] == "illegal"
        assert any("'nowhere'" in p for p in error["problems"]) and any("number 3" in p for p in error["problems"])
        with connect(other.url) as tablet:
            assert ok(tablet, "data_get", {"game": "ravenloft"})["data"] == exported.json()
            live = ok(tablet, "data_check", {"game": "ravenloft", "data": doc(BROKEN)})
            assert len(live["problems"]) >= 2 and live["files"] is None
            saving = call(tablet, "data_save", {"game": "ravenloft", "data": doc(BROKEN)})
            assert saving["error"]["code"] == "illegal" and len(saving["error"]["problems"]) >= 2
    finally:
        other.stop()


def test_the_board_photo_is_kept_and_only_pictures_are(box: Service) -> None:
    url = f"{box.url}/api/data/ravenloft/photo"
    assert requests.get(url, timeout=TIMEOUT).status_code == 404
    assert requests.post(url, data=b"not a picture", timeout=TIMEOUT).json()["error"]["code"] == "bad-request"
    assert requests.post(url, data=PNG, timeout=TIMEOUT).json()["ok"]
    photo = requests.get(url, timeout=TIMEOUT)
    assert photo.content == PNG and photo.headers["Content-Type"] == "image/png"
    with connect(box.url) as tablet:
        assert ok(tablet, "data_get", {"game": "ravenloft"})["photo"] is True
        no_camera = call(tablet, "data_photo_snapshot", {"game": "ravenloft"})
        assert no_camera["error"]["code"] == "illegal" and "upload a photo" in no_camera["error"]["message"]


def test_a_card_typed_in_at_the_table_joins_the_card_library(box: Service) -> None:
    card = {"name": "Lanterns in the Fog", "items": 1, "event": {"kind": "none", "params": {}, "text": "Nothing."},
            "attack": {"symbols": ["frenzy"], "move": 2, "dice": 1}}
    with connect(box.url) as tablet:
        other = ok(tablet, "new_game", {"setup": SETUP, "name": "Other"})["game_id"]
        game_id = ok(tablet, "new_game", {"setup": SETUP})["game_id"]
        view = play_socket_until(tablet, ok(tablet, "join", {"game_id": game_id})["view"], "monster-card")
        ok(tablet, "act", {"game_id": game_id, "version": view["version"], "key": "monster-card",
                           "answer": "enter-card"})
        view = next_event(tablet, "view")
        ok(tablet, "act", {"game_id": game_id, "version": view["version"], "key": "card-builder",
                           "answer": {"action": "card", "card": card}})
        library = ok(tablet, "data_get", {"game": "ravenloft"})
        [(card_id, fields)] = library["data"]["changes"]["cards"]["cards"].items()
        assert fields["name"] == card["name"] and f"cards.cards.{card_id}" in library["data"]["confirmed"]
        named = {c["id"]: c["name"] for c in library["files"]["cards.json"]["cards"]}
        assert named[card_id] == card["name"]
        assert ok(tablet, "join", {"game_id": game_id})["view"]["state"]["data_id"] == ""  # this game has it in its log
        in_other = ok(tablet, "join", {"game_id": other})
        assert in_other["view"]["state"]["data_id"] and \
            card["name"] in [c["name"] for c in in_other["pack"]["cards"]]


def test_the_leds_follow_the_corrected_board(box: Service) -> None:
    """Moving a location moves its LEDs on the tablet overlay (the layout is by location, not by spot)."""
    with connect(box.url) as tablet:
        game_id = ok(tablet, "new_game", {"setup": SETUP})["game_id"]
        before = ok(tablet, "join", {"game_id": game_id})["leds"]["positions"]
        ok(tablet, "data_save", {"game": "ravenloft", "data": doc({"locations": {"krezk": {"x": 0.61, "y": 0.47}}})})
        after = next_event(tablet, "leds_overlay")["positions"]
    moved = [(b, a) for b, a in zip(before, after) if b != a]
    assert moved and len(after) == len(before)
    assert any(abs(a["x"] - 0.61) < 1e-6 and abs(a["y"] - 0.47) < 1e-6 for _, a in moved), moved[:3]


def test_the_board_photo_can_be_taken_with_the_dice_camera(tmp_path: Path) -> None:
    """A camera over the table sees the board too: a real frame from a folder source becomes the photo."""
    folder = tmp_path / "camera"
    folder.mkdir()
    (folder / "frame.jpg").write_bytes((ROOT / "tests/data/dice/dicetower/background.jpg").read_bytes())
    service = Service(tmp_path / "state", args=["--camera", f"folder:{folder}"]).start()
    try:
        with connect(service.url) as tablet:
            assert ok(tablet, "data_get", {"game": "ravenloft"})["camera"] is True
            taken = ok(tablet, "data_photo_snapshot", {"game": "ravenloft"})
        photo = requests.get(f"{service.url}/api/data/ravenloft/photo", timeout=TIMEOUT)
        assert photo.headers["Content-Type"] == "image/jpeg" and photo.content[:3] == b"\xff\xd8\xff"
        assert len(photo.content) == taken["bytes"] > 10_000
    finally:
        service.stop()


def test_saving_the_same_data_again_leaves_the_games_as_they_are(box: Service) -> None:
    with connect(box.url) as tablet:
        game_id = ok(tablet, "new_game", {"setup": SETUP})["game_id"]
        mine = doc({"locations": {"krezk": {"x": 0.42}}})
        first = ok(tablet, "data_save", {"game": "ravenloft", "data": mine})["games"]
        version = ok(tablet, "join", {"game_id": game_id})["view"]["version"]
        again = ok(tablet, "data_save", {"game": "ravenloft", "data": mine})["games"]
        assert first[0]["why"] == "the next steps use the new data"
        assert again == [{"game_id": game_id, "name": "New game", "applied": True,
                          "why": "it already plays with this data"}]
        assert ok(tablet, "join", {"game_id": game_id})["view"]["version"] == version


#: Carrionette at Vallaki, the Sorcerer at Tser Falls: two shortest paths of two roads each, all four guessed.
ROAD_POSITION = {"phase": "monster", "monsters": {"carrionette": "vallaki"},
                 "heroes": [{"hero": "sorcerer", "player": "Sam", "at": "tser-falls"}], "terror": 2}


def _position_game(box: Service) -> str:
    game_file = {"format": "companion-game", "version": 1, "game": "ravenloft", "name": "Roads",
                 "origin": {"position": ROAD_POSITION}, "journal": []}
    reply = requests.post(f"{box.url}/api/games/import", json=game_file, timeout=TIMEOUT).json()
    assert reply["ok"], reply
    return str(reply["game_id"])


def test_a_guessed_road_said_missing_leaves_the_data_and_the_step_is_worked_out_again(box: Service) -> None:
    with connect(box.url) as tablet:
        other = ok(tablet, "new_game", {"setup": SETUP, "name": "Other"})["game_id"]
        game_id = _position_game(box)
        view = ok(tablet, "join", {"game_id": game_id})["view"]
        ok(tablet, "act", {"game_id": game_id, "version": view["version"], "key": "monster-card",
                           "answer": "flight-of-the-wereravens"})
        view = play_socket_until(tablet, next_event(tablet, "view"), "path")
        assert [o["data"]["path"][1] for o in view["prompt"]["options"]] == ["madam-evas-tent", "old-bonegrinder"]
        # The owner confirms a place meanwhile (a data input after the answer that asked): kept, not undone.
        ok(tablet, "data_save", {"game": "ravenloft", "data": doc(confirmed=["board.locations.krezk"])})
        asked_at = next_event(tablet, "view")["version"]
        assert asked_at == view["version"] + 1

        shown = call(tablet, "data_road_missing", {"game_id": game_id, "version": asked_at,
                                                  "between": ["gates-of-barovia", "tser-falls"]})
        assert shown["error"]["code"] == "illegal" and "confirmed" in shown["error"]["message"]
        stale = call(tablet, "data_road_missing", {"game_id": game_id, "version": asked_at - 1,
                                                  "between": ["vallaki", "madam-evas-tent"]})
        assert stale["error"]["code"] == "stale"
        assert "board" not in ok(tablet, "data_get", {"game": "ravenloft"})["data"]["changes"]  # refused: nothing changed

        reply = ok(tablet, "data_road_missing", {"game_id": game_id, "version": asked_at,
                                                 "between": ["vallaki", "madam-evas-tent"]})
        assert reply["version"] == asked_at + 3  # the last step taken back, the data, the same step again
        assert [g["game_id"] for g in reply["games"] if g["applied"]] == [other]
        again = ok(tablet, "join", {"game_id": game_id})
        assert again["view"]["prompt"]["key"] != "path"  # one shortest path left: nothing to ask
        moved = [e for e in again["view"]["effects"] if e["kind"] == "monster-moved"]
        assert moved[0]["data"]["path"] == ["vallaki", "old-bonegrinder", "tser-falls"]
        assert ["madam-evas-tent", "vallaki"] not in [sorted(c) for c in again["pack"]["board"]["connections"]]
        saved = ok(tablet, "data_get", {"game": "ravenloft"})["data"]
        assert saved["changes"]["board"]["connections"] == {"add": [], "remove": [["vallaki", "madam-evas-tent"]]}
        assert saved["confirmed"] == ["board.locations.krezk"]
        assert again["view"]["state"]["data_id"] == ok(tablet, "join", {"game_id": other})["view"]["state"]["data_id"]

        # An undo of the step worked out again goes back to the same question, now on the owner's board.
        ok(tablet, "undo", {"game_id": game_id, "version": reply["version"], "count": 1})
        back = ok(tablet, "join", {"game_id": game_id})["view"]
        assert back["prompt"]["key"] == "item" and back["state"]["data_id"]
