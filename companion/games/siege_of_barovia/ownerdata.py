"""The owner's own map, on the shared overlay (companion/games/overlay.py): the
grid's size and where it lies on their photo, the keyed places, the entrance,
the edge squares, the squares off the board and the starting barricades.

Why: the rules' map was a picture no stored copy keeps, so the shipped map is
ours (every part unverified) and the owner draws theirs in the grid editor;
their document keeps only what they changed, applied over the shipped file
and checked by the same loader (mapdata.map_from_files). ``MapDesk`` is the
pack's ``owner_data()`` (companion.games.OwnerDataDesk).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import replace
from typing import Final

from companion.games import overlay as core
from companion.games.datastatus import data_status
from companion.games.overlay import FORMAT, Overlay, OwnerData

from .mapdata import SiegeMap, map_from_files, read_map_files, shipped_map
from .view import pack_view

GAME: Final = "siege-of-barovia"
SETTABLE: Final = {"map": ("grid", "frame", "entrance", "edge", "off_board", "barricades")}
CONFIRMABLE: Final = {"map.grid": "Grid size ({columns} x {rows})", "map.entrance": "Heroes' entrance",
                      "map.edge": "Edge squares (where Strahd arrives)",
                      "map.off_board": "Squares that are not part of the board",
                      "map.barricades": "Barricades at the start"}
KEPT: Final = 8  # maps built from owner data kept at once


def _build(files: Mapping[str, object]) -> SiegeMap:
    return map_from_files(files)


OVERLAY: Final = Overlay(GAME, SETTABLE, CONFIRMABLE, read_map_files, _build, collections={"map": ("places",)},
                         nouns={"places": "place"}, kinds={"places": "place"})


class Maps:
    """The maps the games play on: the shipped one, and the owner's, built once per document."""

    def __init__(self) -> None:
        self._built: OrderedDict[str, SiegeMap] = OrderedDict()
        self._lock = threading.Lock()

    def for_data(self, data: object) -> SiegeMap:
        """The map of an origin's ``data`` (None: as shipped); OwnerDataError lists every problem."""
        if data is None:
            return shipped_map()
        owner = core.parse_owner_data(OVERLAY, data)
        if owner.empty:
            return shipped_map()
        with self._lock:
            found = self._built.get(owner.fingerprint)
        if found is None:
            built = core.owner_pack(OVERLAY, owner)
            assert isinstance(built, SiegeMap)
            found = replace(built, data_id=owner.fingerprint)
            with self._lock:
                self._built[owner.fingerprint] = found
                while len(self._built) > KEPT:
                    self._built.popitem(last=False)
        return found


class MapDesk:
    """The owner-data desk of the map (docs/game-data.md): check, build, status."""

    def __init__(self, maps: Maps) -> None:
        self.maps = maps

    def parse(self, data: object) -> OwnerData:
        return core.parse_owner_data(OVERLAY, data)

    def check(self, data: object) -> tuple[dict[str, object], dict[str, object]]:
        owner = core.parse_owner_data(OVERLAY, data)
        shipped = read_map_files()
        files = core.apply_owner_data(OVERLAY, shipped, owner)
        self.maps.for_data(owner.to_plain())  # the loader's checks (OwnerDataError listing every problem)
        return files, data_status(OVERLAY, shipped, files, owner)

    def pack_view(self, data: object) -> dict[str, object]:
        return pack_view(self.maps.for_data(data))

    def empty(self) -> dict[str, object]:
        return {"format": FORMAT, "version": 1, "game": GAME, "changes": {}, "confirmed": []}


__all__ = ["CONFIRMABLE", "GAME", "MapDesk", "Maps", "OVERLAY", "SETTABLE"]
