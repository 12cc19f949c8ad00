"""The owner's corrections to a shipped pack, for every pack: an overlay, kept apart from it.

Why an overlay and not an edited copy: the shipped pack is our best guess and
will be updated; the owner's corrections (their board's connections and
numbers, the Monster cards of their box, items, perks, hero tables) must
survive every update. So they are kept as changes keyed by the ids of the
pack's elements, applied on top of whatever pack is shipped, and checked by
the same loader as the pack itself - a correction can never make the
companion play with broken data.

An owner-data document::

    {"format": "table-companion.owner-data", "version": 1, "game": GAME,
     "changes": {
        "board": {"set": {"terror_max": {...}},
                  "locations": {"old-place": {"number": 7, "x": 0.2, "y": 0.3}, "new-place": {...all fields}},
                  "connections": {"add": [["a", "b"], {"between": ["e", "f"], "kind": "water", "only": ["swimmer"]}],
                                  "remove": [["c", "d"]]}},
        "cards": {"cards": {"a-card": {"name": "...", "items": 2, "event": {...}, "attack": {...}}}},
        "villagers": {"villagers": {"a-villager": {"safe_location": "..."}}}, ...},
     "confirmed": ["board.locations.old-place", "board.connections.a+b", "cards.cards.a-card", "board.terror_max"]}

In a collection an id maps to the fields that change (an id the pack does not
have adds an element, with all its fields; ``null`` removes one). A connection added
as an object is a way with its ``kind`` and the movers it is ``only`` for (a pack whose
figures move differently has such ways; its loader refuses a mover it does not have);
a shipped way made one, or made an ordinary road again, is removed and added anew. ``confirmed``
lists what the owner checked against their own box: those elements count as
verified. Which files, collections, values and names a pack has is its
:class:`Overlay`. Docs/game-data.md describes it for owners.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from companion.engine.errors import Refusal

from .datafiles import PackError

FORMAT: Final = "table-companion.owner-data"


@dataclass(frozen=True)
class Overlay:
    """What a pack's owner may correct: its ``game`` id, the element lists of each file by
    file stem (``collections``; their elements have an ``id``) and what one element is
    called (``nouns``), the top-level values of each file that may be set whole
    (``settable``), the single values with their own ``verified`` flag that may be confirmed
    (with how the status page names them), and how to get the shipped files and build the
    pack of files (the loader's own checks: a ``PackError`` lists every problem). Pairs
    ``between`` two places in ``board.json``'s ``connections`` are elements too."""

    game: str
    settable: Mapping[str, tuple[str, ...]]
    confirmable: Mapping[str, str]  # value key -> its name on the status page ("{value}": its fields)
    shipped: Callable[[], dict[str, object]]
    build: Callable[[Mapping[str, object]], object]
    collections: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    nouns: Mapping[str, str] = field(default_factory=dict)  # collection -> an element in words ("Monster card")
    kinds: Mapping[str, str] = field(default_factory=dict)  # collection -> its kind on the status page ("card")


class OwnerDataError(Refusal):
    """The owner's data is refused; ``problems`` names each thing wrong, in plain words."""

    def __init__(self, problems: list[str]) -> None:
        count = len(problems)
        super().__init__(f"the game data has {count} problem{'s' if count != 1 else ''}: " + "; ".join(problems),
                         problems)


@dataclass(frozen=True)
class OwnerData:
    """A checked owner-data document (its shape; whether it makes a good pack is ``owner_pack``'s)."""

    changes: dict[str, dict[str, object]] = field(default_factory=dict)
    confirmed: tuple[str, ...] = ()
    game: str = field(default="", compare=False)

    def to_plain(self) -> dict[str, object]:
        return {"format": FORMAT, "version": 1, "game": self.game, "changes": copy.deepcopy(self.changes),
                "confirmed": list(self.confirmed)}

    @property
    def fingerprint(self) -> str:
        """Names this data: two games with the same corrections share one built pack."""
        body = json.dumps({"changes": self.changes, "confirmed": sorted(self.confirmed)}, sort_keys=True)
        return hashlib.sha256(body.encode()).hexdigest()[:16]

    @property
    def empty(self) -> bool:
        return not self.changes and not self.confirmed


def empty_document(overlay: Overlay) -> dict[str, object]:
    return OwnerData(game=overlay.game).to_plain()


# -- reading a document ----------------------------------------------------------------------------

def parse_owner_data(overlay: Overlay, data: object) -> OwnerData:
    """A document from a file or a tablet; every shape problem at once, with where it is."""
    if not isinstance(data, Mapping):
        raise OwnerDataError(["the game data must be a JSON object"])
    problems = _head_problems(overlay, data)
    changes = data.get("changes", {})
    if not isinstance(changes, Mapping):
        problems.append("changes: must be an object of files (board, cards, ...)")
        changes = {}
    for stem, change in changes.items():
        problems += _file_problems(overlay, str(stem), change)
    confirmed = data.get("confirmed", [])
    if not isinstance(confirmed, list) or not all(isinstance(key, str) for key in confirmed):
        problems.append("confirmed: must be a list of element names like 'board.locations.LOCATION-ID'")
        confirmed = []
    if problems:
        raise OwnerDataError(problems)
    return OwnerData({str(k): dict(v) for k, v in changes.items()}, tuple(dict.fromkeys(confirmed)), overlay.game)


def _head_problems(overlay: Overlay, data: Mapping[str, object]) -> list[str]:
    problems = []
    if data.get("format") != FORMAT:
        problems.append(f"format: must be {FORMAT!r} (a file saved by the data editor), got {data.get('format')!r}")
    if data.get("version") != 1:
        problems.append(f"version: this companion reads version 1, got {data.get('version')!r}")
    if data.get("game", overlay.game) != overlay.game:
        problems.append(f"game: this data is for {data.get('game')!r}, not {overlay.game!r}")
    unknown = sorted(set(data) - {"format", "version", "game", "changes", "confirmed", "note"})
    problems += [f"{key}: not a part of owner data" for key in unknown]
    return problems


def _file_problems(overlay: Overlay, stem: str, change: object) -> list[str]:
    if stem not in overlay.collections:
        return [f"changes.{stem}: no such pack file (files: {', '.join(overlay.collections)})"]
    if not isinstance(change, Mapping):
        return [f"changes.{stem}: must be an object"]
    allowed = {"set", *overlay.collections[stem], *(["connections"] if stem == "board" else [])}
    problems = [f"changes.{stem}.{key}: cannot be changed (it can: {', '.join(sorted(allowed))})"
                for key in change if key not in allowed]
    problems += _set_problems(overlay, stem, change.get("set", {}))
    for collection in overlay.collections[stem]:
        problems += _collection_problems(f"changes.{stem}.{collection}", change.get(collection, {}))
    if stem == "board":
        problems += _connection_problems(change.get("connections", {}))
    return problems


def _set_problems(overlay: Overlay, stem: str, values: object) -> list[str]:
    if not isinstance(values, Mapping):
        return [f"changes.{stem}.set: must be an object"]
    settable = overlay.settable.get(stem, ())
    return [f"changes.{stem}.set.{key}: cannot be set (it can: {', '.join(settable) or 'nothing'})"
            for key in values if key not in settable]


def _collection_problems(where: str, patches: object) -> list[str]:
    if not isinstance(patches, Mapping):
        return [f"{where}: must be an object of ids"]
    return [f"{where}.{key}: must be an object of fields, or null to remove it"
            for key, patch in patches.items() if patch is not None and not isinstance(patch, Mapping)]


def _connection_problems(connections: object) -> list[str]:
    if not isinstance(connections, Mapping):
        return ["changes.board.connections: must be an object with 'add' and 'remove'"]
    problems = [f"changes.board.connections.{key}: only 'add' and 'remove'" for key in connections
                if key not in ("add", "remove")]
    removed = connections.get("remove", [])
    if not isinstance(removed, list) or not all(_is_pair(p) for p in removed):
        problems.append("changes.board.connections.remove: must be a list of two location ids each")
    added = connections.get("add", [])
    if not isinstance(added, list):
        return problems + ["changes.board.connections.add: must be a list of two location ids each, "
                           "or of ways ({'between': [two ids], 'kind': ..., 'only': [movers]})"]
    return problems + [problem for n, entry in enumerate(added)
                       for problem in _added_problems(f"changes.board.connections.add[{n}]", entry)]


def _added_problems(where: str, entry: object) -> list[str]:
    """An added connection: a pair of ids (a road for everyone), or a way given as an object."""
    if _is_pair(entry):
        return []
    if not isinstance(entry, Mapping):
        return [f"{where}: must be two location ids, or a way ({{'between': [two ids], 'only': [movers]}})"]
    problems = [f"{where}.{key}: not a part of a way (it has: between, kind, only)" for key in entry
                if key not in WAY_FIELDS]
    if not _is_pair(entry.get("between")):
        problems.append(f"{where}.between: must be two location ids")
    if "kind" in entry and not (isinstance(entry["kind"], str) and entry["kind"]):
        problems.append(f"{where}.kind: must be a word (what the way is on the board)")
    only = entry.get("only", [])
    if not (isinstance(only, list) and all(isinstance(m, str) and m for m in only)):
        problems.append(f"{where}.only: must be a list of movers (who alone may take the way)")
    return problems


#: The fields an added way may have (the loader checks the movers and the places).
WAY_FIELDS: Final = ("between", "kind", "only")


def _is_pair(value: object) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)


