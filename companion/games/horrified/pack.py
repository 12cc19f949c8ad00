"""Load the original Horrified's game pack from ``data/*.json`` and check it thoroughly.

The shared Horrified loader (horrified_core.packfiles) reads the files every edition has;
this module adds what only this box prints - its board (the Hospital, the water ways only
the swimmer takes, the rule settings the sources leave open) and its hero badges (a special
action or an ability) - and says what the box holds: the counts, the monsters' symbols,
the three item colours and its primitive libraries. Each monster's ``details`` is checked
by its plug-in (``monsters/``). Every problem is reported at once, each as ``<file>:
<field path>: <why>`` (docs/horrified.md, "The data").
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Final

from companion.games.datafiles import Node, PackError, ids, reachable, unique
from companion.games.horrified_core import pack_types as core
from companion.games.horrified_core.pack_types import MAIN_BOARD, Connection, Location, MonsterCard, Pack
from companion.games.horrified_core.packdata import (COMMON_PARAM_CHECKS, Known, Library, ParamCheck, effect,
                                                     event_library, location, positive)
from companion.games.horrified_core.packfiles import (PACK_FILES, heroes as hero_list, Count, PackSpec, pack_from_files as _from_files,
                                                      parse_entered_card as _parse_entered,
                                                      read_pack_files as _read_files)

from .monsters import REGISTRY
from .pack_types import ITEM_TYPES, SYMBOLS, BoardData, Hero, Setting, Solo

DATA_DIR: Final = Path(__file__).resolve().with_name("data")
PACK_NAME: Final = "Horrified (the original, with the Universal Monsters)"

# --- The primitive libraries: kind -> names of its required params ------------------------------------

#: Monster card Events. Any may also carry an optional ``symbol`` (the monster it is about).
EVENT_KINDS: Final[dict[str, frozenset[str]]] = {
    "none": frozenset(),
    "place_villager": frozenset({"villager", "location"}),
    "place_monster": frozenset({"symbol", "location"}),
    "frenzy_next": frozenset(),
    "sequence": frozenset({"steps"}),
    "manual": frozenset(),
    "villagers_to_safety": frozenset({"steps"}),
    "monster_to_active_hero": frozenset({"symbol"}),
    "pull_closest": frozenset({"symbol", "steps"}),
    "monster_to_most_items": frozenset({"symbol"}),
    "hunt": frozenset({"symbol", "steps"}),
    "soul": frozenset({"symbol", "steps"}),
    "meeting": frozenset({"symbol", "steps"}),
}

#: Perk cards.
PERK_KINDS: Final[dict[str, frozenset[str]]] = {
    "extra_actions": frozenset({"amount"}),
    "items_per_player": frozenset({"count"}),
    "place_or_move_monster": frozenset({"monster", "steps"}),
    "move_hero": frozenset({"steps"}),
    "move_heroes": frozenset({"steps"}),
    "place_any_hero": frozenset(),
    "skip_monster_phase": frozenset({"count"}),
    "move_monsters": frozenset({"steps"}),
    "give_items": frozenset(),
    "gather_heroes": frozenset(),
    "manual": frozenset(),
}

#: A hero badge's special action, and its ability.
SPECIAL_KINDS: Final[dict[str, frozenset[str]]] = {
    "none": frozenset(), "pick_up_adjacent": frozenset(), "move_to_hero": frozenset(), "move_anywhere": frozenset(),
    "move_to_monster": frozenset(), "move_other_hero": frozenset(),
}
ABILITY_KINDS: Final[dict[str, frozenset[str]]] = {"none": frozenset(), "item_bonus": frozenset({"amount"})}

_CHECKS: Final[Mapping[str, ParamCheck]] = {**COMMON_PARAM_CHECKS, "steps": positive}
EVENTS: Final = event_library(EVENT_KINDS, _CHECKS)
PERKS: Final = Library(PERK_KINDS, _CHECKS)
SPECIALS: Final = Library(SPECIAL_KINDS, _CHECKS)
ABILITIES: Final = Library(ABILITY_KINDS, _CHECKS)

# --- What the box holds ----------------------------------------------------------------------------------

COUNTS: Final = {
    "items": Count(60, "the box holds sixty item tokens"),
    "cards": Count(30, "the box holds thirty Monster cards"),
    "perks": Count(20, "the box holds twenty Perk cards"),
    "villagers": Count(10, "the box holds ten villager movers"),
}
HEROES: Final = 7
AREA_NAMES: Final = {MAIN_BOARD: "the board"}


def movers() -> frozenset[str]:
    """Who the plug-ins' figures move as, besides ordinary figures: the names water ways may be ``only`` for."""
    return frozenset(cls.mover for cls in REGISTRY.plugins().values() if cls.mover)


