"""A stranger's flood against the real service, and a real tablet joining through it.

The service starts as on the Pi (``python -m companion.server``, its default
caps and timeouts: 24 connections per address, idle and header timeouts of 10 s).
From 127.0.0.2 a flood keeps ``--idle`` idle TCP connections and ``--slow``
slow ones (a request head that never ends, a byte every half second) open,
each opened again as soon as the server closes it. While it runs, a tablet
from 127.0.0.3 loads the page, opens its Socket.IO connection, joins a game and
answers one prompt, ``--joins`` times. Printed: the connections the stranger
holds (as the server counts them), how many it had refused or closed, and the
tablet's join and answer times, with PASS or over-target:

    .venv/bin/python benchmarks/bench_flood.py
    .venv/bin/python benchmarks/bench_flood.py --idle 1100 --slow 200 --joins 20

``--budgets`` floods through the game's own protocol instead (docs/protocol.md,
"Budgets"): one paired client keeps asking what-ifs of a slow position
(``--rate`` a second) and holds idle Socket.IO connections from two addresses
(``--sockets`` tried from each), and four unpaired clients check a large
owner-data document as fast as they are answered, while another paired tablet
plays: its tap-to-view time (from sending an answer to its next view) is
printed, p50 and p90, quiet and under the flood, with what the flood got:

    .venv/bin/python benchmarks/bench_flood.py --budgets
    .venv/bin/python benchmarks/bench_flood.py --budgets --taps 60 --rate 100
"""

from __future__ import annotations

import argparse
import http.client
import os
import platform
import shlex
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the tests' service and flood helpers

from budget_flood import (FLOODER, STRANGER as SECOND_ADDRESS, WhatIfFlood, idle_sockets, import_full_deck,  # noqa: E402
                          large_document, pair_two, start, tap_to_view, worker_threads)
from flood import STRANGER, Flood  # noqa: E402
from service_process import SETUP, TIMEOUT, Service, call, connect, ok, simple_answer  # noqa: E402

TABLET = "127.0.0.3"
JOIN_TARGET_S = 1.0  # page, connection and join of a tablet under the flood
PER_ADDRESS = 24  # the server's default cap per client address


def page(port: int) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(TABLET, 0))
    try:
        connection.request("GET", "/")
        response = connection.getresponse()
        response.read()
        assert response.status == 200, response.status
    finally:
        connection.close()


def tablet_round(service: Service, port: int, game_id: str) -> tuple[float, float]:
    """Seconds to load the page, connect and join; then seconds for one answer's acknowledgement."""
    began = time.perf_counter()
    page(port)
    with connect(service.url, source=TABLET) as tablet:
        view = ok(tablet, "join", {"game_id": game_id})["view"]
        joined = time.perf_counter() - began
        sent = time.perf_counter()
        ok(tablet, "act", {"game_id": game_id, "version": view["version"], "answer": simple_answer(view["prompt"])})
        return joined, time.perf_counter() - sent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=int, default=1100, help="idle connections the flood keeps open (1100)")
    parser.add_argument("--slow", type=int, default=200, help="slow connections the flood keeps open (200)")
    parser.add_argument("--joins", type=int, default=10, help="tablet joins timed under the flood (10)")
    parser.add_argument("--budgets", action="store_true", help="flood through the protocol instead (see above)")
    parser.add_argument("--taps", type=int, default=40, help="--budgets: taps timed, quiet and under the flood (40)")
    parser.add_argument("--rate", type=float, default=50.0, help="--budgets: what-ifs sent a second (50)")
    parser.add_argument("--sockets", type=int, default=24, help="--budgets: idle sockets tried per address (24)")
    args = parser.parse_args(argv)
    print("$ " + " ".join(shlex.quote(a) for a in [os.path.relpath(sys.executable), *sys.argv]))
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}")
    if args.budgets:
        return budget_flood(args.taps, args.rate, args.sockets)
    with tempfile.TemporaryDirectory() as scratch:
        service = Service(Path(scratch) / "state").start()
        port = int(service.url.rsplit(":", 1)[1])
        try:
            with connect(service.url) as owner:
                game_id = ok(owner, "new_game", {"setup": SETUP, "name": "Under a flood"})["game_id"]
            quiet = [tablet_round(service, port, game_id) for _ in range(3)]
            flood = Flood(port, idle=args.idle, slow=args.slow).start()
            try:
                time.sleep(2.0)  # the flood is at its height
                rounds, held = [], []
                for _ in range(args.joins):
                    rounds.append(tablet_round(service, port, game_id))
                    server = service.health()["parts"]["server"]
                    held.append(server["busiest"]["open"] if server["busiest"] else 0)
                    time.sleep(0.5)
            finally:
                report = flood.stop()
            server = service.health()["parts"]["server"]
        finally:
            service.stop()
    joins, acks = [r[0] for r in rounds], [r[1] for r in rounds]
    print(f"\nflood from {STRANGER}: {args.idle} idle + {args.slow} slow connections kept up; "
          f"{report.opened} opened, {report.refused} answered busy at once, {report.closed} closed by the "
          f"idle or header timeout ({server['slow_closed']} for a slow head)")
    print(f"connections the stranger held (server's count, sampled {len(held)} times): max {max(held)}, "
          f"median {statistics.median(held):.0f}   {'PASS' if max(held) <= PER_ADDRESS else 'over-target'} "
          f"(cap {PER_ADDRESS})")
    print(f"tablet from {TABLET}, page + connect + join: quiet median {statistics.median(q[0] for q in quiet):.3f} s; "
          f"under the flood median {statistics.median(joins):.3f} s, max {max(joins):.3f} s   "
          f"{'PASS' if max(joins) < JOIN_TARGET_S else 'over-target'} (target < {JOIN_TARGET_S:g} s)")
    print(f"tablet's answer acknowledged under the flood: median {statistics.median(acks) * 1000:.1f} ms, "
          f"max {max(acks) * 1000:.1f} ms")
    return 0


