"""A new game from its setup: the players and their heroes at the entrance,
one ghoul at the graveyard, one zombie at the church, the map's barricades,
Count Strahd off the board, and who plays the Dungeon Master.

A setup (docs/siege-of-barovia.md, "Setup")::

    {"players": [{"name": "Ana", "hero": "Sister Kasimir"}, {"name": "Ben"}],
     "dm": "box", "level": "normal", "seed": 7, "readings": {"ghoul_summon": "printed-e11"}}
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.engine.effects import EffectSink
from companion.engine.errors import SetupError

from .mapdata import SiegeMap
from .readings import parse_readings
from .words import where
from .state import (GHOUL, HERO, HERO_HP, MOST_PLAYERS, STRAHD, STRAHD_HP, ZOMBIE, Figure, Player, SiegeState)

DM_MODES = ("box", "person")
LEVELS = ("easy", "normal", "hard")
NAME_MOST = 40


def new_game(setup: object, siege_map: SiegeMap, sink: EffectSink) -> SiegeState:
    if not isinstance(setup, Mapping):
        raise SetupError("a Siege of Barovia setup must be an object with 'players'")
    unknown = sorted(set(map(str, setup)) - {"players", "dm", "level", "seed", "readings"})
    if unknown:
        raise SetupError(f"setup: unknown field(s) {', '.join(unknown)} (it has players, dm, level, seed, readings)")
    dm, level = _one_of(setup, "dm", DM_MODES), _one_of(setup, "level", LEVELS)
    state = SiegeState(siege_map, parse_readings(setup.get("readings")), dm, level, _seed(setup), [], {},
                       sorted(siege_map.barricades))
    for number, entry in enumerate(_players(setup.get("players")), 1):
        _seat(state, number, entry)
    _place_enemies(state, sink)
    return state


def _one_of(setup: Mapping[str, object], key: str, allowed: tuple[str, ...]) -> str:
    value = setup.get(key, allowed[0] if key == "dm" else "normal")
    if value not in allowed:
        raise SetupError(f"setup.{key}: {value!r} is not one of {', '.join(allowed)}")
    return str(value)


def _seed(setup: Mapping[str, object]) -> int:
    seed = setup.get("seed", 1)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
        raise SetupError(f"setup.seed: must be a whole number from 0, got {seed!r}")
    return seed


def _players(value: object) -> list[Mapping[str, object]]:
    if not isinstance(value, list) or not 1 <= len(value) <= MOST_PLAYERS:
        raise SetupError(f"setup.players: from 1 to {MOST_PLAYERS} players, each {{'name': ..., 'hero': ...}}")
    entries = [entry if isinstance(entry, Mapping) else None for entry in value]
    if None in entries:
        raise SetupError("setup.players: each player is an object like {'name': 'Ana', 'hero': 'Sister Kasimir'}")
    return [e for e in entries if e is not None]


def _text(entry: Mapping[str, object], key: str, default: str, where: str) -> str:
    value = entry.get(key, default)
    if not isinstance(value, str) or len(value.strip()) > NAME_MOST:
        raise SetupError(f"{where}.{key}: a name of at most {NAME_MOST} letters")
    return value.strip() or default


def _seat(state: SiegeState, number: int, entry: Mapping[str, object]) -> None:
    where = f"setup.players[{number - 1}]"
    name = _text(entry, "name", f"Player {number}", where)
    hero_name = _text(entry, "hero", f"{name}'s hero", where)
    player = Player(f"p{number}", name, f"hero-p{number}")
    state.players.append(player)
    state.figures[player.figure or ""] = Figure(player.figure or "", HERO, hero_name, state.map.entrance, HERO_HP,
                                                HERO_HP, player.id)


def _place_enemies(state: SiegeState, sink: EffectSink) -> None:
    places = state.map.places
    sink.emit("heroes-placed", f"Put every hero on the entrance, {where(state, state.map.entrance)}.",
              square=state.map.entrance)
    for kind, place in ((GHOUL, "graveyard"), (ZOMBIE, "church")):
        figure_id = state.next_id(kind)
        square = places[place].square
        state.figures[figure_id] = Figure(figure_id, kind, f"{kind.capitalize()} {state.counts[kind]}", square)
        sink.emit("enemy-placed", f"Put a {kind} on the {places[place].name}.", figure=figure_id, kind=kind,
                  square=square)
    state.figures[STRAHD] = Figure(STRAHD, STRAHD, "Count Strahd", None, STRAHD_HP, STRAHD_HP)
    if state.barricades:
        sink.emit("barricades-placed", f"Put the {len(state.barricades)} barricades where the map shows them.",
                  lines=[list(line) for line in state.barricades])


__all__ = ["DM_MODES", "LEVELS", "new_game"]
