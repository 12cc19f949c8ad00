"""The table's record of what lay on the real table after each step, and what the shell derives
from it for every game alike (docs/protocol.md, "The tabletop"): the pieces to put back after an
undo, the physical changes of each step (the history), the changes of the phase under way (its
summary) and the setup checklist of a new game (the changes from an empty table).

Why beside the table and not in a pack: a pack says only what its table looks like
(``GamePack.tabletop``); everything here is the same for every game, so no pack hand-writes
a put-back list, and none can claim that nothing moves when it does not know."""

from __future__ import annotations

from typing import Callable, Sequence

from companion.engine.effects import Effect
from companion.engine.tabletop import EMPTY, Change, Tabletop, changes, to_plain

Plain = dict[str, object]


class Record(Sequence[Tabletop]):
    """The tabletop after each live input: ``record[n]`` after ``n`` inputs (``record[0]``: the
    opening table). The opening and the newest ``keep`` are kept (what views, the history and a
    phase need); an older one is worked out again by ``work_out(n)`` when first asked (and kept),
    so a long game's replay (a restart, an undo) lays out only the tables it shows."""

    def __init__(self, opening: Tabletop | None, work_out: Callable[[int], Tabletop], keep: int) -> None:
        """``opening``: None when it is not at hand (a game reopened from a snapshot): worked out if asked."""
        self._kept: dict[int, Tabletop] = {} if opening is None else {0: opening}
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
        if found is None:  # kept once worked out: a phase's start is asked by every view until it ends
            found = self._kept[index] = self._work_out(index)
        return found

    def drop(self, count: int) -> None:
        """The last ``count`` inputs taken back (an undo): their tables go."""
        for index in range(self._last - count + 1, self._last + 1):
            self._kept.pop(index, None)
        self._last -= count

    def append(self, table: Tabletop | None) -> None:
        """The table after one more input (None: not laid out now; worked out if ever asked)."""
        self._last += 1
        if table is not None:
            self._kept[self._last] = table
        self._kept.pop(self._last - self._keep, None) if self._last - self._keep > 0 else None


def change_list(now: Tabletop, then: Tabletop) -> list[Plain]:
    """The changes from ``now`` to ``then`` as the protocol sends them."""
    return [change.to_plain() for change in changes(now, then)]


#: A new game's pieces going onto one place in a group of at least this many make one line (the item
#: tokens into their bag, the cards into their deck), so the setup checklist stays short enough to follow.
SETUP_GROUP = 4


def setup_list(opening: Tabletop) -> list[Plain]:
    """How to lay out a new game's table: the changes from an empty table, the pieces that go onto
    one place together in one line (``"what": "pieces"``, their ids in ``ids``)."""
    found = changes(EMPTY, opening)
    groups: dict[str, list[Change]] = {}
    for change in found:
        if change.what == "piece":
            groups.setdefault(str(change.after), []).append(change)
    listed: list[Plain] = []
    for change in found:
        group = groups.get(str(change.after), []) if change.what == "piece" else []
        if len(group) < SETUP_GROUP:
            listed.append(change.to_plain())
        elif change is group[0]:
            listed.append(_group_line(opening, str(change.after), group))
    return listed


def _group_line(opening: Tabletop, place: str, group: list[Change]) -> Plain:
    names = ", ".join(opening.pieces[change.id].name for change in group)
    return {"what": "pieces", "id": place, "ids": [change.id for change in group], "before": "", "after": place,
            "text": f"Bring to {opening.where(place)} ({len(group)}): {names}."}


def step_moves(tabletops: Sequence[Tabletop], index: int) -> list[str]:
    """What input ``index`` (0: the first) changed on the table, in words."""
    return [change.text for change in changes(tabletops[index], tabletops[index + 1])]


def phase_of(name: str, tops: Sequence[Tabletop], begun: int, ended: int | None, versions: Sequence[int]) -> Plain:
    """The phase that began with input ``begun`` (and ended with input ``ended``, None: under way):
    its name, the versions after those inputs, and what changed on the table from its start to
    its end or now (its summary: the difference of two tabletops, never a list of effects)."""
    last = len(tops) - 1 if ended is None else ended + 1
    return {"name": name, "begun": versions[begun], "ended": None if ended is None else versions[ended],
            "changes": change_list(tops[begun], tops[last])}


def phase_end(effects: Sequence[Sequence[Effect]], begun: int, marks: frozenset[str], ends: frozenset[str]) -> int | None:
    """The input that ended the phase begun by input ``begun``: the first with an end mark after
    the begin mark (the same input may begin and end it, as a box opponent's whole turn does)."""
    for index in range(begun, len(effects)):
        kinds = [e.kind for e in effects[index]]
        if index == begun:
            after = max(i for i, kind in enumerate(kinds) if kind in marks)
            kinds = kinds[after + 1:]
        if any(kind in ends for kind in kinds):
            return index
    return None


def put_back(now: Tabletop, then: Tabletop) -> list[Change]:
    return changes(now, then)


def plain_tabletop(table: Tabletop) -> Plain:
    return to_plain(table)
