"""Ravenloft's rules as the engine runs them: the Horrified core (horrified_core.rules)
with the Ravenloft edition, its shipped pack and its owner-data overlay, and the one
move Ravenloft allows at any moment: accepting a Dark Gift."""

from __future__ import annotations

from typing import Mapping

from companion.engine.effects import EffectSink
from companion.engine.errors import IllegalInput
from companion.games.horrified_core.rules import HorrifiedRules
from companion.games.horrified_core.state import GameState

from .edition import RavenloftEdition
from .gifts import accept_gift
from .ownerdata import OVERLAY
from .pack import load_pack
from .pack_types import Pack


class RavenloftRules(HorrifiedRules):
    """The Rules the generic :class:`Game` runner plays (see HorrifiedRules): a game plays
    with the shipped pack, or with the owner's corrections of it."""

    name = "ravenloft"

    def __init__(self, pack: Pack | None = None) -> None:
        super().__init__(RavenloftEdition(), OVERLAY, pack or load_pack())

    def anytime(self, state: GameState, move: object, sink: EffectSink) -> None:
        """Moves any player may make whatever is being asked: accepting a Dark Gift (RL-HA-8,
        "at any time on any player's turn, even before an effect resolves")."""
        if not isinstance(move, Mapping) or move.get("action") != "gift":
            raise IllegalInput(f"the only move that can be made at any time is accepting a Dark Gift "
                               f"({{'action': 'gift', 'hero': ...}}), not {move!r}")
        hero = move.get("hero")
        if not isinstance(hero, str):
            raise IllegalInput(f"name the hero whose Dark Gift is accepted with 'hero', got {hero!r}")
        accept_gift(self.context(state, sink), hero)


