"""A strip in memory: keeps the last frames so the tablet can draw the LEDs over
the board and tests can read exactly what would have lit.

Thread-safe: the animation thread shows frames while a web handler or a test
reads them. ``listeners`` are called after each frame (on the animation
thread) so a server can push it to tablets; a listener that raises is dropped
from that call's concerns, never the strip's.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable

from ..strip import StripBase

log = logging.getLogger(__name__)
KEEP = 600  # 20 s at 30 fps: enough for a test to replay a whole Monster Phase


@dataclass(frozen=True)
class ShownFrame:
    """One frame as shown: when (monotonic seconds) and the R G B bytes."""

    at: float
    data: bytes


FrameListener = Callable[[ShownFrame], None]


class SimulatedStrip(StripBase):
    name = "simulated"

    def __init__(self, count: int, keep: int = KEEP, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(count)
        self._frames: deque[ShownFrame] = deque(maxlen=keep)
        self._lock = threading.Lock()
        self._clock = clock
        self._listeners: list[FrameListener] = []
        self.shown = 0

    def subscribe(self, listener: FrameListener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def frames(self) -> list[ShownFrame]:
        with self._lock:
            return list(self._frames)

    def last(self) -> bytes | None:
        with self._lock:
            return self._frames[-1].data if self._frames else None

    def clear(self) -> None:
        with self._lock:
            self._frames.clear()

    def _show(self, frame: bytes) -> None:
        shown = ShownFrame(self._clock(), frame)
        with self._lock:
            self._frames.append(shown)
            self.shown += 1
            listeners = list(self._listeners)
        for listener in listeners:
            _tell(listener, shown)


def _tell(listener: FrameListener, shown: ShownFrame) -> None:
    """A tablet push failing must not stop the LEDs."""
    try:
        listener(shown)
    except Exception:  # noqa: BLE001 - any listener bug is logged, the strip goes on
        log.exception("an LED frame listener failed")
