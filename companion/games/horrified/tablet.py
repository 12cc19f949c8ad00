"""What a tablet needs of this pack beside a game's state: the pack's drawing data and names (sent
once), for the original board or for a mixed game's, and what the new-game wizard needs to offer
mixed games (the other Horrified boards, and where each guest's places land on them by default).
"""

from __future__ import annotations

from companion.games.horrified_core import views
from companion.games.horrified_core.monsters import View
from companion.games.horrified_core.pack_types import Pack

from .mixed import Host, MixedRules, default_types, guest_roles, nearest_places
from .monsters import REGISTRY
from .pack import SPEC
from .pack_types import ITEM_TYPES, SYMBOLS, badge, board_of

#: Each monster symbol's colour and shape on screen (colour is never the only sign).
SYMBOL_LOOKS = {"dracula": ("red", "diamond"), "mummy": ("yellow", "triangle"), "frankenstein": ("green", "square"),
                "bride": ("purple", "star"), "creature": ("teal", "drop"), "wolf-man": ("brown", "circle"),
                "invisible-man": ("blue", "shield")}
ITEM_LOOKS = {"red": ("red", "hexagon"), "blue": ("blue", "circle"), "yellow": ("yellow", "square")}


def pack_view(pack: Pack) -> View:
    """The original board (its water ways apart), the badges' special actions and the symbols."""
    view = views.pack_view(pack, REGISTRY)
    board = board_of(pack)
    drawn = view["board"]
    assert isinstance(drawn, dict)
    drawn["hospital"] = board.hospital
    drawn["water"] = [[c.a, c.b] for c in board.connections if c.only is not None]
    drawn["return_place"] = board.hospital
    heroes = view["heroes"]
    assert isinstance(heroes, list)
    for hero in heroes:
        record = badge(pack, str(hero["id"]))
        hero["special"] = record.special.text if record.special.kind != "none" else ""
        hero["ability"] = record.ability.text if record.ability.kind != "none" else ""
    view["symbols"] = {s: {"colour": SYMBOL_LOOKS[s][0], "shape": SYMBOL_LOOKS[s][1], "name": name}
                       for s, name in SYMBOLS.items()}
    view["item_types"] = {t: {"colour": ITEM_LOOKS[t][0], "shape": ITEM_LOOKS[t][1], "word": t.capitalize()}
                          for t in ITEM_TYPES}
    view["solo"] = {"terror": board.solo.terror, "no_heroes": list(board.solo.no_heroes)}
    view.setdefault("relics", [])
    return view


def mixed_pack_view(rules: MixedRules) -> View:
    """A mixed game's pack: the host's view, with the guests among its monsters, marked as our combination."""
    view = dict(rules.host.pack_view())
    own = views.pack_view(rules.pack, rules.edition.monsters)
    view.update({key: own[key] for key in ("board", "monsters", "heroes", "villagers", "items", "perks", "cards")})
    board = view["board"]
    assert isinstance(board, dict)
    board.setdefault("water", [])
    view["mixed"] = {"board": rules.host.id, "title": rules.host.title, "ours": True,
                     "guests": sorted(str(m) for m in _guests(rules))}
    return view


def _guests(rules: MixedRules) -> list[object]:
    guests = rules.mix.get("guests")
    return list(guests) if isinstance(guests, dict) else []


def boards_view(pack: Pack, hosts: dict[str, Host]) -> list[View]:
    """For the wizard: each other Horrified board, its own pack view, and each of this box's monsters'
    places on it by default (symbols are given when the game starts: those of a host monster left out)."""
    return [{"id": host.id, "title": host.title, "pack": host.pack_view(),
             "types": default_types(SPEC.item_types, host.rules.edition.pack_spec.item_types),
             "places": {m.id: _roles(pack, host, m.id) for m in pack.monsters}} for host in hosts.values()]


def _roles(pack: Pack, host: Host, monster_id: str) -> dict[str, View]:
    roles = guest_roles(pack, monster_id)
    landed = nearest_places(pack, host.rules.pack, roles)
    return {role: {"from": place, "from_name": pack.location(place).name, "to": landed[role]}
            for role, place in roles.items()}

