"""One client flooding the box through the game's own protocol, for the budget test and its
benchmark: idle Socket.IO connections from its addresses, what-ifs by the hundred from its
paired tablet, and an unpaired tablet's checks of a large owner-data document - while another
tablet plays. Everything here is a real Socket.IO client of the real service process.

Bounded: the idle sockets are ``idle`` per address at most, the what-ifs ``rate`` a second at
most, and it all stops when the caller stops it.
"""

from __future__ import annotations

import copy
import re
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import requests
import socketio

from forecast_fixtures import AWAY, POSITION
from service_process import TIMEOUT, Service, TableClient, configured, connect, console_code, next_event, ok, simple_answer

FLOODER, TABLET, STRANGER, OTHER_STRANGER, THIRD = "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6"
#: The forecast fixtures' position with the whole Monster deck left: each what-if takes seconds.
FULL_DECK = {k: v for k, v in POSITION.items() if k != "played_cards"}
CONFIG = ("[server]\nthreads = 16\nmax_websockets_per_address = 4\n"
          "[pairing]\ntrust_loopback = false\n[discovery]\nenabled = false\n")


def start(folder: Path, config: str = CONFIG) -> Service:
    return configured(folder, "box", config)


def pair_two(service: Service) -> tuple[TableClient, str, TableClient, str]:
    """The flooder's tablet paired with the box's console code, the playing tablet with a code the
    flooder's shows: (flooder, its token, tablet, its token), each connected from its own address."""
    flooder = connect(service.url, source=FLOODER)
    flooder_token = str(ok(flooder, "pair_code", {"name": "Flooder", "code": console_code(service)})["token"])
    code = str(ok(flooder, "pair_show_code")["code"])
    tablet = connect(service.url, source=TABLET)
    tablet_token = str(ok(tablet, "pair_code", {"name": "Player", "code": code})["token"])
    return flooder, flooder_token, tablet, tablet_token


def import_full_deck(service: Service, token: str) -> str:
    """A Ravenloft game in a Hero Phase with the whole deck left (its what-ifs are slow)."""
    game_file = {"format": "companion-game", "version": 1, "game": "ravenloft", "name": "What-ifs",
                 "origin": {"position": FULL_DECK}, "journal": []}
    reply = requests.post(f"{service.url}/api/games/import", json=game_file, timeout=TIMEOUT,
                          headers={"X-Companion-Token": token}).json()
    assert reply["ok"], reply
    return str(reply["game_id"])


def idle_sockets(service: Service, source: str, count: int) -> tuple[list[TableClient], int]:
    """``count`` Socket.IO connections from ``source`` that then say nothing: those the box
    took, and how many it refused."""
    taken, refused = [], 0
    for _ in range(count):
        try:
            taken.append(connect(service.url, source=source))
        except (socketio.exceptions.ConnectionError, OSError):
            refused += 1
    return taken, refused


class WhatIfFlood:
    """What-ifs sent without waiting for their answers, ``rate`` a second, until stopped;
    ``answers`` counts the answers by their error code ("ok" for a forecast)."""

    def __init__(self, client: TableClient, game_id: str, rate: float, count: int | None = None) -> None:
        self.client, self.game_id, self.rate, self.count = client, game_id, rate, count
        self.sent = 0
        self.answers: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="what-if-flood", daemon=True)

    def start(self) -> "WhatIfFlood":
        self._thread.start()
        return self

    def _answered(self, reply: Any) -> None:
        code = "ok" if isinstance(reply, dict) and reply.get("ok") else str((reply or {}).get("error", {}).get("code"))
        with self._lock:
            self.answers[code] += 1

    def _run(self) -> None:
        data = {"game_id": self.game_id, "version": 0, "action": copy.deepcopy(AWAY)}
        engine = self.client.client
        assert engine is not None
        while not self._stop.is_set() and (self.count is None or self.sent < self.count):
            try:
                engine.emit("forecast_what_if", data, callback=self._answered)
            except socketio.exceptions.SocketIOError:
                return  # its connection closed
            self.sent += 1
            self._stop.wait(1 / self.rate)

    def done(self, timeout: float = TIMEOUT) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def stop(self) -> Counter[str]:
        self._stop.set()
        self._thread.join(TIMEOUT)
        with self._lock:
            return Counter(self.answers)


def large_document(size: int = 200 * 1024) -> dict[str, Any]:
    """An owner-data document of about ``size`` bytes (a long note the check has to read through)."""
    return {"format": "table-companion.owner-data", "version": 1, "game": "ravenloft",
            "changes": {"board": {"locations": {"krezk": {"note": "x" * size}}}}, "confirmed": []}


def worker_threads(service: Service) -> int:
    """The threads of the service's worker process (gunicorn's master has one child: it)."""
    children = Path(f"/proc/{service.pid}/task/{service.pid}/children").read_text().split()
    assert len(children) == 1, children
    status = Path(f"/proc/{children[0]}/status").read_text()
    return int(re.search(r"^Threads:\s+(\d+)", status, re.M).group(1))  # type: ignore[union-attr]


def tap_to_view(tablet: TableClient, game_id: str, view: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    """One answer to the prompt on screen, and the seconds until the next view arrived."""
    began = time.perf_counter()
    ok(tablet, "act", {"game_id": game_id, "version": view["version"], "key": view["prompt"]["key"],
                       "answer": simple_answer(view["prompt"])})
    fresh = next_event(tablet, "view")
    return time.perf_counter() - began, fresh
