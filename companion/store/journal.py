"""A game's journal: every input, undo and redo, in order, never rewritten.

Undo does not delete: it is an entry of its own. Folding the journal gives the
live inputs (what the engine replays) and the redo stack (what redo brings
back). So nothing the players entered is ever lost, even what they undid.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Mapping, Sequence

EntryKind = Literal["input", "undo", "redo"]


@dataclass(frozen=True)
class JournalEntry:
    kind: EntryKind
    entry: Mapping[str, object] | None = None  # the input, for kind "input"
    count: int = 0  # how many, for "undo" and "redo"

    def to_plain(self) -> dict[str, object]:
        if self.kind == "input":
            return {"kind": "input", "entry": dict(self.entry or {})}
        return {"kind": self.kind, "count": self.count}


def fold_journal(entries: Sequence[JournalEntry]) -> tuple[list[Mapping[str, object]], list[Mapping[str, object]]]:
    """The live inputs and the redo stack (last undone first) after ``entries``."""
    live: list[Mapping[str, object]] = []
    undone: list[Mapping[str, object]] = []
    for item in entries:
        if item.kind == "input":
            assert item.entry is not None
            live.append(item.entry)
            undone.clear()
        elif item.kind == "undo":
            for _ in range(item.count):
                undone.append(live.pop())
        else:
            for _ in range(item.count):
                live.append(undone.pop())
    return live, undone
