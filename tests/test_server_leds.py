"""The LED board in the table service, over the wire (docs/protocol.md, docs/leds.md):
a real ``python -m companion.server`` with the simulated strip and real
Socket.IO clients. Joining a game gives the overlay and moves the LEDs to that
game; every change brings ``leds`` frames; the health shows the LEDs; a backend
that cannot start leaves the service playing; calibration refuses bad input
with clear errors, saves as it goes and puts the finished layout in use."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any, Iterator

import pytest
import requests
import socketio

from hardware.leds import Layout, LedConfig, Timing, shipped_layout, start_leds
from hardware.leds.backends.simulated import SimulatedStrip
from hardware.leds.strip import pixel
from leds_fixtures import LOOKS, SHAPE
from polling import wait_for
from service_process import SETUP, TIMEOUT, Service, call, connect, drain, next_event, ok, simple_answer

COUNT = 127  # the shipped Ravenloft layout on the default strip


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    running = Service(tmp_path_factory.mktemp("leds-service") / "state").start()
    yield running
    running.stop()
    assert "Traceback" not in running.log(), running.log()


@pytest.fixture
def client(service: Service) -> Iterator[socketio.SimpleClient]:
    opened = connect(service.url)
    yield opened
    ok(opened, "leds_calibration_cancel")  # whatever a test left under way: the LEDs go back to the game
    opened.disconnect()


def joined_game(client: socketio.SimpleClient) -> dict[str, Any]:
    game_id = ok(client, "new_game", {"name": "LED night", "setup": SETUP})["game_id"]
    return ok(client, "join", {"game_id": game_id})


def frame_of(event: dict[str, Any]) -> bytes:
    frame = base64.b64decode(event["frame"])
    assert len(frame) == 3 * event["count"]
    return frame


def lit_leds(frame: bytes) -> list[int]:
    return [i for i in range(len(frame) // 3) if pixel(frame, i) != (0, 0, 0)]


def refused(client: socketio.SimpleClient, code: str, event: str, data: Any = None) -> dict[str, Any]:
    reply = call(client, event, data)
    assert reply["ok"] is False and reply["error"]["code"] == code, reply
    assert len(reply["error"]["message"]) > 10, reply
    error: dict[str, Any] = reply["error"]
    return error


def next_frame(client: socketio.SimpleClient, **wanted: Any) -> dict[str, Any]:
    """The next ``leds`` frame whose fields match ``wanted`` (others are skipped)."""
    for _ in range(200):
        event: dict[str, Any] = next_event(client, "leds")
        if all(event.get(key) == value for key, value in wanted.items()):
            return event
    raise AssertionError(f"no leds frame with {wanted}")


# -- following the game -----------------------------------------------------------------------------------


def test_join_gives_the_overlay_and_each_change_brings_leds_frames(client: socketio.SimpleClient) -> None:
    joined = joined_game(client)
    leds, view = joined["leds"], joined["view"]
    assert leds["board"] == "ravenloft" and leds["count"] == COUNT and len(leds["positions"]) == COUNT
    assert {p["role"] for p in leds["positions"]} == {"location", "connection", "terror", "mat", "seat"}
    assert all(p["y"] > 1 for p in leds["positions"] if p["role"] in ("terror", "mat", "seat"))
    assert leds["health"]["state"] == "ok" and leds["health"]["backend"] == "simulated"
    first = next_frame(client, game_id=view["game_id"])  # the game as it stands, on joining
    assert first["calibrating"] is False and lit_leds(frame_of(first))
    drain(client)

    ok(client, "act", {"game_id": view["game_id"], "version": 0, "answer": simple_answer(view["prompt"])})
    pushed = next_event(client, "view")
    after = next_frame(client, game_id=view["game_id"])
    terror = shipped_layout(SHAPE).step("terror", pushed["state"]["terror"])[0]
    assert pixel(frame_of(after), terror) != (0, 0, 0)  # the Terror bar is lit up to the level


def test_the_leds_follow_the_game_joined_last(service: Service, client: socketio.SimpleClient) -> None:
    first, second = joined_game(client), joined_game(client)
    other = connect(service.url)
    try:
        ok(other, "join", {"game_id": first["view"]["game_id"]})
        assert next_frame(other)["game_id"] == first["view"]["game_id"]
        ok(client, "join", {"game_id": second["view"]["game_id"]})
        assert next_frame(other)["game_id"] == second["view"]["game_id"]  # the tablet on the first game ignores it
    finally:
        other.disconnect()


def settled_frame(client: socketio.SimpleClient, game_id: str) -> bytes:
    """The LEDs' picture of ``game_id`` once its animations are over: the last frame of it
    before the pushes stop (a still board sends no more)."""
    last: bytes | None = None
    while True:
        try:
            event = next_event(client, "leds", timeout=1.5)
        except AssertionError:
            assert last is not None, f"no frame of {game_id}"
            return last
        if event.get("game_id") == game_id:
            last = frame_of(event)


def play_until_a_monster_walks(client: socketio.SimpleClient, view: dict[str, Any], inputs: int) -> dict[str, Any]:
    """Answer simply until a change moves a monster (its trail stays lit after the walk)."""
    for _ in range(inputs):
        if any(e["kind"] == "monster-moved" for e in view["effects"]):
            return view
        ok(client, "act", {"game_id": view["game_id"], "version": view["version"], "key": view["prompt"]["key"],
                           "answer": simple_answer(view["prompt"])})
        view = next_event(client, "view")
    raise AssertionError(f"no monster moved within {inputs} inputs")


def test_a_game_opened_after_another_shows_none_of_the_other_games_lights(client: socketio.SimpleClient) -> None:
    """Between games the board starts from dark: what the last game left lit (a trail held
    after its animation, a game-over picture) is gone when another game opens, at once, not
    at that game's next answer."""
    second = joined_game(client)["view"]["game_id"]
    fresh = settled_frame(client, second)  # the second game's board, as it stands before anything else
    first = joined_game(client)["view"]
    played = play_until_a_monster_walks(client, first, 60)  # its trail is held on the LEDs
    left_lit = settled_frame(client, first["game_id"])
    assert left_lit != fresh, "the first game left nothing of its own on the LEDs: the test shows nothing"
    assert played["version"] > 1
    ok(client, "join", {"game_id": second})
    assert settled_frame(client, second) == fresh


