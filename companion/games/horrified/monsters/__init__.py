"""The original box's six monsters, each a plug-in found by id in ``REGISTRY``.

Importing this package imports every monster module, so each registers itself; the shared
rules then ask ``rules_for(pack)`` for one instance per monster in the pack."""

from __future__ import annotations

from . import creature, dracula, frankenstein, invisible_man, mummy, wolf_man
from .base import OriginalMonster
from .registry import REGISTRY

__all__ = ["REGISTRY", "OriginalMonster", "creature", "dracula", "frankenstein", "invisible_man", "mummy", "wolf_man"]
