"""Backends by name, and the two ways to open one.

``open_strip`` raises ``LedError`` with the reason (for a setup check or a
command line that should fail loudly). ``start_strip`` never raises: a backend
that cannot start becomes a ``DisabledStrip`` carrying the reason, logged,
so the game goes on without LEDs. Neither guesses: the backend is what the
configuration says, and each backend module is imported only when chosen.
"""

from __future__ import annotations

import logging
from typing import Callable

from ...backends import open_backend
from ..config import BACKEND_NAMES, LedConfig
from ..strip import DisabledStrip, LedError, NoStrip, Strip

log = logging.getLogger(__name__)
Opener = Callable[[LedConfig], Strip]


def _simulated(config: LedConfig) -> Strip:
    from .simulated import SimulatedStrip

    return SimulatedStrip(config.count)


def _ws281x(config: LedConfig) -> Strip:
    from .ws281x import open_ws281x

    return open_ws281x(config)


def _pi5(config: LedConfig) -> Strip:
    from .pi5 import open_pi5

    return open_pi5(config)


def _none(config: LedConfig) -> Strip:
    return NoStrip(config.count)


BACKENDS: dict[str, Opener] = {"simulated": _simulated, "rpi_ws281x": _ws281x, "pi5": _pi5, "none": _none}
assert set(BACKENDS) == set(BACKEND_NAMES)


def open_strip(config: LedConfig, backends: dict[str, Opener] | None = None) -> Strip:
    """The configured strip, or ``LedError`` saying why it cannot start."""
    return open_backend(config, BACKENDS if backends is None else backends, LedError, "LED")


def start_strip(config: LedConfig, backends: dict[str, Opener] | None = None) -> Strip:
    """Like ``open_strip`` but a failure gives a ``DisabledStrip`` with the reason."""
    try:
        return open_strip(config, backends)
    except LedError as problem:
        log.error("LEDs disabled: %s", problem)
        return DisabledStrip(config.count, str(problem), config.backend)
