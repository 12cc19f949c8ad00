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
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the tests' service and flood helpers

from flood import STRANGER, Flood  # noqa: E402
from service_process import SETUP, Service, connect, ok, simple_answer  # noqa: E402

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
    args = parser.parse_args(argv)
    print("$ " + " ".join(shlex.quote(a) for a in [os.path.relpath(sys.executable), *sys.argv]))
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}")
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


if __name__ == "__main__":
    raise SystemExit(main())
