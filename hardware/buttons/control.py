"""What a button press asks of the game, as a protocol the table side implements.

Why a protocol: the buttons are hardware (gpiozero, pins, bounce); what NEXT
means for a game is the table's business (companion.appliance.controls). The
panel only hands each press to a ``TableControl`` and shows the ``Outcome`` on
the status LED: a short blink when it was done, a quick triple blink when it
was refused (a dice roll NEXT must not guess, nothing to undo, no tablet
waiting to pair).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

BUTTONS = ("next", "undo", "pair")


@dataclass(frozen=True)
class Outcome:
    """``done``: the press changed something; ``why``: plain words for the log and health view."""

    done: bool
    why: str = ""


class TableControl(Protocol):
    """The table's single writer, as the buttons see it. Called from the panel's
    worker thread, one press at a time."""

    def next(self) -> Outcome:
        """Accept the current prompt's default answer, if it has one."""
        ...

    def undo(self) -> Outcome:
        """Take back the last input."""
        ...

    def pair_pressed(self, at: float | None = None) -> Outcome:
        """The link button: pair the tablet that asked in the last seconds before ``at``
        (``time.monotonic()`` when the button went down; None: now)."""
        ...
