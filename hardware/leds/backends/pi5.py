"""Raspberry Pi 5: the kernel's ``ws2812-pio-rp1`` driver, through ``/dev/leds0``.

rpi_ws281x does not run on the Pi 5 (its released version refuses the board),
so the Pi 5 uses the official PIO driver enabled in ``/boot/firmware/config.txt``::

    dtoverlay=ws2812-pio,gpio=18,num_leds=127,brightness=255

Format (the driver's own description, raspberrypi/linux commit "misc: Add
ws2812-pio-rp1 driver", Phil Elwell, 2024-12, and its source
``drivers/misc/ws2812-pio-rp1.c``): each write carries **4 bytes per
LED in R, G, B, W order** (W is ignored unless the overlay says ``rgbw``); the
driver reorders to the strip's GRB on the wire. A write that fills the whole
buffer (``num_leds * 4`` bytes) goes out at once; a shorter one is delayed
50 ms and the rest is blanked; exactly 1 byte sets the driver's brightness.
So every frame here is one full-buffer write at offset 0, and ``count`` must
equal the overlay's ``num_leds``. Brightness and the power limit are applied
before the bytes are written, so the driver's brightness stays at 255.
(HyperHDR's driver writes 3 bytes per LED to the same node; we follow the
kernel driver's documentation.)
"""

from __future__ import annotations

import errno
import os

from ..config import LedConfig
from ..strip import LedError, StripBase

BYTES_PER_LED = 4


def rgbw_bytes(frame: bytes) -> bytes:
    """R G B frame to the driver's R G B W layout (W = 0), with C-speed slicing."""
    out = bytearray(len(frame) // 3 * BYTES_PER_LED)
    for channel in range(3):
        out[channel::BYTES_PER_LED] = frame[channel::3]
    return bytes(out)


class Pi5Strip(StripBase):
    name = "pi5"

    def __init__(self, count: int, device: str = "/dev/leds0") -> None:
        super().__init__(count)
        self.device = device
        self._fd = _open_device(device)
        self._seekable = True

    def _show(self, frame: bytes) -> None:
        data = rgbw_bytes(frame)
        try:
            written = self._write(data)
        except OSError as problem:
            raise LedError(f"writing a frame to {self.device} failed: {problem.strerror or problem}") from problem
        if written != len(data):
            raise LedError(f"{self.device} took {written} of {len(data)} bytes: is num_leds in config.txt {self.count}?")

    def _write(self, data: bytes) -> int:
        """Always at offset 0; a node that cannot seek gets a plain write instead."""
        if self._seekable:
            try:
                return os.pwrite(self._fd, data, 0)
            except OSError as problem:
                if problem.errno != errno.ESPIPE:
                    raise
                self._seekable = False
        return os.write(self._fd, data)

    def _close(self) -> None:
        try:
            self._write(bytes(BYTES_PER_LED * self.count))
        except OSError:
            pass  # going dark is best effort; the node may already be gone
        finally:
            os.close(self._fd)


def _open_device(device: str) -> int:
    try:
        return os.open(device, os.O_WRONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise LedError(f"{device} does not exist: add 'dtoverlay=ws2812-pio,gpio=18,num_leds=N,brightness=255' "
                       "to /boot/firmware/config.txt and reboot (Pi 5 only)") from None
    except PermissionError:
        raise LedError(f"no permission to write {device}: add the udev rule from docs/leds.md "
                       "(KERNEL==\"leds[0-9]*\", GROUP=\"gpio\", MODE=\"0660\") or run as root") from None
    except OSError as problem:
        raise LedError(f"cannot open {device}: {problem.strerror or problem}") from None


def open_pi5(config: LedConfig) -> Pi5Strip:
    return Pi5Strip(config.count, config.device)
