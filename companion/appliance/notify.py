"""sd_notify, spoken directly over ``$NOTIFY_SOCKET``, and the watchdog thread.

Why by hand: the protocol is one datagram of ``KEY=VALUE`` lines sent to the
AF_UNIX socket systemd names in ``$NOTIFY_SOCKET`` (sd_notify(3)); a leading
``@`` means Linux's abstract namespace. That is a dozen lines, where the
libraries need libsystemd to build (systemd-python) or are unmaintained.

Why it matters: the unit is ``Type=notify``, so systemd counts the service as
started only on ``READY=1`` (sent once the port is bound: whoever waits for
the start can connect at once), and with ``WatchdogSec=`` it kills and
restarts a service whose ``WATCHDOG=1`` pings stop - a hung process, not only
a dead one. Without ``$NOTIFY_SOCKET`` (a laptop, CI, ``./run``) every call
is a quiet no-op.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from typing import Callable, Mapping

ENV_SOCKET = "NOTIFY_SOCKET"

log = logging.getLogger(__name__)


def socket_address(value: str) -> str:
    """``@name`` is the abstract socket ``\\0name``; anything else is a path."""
    return "\0" + value[1:] if value.startswith("@") else value


def message(**fields: str) -> bytes:
    """``READY=1\\nSTATUS=...``; a value cannot hold a newline (it would start a new key)."""
    return "\n".join(f"{key}={' '.join(str(value).splitlines())}" for key, value in fields.items()).encode()


class Notifier:
    """The service's line to systemd; ``send`` never raises (a lost notification
    must not take the game down: systemd's timeouts report it instead)."""

    def __init__(self, address: str | None) -> None:
        self.address = socket_address(address) if address else None
        self._socket: socket.socket | None = None
        self._lock = threading.Lock()
        self._failed = False

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Notifier":
        return cls((os.environ if env is None else env).get(ENV_SOCKET) or None)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, **fields: str) -> bool:
        """One datagram; False if there is no socket or it could not be sent."""
        if self.address is None:
            return False
        with self._lock:
            return self._send_locked(message(**fields))

    def _send_locked(self, data: bytes) -> bool:
        assert self.address is not None
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._socket.sendto(data, self.address)
        except OSError as problem:
            self._report(problem)
            return False
        self._failed = False
        return True

    def _report(self, problem: OSError) -> None:
        """Said once per run of failures, not at every watchdog ping."""
        if not self._failed:
            log.warning("could not notify systemd at %r: %s", self.address, problem)
        self._failed = True

    def ready(self, status: str = "") -> bool:
        return self.send(READY="1", STATUS=status) if status else self.send(READY="1")

    def status(self, text: str) -> bool:
        return self.send(STATUS=text)

    def watchdog(self) -> bool:
        return self.send(WATCHDOG="1")

    def stopping(self) -> bool:
        return self.send(STOPPING="1")

    def close(self) -> None:
        """Safe to call twice."""
        with self._lock:
            if self._socket is not None:
                self._socket.close()
                self._socket = None


def watchdog_interval(env: Mapping[str, str] | None = None) -> float | None:
    """Seconds between pings: half of ``$WATCHDOG_USEC``, as sd_watchdog_enabled(3)
    advises; None when there is no watchdog or it is meant for another process."""
    env = os.environ if env is None else env
    pid = env.get("WATCHDOG_PID")
    if pid and pid != str(os.getpid()):
        return None
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    return usec / 2_000_000 if usec > 0 else None


class Watchdog:
    """Pings ``WATCHDOG=1`` every ``interval`` seconds while ``alive()`` says the
    service still works; when it does not, the pings stop and systemd restarts the
    service once ``WatchdogSec`` has passed."""

    def __init__(self, notifier: Notifier, interval: float, alive: Callable[[], bool] | None = None) -> None:
        self.notifier = notifier
        self.interval = interval
        self.alive = alive or (lambda: True)
        self.pings = 0
        self._unhealthy = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> "Watchdog":
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        while True:
            self.ping()
            if self._stop.wait(self.interval):
                return

    def ping(self) -> bool:
        if not self._healthy():
            return False
        sent = self.notifier.watchdog()
        self.pings += sent
        return sent

    def _healthy(self) -> bool:
        """Said once when the service turns unhealthy, not at every missed ping."""
        try:
            healthy = bool(self.alive())
        except Exception:
            log.exception("the watchdog's health check failed")
            healthy = False
        if not healthy and not self._unhealthy:
            log.warning("the service is not healthy: no watchdog ping (systemd restarts it after WatchdogSec)")
        self._unhealthy = not healthy
        return healthy

    def close(self) -> None:
        """Stops the thread; safe to call twice."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)


def start_watchdog(notifier: Notifier, alive: Callable[[], bool] | None = None,
                   env: Mapping[str, str] | None = None) -> Watchdog | None:
    """The running watchdog, or None when systemd asked for none."""
    interval = watchdog_interval(env)
    if interval is None or not notifier.enabled:
        return None
    return Watchdog(notifier, interval, alive).start()
