"""A stranger's flood, for the tests and the benchmark: idle and slow TCP
connections from one address (a loopback address of its own, 127.0.0.2, so the
service sees another client than the tablet's), each opened again as soon as the
server closes it, until the flood is stopped. Bounded: ``idle + slow``
connections at most at any time, for as long as the caller runs it.

Idle connections send nothing. Slow ones send a request line and then one byte
of a header that never ends every ``trickle_every`` seconds (a "slowloris").
The flood runs in a process of its own (``Flood``), as a stranger's machine
would: its busy loop must not slow the measuring tablet's client down.
"""

from __future__ import annotations

import errno
import multiprocessing
import multiprocessing.synchronize
import selectors
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any

STRANGER = "127.0.0.2"


@dataclass
class FloodReport:
    opened: int = 0          # connections the flood opened (connect() succeeded)
    refused: int = 0         # ... closed by the server with its 503 "busy" answer
    closed: int = 0          # ... closed by the server otherwise (idle or slow)
    held_max: int = 0        # most connections open at once, as the flood saw them
    lifetimes: list[float] = field(default_factory=list)  # seconds each closed connection lived


class Flood:
    """The flood in a child process; ``report`` is what it has done so far (refreshed by ``progress``)."""

    def __init__(self, port: int, host: str = "127.0.0.1", source: str = STRANGER, idle: int = 300,
                 slow: int = 100, trickle_every: float = 0.5) -> None:
        context = multiprocessing.get_context("spawn")
        self._counts = context.Array("d", 4)  # opened, refused, closed, held_max
        self._stop = context.Event()
        self._results: Any = context.Queue()
        self._process = context.Process(target=_flood, args=(port, host, source, idle, slow, trickle_every,
                                                             self._counts, self._stop, self._results), daemon=True)
        self._report = FloodReport()

    def start(self) -> "Flood":
        self._process.start()
        return self

    @property
    def report(self) -> FloodReport:
        opened, refused, closed, held_max = (int(v) for v in self._counts[:])
        return FloodReport(opened, refused, closed, held_max)

    def stop(self) -> FloodReport:
        self._stop.set()
        report: FloodReport = self._results.get(timeout=30)
        self._process.join(timeout=10)
        return report


def _flood(port: int, host: str, source: str, idle: int, slow: int, trickle_every: float, counts: Any,
           stop: multiprocessing.synchronize.Event, results: Any) -> None:
    """In the child: flood until ``stop``, keeping ``counts`` current; the whole report at the end."""
    engine = FloodEngine(port, host, source, idle, slow, trickle_every)
    engine.start()
    while not stop.wait(0.1):
        report = engine.report
        counts[:] = [report.opened, report.refused, report.closed, report.held_max]
    results.put(engine.stop())


class FloodEngine:
    """The flood itself (in whichever process runs it)."""

    def __init__(self, port: int, host: str = "127.0.0.1", source: str = STRANGER, idle: int = 300,
                 slow: int = 100, trickle_every: float = 0.5) -> None:
        self.port, self.host, self.source = port, host, source
        self.wanted = {"idle": idle, "slow": slow}
        self.trickle_every = trickle_every
        self.report = FloodReport()
        self._open: dict[socket.socket, tuple[str, float]] = {}
        self._selector = selectors.DefaultSelector()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="flood", daemon=True)

    def start(self) -> "FloodEngine":
        self._top_up()
        self._thread.start()
        return self

    def stop(self) -> FloodReport:
        self._stop.set()
        self._thread.join(timeout=10)
        for sock in list(self._open):
            self._drop(sock)
        self._selector.close()
        return self.report

    def held(self) -> int:
        return len(self._open)

    # -- the loop ---------------------------------------------------------------------------
    def _run(self) -> None:
        next_trickle = time.monotonic()
        while not self._stop.is_set():
            for key, _ in self._selector.select(timeout=0.05):
                self._readable(key.fileobj)  # type: ignore[arg-type]
            if time.monotonic() >= next_trickle:
                self._trickle()
                next_trickle = time.monotonic() + self.trickle_every
            self._top_up()

    def _top_up(self) -> None:
        """Each kind opened in turn, one at a time, so both reach the server's cap."""
        missing = {kind: count - sum(1 for k, _ in self._open.values() if k == kind)
                   for kind, count in self.wanted.items()}
        while any(n > 0 for n in missing.values()):
            for kind in missing:
                if missing[kind] > 0:
                    if not self._connect(kind):
                        return
                    missing[kind] -= 1

    def _connect(self, kind: str) -> bool:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((self.source, 0))
        sock.settimeout(2)
        try:
            sock.connect((self.host, self.port))
        except OSError:
            sock.close()
            return False
        sock.setblocking(False)
        self._open[sock] = (kind, time.monotonic())
        self._selector.register(sock, selectors.EVENT_READ)
        self.report.opened += 1
        self.report.held_max = max(self.report.held_max, len(self._open))
        if kind == "slow":
            self._send(sock, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        return True

    def _trickle(self) -> None:
        for sock, (kind, _) in list(self._open.items()):
            if kind == "slow":
                self._send(sock, b"a")

    def _send(self, sock: socket.socket, data: bytes) -> None:
        try:
            sock.send(data)
        except BlockingIOError:
            pass
        except OSError:
            self._closed(sock, b"")

    def _readable(self, sock: socket.socket) -> None:
        try:
            data = sock.recv(4096)
        except BlockingIOError:
            return
        except OSError as problem:
            data = b"" if problem.errno == errno.ECONNRESET else b"?"
        self._closed(sock, data)

    def _closed(self, sock: socket.socket, data: bytes) -> None:
        if sock not in self._open:
            return
        _, since = self._open[sock]
        if data.startswith(b"HTTP/1.1 503"):
            self.report.refused += 1
        else:
            self.report.closed += 1
            self.report.lifetimes.append(time.monotonic() - since)
        self._drop(sock)

    def _drop(self, sock: socket.socket) -> None:
        self._open.pop(sock, None)
        try:
            self._selector.unregister(sock)
        except (KeyError, ValueError):
            pass
        sock.close()


def source_socket(port: int, source: str, host: str = "127.0.0.1") -> socket.socket:
    """A TCP connection to the service from ``source`` (a tablet with an address of its own)."""
    sock = socket.create_connection((host, port), timeout=10, source_address=(source, 0))
    sock.settimeout(None)
    return sock
