"""The threat glow under the board (docs/leds.md, "The threat glow"): during a Hero Phase a
forecast's ``glow`` lights each threatened location dimly in vermillion, brighter the likelier,
under the monsters' markers; the next change of the game (the Monster Phase starting) clears it;
a glow worked out for a version or a game the board no longer shows is not drawn. On the
simulated strip, frames read as the tablet's virtual LEDs read them."""

from __future__ import annotations

import time
from pathlib import Path

from companion.games.ravenloft.gamepack import RavenloftPack
from companion.store import Store
from companion.table import Table
from hardware.leds import LedBoard, LedConfig, Timing, attach, start_leds
from hardware.leds.palette import VERMILLION
from hardware.leds.strip import pixel
from leds_fixtures import LAYOUT, LOOKS, RULES, SAM, SHAPE, looks_like
from polling import wait_for

LEFT = ("ambush", "mists-roll-in")
HERO_PHASE = {"phase": "hero", "monsters": {"carrionette": "vallaki"}, "heroes": [{**SAM, "at": "krezk"}],
              "villagers": {"bildrath": "svalich-woods"},
              "played_cards": [c.id for c in RULES.pack.cards if c.id not in LEFT]}


def board_for() -> LedBoard:
    return start_leds(LedConfig(backend="simulated", fps=60), SHAPE, looks=LOOKS, timing=Timing().scaled(0.1))


def still(board: LedBoard) -> bytes:
    assert wait_for(lambda: not board.animator.running)
    return board.renderer.frame(time.monotonic())


def at(frame: bytes, place: str) -> tuple[int, int, int]:
    return pixel(frame, LAYOUT.location(place)[0])


def showing(board: LedBoard, game_id: str, version: int) -> None:
    """The board follows ``game_id``, drawn as it stands at ``version``."""
    board.following = game_id
    board.on_change(None, {"game_id": game_id, "game": "ravenloft", "version": version, "effects": [], "state": {}})


def test_a_forecast_glows_under_its_places_until_the_next_change(tmp_path: Path) -> None:
    store = Store(tmp_path / "game.sqlite")
    table = Table(store, RavenloftPack(RULES), store.create_game("ravenloft", "Threat", {"position": HERO_PHASE}))
    board = attach(table, board_for())
    try:
        before = still(board)
        forecaster = table.kind.forecaster()
        assert forecaster is not None
        version, game = table.copy()
        found = forecaster.forecast(game)
        assert found is not None and isinstance(found["glow"], dict)
        glow = {str(k): float(v) for k, v in found["glow"].items()}
        board.threaten(table.game_id, version, glow)
        shown = still(board)
        lit = [p for p in glow if p != "vallaki"]  # the Carrionette's marker stands at vallaki, over its glow
        assert lit, glow
        for place in lit:
            assert looks_like(at(shown, place), VERMILLION), (place, at(shown, place))
            assert max(at(shown, place)) <= 0.25 * 255  # dim: a glow, never a marker
        calm = [p for p in LAYOUT.locations if p not in glow]
        assert all(at(shown, p) == at(before, p) for p in calm)  # nothing else moved
        assert at(shown, "vallaki") == at(before, "vallaki")  # the marker is drawn over the glow

        table.act({"key": "hero-action", "answer": {"action": "end"}}, table.version)  # the Monster Phase starts
        cleared = still(board)
        assert all(not looks_like(at(cleared, p), VERMILLION) for p in lit)
    finally:
        board.close()
        store.close()


def test_a_likelier_threat_glows_brighter() -> None:
    board = board_for()
    try:
        showing(board, "a-game", 4)
        board.threaten("a-game", 4, {"krezk": 1.0, "vallaki": 0.3})
        frame = still(board)
        assert max(at(frame, "krezk")) > max(at(frame, "vallaki")) > max(at(still_dark(), "vallaki"))
    finally:
        board.close()


def still_dark() -> bytes:
    board = board_for()
    try:
        board.on_change(None, {"game": "ravenloft", "effects": [], "state": {}})
        return still(board)
    finally:
        board.close()


def test_a_glow_for_a_moment_the_board_has_left_is_not_drawn() -> None:
    board = board_for()
    try:
        showing(board, "a-game", 5)
        before = still(board)
        board.threaten("a-game", 4, {"krezk": 1.0})  # worked out for the version before
        board.threaten("another-game", 5, {"krezk": 1.0})  # for a game the LEDs do not show
        assert still(board) == before
        board.threaten("a-game", 5, {"krezk": 1.0})
        assert looks_like(at(still(board), "krezk"), VERMILLION)  # the same glow, for the version shown
    finally:
        board.close()
