"""How fast the table service is on this machine, against the table's targets.

Tablets around the table must see a change at once: from one tablet's send to
every other tablet's screen, p99 under 30 ms on loopback. The service must be
ready soon after the Pi boots (spawn to /api/health answering, median under
1.5 s), and stay small beside the camera code (RSS under 120 MB). This starts
the real service (``python -m companion.server``) on a temporary state dir,
drives it with real Socket.IO clients, and prints each figure with PASS or
over-target, after the command that printed them:

    .venv/bin/python benchmarks/bench_service.py
    .venv/bin/python benchmarks/bench_service.py --actions 500 --clients 8 --starts 7
"""

from __future__ import annotations

import argparse
import os
import platform
import queue
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any, Callable

import requests
import socketio

ROOT = Path(__file__).resolve().parents[1]
SETUP = {"monsters": ["baba-lysaga"], "heroes": [{"hero": "sorcerer", "player": "Sam"}]}
PUSH_TARGET_MS = 30.0
READY_TARGET_S = 1.5
RSS_TARGET_MB = 120.0
TIMEOUT = 10.0
#: (name, what is sent, answers played first): setup is 13 answers; simple answers
#: lose the game after about 150 (then "act" undoes one untimed step and plays on).
RUNS = (("undo/redo, 15 inputs in", "undo_or_redo", 15), ("act (answers)", "act", 15),
        ("undo/redo, 120 inputs in", "undo_or_redo", 120))


# -- the service as a process ------------------------------------------------------------------------

class Service:
    """The service started as on the Pi; stdout read for its address and READY."""

    def __init__(self, state_dir: Path) -> None:
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.log = open(state_dir.parent / f"{state_dir.name}.log", "a")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.server", "--host", "127.0.0.1", "--port", "0",
             "--state-dir", str(state_dir)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=self.log, text=True)
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()
        self.url = self._address()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line.strip())
        self.lines.put(None)

    def _address(self) -> str:
        while True:
            line = self.lines.get(timeout=TIMEOUT)
            if line is None:
                raise SystemExit(f"the service stopped before printing its address; see {self.log.name}")
            found = re.match(r"Open (http://\S+?)/? on (a tablet|this machine)", line)
            if found:
                return found.group(1)

    def rss_mb(self) -> tuple[float, float]:
        """The worker's RSS (it holds the whole service) and the gunicorn master's."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        return _rss_mb(int(children[0])), _rss_mb(self.process.pid)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=TIMEOUT)
        if self.process.stdout is not None:
            self.process.stdout.close()
        self.log.close()


# -- measuring -----------------------------------------------------------------------------------------

def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def verdict(value: float, target: float, unit: str) -> str:
    return "PASS" if value < target else f"over-target (target < {target:g} {unit})"


class Receivers:
    """Tablets joined to a game; each records when each version's ``view`` arrived."""

    def __init__(self, url: str, game_id: str, count: int) -> None:
        self.arrivals: dict[int, list[float]] = {}
        self.views: dict[int, dict[str, Any]] = {}
        self.count = count
        self._changed = threading.Condition()
        self.clients = [self._join(url, game_id) for _ in range(count)]

    def _join(self, url: str, game_id: str) -> socketio.Client:
        client = new_client()
        client.on("view", self._arrived)
        client.connect(url, transports=["websocket"], wait_timeout=TIMEOUT)
        reply = client.call("join", {"game_id": game_id}, timeout=TIMEOUT)
        assert reply["ok"], reply
        return client

    def _arrived(self, view: dict[str, Any]) -> None:
        now = time.perf_counter()
        with self._changed:
            self.arrivals.setdefault(int(view["version"]), []).append(now)
            self.views[int(view["version"])] = view
            self._changed.notify_all()

    def wait_for(self, version: int) -> tuple[list[float], dict[str, Any]]:
        """When each tablet got ``version``, and the view itself."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.arrivals.get(version, [])) >= self.count, TIMEOUT):
                raise SystemExit(f"only {len(self.arrivals.get(version, []))} of {self.count} tablets got "
                                 f"version {version} within {TIMEOUT} s")
            return self.arrivals.pop(version), self.views.pop(version)

    def close(self) -> None:
        for client in self.clients:
            client.disconnect()


def new_client() -> socketio.Client:
    """A stand-in for a tablet's browser. Browsers check a WebSocket message's
    UTF-8 in native code; websocket-client does it in pure Python (about 3 ms
    for an 8 KB view) unless told not to, which would time the stand-in, not
    the service."""
    return socketio.Client(reconnection=False, websocket_extra_options={"skip_utf8_validation": True})


def answer(prompt: dict[str, Any]) -> Any:
    """A legal answer to any prompt: first options, blank dice, end the Hero Phase."""
    if prompt["kind"] in ("choice", "draw"):
        return prompt["options"][0]["id"]
    if prompt["kind"] == "pick":
        return [option["id"] for option in prompt["options"]][:prompt["min_picks"]]
    if prompt["kind"] == "roll":
        return ["blank" if prompt["die"] == "monster" else 10] * prompt["count"]
    return {"action": "end"}


Request = tuple[str, dict[str, Any], bool]  # event, payload, timed
Step = Callable[[dict[str, Any]], Request]


def undo_or_redo(view: dict[str, Any]) -> Request:
    event = "redo" if view["can_redo"] else "undo"
    return event, {"game_id": view["game_id"], "version": view["version"], "count": 1}, True


def act(view: dict[str, Any]) -> Request:
    """Answer the prompt; a game that ended goes back one step (untimed: not an act) and plays on."""
    if view["prompt"] is None:
        return undo_or_redo(view)[:2] + (False,)
    prompt = view["prompt"]
    return "act", {"game_id": view["game_id"], "version": view["version"], "key": prompt["key"],
                   "answer": answer(prompt)}, True


def push_latencies(url: str, clients: int, actions: int, step: Step, warm_up: int) -> tuple[list[float], list[float]]:
    """After ``warm_up`` answers (untimed), send ``actions`` changes from one tablet;
    the latencies (ms) from each send to each of ``clients`` other tablets'
    ``view``, and to the sender's acknowledgement."""
    sender = new_client()
    sender.connect(url, transports=["websocket"], wait_timeout=TIMEOUT)
    game_id = sender.call("new_game", {"name": "bench", "setup": SETUP}, timeout=TIMEOUT)["game_id"]
    view = sender.call("join", {"game_id": game_id}, timeout=TIMEOUT)["view"]
    receivers = Receivers(url, game_id, clients)
    pushes: list[float] = []
    acks: list[float] = []
    try:
        for n in range(warm_up + actions):
            event, data, timed = (step if n >= warm_up else act)(view)
            sent = time.perf_counter()
            reply = sender.call(event, data, timeout=TIMEOUT)
            acked = time.perf_counter()
            assert reply["ok"], reply
            arrived, view = receivers.wait_for(reply["version"])
            if timed and n >= warm_up:
                acks.append((acked - sent) * 1000)
                pushes.extend((at - sent) * 1000 for at in arrived)
    finally:
        receivers.close()
        sender.disconnect()
    return pushes, acks


