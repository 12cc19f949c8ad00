"""Opening the games' database at start: the service always starts, and never
writes into a damaged file.

Why: the box must come up whatever its card holds, and a tablet must be told
what is wrong rather than find the box gone. So, at every start:

1. the file is checked (SQLite's ``quick_check``, read-only). A file that fails
   it - scribbled pages, or not a database at all - is **set aside** untouched,
   renamed ``companion.sqlite.damaged-<when>`` with its write-ahead log, and a
   new database is started; every game that can still be read whole from the
   damaged file (and replays: the caller checks) is copied into it with its own
   id, so those games go on. The report names the file, the games that could not
   be saved and how to restore them from a backup.
2. the file is opened for writing; if it cannot be (a read-only card, a card too
   full to open it), it is opened **read-only**: games can be watched, every
   change is refused with the reason, and the store tries writing again by
   itself (``Store``), so the box recovers once space returns.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

from .sqlite import DAMAGE_WORDS, GAME_FILE_FORMAT, Store, StoreError, parse_game_file

log = logging.getLogger(__name__)
FULL_BELOW = 1024 * 1024  # bytes free: below this the card counts as full
RESTORE_HINT = "restore them from a backup: Box health, Restore a backup (docs/install.md, Backups)"


@dataclass
class Opened:
    """The store to use, and what happened to a damaged file (``aside``: where it now is)."""

    store: Store
    damage: str = ""
    aside: Path | None = None
    salvaged: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)

    def report(self) -> str:
        """For the health view and the log: which file, what was kept, what to do."""
        if not self.damage:
            return ""
        where = f"it was set aside, untouched, as {self.aside}" if self.aside else "it could not be set aside"
        kept = f"; {len(self.salvaged)} game(s) were saved from it and go on" if self.salvaged else ""
        names = ", ".join(self.lost[:5]) + (", ..." if len(self.lost) > 5 else "")
        lost = f"; {len(self.lost)} could not be read ({names}): {RESTORE_HINT}" if self.lost else ""
        return f"{self.store.path} failed its integrity check ({self.damage}): {where}{kept}{lost}"


def open_store(path: Path) -> Opened:
    """The store the service runs on (module docstring); never raises for the file's sake."""
    damage = integrity_problem(path)
    if damage is None:
        return Opened(_opened(path))
    log.error("%s failed its integrity check: %s", path, damage)
    try:
        aside = set_aside(path)
    except OSError as problem:
        reason = (f"{path} failed its integrity check ({damage}) and could not be set aside ({problem}): the box "
                  f"does not write to it; {RESTORE_HINT}")
        return Opened(_read_only(path, reason, retry=False), damage)
    return Opened(_opened(path), damage, aside)


def _opened(path: Path) -> Store:
    try:
        return Store(path)
    except StoreError as problem:
        reason = (f"the games cannot be saved: {card_state(path.parent)} ({problem}). They can be watched; nothing "
                  "can be changed until the box can write again: it tries again by itself")
        log.error("%s", reason)
        return _read_only(path, reason, retry=True)


def card_state(folder: Path) -> str:
    """What is likely wrong with the card the folder is on, in the owner's words."""
    try:
        found = os.statvfs(folder if folder.exists() else folder.parent)
    except OSError as problem:
        return f"the folder {folder} cannot be reached ({problem.strerror or problem})"
    if found.f_flag & os.ST_RDONLY:
        return "the box's card is read-only (check the card, then restart the box)"
    if found.f_bavail * found.f_frsize < FULL_BELOW:
        return "the box's card is full (free some space: old photos, diagnostics, other files)"
    return f"the folder {folder} cannot be written (check the card and its permissions)"


def _read_only(path: Path, reason: str, retry: bool) -> Store:
    try:
        return Store(path, read_only=reason, retry=retry)
    except StoreError as problem:  # not even readable: an empty store says why
        log.error("%s", problem)
        return Store(path, read_only=f"{reason} ({problem})", retry=False, in_memory=True)


def integrity_problem(path: Path) -> str | None:
    """What SQLite's quick check finds wrong with the file, or None (sound, or no file yet)."""
    if not path.is_file():
        return None
    for query in ("mode=ro", "mode=ro&immutable=1"):
        try:
            db = sqlite3.connect(f"{path.resolve().as_uri()}?{query}", uri=True)
            try:
                found = [str(row[0]) for row in db.execute("PRAGMA quick_check").fetchall()]
            finally:
                db.close()
        except sqlite3.Error as error:
            if any(word in str(error).lower() for word in DAMAGE_WORDS):
                return str(error)
            continue  # cannot open it so (a read-only folder): try without its locking files
        return None if found == ["ok"] else "; ".join(found[:3])
    return None


def set_aside(path: Path) -> Path:
    """Renamed with its write-ahead log (a rename writes nothing into the file)."""
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    for suffix in ("-wal", "-shm", ""):
        source = Path(f"{path}{suffix}")
        if source.exists():
            os.replace(source, Path(f"{aside}{suffix}"))
    return aside


def salvage(aside: Path) -> tuple[list[tuple[str, dict[str, object], str]], list[str]]:
    """Every game that reads whole from the damaged file, as ``(id, game file, status)``; and the
    names (or ids) of those that do not."""
    try:
        db = sqlite3.connect(f"{aside.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return [], ["every game (the file does not open)"]
    try:
        try:
            games = db.execute("SELECT id, game, name, origin, status FROM games").fetchall()
        except sqlite3.Error:
            return [], ["every game (the list of games is damaged)"]
        found, lost = [], []
        for row in games:
            try:
                found.append(_game_file(db, row))
            except (sqlite3.Error, StoreError, ValueError, TypeError):
                lost.append(f"{row[2]!r}" if isinstance(row[2], str) else str(row[0]))
        return found, lost
    finally:
        db.close()


def _game_file(db: sqlite3.Connection, row: tuple[object, ...]) -> tuple[str, dict[str, object], str]:
    game_id, game, name, origin, status = row
    bodies = _journal(db, game_id)
    data: dict[str, object] = {"format": GAME_FILE_FORMAT, "version": 1, "game": game, "name": name,
                               "origin": json.loads(str(origin)), "journal": [json.loads(str(b)) for (b,) in bodies]}
    parse_game_file(data)
    return str(game_id), data, "archived" if status == "archived" else "active"


def _journal(db: sqlite3.Connection, game_id: object) -> list[tuple[object, ...]]:
    """A game's journal through its index (which reaches only its own pages), or, if the index is
    what is damaged, by reading the whole journal table."""
    try:
        return db.execute("SELECT body FROM journal WHERE game_id = ? ORDER BY n", (game_id,)).fetchall()
    except sqlite3.DatabaseError:
        rows = db.execute("SELECT n, body FROM journal NOT INDEXED WHERE game_id = ?", (game_id,)).fetchall()
        return [(body,) for _, body in sorted(rows, key=lambda row: int(row[0]))]
