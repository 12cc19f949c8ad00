"""Typed records of the Ravenloft game pack: what is printed on the board, cards,
tiles and tokens. Loaded once from the JSON files in ``data/`` by ``pack.py``.

Every record carries ``verified``: True only where the rulebook (or the owner)
states the datum. Everything else is our best guess and says so, so the tablet
can show it and the owner can correct it (see docs/game-data.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Mapping, TypeVar, Union

_R = TypeVar("_R")

ItemType = Literal["weapon", "magical", "mundane"]
ITEM_TYPES: tuple[ItemType, ...] = ("weapon", "magical", "mundane")

#: Colour symbols printed on Monster mats and Monster cards (rulebook "Monster Color Symbols").
SYMBOL_COLOURS: Mapping[str, str] = {
    "chest": "yellow",
    "sword": "orange",
    "wand": "purple",
    "skull": "blue",
    "hat": "brown",
    "spellbook": "teal",
    "potion": "green",
    "shield": "red",
}
FRENZY = "frenzy"
DieFace = Literal["hit", "pow", "blank"]
Area = Literal["board", "castle-mat"]


@dataclass(frozen=True)
class Location:
    """A place on the board; ``number`` is its d20 number where it has one."""

    id: str
    name: str
    number: int | None
    x: float  # 0..1 across the board picture, for drawing
    y: float  # 0..1 down the board picture
    area: Area = "board"
    verified: bool = False


@dataclass(frozen=True)
class Connection:
    a: str
    b: str
    verified: bool = False


@dataclass(frozen=True)
class BoardData:
    locations: tuple[Location, ...]
    connections: tuple[Connection, ...]
    terror_max: int
    terror_max_verified: bool
    gates: str  # where defeated heroes come back (RL-TU-3)
    madam_evas_tent: str
    castle_link: tuple[str, str]  # Ravenloft: Grand Stairway <-> the castle mat's Stairs (RL-ST-6)


@dataclass(frozen=True)
class Item:
    """One of the 60 Item tokens in the Haversack (RL-IT-1)."""

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
class D20Entry:
    """One row of a hero tile's special-action table: results low..high."""

    low: int
    high: int
    effect: Effect


@dataclass(frozen=True)
class DarkGift:
    name: str
    text: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Hero:
    id: str
    name: str
    actions: int
    start: str
    special: tuple[D20Entry, ...]
    gift: DarkGift
    special_after_gift: tuple[D20Entry, ...]
    verified: bool = False


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

    symbols: tuple[str, ...]  # colour symbols or "frenzy"
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
class SparePart:
    """A Carrionette spare part: a swapped item matching its type or strength gets a bonus."""

    type: ItemType
    strength: int


@dataclass(frozen=True)
class CarrionetteDetails:
    spare_parts: tuple[SparePart, ...]
    swap_target: int  # 15 (RL-CA-2)
    match_bonus: int  # 5
    double_match_bonus: int  # 10
    defeat_target: int  # 15 (RL-CA-3)


@dataclass(frozen=True)
class RootGroup:
    """Roots sharing one symbol picture; a Root showing k symbols has k-1 siblings (RL-GT-6)."""

    id: str
    count: int


@dataclass(frozen=True)
class GulthiasTreeDetails:
    roots: tuple[RootGroup, ...]  # counts add up to 9 (RL-SU-7)
    blights: int  # 3
    prune_target: int  # 8 (RL-GT-5)
    defeat_target: int  # 15 (RL-GT-7)


@dataclass(frozen=True)
class HutSpace:
    id: str
    links: tuple[str, ...]


@dataclass(frozen=True)
class HutToken:
    """A face-down Hut token: a scarecrow or a raven with a target, or Baba Lysaga herself."""

    id: str
    kind: Literal["scarecrow", "raven", "witch"]
    target: int | None


@dataclass(frozen=True)
class BabaLysagaDetails:
    spaces: tuple[HutSpace, ...]  # the Hut on her mat, as a little graph
    gem_start: str
    door: str
    tokens: tuple[HutToken, ...]  # five, on the five non-Door spaces other than the Gem's
    defeat_target: int  # 15 (RL-BL-3)


@dataclass(frozen=True)
class TarokkaCard:
    id: str
    name: str
    type: ItemType
    location: str
    relic: str


@dataclass(frozen=True)
class Relic:
    id: str
    name: str
    return_to: str  # Chapel, Study or Tomb (RL-ST-3)


@dataclass(frozen=True)
class StrahdDetails:
    tarokka: tuple[TarokkaCard, ...]  # six; three lie face down on the mat (RL-SU-9)
    relics: tuple[Relic, ...]
    heart_location: str
    north_tower: str
    heart_target: int  # 15 (RL-ST-4)
    defeat_target: int  # 15 (RL-ST-5)
    showdown_items: int  # 3


MonsterDetails = Union[CarrionetteDetails, GulthiasTreeDetails, BabaLysagaDetails, StrahdDetails]


@dataclass(frozen=True)
class Monster:
    """A Monster mat. ``details`` holds the mat-specific data read by that
    monster's rules module (companion/games/ravenloft/monsters/)."""

    id: str
    name: str
    frenzy_order: int
    symbols: tuple[str, ...]
    start: str
    complexity: str
    power: str  # the Power's name, e.g. "Silver Needle"
    details: MonsterDetails
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
        return self._get("item", item_id, Item)

    def villager(self, villager_id: str) -> Villager:
        return self._get("villager", villager_id, Villager)

    def hero(self, hero_id: str) -> Hero:
        return self._get("hero", hero_id, Hero)

    def perk(self, perk_id: str) -> Perk:
        return self._get("perk", perk_id, Perk)

    def card(self, card_id: str) -> MonsterCard:
        return self._get("card", card_id, MonsterCard)

    def monster(self, monster_id: str) -> Monster:
        return self._get("monster", monster_id, Monster)

    def location(self, location_id: str) -> Location:
        return self._get("location", location_id, Location)

    def item_label(self, item_id: str) -> str:
        """How an item token reads on a button."""
        item = self.item(item_id)
        return f"{item.name} ({item.type} {item.strength}, {self.location(item.location).name})"

    def memo(self, name: str) -> dict[str, object]:
        """A cache for data derived from the pack (which never changes once loaded)."""
        return self._index.setdefault(f"memo:{name}", {})

    def has(self, kind: str, wanted: str) -> bool:
        return wanted in self._index[kind]

    def _get(self, kind: str, wanted: str, cls: type[_R]) -> _R:
        record = self._index[kind].get(wanted)
        if not isinstance(record, cls):
            raise UnknownPackEntry(f"the pack has no {kind} called {wanted!r}")
        return record


class UnknownPackEntry(KeyError):
    """A name that the pack does not have (a bug or a stale save file)."""
