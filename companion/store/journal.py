"""A game's journal: every input, undo and redo, in order, never rewritten.

Undo does not delete: it is an entry of its own. Folding the journal gives the
live inputs (what the engine replays) and the redo stack (what redo brings
back). So nothing the players entered is ever lost, even what they undid.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Mapping, Sequence

EntryKind = Literal["input", "undo", "redo"]


class BrokenJournal(ValueError):
    """A journal that cannot be folded: it undoes or redoes more than there is."""


@dataclass(frozen=True)
class JournalEntry:
    kind: EntryKind
    entry: Mapping[str, object] | None = None  # the input, for kind "input"
    count: int = 0  # how many, for "undo" and "redo"

    def to_plain(self) -> dict[str, object]:
        if self.kind == "input":
            return {"kind": "input", "entry": dict(self.entry or {})}
        return {"kind": self.kind, "count": self.count}


@dataclass(frozen=True)
class Folded:
    """A folded journal. ``versions[i]`` is the game's version (journal length)
    just after ``live[i]`` became live, so the history can name each input by it."""

    live: list[Mapping[str, object]]
    redo: list[Mapping[str, object]]  # a stack: the next redo is the last item
    versions: list[int]


def fold_journal(entries: Sequence[JournalEntry]) -> tuple[list[Mapping[str, object]], list[Mapping[str, object]]]:
    """The live inputs and the redo stack (the next redo last) after ``entries``."""
    folded = fold(entries)
    return folded.live, folded.redo


def fold(entries: Sequence[JournalEntry]) -> Folded:
    """Fold ``entries``; a ``BrokenJournal`` names the first entry that cannot apply."""
    live: list[Mapping[str, object]] = []
    versions: list[int] = []
    undone: list[Mapping[str, object]] = []
    for version, item in enumerate(entries, start=1):
        if item.kind == "input":
            assert item.entry is not None
            live.append(item.entry)
            versions.append(version)
            undone.clear()
        elif item.kind == "undo":
            _check_count(version, "undo", item.count, len(live), "inputs")
            for _ in range(item.count):
                undone.append(live.pop())
                versions.pop()
        else:
            _check_count(version, "redo", item.count, len(undone), "undone inputs")
            for _ in range(item.count):
                live.append(undone.pop())
                versions.append(version)
    return Folded(live, undone, versions)


def _check_count(version: int, kind: str, count: int, available: int, what: str) -> None:
    if count > available:
        raise BrokenJournal(f"journal entry {version} asks to {kind} {count} but there are only {available} {what}")
