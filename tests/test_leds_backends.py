"""The strip backends: the Pi 5 driver's exact bytes (a tmp file stands in for
/dev/leds0), the rpi_ws281x library's exact calls (a recording fake: a real
strip is never built off a Pi), the simulated strip, the factory's clear
refusals and the disabled strip, and close() twice everywhere."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from hardware.leds import LedConfig, LedConfigError, LedError, open_strip, start_strip
from hardware.leds.backends.pi5 import Pi5Strip, rgbw_bytes
from hardware.leds.backends.simulated import SimulatedStrip
from hardware.leds.backends.ws281x import Ws281xStrip, open_ws281x
from hardware.leds.config import max_fps
from hardware.leds.strip import DisabledStrip, NoStrip

PI4 = "Raspberry Pi 4 Model B Rev 1.5"
FRAME = bytes([1, 2, 3, 40, 50, 60, 255, 0, 128])


# -- Pi 5: /dev/leds0 -----------------------------------------------------------------------------

def test_pi5_writes_rgbw_four_bytes_per_led(tmp_path: Path) -> None:
    device = tmp_path / "leds0"
    device.write_bytes(b"")
    strip = open_strip(LedConfig(backend="pi5", count=3, device=str(device)))
    strip.show(FRAME)
    assert device.read_bytes() == bytes([1, 2, 3, 0, 40, 50, 60, 0, 255, 0, 128, 0])
    strip.show(bytes(reversed(FRAME)))
    assert device.read_bytes() == bytes([128, 0, 255, 0, 60, 50, 40, 0, 3, 2, 1, 0])  # whole buffer, offset 0


def test_pi5_goes_dark_on_close_and_close_twice_is_safe(tmp_path: Path) -> None:
    device = tmp_path / "leds0"
    device.write_bytes(b"")
    strip = Pi5Strip(3, str(device))
    strip.show(FRAME)
    strip.close()
    strip.close()
    assert device.read_bytes() == bytes(12)
    with pytest.raises(LedError, match="closed"):
        strip.show(FRAME)


def test_pi5_without_the_overlay_says_what_to_add(tmp_path: Path) -> None:
    with pytest.raises(LedError, match="dtoverlay=ws2812-pio"):
        open_strip(LedConfig(backend="pi5", count=3, device=str(tmp_path / "missing")))
    disabled = start_strip(LedConfig(backend="pi5", count=3, device=str(tmp_path / "missing")))
    assert isinstance(disabled, DisabledStrip) and "dtoverlay=ws2812-pio" in disabled.reason


def test_rgbw_layout_for_a_long_frame() -> None:
    frame = bytes(range(3 * 80))
    out = rgbw_bytes(frame)
    assert len(out) == 320 and out[4 * 79:] == bytes([237, 238, 239, 0])


# -- rpi_ws281x: the library's calls, recorded -------------------------------------------------------

class FakePixelStrip:
    """Records every call the backend makes on rpi_ws281x.PixelStrip."""

    def __init__(self, library: "FakeLibrary", *args: Any, **kwargs: Any) -> None:
        self.library = library
        library.calls.append(("PixelStrip", args, kwargs))

    def begin(self) -> None:
        self.library.calls.append(("begin",))
        if self.library.fail_begin:
            raise RuntimeError("ws2811_init failed with code -3 (Hardware revision is not supported)")

    def setPixelColor(self, index: int, colour: int) -> None:  # noqa: N802 - the library's name
        self.library.calls.append(("setPixelColor", index, colour))

    def show(self) -> None:
        self.library.calls.append(("show",))
        if self.library.fail_show:
            raise RuntimeError("ws2811_render failed with code -11")

    def _cleanup(self) -> None:
        self.library.calls.append(("_cleanup",))


class FakeLibrary(SimpleNamespace):
    WS2811_STRIP_GRB = 0x00081000
    WS2811_STRIP_RGB = 0x00100800

    def __init__(self, fail_begin: bool = False) -> None:
        super().__init__(calls=[], fail_begin=fail_begin, fail_show=False)
        self.PixelStrip = lambda *a, **k: FakePixelStrip(self, *a, **k)


def ws281x(library: FakeLibrary, tmp_path: Path, euid: int = 1000, **settings: Any) -> Ws281xStrip:
    bufsiz = tmp_path / "bufsiz"
    bufsiz.write_text("4096\n")
    config = LedConfig(backend="rpi_ws281x", count=3, **settings)
    return open_ws281x(config, library=library, model=PI4, euid=lambda: euid, bufsiz_file=bufsiz)


def test_ws281x_spi_builds_the_strip_with_the_expected_arguments(tmp_path: Path) -> None:
    library = FakeLibrary()
    ws281x(library, tmp_path)
    assert library.calls == [
        ("PixelStrip", (3, 10), {"freq_hz": 800_000, "dma": 10, "invert": False, "brightness": 255, "channel": 0,
                                 "strip_type": FakeLibrary.WS2811_STRIP_GRB}),
        ("begin",), ("show",),  # starts dark
    ]


def test_ws281x_sets_only_changed_pixels_then_shows(tmp_path: Path) -> None:
    library = FakeLibrary()
    strip = ws281x(library, tmp_path)
    library.calls.clear()
    strip.show(FRAME)
    assert library.calls == [("setPixelColor", 0, 0x010203), ("setPixelColor", 1, 0x28323C),
                             ("setPixelColor", 2, 0xFF0080), ("show",)]
    library.calls.clear()
    strip.show(bytes([1, 2, 3, 0, 0, 0, 255, 0, 128]))
    assert library.calls == [("setPixelColor", 1, 0), ("show",)]
    library.calls.clear()
    strip.show(bytes([1, 2, 3, 0, 0, 0, 255, 0, 128]))
    assert library.calls == []  # nothing changed, nothing sent


def test_ws281x_brightness_is_applied_before_the_library(tmp_path: Path) -> None:
    """The library's own brightness stays 255: our Output stage scales (and limits) the frame."""
    from hardware.leds.power import Output

    library = FakeLibrary()
    config = LedConfig(backend="rpi_ws281x", count=3, brightness=0.5)
    strip = ws281x(library, tmp_path, brightness=0.5)
    library.calls.clear()
    strip.show(Output(config).apply(bytes([200, 100, 0] * 3)).frame)
    assert library.calls[0] == ("setPixelColor", 0, (100 << 16) | (50 << 8))
    assert library.calls[0 + 3] == ("show",)


