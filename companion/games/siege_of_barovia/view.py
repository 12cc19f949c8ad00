"""What the tablets, phones and LEDs see of a game of Siege of Barovia
(docs/protocol.md, "Siege of Barovia's view").

Why views and not the state: the view is the protocol, kept stable and
documented. Nothing of the game itself is secret: the board is on the table.
What may be secret is the Dungeon Master's choice while it is being made,
and that is the prompt's audience (the DM's seat alone), not the view.
"""

from __future__ import annotations

from typing import Final

from . import dm, hero
from .mapdata import ROLES, SAFE_HOUSES, SiegeMap
from .readings import READINGS
from .setup import DM_MODES, LEVELS
from .state import DM_SEAT, ENEMIES, KIND_WORDS, LOCAL_HEROES, MOVER, DmDid, Figure, SiegeState

View = dict[str, object]
ENEMY_RULES: Final = {kind: {"name": KIND_WORDS[kind], "killed_on": hero.HITS_ON[kind],
                             "hits_on": dm.DM_HITS_ON[kind]} for kind in ENEMIES}


def pack_view(siege_map: SiegeMap) -> View:
    """The map and the names a tablet needs once: the grid, the keyed places, the readings."""
    return {"map": map_view(siege_map), "readings": [r.to_plain() for r in READINGS], "levels": list(LEVELS),
            "dm_modes": list(DM_MODES), "enemies": ENEMY_RULES, "local_heroes": dict(LOCAL_HEROES),
            "safe_houses": list(SAFE_HOUSES), "roles": dict(ROLES)}


def map_view(siege_map: SiegeMap) -> View:
    frame = siege_map.frame
    return {"columns": siege_map.columns, "rows": siege_map.rows, "entrance": siege_map.entrance,
            "edge": list(siege_map.edge), "off_board": list(siege_map.off_board),
            "barricades": [list(line) for line in siege_map.barricades],
            "places": [{"id": p.id, "name": p.name, "code": p.code, "square": p.square}
                       for p in siege_map.places.values()],
            "frame": {"left": frame.left, "top": frame.top, "right": frame.right, "bottom": frame.bottom},
            "data_id": siege_map.data_id}


def public_view(state: SiegeState) -> View:
    return {**_turn(state), "figures": {f.id: _figure(f) for f in state.figures.values()},
            "barricades": [list(line) for line in state.barricades], "destroyed": list(state.destroyed),
            "standing": state.standing(), "threatened": threatened(state),
            "places": {p.id: p.square for p in state.map.places.values()}, "recruited": list(state.recruited),
            "last_dm": _did(state.last_dm), "readings": dict(state.readings), "outcome": state.outcome,
            "data_id": state.data_id, "secret_seats": [DM_SEAT] if state.dm == "person" else []}


def _turn(state: SiegeState) -> View:
    return {"phase": state.phase, "turn": state.turn, "active": state.player.id, "moved": state.moved,
            "acted": state.acted, "dm": state.dm, "level": state.level, "dm_turns": state.dm_turns,
            "players": [{"id": p.id, "name": p.name, "figure": p.figure} for p in state.players]}


def _figure(figure: Figure) -> View:
    return {"id": figure.id, "kind": figure.kind, "name": figure.name, "square": figure.square, "hp": figure.hp,
            "max_hp": figure.max_hp, "player": figure.player, "upgraded": figure.upgraded}


def _did(did: DmDid | None) -> View | None:
    if did is None:
        return None
    return {"by": did.by, "figure": did.figure, "path": list(did.path), "act": did.act, "actor": did.actor,
            "target": did.target, "why": did.why}


def threatened(state: SiegeState) -> list[str]:
    """The standing safe houses a creature stands on or can step onto on the DM's next turn."""
    board = state.board()
    found = []
    for place in state.standing():
        square = state.map.square_of(place)
        if any(e.square == square or square in board.steps(e.square or "", MOVER[e.kind]) for e in state.enemies()):
            found.append(place)
    return found


__all__ = ["ENEMY_RULES", "map_view", "pack_view", "public_view", "threatened"]
