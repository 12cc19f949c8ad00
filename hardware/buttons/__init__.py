"""The box's buttons (issue 6): NEXT, UNDO (held), PAIR and a status LED.

* ``config`` - ``ButtonConfig``, the ``[buttons]`` table: BCM pins, hold time,
  debounce; every problem listed at once.
* ``control`` - the ``TableControl`` protocol (``next``, ``undo``,
  ``pair_pressed``) the table side implements, and the ``Outcome`` of a press.
* ``panel`` - ``ButtonPanel``: the gpiozero devices (imported only there, pin
  factory pluggable), a queue and one worker thread handing presses to the
  control in order.
* ``light`` - ``StatusLight``: lit while running, blinks to answer a press.

docs/install.md shows the wiring and the configuration.
"""

from .config import ButtonConfig
from .control import BUTTONS, Outcome, TableControl
from .light import StatusLight
from .panel import ButtonHealth, ButtonPanel

__all__ = ["BUTTONS", "ButtonConfig", "ButtonHealth", "ButtonPanel", "Outcome", "StatusLight", "TableControl"]
