"""Ravenloft's four monsters, each a plug-in found by id in ``REGISTRY``.

Importing this package imports every monster module, so each registers itself; the
shared rules then ask ``rules_for(pack)`` for one instance per monster in the pack.
Each plug-in brings its mat's data and state (``<monster>_mat.py``), its rules, its
words and its look (``look_of``)."""

from __future__ import annotations

from companion.games.horrified_core.monsters import Actor, MonsterLook, MonsterRules, defeat_monster

from ..pack_types import Pack
from . import baba_lysaga, carrionette, gulthias_tree, strahd
from .registry import REGISTRY


def rules_for(pack: Pack) -> dict[str, MonsterRules]:
    """One rules object per monster in the pack, keyed by monster id."""
    return REGISTRY.rules_for(pack)


def look_of(monster_id: str) -> MonsterLook | None:
    """How a Ravenloft monster shows under the board (None for a monster that is not one)."""
    return REGISTRY[monster_id].look if monster_id in REGISTRY else None


__all__ = ["REGISTRY", "Actor", "MonsterLook", "MonsterRules", "defeat_monster", "look_of", "rules_for",
           "baba_lysaga", "carrionette", "gulthias_tree", "strahd"]
