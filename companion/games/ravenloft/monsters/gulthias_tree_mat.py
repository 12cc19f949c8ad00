"""The Gulthias Tree's mat: its Roots and Twig Blights as printed (RL-SU-7, RL-GT-5 ..
RL-GT-7), how monsters.json gives them, and where they are during a game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from companion.games.datafiles import Node, ids, unique
from companion.games.horrified_core.packdata import Known, target
from companion.games.horrified_core.state import MATS, Mat

_ROOTS: Final = 9  # RL-SU-7


@dataclass(frozen=True)
class RootGroup:
    """Roots sharing one symbol picture; a Root showing k symbols has k-1 siblings (RL-GT-6)."""

    id: str
    count: int


@dataclass(frozen=True)
class GulthiasTreeDetails:
    roots: tuple[RootGroup, ...]  # counts add up to 9 (RL-SU-7)
    blights: int  # 3
    prune_target: int  # 8 (RL-GT-5)
    defeat_target: int  # 15 (RL-GT-7)


@MATS.member
@dataclass
class TreeMat(Mat):
    kind: str = "gulthias-tree"
    roots: dict[str, int] = field(default_factory=dict)  # face-down Roots left, by group
    blights: list[str | None] = field(default_factory=list)  # each Twig Blight's location
    blights_used: list[int] = field(default_factory=list)  # Blights that acted this turn (RL-GT-2)


def _root_group(node: Node) -> RootGroup:
    node.fields("id", "count")
    return RootGroup(id=node.child("id").ident(), count=node.child("count").integer(1, _ROOTS))


def parse_details(node: Node, known: Known) -> GulthiasTreeDetails:
    node.fields("roots", "blights", "prune_target", "defeat_target")
    listing = node.child("roots")
    nodes = listing.elements()
    roots = tuple(_root_group(root) for root in nodes)
    unique(ids(nodes), (root.id for root in roots), "root group")
    total = sum(root.count for root in roots)
    if isinstance(listing.value, list) and total != _ROOTS:
        listing.fail(f"root counts add up to {total}, the box has {_ROOTS} Root tokens (RL-SU-7)")
    return GulthiasTreeDetails(
        roots=roots,
        blights=node.child("blights").integer(1, 10),
        prune_target=target(node, "prune_target"),
        defeat_target=target(node, "defeat_target"),
    )
