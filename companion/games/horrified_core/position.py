"""A position: a JSON description of the table as it stands (who is where,
terror, frenzy, monsters in play), to start the engine mid-game. The format is
documented in docs/formats.md. Everything is checked; a problem names the
field and why."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Mapping

from companion.engine.errors import SetupError
from companion.engine.graph import Graph
from companion.engine.plain import PlainDataError, from_plain, to_plain

from .context import areas_of, board_graph
from .pack_types import Pack
from .state import GameState, HeroState, Mat, MonsterState, VillagerState

if TYPE_CHECKING:
    from .edition import Edition
    from .monsters import MonsterRules

Data = Mapping[str, object]
FIELDS = {"monsters", "heroes", "active", "phase", "turn", "terror", "frenzy", "actions_left", "villagers",
          "items", "discard", "removed", "played_cards", "mats"}


def state_from_position(edition: Edition, pack: Pack, rules: Mapping[str, MonsterRules], data: object) -> GameState:
    if not isinstance(data, Mapping):
        raise SetupError("a position must be a JSON object")
    unknown = sorted(str(k) for k in data if k not in FIELDS)
    if unknown:
        raise SetupError(f"position: unknown field(s) {', '.join(unknown)} (known: {', '.join(sorted(FIELDS))})")
    monsters = _monsters(pack, data.get("monsters"))
    graph = board_graph(pack, areas_of([rules[m] for m in monsters]))
    heroes = _heroes(edition, pack, graph, data.get("heroes"))
    state = edition.state_class(
        seats=list(heroes), active=_active(data, heroes), turn=_int(data, "turn", 1, 0, 10_000),
        phase=_phase(data), terror=_int(data, "terror", 0, 0, pack.board.terror_max - 1),
        frenzy=None, heroes=heroes, monsters=monsters, mats=_mats(rules, monsters, data.get("mats", {})),
        villagers=_villagers(pack, graph, data.get("villagers", {})), deck=[], actions_left=0,
    )
    state.frenzy = _frenzy(pack, state, data.get("frenzy"))
    _cards(pack, state, data.get("played_cards", []))
    _items(pack, graph, state, data.get("items", {}), data.get("discard", []), data.get("removed", []),
           _items_on_mats(rules, state))
    _perks(pack, state)
    state.actions_left = _int(data, "actions_left", pack.hero(state.active_hero.id).actions, 0, 20)
    _place_monsters(graph, state, data.get("monsters"))
    _check_mats(rules, graph, state)
    _relics(rules, state)
    return state


def _place(graph: Graph, value: object, where: str) -> str | None:
    """A location field: null (off the board) or the id of a location on this board."""
    if value is None:
        return None
    if not isinstance(value, str) or value not in graph:
        raise _fail(where, f"no location {value!r} on this board")
    return value


def _fail(where: str, why: str) -> SetupError:
    return SetupError(f"position.{where}: {why}")


def _int(data: Data, key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(key, f"must be a whole number from {low} to {high}, got {value!r}")
    return value


def _phase(data: Data) -> Literal["hero", "monster"]:
    phase = data.get("phase", "hero")
    if phase == "hero" or phase == "monster":
        return phase
    raise _fail("phase", f"must be 'hero' or 'monster', got {phase!r}")


def _monsters(pack: Pack, value: object) -> dict[str, MonsterState]:
    if not isinstance(value, Mapping) or not value:
        raise _fail("monsters", "give each monster in play with its location (null if defeated)")
    for monster in value:
        if not isinstance(monster, str) or not pack.has("monster", monster):
            raise _fail(f"monsters.{monster}", "no such monster in the pack")
    ordered = sorted(value, key=lambda m: pack.monster(str(m)).frenzy_order)
    return {str(m): MonsterState(str(m), None, defeated=value[m] is None) for m in ordered}


def _place_monsters(graph: Graph, state: GameState, value: object) -> None:
    assert isinstance(value, Mapping)
    for monster, where in value.items():
        state.monsters[str(monster)].location = _place(graph, where, f"monsters.{monster}")


def _heroes(edition: Edition, pack: Pack, graph: Graph, value: object) -> dict[str, HeroState]:
    if not isinstance(value, list) or not value:
        raise _fail("heroes", "list the heroes in clockwise order")
    heroes: dict[str, HeroState] = {}
    for n, entry in enumerate(value):
        hero = _hero(edition, pack, graph, entry, f"heroes[{n}]")
        if hero.id in heroes:
            raise _fail(f"heroes[{n}]", f"{hero.id} is listed twice")
        heroes[hero.id] = hero
    return heroes


HERO_FIELDS = ("hero", "player", "at", "items", "relics", "perks")


def _hero(edition: Edition, pack: Pack, graph: Graph, entry: object, where: str) -> HeroState:
    """A seat: the fields every edition has, and the edition's own marks (``Edition.hero_marks``)."""
    if not isinstance(entry, Mapping) or not pack.has("hero", str(entry.get("hero"))):
        raise _fail(where, f"unknown hero {entry!r}")
    unknown = sorted(str(k) for k in entry if k not in HERO_FIELDS and k not in edition.hero_marks)
    if unknown:
        raise _fail(where, f"unknown field(s) {', '.join(unknown)}")
    at = _place(graph, entry.get("at"), f"{where}.at")
    player = entry.get("player", entry["hero"])
    if not isinstance(player, str) or not player.strip():
        raise _fail(f"{where}.player", f"the player's name must be some text, got {player!r}")
    try:
        held = {key: from_plain(list[str], entry.get(key, []), f"{where}.{key}") for key in ("items", "relics", "perks")}
    except PlainDataError as problem:
        raise SetupError(f"position.{problem}") from None
    marks = {key: entry[key] for key in edition.hero_marks if key in entry}
    return edition.new_hero(str(entry["hero"]), player.strip(), at, items=held["items"], relics=held["relics"],
                            perks=held["perks"], marks=marks)