def test_ws281x_close_goes_dark_and_releases_once(tmp_path: Path) -> None:
    library = FakeLibrary()
    strip = ws281x(library, tmp_path)
    strip.show(FRAME)
    library.calls.clear()
    strip.close()
    strip.close()
    assert library.calls == [("setPixelColor", 0, 0), ("setPixelColor", 1, 0), ("setPixelColor", 2, 0), ("show",),
                             ("_cleanup",)]


def test_ws281x_pwm_needs_root_and_picks_the_channel(tmp_path: Path) -> None:
    with pytest.raises(LedError, match="root"):
        ws281x(FakeLibrary(), tmp_path, pin=18)
    library = FakeLibrary()
    ws281x(library, tmp_path, euid=0, pin=13)
    assert library.calls[0][1] == (3, 13) and library.calls[0][2]["channel"] == 1


def test_ws281x_refuses_the_pi5_and_non_pis_before_touching_the_library(tmp_path: Path) -> None:
    library = FakeLibrary()
    config = LedConfig(backend="rpi_ws281x", count=3)
    with pytest.raises(LedError, match="backend 'pi5'"):
        open_ws281x(config, library=library, model="Raspberry Pi 5 Model B Rev 1.0")
    with pytest.raises(LedError, match="only on a Raspberry Pi"):
        open_ws281x(config, library=library, model="")
    assert library.calls == []


def test_ws281x_a_small_spi_buffer_is_explained(tmp_path: Path) -> None:
    bufsiz = tmp_path / "bufsiz"
    bufsiz.write_text("4096")
    config = LedConfig(backend="rpi_ws281x", count=400)
    with pytest.raises(LedError, match="spidev.bufsiz=32768"):
        open_ws281x(config, library=FakeLibrary(), model=PI4, euid=lambda: 1000, bufsiz_file=bufsiz)


