"""Waiting for something another thread or process does: polled, with a bound,
never a bare sleep (a busy 2-core CI machine is slow, not wrong)."""

from __future__ import annotations

import time
from typing import Callable


def wait_for(condition: Callable[[], bool], timeout: float = 10.0, every: float = 0.005) -> bool:
    """True as soon as ``condition()`` is; its last answer after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(every)
    return condition()
