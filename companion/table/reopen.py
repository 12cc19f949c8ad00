"""The reopen cache: what a table keeps on disk so that a game opens after a restart (a power
cut, an update) without replaying its whole journal.

Why: every tablet reconnects after a restart and the box opens each game it shows; replaying a
long game's journal grows with its length. Rules that declare boundaries take snapshots of the
game (companion/engine/game.py); the table keeps them in the store with, for each live input,
what the table derived from it (its history label, its effects, the pieces it moved), so a game
reopens from its last snapshot and the few inputs since.

The journal stays the only truth; the cache only saves time:

- Each row is tied to the inputs it follows by ``prefix``: a hash chained over this code's
  ``stamp``, the game's origin and its live inputs up to it. A row of another branch (an undo
  since, inputs changed) or of other code (an update: the engine, a pack's code or data) does
  not match and is not used.
- Each row's ``digest`` is the hash of its body: a truncated or damaged row is never unpickled.
- Anything amiss (no rows, other code, damage, a body that will not load) and the game is
  replayed from its journal as before, the reason logged (never a row's content), and the cache
  written again from that replay.

Rows are pickled, so they are only ever read from this box's own database: they are never
exported, backed up or restored (a restored game is replayed once, and its cache made again),
and never sent anywhere. They hold what the game hides (the cards in the decks, secret answers'
effects), like the journal itself.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import logging
import pickle
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from companion.engine.effects import Effect
from companion.engine.game import Snapshot
from companion.store import CacheRow

#: The kinds of row: an engine snapshot (``n``: the inputs played), one live input's derived data (``n``: its index).
SNAPSHOT, STEP = "snapshot", "step"
#: The code whose pickles and derivations a row holds: the whole ``companion`` package, every file.
PACKAGE = Path(__file__).resolve().parents[1]


#: A history label's fields (``table.Label``: its text, who may read it, its aside).
LabelFields = tuple[str, "tuple[str, ...] | None", str]


@dataclass(frozen=True)
class StepRecord:
    """What the table derived from one live input: its history ``label``, its ``effects``, and the
    ``moves`` it made on the table (None: not worked out when it was saved)."""

    label: LabelFields
    effects: tuple[Effect, ...]
    moves: tuple[str, ...] | None


@dataclass(frozen=True)
class Cached:
    """The usable part of a game's cache: the records of its first ``len(steps)`` live inputs, and
    the snapshots at or before that many inputs played, each matching the journal."""

    steps: list[StepRecord]
    snapshots: list[Snapshot]


class Unusable(Exception):
    """Why a game's cache cannot be used (said in the log; the game is replayed from its journal).
    ``level``: how the log says it (a cache not made yet is no warning; a damaged one is)."""

    def __init__(self, why: str, level: int = logging.WARNING) -> None:
        super().__init__(why)
        self.level = level


def code_stamp(*parts: object) -> str:
    """A hash of this code (every file of the package: engine, packs, their data), of the Python
    that pickles, and of the folders of the classes of ``parts`` outside the package (a pack added
    from outside the tree, its rules): a row made by other code is foreign. Worked out once per
    process for each set of folders."""
    folders = {Path(inspect.getfile(type(part))).resolve().parent for part in parts}
    return _stamp(tuple(sorted(f for f in folders if f != PACKAGE and PACKAGE not in f.parents)))


@functools.cache
def _stamp(outside: tuple[Path, ...]) -> str:
    digest = hashlib.sha256(f"{sys.version}|{pickle.HIGHEST_PROTOCOL}".encode())
    for folder in (PACKAGE, *outside):
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def prefixes(stamp: str, origin: Mapping[str, object], inputs: Sequence[Mapping[str, object]]) -> list[str]:
    """``prefixes[k]``: the chained hash of the code, the origin and the first ``k`` inputs."""
    found = [_chained(stamp, origin)]
    for entry in inputs:
        found.append(_chained(found[-1], entry))
    return found


def extend(found: list[str], inputs: Sequence[Mapping[str, object]]) -> None:
    """``found`` (a ``prefixes`` list) with ``inputs`` played after its last."""
    for entry in inputs:
        found.append(_chained(found[-1], entry))


def _chained(before: str, data: object) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{before}\n{text}".encode()).hexdigest()


def snapshot_row(stamp: str, snapshot: Snapshot, prefix: str) -> CacheRow:
    """``prefix``: the game's prefix after ``snapshot.played`` inputs."""
    return _row(SNAPSHOT, snapshot.played, stamp, prefix, snapshot.data)


