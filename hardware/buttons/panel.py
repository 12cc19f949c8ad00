"""The box's buttons with gpiozero: NEXT, UNDO (held), PAIR, and the status LED.

Why a queue and a worker: gpiozero calls ``when_pressed`` on its own threads
(lgpio's callback thread, the hold thread), and a press leads to a write to
the SQLite journal and a push to every tablet. So the callbacks only queue the
press; one worker thread (with a stop event) hands presses to the
``TableControl`` in order, and the status LED answers each one.

UNDO acts only when held ``hold_seconds`` (a brush against it does nothing);
NEXT and PAIR act on the press. gpiozero is imported only in ``start()``: a
box whose buttons cannot start (no gpiozero, not a Pi, a pin taken) reports
why in its health and the game goes on from the tablets. The pin factory is
pluggable (``pin_factory=``): the tests use gpiozero's MockFactory.
"""

from __future__ import annotations

import importlib
import logging
import queue
import threading
import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable

from .config import ButtonConfig
from .control import BUTTONS, Outcome, TableControl
from .light import StatusLight

log = logging.getLogger(__name__)


@dataclass
class ButtonHealth:
    """For the health view: ``state`` is ``ok``, ``off`` (none wired), ``disabled``
    (could not start: ``reason`` says why) or ``stopped``."""

    state: str = "off"
    reason: str = ""
    pins: dict[str, int] = field(default_factory=dict)
    presses: int = 0
    last: dict[str, object] = field(default_factory=dict)

    def to_plain(self) -> dict[str, object]:
        return {"state": self.state, "reason": self.reason, "pins": dict(self.pins), "presses": self.presses,
                "last": dict(self.last)}


class ButtonPanel:
    """The buttons of one box. ``start()`` makes the devices; ``close()`` releases them."""

    def __init__(self, config: ButtonConfig, control: TableControl, pin_factory: object | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.config = config
        self.control = control
        self.pin_factory = pin_factory
        self.clock = clock
        self.health = ButtonHealth(pins=config.pins())
        self.light = StatusLight(None)
        self._devices: list[Any] = []
        self._queue: queue.Queue[tuple[str, float] | None] = queue.Queue()
        self._stop = threading.Event()
        self._worker: threading.Thread | None = None

    # -- starting ---------------------------------------------------------------------
    def start(self) -> "ButtonPanel":
        if not self.config.any_wired:
            return self
        try:
            self._make_devices(self._gpiozero())
        except Exception as problem:  # not a Pi, no gpiozero, a pin in use: the tablets still work
            self._disable(problem)
            return self
        self._worker = threading.Thread(target=self._work, name="buttons", daemon=True)
        self._worker.start()
        self.health.state = "ok"
        self.light.steady(True)
        return self

    def _gpiozero(self) -> Any:
        try:
            return importlib.import_module("gpiozero")
        except ImportError:
            raise RuntimeError("gpiozero is not installed (pip install 'table-companion[appliance]', "
                               "or apt install python3-gpiozero)") from None

    def _make_devices(self, gpiozero: Any) -> None:
        """Devices are made with warnings caught: off a Pi gpiozero warns for every
        pin library it cannot load before it gives up, and the reason is enough."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self._make_buttons(gpiozero)
            if self.config.status_led_pin is not None:
                self.light = StatusLight(self._device(gpiozero.LED, self.config.status_led_pin))

    def _make_buttons(self, gpiozero: Any) -> None:
        actions: dict[str, tuple[int | None, str]] = {
            "next": (self.config.next_pin, "when_pressed"), "undo": (self.config.undo_pin, "when_held"),
            "pair": (self.config.pair_pin, "when_pressed")}
        for name, (pin, event) in actions.items():
            if pin is not None:
                button = self._device(gpiozero.Button, pin, pull_up=True, hold_time=self.config.hold_seconds,
                                      bounce_time=self.config.bounce_ms / 1000 or None)
                setattr(button, event, self._presser(name))

    def _device(self, kind: Any, pin: int, **options: object) -> Any:
        device = kind(pin, pin_factory=self.pin_factory, **options)
        self._devices.append(device)
        return device

    def _presser(self, name: str) -> Callable[[], None]:
        return lambda: self.press(name)

    def _disable(self, problem: Exception) -> None:
        self._close_devices()
        self.health.state = "disabled"
        self.health.reason = f"the buttons could not start: {type(problem).__name__}: {problem}"
        log.warning("%s", self.health.reason)

    # -- presses ----------------------------------------------------------------------
    def press(self, name: str) -> None:
        """A press (from a gpiozero callback, or a test); handled on the worker thread, with the
        moment it happened (PAIR pairs only a tablet that asked before the press)."""
        if name not in BUTTONS:
            raise ValueError(f"no button called {name!r} (buttons: {', '.join(BUTTONS)})")
        if not self._stop.is_set():
            self._queue.put((name, time.monotonic()))

    def settle(self, timeout: float = 5.0) -> bool:
        """Wait until every queued press is handled (tests, shutdown); False on timeout."""
        deadline = time.monotonic() + timeout
        with self._queue.all_tasks_done:
            while self._queue.unfinished_tasks:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._queue.all_tasks_done.wait(left)
        return True

    def _work(self) -> None:
        while True:
            press = self._queue.get()
            try:
                if press is None:
                    return
                self._handle(*press)
            finally:
                self._queue.task_done()

    def _handle(self, name: str, at: float) -> None:
        outcome = self._ask(name, at)
        self.health.presses += 1
        self.health.last = {"button": name, "done": outcome.done, "why": outcome.why, "at": self.clock()}
        if outcome.done:
            self.light.ack()
        else:
            self.light.refuse()
        log.info("button %s: %s (%s)", name.upper(), "done" if outcome.done else "refused", outcome.why)

    def _ask(self, name: str, at: float) -> Outcome:
        """The control's answer; a failure inside it is a refusal, never a dead worker."""
        action: Callable[[], Outcome] = {"next": self.control.next, "undo": self.control.undo,
                                          "pair": lambda: self.control.pair_pressed(at)}[name]
        try:
            return action()
        except Exception as problem:
            log.exception("the %s button's action failed", name.upper())
            return Outcome(False, f"failed: {problem}")

    # -- stopping ---------------------------------------------------------------------
    def close(self) -> None:
        """Stop the worker (after the presses already queued), release every pin;
        safe to call twice."""
        self._stop.set()
        worker, self._worker = self._worker, None
        if worker is not None:
            self._queue.put(None)
            worker.join(timeout=5)
        self._close_devices()
        if self.health.state == "ok":
            self.health.state = "stopped"

    def _close_devices(self) -> None:
        self.light.close()
        devices, self._devices = self._devices, []
        for device in devices:
            device.close()