def test_ws281x_a_failed_begin_is_a_clear_error_and_drops_the_exit_hook(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    dropped: list[object] = []
    monkeypatch.setattr("atexit.unregister", dropped.append)
    with pytest.raises(LedError, match="could not start on GPIO 10.*Hardware revision"):
        ws281x(FakeLibrary(fail_begin=True), tmp_path)
    assert len(dropped) == 1


def test_ws281x_a_failing_show_raises_led_error(tmp_path: Path) -> None:
    library = FakeLibrary()
    strip = ws281x(library, tmp_path)
    library.fail_show = True
    with pytest.raises(LedError, match="ws2811_render"):
        strip.show(FRAME)


def test_ws281x_here_is_disabled_with_the_reason_and_never_imported() -> None:
    """This machine is not a Pi: the factory refuses before importing rpi_ws281x."""
    strip = start_strip(LedConfig(backend="rpi_ws281x", count=3))
    assert isinstance(strip, DisabledStrip) and "Raspberry Pi" in strip.reason
    assert "rpi_ws281x" not in sys.modules


# -- simulated, none, the factory -----------------------------------------------------------------------

def test_the_simulated_strip_keeps_the_last_frames_thread_safely() -> None:
    strip = SimulatedStrip(3, keep=50)
    heard: list[bytes] = []
    strip.subscribe(lambda shown: heard.append(shown.data))

    def write() -> None:
        for _ in range(100):
            strip.show(FRAME)

    writers = [threading.Thread(target=write) for _ in range(4)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    assert strip.shown == 400 and len(strip.frames()) == 50 and strip.last() == FRAME and len(heard) == 400


def test_a_frame_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ValueError, match="9 bytes"):
        SimulatedStrip(3).show(bytes(6))


def test_none_and_disabled_strips_take_frames_quietly() -> None:
    assert isinstance(open_strip(LedConfig(backend="none", count=3)), NoStrip)
    disabled = DisabledStrip(3, "why")
    disabled.show(FRAME)
    disabled.close()
    disabled.close()


def test_every_backend_closes_twice_safely(tmp_path: Path) -> None:
    device = tmp_path / "leds0"
    device.write_bytes(b"")
    strips = [open_strip(LedConfig(backend=name, count=3, device=str(device))) for name in ("simulated", "none", "pi5")]
    strips.append(ws281x(FakeLibrary(), tmp_path))
    for strip in strips:
        strip.close()
        strip.close()
        assert strip.closed


def test_an_unknown_backend_is_refused_by_name() -> None:
    with pytest.raises(LedConfigError, match="leds.backend: unknown backend 'neopixel'"):
        LedConfig(backend="neopixel")
    with pytest.raises(LedError, match="unknown LED backend 'simulated'"):
        open_strip(LedConfig(), backends={})


def test_a_backend_that_fails_to_start_gives_a_disabled_strip_with_the_reason() -> None:
    def broken(config: LedConfig) -> SimulatedStrip:
        raise OSError(19, "No such device")

    with pytest.raises(LedError, match="No such device"):
        open_strip(LedConfig(), backends={"simulated": broken})
    strip = start_strip(LedConfig(), backends={"simulated": broken})
    assert isinstance(strip, DisabledStrip) and "No such device" in strip.reason


# -- configuration ------------------------------------------------------------------------------

def test_the_configuration_names_the_field_and_why() -> None:
    with pytest.raises(LedConfigError, match="leds.pin: rpi_ws281x drives GPIO 10"):
        LedConfig(backend="rpi_ws281x", pin=11)
    with pytest.raises(LedConfigError, match="leds.brightness"):
        LedConfig(brightness=1.5)
    with pytest.raises(LedConfigError, match="leds.dma"):
        LedConfig(dma=5)
    with pytest.raises(LedConfigError, match="leds.pace"):
        LedConfig(pace=10)
    with pytest.raises(LedConfigError, match="leds.fps: must be from 1 to 107 for 300 LEDs"):
        LedConfig(count=300, fps=120)
    assert max_fps(300) == pytest.approx(107.5, abs=0.1)


def test_the_configuration_reads_a_toml_table() -> None:
    config = LedConfig.from_mapping({"backend": "pi5", "count": 127, "brightness": 1, "budget_ma": 2500})
    assert config.brightness == 1.0 and isinstance(config.brightness, float) and config.ma_per_channel == 20.0
    with pytest.raises(LedConfigError, match="leds.colour: unknown setting"):
        LedConfig.from_mapping({"colour": "red"})
    with pytest.raises(LedConfigError, match="leds.count: must be a whole number"):
        LedConfig.from_mapping({"count": "many"})
    with pytest.raises(LedConfigError, match="leds.count"):
        LedConfig.from_mapping({"count": True})
