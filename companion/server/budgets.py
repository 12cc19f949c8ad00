"""Budgets per client for the Socket.IO events (docs/protocol.md, "Budgets").

Why: every event a tablet sends is worked out on a thread of the box, and a
few cost far more than a tap: a what-if replays the rules engine for seconds,
a check of a large owner-data document takes a core for a while. One client
sending them by the hundred must not make another tablet's tap slow, nor raise
the service's threads without end, nor leave work running for a tablet that
has gone. So, decided on the connection's own reading thread before any work
is queued (a refused event costs no thread of its own):

* each connection has at most ``per_connection`` events in flight (queued or
  worked on), all connections together ``in_flight``; one over is answered
  ``busy`` at once;
* what-ifs (``forecast_what_if``) are capped per device (a paired tablet's
  connections together; else its address) and in all: ``busy`` beyond;
* a connection that is not known to be paired (no verified token, not the
  box's own browser) pays for its costly requests (``COSTLY``: reading and
  checking owner data, the health view, the exports; and every event while it
  shows a token that names no paired device, since checking a made-up token
  costs a slow hash, again at each event), by size, from a budget of its address and one of every
  such connection together (a token bucket each); over it the event is
  answered ``rate-limited`` with the seconds to wait - watching, pairing and
  joining without a token are free;
* the admitted events are worked out by a fixed number of threads, taking the
  client addresses in turn (one flooding address waits behind itself, not in
  front of the others); the queued events of a connection that closes are
  dropped, and the one being worked out is told to stop (``called_off``).

The bookkeeping (``Budgets``) is plain logic with an injected clock; the
threads are ``Dispatcher``'s; ``EventGate`` joins them to the Socket.IO
server (``frames.guard`` asks it about every event).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from .connections import address_key

if TYPE_CHECKING:
    from companion.appliance.access import Access

log = logging.getLogger(__name__)
Clock = Callable[[], float]
Reply = dict[str, Any]
#: The events anyone may send that cost the box more than a tap: charged to an unpaired client.
COSTLY = frozenset({"data_get", "data_check", "health", "leds_layout_export", "dice_export"})
WHAT_IF = "forecast_what_if"


@dataclass(frozen=True)
class Rate:
    """A token bucket: ``burst`` units at most, refilled at ``per_second``."""

    burst: float
    per_second: float


@dataclass(frozen=True)
class EventLimits:
    """The caps (docs/protocol.md, "Budgets", says why these numbers)."""

    workers: int = 12
    per_connection: int = 8
    in_flight: int = 128
    what_ifs_per_device: int = 2
    what_ifs: int = 4
    unit_bytes: int = 64 * 1024
    per_address: Rate = Rate(10.0, 1.0)
    unpaired: Rate = Rate(24.0, 3.0)

    def to_plain(self) -> dict[str, object]:
        return {"workers": self.workers, "per_connection": self.per_connection, "in_flight": self.in_flight,
                "what_ifs_per_device": self.what_ifs_per_device, "what_ifs": self.what_ifs}


@dataclass
class Job:
    """One admitted event: whose it is, what it costs, and the work that answers it."""

    connection: str
    address: str
    device: str
    event: str
    work: Callable[[], object]
    cancelled: bool = False

    @property
    def what_if(self) -> bool:
        return self.event == WHAT_IF


@dataclass(frozen=True)
class Refusal:
    """Why an event was not admitted: the protocol's error (``busy``, ``rate-limited``)."""

    code: str
    message: str
    retry_after: float | None = None

    def reply(self) -> Reply:
        error: dict[str, object] = {"code": self.code, "message": self.message}
        if self.retry_after is not None:
            error["retry_after"] = round(self.retry_after, 1)
        return {"ok": False, "error": error}


@dataclass
class _Bucket:
    level: float
    at: float


class Buckets:
    """Token buckets by key, all with one ``Rate``; full ones are forgotten (no growth per stranger)."""

    def __init__(self, rate: Rate, clock: Clock) -> None:
        self.rate, self.clock = rate, clock
        self._buckets: dict[str, _Bucket] = {}

    def wait(self, key: str, cost: float) -> float:
        """Seconds until ``cost`` units are there (0: now)."""
        return max(0.0, (cost - self._level(key)) / self.rate.per_second)

    def take(self, key: str, cost: float) -> None:
        self._buckets[key] = _Bucket(self._level(key) - cost, self.clock())
        for old in [k for k, b in self._buckets.items() if k != key and self._level(k) >= self.rate.burst]:
            del self._buckets[old]

    def _level(self, key: str) -> float:
        found = self._buckets.get(key)
        if found is None:
            return self.rate.burst
        return min(self.rate.burst, found.level + (self.clock() - found.at) * self.rate.per_second)


