"""Strahd's mats: Madam Eva's Tarokka cards, his Relics and the Heart of Sorrow as printed
(RL-SU-9, RL-ST-2 .. RL-ST-5), how monsters.json gives them, and what the cards have shown
and where the Relics are during a game."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Final

from companion.games.horrified_core.pack_types import MAIN_BOARD
from companion.games.datafiles import Node, choice, count, ids, unique
from companion.games.horrified_core.packdata import Known, location, reference, target
from companion.games.horrified_core.state import MATS, Mat

from ..pack_types import CASTLE_MAT, ITEM_TYPES, ItemType

_ITEM_TYPES: Final[dict[str, ItemType]] = {kind: kind for kind in ITEM_TYPES}
_TAROKKA: Final = 6  # RL-SU-9
_RELICS: Final = 3


@dataclass(frozen=True)
class TarokkaCard:
    id: str
    name: str
    type: ItemType
    location: str
    relic: str


@dataclass(frozen=True)
class Relic:
    id: str
    name: str
    return_to: str  # Chapel, Study or Tomb (RL-ST-3)


@dataclass(frozen=True)
class StrahdDetails:
    tarokka: tuple[TarokkaCard, ...]  # six; three lie face down on the mat (RL-SU-9)
    relics: tuple[Relic, ...]
    heart_location: str
    north_tower: str
    heart_target: int  # 15 (RL-ST-4)
    defeat_target: int  # 15 (RL-ST-5)
    showdown_items: int  # 3


@MATS.member
@dataclass
class StrahdMat(Mat):
    kind: str = "strahd"
    revealed: dict[str, str] = field(default_factory=dict)  # item type -> Tarokka card shown
    relics_on_board: dict[str, str] = field(default_factory=dict)  # relic -> location
    relics_returned: list[str] = field(default_factory=list)
    heart_destroyed: bool = False


def _relic(node: Node, known: Known) -> Relic:
    node.fields("id", "name", "return_to")
    return Relic(id=node.child("id").ident(), name=node.child("name").text(),
                 return_to=location(node.child("return_to"), known))


def _tarokka(node: Node, known: Known, relics: Collection[str]) -> TarokkaCard:
    """The Relic lies where the card says; that place must be on the main board."""
    node.fields("id", "name", "type", "location", "relic")
    return TarokkaCard(
        id=node.child("id").ident(),
        name=node.child("name").text(),
        type=choice(node.child("type"), _ITEM_TYPES, "item type") or "weapon",
        location=location(node.child("location"), known, MAIN_BOARD),
        relic=reference(node.child("relic"), relics, "relic"),
    )


def _check_relic_by_type(nodes: list[Node], cards: tuple[TarokkaCard, ...], listing: Node) -> None:
    """An item's type picks the card (RL-ST-2), so one type must always mean one relic."""
    relic_of: dict[str, str] = {}
    for node, card in zip(nodes, cards):
        first = relic_of.setdefault(card.type, card.relic)
        if card.relic and first and card.relic != first:
            node.child("relic").fail(f"{card.type} cards lead to {first!r}, not {card.relic!r}")
    missing = [kind for kind in ITEM_TYPES if kind not in relic_of]
    if missing and nodes:
        listing.fail(f"no Tarokka card for item type {', '.join(missing)}")


def parse_details(node: Node, known: Known) -> StrahdDetails:
    node.fields("tarokka", "relics", "heart_location", "north_tower", "heart_target", "defeat_target", "showdown_items")
    relic_list = node.child("relics")
    relic_nodes = relic_list.elements()
    relics = tuple(_relic(relic, known) for relic in relic_nodes)
    unique(ids(relic_nodes), (relic.id for relic in relics), "relic")
    count(relic_list, len(relics), _RELICS, "relics", "RL-ST-3")
    card_list = node.child("tarokka")
    card_nodes = card_list.elements()
    cards = tuple(_tarokka(card, known, {relic.id for relic in relics}) for card in card_nodes)
    unique(ids(card_nodes), (card.id for card in cards), "Tarokka card")
    count(card_list, len(cards), _TAROKKA, "Tarokka cards", "RL-SU-9")
    _check_relic_by_type(card_nodes, cards, card_list)
    return StrahdDetails(
        tarokka=cards,
        relics=relics,
        heart_location=location(node.child("heart_location"), known, CASTLE_MAT),
        north_tower=location(node.child("north_tower"), known, CASTLE_MAT),
        heart_target=target(node, "heart_target"),
        defeat_target=target(node, "defeat_target"),
        showdown_items=node.child("showdown_items").integer(1, 6),
    )
