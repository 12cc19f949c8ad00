"""The original Horrified's table as plain typed data: the Horrified table (horrified_core.state)
with the one mark this box adds to a turn, a Monster Phase the players skip (a Perk card).
The monsters' mats are their plug-ins' (``monsters/``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Self

from companion.games.horrified_core import state as core


@dataclass
class TurnBonuses(core.TurnBonuses):
    no_monster_phase: bool = False  # this turn's Monster Phase is not played (Break of Dawn)

    def for_monster_phase(self) -> Self:
        return type(self)(spared=list(self.spared), no_monster_phase=self.no_monster_phase)

    def skips_monster_phase(self) -> bool:
        return self.no_monster_phase


@dataclass
class GameState(core.GameState):
    bonuses: TurnBonuses = field(default_factory=TurnBonuses)


def bonuses_of(state: core.GameState) -> TurnBonuses:
    bonuses = state.bonuses
    assert isinstance(bonuses, TurnBonuses), "a game of the original box keeps its own bonuses"
    return bonuses


__all__ = ["GameState", "TurnBonuses", "bonuses_of"]
