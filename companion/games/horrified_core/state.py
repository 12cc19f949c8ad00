"""A Horrified table as plain typed data.

Everything here is what the physical table shows (who stands where, which
items lie where, terror, frenzy) plus the little bookkeeping the rules need
(actions left, this turn's bonuses). It round-trips through JSON with
``companion.engine.plain``, which is also the format of a saved state. An edition
subclasses the records that carry its own marks (a hero's, a turn's bonuses), and
each monster plug-in adds its mat to the open family :data:`MATS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Mapping, Self

from companion.engine.plain import OpenFamily

Phase = Literal["setup", "hero", "monster", "over"]


@dataclass
class HeroState:
    id: str
    player: str  # the name of the person playing this hero
    location: str | None  # None while defeated (RL-MP-18, RL-TU-3)
    items: list[str] = field(default_factory=list)
    relics: list[str] = field(default_factory=list)  # a monster's tokens carried like items, never spent (RL-IT-5)
    perks: list[str] = field(default_factory=list)


@dataclass
class VillagerState:
    id: str
    location: str | None = None  # None: not on the board
    clutched: bool = False  # carried to their safe location by a monster: not rescued until a hero comes (RL-VI-3)


@dataclass
class MonsterState:
    id: str
    location: str | None
    defeated: bool = False


@dataclass
class Mat:
    """What lies on one monster's mat during a game. Each monster plug-in that has one
    declares its own dataclass below this one, with its ``kind``, and adds it to ``MATS``."""

    kind: str = ""


MATS = OpenFamily(Mat, "monster mat")


@dataclass
class TurnBonuses:
    """Effects that last for part of one turn (RL-HA-9). An edition adds its own."""

    spared: list[str] = field(default_factory=list)  # heroes no monster attacks in this turn's Monster Phase

    def new_turn(self) -> Self:
        """Nothing lasts from one turn into the next."""
        return type(self)()

    def for_monster_phase(self) -> Self:
        """What the Hero Phase leaves for this turn's Monster Phase: the spared heroes."""
        return type(self)(spared=list(self.spared))

    def skips_monster_phase(self) -> bool:
        """Whether this turn's Monster Phase is not played (an edition's Perk may say so)."""
        return False


@dataclass
class GameState:
    seats: list[str]  # hero ids in clockwise order
    active: int  # index into seats of the active player
    turn: int
    phase: Phase
    terror: int
    frenzy: str | None
    heroes: Mapping[str, HeroState]
    monsters: dict[str, MonsterState]
    mats: dict[str, Mat]
    villagers: dict[str, VillagerState]
    deck: list[str]  # Monster cards not yet drawn (which comes next is an input)
    played_cards: list[str] = field(default_factory=list)
    entered_cards: dict[str, dict[str, object]] = field(default_factory=dict)  # typed in at the table, by id
    haversack: list[str] = field(default_factory=list)
    item_discard: list[str] = field(default_factory=list)
    removed_items: list[str] = field(default_factory=list)  # out of the game for good
    items_at: dict[str, str] = field(default_factory=dict)  # item id -> board location
    perk_deck: list[str] = field(default_factory=list)
    perk_discard: list[str] = field(default_factory=list)
    actions_left: int = 0
    bonuses: TurnBonuses = field(default_factory=TurnBonuses)
    outcome: str | None = None  # "won", "lost: terror", "lost: out of time"
    data: dict[str, object] | None = None  # the owner's data this game plays with (ownerdata.py); None: as shipped
    data_id: str = ""  # its fingerprint: names the pack built from it

    @property
    def active_hero(self) -> HeroState:
        return self.heroes[self.seats[self.active]]

    def monsters_in_play(self) -> list[MonsterState]:
        """Undefeated monsters, in Frenzy Order (their order in ``monsters``)."""
        return [m for m in self.monsters.values() if not m.defeated]

    def heroes_at(self, location: str) -> list[HeroState]:
        return [h for h in self.heroes.values() if h.location == location]

    def villagers_at(self, location: str) -> list[VillagerState]:
        return [v for v in self.villagers.values() if v.location == location]

    def items_on(self, location: str) -> list[str]:
        return [item for item, where in self.items_at.items() if where == location]
