"""Errors the engine raises for input it refuses.

Every refusal is a ``ValueError`` subclass whose message says what was refused
and why, in words a player can read. A refused input never changes the game.
"""

from __future__ import annotations


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
