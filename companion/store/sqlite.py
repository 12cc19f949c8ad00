"""The SQLite store: WAL mode, synchronous=FULL, so a write that returned is
on disk even if the power goes a moment later."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

from .journal import JournalEntry

SCHEMA_VERSION = 1
GAME_FILE_FORMAT = "companion-game"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, name TEXT NOT NULL, origin TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active', outcome TEXT, created REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS journal (
    game_id TEXT NOT NULL REFERENCES games(id), n INTEGER NOT NULL, kind TEXT NOT NULL,
    body TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game_id, n));
"""


class StoreError(RuntimeError):
    """The store could not do what was asked (disk full, broken file, bad import)."""


class UnknownGame(StoreError, KeyError):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"there is no game with id {game_id!r}")
        self.game_id = game_id

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class GameRecord:
    id: str
    game: str
    name: str
    origin: Mapping[str, object]
    status: str
    outcome: str | None
    created: float
    updated: float
    entries: int

    def summary(self) -> dict[str, object]:
        return {"game_id": self.id, "game": self.game, "name": self.name, "status": self.status,
                "outcome": self.outcome, "created": self.created, "updated": self.updated, "version": self.entries}


class Store:
    """Games and their journals in one SQLite file; safe to share between threads."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._closed = False
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as error:
            raise StoreError(f"could not open {self.path}: {error}") from error
        try:
            self._configure()
        except (sqlite3.Error, StoreError) as error:
            self._db.close()
            raise StoreError(f"could not open {self.path}: {error}") from error

    def _configure(self) -> None:
        """WAL + synchronous=FULL is the durability promise of docs/protocol.md; a
        filesystem that cannot do WAL must fail loudly, not silently fall back."""
        mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(f"{self.path}: SQLite refused WAL mode (got {mode!r})")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        self._db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))

    def close(self) -> None:
        """Safe to call twice."""
        with self._lock:
            if not self._closed:
                self._db.close()
                self._closed = True

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games ------------------------------------------------------------------------
    def create_game(self, game: str, name: str, origin: Mapping[str, object]) -> str:
        game_id = uuid.uuid4().hex[:12]
        now = time.time()
        with self._write() as db:
            db.execute("INSERT INTO games (id, game, name, origin, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                       (game_id, game, name, json.dumps(origin), now, now))
        return game_id

    def game(self, game_id: str) -> GameRecord:
        rows = self._read(
            "SELECT g.id, g.game, g.name, g.origin, g.status, g.outcome, g.created, g.updated, "
            "(SELECT COUNT(*) FROM journal j WHERE j.game_id = g.id) FROM games g WHERE g.id = ?", (game_id,))
        if not rows:
            raise UnknownGame(game_id)
        return _record(rows[0])

    def games(self, include_archived: bool = False) -> list[GameRecord]:
        rows = self._read(
            "SELECT g.id, g.game, g.name, g.origin, g.status, g.outcome, g.created, g.updated, "
            "(SELECT COUNT(*) FROM journal j WHERE j.game_id = g.id) FROM games g "
            "WHERE ? OR g.status = 'active' ORDER BY g.updated DESC", (include_archived,))
        return [_record(row) for row in rows]

    def set_status(self, game_id: str, status: str, outcome: str | None = None) -> None:
        self.game(game_id)
        with self._write() as db:
            db.execute("UPDATE games SET status = ?, outcome = COALESCE(?, outcome), updated = ? WHERE id = ?",
                       (status, outcome, time.time(), game_id))

    def set_outcome(self, game_id: str, outcome: str | None) -> None:
        """How the game ended, or ``None`` again when an undo takes the ending back."""
        with self._write() as db:
            db.execute("UPDATE games SET outcome = ?, updated = ? WHERE id = ?", (outcome, time.time(), game_id))

    # -- the journal ------------------------------------------------------------------
    def append(self, game_id: str, item: JournalEntry) -> int:
        """Write one journal entry durably; returns the game's new version."""
        with self._write() as db:
            n = db.execute("SELECT COUNT(*) FROM journal WHERE game_id = ?", (game_id,)).fetchone()[0]
            db.execute("INSERT INTO journal (game_id, n, kind, body, at) VALUES (?, ?, ?, ?, ?)",
                       (game_id, n, item.kind, json.dumps(item.to_plain()), time.time()))
            db.execute("UPDATE games SET updated = ? WHERE id = ?", (time.time(), game_id))
        return int(n) + 1

    def journal(self, game_id: str) -> list[JournalEntry]:
        self.game(game_id)
        rows = self._read("SELECT body FROM journal WHERE game_id = ? ORDER BY n", (game_id,))
        return [entry_from_plain(json.loads(str(body))) for (body,) in rows]

    # -- game files ---------------------------------------------------------------------
    def export_game(self, game_id: str) -> dict[str, object]:
        record = self.game(game_id)
        return {"format": GAME_FILE_FORMAT, "version": 1, "game": record.game, "name": record.name,
                "origin": dict(record.origin), "journal": [e.to_plain() for e in self.journal(game_id)]}

    def import_game(self, data: object) -> str:
        """A game file, checked for shape; the caller checks it also replays.

        One transaction, so a failure half-way keeps nothing of it."""
        game, name, origin, journal = parse_game_file(data)
        game_id = uuid.uuid4().hex[:12]
        now = time.time()
        with self._write() as db:
            db.execute("INSERT INTO games (id, game, name, origin, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                       (game_id, game, name, json.dumps(origin), now, now))
            db.executemany("INSERT INTO journal (game_id, n, kind, body, at) VALUES (?, ?, ?, ?, ?)",
                           [(game_id, n, item.kind, json.dumps(item.to_plain()), now)
                            for n, item in enumerate(journal)])
        return game_id

    def import_games(self, files: Sequence[tuple[object, str, str | None]],
                     during: Callable[[], None] = lambda: None) -> list[str]:
        """Several game files (each with its status, ``active`` or ``archived``, and how it ended)
        in one transaction, and ``during`` done inside it: if ``during`` fails or the commit does,
        none is kept."""
        parsed = [(parse_game_file(data), status, outcome) for data, status, outcome in files]
        now = time.time()
        ids = [uuid.uuid4().hex[:12] for _ in parsed]
        with self._write() as db:
            for game_id, ((game, name, origin, journal), status, outcome) in zip(ids, parsed):
                db.execute("INSERT INTO games (id, game, name, origin, status, outcome, created, updated) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           (game_id, game, name, json.dumps(origin), status, outcome, now, now))
                db.executemany("INSERT INTO journal (game_id, n, kind, body, at) VALUES (?, ?, ?, ?, ?)",
                               [(game_id, n, item.kind, json.dumps(item.to_plain()), now)
                                for n, item in enumerate(journal)])
            during()
        return ids

    def delete_game(self, game_id: str) -> None:
        """Only for refusing an import that does not replay; games are archived, not deleted."""
        with self._write() as db:
            db.execute("DELETE FROM journal WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    # -- internals ------------------------------------------------------------------------
    def _write(self) -> "_Transaction":
        return _Transaction(self)

    def _read(self, sql: str, parameters: tuple[object, ...]) -> list[tuple[object, ...]]:
        """A query under the lock; a closed store or a broken file is a ``StoreError``,
        so callers handle one kind of storage failure."""
        with self._lock:
            if self._closed:
                raise StoreError("the store is closed")
            try:
                return list(self._db.execute(sql, parameters).fetchall())
            except sqlite3.Error as error:
                raise StoreError(f"could not read {self.path}: {error}") from error


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT under the store's lock; a failure rolls back."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def __enter__(self) -> sqlite3.Connection:
        """A failure here (closed store, read-only or locked file) must release the
        lock and surface as ``StoreError``: ``__exit__`` does not run for it."""
        self.store._lock.acquire()
        try:
            if self.store._closed:
                raise StoreError("the store is closed")
            self.store._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            self.store._lock.release()
            raise StoreError(f"could not write to {self.store.path}: {error}") from error
        except BaseException:
            self.store._lock.release()
            raise
        return self.store._db

    def __exit__(self, kind: object, problem: object, trace: object) -> None:
        """Commit, or roll back; a failed COMMIT is rolled back too, or the open
        transaction would make every later write fail."""
        db = self.store._db
        try:
            if kind is None:
                try:
                    db.execute("COMMIT")
                except sqlite3.Error as error:
                    _roll_back(db)
                    raise StoreError(f"could not write to {self.store.path}: {error}") from error
                return
            _roll_back(db)
        finally:
            self.store._lock.release()
        if isinstance(problem, sqlite3.Error):
            raise StoreError(f"could not write to {self.store.path}: {problem}") from problem


def _roll_back(db: sqlite3.Connection) -> None:
    """Best effort: SQLite may already have rolled back by itself (e.g. disk full)."""
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error:
            pass


def _record(row: tuple[object, ...]) -> GameRecord:
    game_id, game, name, origin, status, outcome, created, updated, entries = row
    return GameRecord(str(game_id), str(game), str(name), json.loads(str(origin)), str(status),
                      None if outcome is None else str(outcome), float(str(created)), float(str(updated)),
                      int(str(entries)))


def entry_from_plain(data: object, where: str = "a journal entry") -> JournalEntry:
    """One journal entry from plain data; the message names the entry, never dumps it
    (a game file can be large)."""
    if not isinstance(data, Mapping) or data.get("kind") not in ("input", "undo", "redo"):
        kind = data.get("kind") if isinstance(data, Mapping) else None
        raise StoreError(f"{where} must be an object with \"kind\" input, undo or redo, not {_short(kind)}")
    if data["kind"] == "input":
        entry = data.get("entry")
        if not isinstance(entry, Mapping) or ("answer" not in entry and "data" not in entry):
            raise StoreError(f"{where} is an input without an 'entry' object holding an 'answer' "
                             "(or the game's 'data')")
        return JournalEntry("input", dict(entry))
    count = data.get("count")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise StoreError(f"{where} is an {data['kind']} whose count is not a whole number of at least 1 "
                         f"(got {_short(count)})")
    return JournalEntry(data["kind"], count=count)


def parse_game_file(data: object) -> tuple[str, str, Mapping[str, object], list[JournalEntry]]:
    """The parts of a game file, or a ``StoreError`` saying what is wrong with it."""
    if not isinstance(data, Mapping) or data.get("format") != GAME_FILE_FORMAT:
        raise StoreError(f"not a game file: it must be a JSON object with \"format\": \"{GAME_FILE_FORMAT}\"")
    if data.get("version") != 1:
        raise StoreError(f"game file version {_short(data.get('version'))} is not one this companion reads (1)")
    game, name, origin, journal = data.get("game"), data.get("name", "Imported game"), data.get("origin"), data.get("journal")
    if not isinstance(game, str) or not isinstance(name, str) or not isinstance(origin, Mapping):
        raise StoreError("a game file needs 'game' (text), 'name' (text) and 'origin' (an object)")
    if not isinstance(journal, list):
        raise StoreError("a game file needs a 'journal' list")
    return game, name, origin, [entry_from_plain(item, f"journal entry {n + 1}") for n, item in enumerate(journal)]


def _short(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"
