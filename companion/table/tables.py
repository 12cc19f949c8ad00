"""All the games the box knows, each opened as a ``Table`` when first used."""

from __future__ import annotations

import threading
from typing import Callable, Mapping

from companion.engine.errors import IllegalInput, SetupError
from companion.engine.game import Game
from companion.games import GameKind
from companion.store import Store, StoreError, fold_journal

from .table import Table, TableError


class Tables:
    def __init__(self, store: Store, kinds: Mapping[str, Callable[[], GameKind]]) -> None:
        self.store = store
        self._kind_makers = kinds
        self._kinds: dict[str, GameKind] = {}
        self._open: dict[str, Table] = {}
        self._lock = threading.Lock()

    def kind(self, name: str) -> GameKind:
        with self._lock:
            if name not in self._kinds:
                if name not in self._kind_makers:
                    raise TableError("bad-request", f"this companion does not know the game {name!r}")
                self._kinds[name] = self._kind_makers[name]()
            return self._kinds[name]

    def get(self, game_id: str) -> Table:
        with self._lock:
            table = self._open.get(game_id)
        if table is not None:
            return table
        try:
            record = self.store.game(game_id)
        except StoreError:
            raise TableError("unknown-game", f"there is no game with id {game_id!r}") from None
        table = Table(self.store, self.kind(record.game), game_id)
        with self._lock:
            return self._open.setdefault(game_id, table)

    def create(self, game: str, name: str, setup: Mapping[str, object]) -> str:
        """A new game; the setup is checked by starting it before anything is stored."""
        kind = self.kind(game)
        origin = {"setup": dict(setup)}
        try:
            Game(kind.rules, origin)
        except SetupError as problem:
            raise TableError("illegal", str(problem)) from None
        return self.store.create_game(game, name.strip() or "New game", origin)

    def import_game(self, data: object) -> str:
        """A game file; refused (and not kept) unless it replays cleanly."""
        try:
            game_id = self.store.import_game(data)
        except StoreError as problem:
            raise TableError("bad-request", str(problem)) from None
        try:
            self._check_replays(game_id)
        except (IllegalInput, SetupError, TableError, IndexError) as problem:
            self.store.delete_game(game_id)
            raise TableError("bad-request", f"the game file does not replay: {problem}") from None
        return game_id

    def _check_replays(self, game_id: str) -> None:
        record = self.store.game(game_id)
        live, _ = fold_journal(self.store.journal(game_id))
        Game(self.kind(record.game).rules, record.origin, live)

    def summaries(self) -> list[dict[str, object]]:
        return [record.summary() for record in self.store.games()]