# -- applying it -------------------------------------------------------------------------------------

def apply_owner_data(overlay: Overlay, files: Mapping[str, object], data: OwnerData) -> dict[str, object]:
    """The pack files with the owner's changes; raises OwnerDataError for changes
    that name nothing (the pack loader checks the rest)."""
    result = copy.deepcopy(dict(files))
    problems: list[str] = []
    for stem, change in data.changes.items():
        body = result[f"{stem}.json"]
        assert isinstance(body, dict)
        body.update(copy.deepcopy(dict(_mapping(change.get("set")))))
        for collection in overlay.collections[stem]:
            _patch(overlay, body, collection, _mapping(change.get(collection)), problems)
        if stem == "board":
            _connect(body, _mapping(change.get("connections")), problems)
    _confirm(overlay, result, data.confirmed, problems)
    if problems:
        raise OwnerDataError(problems)
    return result


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _patch(overlay: Overlay, body: dict[str, object], collection: str, patches: Mapping[str, object],
           problems: list[str]) -> None:
    elements = body.get(collection)
    assert isinstance(elements, list)
    by_id = {e.get("id"): e for e in elements if isinstance(e, dict)}
    for element_id, patch in patches.items():
        if patch is None:
            if element_id not in by_id:
                problems.append(f"{overlay.nouns.get(collection, collection)} {element_id!r}: there is none to remove")
            else:
                elements.remove(by_id.pop(element_id))
        elif element_id in by_id:
            by_id[element_id].update(copy.deepcopy(dict(_mapping(patch))))
        else:
            by_id[element_id] = {"id": element_id, "verified": False, **copy.deepcopy(dict(_mapping(patch)))}
            elements.append(by_id[element_id])


