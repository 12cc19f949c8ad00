"""The one animation thread: renders and shows frames at a steady rate while
something moves, and does nothing at all when the board is still.

Why a thread that comes and goes: a still board (most of the game) costs no
CPU, and a change never waits for the strip, because ``wake()`` only starts
the thread (or lets the running one pick the change up). The thread ends by
itself after showing the final still frame; ``close()`` stops it through an
event and joins it with a bounded wait, and is safe to call twice.

A strip that fails while showing (a device error, a vanished /dev/leds0) is
reported once through the status and left alone; the game goes on, and the
frames still reach the tablet feed.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable, Protocol

from .power import Output
from .status import LedStatus
from .strip import LedError, Strip

log = logging.getLogger(__name__)
JOIN_TIMEOUT = 2.0
ShownHook = Callable[[bytes, float], None]


class FrameSource(Protocol):
    """What the thread draws from: the renderer, or a calibration override."""

    def frame(self, now: float) -> bytes: ...

    def busy(self, now: float) -> bool: ...


def _nothing(*args: object) -> None:
    pass


class Animator:
    def __init__(self, source: FrameSource, strip: Strip, output: Output, status: LedStatus, fps: float,
                 clock: Callable[[], float] = time.monotonic, shown: ShownHook = _nothing,
                 idle: Callable[[], None] = _nothing) -> None:
        """``shown(scene_frame, now)`` follows every frame shown and ``idle()`` the
        last one before the thread stops (the tablet feed uses both)."""
        self.source = source
        self.on_shown = shown
        self.on_idle = idle
        self.strip = strip
        self.output = output
        self.status = status
        self.period = 1.0 / fps
        self.clock = clock
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._dirty = False
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        with self._lock:
            return self._thread is not None

    def wake(self) -> None:
        """Something changed: make sure a thread will draw it (for the strip, and
        for the tablet even when the strip is disabled: its LEDs stay virtual)."""
        with self._lock:
            if self._stop.is_set():
                return
            self._dirty = True
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="leds-animator", daemon=True)
                self._thread.start()

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(JOIN_TIMEOUT)
            if thread.is_alive():
                log.warning("the LED animation thread did not stop within %.0f s", JOIN_TIMEOUT)

    def _run(self) -> None:
        shown_at = float("-inf")
        deadline = self.clock()
        while not self._stop.is_set() and self._has_work(shown_at):
            shown_at = self.clock()
            self._show(shown_at)
            deadline = max(deadline + self.period, self.clock())  # behind: skip, never burst
            self._stop.wait(max(0.0, deadline - self.clock()))
        self._release()

    def _has_work(self, shown_at: float) -> bool:
        """Another frame is due if a change is unseen or the last frame shown was
        still in motion; otherwise that frame was the final still one."""
        with self._lock:
            dirty, self._dirty = self._dirty, False
            if dirty or self.source.busy(shown_at):
                return True
            self._thread = None  # decided under the lock: a wake() from now on starts a new thread
            return False

    def _release(self) -> None:
        with self._lock:
            if self._thread is threading.current_thread():
                self._thread = None
        _safely(self.on_idle)

    def _show(self, now: float) -> None:
        scene = self.source.frame(now)
        if self.status.working:
            self._to_strip(scene)
        _safely(self.on_shown, scene, now)

    def _to_strip(self, scene: bytes) -> None:
        """A failing strip is reported once and then left alone."""
        try:
            self.strip.show(self.output.apply(scene).frame)
        except (LedError, OSError, RuntimeError, ValueError) as problem:
            log.error("LEDs stopped: %s", problem)
            self.status.failed(f"the {self.strip.name} strip failed while showing a frame: {problem}")
            return
        self.status.shown()


def _safely(hook: Callable[..., None], *args: object) -> None:
    """A tablet feed that raises must not stop the LEDs."""
    try:
        hook(*args)
    except Exception:  # noqa: BLE001 - logged; the LEDs go on
        log.exception("an LED frame hook failed")
