"""Raspberry Pi 4 / 3 / Zero 2 W through the rpi_ws281x library.

The library is imported here and nowhere else. Constructing a real strip off a
Pi is dangerous, not just useless: a failed ``begin()`` leaves an atexit hook
that segfaults the interpreter at exit, and ``setPixelColor`` before a good
``begin()`` segfaults at once (pi-stack.md section 1.1). So before touching the
library this backend checks, with clear errors:

* the board: ``/proc/device-tree/model`` must name a Raspberry Pi other than
  the Pi 5 (rpi_ws281x 5.0.0 refuses it; use the ``pi5`` backend);
* the pin mode: GPIO 10 is SPI (no root; the service needs the ``gpio`` and
  ``spi`` groups; the kernel's spidev buffer must hold ``12 * count + 25``
  bytes); 12/18/13/19 are PWM and 21 is PCM, which map /dev/mem and so need
  root, and PWM also fights the analog audio.

Brightness and the power limit are applied to the frame before it gets here,
so the library's own brightness stays at 255. Only the LEDs that changed since
the last frame are set (each ``setPixelColor`` is a Python call into C).
"""

from __future__ import annotations

import atexit
import importlib
import os
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from ..config import PCM_PIN, PWM_PINS, SPI_PIN, LedConfig
from ..strip import LedError, StripBase

MODEL_FILE = Path("/proc/device-tree/model")
SPIDEV_BUFSIZ = Path("/sys/module/spidev/parameters/bufsiz")
FREQ_HZ = 800_000
SPI_BYTES_PER_LED = 12  # rpi_ws281x: 3 SPI bits per LED bit, 4 colour slots
SPI_BYTES_EXTRA = 25


def read_model(path: Path = MODEL_FILE) -> str:
    try:
        return path.read_bytes().rstrip(b"\0").decode("ascii", "replace")
    except OSError:
        return ""


def check_board(model: str) -> None:
    if "Raspberry Pi" not in model:
        raise LedError(f"rpi_ws281x runs only on a Raspberry Pi (this is {model or 'not a Pi'}); "
                       "use backend 'simulated' here")
    if "Raspberry Pi 5" in model:
        raise LedError("rpi_ws281x does not support the Raspberry Pi 5: use backend 'pi5' "
                       "(the ws2812-pio overlay, see docs/leds.md)")


def check_pin_mode(config: LedConfig, euid: int) -> None:
    if config.pin != SPI_PIN and euid != 0:
        mode = "PCM" if config.pin == PCM_PIN else "PWM"
        raise LedError(f"GPIO {config.pin} uses {mode}, which needs root (/dev/mem); "
                       f"use GPIO {SPI_PIN} (SPI, no root) or run the service as root")


def check_spi_buffer(count: int, bufsiz_file: Path = SPIDEV_BUFSIZ) -> None:
    """The kernel's spidev default (4096 bytes) holds about 338 LEDs."""
    needed = SPI_BYTES_PER_LED * count + SPI_BYTES_EXTRA
    try:
        bufsiz = int(bufsiz_file.read_text().strip())
    except (OSError, ValueError):
        return  # not readable here: the library will say if the transfer fails
    if bufsiz < needed:
        raise LedError(f"{count} LEDs need an SPI buffer of {needed} bytes but spidev allows {bufsiz}: "
                       "add spidev.bufsiz=32768 to /boot/firmware/cmdline.txt and reboot")


def channel_for(pin: int) -> int:
    return PWM_PINS.get(pin, 0)


def colour_int(frame: bytes, index: int) -> int:
    """The library's colour layout: (w << 24) | (r << 16) | (g << 8) | b, w = 0."""
    start = 3 * index
    return (frame[start] << 16) | (frame[start + 1] << 8) | frame[start + 2]


class Ws281xStrip(StripBase):
    name = "rpi_ws281x"

    def __init__(self, config: LedConfig, library: ModuleType | Any) -> None:
        super().__init__(config.count)
        self._lib = library
        self._pixels = _begin(config, library)
        self._last = bytes(3 * config.count)
        self._pixels.show()  # start dark: the strip may hold the last run's colours

    def _show(self, frame: bytes) -> None:
        try:
            changed = _set_changed(self._pixels, self._last, frame)
            if changed:
                self._pixels.show()
        except RuntimeError as problem:
            raise LedError(f"rpi_ws281x failed to show a frame: {problem}") from problem
        self._last = frame

    def _close(self) -> None:
        """Go dark, then release the DMA channel now rather than at exit."""
        try:
            if _set_changed(self._pixels, self._last, bytes(len(self._last))):
                self._pixels.show()
        except RuntimeError:
            pass
        cleanup = getattr(self._pixels, "_cleanup", None)
        if callable(cleanup):
            cleanup()


def _set_changed(pixels: Any, last: bytes, frame: bytes) -> int:
    changed = 0
    for index in range(len(frame) // 3):
        start = 3 * index
        if frame[start:start + 3] != last[start:start + 3]:
            pixels.setPixelColor(index, colour_int(frame, index))
            changed += 1
    return changed


def _begin(config: LedConfig, library: Any) -> Any:
    strip_type = getattr(library, f"WS2811_STRIP_{config.order}")
    pixels = library.PixelStrip(config.count, config.pin, freq_hz=FREQ_HZ, dma=config.dma, invert=False,
                                brightness=255, channel=channel_for(config.pin), strip_type=strip_type)
    try:
        pixels.begin()
    except RuntimeError as problem:
        _forget_atexit(pixels)
        raise LedError(f"rpi_ws281x could not start on GPIO {config.pin}: {problem}") from problem
    return pixels


def _forget_atexit(pixels: Any) -> None:
    """A failed begin() leaves ws2811_fini for exit time, which segfaults: drop it."""
    cleanup = getattr(pixels, "_cleanup", None)
    if cleanup is not None:
        atexit.unregister(cleanup)


def open_ws281x(config: LedConfig, *, library: Any = None, model: str | None = None,
                euid: Callable[[], int] = os.geteuid, bufsiz_file: Path = SPIDEV_BUFSIZ) -> Ws281xStrip:
    """All checks first; the library is imported only once they pass."""
    check_board(read_model() if model is None else model)
    check_pin_mode(config, euid())
    if config.pin == SPI_PIN:
        check_spi_buffer(config.count, bufsiz_file)
    return Ws281xStrip(config, library if library is not None else _import_library())


def _import_library() -> ModuleType:
    try:
        return importlib.import_module("rpi_ws281x")
    except ImportError:
        raise LedError("the rpi_ws281x library is not installed: "
                       "pip install 'table-companion[leds]' (it compiles; needs gcc and python3-dev)") from None
