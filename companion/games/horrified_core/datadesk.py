"""The owner's data editor's view of a Horrified-family edition (``companion.games.OwnerDataDesk``):
check a document, build its pack and its status page. Every edition's desk is this one, given
the edition's overlay, its shipped files and how its tablet draws a pack."""

from __future__ import annotations

from collections.abc import Callable

from companion.games.datastatus import data_status
from companion.games.overlay import FORMAT, Overlay, OwnerData, apply_owner_data, parse_owner_data

from .pack_types import Pack
from .rules import HorrifiedRules


class EditionDataDesk:
    def __init__(self, rules: HorrifiedRules, overlay: Overlay, shipped_files: Callable[[], dict[str, object]],
                 pack_view: Callable[[Pack], dict[str, object]]) -> None:
        self.rules = rules
        self.overlay = overlay
        self.shipped_files = shipped_files
        self._pack_view = pack_view

    def parse(self, data: object) -> OwnerData:
        return parse_owner_data(self.overlay, data)

    def check(self, data: object) -> tuple[dict[str, object], dict[str, object]]:
        """Raises OwnerDataError listing every problem; else the files and the status."""
        owner = self.parse(data)
        shipped = self.shipped_files()
        files = apply_owner_data(self.overlay, shipped, owner)
        self.rules.owner_pack(owner.to_plain())  # the loader's checks, built once and kept for the games
        return files, data_status(self.overlay, shipped, files, owner)

    def pack_view(self, data: object) -> dict[str, object]:
        return self._pack_view(self.rules.owner_pack(data))

    def empty(self) -> dict[str, object]:
        return {"format": FORMAT, "version": 1, "game": self.overlay.game, "changes": {}, "confirmed": []}


__all__ = ["EditionDataDesk"]
