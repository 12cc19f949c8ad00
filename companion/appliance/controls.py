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
  The presses in a row are counted and decided ``pairing.SERIES_GAP`` after
  the last one, on a timer thread (each waiting tablet shows its number).

Which game: the one a paired tablet last opened (``CurrentGame``): a watcher
only watches, and an archived game is never on the table. The version is read
before the prompt, so a change in between makes the table refuse the press as
stale rather than answer a question nobody saw.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable, Mapping

from companion.table import Table, TableError, Tables
from hardware.buttons.control import Outcome

from .pairing import SERIES_GAP, Grant, Pairing, PairingRefused

log = logging.getLogger(__name__)


class CurrentGame:
    """The game the buttons act on: the last one a paired tablet opened (never an archived one)."""

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
            return None if self.tables.archived(game_id) else self.tables.get(game_id)
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
            table.act(entry, version, physical=True)
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

    def pair_pressed(self, at: float | None = None) -> Outcome:
        """``at``: when the button went down (time.monotonic), not when the press is handled."""
        if self.pairing is None:
            return Outcome(False, "pairing is not running")
        try:
            self.pairing.button_pressed(time.monotonic() if at is None else at)
        except PairingRefused as refused:
            return Outcome(False, str(refused))
        timer = threading.Timer(SERIES_GAP + 0.05, self._series_over)
        timer.daemon = True
        timer.start()
        return Outcome(True, "press counted: the tablet whose number of presses this is gets paired")

    def _series_over(self) -> None:
        assert self.pairing is not None
        try:
            grant = self.pairing.series_over()
        except PairingRefused as refused:
            log.info("PAIR: %s", refused)
            return
        if grant is not None:
            log.info("PAIR: paired %s", grant.device.name)
            self._paired(grant)

    def _paired(self, grant: Grant) -> None:
        if self.on_paired is not None:
            self.on_paired(grant)
