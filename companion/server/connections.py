"""Who holds the service's connections: caps per client address and in all, and
the deadline for a request's head.

Why: the box sits on a home or café network, and every open TCP connection
costs the service a file descriptor (and, while a request is read, a thread).
One stranger opening a thousand idle connections, or two hundred that trickle
their request one byte at a time, must not leave the tablets at the table
unable to load the page or play. So:

* each client address holds at most ``per_address`` connections at once (an
  IPv6 client counts by its /64 network, since one device can take any
  address in it); a connection over the cap is answered "busy" and closed at
  once, before it costs a thread;
* all clients together hold at most ``total`` (the worker stops accepting
  above it, so the kernel queues new ones instead of the service running out
  of descriptors);
* a request's head (request line and headers) must arrive within
  ``header_seconds`` of its first byte; the server's loop closes a connection
  that is slower (a connection that sends nothing at all is closed by the
  server after its idle time, without ever taking a thread);
* what holds a server thread for long - a WebSocket (a tablet's Socket.IO
  connection holds its thread for as long as it is open) or a Socket.IO
  long-poll - is capped too: ``held_per_address`` per client address, and all
  of them together leave ``reserved`` threads free, so however many idle
  sockets strangers keep open, the health check, the page and a new tablet's
  connection still find a thread. One over the cap of its address is answered
  "busy" (503) and closed before it is upgraded. When all of them together are
  at their cap, a newcomer from an address holding fewer than the busiest
  address (less one) takes the place of that address's newest one, which is
  shut: strangers spread over many addresses cannot keep a new tablet out
  either, and the busiest address cannot win its places back this way.

The box's own loopback address (127.0.0.1, ::1: its own browser, the watchdog's
check) counts towards the totals (connections and held threads) but has no cap
of its own.

Plain logic with an injected clock: the gunicorn worker (``worker.py``) calls
it, the health view reads it, and the tests drive it without a server.
"""

from __future__ import annotations

import ipaddress
import logging
import threading
import time
from dataclasses import dataclass
from typing import Callable, Hashable

#: Addresses of the box itself, which the per-address cap leaves alone.
OWN_ADDRESSES = frozenset({"127.0.0.1", "::1"})
#: How often (seconds) one address's refused connections are summed up in the log.
REFUSALS_LOGGED_EVERY = 60.0

log = logging.getLogger(__name__)
Clock = Callable[[], float]


