"""Worker processes for long pure computations (a pack's forecast walking its cards), one per
core, owned by the service and shared by its jobs.

Why processes: Python runs one thread's bytecode at a time, so threads cannot walk two cards
side by side; processes can, one per core. Why started from a fork server (or spawned where
there is none), never by a plain ``fork`` of the service: the service is multi-threaded, and a
forked copy of a threaded process may inherit a lock some other thread held at that moment.
The processes are started (``warm``) when the pool is made, so the first job does not wait
for Python to start and import the engine.

The workers run at a lower priority than the service (``NICENESS``): what the table waits for
(a request, a what-if) is not slowed by a forecast refining in the background. The pool knows
no game: a job's tasks are plain picklable functions and arguments, which the
caller (a pack's forecast) chooses. A job gets a ``Ticket``; calling it off (``Ticket.cancel``)
drops its tasks not yet started, and a task under way sees ``called_off()`` turn True at once
(a shared flag in memory, no message to wait for), so a job nobody waits for gives the cores
back within one step of its loop. ``Workers.close`` calls every job off and ends the processes.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import pickle
import threading
import time
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from multiprocessing.sharedctypes import SynchronizedArray
from typing import Any, Callable, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")
#: Jobs that may be under way at once (tickets are told apart modulo this).
SLOTS = 64
#: Modules every worker imports when it starts (the engine), so a job's first task is not slowed.
WARM_MODULES = ("companion.engine.game",)
#: How much the workers yield the processor to the service's own threads (``os.nice``): the
#: requests, a what-if asked at the table, the LEDs and the dice camera come first, the
#: background walks take what is left.
NICENESS = 10
#: How often a worker looks whether the service that started it is still there: one killed
#: outright (SIGKILL, a crash) cannot end its workers, so they end themselves.
WATCH_SECONDS = 1.0


class Cancelled(Exception):
    """A task was not run: its job had been called off before it started."""


class Ticket:
    """One job's flag in shared memory: live until ``cancel`` (or the pool's close)."""

    def __init__(self, flags: "SynchronizedArray[int]", number: int) -> None:
        self._flags, self.number = flags, number
        flags[number % SLOTS] = number

    def cancel(self) -> None:
        """Call the job off: its tasks under way see ``called_off()`` True from now on."""
        if self._flags[self.number % SLOTS] == self.number:
            self._flags[self.number % SLOTS] = -1

    @property
    def live(self) -> bool:
        return bool(self._flags[self.number % SLOTS] == self.number)


class Workers:
    """``size`` worker processes (default: one per core the box has), each with a queue of its
    own: a caller may send a task to the worker that did the job's earlier work (``on``), whose
    memory of it (a memo) the task can use."""

    def __init__(self, size: int | None = None, warm: tuple[str, ...] = WARM_MODULES) -> None:
        self.size = max(1, size if size is not None else os.cpu_count() or 1)
        context = multiprocessing.get_context(start_method())
        if context.get_start_method() == "forkserver":
            context.set_forkserver_preload(list(warm))  # not the service's main script: only the engine
        self._flags: SynchronizedArray[int] = context.Array("q", [-1] * SLOTS, lock=False)
        self._context, self._warm_modules = context, warm
        self._lock = threading.Lock()
        self._tickets = 0
        self._closed = False
        self._pools = [self._started() for _ in range(self.size)]
        self._pending = [0] * self.size  # tasks given to each worker and not done

    def _started(self) -> ProcessPoolExecutor:
        """One worker process, started now (by a small task), not when the first job comes. Not
        waited for: it starts and imports the engine while the service starts too."""
        pool = ProcessPoolExecutor(1, mp_context=self._context, initializer=_start_worker,
                                   initargs=(self._flags, self._warm_modules, os.getpid()))
        pool.submit(os.getpid)
        return pool

    def ticket(self) -> Ticket:
        """A new job's ticket (``Closed`` after ``close``)."""
        with self._lock:
            if self._closed:
                raise Closed("the worker processes are closed")
            self._tickets += 1
            return Ticket(self._flags, self._tickets)

    def idle(self) -> list[int]:
        """The workers with no task given and not done."""
        with self._lock:
            return [n for n, count in enumerate(self._pending) if count == 0]

    def submit(self, ticket: Ticket, task: Callable[..., T], *args: Any, on: int | None = None) -> "Future[T]":
        """``task(*args)`` in worker ``on`` (None: the least busy), for the job ``ticket`` (skipped,
        ``Cancelled``, if the job is called off before it starts). ``task`` and ``args`` must pickle
        (a module's function); they are unpickled in the task, so one the worker cannot import (a
        plug-in's module missing from its path) fails as that task's error, and the worker lives
        on. ``Closed`` after ``close``."""
        pickled = pickle.dumps((task, args), pickle.HIGHEST_PROTOCOL)
        with self._lock:
            if self._closed:
                raise Closed("the worker processes are closed")
            worker = min(range(self.size), key=self._pending.__getitem__) if on is None else on
            future = self._given(worker, pickled, ticket)
            self._pending[worker] += 1
        future.add_done_callback(lambda _: self._done(worker))
        return future

    def _given(self, worker: int, pickled: bytes, ticket: Ticket) -> "Future[Any]":
        try:
            return self._pools[worker].submit(_run, ticket.number, pickled)
        except BrokenExecutor as problem:  # the worker died (killed, out of memory): start it again
            log.warning("a worker process is started again: %s", problem)
            self._pools[worker].shutdown(wait=False, cancel_futures=True)
            self._pools[worker] = self._started()
            return self._pools[worker].submit(_run, ticket.number, pickled)

    def _done(self, worker: int) -> None:
        with self._lock:
            self._pending[worker] -= 1

    def pids(self) -> list[int]:
        """The worker processes' ids (for the tests)."""
        with self._lock:
            return sorted(pid for pool in self._pools for pid in pool._processes or {})  # the pool's own table

    def close(self) -> None:
        """Call every job off and end the processes (a task under way stops within a step);
        safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for slot in range(SLOTS):
                self._flags[slot] = -1
        for pool in self._pools:  # one after the other: every task under way is stopping already
            pool.shutdown(wait=True, cancel_futures=True)


class Closed(RuntimeError):
    """A job was asked of workers already closed."""


def start_method() -> str:
    """A fork server where the system has one (Linux: quick starts, nothing of the service's
    threads inherited), else a fresh interpreter per worker (``spawn``)."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