# --- board.json ---------------------------------------------------------------------------------------------


def _location(node: Node) -> Location:
    node.fields("id", "name", "x", "y", "verified")
    return Location(id=node.child("id").ident(), name=node.child("name").text(), number=None,
                    x=node.child("x").number(0.0, 1.0), y=node.child("y").number(0.0, 1.0), area=MAIN_BOARD,
                    verified=node.child("verified").flag())


def _only(node: Node) -> frozenset[str] | None:
    if not node.present:
        return None
    names = [one.text() for one in node.elements()]
    for one, name in zip(node.elements(), names):
        if name and name not in movers():
            one.fail(f"no monster moves as {name!r} (movers: {', '.join(sorted(movers())) or 'none'})")
    if isinstance(node.value, list) and not names:
        node.fail("a way open to no one: leave 'only' out for a way everyone takes")
    return frozenset(names)


def _connection(node: Node, known: Known) -> Connection:
    node.fields("between", "kind", "only", "verified")
    between = node.child("between")
    ends = [location(end, known) for end in between.elements()]
    if isinstance(between.value, list) and len(ends) != 2:
        between.fail(f"must name exactly two locations, found {len(ends)}")
    ends = (ends + ["", ""])[:2]
    if ends[0] and ends[0] == ends[1]:
        between.fail(f"joins {ends[0]!r} to itself")
    kind = node.child("kind").text() if node.child("kind").present else "road"
    return Connection(ends[0], ends[1], node.child("verified").flag(), kind, _only(node.child("only")))


def _setting(node: Node) -> Setting:
    node.fields("value", "verified")
    return Setting(node.child("value").flag(), node.child("verified").flag())


def _solo(node: Node) -> Solo:
    node.fields("terror", "no_heroes", "no_perks", "verified")
    return Solo(node.child("terror").integer(0, 20), tuple(one.ident() for one in node.child("no_heroes").elements()),
                tuple(one.ident() for one in node.child("no_perks").elements()), node.child("verified").flag())


def _terror_max(node: Node) -> tuple[int, bool]:
    node.fields("value", "verified")
    return node.child("value").integer(1, 30), node.child("verified").flag()


def _board(root: Node, known: Known) -> BoardData:
    root.fields("terror_max", "hospital", "pow_first", "event_monster_moves", "solo", "locations", "connections")
    listing = root.child("locations")
    nodes = listing.elements()
    locations = tuple(_location(node) for node in nodes)
    if isinstance(listing.value, list):
        known.areas = {place.id: place.area for place in locations if place.id}
    unique(ids(nodes), (place.id for place in locations), "location id")
    connection_nodes = root.child("connections").elements()
    connections = tuple(_connection(node, known) for node in connection_nodes)
    unique([n.child("between") for n in connection_nodes], ("–".join(sorted((c.a, c.b))) for c in connections),
           "connection")
    terror_max, terror_verified = _terror_max(root.child("terror_max"))
    board = BoardData(locations=locations, connections=connections, terror_max=terror_max,
                      terror_max_verified=terror_verified, hospital=location(root.child("hospital"), known, MAIN_BOARD),
                      pow_first=_setting(root.child("pow_first")),
                      event_monster_moves=_setting(root.child("event_monster_moves")), solo=_solo(root.child("solo")))
    _check_reach(nodes, board)
    return board