def _connect(board: dict[str, object], change: Mapping[str, object], problems: list[str]) -> None:
    connections = board.get("connections")
    assert isinstance(connections, list)
    for pair in _pairs(change.get("remove")):
        found = [c for c in connections if isinstance(c, dict) and _pair_key(c.get("between")) == _pair_key(pair)]
        if not found:
            problems.append(f"connection {pair[0]} – {pair[1]}: there is none to remove")
        for connection in found:
            connections.remove(connection)
    connections.extend(_added_way(entry) for entry in _list(change, "add"))


def _added_way(entry: object) -> dict[str, object]:
    """The connection an ``add`` entry makes: a road for everyone, or a way with its kind and movers."""
    if isinstance(entry, Mapping):
        way = {key: copy.deepcopy(entry[key]) for key in WAY_FIELDS if key in entry}
        return {**way, "between": list(map(str, _list(entry, "between"))), "verified": False}
    return {"between": list(map(str, entry)) if isinstance(entry, list) else [], "verified": False}


def without_road(document: Mapping[str, object], files: Mapping[str, object], a: str, b: str) -> dict[str, object]:
    """``document`` with the road ``a`` – ``b`` taken off the board (the owner says their board has
    none): a road the owner added is dropped from their additions, a shipped one is removed. Only a
    road we guessed: one the owner confirmed, or one the data (``files``, as ``document`` builds
    them) does not have, is an OwnerDataError, and ``document`` is not changed."""
    key = _pair_key([a, b])
    found = [c for c in _list(_mapping(files.get("board.json")), "connections")
             if isinstance(c, Mapping) and _pair_key(c.get("between")) == key]
    if not found:
        raise OwnerDataError([f"connection {a} – {b}: the board has no such road"])
    if any(c.get("verified") for c in found):
        raise OwnerDataError([f"connection {a} – {b}: this road is confirmed, not a guess; "
                              "change it in the board editor if your board has none"])
    changed: dict[str, Any] = copy.deepcopy(dict(document))
    roads = changed.setdefault("changes", {}).setdefault("board", {}).setdefault("connections", {})
    before = _list(roads, "add")
    added = [entry for entry in before if _pair_key(_between(entry)) != key]
    if len(added) == len(before):
        roads["remove"] = _pairs(roads.get("remove")) + [[a, b]]
    roads["add"] = added
    return changed