def _active(data: Data, heroes: dict[str, HeroState]) -> int:
    active = data.get("active", next(iter(heroes)))
    if not isinstance(active, str) or active not in heroes:
        raise _fail("active", f"{active!r} is not one of the heroes")
    return list(heroes).index(str(active))


def _villagers(pack: Pack, graph: Graph, value: object) -> dict[str, VillagerState]:
    if not isinstance(value, Mapping):
        raise _fail("villagers", "give villagers as {villager: location}")
    villagers = {v.id: VillagerState(v.id) for v in pack.villagers}
    for who, where in value.items():
        if who not in villagers:
            raise _fail(f"villagers.{who}", "no such villager")
        villagers[str(who)].location = _place(graph, where, f"villagers.{who}")
    return villagers


def _frenzy(pack: Pack, state: GameState, value: object) -> str | None:
    in_play = [m.id for m in state.monsters_in_play()]
    if value is None:
        return min(in_play, key=lambda m: pack.monster(m).frenzy_order) if in_play else None
    if not isinstance(value, str) or value not in in_play:
        raise _fail("frenzy", f"{value!r} is not a monster in play")
    return str(value)


def _cards(pack: Pack, state: GameState, played: object) -> None:
    if not isinstance(played, list) or any(not isinstance(c, str) or not pack.has("card", c) for c in played):
        raise _fail("played_cards", f"must list Monster card ids from the pack, got {played!r}")
    state.played_cards = [str(c) for c in played]
    state.deck = sorted(c.id for c in pack.cards if c.id not in state.played_cards)


def _items(pack: Pack, graph: Graph, state: GameState, on_board: object, discard: object, removed: object,
           on_mats: list[str]) -> None:
    if not isinstance(on_board, Mapping) or not isinstance(discard, list) or not isinstance(removed, list):
        raise _fail("items", "give 'items' as {item: location}, and 'discard' and 'removed' as lists")
    held = [i for h in state.heroes.values() for i in h.items]
    placed = list(on_board) + list(discard) + list(removed) + held + on_mats
    for item in placed:
        if not isinstance(item, str) or not pack.has("item", item):
            raise _fail("items", f"no item called {item!r} in the pack")
    doubles = sorted({i for i in placed if placed.count(i) > 1})
    if doubles:
        raise _fail("items", f"these items are in two places at once: {', '.join(doubles)}")
    state.items_at = {str(i): str(_place(graph, w, f"items.{i}") if w is not None else _no_null(i))
                      for i, w in on_board.items()}
    state.item_discard = [str(d) for d in discard]
    state.removed_items = [str(r) for r in removed]
    state.haversack = sorted(i.id for i in pack.items if i.id not in set(placed))


def _no_null(item: object) -> str:
    raise _fail(f"items.{item}", "an item on the board needs a location (put it in 'discard' otherwise)")


def _items_on_mats(rules: Mapping[str, MonsterRules], state: GameState) -> list[str]:
    return [item for monster, mat in state.mats.items() for item in rules[monster].mat_items(mat)]


def _perks(pack: Pack, state: GameState) -> None:
    held = [p for h in state.heroes.values() for p in h.perks]
    unknown = [p for p in held if not pack.has("perk", p)]
    if unknown:
        raise _fail("heroes", f"unknown Perk cards: {', '.join(unknown)}")
    state.perk_deck = sorted(p.id for p in pack.perks if p.id not in held)


def _mats(rules: Mapping[str, MonsterRules], monsters: dict[str, MonsterState], value: object) -> dict[str, Mat]:
    if not isinstance(value, Mapping):
        raise _fail("mats", "give mats as {monster: {...}}")
    mats: dict[str, Mat] = {}
    for monster in monsters:
        fresh = rules[monster].new_mat()
        if fresh is None:
            continue
        given = value.get(monster, {})
        merged = {**_plain_of(fresh), **(given if isinstance(given, Mapping) else {})}
        try:
            mats[monster] = from_plain(type(fresh), merged, f"mats.{monster}")
        except PlainDataError as problem:
            raise SetupError(f"position.{problem}") from None
    return mats


def _check_mats(rules: Mapping[str, MonsterRules], graph: Graph, state: GameState) -> None:
    for monster, mat in state.mats.items():
        problems = rules[monster].mat_problems(mat, graph)
        if problems:
            raise _fail(f"mats.{monster}", "; ".join(problems))


def _relics(rules: Mapping[str, MonsterRules], state: GameState) -> None:
    known = {relic for monster in state.monsters for relic in rules[monster].relic_ids()}
    for n, hero in enumerate(state.heroes.values()):
        strange = [r for r in hero.relics if r not in known]
        if strange:
            raise _fail(f"heroes[{n}].relics", f"no relic called {', '.join(strange)} in this game")


def _plain_of(mat: Mat) -> dict[str, object]:
    plain = to_plain(mat)
    assert isinstance(plain, dict)
    return plain