def test_health_reports_the_leds(service: Service) -> None:
    health = service.health()
    assert health["ok"] is True
    assert health["leds"]["state"] == "ok" and health["leds"]["backend"] == "simulated"
    assert health["leds"]["reason"] == "" and health["leds"]["frames"] >= 0
    assert "LEDs: simulated (ok)" in service.output


def test_a_backend_that_cannot_start_leaves_the_service_running(tmp_path: Path) -> None:
    if Path("/dev/leds0").exists():
        pytest.skip("this machine has a Pi 5 LED driver: the pi5 backend would start")
    own = Service(tmp_path / "state", args=["--leds", "pi5"]).start()
    try:
        health = own.health()
        assert health["ok"] is True and health["leds"]["state"] == "disabled"
        assert health["leds"]["backend"] == "pi5" and "/dev/leds0 does not exist" in health["leds"]["reason"]
        assert any(line.startswith("LEDs: pi5 (disabled) - /dev/leds0") for line in own.output)
        tablet = connect(own.url)
        try:
            joined = joined_game(tablet)
            assert joined["leds"]["health"]["state"] == "disabled"
            view = joined["view"]
            assert ok(tablet, "act", {"game_id": view["game_id"], "version": 0,
                                      "answer": simple_answer(view["prompt"])})["version"] == 1
            assert next_frame(tablet, game_id=view["game_id"])  # the overlay still shows what the LEDs would
        finally:
            tablet.disconnect()
        assert own.alive()
    finally:
        own.stop()


# -- calibration: refusals ---------------------------------------------------------------------------------

