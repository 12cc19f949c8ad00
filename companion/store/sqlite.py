"""The SQLite store: WAL mode, synchronous=FULL, so a write that returned is
on disk even if the power goes a moment later.

A store that cannot write (a read-only card, a card too full to open the
database for writing) opens **read-only**: the games can be read and watched,
every write is refused with ``StoreError`` saying why, and each write tries to
open the file for writing again (at most every few seconds), so the box
recovers by itself once space returns. A database found damaged while in use is
never written again (``problem`` says so); ``companion.store.opening`` checks it
at start and sets a damaged file aside.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

from .journal import JournalEntry

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
GAME_FILE_FORMAT = "companion-game"
#: What an input entry holds: an answer, the game's data changed, or a move made at any time.
INPUT_KEYS = ("answer", "data", "anytime")
#: Marks a game file exported with the answers given in secret left out (companion/table/redact.py).
REDACTED = "redacted"
RETRY_SECONDS = 5.0  # a read-only store tries to write again at most this often
#: SQLite's words for a file that is not (or no longer) a sound database.
DAMAGE_WORDS = ("malformed", "not a database", "corrupt")

#: A cache of what reopening a game needs (companion/table/reopen.py): never the truth (the journal
#: is), never exported nor backed up (it holds hidden information), rebuilt when missing or stale.
CACHE_SCHEMA = """
CREATE TABLE IF NOT EXISTS reopen_cache (
    game_id TEXT NOT NULL REFERENCES games(id), kind TEXT NOT NULL, n INTEGER NOT NULL, stamp TEXT NOT NULL,
    prefix TEXT NOT NULL, digest TEXT NOT NULL, body BLOB NOT NULL, PRIMARY KEY (game_id, kind, n));
"""
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, name TEXT NOT NULL, origin TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active', outcome TEXT, created REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS journal (
    game_id TEXT NOT NULL REFERENCES games(id), n INTEGER NOT NULL, kind TEXT NOT NULL,
    body TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game_id, n));
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id), seat TEXT NOT NULL, token_hash TEXT NOT NULL,
    claimed REAL NOT NULL, holder TEXT NOT NULL DEFAULT '', PRIMARY KEY (game_id, seat));
""" + CACHE_SCHEMA


class StoreError(RuntimeError):
    """The store could not do what was asked (disk full, broken file, bad import)."""


