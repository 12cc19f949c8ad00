"""The animation thread and the board's edge with the game: one thread, only
while something moves, stopped on close; LED failures reported while the game
goes on; the tablet feed; the calibration override."""

from __future__ import annotations

import base64
import threading
import time

import pytest

from hardware.leds import LedBoard, LedConfig, LedError, Timing, attach, start_leds
from hardware.leds.backends.simulated import SimulatedStrip
from hardware.leds.strip import DisabledStrip, StripBase, pixel
from leds_fixtures import LAYOUT, LOOKS, SAM, SHAPE, TableMaker, table_at  # noqa: F401 - table_at is a fixture
from polling import wait_for

FAST = Timing().scaled(0.1)
WON = {"game": "ravenloft", "effects": [{"kind": "game-won", "data": {}}], "state": {"terror": 2}}


def animator_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "leds-animator"]


def simulated_board(fps: float = 60, timing: Timing = FAST) -> tuple[LedBoard, SimulatedStrip]:
    board = start_leds(LedConfig(backend="simulated", fps=fps), SHAPE, looks=LOOKS, timing=timing)
    assert isinstance(board.strip, SimulatedStrip)
    return board, board.strip


def test_the_thread_runs_while_something_moves_then_stops() -> None:
    board, strip = simulated_board()
    board.on_change(None, WON)
    assert board.animator.running and len(animator_threads()) == 1
    assert wait_for(lambda: not board.animator.running)
    assert not animator_threads()
    shown = strip.shown
    time.sleep(0.15)
    assert strip.shown == shown  # idle: no frames, no work
    assert strip.last() == board.output.apply(board.renderer.frame(time.monotonic())).frame  # the final still frame
    board.close()


def test_a_still_change_shows_one_frame_and_stops() -> None:
    board, strip = simulated_board()
    board.on_change(None, {"game": "ravenloft", "effects": [], "state": {"terror": 3}})
    assert wait_for(lambda: not board.animator.running)
    assert strip.shown == 1 and pixel(strip.last() or b"", LAYOUT.step("terror", 3)[0]) != (0, 0, 0)
    board.close()


