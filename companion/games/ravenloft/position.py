"""A Ravenloft position: the table as it stands, to start the engine mid-game (the shared
reading is horrified_core.position; the format is docs/formats.md). A hero entry may say
``"gift": true`` once the Dark Gift was accepted."""

from __future__ import annotations

from typing import Mapping

from companion.games.horrified_core import position as core
from companion.games.horrified_core.monsters import MonsterRules

from .edition import RavenloftEdition
from .pack_types import Pack
from .state import GameState


def state_from_position(pack: Pack, rules: Mapping[str, MonsterRules], data: object) -> GameState:
    state = core.state_from_position(RavenloftEdition(), pack, rules, data)
    assert isinstance(state, GameState)
    return state
