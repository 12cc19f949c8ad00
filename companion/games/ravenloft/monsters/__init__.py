"""Each monster's own rules, found by id in ``REGISTRY``.

Importing this package imports every monster module, so each registers
itself; the shared rules then ask ``rules_for(pack)`` for one instance per
monster in the pack. The instances hold no game state (that lives on the mats
in ``GameState``), so one set serves every game played with the pack.
"""

from __future__ import annotations

from companion.engine.errors import SetupError

from ..pack_types import Pack
from . import baba_lysaga, carrionette, gulthias_tree, strahd
from .base import REGISTRY, Actor, MonsterRules, defeat_monster


def rules_for(pack: Pack) -> dict[str, MonsterRules]:
    """One rules object per monster in the pack, keyed by monster id."""
    rules: dict[str, MonsterRules] = {}
    for monster in pack.monsters:
        cls = REGISTRY.get(monster.id)
        if cls is None:
            known = ", ".join(sorted(REGISTRY))
            raise SetupError(f"the pack's monster {monster.id!r} has no rules module (known: {known})")
        rules[monster.id] = cls(monster)
    return rules


__all__ = ["REGISTRY", "Actor", "MonsterRules", "defeat_monster", "rules_for",
           "baba_lysaga", "carrionette", "gulthias_tree", "strahd"]
