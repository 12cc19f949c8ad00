"""What the rules read while the forecast walks a Monster Phase, and the snapshots it goes on from.

Two kinds of reads are noted (``ReadLog``):

- of items: a drawn item's ``FIGURES`` (``ReadItem``), and the board's items (``WatchedItems``),
  so an item draw is walked once per group of items alike in what was read (``walk``);
- of the table's *loose* fields (``LOOSE``: the bag, the discard piles, the items on the board,
  the Perk deck, the played cards): piles that many ways of a phase leave different (which item
  came out, which was discarded) but that the rest of a phase seldom looks at. They are kept in
  ``WatchedList``/``WatchedItems``, which note a read whenever their content is looked at, and not
  when something is only put on or taken off them (append, extend, clear, a del).

A snapshot (``Snapshot``) keeps the loose fields apart from the rest (``core``), so the memo of the
walk can ask for only the loose fields that were read below a boundary: two boundaries whose
table differs only in piles nothing below looked at have the same future, read by the same rules.
"""

from __future__ import annotations

import pickle
from typing import Iterator, NamedTuple, SupportsIndex

from ..pack_types import Item
from ..state import GameState

#: What the rules may read of an item token's own figures; its place is read through the board.
FIGURES = ("strength", "type")
PLACE = "location"
#: How a read of the board's items is noted: the place of every item being watched was read.
BOARD = ("", PLACE)
#: Who a read of a loose field of the table is noted for: (``TABLE``, the field's name).
TABLE = "@table"
#: How a look at one item's place on the board is noted: (``TABLE``, ``PLACED`` + the item's id).
PLACED = "items_at:"
#: The table's loose fields: lists of ids (and ``items_at``, item id -> place).
LOOSE = ("haversack", "item_discard", "removed_items", "items_at", "perk_deck", "perk_discard", "played_cards")


class ReadLog:
    """What the rules read while the walk watches: for each drawn item whose ways are being walked
    (``watch``), its ``FIGURES`` read, and its place when the board's items are looked at;
    everything read below a memoized question (``records``), to tell again when its value is taken
    from the memo; and the loose fields read since the last boundary (``segment``)."""

    def __init__(self) -> None:
        self.open: dict[str, list[set[str]]] = {}
        self.records: list[set[tuple[str, str]]] = []
        self.segment: set[str] = set()

    def read(self, item_id: str, figure: str) -> None:
        for record in self.records:
            record.add((item_id, figure))
        if item_id == TABLE:
            self.segment.add(figure)
            return
        if (item_id, figure) == BOARD:
            for frames in self.open.values():
                for noted in frames:
                    noted.add(PLACE)
            return
        for noted in self.open.get(item_id, ()):
            noted.add(figure)

    def watch(self, item_id: str) -> set[str]:
        """Start noting the reads of ``item_id``; the set they go in (``unwatch`` it when done)."""
        noted: set[str] = set()
        self.open.setdefault(item_id, []).append(noted)
        return noted

    def unwatch(self, item_id: str, noted: set[str]) -> None:
        frames = self.open[item_id]
        del frames[next(n for n, frame in enumerate(frames) if frame is noted)]


class ReadItem(Item):
    """An item record that notes in its ``ReadLog`` when the rules read one of its ``FIGURES``."""

    def __getattribute__(self, name: str) -> object:
        if name in FIGURES:
            log: ReadLog = object.__getattribute__(self, "__dict__")["_log"]
            log.read(object.__getattribute__(self, "id"), name)
        return object.__getattribute__(self, name)


def reading(item: Item, log: ReadLog) -> Item:
    """``item`` as a ``ReadItem`` noting its reads in ``log``."""
    watched = ReadItem.__new__(ReadItem)
    watched.__dict__.update(vars(item), _log=log)
    return watched


