"""All the games the box knows, each opened as a ``Table`` when first used."""

from __future__ import annotations

import threading
from typing import Callable, Mapping, Sequence, TypeVar

from companion.engine.errors import SetupError
from companion.engine.game import Game
from companion.games.gamepack import GamePack
from companion.store import Store, StoreError, UnknownGame, fold
from companion.store.sqlite import parse_game_file

from .table import Table, TableError

T = TypeVar("T")


class Tables:
    def __init__(self, store: Store, kinds: Mapping[str, Callable[[], GamePack]]) -> None:
        self.store = store
        self._kind_makers = kinds
        self._kinds: dict[str, GamePack] = {}
        self._open: dict[str, Table] = {}
        self._seat_names: dict[str, list[str]] = {}  # by game id: its seats as set up
        self._lock = threading.Lock()

    def kind(self, name: str) -> GamePack:
        with self._lock:
            if name not in self._kinds:
                if name not in self._kind_makers:
                    raise TableError("bad-request", f"this companion does not know the game {name!r}")
                self._kinds[name] = self._kind_makers[name]()
            return self._kinds[name]

    def pack_ids(self) -> list[str]:
        return sorted(self._kind_makers)

    def get(self, game_id: str) -> Table:
        with self._lock:
            table = self._open.get(game_id)
        if table is not None:
            return table
        record = self._stored(lambda: self.store.game(game_id))
        table = self._stored(lambda: Table(self.store, self.kind(record.game), game_id))
        with self._lock:
            return self._open.setdefault(game_id, table)

    def create(self, game: str, name: str, setup: Mapping[str, object],
               data: Mapping[str, object] | None = None) -> str:
        """A new game; the setup is checked by starting it before anything is stored.
        ``data``: the owner's game data it plays with (kept in its origin, so the game
        replays the same whatever the owner changes later)."""
        kind = self.kind(game)
        origin: dict[str, object] = {"setup": dict(setup)}
        if data is not None:
            origin["data"] = dict(data)
        try:
            Game(kind.rules, origin)
        except SetupError as problem:
            raise TableError("illegal", str(problem)) from None
        return self._stored(lambda: self.store.create_game(game, name.strip() or "New game", origin))

    def import_game(self, data: object) -> str:
        """A game file; refused (and nothing kept) unless it replays cleanly.

        It is replayed before it is stored, so a refused file never touches the disk."""
        replayed = self.check_import(data)
        game_id = self._stored(lambda: self.store.import_game(data))
        outcome = getattr(replayed.state, "outcome", None)
        if isinstance(outcome, str):  # a finished game shows as finished in the list at once
            self._stored(lambda: self.store.set_status(game_id, "active", outcome))
        return game_id

    def import_games(self, files: Sequence[tuple[object, str]], during: Callable[[], None] = lambda: None,
                     ids: Sequence[str] | None = None) -> list[str]:
        """Game files with their statuses, all kept or none: each must replay, then all are stored in
        one transaction inside which ``during`` runs (a restore writes its other files there)."""
        checked = []
        for data, status in files:
            outcome = getattr(self.check_import(data).state, "outcome", None)
            checked.append((data, status, outcome if isinstance(outcome, str) else None))
        return self._stored(lambda: self.store.import_games(checked, during, ids))

    def check_import(self, data: object) -> Game:
        """The game a file holds, replayed; ``bad-request`` if it does not. The file comes
        from outside, so any failure of the replay, not only the engine's own refusals,
        means "this file is broken"."""
        try:
            game, _, origin, journal = parse_game_file(data)
        except StoreError as problem:
            raise TableError("bad-request", str(problem)) from None
        kind = self.kind(game)
        try:
            return Game(kind.rules, origin, fold(journal).live)
        except Exception as problem:
            raise TableError("bad-request", f"the game file does not replay: {problem}") from None

    def archive(self, game_id: str) -> None:
        """Out of the game list; the game and its journal are kept."""
        self._stored(lambda: self.store.set_status(game_id, "archived"))

    def restore(self, game_id: str) -> None:
        """Back into the game list from the archive."""
        self._stored(lambda: self.store.set_status(game_id, "active"))

    def archived(self, game_id: str) -> bool:
        return self._stored(lambda: self.store.game(game_id)).status == "archived"

    def summaries(self) -> list[dict[str, object]]:
        """Every game, archived ones too (marked by their status), newest first, each with its
        seats' names ("Sam (Sorcerer)"): on the games screen, which game is which."""
        return [{**record.summary(), "players": self._players(record.id, record.game, record.origin)}
                for record in self._stored(lambda: self.store.games(include_archived=True))]

    def _players(self, game_id: str, game: str, origin: Mapping[str, object]) -> list[str]:
        """The seats' names as the game was set up (its origin never changes, so they are kept)."""
        with self._lock:
            known = self._seat_names.get(game_id)
        if known is None and game not in self._kind_makers:
            return []  # a game of a box not installed here: listed, not opened
        if known is None:
            kind = self.kind(game)
            try:
                known = [seat.name for seat in kind.seats(Game(kind.rules, origin))]
            except SetupError:
                known = []  # a game whose setup no longer starts: its screen says why when opened
            with self._lock:
                self._seat_names[game_id] = known
        return list(known)

    @staticmethod
    def _stored(work: Callable[[], T]) -> T:
        """Run a store call; a disk failure is the protocol's ``storage`` refusal."""
        try:
            return work()
        except UnknownGame as problem:
            raise TableError("unknown-game", str(problem)) from None
        except StoreError as problem:
            raise TableError("storage", f"the games could not be read or saved: {problem}") from None
