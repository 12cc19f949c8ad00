"""The original box's monster plug-ins, by id: each plug-in module registers itself here."""

from __future__ import annotations

from companion.games.horrified_core.monsters import MonsterRegistry

REGISTRY = MonsterRegistry("original")
