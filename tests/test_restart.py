"""A pulled plug in the middle of a Monster Phase: the service is killed with
SIGKILL (nothing is closed or flushed on the way out), started again on the
same state dir, and a tablet that joins finds the same question waiting, the
same version and state, and the game carries on from there."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from companion.engine.game import SNAPSHOT_EVERY
from service_process import SETUP, Service, connect, next_event, ok, play_socket_until, simple_answer


def join(service: Service, game_id: str) -> dict[str, Any]:
    tablet = connect(service.url)
    try:
        return ok(tablet, "join", {"game_id": game_id})["view"]
    finally:
        tablet.disconnect()


def test_a_killed_service_comes_back_with_the_same_prompt_waiting(tmp_path: Path) -> None:
    service = Service(tmp_path / "state").start()
    try:
        tablet = connect(service.url)
        game_id = ok(tablet, "new_game", {"name": "Pulled plug", "setup": SETUP})["game_id"]
        view = ok(tablet, "join", {"game_id": game_id})["view"]
        view = play_socket_until(tablet, view, "monster-card")  # through setup and the Hero Phase

        # The card that draws three items: the phase stops at the first draw.
        ok(tablet, "act", {"game_id": game_id, "version": view["version"], "key": "monster-card",
                           "answer": "a-stranger-with-a-wagon"})
        before = next_event(tablet, "view")
        assert before["prompt"]["key"] == "item" and before["state"]["phase"] == "monster"
        assert before["history"][0]["label"] == "Monster card: A Stranger with a Wagon"
        tablet.disconnect()
        exported = service.export(game_id)
        service.kill()
    finally:
        service.stop()

    again = Service(tmp_path / "state").start()
    try:
        after = join(again, game_id)
        for key in ("key", "text", "options", "kind", "player"):
            assert after["prompt"][key] == before["prompt"][key], key
        assert after["version"] == before["version"] and after["state"] == before["state"]
        assert after == before  # history, effects, undo and redo too
        assert again.export(game_id) == exported

        # ... and the game goes on: finish the Monster Phase, into the next Hero Phase.
        tablet = connect(again.url)
        view = ok(tablet, "join", {"game_id": game_id})["view"]
        ok(tablet, "act", {"game_id": game_id, "version": view["version"], "key": "item",
                           "answer": simple_answer(view["prompt"])})
        view = next_event(tablet, "view")
        assert view["version"] == before["version"] + 1
        view = play_socket_until(tablet, view, "hero-action")
        assert view["state"]["phase"] == "hero" and view["state"]["turn"] == before["state"]["turn"] + 1
        tablet.disconnect()
    finally:
        again.stop()


def test_an_acknowledged_input_survives_a_kill_straight_after(tmp_path: Path) -> None:
    """The acknowledgement comes after the commit: kill at once, nothing is lost."""
    service = Service(tmp_path / "state").start()
    try:
        tablet = connect(service.url)
        game_id = ok(tablet, "new_game", {"setup": SETUP})["game_id"]
        view = ok(tablet, "join", {"game_id": game_id})["view"]
        for _ in range(5):
            reply = ok(tablet, "act", {"game_id": game_id, "version": view["version"],
                                       "answer": simple_answer(view["prompt"])})
            view = next_event(tablet, "view")
        assert reply["version"] == 5
        service.kill()  # no disconnect, no close: straight after the last acknowledgement
        tablet.disconnect()
    finally:
        service.stop()

    again = Service(tmp_path / "state").start()
    try:
        assert join(again, game_id) == view
    finally:
        again.stop()


def test_a_long_game_reopens_from_its_snapshots_after_a_kill(tmp_path: Path) -> None:
    """Tens of inputs in, the plug is pulled: the snapshots written with the inputs survive it, the
    box reopens the game from them (its log says no whole replay) and the tablet finds the same game."""
    service = Service(tmp_path / "state").start()
    try:
        tablet = connect(service.url)
        game_id = ok(tablet, "new_game", {"name": "Long night", "setup": SETUP})["game_id"]
        view = ok(tablet, "join", {"game_id": game_id})["view"]
        while view["version"] < 40 and view["prompt"] is not None:
            ok(tablet, "act", {"game_id": game_id, "version": view["version"], "key": view["prompt"]["key"],
                               "answer": simple_answer(view["prompt"])})
            view = next_event(tablet, "view")
        assert view["version"] >= 2 * SNAPSHOT_EVERY, "the game lasted long enough for snapshots"
        service.kill()  # straight after the last acknowledgement
        tablet.disconnect()
    finally:
        service.stop()
    db = sqlite3.connect(tmp_path / "state" / "companion.sqlite")
    try:
        kept = db.execute("SELECT MAX(n) FROM reopen_cache WHERE game_id = ? AND kind = 'snapshot'",
                          (game_id,)).fetchone()[0]
    finally:
        db.close()
    assert kept is not None and kept > SNAPSHOT_EVERY, "snapshots were saved with the inputs"

    again = Service(tmp_path / "state").start()
    try:
        assert join(again, game_id) == view
        assert f"game {game_id} opens by replaying its whole journal" not in again.log()
        tablet = connect(again.url)
        view = ok(tablet, "join", {"game_id": game_id})["view"]
        if view["prompt"] is not None:  # and it plays on
            ok(tablet, "act", {"game_id": game_id, "version": view["version"], "key": view["prompt"]["key"],
                               "answer": simple_answer(view["prompt"])})
            assert next_event(tablet, "view")["version"] == view["version"] + 1
        tablet.disconnect()
    finally:
        again.stop()
