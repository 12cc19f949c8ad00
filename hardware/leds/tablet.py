"""What the tablet needs to draw the LEDs over the board.

``overlay(board)`` is sent once (on join): every LED's position on the board
picture and its role. ``TabletFeed`` then forwards frames as the LEDs change,
at most ``max_fps`` a second (a tablet does not need 30 updates a second) but
always the final still frame, so the overlay never stays on a half-played
animation.

The frames sent are the renderer's *scene* frames, full colour before
brightness and the power limit: the tablet shows what the LEDs mean, legibly,
whatever the brightness; with real LEDs it mirrors them, which helps when a
figure stands on one (the "virtual LEDs" lesson from chess e-boards).
"""

from __future__ import annotations

import base64
import threading
import time
from typing import Callable

from .board import BoardShape
from .layout import Layout
from .positions import led_positions

Send = Callable[[dict[str, object]], None]


def overlay(layout: Layout, shape: BoardShape) -> dict[str, object]:
    return {"board": layout.board, "count": layout.count,
            "positions": [p.to_plain() for p in led_positions(layout, shape)]}


def frame_payload(frame: bytes, at: float) -> dict[str, object]:
    """``frame``: base64 of R G B bytes, LED 0 first (381 bytes -> 508 characters for 127 LEDs)."""
    return {"frame": base64.b64encode(frame).decode("ascii"), "count": len(frame) // 3, "at": round(at, 3)}


class TabletFeed:
    def __init__(self, send: Send, max_fps: float = 15.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.send = send
        self.period = 1.0 / max_fps
        self.clock = clock
        self._lock = threading.Lock()
        self._last_sent = float("-inf")
        self._pending: bytes | None = None

    def shown(self, frame: bytes, now: float) -> None:
        with self._lock:
            due = now - self._last_sent >= self.period
            if due:
                self._last_sent, self._pending = now, None
            else:
                self._pending = frame
        if due:
            self.send(frame_payload(frame, now))

    def idle(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, None
        if pending is not None:
            self.send(frame_payload(pending, self.clock()))
