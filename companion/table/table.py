"""A running game. Everything that changes it goes through ``Table``, one at a
time (a lock): tablets, buttons and the dice camera never race. An input is
applied to the engine first (which refuses illegal ones without change), then
written to the store; only once it is on disk is it acknowledged and shown."""

from __future__ import annotations

import threading
from typing import Callable, Mapping

from companion.engine.errors import IllegalInput, StaleInput
from companion.engine.game import Game, Step
from companion.engine.plain import to_plain
from companion.games import GameKind
from companion.store import JournalEntry, Store, StoreError, fold_journal

Listener = Callable[["Table", dict[str, object]], None]
HISTORY_SHOWN = 50


class TableError(ValueError):
    """A request the table refuses, with a code from docs/protocol.md."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Table:
    def __init__(self, store: Store, kind: GameKind, game_id: str) -> None:
        self.store = store
        self.kind = kind
        self.game_id = game_id
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        record = store.game(game_id)
        self.name = record.name
        self.origin = record.origin
        self.journal = store.journal(game_id)
        self._replay()

    # -- reading ----------------------------------------------------------------------
    @property
    def version(self) -> int:
        return len(self.journal)

    def view(self) -> dict[str, object]:
        with self._lock:
            game = self.game
            prompt = None if game.prompt is None else to_plain(game.prompt)
            return {
                "game_id": self.game_id, "name": self.name, "game": self.kind.name, "version": self.version,
                "state": to_plain(game.state), "prompt": prompt, "actions": self.kind.action_menu(game),
                "effects": [e.to_plain() for e in self.last_effects], "history": self._history(),
                "can_undo": bool(game.inputs), "can_redo": bool(self.redo_stack),
                "outcome": getattr(game.state, "outcome", None),
            }

    def _history(self) -> list[dict[str, object]]:
        count = len(self.labels)
        return [{"undo_count": count - i - 1, "label": self.labels[i]}
                for i in range(count - 1, max(-1, count - 1 - HISTORY_SHOWN), -1)]

    # -- changing ------------------------------------------------------------------------
    def act(self, entry: Mapping[str, object], version: int) -> dict[str, object]:
        """Apply one input from a tablet, button or camera."""
        with self._lock:
            self._check_version(version)
            prompt = self.game.prompt
            try:
                step = self.game.apply(entry)
            except IllegalInput as problem:
                raise TableError("game-over" if prompt is None else "illegal", str(problem)) from None
            self._write(JournalEntry("input", dict(self.game.inputs[-1])), undo_engine=1)
            self.labels.append(_label(prompt.text if prompt else "", entry, step))
            self.redo_stack.clear()
            self.last_effects = step.effects
            return self._changed()

    def undo(self, count: int, version: int) -> dict[str, object]:
        with self._lock:
            self._check_version(version)
            if not 1 <= count <= len(self.game.inputs):
                raise TableError("illegal", f"cannot undo {count} step(s): there are {len(self.game.inputs)}")
            self._write(JournalEntry("undo", count=count))
            self._replay()
            return self._changed()

    def redo(self, count: int, version: int) -> dict[str, object]:
        with self._lock:
            self._check_version(version)
            if not 1 <= count <= len(self.redo_stack):
                raise TableError("illegal", f"cannot redo {count} step(s): there are {len(self.redo_stack)}")
            self._write(JournalEntry("redo", count=count))
            self._replay()
            return self._changed()

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    # -- internals ----------------------------------------------------------------------
    def _check_version(self, version: int) -> None:
        if version != self.version:
            raise TableError("stale", str(StaleInput(version, self.version)))

    def _write(self, item: JournalEntry, undo_engine: int = 0) -> None:
        """Durable first; if the disk refuses, the engine forgets the input too."""
        try:
            self.store.append(self.game_id, item)
        except StoreError as problem:
            if undo_engine:
                self.game.undo(undo_engine)
            raise TableError("storage", f"could not save the change, so nothing changed: {problem}") from None
        self.journal.append(item)

    def _replay(self) -> None:
        live, self.redo_stack = fold_journal(self.journal)
        self.game = Game(self.kind.rules, self.origin)
        self.labels: list[str] = []
        step: Step | None = None
        for entry in live:
            prompt = self.game.prompt
            step = self.game.apply(entry)
            self.labels.append(_label(prompt.text if prompt else "", entry, step))
        self.last_effects = step.effects if step else self.game.opening_effects

    def _changed(self) -> dict[str, object]:
        view = self.view()
        outcome = view["outcome"]
        if isinstance(outcome, str):
            self.store.set_status(self.game_id, "active", outcome)
        for listener in list(self._listeners):
            listener(self, view)
        return view


def _label(question: str, entry: Mapping[str, object], step: Step) -> str:
    """How an input shows in the history: what it made happen, else what was answered."""
    telling = [e.text for e in step.effects if e.kind not in ("d20", "dice", "note")]
    if telling:
        return telling[0].rstrip(".")
    return f"{question} → {entry.get('answer')!r}"
