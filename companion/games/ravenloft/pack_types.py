"""Typed records of the Ravenloft box: the Horrified records (horrified_core) plus what
only Ravenloft prints: the hero tiles' d20 tables and Dark Gifts, the colour symbols,
the Gates of Barovia, Madam Eva's Tent and the castle mat's link. Each monster's own
mat record lives with its plug-in (``monsters/``). Loaded from ``data/`` by ``pack.py``.

Every record carries ``verified``: True only where the rulebook (or the owner)
states the datum. Everything else is our best guess and says so, so the tablet can show
it and the owner can correct it (see docs/game-data.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Mapping

from companion.games.horrified_core import pack_types as core
from companion.games.horrified_core.pack_types import (
    FRENZY,
    AttackLine,
    Connection,
    DieFace,
    Effect,
    Item,
    Location,
    Monster,
    MonsterCard,
    Pack,
    Perk,
    UnknownPackEntry,
    Villager,
)

ItemType = Literal["weapon", "magical", "mundane"]
ITEM_TYPES: tuple[ItemType, ...] = ("weapon", "magical", "mundane")

#: Colour symbols printed on Monster mats and Monster cards (rulebook "Monster Color Symbols").
SYMBOL_COLOURS: Mapping[str, str] = {
    "chest": "yellow",
    "sword": "orange",
    "wand": "purple",
    "skull": "blue",
    "hat": "brown",
    "spellbook": "teal",
    "potion": "green",
    "shield": "red",
}
#: The main board, and Strahd's castle mat, which joins it only while he is in play (RL-SU-9).
Area = Literal["board", "castle-mat"]
CASTLE_MAT: Area = "castle-mat"


@dataclass(frozen=True)
class BoardData(core.BoardData):
    gates: str  # where defeated heroes come back (RL-TU-3)
    madam_evas_tent: str
    castle_link: tuple[str, str]  # Grand Stairway <-> the castle mat's Stairs (RL-ST-6)


@dataclass(frozen=True)
class D20Entry:
    """One row of a hero tile's special-action table: results low..high."""

    low: int
    high: int
    effect: Effect


@dataclass(frozen=True)
class DarkGift:
    name: str
    text: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Hero(core.Hero):
    """A Ravenloft hero tile: its special-action table, its Dark Gift, and the table on
    the tile's other side once the Gift is accepted (RL-HA-7, RL-HA-8)."""

    special: tuple[D20Entry, ...]
    gift: DarkGift
    special_after_gift: tuple[D20Entry, ...]


def tile(pack: Pack, hero_id: str) -> Hero:
    """The hero's Ravenloft tile (every hero of a Ravenloft pack has one)."""
    return pack.get("hero", hero_id, Hero)


def board_of(pack: Pack) -> BoardData:
    board = pack.board
    assert isinstance(board, BoardData), "a Ravenloft pack has a Ravenloft board"
    return board


__all__ = ["FRENZY", "ITEM_TYPES", "SYMBOL_COLOURS", "Area", "AttackLine", "BoardData", "CASTLE_MAT", "Connection",
           "D20Entry", "DarkGift", "DieFace", "Effect", "Hero", "Item", "ItemType", "Location", "Monster",
           "MonsterCard", "Pack", "Perk", "UnknownPackEntry", "Villager", "board_of", "tile"]