class Budgets:
    """What is in flight, by connection, device and in all, and the unpaired clients' budgets.
    Thread-safe: the connections' reading threads admit, the dispatcher's threads finish."""

    def __init__(self, limits: EventLimits = EventLimits(), clock: Clock = time.monotonic) -> None:
        self.limits = limits
        self._by_connection: dict[str, int] = {}
        self._what_ifs: dict[str, int] = {}
        self._total = 0
        self._per_address = Buckets(limits.per_address, clock)
        self._unpaired = Buckets(limits.unpaired, clock)
        self.refused: dict[str, int] = {"busy": 0, "rate-limited": 0}
        self._lock = threading.Lock()

    def admit(self, job: Job, size: int, charged: bool) -> Refusal | None:
        """Count ``job`` in, or say why not (and count nothing); a ``charged`` one is paid for
        from the unpaired clients' budgets."""
        with self._lock:
            refusal = self._over_cap(job) or (self._over_budget(job, size) if charged else None)
            if refusal is not None:
                self.refused[refusal.code] += 1
                return refusal
            self._total += 1
            self._by_connection[job.connection] = self._by_connection.get(job.connection, 0) + 1
            if job.what_if:
                self._what_ifs[job.device] = self._what_ifs.get(job.device, 0) + 1
            return None

    def _over_cap(self, job: Job) -> Refusal | None:
        limits = self.limits
        if self._by_connection.get(job.connection, 0) >= limits.per_connection:
            return Refusal("busy", f"this connection already has {limits.per_connection} requests being worked "
                                   "out: wait for their answers, then ask again")
        if self._total >= limits.in_flight:
            return Refusal("busy", "the box is working out too many requests at once: try again in a moment")
        if job.what_if and self._what_ifs.get(job.device, 0) >= limits.what_ifs_per_device:
            return Refusal("busy", f"this tablet already has {limits.what_ifs_per_device} what-ifs being worked "
                                   "out: wait for them, then ask again")
        if job.what_if and sum(self._what_ifs.values()) >= limits.what_ifs:
            return Refusal("busy", f"the box is working out {limits.what_ifs} what-ifs for the tablets already: "
                                   "ask again in a few seconds")
        return None

    def _over_budget(self, job: Job, size: int) -> Refusal | None:
        """An unpaired client's costly event costs a unit per started ``unit_bytes``."""
        cost = min(float(1 + size // self.limits.unit_bytes), self.limits.per_address.burst,
                   self.limits.unpaired.burst)
        wait = max(self._per_address.wait(job.address, cost), self._unpaired.wait("*", cost))
        if wait > 0:
            return Refusal("rate-limited", f"too many requests from a tablet that is not paired: try again in "
                                           f"{int(wait) + 1} s (a paired tablet has no such limit)", wait)
        self._per_address.take(job.address, cost)
        self._unpaired.take("*", cost)
        return None

    def done(self, job: Job) -> None:
        """``job`` was answered, or dropped; once per admitted job."""
        with self._lock:
            self._total -= 1
            _decrement(self._by_connection, job.connection)
            if job.what_if:
                _decrement(self._what_ifs, job.device)

    def to_plain(self) -> dict[str, object]:
        with self._lock:
            return {"in_flight": self._total, "what_ifs": sum(self._what_ifs.values()),
                    "refused": dict(self.refused), "limits": self.limits.to_plain()}


def _decrement(counts: dict[str, int], key: str) -> None:
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)