class UnknownGame(StoreError, KeyError):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"there is no game with id {game_id!r}")
        self.game_id = game_id

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class CacheRow:
    """One row of a game's reopen cache (companion/table/reopen.py says what the fields mean): the
    store keeps the rows as they are given, checks none of them and reads them only for the table."""

    kind: str
    n: int
    stamp: str
    prefix: str
    digest: str
    body: bytes


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
    """Games and their journals in one SQLite file; safe to share between threads.

    ``read_only``: open it for reading only, with this reason (what ``problem`` says);
    ``retry``: may a read-only store try to write again (not over a damaged file)."""

    def __init__(self, path: Path | str, read_only: str = "", retry: bool = True,
                 clock: Callable[[], float] = time.monotonic, in_memory: bool = False) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        self._closed = False
        self._in_memory = in_memory
        self.problem = read_only
        self.note = ""  # what happened at start (a damaged file set aside), for the health view
        self._retry = retry and bool(read_only)
        self._clock = clock
        self._tried_at = clock()
        self.last_failure = ""  # the last write the disk refused, until one succeeds
        self._caches = True  # whether the file has the reopen cache's table (one that could not get it goes without)
        self._db = self._read_only() if read_only else self._writable()

    def _writable(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"could not open {self.path}: {error}") from error
        try:
            self._configure(db)
        except (sqlite3.Error, StoreError) as error:
            db.close()
            raise StoreError(f"could not open {self.path}: {error}") from error
        return db

    def _read_only(self) -> sqlite3.Connection:
        """The file for reading (without the locking files if even those cannot be made), or an
        empty database in memory when there is no file to read."""
        if self._in_memory or not self.path.is_file():
            db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
            db.executescript(SCHEMA)
            return db
        for query in ("mode=ro", "mode=ro&immutable=1"):
            try:
                db = sqlite3.connect(f"{self.path.resolve().as_uri()}?{query}", uri=True, check_same_thread=False,
                                     isolation_level=None)
                db.execute("SELECT COUNT(*) FROM games").fetchone()
                return db
            except sqlite3.Error as error:
                reason = error
        raise StoreError(f"could not open {self.path} even to read it: {reason}")

    @property
    def writable(self) -> bool:
        return not self.problem

    def health(self) -> dict[str, object]:
        """For the health view and the tablets: can the games be saved, and if not, why."""
        note = {"note": self.note} if self.note else {}
        if self.problem:
            state = "read-only" if self._retry else "damaged"
            return {"state": state, "reason": self.problem, "path": str(self.path), **note}
        if self.note or self.last_failure:
            return {"state": "failed" if self.last_failure else "set-aside",
                    "reason": self.last_failure or self.note, "path": str(self.path), **note}
        return {"state": "ok", "reason": "", "path": str(self.path)}

    def _configure(self, db: sqlite3.Connection) -> None:
        """WAL + synchronous=FULL is the durability promise of docs/protocol.md; a
        filesystem that cannot do WAL must fail loudly, not silently fall back. Nothing is
        written when the schema is there already (a full card must still open it)."""
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(f"{self.path}: SQLite refused WAL mode (got {mode!r})")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {"meta", "games", "journal"} <= tables:
            db.executescript(SCHEMA)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        _add_seat_holders(db)
        self._caches = _add_reopen_cache(db)

    def _try_writing_again(self) -> None:
        """Read-only: open the file for writing again (space may have come back); quietly stays
        read-only if it still cannot."""
        if not self._retry or self._clock() - self._tried_at < RETRY_SECONDS:
            return
        self._tried_at = self._clock()
        try:
            db = self._writable()
        except StoreError:
            return
        self._db.close()
        self._db, self.problem, self._retry = db, "", False

    def damaged(self, error: sqlite3.Error) -> bool:
        """A damaged file found while in use: never written again, and said so."""
        if not any(word in str(error).lower() for word in DAMAGE_WORDS):
            return False
        self.problem = (f"{self.path} is damaged ({error}): the box no longer writes to it. Restart the box: it "
                        "sets the file aside and keeps every game it can still read; restore the others from a "
                        "backup (Box health, Restore a backup)")
        self._retry = False
        return True

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
    def append(self, game_id: str, item: JournalEntry, cache: Sequence[CacheRow] = ()) -> int:
        """Write one journal entry durably; returns the game's new version. ``cache``: reopen-cache
        rows for what it did, written in the same transaction (all of it is kept, or none)."""
        return self.append_all(game_id, [item], cache)

    def append_all(self, game_id: str, items: list[JournalEntry], cache: Sequence[CacheRow] = ()) -> int:
        """Write several journal entries in one transaction: a power cut keeps all of them or none
        (a change made of an undo and inputs is never left half-made); ``cache`` as ``append``."""
        with self._write() as db:
            n = db.execute("SELECT COUNT(*) FROM journal WHERE game_id = ?", (game_id,)).fetchone()[0]
            for offset, item in enumerate(items):
                db.execute("INSERT INTO journal (game_id, n, kind, body, at) VALUES (?, ?, ?, ?, ?)",
                           (game_id, n + offset, item.kind, json.dumps(item.to_plain()), time.time()))
            db.execute("UPDATE games SET updated = ? WHERE id = ?", (time.time(), game_id))
            if self._caches:
                _put_cache(db, game_id, cache)
        return int(n) + len(items)

    # -- the reopen cache ------------------------------------------------------------------
    def cache(self, game_id: str) -> list[CacheRow]:
        """A game's reopen-cache rows, as written (none in a file from before the cache was kept)."""
        tables = {str(row[0]) for row in self._read("SELECT name FROM sqlite_master WHERE type = 'table'", ())}
        if "reopen_cache" not in tables:
            return []
        rows = self._read("SELECT kind, n, stamp, prefix, digest, body FROM reopen_cache WHERE game_id = ? "
                          "ORDER BY kind, n", (game_id,))
        return [CacheRow(str(kind), int(str(n)), str(stamp), str(prefix), str(digest),
                         body if isinstance(body, bytes) else str(body).encode())
                for kind, n, stamp, prefix, digest, body in rows]

    def save_cache(self, game_id: str, rows: Sequence[CacheRow], replace: bool = False) -> None:
        """Keep reopen-cache rows (a row of the same kind and number is replaced); ``replace``:
        the game's other rows go (a cache rebuilt from the journal)."""
        if not self._caches:
            raise StoreError(f"{self.path} has no table for the reopen cache (it could not be added at start)")
        with self._write() as db:
            if replace:
                db.execute("DELETE FROM reopen_cache WHERE game_id = ?", (game_id,))
            _put_cache(db, game_id, rows)

    def journal(self, game_id: str) -> list[JournalEntry]:
        self.game(game_id)
        rows = self._read("SELECT body FROM journal WHERE game_id = ? ORDER BY n", (game_id,))
        return [entry_from_plain(json.loads(str(body))) for (body,) in rows]

    # -- seats ------------------------------------------------------------------------------
    def seat_claims(self, game_id: str) -> dict[str, tuple[str, str]]:
        """Seat -> the hash of the token of the device that plays it, and that device's id
        (companion/table/seats.py; "" for a claim made before devices were recorded)."""
        columns = {str(row[1]) for row in self._read("PRAGMA table_info(seats)", ())}
        holder = "holder" if "holder" in columns else "''"  # a read-only file from before holders were kept
        rows = self._read(f"SELECT seat, token_hash, {holder} FROM seats WHERE game_id = ?", (game_id,))
        return {str(seat): (str(token_hash), str(device)) for seat, token_hash, device in rows}

    def claim_seat(self, game_id: str, seat: str, token_hash: str, holder: str = "") -> None:
        """A free seat taken (INSERT, not REPLACE: a seat someone holds is never overwritten)."""
        with self._write() as db:
            db.execute("INSERT INTO seats (game_id, seat, token_hash, claimed, holder) VALUES (?, ?, ?, ?, ?)",
                       (game_id, seat, token_hash, time.time(), holder))

    def release_seat(self, game_id: str, seat: str) -> None:
        with self._write() as db:
            db.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))

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
                     during: Callable[[], None] = lambda: None, ids: Sequence[str] | None = None) -> list[str]:
        """Several game files (each with its status, ``active`` or ``archived``, and how it ended)
        in one transaction, and ``during`` done inside it: if ``during`` fails or the commit does,
        none is kept. ``ids``: the games' own ids (a game saved from a damaged file keeps its)."""
        parsed = [(parse_game_file(data), status, outcome) for data, status, outcome in files]
        now = time.time()
        ids = list(ids) if ids is not None else [uuid.uuid4().hex[:12] for _ in parsed]
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
                self.damaged(error)
                raise StoreError(f"could not read {self.path}: {error}") from error


