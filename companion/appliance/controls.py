"""What the box's buttons do to the game on the table: ``hardware.buttons.TableControl``.

Why here: the panel knows pins, this knows games. Every press goes through
the game's ``Table`` (the single writer, one change at a time, on disk before
anyone is told), exactly like a tablet's tap, so the tablets see a button's
change as they see each other's.

* NEXT answers the current prompt with the game's default (its pack says which
  prompts have one: ``GamePack.next_answer``); with none, it changes nothing
  and says why.
* UNDO takes back one input.
* PAIR pairs the tablet that asked in the last 30 s (``pairing.Pairing``) and
  hands its token to ``on_paired`` (the server sends it to that tablet only).

Which game: the one a tablet last opened or changed (``CurrentGame``). The
version is read before the prompt, so a change in between makes the table
refuse the press as stale rather than answer a question nobody saw.
"""

from __future__ import annotations

import threading
from typing import Callable, Mapping

from companion.table import Table, TableError, Tables
from hardware.buttons.control import Outcome

from .pairing import Grant, Pairing, PairingRefused


class CurrentGame:
    """The game the buttons act on: the last one a tablet opened or changed."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self._game_id: str | None = None
        self._lock = threading.Lock()

    def remember(self, game_id: str) -> None:
        with self._lock:
            self._game_id = game_id

    def forget(self, game_id: str) -> None:
        """An archived or deleted game is no longer on the table."""
        with self._lock:
            if self._game_id == game_id:
                self._game_id = None

    def __call__(self) -> Table | None:
        with self._lock:
            game_id = self._game_id
        if game_id is None:
            return None
        try:
            return self.tables.get(game_id)
        except TableError:
            return None


class BoxControls:
    """``TableControl`` over the current game and the pairing desk."""

    def __init__(self, current: Callable[[], Table | None], pairing: Pairing | None = None,
                 on_paired: Callable[[Grant], None] | None = None) -> None:
        self.current = current
        self.pairing = pairing
        self.on_paired = on_paired

    def next(self) -> Outcome:
        table = self.current()
        if table is None:
            return Outcome(False, "no game is open on a tablet")
        version = table.version  # first: a change after this makes the act stale, not wrong
        prompt = table.game.prompt
        suggestion = table.kind.next_answer(prompt)
        if prompt is None or not suggestion.given:
            return Outcome(False, suggestion.why)
        return self._act(table, {"key": prompt.key, "answer": suggestion.answer}, version, suggestion.why)

    def _act(self, table: Table, entry: Mapping[str, object], version: int, why: str) -> Outcome:
        try:
            table.act(entry, version)
        except TableError as refused:
            return Outcome(False, f"refused ({refused.code}): {refused}")
        return Outcome(True, why)

    def undo(self) -> Outcome:
        table = self.current()
        if table is None:
            return Outcome(False, "no game is open on a tablet")
        try:
            table.undo(1, table.version)
        except TableError as refused:
            return Outcome(False, f"refused ({refused.code}): {refused}")
        return Outcome(True, "took back the last step")

    def pair_pressed(self) -> Outcome:
        if self.pairing is None:
            return Outcome(False, "pairing is not running")
        try:
            grant = self.pairing.button_pressed()
        except PairingRefused as refused:
            return Outcome(False, str(refused))
        if self.on_paired is not None:
            self.on_paired(grant)
        return Outcome(True, f"paired {grant.device.name}")
