"""The LED board under the game board (issue 4), below the games: it imports
no pack; a pack hands it its board shape and its looks.

Pieces, from the hardware up:

* ``strip`` - the one strip interface (``show(frame)``, ``close()``), and the
  backends in ``backends/``: ``rpi_ws281x`` (Pi 4 / 3 / Zero 2 W; SPI on GPIO 10
  by default, PWM on GPIO 18 as an option), ``pi5`` (the kernel ws2812-pio
  driver, ``/dev/leds0``), ``simulated`` (frames kept in memory) and ``none``.
  Chosen by ``LedConfig.backend``, never guessed.
* ``board`` - ``BoardShape``: a pack's board as the LEDs see it (locations,
  connections, named tracks, mats, seats), given by the pack.
* ``layout`` - which LEDs sit under which location, connection, track step,
  mat and seat; the pack ships its default (``generate_layout`` writes one);
  ``calibration.leds`` makes the owner's own.
* ``looks``, ``cues`` and ``scene`` - what the pack hands over to light its
  game: a ``CueBook`` (effect kind -> animation) and a ``Scene`` of its public
  view (markers, track levels, mats, the active seat).
* ``render`` - effects and scenes into frames; ``palette`` the
  colour-blind-safe colours and rhythms; ``power`` brightness and the
  current limit.
* ``animator`` - the one thread, running only while something moves.
* ``wiring`` - ``start_leds`` and ``attach``: a board following a Table.

docs/leds.md covers wiring, config.txt per Pi model, the layout format and
calibration.
"""

from .backends import open_strip, start_strip
from .board import BoardShape, ShapeError
from .config import LedConfig, LedConfigError
from .cues import CueBook, Stage, Style, Timing
from .layout import Layout, LayoutError, default_layout, load_layout, parse_layout, shipped_layout
from .looks import PLAIN, Looks
from .power import Output, estimate_ma
from .render import Renderer
from .scene import LineLight, MatLight, Marker, Scene, TrackLevel
from .strip import DisabledStrip, LedError, NoStrip, Strip
from .wiring import LedBoard, attach, start_leds

__all__ = [
    "BoardShape", "CueBook", "DisabledStrip", "LedBoard", "LedConfig", "LedConfigError", "LedError", "Layout",
    "LayoutError", "LineLight", "Looks", "Marker", "MatLight", "NoStrip", "Output", "PLAIN", "Renderer", "Scene",
    "ShapeError",
    "Stage", "Strip", "Style", "Timing", "TrackLevel", "attach", "default_layout", "estimate_ma", "load_layout",
    "open_strip", "parse_layout", "shipped_layout", "start_leds", "start_strip",
]
