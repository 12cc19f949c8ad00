"""Concrete legal actions for a Ravenloft prompt (horrified_core.choices, with the
edition's own: the special action and the Dark Gifts)."""

from __future__ import annotations

from companion.games.horrified_core.choices import WEIGHTS, action_options, hero_actions, pick_weighted

__all__ = ["WEIGHTS", "action_options", "hero_actions", "pick_weighted"]