@dataclass(frozen=True)
class Limits:
    """The caps and timeouts of the server (``[server]`` in the configuration)."""

    threads: int = 64
    total: int = 256
    per_address: int = 24
    idle_seconds: float = 10.0
    header_seconds: float = 10.0
    held_per_address: int = 8

    @property
    def reserved(self) -> int:
        """Threads never given to a WebSocket or long-poll: a quarter of them, at least two."""
        return max(2, self.threads // 4)

    @property
    def held_total(self) -> int:
        """WebSockets and long-polls served at once, from every address together."""
        return self.threads - self.reserved

    def to_plain(self) -> dict[str, object]:
        return {"threads": self.threads, "total": self.total, "per_address": self.per_address,
                "idle_seconds": self.idle_seconds, "header_seconds": self.header_seconds,
                "held_per_address": self.held_per_address, "held_total": self.held_total}


def address_key(address: object) -> str:
    """The client a connection counts against: its IPv4 address, or its IPv6 /64
    (an IPv4-mapped IPv6 address is its IPv4 address); anything else as text."""
    host = address[0] if isinstance(address, tuple) and address else address
    text = str(host)
    try:
        ip = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return text
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        if not ip.is_loopback:
            return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


class ConnectionGuard:
    """The open connections per client and the heads being read. Thread-safe:
    the worker's loop admits and closes, its threads start and finish reading."""

    def __init__(self, limits: Limits, clock: Clock = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._open: dict[str, int] = {}
        self._reading: dict[Hashable, float] = {}
        self._connections: set[Hashable] = set()
        self._websockets: set[Hashable] = set()
        self._refused: dict[str, int] = {}
        self._refused_total = 0
        self._slow_total = 0
        self._held: dict[Hashable, str] = {}  # connection -> its address, while a WebSocket or long-poll
        self._held_refused = 0
        self._held_evicted = 0
        self._logged_at: dict[str, float] = {}
        self._lock = threading.Lock()

    # -- connections ----------------------------------------------------------------------
    def admit(self, key: str) -> bool:
        """One more connection from ``key``, or False (and counted) if it is over a cap."""
        with self._lock:
            held = self._open.get(key, 0)
            over_address = key not in OWN_ADDRESSES and held >= self.limits.per_address
            if over_address or sum(self._open.values()) >= self.limits.total:
                self._refuse(key)
                return False
            self._open[key] = held + 1
            return True

    def release(self, key: str) -> None:
        """A connection from ``key`` closed (the worker calls this once per admitted one)."""
        with self._lock:
            held = self._open.get(key, 0) - 1
            if held > 0:
                self._open[key] = held
            else:
                self._open.pop(key, None)

    def _refuse(self, key: str) -> None:
        """Counted always, logged once a minute per address: a flood must not flood the log."""
        self._refused[key] = self._refused.get(key, 0) + 1
        self._refused_total += 1
        now = self.clock()
        if now - self._logged_at.get(key, -REFUSALS_LOGGED_EVERY) >= REFUSALS_LOGGED_EVERY:
            count, self._refused[key] = self._refused[key], 0
            self._logged_at[key] = now
            log.warning("refused %d connection%s from %s: it already holds %d (the cap per address is %d, "
                        "%d in all)", count, "" if count == 1 else "s", key, self._open.get(key, 0),
                        self.limits.per_address, self.limits.total)

    def remember(self, connection: Hashable) -> None:
        """An admitted connection, until ``forget``: what is still open when the worker stops."""
        with self._lock:
            self._connections.add(connection)

    def forget(self, connection: Hashable) -> None:
        with self._lock:
            self._connections.discard(connection)
            self._websockets.discard(connection)
            self._held.pop(connection, None)

    def upgraded(self, connection: Hashable) -> None:
        """The connection became a WebSocket (a tablet's Socket.IO connection, held for long)."""
        with self._lock:
            if connection in self._connections:
                self._websockets.add(connection)

    def hold(self, connection: Hashable, key: str) -> tuple[bool, Hashable | None]:
        """``connection`` (from ``key``) is about to hold its thread for long (a WebSocket, a
        long-poll): whether it may (refusals are counted), and the held connection it takes the
        place of, for the caller to shut (None: none). ``unhold`` when done."""
        with self._lock:
            counts: dict[str, int] = {}
            for held in self._held.values():
                counts[held] = counts.get(held, 0) + 1
            mine = counts.get(key, 0)
            if key not in OWN_ADDRESSES and mine >= self.limits.held_per_address:
                self._held_refused += 1
                return False, None
            victim = None
            if len(self._held) >= self.limits.held_total:
                busiest = max(counts, key=lambda k: counts[k], default=key)
                if counts.get(busiest, 0) <= mine + 1:
                    self._held_refused += 1
                    return False, None
                victim = next(c for c in reversed(list(self._held)) if self._held[c] == busiest)
                del self._held[victim]
                self._held_evicted += 1
            self._held[connection] = key
            return True, victim

    def unhold(self, connection: Hashable) -> None:
        """Safe to call for a connection never held."""
        with self._lock:
            self._held.pop(connection, None)

    def websockets(self) -> list[Hashable]:
        with self._lock:
            return list(self._websockets)

    def still_open(self) -> list[Hashable]:
        with self._lock:
            return list(self._connections)

    def held(self, key: str) -> int:
        with self._lock:
            return self._open.get(key, 0)

    # -- request heads --------------------------------------------------------------------
    def reading(self, connection: Hashable) -> None:
        """A thread starts reading a request's head on ``connection``."""
        with self._lock:
            self._reading[connection] = self.clock() + self.limits.header_seconds

    def done_reading(self, connection: Hashable) -> None:
        """The head is in (or the connection ended); safe to call twice."""
        with self._lock:
            self._reading.pop(connection, None)

    def overdue(self) -> list[Hashable]:
        """The connections whose head is late; each is given once (the caller closes it)."""
        now = self.clock()
        with self._lock:
            late = [c for c, deadline in self._reading.items() if deadline <= now]
            for connection in late:
                del self._reading[connection]
            self._slow_total += len(late)
        return late

    # -- for the health view --------------------------------------------------------------
    def to_plain(self) -> dict[str, object]:
        with self._lock:
            busiest = max(self._open.items(), key=lambda item: item[1], default=("", 0))
            total = sum(self._open.values())
            reason = (f"{total} connection{'' if total == 1 else 's'} open from {len(self._open)} "
                      f"client{'' if len(self._open) == 1 else 's'} ({len(self._held)} of them WebSockets or "
                      f"long-polls, at most {self.limits.held_total}); {self._refused_total} refused over the caps, "
                      f"{self._held_refused} WebSockets or long-polls refused over theirs and "
                      f"{self._held_evicted} shut to make room for another address's, "
                      f"{self._slow_total} closed for a request head slower than {self.limits.header_seconds:g} s")
            return {"state": "ok", "reason": reason, "open": total, "clients": len(self._open),
                    "busiest": {"address": busiest[0], "open": busiest[1]} if busiest[1] else None,
                    "refused": self._refused_total, "slow_closed": self._slow_total,
                    "held": len(self._held), "held_refused": self._held_refused, "held_evicted": self._held_evicted,
                    "limits": self.limits.to_plain()}