def _add_seat_holders(db: sqlite3.Connection) -> None:
    """Files made before seats recorded their device get the column (their claims read as held by an
    unknown device). A file that cannot be written keeps its shape: it is read as it is."""
    columns = {str(row[1]) for row in db.execute("PRAGMA table_info(seats)")}
    if "holder" in columns:
        return
    try:
        db.execute("ALTER TABLE seats ADD COLUMN holder TEXT NOT NULL DEFAULT ''")
    except sqlite3.OperationalError as error:
        log.warning("could not add the seats' holder column (%s): claims read as held by an unknown device", error)


def _add_reopen_cache(db: sqlite3.Connection) -> bool:
    """Files made before the reopen cache was kept get its table (empty: each game is replayed whole
    once and its cache written). A file that cannot get it goes without (False): its games replay, and
    their inputs are saved without a cache."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'reopen_cache'").fetchone():
        return True
    try:
        db.executescript(CACHE_SCHEMA)
    except sqlite3.OperationalError as error:
        log.warning("could not add the reopen cache's table (%s): games reopen by replaying their journal", error)
        return False
    return True


def _put_cache(db: sqlite3.Connection, game_id: str, rows: Sequence[CacheRow]) -> None:
    db.executemany("INSERT OR REPLACE INTO reopen_cache (game_id, kind, n, stamp, prefix, digest, body) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [(game_id, r.kind, r.n, r.stamp, r.prefix, r.digest, r.body) for r in rows])


def write_refusal(store: Store, error: sqlite3.Error) -> StoreError:
    """A failed write in the owner's words: which file, and what to do."""
    text = str(error).lower()
    if store.damaged(error):
        return StoreError(store.problem)
    if "full" in text:
        why = "the box's card is full: free some space (delete old photos or diagnostics) and try again"
    elif "readonly" in text or "read-only" in text:
        why = "the box's card is read-only: check the card, then restart the box"
    else:
        why = "check the box's card and its health view"
    store.last_failure = f"could not write to {store.path} ({error}); {why}"
    return StoreError(store.last_failure)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT under the store's lock; a failure rolls back."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def __enter__(self) -> sqlite3.Connection:
        """A failure here (closed store, read-only or locked file) must release the
        lock and surface as ``StoreError``: ``__exit__`` does not run for it."""
        store = self.store
        store._lock.acquire()
        try:
            if store._closed:
                raise StoreError("the store is closed")
            if store.problem:
                store._try_writing_again()
            if store.problem:
                raise StoreError(f"nothing can be saved: {store.problem}")
            store._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            store._lock.release()
            raise write_refusal(store, error) from error
        except BaseException:
            store._lock.release()
            raise
        return store._db

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
                    raise write_refusal(self.store, error) from error
                self.store.last_failure = ""
                return
            _roll_back(db)
        finally:
            self.store._lock.release()
        if isinstance(problem, sqlite3.Error):
            raise write_refusal(self.store, problem) from problem


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
        if not isinstance(entry, Mapping) or not any(key in entry for key in INPUT_KEYS):
            raise StoreError(f"{where} is an input without an 'entry' object holding an 'answer' "
                             "(or the game's 'data', or a move made at 'anytime')")
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
    if REDACTED in data:
        raise StoreError("this game file was exported while the game was in play by a tablet that is not the "
                         "owner's: the answers given in secret are left out of it, so it cannot be played on; "
                         "import the whole file the owner's tablet (or the box's backup) gives")
    game, name, origin, journal = data.get("game"), data.get("name", "Imported game"), data.get("origin"), data.get("journal")
    if not isinstance(game, str) or not isinstance(name, str) or not isinstance(origin, Mapping):
        raise StoreError("a game file needs 'game' (text), 'name' (text) and 'origin' (an object)")
    if not isinstance(journal, list):
        raise StoreError("a game file needs a 'journal' list")
    return game, name, origin, [entry_from_plain(item, f"journal entry {n + 1}") for n, item in enumerate(journal)]


def _short(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"
