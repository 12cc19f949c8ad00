"""The owner's data editor's view of Ravenloft: the family's desk with this pack's parts."""

from __future__ import annotations

from companion.games.horrified_core.datadesk import EditionDataDesk

from .ownerdata import OVERLAY, shipped_files
from .rules import RavenloftRules
from .tablet import pack_view


class RavenloftDataDesk(EditionDataDesk):
    def __init__(self, rules: RavenloftRules) -> None:
        super().__init__(rules, OVERLAY, shipped_files, pack_view)


__all__ = ["RavenloftDataDesk"]