BAD_STEPS = [
    ("leds_calibration_tap", {"x": "left", "y": 0.5}, "bad-request", "'x' must be a number"),
    ("leds_calibration_tap", {"x": True, "y": 0.5}, "bad-request", "'x' must be a number"),
    ("leds_calibration_tap", {"x": 0.5}, "bad-request", "'y' must be a number"),
    ("leds_calibration_tap", {"x": 0.5, "y": -2.0}, "illegal", "not near a location or a connection"),
    ("leds_calibration_answer", {}, "bad-request", "'target' must be an object"),
    ("leds_calibration_answer", {"target": {"kind": "moon"}}, "illegal", "one of location, connection"),
    ("leds_calibration_answer", {"target": {"kind": "terror", "step": 12}}, "illegal", "Terror steps go from 0 to 7"),
    ("leds_calibration_answer", {"target": {"kind": "location", "name": "paris"}}, "illegal", "'paris' is not a location"),
    ("leds_calibration_answer", {"target": {"kind": "connection", "name": "krezk", "to": "tomb"}}, "illegal",
     "no connection 'krezk' - 'tomb'"),
    ("leds_calibration_answer", {"target": {"kind": "mat", "name": "dracula"}}, "illegal", "'dracula' has no mat"),
    ("leds_calibration_answer", {"target": {"kind": "seat", "step": 5}}, "illegal", "seats go from 0 to 4"),
    ("leds_calibration_goto", {"index": "3"}, "bad-request", "'index' must be"),
    ("leds_calibration_goto", {"index": COUNT}, "illegal", f"there is no LED {COUNT}"),
    ("leds_calibration_finish", {}, "illegal", "no LED has a place yet"),
    ("leds_layout_restore", {}, "bad-request", "'layout' is missing"),
]


def test_calibration_steps_before_a_start_are_refused(client: socketio.SimpleClient) -> None:
    for event in ("leds_calibration_skip", "leds_calibration_back", "leds_calibration_finish"):
        assert "no LED calibration is under way" in refused(client, "illegal", event, {})["message"]
    assert ok(client, "leds_calibration_cancel") == {"ok": True}  # nothing under way: fine


def test_calibration_refuses_bad_input_clearly_and_changes_nothing(service: Service,
                                                                  client: socketio.SimpleClient) -> None:
    started = ok(client, "leds_calibration_start")
    assert started["calibration"]["index"] == 0 and started["calibration"]["count"] == COUNT
    assert started["targets"] == {"terror_max": 7, "mats": list(SHAPE.mats), "seats": 5}
    progress = service.state_dir / "calibration" / "leds-ravenloft.progress.json"
    saved = progress.read_text()
    for event, data, code, words in BAD_STEPS:
        error = refused(client, code, event, data)
        assert words in error["message"], (event, data, error)
    assert progress.read_text() == saved
    assert ok(client, "leds_calibration_start")["calibration"] == started["calibration"]


def test_a_refused_layout_lists_every_problem(client: socketio.SimpleClient) -> None:
    broken = shipped_layout(SHAPE).to_plain()
    broken["locations"] = {**broken["locations"], "atlantis": [0], "krezk": [500]}  # type: ignore[dict-item]
    broken["bogus"] = True
    error = refused(client, "illegal", "leds_layout_restore", {"layout": broken})
    problems = error["problems"]
    assert len(problems) >= 3 and all(isinstance(p, str) for p in problems)
    assert any("atlantis" in p for p in problems) and any("500" in p for p in problems)
    assert any("bogus" in p for p in problems)
    too_long = {**shipped_layout(SHAPE).to_plain(), "count": 300}
    assert "this strip has 127" in refused(client, "illegal", "leds_layout_restore", {"layout": too_long})["message"]
    assert ok(client, "leds_layout_export")["layout"] == shipped_layout(SHAPE).to_plain()  # still the one in use


# -- calibration: the whole round ----------------------------------------------------------------------------


