"""The table's record of what lay on the real table after each step, and what the shell derives
from it for every game alike (docs/protocol.md, "The tabletop"): the pieces to put back after an
undo, the physical changes of each step (the history), the changes of the phase under way (its
summary) and the setup checklist of a new game (the changes from an empty table).

Why beside the table and not in a pack: a pack says only what its table looks like
(``GamePack.tabletop``); everything here is the same for every game, so no pack hand-writes
a put-back list, and none can claim that nothing moves when it does not know."""

from __future__ import annotations

from typing import Callable, Sequence

from companion.engine.tabletop import EMPTY, Change, Tabletop, changes, to_plain

Plain = dict[str, object]


class Record(Sequence[Tabletop]):
    """The tabletop after each live input: ``record[n]`` after ``n`` inputs (``record[0]``: the
    opening table). The opening and the newest ``keep`` are kept (what views, the history and a
    phase need); an older one is worked out again by ``work_out(n)`` when asked, so a long game's
    replay (a restart, an undo) lays out only the tables it shows."""

    def __init__(self, opening: Tabletop, work_out: Callable[[int], Tabletop], keep: int) -> None:
        self._kept: dict[int, Tabletop] = {0: opening}
        self._last = 0
        self._work_out = work_out
        self._keep = keep

    def __len__(self) -> int:
        return self._last + 1

    def __getitem__(self, n: int) -> Tabletop:  # type: ignore[override]  # one item, never a slice
        index = n + len(self) if n < 0 else n
        if not 0 <= index < len(self):
            raise IndexError(f"no tabletop after {n} inputs: there are {self._last}")
        found = self._kept.get(index)
        return self._work_out(index) if found is None else found

    def append(self, table: Tabletop | None) -> None:
        """The table after one more input (None: not laid out now; worked out if ever asked)."""
        self._last += 1
        if table is not None:
            self._kept[self._last] = table
        self._kept.pop(self._last - self._keep, None) if self._last - self._keep > 0 else None


def change_list(now: Tabletop, then: Tabletop) -> list[Plain]:
    """The changes from ``now`` to ``then`` as the protocol sends them."""
    return [change.to_plain() for change in changes(now, then)]


def setup_list(opening: Tabletop) -> list[Plain]:
    """How to lay out a new game's table: the changes from an empty table."""
    return change_list(EMPTY, opening)


def step_moves(tabletops: Sequence[Tabletop], index: int) -> list[str]:
    """What input ``index`` (0: the first) changed on the table, in words."""
    return [change.text for change in changes(tabletops[index], tabletops[index + 1])]


def phase_summary(tabletops: Sequence[Tabletop], start: int) -> Plain:
    """The phase that began with input ``start``: the version it began at and what has changed on
    the table since (the difference from its start, never a list of effects by name)."""
    return {"version": start, "changes": change_list(tabletops[start], tabletops[-1])}


def put_back(now: Tabletop, then: Tabletop) -> list[Change]:
    return changes(now, then)


def plain_tabletop(table: Tabletop) -> Plain:
    return to_plain(table)
