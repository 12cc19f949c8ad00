"""A stranger floods the box while a tablet plays: the real service process
(gunicorn, its guarded worker), a real flood of TCP connections from one
address (127.0.0.2) and a real tablet from another (127.0.0.3): its page, its
Socket.IO connection, pairing, a new game, joining and playing.

What must hold: the tablet is served throughout (the time it took is printed),
the stranger never holds more than its cap, idle and slow connections are
closed by the server after their timeouts, and a connection over the cap is
answered "busy" at once instead of waiting for a thread.
"""

from __future__ import annotations

import http.client
import time
from pathlib import Path

from flood import STRANGER, Flood
from polling import wait_for
from service_process import SETUP, configured, connect, console_code, next_event, ok, simple_answer

TABLET = "127.0.0.3"
PER_ADDRESS = 24
IDLE_SECONDS = HEADER_SECONDS = 2
CONFIG = (f"[server]\nidle_seconds = {IDLE_SECONDS}\nheader_seconds = {HEADER_SECONDS}\n"
          f"max_connections_per_address = {PER_ADDRESS}\n"
          "[pairing]\ntrust_loopback = false\n[discovery]\nenabled = false\n")


def page_from(port: int, source: str) -> int:
    """The tablet app's page, loaded from ``source``: the HTTP status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        connection.request("GET", "/")
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_a_flood_from_one_address_does_not_keep_a_tablet_from_playing(tmp_path: Path) -> None:
    service = configured(tmp_path, "box", CONFIG)
    port = int(service.url.rsplit(":", 1)[1])
    flood = Flood(port, idle=300, slow=100).start()
    try:
        assert wait_for(lambda: flood.report.refused >= 100, timeout=10), flood.report
        began = time.monotonic()
        assert page_from(port, TABLET) == 200
        with connect(service.url, source=TABLET) as tablet:
            token = ok(tablet, "pair_code", {"name": "Tablet", "code": console_code(service)})["token"]
            assert token
            game_id = ok(tablet, "new_game", {"setup": SETUP, "name": "Under a flood"})["game_id"]
            view = ok(tablet, "join", {"game_id": game_id})["view"]
            joined = time.monotonic() - began
            for _ in range(10):
                ok(tablet, "act", {"game_id": game_id, "version": view["version"],
                                   "answer": simple_answer(view["prompt"])})
                view = next_event(tablet, "view")
            played = time.monotonic() - began
        assert view["version"] == 10
        server = service.health()["parts"]["server"]
        time.sleep(HEADER_SECONDS + 1.5)  # let slow connections reach their deadline while the flood goes on
        later = service.health()["parts"]["server"]
    finally:
        report = flood.stop()
        service.stop()
    print(f"\nflood from {STRANGER}: {report.opened} connections opened, {report.refused} answered busy, "
          f"{report.closed} closed for idling or slowness; the tablet loaded, paired, joined in {joined:.2f} s "
          f"and played 10 inputs by {played:.2f} s")
    assert server["busiest"]["address"] == STRANGER and server["busiest"]["open"] <= PER_ADDRESS, server
    assert later["slow_closed"] > server["slow_closed"] >= 0 and later["refused"] >= report.refused // 2
    assert report.closed > 0 and max(report.lifetimes) < max(IDLE_SECONDS, HEADER_SECONDS) + 3, report.lifetimes
