"""The owner's data editor's view of the original box: the family's desk with this pack's parts.
Each element's ``confidence`` (how sure its sources are) goes to the status page beside its state."""

from __future__ import annotations

from companion.games.horrified_core.datadesk import EditionDataDesk

from .ownerdata import OVERLAY, shipped_files
from .rules import OriginalRules
from .tablet import pack_view


class HorrifiedDataDesk(EditionDataDesk):
    def __init__(self, rules: OriginalRules) -> None:
        super().__init__(rules, OVERLAY, shipped_files, pack_view)


__all__ = ["HorrifiedDataDesk"]
