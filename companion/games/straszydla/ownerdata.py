"""The owner's corrections to the shipped Straszydła data: the shared overlay
(companion/games/overlay.py says why an overlay) over this pack's files, and the desk the
service's game-data events use (``OwnerDataDesk``).

What an owner may correct: every tile (its name, kind, time of day, cubes, icons), the
board's size, every creature (strengths, elements, stack, starter), imp, pact card, row of
the scaring table, horror-cube action, and each element's cube colour. Records are keyed
by id; an id the pack lacks adds a record, ``null`` removes one (docs/straszydla.md).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Final

from companion.games import datastatus
from companion.games import overlay as core
from companion.games.overlay import FORMAT, OwnerData, OwnerDataError

from .packdata import Pack, pack_from_files, read_pack_files

GAME: Final = "straszydla"
COLLECTIONS: Final = {"elements": ("elements",), "tiles": ("tiles",), "creatures": ("creatures", "imps"),
                      "pacts": ("pacts",), "helpcard": ("scaring", "horror")}
NOUNS: Final = {"elements": "element", "tiles": "tile", "creatures": "creature", "imps": "imp", "pacts": "pact card",
                "scaring": "scaring row", "horror": "horror-cube action"}


#: A fresh copy of the shipped pack's files on each call (read once).
shipped_files: Final = core.shipped_copies(read_pack_files)


OVERLAY: Final = core.Overlay(GAME, settable={"tiles": ("size",)},
                              confirmable={"tiles.size": "Board size ({columns} x {rows})"},
                              shipped=shipped_files, build=pack_from_files, collections=COLLECTIONS, nouns=NOUNS,
                              kinds=dict(NOUNS))


def parse_owner_data(data: object) -> OwnerData:
    return core.parse_owner_data(OVERLAY, data)


@functools.lru_cache(maxsize=8)
def _owner_pack(text: str) -> Pack:
    pack = core.owner_pack(OVERLAY, parse_owner_data(json.loads(text)))
    assert isinstance(pack, Pack)
    return pack


def owner_pack(data: Mapping[str, object]) -> Pack:
    """The pack of the shipped files with the owner's data (OwnerDataError listing every problem);
    a few are kept built, for the games playing with them."""
    return _owner_pack(json.dumps(data, sort_keys=True))


def data_id(data: Mapping[str, object] | None) -> str:
    if data is None:
        return ""
    owner = parse_owner_data(data)
    return "" if owner.empty else owner.fingerprint


class StraszydlaDataDesk:
    """``companion.games.gamepack.OwnerDataDesk`` for Straszydła."""

    def parse(self, data: object) -> OwnerData:
        return parse_owner_data(data)

    def check(self, data: object) -> tuple[dict[str, object], dict[str, object]]:
        owner = parse_owner_data(data)
        shipped = shipped_files()
        files = core.apply_owner_data(OVERLAY, shipped, owner)
        core.owner_pack(OVERLAY, owner, shipped)
        return files, datastatus.data_status(OVERLAY, shipped, files, owner)

    def pack_view(self, data: object) -> dict[str, object]:
        from .view import pack_view  # the view module reads the rules' words, which read this module

        assert isinstance(data, Mapping)
        return pack_view(owner_pack(data))

    def empty(self) -> dict[str, object]:
        return core.empty_document(OVERLAY)


__all__ = ["FORMAT", "GAME", "OVERLAY", "OwnerDataError", "StraszydlaDataDesk", "data_id", "owner_pack",
           "parse_owner_data", "shipped_files"]
