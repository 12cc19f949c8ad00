"""The LED board under the game board (issue 4).

Pieces, from the hardware up:

* ``strip`` - the one strip interface (``show(frame)``, ``close()``), and the
  backends in ``backends/``: ``rpi_ws281x`` (Pi 4 / 3 / Zero 2 W; SPI on GPIO 10
  by default, PWM on GPIO 18 as an option), ``pi5`` (the kernel ws2812-pio
  driver, ``/dev/leds0``), ``simulated`` (frames kept in memory) and ``none``.
  Chosen by ``LedConfig.backend``, never guessed.
* ``layout`` - which LEDs sit under which location, connection, Terror step,
  mat and seat; ``layouts/ravenloft.json`` is the default, made by
  ``generate_layout``; ``calibration.leds`` makes the owner's own.
* ``render`` and ``cues`` - engine effects and state into frames; ``palette``
  the colour-blind-safe colours and per-monster rhythms; ``power`` brightness
  and the current limit.
* ``animator`` - the one thread, running only while something moves.
* ``wiring`` - ``start_leds`` and ``attach``: a board following a Table.

docs/leds.md covers wiring, config.txt per Pi model, the layout format and
calibration.
"""

from .backends import open_strip, start_strip
from .board import BoardShape, ravenloft_shape, shape_from_pack
from .config import LedConfig, LedConfigError
from .cues import Style, Timing
from .layout import Layout, LayoutError, load_layout, parse_layout, shipped_layout
from .power import Output, estimate_ma
from .render import Renderer
from .strip import DisabledStrip, LedError, NoStrip, Strip
from .wiring import LedBoard, attach, start_leds

__all__ = [
    "BoardShape", "DisabledStrip", "LedBoard", "LedConfig", "LedConfigError", "LedError", "Layout", "LayoutError",
    "NoStrip", "Output", "Renderer", "Strip", "Style", "Timing", "attach", "estimate_ma", "load_layout", "open_strip",
    "parse_layout", "ravenloft_shape", "shape_from_pack", "shipped_layout", "start_leds", "start_strip",
]