# -- inside a worker process -------------------------------------------------------------------

_flags: "SynchronizedArray[int] | None" = None
_ticket = -1


def _start_worker(flags: "SynchronizedArray[int]", warm: tuple[str, ...], service: int) -> None:
    global _flags
    _flags = flags
    threading.Thread(target=_watch, args=(service,), name="service-watch", daemon=True).start()
    try:
        os.nice(NICENESS)
    except OSError:  # a system call filter that refuses it: the worker runs at the service's priority
        pass
    import importlib

    for name in warm:
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # only a head start: a task that needs it fails with this error, which its job reports


def _watch(service: int) -> None:
    """End this worker once the service process ``service`` is gone. A service that closes ends
    its workers itself; one killed outright cannot, and a worker's parent is the fork server,
    not the service, so it would wait for tasks forever (and keep the fork server alive)."""
    while True:
        time.sleep(WATCH_SECONDS)
        try:
            os.kill(service, 0)  # asks only whether the process is there
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:  # there, under another user: not ours, so ours is gone
            os._exit(0)


def _run(ticket: int, pickled: bytes) -> Any:
    global _ticket
    _ticket = ticket
    if called_off():
        raise Cancelled(f"job {ticket} was called off before this task started")
    task, args = pickle.loads(pickled)
    return task(*args)


def called_off() -> bool:
    """In a task: whether its job has been called off (ask it before each step of a long loop).
    Outside a worker: never."""
    return _flags is not None and _flags[_ticket % SLOTS] != _ticket


__all__ = ["Cancelled", "Closed", "Ticket", "Workers", "called_off", "start_method"]
