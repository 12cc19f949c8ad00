"""The Carrionette's mat: its spare parts as printed (RL-CA-2, RL-CA-3), how monsters.json
gives them, and the items swapped onto them during a game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from companion.games.datafiles import Node, choice
from companion.games.horrified_core.packdata import Known, target
from companion.games.horrified_core.state import MATS, Mat

from ..pack_types import ITEM_TYPES, ItemType

_ITEM_TYPES: Final[dict[str, ItemType]] = {kind: kind for kind in ITEM_TYPES}


@dataclass(frozen=True)
class SparePart:
    """A Carrionette spare part: a swapped item matching its type or strength gets a bonus."""

    type: ItemType
    strength: int


@dataclass(frozen=True)
class CarrionetteDetails:
    spare_parts: tuple[SparePart, ...]
    swap_target: int  # 15 (RL-CA-2)
    match_bonus: int  # 5
    double_match_bonus: int  # 10
    defeat_target: int  # 15 (RL-CA-3)


@MATS.member
@dataclass
class CarrionetteMat(Mat):
    kind: str = "carrionette"
    parts: list[str | None] = field(default_factory=list)  # item swapped onto each spare part


def _spare_part(node: Node) -> SparePart:
    node.fields("type", "strength")
    return SparePart(type=choice(node.child("type"), _ITEM_TYPES, "item type") or "weapon",
                     strength=node.child("strength").integer(1, 6))


def parse_details(node: Node, known: Known) -> CarrionetteDetails:
    node.fields("spare_parts", "swap_target", "match_bonus", "double_match_bonus", "defeat_target")
    listing = node.child("spare_parts")
    parts = tuple(_spare_part(part) for part in listing.elements())
    if not parts and isinstance(listing.value, list):
        listing.fail("the Carrionette needs at least one spare part")
    return CarrionetteDetails(
        spare_parts=parts,
        swap_target=target(node, "swap_target"),
        match_bonus=target(node, "match_bonus"),
        double_match_bonus=target(node, "double_match_bonus"),
        defeat_target=target(node, "defeat_target"),
    )