def test_calibrating_lights_one_led_saves_as_it_goes_and_puts_the_layout_in_use(
        tmp_path: Path) -> None:
    """Its own service: it changes the layout in use and restarts the service."""
    own = Service(tmp_path / "state").start()
    tablet, watcher = connect(own.url), connect(own.url)
    try:
        game = joined_game(watcher)["view"]["game_id"]
        krezk = SHAPE.locations["krezk"]
        assert ok(tablet, "leds_calibration_start")["calibration"]["index"] == 0
        assert lit_leds(frame_of(next_frame(watcher, calibrating=True))) == [0]  # the game screen sees it too

        tapped = ok(tablet, "leds_calibration_tap", {"x": krezk[0] + 0.01, "y": krezk[1]})
        assert tapped["answered"] == {"index": 0, "target": {"kind": "location", "name": "krezk"}}
        assert tapped["calibration"]["index"] == 1 and tapped["calibration"]["answered"] == 1
        assert ok(tablet, "leds_calibration_skip")["answered"] == {"index": 1, "target": None}
        back = ok(tablet, "leds_calibration_back")["calibration"]
        assert back["index"] == 1 and back["current"] is None  # the skipped one, to answer again
        ok(tablet, "leds_calibration_answer", {"target": {"kind": "terror", "step": 3}})
        assert ok(tablet, "leds_calibration_goto", {"index": 5})["calibration"]["index"] == 5
        ok(tablet, "leds_calibration_answer", {"target": {"kind": "mat", "name": "strahd"}})

        # Stop for now: the LEDs go back to the game; the progress is kept, even over a restart.
        assert ok(tablet, "leds_calibration_cancel") == {"ok": True}
        assert next_frame(watcher, calibrating=False)["game_id"] == game
        tablet.disconnect()
        watcher.disconnect()
        own.stop()
        own.start()
        tablet = connect(own.url)
        resumed = ok(tablet, "leds_calibration_start")["calibration"]
        assert resumed["index"] == 6 and resumed["answered"] == 3 and resumed["skipped"] == 0

        layout = ok(tablet, "leds_calibration_finish")["layout"]
        assert layout["locations"] == {"krezk": [0]} and layout["terror"][3] == [1]
        assert layout["mats"] == {"strahd": [5]} and layout["count"] == COUNT
        assert not (own.state_dir / "calibration" / "leds-ravenloft.progress.json").exists()

        # In use at once: the overlay, the export and the download; and after a restart.
        assert len(joined_game(tablet)["leds"]["positions"]) == 3
        assert ok(tablet, "leds_layout_export")["layout"] == layout
        download = requests.get(f"{own.url}/api/leds/layout", timeout=TIMEOUT)
        assert download.json() == layout and "leds-ravenloft.json" in download.headers["Content-Disposition"]
        tablet.disconnect()
        own.stop()
        own.start()
        tablet = connect(own.url)
        assert len(joined_game(tablet)["leds"]["positions"]) == 3

        # A backup back in use: every tablet showing the LEDs gets the new overlay.
        restored = ok(tablet, "leds_layout_restore", {"layout": shipped_layout(SHAPE).to_plain()})
        assert restored["layout"] == shipped_layout(SHAPE).to_plain()
        assert len(next_event(tablet, "leds_overlay")["positions"]) == COUNT
        assert len(joined_game(tablet)["leds"]["positions"]) == COUNT
    finally:
        tablet.disconnect()
        watcher.disconnect()
        own.stop()
    assert "Traceback" not in own.log(), own.log()


def test_a_tablet_that_drops_while_calibrating_gives_the_leds_back(service: Service,
                                                                   client: socketio.SimpleClient) -> None:
    game = joined_game(client)["view"]["game_id"]
    calibrating = connect(service.url)
    ok(calibrating, "leds_calibration_start")
    assert next_frame(client, calibrating=True)
    calibrating.disconnect()
    assert next_frame(client, calibrating=False)["game_id"] == game


# -- the board, in process ------------------------------------------------------------------------------------


def test_a_new_layout_takes_over_without_reopening_the_strip() -> None:
    board = start_leds(LedConfig(fps=60), SHAPE, looks=LOOKS, timing=Timing().scaled(0.1))
    strip = board.strip
    assert isinstance(strip, SimulatedStrip)
    board.sync({"game": "ravenloft", "effects": [], "state": {"terror": 3}})
    assert wait_for(lambda: not board.animator.running)
    small = Layout("ravenloft", COUNT, tracks={"terror": ((100,), (101,), (102,), (103,))})
    board.use_layout(small)
    board.sync({"game": "ravenloft", "effects": [], "state": {"terror": 3}})
    assert wait_for(lambda: not board.animator.running and lit_leds(strip.last() or b"") == [101, 102, 103])
    assert board.strip is strip and not strip.closed and board.overlay()["count"] == COUNT
    with pytest.raises(ValueError, match="uses 300 LEDs"):
        board.use_layout(Layout("ravenloft", 300))
    board.close()


