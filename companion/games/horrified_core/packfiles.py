"""The files of a Horrified pack and the parts every edition's files share: villagers,
items, monsters (each monster's ``details`` by its plug-in's parser), Perks, Monster
cards and the Monster die, checked against the edition's :class:`PackSpec`. The
edition parses what only it prints (its board and hero tiles) and says what its box
holds (how many cards, which symbols, which primitives).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypeVar

from .pack_types import (FRENZY, MAIN_BOARD, AttackLine, BoardData, DieFace, Hero, Item, Monster, MonsterCard, Pack,
                         Perk, Villager)
from companion.engine.dice import DiceSet
from companion.games.datafiles import Node, PackError, Sink, choice, count, ids, unique
from .packdata import Known, Library, effect, item_type, location, symbol

if TYPE_CHECKING:
    from .monsters import MonsterRegistry

_T = TypeVar("_T")
FileParser = Callable[[Node, Known], _T]

#: A pack's files in the order they load: later files are checked against earlier names.
PACK_FILES: Final = ("board.json", "villagers.json", "items.json", "monsters.json", "heroes.json", "perks.json",
                     "cards.json", "dice.json")
_DIE_FACES: Final[dict[str, DieFace]] = {"hit": "hit", "pow": "pow", "blank": "blank"}


@dataclass(frozen=True)
class Count:
    """How many of a component the box holds, and the rule (or the component list) that says so."""

    number: int
    rule: str


@dataclass(frozen=True)
class PackSpec:
    """What an edition's data must hold, for the shared loader.

    ``board`` and ``heroes`` parse the edition's own ``board.json`` and ``heroes.json``
    (the board parser fills ``known.areas``); ``monsters`` is the edition's plug-in
    registry: every monster needs a plug-in, and every plug-in a record (the box has a
    mat for each). ``counts`` has ``villagers``, ``items``, ``perks`` and ``cards``."""

    name: str
    board: FileParser[BoardData]
    heroes: FileParser[tuple[Hero, ...]]
    monsters: MonsterRegistry
    counts: Mapping[str, Count]
    symbols: tuple[str, ...]
    symbol_noun: str
    item_types: tuple[str, ...]
    area_names: Mapping[str, str]
    events: Library
    perks: Library

    def known(self) -> Known:
        return Known(symbols=self.symbols, symbol_noun=self.symbol_noun, item_types=self.item_types,
                     area_names=self.area_names)


# --- villagers.json, items.json ----------------------------------------------


def _villager(node: Node, known: Known) -> Villager:
    node.fields("id", "name", "safe_location", "verified")
    return Villager(
        id=node.child("id").ident(),
        name=node.child("name").text(),
        safe_location=location(node.child("safe_location"), known, MAIN_BOARD),
        verified=node.child("verified").flag(),
    )


def villagers(spec: PackSpec) -> FileParser[tuple[Villager, ...]]:
    def parse(root: Node, known: Known) -> tuple[Villager, ...]:
        root.fields("villagers")
        listing = root.child("villagers")
        nodes = listing.elements()
        found = tuple(_villager(node, known) for node in nodes)
        unique(ids(nodes), (v.id for v in found), "villager id")
        _counted(spec, listing, len(found), "villagers", "villagers")
        if isinstance(listing.value, list):
            known.villagers = frozenset(v.id for v in found)
        return found
    return parse


def _counted(spec: PackSpec, listing: Node, found: int, key: str, noun: str) -> None:
    wanted = spec.counts[key]
    count(listing, found, wanted.number, noun, wanted.rule)


def _item(node: Node, known: Known) -> Item:
    """Items are drawn onto the main board only, so their places must be there (RL-MP-2)."""
    node.fields("id", "name", "type", "strength", "location", "verified")
    return Item(
        id=node.child("id").ident(),
        name=node.child("name").text(),
        type=item_type(node.child("type"), known),
        strength=node.child("strength").integer(1, 6),
        location=location(node.child("location"), known, MAIN_BOARD),
        verified=node.child("verified").flag(),
    )


def items(spec: PackSpec) -> FileParser[tuple[Item, ...]]:
    def parse(root: Node, known: Known) -> tuple[Item, ...]:
        root.fields("items")
        listing = root.child("items")
        nodes = listing.elements()
        found = tuple(_item(node, known) for node in nodes)
        unique(ids(nodes), (item.id for item in found), "item id")
        _counted(spec, listing, len(found), "items", "items")
        return found
    return parse


# --- monsters.json: the plug-ins parse their own details ----------------------


def _symbols(node: Node, known: Known) -> tuple[str, ...]:
    nodes = node.elements()
    found = tuple(symbol(one, known) for one in nodes)
    unique(nodes, found, "symbol")
    if not found and isinstance(node.value, list):
        node.fail(f"a monster shows at least one {known.symbol_noun}")
    return found


def _monster(node: Node, known: Known, registry: MonsterRegistry) -> Monster | None:
    node.fields("id", "name", "frenzy_order", "symbols", "start", "complexity", "power", "verified", "details")
    plugin = choice(node.child("id"), registry.plugins(), "monster id")
    if plugin is None:
        return None
    return Monster(
        id=node.child("id").ident(),
        name=node.child("name").text(),
        frenzy_order=node.child("frenzy_order").integer(1, 20),
        symbols=_symbols(node.child("symbols"), known),
        start=location(node.child("start"), known, MAIN_BOARD),
        complexity=_complexity(node.child("complexity")),
        power=node.child("power").text(),
        details=plugin.parse_details(node.child("details"), known),
        verified=node.child("verified").flag(),
    )


def _complexity(node: Node) -> str:
    """Printed on a mat where an edition has it (Low or High); a box whose mats print none leaves it out."""
    if not node.present:
        return ""
    return choice(node, {"Low": "Low", "High": "High"}, "complexity") or ""


def monsters(spec: PackSpec) -> FileParser[tuple[Monster, ...]]:
    def parse(root: Node, known: Known) -> tuple[Monster, ...]:
        root.fields("monsters")
        listing = root.child("monsters")
        pairs = [(node, _monster(node, known, spec.monsters)) for node in listing.elements()]
        found = [(node, monster) for node, monster in pairs if monster is not None]
        unique([node.child("id") for node, _ in found], (m.id for _, m in found), "monster id")
        unique([node.child("frenzy_order") for node, _ in found], (str(m.frenzy_order) for _, m in found),
               "frenzy order")
        missing = sorted(set(spec.monsters.plugins()) - {m.id for _, m in found})
        if missing and isinstance(listing.value, list):
            listing.fail(f"no record for {', '.join(missing)}")
        if isinstance(listing.value, list):
            known.monsters = frozenset(m.id for _, m in found)
        return tuple(m for _, m in found)
    return parse


# --- perks.json, cards.json, dice.json ------------------------------------------


def heroes(root: Node, known: Known, parse: Callable[[Node, Known], Hero], wanted: int, why: str) -> tuple[Hero, ...]:
    """heroes.json: every hero as the edition parses one, with unique ids and as many as the box
    holds (``why``: what in the box says so)."""
    root.fields("heroes")
    listing = root.child("heroes")
    nodes = listing.elements()
    found = tuple(parse(node, known) for node in nodes)
    unique(ids(nodes), (hero.id for hero in found), "hero id")
    count(listing, len(found), wanted, "heroes", why)
    return found


def _perk(node: Node, known: Known, library: Library) -> Perk:
    node.fields("id", "name", "effect", "verified")
    return Perk(
        id=node.child("id").ident(),
        name=node.child("name").text(),
        effect=effect(node.child("effect"), library, known),
        verified=node.child("verified").flag(),
    )


def perks(spec: PackSpec) -> FileParser[tuple[Perk, ...]]:
    def parse(root: Node, known: Known) -> tuple[Perk, ...]:
        root.fields("perks")
        listing = root.child("perks")
        nodes = listing.elements()
        found = tuple(_perk(node, known, spec.perks) for node in nodes)
        unique(ids(nodes), (perk.id for perk in found), "perk id")
        _counted(spec, listing, len(found), "perks", "perks")
        return found
    return parse


def _attack(node: Node, known: Known) -> AttackLine:
    node.fields("symbols", "move", "dice")
    listing = node.child("symbols")
    symbols = tuple(FRENZY if one.value == FRENZY else symbol(one, known) for one in listing.elements())
    if isinstance(listing.value, list) and not 1 <= len(symbols) <= 3:
        listing.fail(f"an attack line shows 1 to 3 symbols, found {len(symbols)}")
    return AttackLine(symbols=symbols, move=node.child("move").integer(1, 3), dice=node.child("dice").integer(1, 3))


def card(node: Node, known: Known, library: Library) -> MonsterCard:
    node.fields("id", "name", "items", "event", "attack", "verified")
    return MonsterCard(
        id=node.child("id").ident(),
        name=node.child("name").text(),
        items=node.child("items").integer(0, 3),
        event=effect(node.child("event"), library, known),
        attack=_attack(node.child("attack"), known),
        verified=node.child("verified").flag(),
    )


def cards(spec: PackSpec) -> FileParser[tuple[MonsterCard, ...]]:
    def parse(root: Node, known: Known) -> tuple[MonsterCard, ...]:
        root.fields("cards")
        listing = root.child("cards")
        nodes = listing.elements()
        found = tuple(card(node, known, spec.events) for node in nodes)
        unique(ids(nodes), (c.id for c in found), "card id")
        _counted(spec, listing, len(found), "cards", "Monster cards")
        return found
    return parse


def dice(root: Node, known: Known) -> tuple[tuple[DieFace, ...], bool, tuple[DiceSet, ...]]:
    root.fields("monster_die", "dice_set")
    die = root.child("monster_die")
    die.fields("faces", "verified")
    listing = die.child("faces")
    faces = tuple(choice(face, _DIE_FACES, "die face") or "blank" for face in listing.elements())
    if isinstance(listing.value, list) and len(faces) != 6:
        listing.fail(f"a die has 6 faces, found {len(faces)}")
    named = root.child("dice_set")
    return faces, die.child("verified").flag(), (monster_dice_set(named),) if named.present else ()


def monster_dice_set(node: Node) -> DiceSet:
    """The box's own Monster dice as the camera is taught them (docs/dice.md "Dice sets"): an id,
    how the tablet names them, and whether a calibration from before sets was of these dice."""
    node.fields("id", "name", "older_calibration")
    older = node.child("older_calibration")
    try:
        return DiceSet(node.child("id").ident() or "monster", "monster", node.child("name").text() or "Monster dice",
                       older.flag() if older.present else False)
    except ValueError as problem:
        node.child("id").fail(str(problem))
        return DiceSet("monster", "monster", "the Monster dice")


# --- Putting it together -----------------------------------------------------


def read_pack_files(folder: Path) -> dict[str, object]:
    """Every pack file of a folder as parsed JSON; raises PackError for files that
    are missing or are not JSON (all of them at once)."""
    problems: list[str] = []
    found = {name: _read(folder, name, problems) for name in PACK_FILES}
    if problems:
        raise PackError(problems)
    return found


def _read(folder: Path, name: str, problems: list[str]) -> object:
    """One file as JSON; a missing or unreadable file is a problem like any other."""
    path = folder / name
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        problems.append(f"{name}: (file): missing from {folder}")
        return None
    except (OSError, UnicodeDecodeError) as error:
        problems.append(f"{name}: (file): cannot be read: {error}")
        return None
    try:
        data: object = json.loads(text)
    except json.JSONDecodeError as error:
        problems.append(f"{name}: line {error.lineno}, column {error.colno}: invalid JSON: {error.msg}")
        return None
    return data


def _load(files: Mapping[str, object], name: str, problems: list[str], known: Known,
          parse: FileParser[_T]) -> _T:
    return parse(Node(Sink(name, problems), "", files.get(name)), known)


def pack_from_files(spec: PackSpec, files: Mapping[str, object]) -> Pack:
    """The Pack of parsed pack files (``PACK_FILES`` names to JSON data), checked in full:
    one PackError lists every problem. Files load in dependency order (board first) so
    that later files can be checked against earlier names."""
    problems: list[str] = []
    known = spec.known()
    board = _load(files, "board.json", problems, known, spec.board)
    villager_list = _load(files, "villagers.json", problems, known, villagers(spec))
    item_list = _load(files, "items.json", problems, known, items(spec))
    monster_list = _load(files, "monsters.json", problems, known, monsters(spec))
    hero_list = _load(files, "heroes.json", problems, known, spec.heroes)
    perk_list = _load(files, "perks.json", problems, known, perks(spec))
    card_list = _load(files, "cards.json", problems, known, cards(spec))
    faces, faces_verified, dice_sets = _load(files, "dice.json", problems, known, dice)
    if problems:
        raise PackError(problems)
    return Pack(name=spec.name, board=board, items=item_list, villagers=villager_list, heroes=hero_list,
                perks=perk_list, cards=card_list, monsters=monster_list, monster_die=faces,
                monster_die_verified=faces_verified, dice_sets=dice_sets)


def parse_entered_card(spec: PackSpec, pack: Pack, data: object, card_id: str) -> MonsterCard:
    """A Monster card the players typed in at the table (the card builder).

    Checked exactly like a card in cards.json against this pack's names; the
    players' own words say what it is, so it is marked verified.
    """
    known = spec.known()
    known.areas = {loc.id: loc.area for loc in pack.board.locations}
    known.villagers = frozenset(v.id for v in pack.villagers)
    known.monsters = frozenset(m.id for m in pack.monsters)
    sink = Sink("entered card", [])
    body = dict(data) if isinstance(data, Mapping) else data
    if isinstance(body, dict):
        body = {**body, "id": card_id, "verified": True}
    entered = card(Node(sink, "card", body), known, spec.events)
    if sink.problems:
        raise PackError(sink.problems)
    return entered


__all__ = ["Count", "FileParser", "PACK_FILES", "PackSpec", "pack_from_files", "parse_entered_card", "read_pack_files"]
