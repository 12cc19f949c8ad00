"""Typed records of a Horrified box: what every edition prints on its board, cards,
tiles and tokens. An edition's loader (its ``pack.py``) reads them from its data
files; an edition adds its own fields by subclassing (a hero tile's special-action
table), and each monster plug-in brings the record of its own mat (``details``).

Every record carries ``verified``: True only where the rulebook (or the owner)
states the datum; everything else is a guess and says so, so the tablet can show
it and the owner can correct it (docs/game-data.md).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Callable, Literal, Mapping, TypeVar

from companion.engine.dice import DiceSet

_R = TypeVar("_R")

#: An item's type (its colour on the token): the edition's words, e.g. "weapon".
ItemType = str
#: The symbol on the attack line that calls the frenzied monster (RL-FR-1).
FRENZY = "frenzy"
DieFace = Literal["hit", "pow", "blank"]
#: Locations on the main board; other areas are extra mats that join it while the monster
#: that brings them is in play.
MAIN_BOARD = "board"


@dataclass(frozen=True)
class Location:
    """A place on the board; ``number`` is the number printed on it, where it has one."""

    id: str
    name: str
    number: int | None
    x: float  # 0..1 across the board picture, for drawing
    y: float  # 0..1 down the board picture
    area: str = MAIN_BOARD
    verified: bool = False


@dataclass(frozen=True)
class Connection:
    """A way between two places: ``kind`` says what it is on the board (a road, water), ``only``
    the movers who may take it (None: everyone; a plug-in's ``mover`` names its figures)."""

    a: str
    b: str
    verified: bool = False
    kind: str = ""
    only: frozenset[str] | None = None


@dataclass(frozen=True)
class BoardData:
    locations: tuple[Location, ...]
    connections: tuple[Connection, ...]
    terror_max: int
    terror_max_verified: bool


@dataclass(frozen=True)
class Item:
    """One Item token of the bag (RL-IT-1)."""

    id: str
    name: str
    type: ItemType
    strength: int
    location: str
    verified: bool = False


@dataclass(frozen=True)
class Villager:
    id: str
    name: str
    safe_location: str
    verified: bool = False


@dataclass(frozen=True)
class Effect:
    """A rule effect built from the primitive library: ``kind`` names the
    primitive, ``params`` its arguments. ``text`` is what the tablet says."""

    kind: str
    params: Mapping[str, object] = field(default_factory=dict)
    text: str = ""


@dataclass(frozen=True)
class Hero:
    """A hero tile: what every edition prints on it. An edition subclasses it for the rest."""

    id: str
    name: str
    actions: int
    start: str
    verified: bool = field(default=False, kw_only=True)


@dataclass(frozen=True)
class Perk:
    id: str
    name: str
    effect: Effect
    verified: bool = False


@dataclass(frozen=True)
class AttackLine:
    """The Monster Attack line: symbols left to right, then locations moved and
    Monster dice, shared by every symbol on the line."""

    symbols: tuple[str, ...]  # the monsters' symbols, or FRENZY
    move: int
    dice: int


@dataclass(frozen=True)
class MonsterCard:
    id: str
    name: str
    items: int
    event: Effect
    attack: AttackLine
    verified: bool = False


@dataclass(frozen=True)
class Monster:
    """A Monster mat. ``details`` is what is printed on this monster's mat alone, the
    record its plug-in's parser built (the plug-in reads it back with its own type)."""

    id: str
    name: str
    frenzy_order: int
    symbols: tuple[str, ...]
    start: str
    complexity: str
    power: str  # the Power's name, e.g. "Silver Needle"
    details: object
    verified: bool = False


@dataclass(frozen=True)
class Pack:
    """Everything static about one game box."""

    name: str
    board: BoardData
    items: tuple[Item, ...]
    villagers: tuple[Villager, ...]
    heroes: tuple[Hero, ...]
    perks: tuple[Perk, ...]
    cards: tuple[MonsterCard, ...]
    monsters: tuple[Monster, ...]
    monster_die: tuple[DieFace, ...]  # the six faces of one Monster die
    monster_die_verified: bool = False
    dice_sets: tuple[DiceSet, ...] = ()  # the box's own dice as the camera knows them (none: the shared sets)
    _index: dict[str, dict[str, object]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._index.update(
            item={r.id: r for r in self.items},
            villager={r.id: r for r in self.villagers},
            hero={r.id: r for r in self.heroes},
            perk={r.id: r for r in self.perks},
            card={r.id: r for r in self.cards},
            monster={r.id: r for r in self.monsters},
            location={r.id: r for r in self.board.locations},
        )

    def item(self, item_id: str) -> Item:
        return self.get("item", item_id, Item)

    def villager(self, villager_id: str) -> Villager:
        return self.get("villager", villager_id, Villager)

    def hero(self, hero_id: str) -> Hero:
        return self.get("hero", hero_id, Hero)

    def perk(self, perk_id: str) -> Perk:
        return self.get("perk", perk_id, Perk)

    def card(self, card_id: str) -> MonsterCard:
        return self.get("card", card_id, MonsterCard)

    def monster(self, monster_id: str) -> Monster:
        return self.get("monster", monster_id, Monster)

    def location(self, location_id: str) -> Location:
        return self.get("location", location_id, Location)

    def item_label(self, item_id: str) -> str:
        """How an item token reads on a button."""
        item = self.item(item_id)
        return f"{item.name} ({item.type} {item.strength}, {self.location(item.location).name})"

    def with_item_records(self, view: Callable[[Item], Item]) -> Pack:
        """A copy of the pack whose item records are ``view(record)``, sharing its memos: the
        forecast's walk watches through it which figures of a drawn item the rules read."""
        viewed = copy.copy(self)
        index = dict(self._index)
        index["item"] = {item_id: view(record) for item_id, record in self._index["item"].items()
                         if isinstance(record, Item)}
        object.__setattr__(viewed, "_index", index)
        return viewed

    def memo(self, name: str) -> dict[str, object]:
        """A cache for data derived from the pack (which never changes once loaded)."""
        return self._index.setdefault(f"memo:{name}", {})

    def has(self, kind: str, wanted: str) -> bool:
        return wanted in self._index[kind]

    def get(self, kind: str, wanted: str, cls: type[_R]) -> _R:
        """The record of ``kind`` called ``wanted``, as ``cls`` (an edition's own subclass)."""
        record = self._index[kind].get(wanted)
        if not isinstance(record, cls):
            raise UnknownPackEntry(f"the pack has no {kind} called {wanted!r}")
        return record


class UnknownPackEntry(KeyError):
    """A name that the pack does not have (a bug or a stale save file)."""