def step_row(stamp: str, index: int, record: StepRecord, prefix: str) -> CacheRow:
    """``prefix``: the game's prefix after input ``index`` (its ``index + 1`` first inputs)."""
    return _row(STEP, index, stamp, prefix, pickle.dumps(record, pickle.HIGHEST_PROTOCOL))


def _row(kind: str, n: int, stamp: str, prefix: str, body: bytes) -> CacheRow:
    return CacheRow(kind, n, stamp, prefix, hashlib.sha256(body).hexdigest(), body)


def usable(rows: Sequence[CacheRow], stamp: str, found: Sequence[str]) -> Cached:
    """What of ``rows`` matches the game whose prefixes are ``found``: the records of its first live
    inputs (as far as they all match) and the snapshots up to them. ``Unusable`` says why none can be
    used; a row of another branch is passed over (an undo leaves them)."""
    if not rows:
        raise Unusable("no reopen cache is saved for it (a game from before the cache, or restored)", logging.INFO)
    if any(row.stamp != stamp for row in rows):
        raise Unusable("its reopen cache was made by other code (an update)", logging.INFO)
    damaged = [f"{row.kind} {row.n}" for row in rows if hashlib.sha256(row.body).hexdigest() != row.digest]
    if damaged:
        raise Unusable(f"its reopen cache is damaged (the checksum of {', '.join(damaged[:3])} does not match)")
    steps = _matching_steps(rows, found)
    snapshots = [Snapshot(row.n, row.body) for row in rows
                 if row.kind == SNAPSHOT and row.n <= len(steps) and row.prefix == found[row.n]]
    if not any(s.played > 0 for s in snapshots):
        raise Unusable("no snapshot in its reopen cache matches its journal (none taken yet since its start or "
                       "its last undo)", logging.INFO)
    return Cached(steps, sorted(snapshots, key=lambda s: s.played))


def _matching_steps(rows: Sequence[CacheRow], found: Sequence[str]) -> list[StepRecord]:
    """The records of the first live inputs, up to the first missing or not matching."""
    by_index = {row.n: row for row in rows if row.kind == STEP}
    steps: list[StepRecord] = []
    for index in range(len(found) - 1):
        row = by_index.get(index)
        if row is None or row.prefix != found[index + 1]:
            break
        steps.append(_loaded(row))
    return steps


def _loaded(row: CacheRow) -> StepRecord:
    """A step record from the box's own database (its checksum checked): any failure to load it is
    this row being unusable, said by the kind of the failure alone (never the bytes)."""
    try:
        record = pickle.loads(row.body)
    except Exception as problem:  # whatever pickle raises on a bad body: the cache is set aside, not the game
        raise Unusable(f"its reopen cache does not load ({type(problem).__name__} in step {row.n})") from None
    if not isinstance(record, StepRecord):
        raise Unusable(f"its reopen cache holds something else than a step at step {row.n}")
    return record


def check_snapshot(snapshot: Snapshot) -> None:
    """The snapshot a game goes on from loads (``Unusable`` if not): the engine unpickles it again."""
    try:
        pickle.loads(snapshot.data)
    except Exception as problem:  # as ``_loaded``: the kind of failure, never the bytes
        raise Unusable(f"its snapshot after {snapshot.played} inputs does not load "
                       f"({type(problem).__name__})") from None