class Dispatcher:
    """A fixed number of threads working out the admitted events, the client addresses in turn."""

    def __init__(self, budgets: Budgets) -> None:
        self.budgets = budgets
        self._queues: dict[str, deque[Job]] = {}
        self._turns: deque[str] = deque()
        self._running: dict[int, Job] = {}  # the jobs being worked out, by id
        self._local = threading.local()
        self._ready = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._closed = False
        self.called_off_total = 0  # events dropped or called off because their connection closed

    def submit(self, job: Job) -> None:
        with self._ready:
            if self._closed:
                self.budgets.done(job)
                return
            if job.address not in self._queues:
                self._queues[job.address] = deque()
                self._turns.append(job.address)
            self._queues[job.address].append(job)
            if not self._threads:  # started with the first event: an app made for a test may never need them
                self._threads = [threading.Thread(target=self._work, name=f"events-{n + 1}", daemon=True)
                                 for n in range(self.budgets.limits.workers)]
                for thread in self._threads:
                    thread.start()
            self._ready.notify()

    def left(self, connection: str) -> int:
        """The connection closed: its queued events are dropped and the one being worked out is
        called off (``called_off``). Returns how many were dropped."""
        with self._ready:
            dropped = 0
            for address, queue in list(self._queues.items()):
                mine = [job for job in queue if job.connection == connection]
                for job in mine:
                    queue.remove(job)
                    self.budgets.done(job)
                dropped += len(mine)
                if not queue:
                    del self._queues[address]
                    self._turns.remove(address)
            for job in self._running.values():
                if job.connection == connection:
                    job.cancelled = True
                    self.called_off_total += 1
            self.called_off_total += dropped
            return dropped

    def called_off(self) -> bool:
        """On a dispatcher thread: whether the tablet the event being worked out is for has gone."""
        job: Job | None = getattr(self._local, "job", None)
        return job is not None and job.cancelled

    def _next(self) -> Job | None:
        with self._ready:
            while not self._turns and not self._closed:
                self._ready.wait()
            if self._closed:
                return None
            address = self._turns.popleft()
            queue = self._queues[address]
            job = queue.popleft()
            if queue:
                self._turns.append(address)
            else:
                del self._queues[address]
            self._running[id(job)] = job
            return job

    def _work(self) -> None:
        while True:
            job = self._next()
            if job is None:
                return
            self._local.job = job
            try:
                job.work()
            except Exception:  # noqa: BLE001 - the handlers answer their own faults; this is the last net
                log.exception("the %s event could not be worked out", job.event)
            finally:
                self._local.job = None
                with self._ready:
                    self._running.pop(id(job), None)
                self.budgets.done(job)

    def close(self) -> None:
        """Stop the threads (at shutdown and after tests); queued events are dropped."""
        with self._ready:
            self._closed = True
            for queue in self._queues.values():
                for job in queue:
                    self.budgets.done(job)
            self._queues.clear()
            self._turns.clear()
            self._ready.notify_all()


@dataclass
class EventGate:
    """The budgets at the Socket.IO server: who sent an event (connection, address, device,
    whether it is known to be paired), admitted or refused, then worked out by the dispatcher."""

    server: Any  # the python-socketio Server (its stubs are partial)
    access: "Access"
    budgets: Budgets = field(default_factory=Budgets)
    dispatcher: Dispatcher = field(init=False)

    def __post_init__(self) -> None:
        self.dispatcher = Dispatcher(self.budgets)

    def admit(self, eio_sid: str, namespace: str | None, event: str, size: int,
              work: Callable[[], object]) -> Reply | None:
        """Queue ``work`` (the server's own handling of the frame), or the refusal to answer with."""
        sid = self.server.manager.sid_from_eio_sid(eio_sid, namespace or "/")
        environ = self.server.environ.get(eio_sid) or {}
        address = address_key((str(environ.get("REMOTE_ADDR", "")),))
        paired = sid is not None and self.access.known_to_change(str(sid))
        job = Job(eio_sid, address, self._device(sid, address, paired), event, work)
        refusal = self.budgets.admit(job, size, not paired and self._costly(sid, event))
        if refusal is not None:
            return refusal.reply()
        self.dispatcher.submit(job)
        return None

    def _costly(self, sid: object, event: str) -> bool:
        """For a connection not known to be paired: a costly event, or any while it shows a token
        that names no paired device (made up or revoked: it is checked again at each event, with a
        slow hash). A paired tablet's token not checked yet since the box started is not charged:
        after a restart every tablet comes back at once."""
        return event in COSTLY or (sid is not None and self.access.strange_token(str(sid)))

    def _device(self, sid: object, address: str, paired: bool) -> str:
        """A paired tablet by its device (all its connections together), else its address."""
        token = self.access.token_of(str(sid)) if paired else None
        if token and "." in token:
            return "device:" + token.partition(".")[0]
        return "address:" + address

    def left(self, eio_sid: str) -> None:
        self.dispatcher.left(eio_sid)

    def called_off(self) -> bool:
        return self.dispatcher.called_off()

    def to_plain(self) -> dict[str, object]:
        found = self.budgets.to_plain()
        refused = found["refused"]
        assert isinstance(refused, dict)
        called_off = self.dispatcher.called_off_total
        reason = (f"{found['in_flight']} requests being worked out ({found['what_ifs']} what-ifs); "
                  f"{refused['busy']} refused as over a cap, {refused['rate-limited']} rate-limited, "
                  f"{called_off} dropped or called off as their tablet left")
        return {"state": "ok", "reason": reason, **found, "called_off": called_off}

    def close(self) -> None:
        self.dispatcher.close()
