"""The status LED: lit while the service runs, blinking to answer a press.

Why blink patterns and not just on/off: the box has no screen, and a press
that does nothing looks like a broken button. One short dip says "done", three
quick ones say "refused" (the tablet says why), a slow blink says "a tablet is
waiting for PAIR". Patterns run on the light's own thread (with a stop event),
so a press is answered at once and the button worker never sleeps.
"""

from __future__ import annotations

import threading
from typing import Any

Steps = list[tuple[bool, float]]
ACK: Steps = [(False, 0.08), (True, 0.0)]
REFUSE: Steps = [(False, 0.12), (True, 0.12)] * 3
WAIT_STEP: Steps = [(False, 0.5), (True, 0.5)]


class StatusLight:
    """A gpiozero ``LED`` (or None: no light wired, every call is a no-op)."""

    def __init__(self, led: Any | None) -> None:
        self._led = led
        self._base = False
        self._steps: Steps = []
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if led is not None:
            self._thread = threading.Thread(target=self._run, name="status-light", daemon=True)
            self._thread.start()

    @property
    def wired(self) -> bool:
        return self._led is not None

    def steady(self, on: bool) -> None:
        """The resting state (on: running); ends any pattern."""
        with self._cond:
            self._base, self._steps = on, []
            self._cond.notify_all()

    def ack(self) -> None:
        self._play(ACK)

    def refuse(self) -> None:
        self._play(REFUSE)

    def waiting(self, seconds: float) -> None:
        """Blink slowly for ``seconds`` (a pairing window), or until the next pattern."""
        self._play(WAIT_STEP * max(1, int(seconds)))

    def _play(self, steps: Steps) -> None:
        with self._cond:
            self._steps = list(steps)
            self._cond.notify_all()

    def _run(self) -> None:
        with self._cond:
            while not self._stop.is_set():
                if self._steps:
                    state, seconds = self._steps.pop(0)
                    self._write(state)
                    self._cond.wait(seconds)
                else:
                    self._write(self._base)
                    self._cond.wait()

    def _write(self, on: bool) -> None:
        assert self._led is not None
        if bool(self._led.is_lit) == on:
            return
        if on:
            self._led.on()
        else:
            self._led.off()

    def close(self) -> None:
        """Stop the thread, switch the LED off and release its pin; safe to call twice."""
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=2)
        led, self._led = self._led, None
        if led is not None:
            led.off()
            led.close()