def _pairs(value: object) -> list[list[str]]:
    return [list(map(str, p)) for p in value] if isinstance(value, list) else []


def _between(entry: object) -> object:
    """The two places of an ``add`` entry: the pair itself, or a way's ``between``."""
    return entry.get("between") if isinstance(entry, Mapping) else entry


def _pair_key(value: object) -> str:
    return "+".join(sorted(map(str, value))) if isinstance(value, list) else ""


def _confirm(overlay: Overlay, files: dict[str, object], keys: tuple[str, ...], problems: list[str]) -> None:
    targets = element_index(overlay, files)
    for key in keys:
        target = targets.get(key)
        if target is None:
            problems.append(f"confirmed: {key!r} names nothing in the game data")
        else:
            target["verified"] = True


def element_index(overlay: Overlay, files: Mapping[str, object]) -> dict[str, dict[str, object]]:
    """Every confirmable element of the pack files by its name (``board.locations.<id>``,
    ``board.connections.a+b``, ``board.terror_max``), pointing into ``files``."""
    index: dict[str, dict[str, object]] = {}
    for stem, collections in overlay.collections.items():
        body = _mapping(files.get(f"{stem}.json"))
        for collection in collections:
            for element in _list(body, collection):
                if isinstance(element, dict):
                    index[f"{stem}.{collection}.{element.get('id')}"] = element
    for connection in _list(_mapping(files.get("board.json")), "connections"):
        if isinstance(connection, dict):
            index[f"board.connections.{_pair_key(connection.get('between'))}"] = connection
    for key in overlay.confirmable:
        stem, name = key.split(".")
        value = _mapping(files.get(f"{stem}.json")).get(name)
        if isinstance(value, dict):
            index[key] = value
    return index


def _list(body: Mapping[str, object], key: str) -> list[object]:
    value = body.get(key)
    return value if isinstance(value, list) else []


def owner_pack(overlay: Overlay, data: OwnerData, shipped: Mapping[str, object] | None = None) -> object:
    """The pack built of the shipped files with the owner's data; OwnerDataError lists every problem."""
    files = apply_owner_data(overlay, overlay.shipped() if shipped is None else shipped, data)
    try:
        return overlay.build(files)
    except PackError as problem:
        raise OwnerDataError([_plain(overlay, p, files) for p in problem.problems]) from None


_INDEXED: Final = re.compile(r"^(\w+)\.json: (\w+)\[(\d+)\]")


def _plain(overlay: Overlay, problem: str, files: Mapping[str, object]) -> str:
    """The loader's ``board.json: locations[2].number: ...`` as ``board: location 'some-place' .number: ...``:
    the owner knows their elements by id, not by place in a list."""
    found = _INDEXED.match(problem)
    if found is None:
        return problem.replace(".json: ", ": ", 1)
    stem, collection, index = found.group(1), found.group(2), int(found.group(3))
    elements = _list(_mapping(files.get(f"{stem}.json")), collection)
    element = elements[index] if index < len(elements) else None
    name = _element_name(overlay, collection, element)
    return f"{stem}: {name}{problem[found.end():]}" if name else problem.replace(".json: ", ": ", 1)


def _element_name(overlay: Overlay, collection: str, element: object) -> str:
    if not isinstance(element, dict):
        return ""
    if collection == "connections":
        return "connection " + " – ".join(map(str, element.get("between") or []))
    return f"{overlay.nouns.get(collection, collection)} {element.get('id')!r}" if element.get("id") else ""

def shipped_copies(read: Callable[[], Mapping[str, object]]) -> Callable[[], dict[str, object]]:
    """A pack's ``shipped_files``: a fresh copy of its shipped files on each call (the owner's
    overlay changes the copy), read from disk once."""
    text = functools.lru_cache(maxsize=1)(lambda: json.dumps(read()))

    def shipped_files() -> dict[str, object]:
        files: dict[str, object] = json.loads(text())
        return files

    return shipped_files


__all__ = ["FORMAT", "Overlay", "OwnerData", "OwnerDataError", "apply_owner_data", "element_index",
           "empty_document", "owner_pack", "parse_owner_data", "shipped_copies", "without_road"]
