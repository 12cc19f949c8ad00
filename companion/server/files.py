"""Files the service writes in its state directory: whole or not at all.

Why: a power cut, a full card or a read-only card must never leave half a
file, a stray temporary file, or a change that was reported as refused but
half made. So a file is written to a temporary name, synced and renamed over
the old one, and the temporary file is removed if anything fails; a failure
becomes the protocol's ``storage`` refusal, saying what could not be saved and
that nothing changed.

A ``Swap`` replaces several files as one (a backup's restore): each old file is
first renamed aside (a rename needs no free space), so ``undo`` can always put
it back, and ``finish`` keeps it as the ``.previous`` copy where the box keeps
one. ``recover`` undoes a swap that a power cut interrupted and sweeps the
temporary files such a cut leaves, at every start.
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
from pathlib import Path
from typing import Callable, Mapping

from companion.table import TableError

ASIDE = ".restore-old"
#: The ways a write fails because of the card (full, read-only, worn), not because of the code.
STORAGE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.EACCES, errno.EPERM,
                            errno.ENAMETOOLONG})
log = logging.getLogger(__name__)


def is_storage_problem(problem: BaseException) -> bool:
    return isinstance(problem, OSError) and problem.errno in STORAGE_ERRNOS


def storage_refusal(problem: OSError, what: str) -> TableError:
    """The ``storage`` refusal for a write the disk refused, in the owner's words."""
    why = problem.strerror or str(problem)
    advice = {errno.ENOSPC: "the box's card is full: free some space (old diagnostics, photos) and try again",
              errno.EDQUOT: "the box's card is full: free some space and try again",
              errno.EROFS: "the box's card is read-only: check the card, then restart the box"}
    return TableError("storage", f"{what} could not be saved ({why}), so nothing changed; "
                                 f"{advice.get(problem.errno or 0, 'check the box card and its health view')}")


def write_atomic(path: Path, data: bytes, what: str = "") -> None:
    """``data`` in ``path``, or the old file untouched and no temporary file left (``storage``)."""
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(temporary, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as problem:
        _remove(temporary)
        raise storage_refusal(problem, what or str(path)) from None


class Swap:
    """Files and folders replaced together; ``undo`` puts every old one back."""

    def __init__(self) -> None:
        self._done: list[tuple[Path, Path | None]] = []

    def put(self, path: Path, data: bytes, what: str = "") -> None:
        self.put_with(path, lambda target: write_atomic(target, data, what))

    def put_with(self, path: Path, make: Callable[[Path], None]) -> None:
        """``make(path)`` writes the new file or folder, once the old one is aside."""
        aside = path.with_name(path.name + ASIDE)
        if path.exists():
            _remove(aside)
            os.replace(path, aside)
            self._done.append((path, aside))
        else:
            self._done.append((path, None))
        make(path)

    def undo(self) -> None:
        """Every old file back; what cannot be put back is logged (``recover`` tries again at start)."""
        for path, aside in reversed(self._done):
            try:
                _remove(path)
                if aside is not None:
                    os.replace(aside, path)
            except OSError:
                log.exception("could not put %s back after a refused restore", path)
        self._done = []

    def finish(self, previous: Mapping[Path, Path] | None = None) -> None:
        """Done: each old file becomes its ``previous`` copy (if it has one) or is removed."""
        for path, aside in self._done:
            if aside is None:
                continue
            keep = (previous or {}).get(path)
            try:
                if keep is not None:
                    _remove(keep)
                    os.replace(aside, keep)
                else:
                    _remove(aside)
            except OSError:
                log.exception("could not tidy %s after a restore", aside)
        self._done = []


def recover(state_dir: Path) -> list[str]:
    """At start: a swap a power cut interrupted is undone (the old files come back) and the
    temporary files of writes it cut are removed. Returns what was done, for the log."""
    done: list[str] = []
    folders = [state_dir, *(p for p in state_dir.iterdir() if p.is_dir())] if state_dir.is_dir() else []
    for folder in folders:
        if folder.is_dir():  # not a cut write's folder removed a moment ago
            for entry in list(folder.iterdir()):
                done += _recover_entry(entry)
    return done


def _recover_entry(entry: Path) -> list[str]:
    try:
        if entry.name.endswith(ASIDE):
            original = entry.with_name(entry.name[:-len(ASIDE)])
            _remove(original)
            os.replace(entry, original)
            return [f"put back {original} (a restore was cut short)"]
        if entry.name.endswith(".tmp") or (entry.name.startswith(".") and entry.name.endswith(".new")) \
                or (entry.is_dir() and entry.name.startswith(".dice.")):
            _remove(entry)
            return [f"removed {entry} (a write was cut short)"]
    except OSError as problem:
        log.warning("could not tidy %s: %s", entry, problem)
    return []


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