def _check_reach(nodes: list[Node], board: BoardData) -> None:
    """Every place is reached from the Hospital: land by the ways everyone takes, water by a swimmer's."""
    places = {place.id for place in board.locations}
    valid = [c for c in board.connections if c.a in places and c.b in places and c.a != c.b]
    land = reachable(board.hospital, (frozenset((c.a, c.b)) for c in valid if c.only is None))
    anyone = reachable(board.hospital, (frozenset((c.a, c.b)) for c in valid))
    for node, place in zip(nodes, board.locations):
        if place.id and place.id not in anyone:
            node.child("id").fail(f"{place.id!r} cannot be reached from {board.hospital!r}")
        elif place.id and place.id not in land and any(c.only is None and place.id in (c.a, c.b) for c in valid):
            node.child("id").fail(f"{place.id!r} has roads but they do not lead to {board.hospital!r}")


# --- heroes.json -----------------------------------------------------------------------------------------------


def _hero(node: Node, known: Known) -> Hero:
    node.fields("id", "name", "actions", "start", "special", "ability", "verified")
    return Hero(id=node.child("id").ident(), name=node.child("name").text(), actions=node.child("actions").integer(1, 10),
                start=location(node.child("start"), known, MAIN_BOARD), special=effect(node.child("special"), SPECIALS, known),
                ability=effect(node.child("ability"), ABILITIES, known), verified=node.child("verified").flag())


def _heroes(root: Node, known: Known) -> tuple[core.Hero, ...]:
    return hero_list(root, known, _hero, HEROES, "the box holds seven hero badges")


SPEC: Final = PackSpec(
    name=PACK_NAME, board=_board, heroes=_heroes, monsters=REGISTRY, counts=COUNTS, symbols=tuple(SYMBOLS),
    symbol_noun="monster symbol", item_types=ITEM_TYPES, area_names=AREA_NAMES, events=EVENTS, perks=PERKS,
)


def _check_solo(pack: Pack) -> list[str]:
    """The solo rule names heroes and Perk cards of the box (known only once every file is read)."""
    board = pack.board
    assert isinstance(board, BoardData)
    problems = [f"board.json: solo.no_heroes[{n}]: no hero called {h!r}"
                for n, h in enumerate(board.solo.no_heroes) if not pack.has("hero", h)]
    problems += [f"board.json: solo.no_perks[{n}]: no Perk card called {p!r}"
                 for n, p in enumerate(board.solo.no_perks) if not pack.has("perk", p)]
    if not _on_land(board, board.hospital):
        problems.append(f"board.json: hospital: {board.hospital!r} has no road: a hero cannot stand there")
    return problems


def _on_land(board: BoardData, place: str) -> bool:
    return any(c.only is None and place in (c.a, c.b) for c in board.connections)


def read_pack_files(directory: Path | None = None) -> dict[str, object]:
    """Every pack file of a folder (the shipped one by default) as parsed JSON (PackError for missing or bad JSON)."""
    return _read_files(DATA_DIR if directory is None else Path(directory))


def load_pack(directory: Path | None = None) -> Pack:
    return pack_from_files(read_pack_files(directory))


def pack_from_files(files: Mapping[str, object]) -> Pack:
    """The Pack of parsed pack files, checked in full: the owner's corrected data comes this way too."""
    pack = _from_files(SPEC, files)
    problems = _check_solo(pack)
    if problems:
        raise PackError(problems)
    return pack


def parse_entered_card(pack: Pack, data: object, card_id: str) -> MonsterCard:
    return _parse_entered(SPEC, pack, data, card_id)


__all__ = ["DATA_DIR", "EVENTS", "PACK_FILES", "PACK_NAME", "PERKS", "SPEC", "load_pack", "movers", "pack_from_files",
           "parse_entered_card", "read_pack_files"]
