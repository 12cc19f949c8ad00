"""The Ravenloft table as plain typed data.

Everything here is what the physical table shows (who stands where, which
items lie where, terror, frenzy) plus the little bookkeeping the rules need
(actions left, this turn's bonuses). It round-trips through JSON with
``companion.engine.plain``, which is also the format of a saved position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Union

Phase = Literal["setup", "hero", "monster", "over"]


@dataclass
class HeroState:
    id: str
    player: str  # the name of the person playing this hero
    location: str | None  # None while defeated (RL-MP-18, RL-TU-3)
    items: list[str] = field(default_factory=list)
    relics: list[str] = field(default_factory=list)
    perks: list[str] = field(default_factory=list)
    gift: bool = False  # Dark Gift accepted (RL-HA-8)
    hit_ignored_turn: int = -1  # the turn Yog last ignored a hit


@dataclass
class VillagerState:
    id: str
    location: str | None = None  # None: not on the board
    clutched: bool = False  # carried to its safe location by Baba Lysaga (RL-VI-3)


@dataclass
class MonsterState:
    id: str
    location: str | None
    defeated: bool = False


@dataclass
class CarrionetteMat:
    kind: Literal["carrionette"] = "carrionette"
    parts: list[str | None] = field(default_factory=list)  # item swapped onto each spare part


@dataclass
class TreeMat:
    kind: Literal["gulthias-tree"] = "gulthias-tree"
    roots: dict[str, int] = field(default_factory=dict)  # face-down Roots left, by group
    blights: list[str | None] = field(default_factory=list)  # each Twig Blight's location
    blights_used: list[int] = field(default_factory=list)  # Blights that acted this turn (RL-GT-2)


@dataclass
class HutMat:
    kind: Literal["baba-lysaga"] = "baba-lysaga"
    gem: str = ""
    face_down: list[str] = field(default_factory=list)  # Hut spaces with an unknown token
    revealed: dict[str, str] = field(default_factory=dict)  # space -> token id showing there
    removed: list[str] = field(default_factory=list)  # tokens taken out of the Hut (RL-BL-2)


@dataclass
class StrahdMat:
    kind: Literal["strahd"] = "strahd"
    revealed: dict[str, str] = field(default_factory=dict)  # item type -> Tarokka card shown
    relics_on_board: dict[str, str] = field(default_factory=dict)  # relic -> location
    relics_returned: list[str] = field(default_factory=list)
    heart_destroyed: bool = False


Mat = Union[CarrionetteMat, TreeMat, HutMat, StrahdMat]


@dataclass
class TurnBonuses:
    """Effects that last for part of one turn (RL-HA-9)."""

    roll_bonus: int = 0  # Paladin: + to Advance/Defeat rolls this Hero Phase
    slow_monsters: int = 0  # Ranger: monsters move this many fewer this Monster Phase
    ward: int = 0  # Warlock: hits on heroes ignored this Monster Phase
    extra_actions: int = 0
    next_roll: int = 0  # Perk cards played for "+N to your next Advance or Defeat roll", not yet rolled
    spared: list[str] = field(default_factory=list)  # heroes no monster attacks in this turn's Monster Phase


@dataclass
class GameState:
    seats: list[str]  # hero ids in clockwise order
    active: int  # index into seats of the active player
    turn: int
    phase: Phase
    terror: int
    frenzy: str | None
    heroes: dict[str, HeroState]
    monsters: dict[str, MonsterState]
    mats: dict[str, Mat]
    villagers: dict[str, VillagerState]
    deck: list[str]  # Monster cards not yet drawn (which comes next is an input)
    played_cards: list[str] = field(default_factory=list)
    entered_cards: dict[str, dict[str, object]] = field(default_factory=dict)  # typed in at the table, by id
    haversack: list[str] = field(default_factory=list)
    item_discard: list[str] = field(default_factory=list)
    removed_items: list[str] = field(default_factory=list)  # out of the game for good (a Dark Gift's price)
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
