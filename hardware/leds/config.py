"""The LED board's configuration: one small frozen record, checked on creation.

Why a record of its own: the backend, the pin and the power budget decide
whether the strip lights safely, so a wrong value must be refused with the
field and the reason before anything touches the hardware, not discovered as
a flicker or a brown-out at the table. ``from_mapping`` reads the ``[leds]``
table of the companion's TOML configuration.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

BACKEND_NAMES = ("simulated", "rpi_ws281x", "pi5", "none")
#: rpi_ws281x data pins: SPI0 MOSI, PWM0 (12, 18), PWM1 (13, 19), PCM (21).
SPI_PIN = 10
PWM_PINS = {12: 0, 18: 0, 13: 1, 19: 1}
PCM_PIN = 21
WS281X_PINS = (SPI_PIN, PCM_PIN, *PWM_PINS)
STRIP_ORDERS = ("GRB", "RGB", "RBG", "GBR", "BRG", "BGR")
#: WS2812B wire time: 24 bits of 1.25 us per LED, then the reset the library waits.
WIRE_US_PER_LED = 30.0
RESET_US = 300.0


class LedConfigError(ValueError):
    """A configuration value the LED board refuses, naming the field."""

    def __init__(self, field: str, why: str) -> None:
        super().__init__(f"leds.{field}: {why}")
        self.field = field
        self.why = why


def max_fps(count: int) -> float:
    """The fastest frame rate the wire allows for ``count`` LEDs (about 107 fps for 300)."""
    return 1_000_000.0 / (WIRE_US_PER_LED * count + RESET_US)


@dataclass(frozen=True)
class LedConfig:
    """What the LED board is and how hard it may drive the LEDs.

    ``pin`` matters to rpi_ws281x only (10 = SPI, no root; 18 = PWM, root and no
    analog audio); the Pi 5 pin is set in config.txt by the ``ws2812-pio``
    overlay, and ``device`` names the node it creates. ``brightness`` scales
    every frame; ``budget_ma`` caps the estimated LED current, with
    ``ma_per_led`` the draw of one LED at full white (WS2812B: about 60 mA).
    ``pace`` stretches every animation (2 = twice as slow, a "steady" setting for
    players who find the trails too quick). ``board`` names the game whose board
    the LEDs lie under (a game pack's id; empty: the box's first game); the LED
    layer does not read it, the service does.
    """

    backend: str = "simulated"
    count: int = 127
    pin: int = SPI_PIN
    dma: int = 10
    order: str = "GRB"
    device: str = "/dev/leds0"
    brightness: float = 0.5
    budget_ma: float = 2000.0
    ma_per_led: float = 60.0
    fps: float = 30.0
    pace: float = 1.0
    board: str = ""

    def __post_init__(self) -> None:
        for check in (_check_backend, _check_count, _check_pin, _check_dma, _check_order,
                      _check_levels, _check_fps, _check_pace):
            check(self)

    @property
    def ma_per_channel(self) -> float:
        """One colour channel at 255: a third of full white."""
        return self.ma_per_led / 3.0

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> "LedConfig":
        """Build from a TOML/JSON table; unknown keys and wrong types are refused."""
        known = {f.name: f for f in fields(cls)}
        for key in data:
            if key not in known:
                raise LedConfigError(str(key), f"unknown setting (known: {', '.join(known)})")
        values: dict[str, Any] = {key: _typed(key, value, type(getattr(cls, key))) for key, value in data.items()}
        return cls(**values)


_NOUNS = {int: "a whole number", float: "a number", str: "a text"}


def _typed(key: str, value: object, wanted: type) -> object:
    """TOML gives ints where floats are meant (brightness = 1); bools are never numbers."""
    if wanted is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, bool) or not isinstance(value, wanted):
        raise LedConfigError(key, f"must be {_NOUNS[wanted]}, got {value!r}")
    return value


def _check_backend(config: LedConfig) -> None:
    if config.backend not in BACKEND_NAMES:
        raise LedConfigError("backend", f"unknown backend {config.backend!r} (choose one of {', '.join(BACKEND_NAMES)})")


def _check_count(config: LedConfig) -> None:
    if isinstance(config.count, bool) or not isinstance(config.count, int) or not 1 <= config.count <= 2700:
        raise LedConfigError("count", f"must be a whole number from 1 to 2700, got {config.count!r}")


def _check_pin(config: LedConfig) -> None:
    if config.backend == "rpi_ws281x" and config.pin not in WS281X_PINS:
        raise LedConfigError("pin", f"rpi_ws281x drives GPIO 10 (SPI), 12/18/13/19 (PWM) or 21 (PCM), not {config.pin!r}")


def _check_dma(config: LedConfig) -> None:
    if config.dma == 5 or not 0 <= config.dma <= 14:
        raise LedConfigError("dma", "use DMA channel 10 (channel 5 corrupts the SD card on current Pi OS)")


def _check_order(config: LedConfig) -> None:
    if config.order not in STRIP_ORDERS:
        raise LedConfigError("order", f"colour order must be one of {', '.join(STRIP_ORDERS)}")


def _check_levels(config: LedConfig) -> None:
    if not 0.0 <= config.brightness <= 1.0:
        raise LedConfigError("brightness", f"must be from 0 to 1, got {config.brightness!r}")
    if not config.budget_ma > 0:
        raise LedConfigError("budget_ma", f"must be above 0 mA, got {config.budget_ma!r}")
    if not 0 < config.ma_per_led <= 200:
        raise LedConfigError("ma_per_led", f"must be above 0 and at most 200 mA, got {config.ma_per_led!r}")


def _check_pace(config: LedConfig) -> None:
    if not 0.25 <= config.pace <= 4.0:
        raise LedConfigError("pace", f"must be from 0.25 (fast) to 4 (slow), got {config.pace!r}")


def _check_fps(config: LedConfig) -> None:
    ceiling = max_fps(config.count)
    if not 1 <= config.fps <= ceiling:
        raise LedConfigError("fps", f"must be from 1 to {int(ceiling)} for {config.count} LEDs "
                                    f"(the wire needs {WIRE_US_PER_LED:g} us per LED), got {config.fps!r}")
