"""The owner's data editor's view of the original box: the family's desk with this pack's parts.
Each element's ``confidence`` (how sure its sources are) goes to the status page beside its state.

Once the owner has data, new games start with this desk's pack: it carries the other boards a
mixed game may use, as the shipped pack does, so the wizard offers a mixed game whatever the
owner confirmed (the guests' places land on each host by the corrected board)."""

from __future__ import annotations

from collections.abc import Callable

from companion.games.horrified_core.datadesk import EditionDataDesk
from companion.games.horrified_core.pack_types import Pack

from .mixed import Host
from .ownerdata import OVERLAY, shipped_files
from .rules import OriginalRules
from .tablet import boards_view, pack_view


class HorrifiedDataDesk(EditionDataDesk):
    def __init__(self, rules: OriginalRules, hosts: Callable[[], dict[str, Host]] = dict) -> None:
        """``hosts``: the other Horrified boxes on this companion (asked when a pack is drawn)."""
        def with_boards(pack: Pack) -> dict[str, object]:
            view = pack_view(pack)
            view["boards"] = boards_view(pack, hosts())
            return view

        super().__init__(rules, OVERLAY, shipped_files, with_boards)


__all__ = ["HorrifiedDataDesk"]