class WatchedList(list[str]):
    """A loose field of the table (a pile of ids) that notes in its ``ReadLog`` every look at its
    content; putting on and taking off (append, extend, insert, clear, sort, ``+=``, a slice set or
    deleted) is not a look. Whatever the rules look at goes through a method below (the list's own
    C code reads a subclass's items only through them, but for the ones overridden here)."""

    def __init__(self, items: list[str], log: ReadLog, name: str) -> None:
        super().__init__(items)
        self.log, self.name = log, name

    def _look(self) -> None:
        self.log.read(TABLE, self.name)

    def __reduce__(self) -> tuple[type, tuple[list[str]]]:
        self._look()  # a copy can be read without this list knowing
        return list, (list.copy(self),)

    def __iter__(self) -> Iterator[str]:
        self._look()
        return list.__iter__(self)

    def __reversed__(self) -> Iterator[str]:
        self._look()
        return list.__reversed__(self)

    def __len__(self) -> int:
        self._look()
        return list.__len__(self)

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        self._look()
        return list.__getitem__(self, index)

    def __contains__(self, item: object) -> bool:
        self._look()
        return list.__contains__(self, item)

    def __eq__(self, other: object) -> bool:
        self._look()
        return list.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        self._look()
        return list.__ne__(self, other)

    def __lt__(self, other: list[str]) -> bool:
        self._look()
        return list.__lt__(self, other)

    def __le__(self, other: list[str]) -> bool:
        self._look()
        return list.__le__(self, other)

    def __gt__(self, other: list[str]) -> bool:
        self._look()
        return list.__gt__(self, other)

    def __ge__(self, other: list[str]) -> bool:
        self._look()
        return list.__ge__(self, other)

    def __add__(self, other):  # type: ignore[no-untyped-def]
        self._look()
        return list.__add__(self, other)

    def __radd__(self, other):  # type: ignore[no-untyped-def]
        self._look()
        return other + list.copy(self)

    def __mul__(self, times: SupportsIndex) -> list[str]:
        self._look()
        return list.__mul__(self, times)

    __rmul__ = __mul__

    def __repr__(self) -> str:
        self._look()
        return list.__repr__(self)

    def copy(self) -> list[str]:
        self._look()
        return list.copy(self)

    def index(self, *args):  # type: ignore[no-untyped-def]
        self._look()
        return list.index(self, *args)

    def count(self, item: str) -> int:
        self._look()
        return list.count(self, item)

    def pop(self, index: SupportsIndex = -1) -> str:
        self._look()
        return list.pop(self, index)

    def remove(self, item: str) -> None:
        self._look()  # it fails on a list without the item: the content counts
        list.remove(self, item)

    __hash__ = None


