"""Moves a player may make at any moment of a Horrified game, whatever is being asked: whose they are.

Why here: the table lets only the seat a move belongs to make it (docs/engine.md, "Who answers");
every edition's pack says whose a Dark Gift is (its own, or a mixed game's) the same way.
"""

from __future__ import annotations

from collections.abc import Mapping


def gift_seat(move: object) -> str | None:
    """The hero a Dark Gift accepted at any time names (a hero is a seat), or None when it names
    none (the rules then refuse the move)."""
    hero = move.get("hero") if isinstance(move, Mapping) else None
    return hero if isinstance(hero, str) else None
