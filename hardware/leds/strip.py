"""The one interface every LED backend offers, and the two trivial strips.

A frame is ``bytes`` of ``3 * count`` values, R G B for LED 0, then LED 1 ...
(the order the renderer composes in; backends convert to their wire format).
Plain bytes keep frames cheap to copy between threads and let the power
limiter scale a whole frame in C with ``bytes.translate``.

Why a base class: every backend must refuse a frame of the wrong size the same
way, tolerate ``close()`` twice (shutdown paths overlap: a signal, atexit, the
table closing) and refuse ``show()`` after close with a clear error.
"""

from __future__ import annotations

import threading
from typing import Protocol, runtime_checkable

Colour = tuple[int, int, int]
BLACK: Colour = (0, 0, 0)


class LedError(RuntimeError):
    """The LED hardware could not start or stopped working; says why and what to do."""


@runtime_checkable
class Strip(Protocol):
    """What the renderer needs from a strip: its size, ``show`` a frame, ``close``."""

    @property
    def name(self) -> str: ...

    @property
    def count(self) -> int: ...

    @property
    def closed(self) -> bool: ...

    def show(self, frame: bytes) -> None: ...

    def close(self) -> None: ...


def pixel(frame: bytes, index: int) -> Colour:
    """LED ``index`` of a frame as an (r, g, b) tuple (tests and the tablet use it)."""
    start = 3 * index
    return frame[start], frame[start + 1], frame[start + 2]


class StripBase:
    """Size checks and an idempotent, thread-safe ``close`` for the backends.

    Subclasses implement ``_show(frame)`` and ``_close()``; ``_close`` runs at
    most once, whoever calls ``close`` first.
    """

    name = "base"

    def __init__(self, count: int) -> None:
        self._count = count
        self._closed = False
        self._close_lock = threading.Lock()

    @property
    def count(self) -> int:
        return self._count

    @property
    def closed(self) -> bool:
        return self._closed

    def show(self, frame: bytes) -> None:
        if self._closed:
            raise LedError(f"the {self.name} strip is closed")
        if len(frame) != 3 * self._count:
            raise ValueError(f"a frame for {self._count} LEDs has {3 * self._count} bytes, not {len(frame)}")
        self._show(bytes(frame))

    def close(self) -> None:
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        self._close()

    def _show(self, frame: bytes) -> None:
        raise NotImplementedError

    def _close(self) -> None:
        """Nothing to release by default."""

    def __enter__(self) -> "StripBase":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class NoStrip(StripBase):
    """``backend = "none"``: the owner has no LEDs; frames go nowhere, on purpose."""

    name = "none"

    def _show(self, frame: bytes) -> None:
        pass


class DisabledStrip(StripBase):
    """Stands in for a strip that failed to start, carrying the reason.

    The game goes on without LEDs; the health view shows ``reason``. It never
    raises from ``show`` so the renderer needs no special case.
    """

    name = "disabled"

    def __init__(self, count: int, reason: str, backend: str = "") -> None:
        super().__init__(count)
        self.reason = reason
        self.backend = backend

    def show(self, frame: bytes) -> None:
        pass
