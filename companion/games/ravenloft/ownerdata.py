"""The owner's corrections to the shipped Ravenloft pack: the shared overlay
(companion/games/overlay.py, which explains why an overlay) with what Ravenloft's owner
may set - the Terror track, the Gates of Barovia, Madam Eva's Tent, the castle link and
the Monster die - and the shipped files it applies to. Docs/game-data.md describes it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from companion.games import overlay as core
from companion.games.horrified_core.ownerdata import COLLECTIONS, NOUNS, horrified_overlay
from companion.games.overlay import FORMAT, OwnerData, OwnerDataError, shipped_copies

from .pack import PACK_FILES, pack_from_files, read_pack_files
from .pack_types import Pack

GAME: Final = "ravenloft"
SETTABLE: Final[dict[str, tuple[str, ...]]] = {"board": ("terror_max", "gates", "madam_evas_tent", "castle_link"),
                                               "dice": ("monster_die",)}
#: Single values that carry their own ``verified`` flag, and so can be confirmed (with their names).
CONFIRMABLE: Final[dict[str, str]] = {"board.terror_max": "Terror track length ({value})",
                                      "dice.monster_die": "Monster die faces"}


#: A fresh copy of the shipped pack's files on each call (read once).
shipped_files: Final = shipped_copies(read_pack_files)


CONFIRMABLE_VALUES: Final = tuple(CONFIRMABLE)
OVERLAY: Final = horrified_overlay(GAME, SETTABLE, CONFIRMABLE, shipped_files, pack_from_files)


def parse_owner_data(data: object) -> OwnerData:
    return core.parse_owner_data(OVERLAY, data)


def apply_owner_data(files: Mapping[str, object], data: OwnerData) -> dict[str, object]:
    return core.apply_owner_data(OVERLAY, files, data)


def element_index(files: Mapping[str, object]) -> dict[str, dict[str, object]]:
    return core.element_index(OVERLAY, files)


def owner_pack(data: OwnerData, shipped: Mapping[str, object] | None = None) -> Pack:
    pack = core.owner_pack(OVERLAY, data, shipped)
    assert isinstance(pack, Pack)
    return pack


__all__ = ["COLLECTIONS", "CONFIRMABLE", "CONFIRMABLE_VALUES", "FORMAT", "NOUNS", "GAME", "OVERLAY", "OwnerData", "OwnerDataError", "PACK_FILES",
           "SETTABLE", "apply_owner_data", "element_index", "owner_pack", "parse_owner_data", "shipped_files"]
