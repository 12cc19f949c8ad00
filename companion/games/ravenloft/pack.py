"""Load the Ravenloft game pack from ``data/*.json`` and check it thoroughly.

The shared Horrified loader (horrified_core.packfiles) reads the files every edition
has; this module adds what only Ravenloft prints - its board (d20 numbers, the Gates,
Madam Eva's Tent, the castle mat and its link) and its hero tiles (d20 tables, Dark
Gifts) - and says what the box holds: the counts, the colour symbols, the item types
and its primitive library. Each monster's ``details`` is checked by its plug-in
(``monsters/``). Every problem is reported at once, each as ``<file>: <field path>:
<why>``. The formats and the primitive library are described in docs/game-data.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from companion.games.horrified_core import pack_types as core
from companion.games.horrified_core.pack_types import MAIN_BOARD
from companion.games.datafiles import Node, PackError, choice, ids, ranges, reachable, unique
from companion.games.horrified_core.packdata import COMMON_PARAM_CHECKS, Known, Library, ParamCheck, effect, event_library, flag, location, positive
from companion.games.horrified_core.packfiles import (PACK_FILES, heroes as hero_list, Count, PackSpec, parse_entered_card as _parse_entered,
                                                      pack_from_files as _from_files, read_pack_files as _read_files)

from .monsters import REGISTRY
from .pack_types import (CASTLE_MAT, ITEM_TYPES, SYMBOL_COLOURS, Area, BoardData, Connection, D20Entry, DarkGift, Hero,
                         Location, MonsterCard, Pack)

__all__ = [
    "DATA_DIR",
    "EVENT_KINDS",
    "GIFT_KINDS",
    "PERK_KINDS",
    "SPECIAL_KINDS",
    "PACK_FILES",
    "PackError",
    "SPEC",
    "load_pack",
    "pack_from_files",
    "parse_entered_card",
    "read_pack_files",
]

#: Where the shipped pack lives: the ``data`` folder beside this module.
DATA_DIR: Final = Path(__file__).resolve().with_name("data")
PACK_NAME: Final = "Horrified: Dungeons & Dragons – Ravenloft"

# --- The primitive library: kind -> names of its required params -----------

#: Monster card events. Any event may also carry an optional ``symbol``.
EVENT_KINDS: Final[dict[str, frozenset[str]]] = {
    "none": frozenset(),
    "place_villager": frozenset({"villager", "location"}),
    "move_monsters": frozenset({"symbol", "steps"}),
    "move_monsters_to": frozenset({"symbol", "location", "steps"}),
    "pull_adjacent": frozenset({"symbol"}),
    "frenzy_next": frozenset(),
    "place_monster": frozenset({"symbol", "location"}),
    "sequence": frozenset({"steps"}),
    "manual": frozenset(),
}

#: Rows of a hero tile's special-action table.
SPECIAL_KINDS: Final[dict[str, frozenset[str]]] = {
    "nothing": frozenset(),
    "place_item": frozenset({"count"}),
    "move_monster": frozenset({"steps"}),
    "hero_draws": frozenset({"items", "perk"}),
    "distanced_advance": frozenset(),
    "roll_bonus": frozenset({"amount"}),
    "slow_monsters": frozenset({"amount"}),
    "ward": frozenset({"hits"}),
    "place_hero": frozenset({"steps"}),
    "gain_perk": frozenset(),
}

#: Lasting effects of an accepted Dark Gift.
GIFT_KINDS: Final[dict[str, frozenset[str]]] = {
    "ignore_first_hit": frozenset(),
    "villager_death_terror": frozenset({"amount"}),
    "extra_actions": frozenset({"amount"}),
    "roll_bonus_always": frozenset({"amount"}),
    "defeat_terror": frozenset({"amount"}),
    "defence_items_lost": frozenset(),
    "special_one_terror": frozenset({"amount"}),
    "manual": frozenset(),
}

#: Perk cards.
PERK_KINDS: Final[dict[str, frozenset[str]]] = {
    "extra_actions": frozenset({"amount"}),
    "place_hero": frozenset({"anywhere"}),
    "move_villager": frozenset({"steps"}),
    "draw_items": frozenset({"count"}),
    "roll_bonus": frozenset({"amount"}),
    "adjust_roll": frozenset({"amount"}),
    "move_monster": frozenset({"steps"}),
    "terror": frozenset({"amount"}),
    "spare_hero": frozenset(),
    "manual": frozenset(),
}

#: Params a Perk may add to say how its card reads (docs/game-data.md); left out, the card
#: reads as the shipped ones do.
PERK_OPTIONAL: Final[dict[str, frozenset[str]]] = {
    "adjust_roll": frozenset({"either_way"}),
    "roll_bonus": frozenset({"lasting"}),
    "draw_items": frozenset({"hand"}),
}

#: How each param is checked: the shared ones and Ravenloft's own.
_PARAM_CHECKS: Final[Mapping[str, ParamCheck]] = {
    **COMMON_PARAM_CHECKS,
    "items": positive,
    "hits": positive,
    "perk": flag,
    "either_way": flag,
    "lasting": flag,
}

EVENTS: Final = event_library(EVENT_KINDS, _PARAM_CHECKS)
SPECIALS: Final = Library(SPECIAL_KINDS, _PARAM_CHECKS)
GIFTS: Final = Library(GIFT_KINDS, _PARAM_CHECKS)
PERKS: Final = Library(PERK_KINDS, _PARAM_CHECKS, optional_by_kind=PERK_OPTIONAL)

# --- Counts printed in the rulebook's component list ------------------------

_D20: Final = range(1, 21)
_HEROES: Final = 5
COUNTS: Final = {
    "items": Count(60, "RL-IT-1: sixty tokens in the Haversack"),
    "cards": Count(30, "RL-SU-2"),
    "perks": Count(20, "the box holds twenty Perk cards"),
    "villagers": Count(10, "the box holds ten standees"),
}

_AREAS: Final[dict[str, Area]] = {"board": "board", "castle-mat": "castle-mat"}
AREA_NAMES: Final[dict[str, str]] = {"board": "the main board", "castle-mat": "Strahd's castle mat"}


# --- board.json -------------------------------------------------------------


def _location_record(node: Node) -> Location:
    node.fields("id", "name", "number", "x", "y", "area", "verified")
    number = node.child("number")
    return Location(
        id=node.child("id").ident(),
        name=node.child("name").text(),
        number=None if number.value is None else number.integer(1, 20),
        x=node.child("x").number(0.0, 1.0),
        y=node.child("y").number(0.0, 1.0),
        area=choice(node.child("area"), _AREAS, "area") or MAIN_BOARD,
        verified=node.child("verified").flag(),
    )


def _check_numbers(listing: Node, nodes: list[Node], locations: tuple[Location, ...]) -> None:
    """Each of 1..20 exactly once: d20 rolls place the Twig Blights (RL-SU-7)."""
    owner: dict[int, str] = {}
    for node, place in zip(nodes, locations):
        if place.number is None:
            continue
        if place.area != MAIN_BOARD:
            node.child("number").fail("castle-mat locations carry no d20 number")
        elif place.number in owner:
            node.child("number").fail(f"number {place.number} is also used by {owner[place.number]!r}")
        else:
            owner[place.number] = place.id
    gaps = [number for number in _D20 if number not in owner]
    if gaps:
        listing.fail(f"no location has number {ranges(gaps)}; each of 1–20 needs exactly one (RL-SU-7)")


def _connection(node: Node, known: Known) -> Connection:
    node.fields("between", "verified")
    between = node.child("between")
    ends = [location(end, known) for end in between.elements()]
    if isinstance(between.value, list) and len(ends) != 2:
        between.fail(f"must name exactly two locations, found {len(ends)}")
    ends = (ends + ["", ""])[:2]
    if ends[0] and ends[0] == ends[1]:
        between.fail(f"joins {ends[0]!r} to itself")
    return Connection(a=ends[0], b=ends[1], verified=node.child("verified").flag())


def _castle_link(node: Node, known: Known) -> tuple[str, str]:
    ends = node.elements()
    if isinstance(node.value, list) and len(ends) != 2:
        node.fail(f"must name two locations (Grand Stairway, then Stairs), found {len(ends)}")
        return ("", "")
    if len(ends) != 2:
        return ("", "")
    return (location(ends[0], known, MAIN_BOARD), location(ends[1], known, CASTLE_MAT))


def _terror_max(node: Node) -> tuple[int, bool]:
    node.fields("value", "verified")
    return node.child("value").integer(1, 30), node.child("verified").flag()


def _board(root: Node, known: Known) -> BoardData:
    root.fields("terror_max", "gates", "madam_evas_tent", "castle_link", "locations", "connections")
    listing = root.child("locations")
    nodes = listing.elements()
    locations = tuple(_location_record(node) for node in nodes)
    if isinstance(listing.value, list):  # else leave references unchecked: one complaint is enough
        known.areas = {place.id: place.area for place in locations if place.id}
    unique(ids(nodes), (place.id for place in locations), "location id")
    _check_numbers(listing, nodes, locations)
    connection_nodes = root.child("connections").elements()
    terror_max, terror_verified = _terror_max(root.child("terror_max"))
    board = BoardData(
        locations=locations,
        connections=tuple(_connection(node, known) for node in connection_nodes),
        terror_max=terror_max,
        terror_max_verified=terror_verified,
        gates=location(root.child("gates"), known, MAIN_BOARD),
        madam_evas_tent=location(root.child("madam_evas_tent"), known, MAIN_BOARD),
        castle_link=_castle_link(root.child("castle_link"), known),
    )
    _check_graph(root, nodes, connection_nodes, board)
    return board


# --- board.json: the shape of the map ----------------------------------------


def _pair(connection: Connection) -> frozenset[str]:
    return frozenset((connection.a, connection.b))


def _check_graph(root: Node, nodes: list[Node], connection_nodes: list[Node], board: BoardData) -> None:
    """The map must be one piece, and Strahd's mat may hang on it only by the
    castle link (RL-ST-6, RL-SU-9): without Strahd the mat is not on the table."""
    areas = {place.id: place.area for place in board.locations}
    valid = [c for c in board.connections if c.a in areas and c.b in areas and c.a != c.b]
    _check_duplicate_connections(connection_nodes, board.connections)
    _check_mat_edges(connection_nodes, board, areas)
    _check_link_listed(root.child("castle_link"), board, valid)
    _check_connected(nodes, board, areas, valid)


def _check_duplicate_connections(nodes: list[Node], connections: tuple[Connection, ...]) -> None:
    pairs = ["–".join(sorted(_pair(c))) if c.a and c.b else "" for c in connections]
    unique([node.child("between") for node in nodes], pairs, "connection")


def _check_mat_edges(nodes: list[Node], board: BoardData, areas: Mapping[str, str]) -> None:
    link = frozenset(board.castle_link)
    for node, connection in zip(nodes, board.connections):
        ends = {areas.get(connection.a), areas.get(connection.b)}
        if ends == {MAIN_BOARD, CASTLE_MAT} and _pair(connection) != link:
            node.child("between").fail("joins the castle mat to the main board; only castle_link may (RL-ST-6)")


def _check_link_listed(node: Node, board: BoardData, valid: list[Connection]) -> None:
    link = frozenset(board.castle_link)
    if "" not in link and link not in {_pair(c) for c in valid}:
        node.fail(f"{board.castle_link[0]!r}–{board.castle_link[1]!r} is not among the connections")


def _check_connected(nodes: list[Node], board: BoardData, areas: Mapping[str, str], valid: list[Connection]) -> None:
    """Every main-board place reachable over the main board alone, every mat place via the link."""
    on_board = [_pair(c) for c in valid if areas[c.a] == areas[c.b] == MAIN_BOARD]
    start = board.gates if areas.get(board.gates) == MAIN_BOARD else next(iter(areas), "")
    from_board = reachable(start, on_board)
    from_all = reachable(start, (_pair(c) for c in valid))
    for node, place in zip(nodes, board.locations):
        if place.area == MAIN_BOARD and place.id and place.id not in from_board:
            node.child("id").fail(f"{place.id!r} cannot be reached from {start!r} over the main board")
        elif place.area == CASTLE_MAT and place.id and place.id not in from_all:
            node.child("id").fail(f"{place.id!r} cannot be reached from the main board through castle_link")


# --- heroes.json --------------------------------------------------------------


def _d20_entry(node: Node, known: Known) -> D20Entry:
    node.fields("low", "high", "effect")
    low, high = node.child("low").integer(1, 20), node.child("high").integer(1, 20)
    if low > high:
        node.child("high").fail(f"high ({high}) is below low ({low})")
    return D20Entry(low=low, high=high, effect=effect(node.child("effect"), SPECIALS, known))


def _check_coverage(table: Node, nodes: list[Node], entries: tuple[D20Entry, ...]) -> None:
    """Every d20 result 1..20 maps to one row; a 1 never helps (RL-D20-3)."""
    hits = Counter(result for entry in entries for result in range(entry.low, entry.high + 1))
    gaps = [result for result in _D20 if hits[result] == 0]
    doubles = [result for result in _D20 if hits[result] > 1]
    if gaps:
        table.fail(f"d20 results {ranges(gaps)} are not covered")
    if doubles:
        table.fail(f"d20 results {ranges(doubles)} are covered by more than one row")
    for node, entry in zip(nodes, entries):
        if entry.low == 1 and entry.effect.kind not in ("", "nothing"):
            node.child("effect").child("kind").fail("a roll of 1 must do nothing (RL-D20-3)")


def _table(node: Node, known: Known) -> tuple[D20Entry, ...]:
    nodes = node.elements()
    entries = tuple(_d20_entry(entry, known) for entry in nodes)
    _check_coverage(node, nodes, entries)
    return entries


def _gift(node: Node, known: Known) -> DarkGift:
    node.fields("name", "text", "effects")
    listing = node.child("effects")
    effects = tuple(effect(one, GIFTS, known) for one in listing.elements())
    if not effects and isinstance(listing.value, list):
        listing.fail("a Dark Gift needs at least one effect")
    return DarkGift(name=node.child("name").text(), text=node.child("text").text(), effects=effects)


def _hero(node: Node, known: Known) -> Hero:
    node.fields("id", "name", "actions", "start", "verified", "special", "gift", "special_after_gift")
    return Hero(
        id=node.child("id").ident(),
        name=node.child("name").text(),
        actions=node.child("actions").integer(1, 10),
        start=location(node.child("start"), known, MAIN_BOARD),
        special=_table(node.child("special"), known),
        gift=_gift(node.child("gift"), known),
        special_after_gift=_table(node.child("special_after_gift"), known),
        verified=node.child("verified").flag(),
    )


def _heroes(root: Node, known: Known) -> tuple[core.Hero, ...]:
    return hero_list(root, known, _hero, _HEROES, "the box holds five hero tiles")


SPEC: Final = PackSpec(
    name=PACK_NAME, board=_board, heroes=_heroes, monsters=REGISTRY, counts=COUNTS,
    symbols=tuple(SYMBOL_COLOURS), symbol_noun="colour symbol", item_types=ITEM_TYPES, area_names=AREA_NAMES,
    events=EVENTS, perks=PERKS,
)


def read_pack_files(directory: Path | None = None) -> dict[str, object]:
    """Every pack file of a folder (the shipped one by default) as parsed JSON; raises
    PackError for files that are missing or are not JSON (all of them at once)."""
    return _read_files(DATA_DIR if directory is None else Path(directory))


def load_pack(directory: Path | None = None) -> Pack:
    """Read and check every pack file; return the Pack, or raise one PackError
    that lists every problem found."""
    return pack_from_files(read_pack_files(directory))


def pack_from_files(files: Mapping[str, object]) -> Pack:
    """The Pack of parsed pack files (``PACK_FILES`` names to JSON data), checked
    as thoroughly as files on disk: the owner's corrected data comes this way."""
    return _from_files(SPEC, files)


def parse_entered_card(pack: Pack, data: object, card_id: str) -> MonsterCard:
    """A Monster card the players typed in at the table, checked like a card in cards.json."""
    return _parse_entered(SPEC, pack, data, card_id)
