"""Errors the engine raises for input it refuses.

Every refusal is a ``ValueError`` subclass whose message says what was refused
and why, in words a player can read. A refused input never changes the game.
"""

from __future__ import annotations

from typing import Iterable


class Refusal(ValueError):
    """Something refused whole, with every problem found: ``problems`` lists them, one plain
    sentence each (a field and why), so a tablet can show them all and one edit can mend them
    all. Every refusal of data the players or the owner gave (a game data file, an LED layout,
    a backup, a calibration) is one, so callers catch one type and read one field."""

    def __init__(self, message: str, problems: Iterable[object] = ()) -> None:
        listed = tuple(dict.fromkeys(str(p) for p in problems))
        super().__init__(message)
        self.problems: tuple[str, ...] = listed or (message,)


def problems_of(refused: ValueError) -> list[str]:
    """Every problem a refusal names: a ``Refusal``'s list, or the one message of any other."""
    return list(refused.problems) if isinstance(refused, Refusal) else [str(refused)]


class IllegalInput(ValueError):
    """An answer or action that the rules (or the current prompt) do not allow."""


class NotOffered(IllegalInput):
    """A choice that the current prompt did not offer."""


class StaleInput(IllegalInput):
    """An input made against an older version of the game (another tablet moved first)."""

    def __init__(self, seen: int, current: int) -> None:
        super().__init__(
            f"this tablet saw version {seen} of the game but it is now at version {current}; "
            "refresh and try again"
        )
        self.seen = seen
        self.current = current


class GameOver(IllegalInput):
    """The game has ended; nothing more can be played."""


class SetupError(ValueError):
    """A setup or position description that cannot start a game."""