class WatchedItems(dict[str, str]):
    """The items on the board, telling the ``ReadLog`` whenever the rules look at them: a look at
    the whole board (``BOARD``, and the loose field ``items_at``), or at one item's place (that
    item's ``PLACE``, and ``PLACED`` + its id); setting and deleting an item's place is not a look."""

    def __init__(self, items: dict[str, str], log: ReadLog) -> None:
        super().__init__(items)
        self.log = log

    def _look(self) -> None:
        self.log.read(*BOARD)
        self.log.read(TABLE, "items_at")

    def _look_at(self, key: object) -> None:
        """A look at one item's place, or that it has none on the board (which says nothing of
        the place printed on it, by which drawn items are grouped)."""
        if dict.__contains__(self, key):
            self.log.read(str(key), PLACE)
        self.log.read(TABLE, f"{PLACED}{key}")

    def __reduce__(self) -> tuple[type, tuple[dict[str, str]]]:
        self._look()
        return dict, (dict(dict.items(self)),)

    def __getitem__(self, key: str) -> str:
        self._look_at(key)
        return super().__getitem__(key)

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        self._look_at(key)
        return super().get(key, default)

    def items(self):  # type: ignore[no-untyped-def]
        self._look()
        return super().items()

    def values(self):  # type: ignore[no-untyped-def]
        self._look()
        return super().values()

    def keys(self):  # type: ignore[no-untyped-def]
        self._look()
        return super().keys()

    def __iter__(self):  # type: ignore[no-untyped-def]
        self._look()
        return super().__iter__()

    def __reversed__(self):  # type: ignore[no-untyped-def]
        self._look()
        return super().__reversed__()

    def __contains__(self, key: object) -> bool:
        self._look_at(key)
        return super().__contains__(key)

    def __len__(self) -> int:
        self.log.read(TABLE, "items_at")  # how many lie there, not where
        return super().__len__()

    def __eq__(self, other: object) -> bool:
        self._look()
        return super().__eq__(other)

    def __ne__(self, other: object) -> bool:
        self._look()
        return super().__ne__(other)

    def __or__(self, other):  # type: ignore[no-untyped-def]
        self._look()
        return dict(dict.items(self)) | other

    def __ror__(self, other):  # type: ignore[no-untyped-def]
        self._look()
        return other | dict(dict.items(self))

    def __repr__(self) -> str:
        self._look()
        return super().__repr__()

    def copy(self) -> dict[str, str]:
        self._look()
        return dict(dict.items(self))

    def pop(self, key: str, *default: object) -> object:  # type: ignore[override]
        self._look_at(key)
        return super().pop(key, *default)

    def popitem(self) -> tuple[str, str]:
        self._look()
        return super().popitem()

    def setdefault(self, key: str, default: str) -> str:
        self._look_at(key)
        return super().setdefault(key, default)

    __hash__ = None


class Snapshot(NamedTuple):
    """A table at a boundary: ``core``, the pickle of (the state without its ``LOOSE`` fields, the
    point, who was attacked, who was defeated); ``loose``, each loose field's own pickle."""

    core: bytes
    loose: tuple[bytes, ...]


def snapshot(state: GameState, rest: tuple[object, ...]) -> Snapshot:
    """``state`` and ``rest`` (point, attacked, defeated) as a ``Snapshot``; looks at nothing."""
    kept = [getattr(state, name) for name in LOOSE]
    loose = tuple(pickle.dumps(_plain(value), pickle.HIGHEST_PROTOCOL) for value in kept)
    try:
        for name in LOOSE:
            setattr(state, name, None)
        core = pickle.dumps((state, *rest), pickle.HIGHEST_PROTOCOL)
    finally:
        for name, value in zip(LOOSE, kept):
            setattr(state, name, value)
    return Snapshot(core, loose)


def _plain(value: object) -> object:
    if isinstance(value, list):
        return list.copy(value)
    if isinstance(value, dict):
        return dict(dict.items(value))
    return value


def restored(taken: Snapshot, log: ReadLog) -> tuple[GameState, object, list[str], list[str]]:
    """A fresh copy of the table of ``taken``, its loose fields watched by ``log``; and its point,
    who was attacked and who defeated."""
    state, point, attacked, defeated = pickle.loads(taken.core)
    for name, data in zip(LOOSE, taken.loose):
        value = pickle.loads(data)
        setattr(state, name, WatchedItems(value, log) if isinstance(value, dict) else WatchedList(value, log, name))
    return state, point, attacked, defeated


def projection(taken: Snapshot, fields: frozenset[str]) -> bytes:
    """The loose fields named in ``fields`` of ``taken`` (and the places of single items named
    ``PLACED`` + item id), with their names, as bytes."""
    whole = b"".join(name.encode() + len(data).to_bytes(4, "big") + data
                     for name, data in zip(LOOSE, taken.loose) if name in fields)
    single = sorted(name for name in fields if name.startswith(PLACED))
    if not single:
        return whole
    board = pickle.loads(taken.loose[LOOSE.index("items_at")])
    return whole + pickle.dumps([(name, board.get(name[len(PLACED):])) for name in single], pickle.HIGHEST_PROTOCOL)
