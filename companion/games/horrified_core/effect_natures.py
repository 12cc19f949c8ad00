"""What each effect kind of the Horrified core is (companion/engine/effects.py, ``Nature``):
a physical step, a note or a question's result. Declared once here; each edition adds its own
kinds (``natures``), and the shell's guide and the phase summary read the nature, not names."""

from __future__ import annotations

from typing import Mapping

from companion.engine.effects import Nature, natures_of

_STEPS = ("card-discarded", "card-drawn", "figure-moved", "figure-placed", "frenzy", "haversack-refilled",
          "hero-defeated", "hero-moved", "hero-placed", "hero-returned", "item-discarded", "item-placed",
          "item-removed", "item-shared", "item-taken", "items-picked-up", "monster-defeated", "monster-moved",
          "monster-placed", "perk-gained", "perk-played", "terror", "villager-clutched", "villager-defeated",
          "villager-moved", "villager-placed", "villager-rescued", "item-on-mat", "mat-setup")
_NOTES = ("actions", "card-entered", "data-changed", "event", "event-ignored", "hero-phase-ended", "hero-spared",
          "monster-activated", "monster-phase-skipped", "monster-stays", "no-attack", "note", "symbol",
          "symbol-ignored", "target", "turn", "bonus", "first-player", "game-won", "game-lost")
_RESULTS = ("dice", "defeat-failed", "hits-miss", "check")


def natures(steps: tuple[str, ...] = (), notes: tuple[str, ...] = (), results: tuple[str, ...] = ()) -> Mapping[str, Nature]:
    """The core's kinds with an edition's own (``steps``, ``notes``, ``results``)."""
    return natures_of((*_STEPS, *steps), (*_NOTES, *notes), (*_RESULTS, *results))