# -- another game's board under the LEDs --------------------------------------------------------------------

def test_the_leds_lie_under_the_board_the_settings_name(tmp_path: Path) -> None:
    """``[leds] board``: a grid board under the LEDs (Siege of Barovia's), calibrated like the others;
    a game of another board joined on a tablet does not take the LEDs. A board the box does not have
    is refused by name, and the LEDs stay under the first game's board."""
    config = tmp_path / "companion.toml"
    config.write_text('[leds]\nbackend = "simulated"\ncount = 1024\nboard = "siege-of-barovia"\n', encoding="utf-8")
    own = Service(tmp_path / "state", args=["--config", str(config)]).start()
    try:
        tablet = connect(own.url)
        try:
            siege = ok(tablet, "new_game", {"game": "siege-of-barovia", "name": "Siege",
                                            "setup": {"players": [{"name": "Ana"}], "dm": "box"}})["game_id"]
            joined = ok(tablet, "join", {"game_id": siege})
            assert joined["leds"]["board"] == "siege-of-barovia" and joined["leds"]["count"] == 1024
            started = ok(tablet, "leds_calibration_start")
            assert started["calibration"]["index"] == 0
            assert "terror_max" not in started["targets"]  # a grid board has no Terror track
            ok(tablet, "leds_calibration_cancel")
            other = ok(tablet, "new_game", {"name": "Ravenloft night", "setup": SETUP})["game_id"]
            assert ok(tablet, "join", {"game_id": other}).get("leds") is None  # not the board under the LEDs
        finally:
            tablet.disconnect()
    finally:
        own.stop()
    config.write_text('[leds]\nbackend = "simulated"\ncount = 64\nboard = "chess"\n', encoding="utf-8")
    wrong = Service(tmp_path / "state2", args=["--config", str(config)]).start()
    try:
        leds = wrong.health()["leds"]
        assert "board = 'chess' is not a game of this box" in str(leds), leds
        assert leds["state"] == "disabled" and "leds.count is 64" in leds["reason"]  # the first game's board
        tablet = connect(wrong.url)
        try:  # a board too big for its strip is off, and a game joined on it plays on
            assert joined_game(tablet)["leds"]["health"]["state"] == "disabled"
        finally:
            tablet.disconnect()
    finally:
        wrong.stop()


@pytest.mark.parametrize("count, refused", [(None, True), (1024, False)])
def test_owner_data_whose_led_layout_is_larger_than_the_strip_is_refused_before_it_is_written(
        tmp_path: Path, count: int | None, refused: bool) -> None:
    """``[leds] board = "straszydla"`` on the default strip (its layout needs more LEDs than that):
    a save of Straszydła's data is refused with the LED setting to fix - not a fault, no traceback,
    and no file written (by Socket.IO or the HTTP import); a strip long enough takes the same save."""
    config = tmp_path / "companion.toml"
    config.write_text('[leds]\nboard = "straszydla"\n' + (f"count = {count}\n" if count else "")
                      + "[discovery]\nenabled = false\n", encoding="utf-8")
    box = Service(tmp_path / "state", args=["--config", str(config)]).start()
    owner_file = tmp_path / "state" / "owner" / "straszydla.json"
    try:
        with connect(box.url) as tablet:
            document = ok(tablet, "data_get", {"game": "straszydla"})["data"]
            reply = call(tablet, "data_save", {"game": "straszydla", "data": document})
            imported = requests.post(f"{box.url}/api/data/straszydla", json=document, timeout=TIMEOUT)
            if refused:
                assert reply["ok"] is False and reply["error"]["code"] == "illegal", reply
                assert "leds.count is 127" in reply["error"]["message"] and reply["error"]["problems"], reply
                assert imported.status_code == 400 and "leds.count" in imported.json()["error"]["message"]
                assert not owner_file.exists() and ok(tablet, "data_get", {"game": "straszydla"})["data"] == document
            else:
                assert reply["ok"] is True and imported.status_code == 200 and owner_file.exists(), reply
    finally:
        box.stop()
    assert "Traceback" not in box.log() and " internal" not in box.log(), box.log()
