"""What a device needs of the game it follows: the table's side of the seam.

Why a protocol here rather than ``companion.table.Table``: the hardware sits
below the games and the table (docs/engine.md, "Layers"), so it names only
what it uses. ``companion.table.Table`` is one; a test's stand-in is another.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Protocol

#: Called after every change with the table and its view (inside the table's lock: take notes, never wait).
Listener = Callable[[Any, dict[str, object]], None]


class FollowedTable(Protocol):
    """One game at the table. ``act`` raises ``ValueError`` (the table's refusal) when it
    does not take an input: a stale version, an answer the rules refuse."""

    @property
    def game_id(self) -> str:
        ...

    def subscribe(self, listener: Listener) -> None:
        ...

    def view(self) -> dict[str, object]:
        ...

    def box_view(self) -> dict[str, object]:
        """The view as the box's own camera and buttons may answer it: every question for everyone's
        eyes whole, whichever seat's it is (a seat's phone may hold it; the dice in the tray are real)."""
        ...

    def act(self, entry: Mapping[str, object], version: int, seat: str | None = None,
            physical: bool = False) -> dict[str, object]:
        """``physical``: the input is what the box's own camera or button read off the table (answers
        any question for everyone's eyes, whoever's it is)."""
        ...
