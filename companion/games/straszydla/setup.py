"""A new game from the owner's setup: who plays and where they sit, the tiles as laid out
on the board, who starts and in which time of day, each player's starting creature and
suburb, and the readings (readings.py).

The rulebook's setup, as the box checks it:

* "Arrange the tiles so that the Centre district is surrounded on all sides by other
  districts" (every square round it holds a tile: it is not on the board's edge), "taking
  care that the Suburb tiles are placed on the edges of the board. These will be the
  starting tiles": each pawn starts on a suburb (a different one each).
* "On top of each stack place one 3/3 creature"; "starting with the starting player, each
  player takes one 3/3 creature. Each creature that arrives with you brings 3 white
  energy cubes. Take one black horror cube from the bank."
* "The starting player places 4 horror cubes on the time-of-day card" and chooses the time
  of day the game begins in.
* The pact cards are dealt in secret: each player names theirs on their own phone once the
  game has begun (rounds.py).

The setup (docs/straszydla.md, "Setup")::

    {"players": [{"name": "Ana", "side": "S"}, ...],        # 2 to 4, clockwise; seats p1, p2 ...
     "layout": {"0,0": "przedmiescie-polnocne", ...},       # "column,row" -> tile, every square
     "starting": "p1", "time": "day",
     "starters": {"p1": "strzyga", ...}, "at": {"p1": "przedmiescie-polnocne", ...},
     "readings": {"retreat_cube": "loser"}}
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Final

from companion.engine.errors import SetupError

from .geometry import parse_square, square_key
from .packdata import Pack
from .readings import parse_readings
from .state import GameState, Player, Stack

PLAYERS: Final = range(2, 5)
SIDES: Final = ("S", "W", "N", "E")  # clockwise from the near side
START_ENERGY: Final = 3  # each starting creature brings 3 white energy cubes
START_HORROR: Final = 1
CARD_CUBES: Final = 4


def seat_id(n: int) -> str:
    return f"p{n + 1}"


def new_state(pack: Pack, setup: Mapping[str, object], pack_id: str = "") -> GameState:
    """The state before the first round (SetupError saying what is wrong with the setup)."""
    players = _players(setup.get("players"))
    order = [p.seat for p in players]
    layout = _layout(pack, setup.get("layout"))
    state = GameState(pack_id=pack_id, readings=parse_readings(setup.get("readings")), columns=pack.columns,
                      rows=pack.rows, layout=layout, order=order, players={p.seat: p for p in players},
                      starting=_one_of(setup.get("starting", order[0]), order, "starting", "seat"),
                      time=_one_of(setup.get("time", "day"), ["day", "night"], "time", "time of day"),
                      card=CARD_CUBES)
    _stacks(pack, state)
    _starters(pack, state, setup.get("starters"))
    _pawns(pack, state, setup.get("at"))
    return state


def _one_of(value: object, options: list[str], field: str, noun: str) -> str:
    if value not in options:
        raise SetupError(f"{field}: {value!r} is not a {noun} of this game ({', '.join(options)})")
    return str(value)


def _players(value: object) -> list[Player]:
    if not isinstance(value, list) or len(value) not in PLAYERS:
        raise SetupError("players: 2 to 4 players, clockwise, each {\"name\": ..., \"side\": \"S\"}")
    found = [_player(n, entry, len(value)) for n, entry in enumerate(value)]
    if len({p.name for p in found}) != len(found):
        raise SetupError("players: two players have the same name")
    return found


def _player(n: int, entry: object, count: int) -> Player:
    entry = entry if isinstance(entry, Mapping) else {"name": entry}
    name = entry.get("name") or f"Player {n + 1}"
    if not isinstance(name, str) or len(name) > 40:
        raise SetupError(f"players[{n}].name: a name of at most 40 letters")
    side = entry.get("side", _default_side(n, count))
    if side not in SIDES:
        raise SetupError(f"players[{n}].side: the side of the table they sit at: N, E, S or W, not {side!r}")
    return Player(seat_id(n), name.strip() or f"Player {n + 1}", str(side), at="")


def _default_side(n: int, count: int) -> str:
    return ("S", "N")[n] if count == 2 else SIDES[n]


def _layout(pack: Pack, value: object) -> dict[str, str]:
    if not isinstance(value, Mapping):
        raise SetupError("layout: the tile on every square, {\"column,row\": tile id}")
    squares = {square_key(c, r) for c in range(pack.columns) for r in range(pack.rows)}
    missing, extra = sorted(squares - set(value)), sorted(set(value) - squares)
    if missing or extra:
        raise SetupError(f"layout: every square of the {pack.columns} x {pack.rows} board holds one tile "
                         f"({'no tile on ' + ', '.join(missing) if missing else 'no square ' + ', '.join(extra)})")
    known = {t.id for t in pack.tiles}
    layout = {str(k): str(v) for k, v in value.items()}
    for square, tile in sorted(layout.items()):
        if tile not in known:
            raise SetupError(f"layout.{square}: no tile {tile!r}")
    if len(set(layout.values())) != len(layout):
        raise SetupError("layout: a tile lies on two squares")
    _check_edges(pack, layout)
    return layout


def _check_edges(pack: Pack, layout: Mapping[str, str]) -> None:
    for square, tile_id in sorted(layout.items()):
        tile = pack.tile(tile_id)
        edge = _on_edge(pack, square)
        if tile.kind == "centre" and edge:
            raise SetupError(f"layout.{square}: the Centre must be surrounded on all sides by other districts, "
                             "so not on the board's edge")
        if tile.kind == "suburb" and not edge:
            raise SetupError(f"layout.{square}: {tile.name} is a suburb; suburbs lie on the board's edges")
    if not any(pack.tile(t).kind == "centre" for t in layout.values()):
        raise SetupError("layout: the Centre tile must be on the board")
    if sum(pack.tile(t).kind == "suburb" for t in layout.values()) < 2:
        raise SetupError("layout: at least two suburbs must be on the board")


def _on_edge(pack: Pack, square: str) -> bool:
    column, row = parse_square(square)
    return column in (0, pack.columns - 1) or row in (0, pack.rows - 1)


def _stacks(pack: Pack, state: GameState) -> None:
    """Four creature stacks by element, each topped with a 3/3; the imps face up by element."""
    for element in pack.elements:
        tops = [c.id for c in pack.starters if c.stack == element.id]
        rest = [c.id for c in pack.creatures if c.stack == element.id and not c.starter]
        state.stacks[element.id] = Stack(top=tops[0] if tops else None, rest=rest)
        state.imp_stacks[element.id] = [i.id for i in pack.imps if i.element == element.id]


def _starters(pack: Pack, state: GameState, value: object) -> None:
    chosen = dict(value) if isinstance(value, Mapping) else {}
    free = [c.id for c in pack.starters]
    for seat in state.from_starting():
        creature = chosen.get(seat, next((c for c in free if c not in chosen.values()), None))
        if creature not in free:
            raise SetupError(f"starters.{seat}: {creature!r} is not a 3/3 creature still on a stack "
                             f"({', '.join(free) or 'none left'})")
        free.remove(str(creature))
        _take_starter(pack, state, seat, str(creature))


def _take_starter(pack: Pack, state: GameState, seat: str, creature: str) -> None:
    stack = state.stacks[pack.creature(creature).stack]
    if stack.top == creature:
        stack.top = None
    player = state.players[seat]
    player.creatures.append(creature)
    player.energy += START_ENERGY
    player.horror = START_HORROR


def _pawns(pack: Pack, state: GameState, value: object) -> None:
    chosen = dict(value) if isinstance(value, Mapping) else {}
    suburbs = [t for t in state.layout.values() if pack.tile(t).kind == "suburb"]
    for seat in state.from_starting():
        taken = [p.at for p in state.players.values() if p.at]
        place = chosen.get(seat, next((s for s in suburbs if s not in taken), None))
        if place not in suburbs or (place in taken and len(taken) < len(suburbs)):
            raise SetupError(f"at.{seat}: each pawn starts on a suburb of its own ({', '.join(suburbs)}), "
                             f"not {place!r}")
        state.players[seat].at = str(place)


# -- a setup for the command line and the tests ---------------------------------------------------------

def random_layout(pack: Pack, rng: random.Random) -> dict[str, str]:
    """A layout the rules accept, dealt at random: the Centre off the edge, suburbs on it."""
    squares = [square_key(c, r) for r in range(pack.rows) for c in range(pack.columns)]
    edge = [s for s in squares if _on_edge(pack, s)]
    inner = [s for s in squares if not _on_edge(pack, s)]
    centre = next(t.id for t in pack.tiles if t.kind == "centre")
    suburbs = [t.id for t in pack.tiles if t.kind == "suburb"]
    others = [t.id for t in pack.tiles if t.kind == "district"]
    for found in (edge, inner, others):
        rng.shuffle(found)
    layout = {inner.pop(): centre}
    layout.update({edge.pop(): s for s in suburbs[:len(edge)]})
    layout.update(zip(edge + inner, others))
    return layout


def default_setup(pack: Pack, players: int, rng: random.Random) -> dict[str, object]:
    names = ["Przemo", "Syla", "Witek", "Ola"]
    return {"players": [{"name": names[n]} for n in range(players)], "layout": random_layout(pack, rng),
            "starting": "p1", "time": rng.choice(["day", "night"])}


__all__ = ["CARD_CUBES", "SIDES", "default_setup", "new_state", "random_layout", "seat_id"]