# -- --budgets: a flood through the protocol ----------------------------------------------------------

BUDGET_CONFIG = "[pairing]\ntrust_loopback = false\n[discovery]\nenabled = false\n"  # the Pi's caps otherwise
CHECKERS = ("127.0.0.5", "127.0.0.6", "127.0.0.7", "127.0.0.8")  # four unpaired tablets


class Taps:
    """The playing tablet: its own game, a new one when it ends; each tap timed to its next view."""

    def __init__(self, tablet: Any) -> None:
        self.tablet = tablet
        self.game_id: str = ""
        self.view: dict[str, Any] = {}
        self._new_game()

    def _new_game(self) -> None:
        self.game_id = ok(self.tablet, "new_game", {"setup": SETUP, "name": "Played through a flood"})["game_id"]
        self.view = ok(self.tablet, "join", {"game_id": self.game_id})["view"]

    def timed(self, count: int) -> list[float]:
        times = []
        for _ in range(count):
            if not self.view.get("prompt"):
                self._new_game()
            seconds, self.view = tap_to_view(self.tablet, self.game_id, self.view)
            times.append(seconds)
        return times


class Checks:
    """Unpaired tablets checking a large document, each as fast as it is answered, until stopped."""

    def __init__(self, url: str) -> None:
        self.clients = [connect(url, source=address) for address in CHECKERS]
        self.answers: Counter[str] = Counter()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._run, args=(c,), daemon=True) for c in self.clients]
        for thread in self._threads:
            thread.start()

    def _run(self, client: Any) -> None:
        document = large_document(400 * 1024)
        while not self._stop.is_set():
            reply = call(client, "data_check", {"game": "ravenloft", "data": document})
            self.answers["ok" if reply["ok"] else reply["error"]["code"]] += 1
            if not reply["ok"] and reply["error"]["code"] == "rate-limited":
                self._stop.wait(min(1.0, float(reply["error"]["retry_after"])))

    def stop(self) -> Counter[str]:
        self._stop.set()
        for thread in self._threads:
            thread.join(TIMEOUT)
        for client in self.clients:
            client.disconnect()
        return self.answers


def percentiles(times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"p50 {statistics.median(ordered) * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms"


def budget_flood(taps: int, rate: float, sockets: int) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        service = start(Path(scratch), BUDGET_CONFIG)
        opened: list[Any] = []
        try:
            flooder, flooder_token, tablet, _ = pair_two(service)
            opened += [flooder, tablet]
            slow_game = import_full_deck(service, flooder_token)
            ok(flooder, "join", {"game_id": slow_game})
            playing = Taps(tablet)
            quiet = playing.timed(taps)
            held = [idle_sockets(service, address, sockets) for address in (FLOODER, SECOND_ADDRESS)]
            opened += [client for taken, _ in held for client in taken]
            flood, checks = WhatIfFlood(flooder, slow_game, rate).start(), Checks(service.url)
            began = time.perf_counter()
            loud = playing.timed(taps)
            health = time.perf_counter()
            service.health()
            health = time.perf_counter() - health
            seconds = time.perf_counter() - began
            what_ifs, checked = flood.stop(), checks.stop()
            parts = service.health()["parts"]
            threads = worker_threads(service)
        finally:
            for client in opened:
                client.disconnect()
            service.stop()
    print(f"\nflood for {seconds:.1f} s: idle sockets from {FLOODER} and {SECOND_ADDRESS}: "
          f"{' + '.join(str(len(t)) for t, _ in held)} taken, {' + '.join(str(r) for _, r in held)} refused; "
          f"what-ifs from {FLOODER} ({rate:g}/s): {dict(what_ifs)}; unpaired checks of a 400 KiB document from "
          f"{len(CHECKERS)} addresses: {dict(checked)}")
    server, events = parts["server"], parts.get("events", {})  # (a service before the budgets has neither figure)
    print(f"server: {server.get('held', '?')} WebSockets held, {server.get('held_refused', '?')} refused; "
          f"events: {events.get('reason', '?')}; worker threads at the end {threads}")
    print(f"tablet {TABLET}, tap to view, quiet: {percentiles(quiet)}")
    print(f"tablet {TABLET}, tap to view, under the flood: {percentiles(loud)}; /api/health answered in "
          f"{health * 1000:.0f} ms")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
