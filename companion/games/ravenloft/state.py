"""The Ravenloft table as plain typed data: the Horrified table (horrified_core.state)
with Ravenloft's own marks: a hero's accepted Dark Gift, and the bonuses its hero tiles
give for part of a turn. The monsters' mats are their plug-ins' (``monsters/``).

It round-trips through JSON with ``companion.engine.plain``, which is also the format
of a saved state (docs/formats.md): the fields and their names are those files' shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Self

from companion.games.horrified_core import state as core
from companion.games.horrified_core.state import MATS, Mat, MonsterState, Phase, VillagerState


@dataclass
class HeroState(core.HeroState):
    gift: bool = False  # Dark Gift accepted (RL-HA-8)
    hit_ignored_turn: int = -1  # the turn Yog last ignored a hit


@dataclass
class TurnBonuses(core.TurnBonuses):
    """Effects that last for part of one turn (RL-HA-9)."""

    roll_bonus: int = 0  # Paladin: + to Advance/Defeat rolls this Hero Phase
    slow_monsters: int = 0  # Ranger: monsters move this many fewer this Monster Phase
    ward: int = 0  # Warlock: hits on heroes ignored this Monster Phase
    extra_actions: int = 0
    next_roll: int = 0  # Perk cards played for "+N to your next Advance or Defeat roll", not yet rolled

    def for_monster_phase(self) -> Self:
        """Paladin-style bonuses (and Perk boosts never rolled) end with the Hero Phase; Ranger and
        Warlock ones, and a hero spared from attacks, last into this turn's Monster Phase."""
        return type(self)(slow_monsters=self.slow_monsters, ward=self.ward, spared=list(self.spared))


@dataclass
class GameState(core.GameState):
    heroes: dict[str, HeroState]
    bonuses: TurnBonuses = field(default_factory=TurnBonuses)

    @property
    def active_hero(self) -> HeroState:
        return self.heroes[self.seats[self.active]]


def hero_of(state: core.GameState, hero_id: str) -> HeroState:
    """A hero of a Ravenloft game, with its Ravenloft marks."""
    hero = state.heroes[hero_id]
    assert isinstance(hero, HeroState), "a Ravenloft game's heroes are Ravenloft heroes"
    return hero


def bonuses_of(state: core.GameState) -> TurnBonuses:
    bonuses = state.bonuses
    assert isinstance(bonuses, TurnBonuses), "a Ravenloft game's bonuses are Ravenloft bonuses"
    return bonuses


__all__ = ["MATS", "GameState", "HeroState", "Mat", "MonsterState", "Phase", "TurnBonuses", "VillagerState",
           "bonuses_of", "hero_of"]
