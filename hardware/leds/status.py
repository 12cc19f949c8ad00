"""What the health view says about the LEDs: working, off by choice, or
disabled with the reason and what to do. Updated from the animation thread
and read from web handlers, so it is guarded by a lock and read as a copy."""

from __future__ import annotations

import threading
import time
from dataclasses import asdict, dataclass, replace


@dataclass(frozen=True)
class LedHealth:
    state: str  # "ok", "off" (backend none), "disabled" (failed to start), "failed" (died while running)
    backend: str
    reason: str = ""
    frames: int = 0
    since: float = 0.0  # wall-clock time of the last state change
    note: str = ""  # the last error that did not stop the LEDs (a change that could not be shown)

    def to_plain(self) -> dict[str, object]:
        return asdict(self)


class LedStatus:
    def __init__(self, state: str, backend: str, reason: str = "") -> None:
        self._lock = threading.Lock()
        self._health = LedHealth(state, backend, reason, 0, time.time())

    @property
    def health(self) -> LedHealth:
        with self._lock:
            return self._health

    @property
    def working(self) -> bool:
        return self.health.state in ("ok", "off")

    def shown(self) -> None:
        with self._lock:
            self._health = replace(self._health, frames=self._health.frames + 1)

    def failed(self, reason: str) -> None:
        with self._lock:
            self._health = replace(self._health, state="failed", reason=reason, since=time.time())

    def note(self, problem: str) -> None:
        with self._lock:
            self._health = replace(self._health, note=problem)
