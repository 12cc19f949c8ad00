"""Brightness and a current limit, like WLED's automatic brightness limiter.

Why: a board full of white LEDs at full brightness draws 60 mA each; 127 LEDs
is 7.6 A, far beyond a Pi's supply and enough to brown it out mid-game. Every
frame's current is estimated from its channel values (each channel at 255
draws ``ma_per_led / 3``) and, if over the budget, the whole frame is dimmed
evenly so the colours keep their balance.

The estimate covers the light, not the chips' quiescent draw (about 1 mA per
LED): size the supply for budget + count * 1 mA (docs/leds.md).

Scaling is ``bytes.translate`` with a 256-entry table, done in C, and rounds
down so the dimmed frame can never estimate above the budget.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache

from .config import LedConfig


def estimate_ma(frame: bytes, ma_per_channel: float) -> float:
    """Estimated current of a frame's light: every channel's level, summed."""
    return sum(frame) * ma_per_channel / 255.0


def scale_table(factor: float) -> bytes:
    """Level v becomes floor(v * factor), never above v. The factor is rounded
    *down* to 1/4096 so tables can be cached and the limit still holds."""
    return _table(int(min(1.0, max(0.0, factor)) * STEPS))


STEPS = 4096


@lru_cache(maxsize=512)
def _table(steps: int) -> bytes:
    return bytes(level * steps // STEPS for level in range(256))


def dim(frame: bytes, factor: float) -> bytes:
    return frame if factor >= 1.0 else frame.translate(scale_table(factor))


@dataclass(frozen=True)
class Limited:
    """A frame ready for the wire, with its estimate and the limiter's extra dimming."""

    frame: bytes
    ma: float
    limit_factor: float


class Output:
    """Brightness then the limiter, for one strip; brightness can change at run time."""

    def __init__(self, config: LedConfig) -> None:
        self.budget_ma = config.budget_ma
        self.ma_per_channel = config.ma_per_channel
        self._lock = threading.Lock()
        self._brightness = -1.0
        self._table = b""
        self.brightness = config.brightness

    @property
    def brightness(self) -> float:
        return self._brightness

    @brightness.setter
    def brightness(self, value: float) -> None:
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"brightness must be from 0 to 1, got {value!r}")
        with self._lock:
            self._brightness, self._table = value, scale_table(value)

    def apply(self, frame: bytes) -> Limited:
        with self._lock:
            table = self._table
        shown = frame.translate(table)
        ma = estimate_ma(shown, self.ma_per_channel)
        if ma <= self.budget_ma:
            return Limited(shown, ma, 1.0)
        factor = self.budget_ma / ma * (1.0 - 1e-9)  # float rounding must not tip it over
        limited = dim(shown, factor)
        return Limited(limited, estimate_ma(limited, self.ma_per_channel), factor)