STEPS: dict[str, Step] = {"undo_or_redo": undo_or_redo, "act": act}


def _rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    kilobytes = int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))  # type: ignore[union-attr]
    return kilobytes / 1024


def start_to_ready(starts: int) -> list[float]:
    """Seconds from spawning the process until /api/health answers, ``starts`` times."""
    found = []
    for n in range(starts):
        with tempfile.TemporaryDirectory() as scratch:
            began = time.perf_counter()
            service = Service(Path(scratch) / f"start-{n}")
            while True:
                try:
                    if requests.get(f"{service.url}/api/health", timeout=TIMEOUT).ok:
                        break
                except requests.ConnectionError:
                    time.sleep(0.005)  # between connection attempts only; READY means bound already
            found.append(time.perf_counter() - began)
            service.stop()
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=300, help="changes per push benchmark (default 300)")
    parser.add_argument("--clients", type=int, default=8, help="tablets receiving each view (default 8)")
    parser.add_argument("--starts", type=int, default=5, help="service starts to time (default 5)")
    args = parser.parse_args(argv)

    print("$ " + " ".join(shlex.quote(a) for a in [os.path.relpath(sys.executable), *sys.argv]))
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}")

    with tempfile.TemporaryDirectory() as scratch:
        service = Service(Path(scratch) / "state")
        try:
            requests.get(f"{service.url}/api/health", timeout=TIMEOUT).raise_for_status()
            rows = []
            for name, step, warm_up in RUNS:
                pushes, acks = push_latencies(service.url, args.clients, args.actions, STEPS[step], warm_up)
                rows.append((name, pushes, acks))
            rss, master = service.rss_mb()
        finally:
            service.stop()

    print(f"\n(a) send -> `view` at each of {args.clients} joined tablets, loopback:")
    for name, pushes, acks in rows:
        p50, p99 = percentile(pushes, 0.50), percentile(pushes, 0.99)
        print(f"    {name:25s} {len(acks):4d} changes   p50 {p50:5.1f} ms   p99 {p99:5.1f} ms   "
              f"max {max(pushes):5.1f} ms   {verdict(p99, PUSH_TARGET_MS, 'ms')}")
        print(f"    {'':25s} {'':12s} sender's ack: p50 {percentile(acks, 0.5):5.1f} ms   "
              f"p99 {percentile(acks, 0.99):5.1f} ms")

    readies = start_to_ready(args.starts)
    ready = statistics.median(readies)
    print(f"\n(b) spawn -> /api/health answers, {args.starts} starts: median {ready:.2f} s "
          f"(min {min(readies):.2f}, max {max(readies):.2f})   {verdict(ready, READY_TARGET_S, 's')}")
    print(f"\n(c) service RSS after (a): {rss:.1f} MB in the worker   {verdict(rss, RSS_TARGET_MB, 'MB')}   "
          f"(and {master:.1f} MB in gunicorn's master)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
