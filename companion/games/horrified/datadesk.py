"""The owner's data editor's view of this pack: check a document, build its pack and status
(``companion.games.OwnerDataDesk``). Each element's ``confidence`` (how sure its sources are)
goes to the status page beside its state."""

from __future__ import annotations

from companion.games.datastatus import data_status
from companion.games.overlay import apply_owner_data

from .ownerdata import FORMAT, GAME, OVERLAY, OwnerData, parse_owner_data, shipped_files
from .rules import OriginalRules
from .tablet import pack_view


class HorrifiedDataDesk:
    def __init__(self, rules: OriginalRules) -> None:
        self.rules = rules

    def parse(self, data: object) -> OwnerData:
        return parse_owner_data(data)

    def check(self, data: object) -> tuple[dict[str, object], dict[str, object]]:
        """Raises OwnerDataError listing every problem; else the files and the status."""
        owner = parse_owner_data(data)
        shipped = shipped_files()
        files = apply_owner_data(OVERLAY, shipped, owner)
        self.rules.owner_pack(owner.to_plain())  # the loader's checks, built once and kept for the games
        return files, data_status(OVERLAY, shipped, files, owner)

    def pack_view(self, data: object) -> dict[str, object]:
        return pack_view(self.rules.owner_pack(data))

    def empty(self) -> dict[str, object]:
        return {"format": FORMAT, "version": 1, "game": GAME, "changes": {}, "confirmed": []}


__all__ = ["HorrifiedDataDesk"]
