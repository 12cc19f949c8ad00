"""The owner's corrections to the shipped pack of the original box: the shared overlay
(companion/games/overlay.py) with what this owner may set whole - the Terror track, the
Hospital, the POW-before-HIT setting, the Event monster's move, the solo changes and the Monster die - and the shipped
files it applies to. Every other datum is an element of a list the owner patches by id."""

from __future__ import annotations

from typing import Final

from companion.games import overlay as core
from companion.games.horrified_core.ownerdata import horrified_overlay
from companion.games.horrified_core.pack_types import Pack
from companion.games.overlay import FORMAT, OwnerData, OwnerDataError, shipped_copies

from .pack import pack_from_files, read_pack_files

GAME: Final = "horrified"
SETTABLE: Final[dict[str, tuple[str, ...]]] = {"board": ("terror_max", "hospital", "pow_first",
                                                         "event_monster_moves", "solo"),
                                               "dice": ("monster_die",)}
#: Single values with their own ``verified`` flag, with their names on the status page.
CONFIRMABLE: Final[dict[str, str]] = {"board.terror_max": "Terror track length ({value})",
                                      "board.pow_first": "POW before HIT ({value})",
                                      "board.event_monster_moves": "The Event's monster moves ({value})",
                                      "board.solo": "Solo game (Terror starts at {terror})",
                                      "dice.monster_die": "Monster die faces"}


#: A fresh copy of the shipped pack's files on each call (read once).
shipped_files: Final = shipped_copies(read_pack_files)


OVERLAY: Final = horrified_overlay(GAME, SETTABLE, CONFIRMABLE, shipped_files, pack_from_files)


def parse_owner_data(data: object) -> OwnerData:
    return core.parse_owner_data(OVERLAY, data)


def owner_pack(data: OwnerData) -> Pack:
    pack = core.owner_pack(OVERLAY, data)
    assert isinstance(pack, Pack)
    return pack


__all__ = ["CONFIRMABLE", "FORMAT", "GAME", "OVERLAY", "OwnerData", "OwnerDataError", "SETTABLE", "owner_pack",
           "parse_owner_data", "shipped_files"]
