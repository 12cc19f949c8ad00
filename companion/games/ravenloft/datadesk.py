"""The owner's data editor's view of Ravenloft: check a document, build its pack
and status (``companion.games.OwnerDataDesk``)."""

from __future__ import annotations

from .datastatus import data_status
from .ownerdata import FORMAT, GAME, OwnerData, apply_owner_data, parse_owner_data, shipped_files
from .rules import RavenloftRules
from .tablet import pack_view


class RavenloftDataDesk:
    def __init__(self, rules: RavenloftRules) -> None:
        self.rules = rules

    def parse(self, data: object) -> OwnerData:
        return parse_owner_data(data)

    def check(self, data: object) -> tuple[dict[str, object], dict[str, object]]:
        """Raises OwnerDataError listing every problem; else the files and the status."""
        owner = parse_owner_data(data)
        shipped = shipped_files()
        files = apply_owner_data(shipped, owner)
        self.rules.owner_pack(owner.to_plain())  # the loader's checks, built once and kept for the games
        return files, data_status(shipped, files, owner)

    def pack_view(self, data: object) -> dict[str, object]:
        return pack_view(self.rules.owner_pack(data))

    def empty(self) -> dict[str, object]:
        return {"format": FORMAT, "version": 1, "game": GAME, "changes": {}, "confirmed": []}


__all__ = ["RavenloftDataDesk"]