def test_the_frame_rate_is_steady() -> None:
    board, strip = simulated_board(fps=40, timing=Timing(finale=0.5))
    board.on_change(None, WON)
    assert wait_for(lambda: not board.animator.running)
    times = [f.at for f in strip.frames()]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert 12 <= len(times) <= 23, len(times)
    assert sorted(gaps)[len(gaps) // 2] == pytest.approx(1 / 40, abs=0.006)
    board.close()


def test_close_stops_the_thread_mid_animation_and_twice_is_safe() -> None:
    board, strip = simulated_board(timing=Timing())
    board.on_change(None, WON)
    assert board.animator.running
    started = time.monotonic()
    board.close()
    board.close()
    assert time.monotonic() - started < 1.0 and not animator_threads() and strip.closed
    board.on_change(None, WON)  # after close: ignored, no thread, no error
    assert not board.animator.running and not animator_threads()


class BreaksAfter(StripBase):
    """A strip whose device dies after a few frames (a pulled connector, a vanished /dev/leds0)."""

    name = "flaky"

    def __init__(self, count: int, frames: int) -> None:
        super().__init__(count)
        self.left = frames

    def _show(self, frame: bytes) -> None:
        self.left -= 1
        if self.left < 0:
            raise LedError("write /dev/leds0: No such device")


def test_a_strip_failing_mid_game_is_reported_and_the_game_goes_on(table_at: TableMaker) -> None:
    table = table_at({"monsters": {"carrionette": "vallaki"}, "heroes": [{**SAM, "at": "krezk"}]})
    config = LedConfig(backend="simulated", fps=60)
    board = start_leds(config, SHAPE, looks=LOOKS, timing=FAST,
                       backends={"simulated": lambda c: BreaksAfter(c.count, 1)})
    attach(table, board)
    assert wait_for(lambda: not board.animator.running)  # the first frame (the game as it stands) went out
    view = table.act({"key": "monster-card", "answer": "potion-2-2"}, table.version)
    assert wait_for(lambda: board.health.state == "failed")
    assert "No such device" in board.health.reason and not board.status.working
    while (prompt := table.view()["prompt"]) is not None and prompt["key"] != "hero-action":  # type: ignore[index]
        assert isinstance(prompt, dict)
        options = prompt.get("options") or []
        answer = options[0]["id"] if options else ["blank"] * int(prompt.get("count") or 1)
        table.act({"key": prompt["key"], "answer": answer}, table.version)
    assert table.version > view["version"] and table.game.state.phase == "hero"  # type: ignore[operator, attr-defined]
    assert wait_for(lambda: not board.animator.running)
    assert board.health.frames == 1 and "No such device" in board.health.reason  # reported once, then left alone
    board.close()


def test_a_backend_that_cannot_start_leaves_a_disabled_board_and_the_game_goes_on(table_at: TableMaker) -> None:
    table = table_at({"monsters": {"carrionette": "vallaki"}, "heroes": [{**SAM, "at": "krezk"}]})

    def missing(config: LedConfig) -> SimulatedStrip:
        raise LedError("/dev/leds0 does not exist")

    board = attach(table, start_leds(LedConfig(), SHAPE, looks=LOOKS, timing=FAST, backends={"simulated": missing}))
    assert isinstance(board.strip, DisabledStrip)
    assert board.health.state == "disabled" and "/dev/leds0" in board.health.reason
    virtual: list[dict[str, object]] = []
    board.watch(virtual.append)
    table.act({"key": "monster-card", "answer": "potion-2-2"}, table.version)
    assert wait_for(lambda: not board.animator.running)
    assert virtual and board.health.state == "disabled" and board.health.frames == 0  # the tablet still sees them
    board.close()
    board.close()


def test_a_layout_bigger_than_the_strip_is_reported() -> None:
    board = start_leds(LedConfig(count=50), SHAPE, looks=LOOKS)
    assert board.health.state == "disabled" and "uses 127 LEDs but leds.count is 50" in board.health.reason


def test_a_longer_strip_than_the_layout_is_fine() -> None:
    board, strip = simulated_board()
    bigger = start_leds(LedConfig(count=150), SHAPE, looks=LOOKS, timing=FAST)
    bigger.on_change(None, WON)
    assert wait_for(lambda: not bigger.animator.running) and bigger.health.state == "ok"
    board.close()
    bigger.close()


def test_a_change_the_board_cannot_follow_never_reaches_the_table() -> None:
    board, _ = simulated_board()
    board.on_change(None, {"game": "ravenloft", "effects": "garbage", "state": None})
    board.on_change(None, {"game": "ravenloft", "effects": [{"kind": "turn", "data": {"hero": "x"}}],
                           "state": {"seats": 7}})
    board.renderer.change = None  # type: ignore[assignment, method-assign]  # a bug inside the renderer
    board.on_change(None, WON)
    assert "could not show a change" in board.health.note and board.health.state == "ok"
    board.close()


def test_another_game_is_not_drawn_with_this_layout() -> None:
    board, strip = simulated_board()
    board.on_change(None, {"game": "straszydla", "effects": [{"kind": "game-won"}], "state": {}})
    assert not board.animator.running and strip.shown == 0
    board.close()


def test_the_tablet_feed_is_throttled_but_ends_on_the_final_frame() -> None:
    board, strip = simulated_board(fps=60, timing=Timing(finale=0.6))
    sent: list[dict[str, object]] = []
    board.watch(sent.append, max_fps=10)
    board.on_change(None, WON)
    assert wait_for(lambda: not board.animator.running)
    assert 2 <= len(sent) <= 9 < strip.shown
    last = base64.b64decode(str(sent[-1]["frame"]))
    assert last == board.renderer.frame(time.monotonic()) and sent[-1]["count"] == LAYOUT.count
    board.close()


def test_calibration_lights_one_led_alone_then_the_game_comes_back() -> None:
    board, strip = simulated_board()
    board.on_change(None, {"game": "ravenloft", "effects": [], "state": {"terror": 3}})
    board.light_only(42)
    assert wait_for(lambda: not board.animator.running and strip.last() is not None
                    and [i for i in range(LAYOUT.count) if pixel(strip.last() or b"", i) != (0, 0, 0)] == [42])
    board.resume()
    assert wait_for(lambda: not board.animator.running
                    and pixel(strip.last() or b"", LAYOUT.step("terror", 3)[0]) != (0, 0, 0))
    board.close()


def test_brightness_can_change_while_playing() -> None:
    board, strip = simulated_board()
    board.on_change(None, {"game": "ravenloft", "effects": [], "state": {"terror": 3}})
    assert wait_for(lambda: not board.animator.running)
    before = pixel(strip.last() or b"", LAYOUT.step("terror", 1)[0])
    board.set_brightness(0.1)
    assert wait_for(lambda: not board.animator.running and pixel(strip.last() or b"", LAYOUT.step("terror", 1)[0]) != before)
    assert pixel(strip.last() or b"", LAYOUT.step("terror", 1)[0])[0] < before[0] / 3
    board.close()


def test_one_board_follows_the_game_at_the_table(table_at: TableMaker) -> None:
    first = table_at({"monsters": {"carrionette": "vallaki"}, "heroes": [{**SAM, "at": "krezk"}], "terror": 1})
    second = table_at({"monsters": {"carrionette": "vallaki"}, "heroes": [{**SAM, "at": "krezk"}], "terror": 4})
    board, strip = simulated_board()
    attach(first, board)
    attach(second, board)
    attach(second, board)  # again: still one subscription
    assert wait_for(lambda: not board.animator.running)
    shown = strip.shown
    first.act({"key": "monster-card", "answer": "potion-2-2"}, first.version)
    time.sleep(0.05)
    assert strip.shown == shown and board.following == second.game_id  # the other game changed: no frames
    frame = strip.last() or b""
    assert [pixel(frame, LAYOUT.step("terror", s)[0]) != (0, 0, 0) for s in range(1, 6)] == [True] * 4 + [False]
    board.close()


def test_the_pace_setting_slows_every_animation() -> None:
    steady = start_leds(LedConfig(pace=2.0), SHAPE, looks=LOOKS)
    assert steady.renderer.stage.timing == Timing().scaled(2.0) and steady.renderer.stage.timing.step == 1.0
    steady.close()
