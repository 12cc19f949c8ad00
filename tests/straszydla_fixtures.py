"""A small box of Straszydła for the tests: a 3 x 3 board (the Centre in the middle, a suburb
north and south), few creatures, four pacts; and helpers that drive a game by prompt key.

The board, as laid out by ``LAYOUT`` (north at the top)::

    sad (day, earth 1, imp)     polnoc (suburb, day, earth 1)   kuznia (day, fire 2, scare)
    bagna (night, water 2, imp) centrum (centre, night, fire 2, scare)   wieza (night, air 1, scare)
    laka (day, air 1, scare)    poludnie (suburb, night, water 1)   cmentarz (night, air 2)
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Mapping

from companion.engine.effects import EffectSink
from companion.engine.game import Flow, Game, Step
from companion.games.straszydla.gamepack import StraszydlaPack
from companion.games.straszydla.packdata import Pack, pack_from_files
from companion.games.straszydla.rules import StraszydlaRules
from companion.games.straszydla.state import GameState

ALL = ["water", "air", "fire", "earth"]


def tile(id: str, kind: str, time: str, produces: dict[str, int], scare: bool = False,
         summon: bool = False) -> dict[str, object]:
    return {"id": id, "name": id.title(), "kind": kind, "time": time, "produces": produces, "scare": scare,
            "summon": summon}


def creature(id: str, day: int, night: int, elements: list[str], stack: str, starter: bool = False) -> dict[str, object]:
    return {"id": id, "name": id.title(), "day": day, "night": night, "elements": elements, "stack": stack,
            "starter": starter}


FILES: dict[str, Any] = {
    "elements.json": {"elements": [{"id": "water", "name": "Water", "colour": "blue"},
                                   {"id": "air", "name": "Air", "colour": "purple"},
                                   {"id": "fire", "name": "Fire", "colour": "orange"},
                                   {"id": "earth", "name": "Earth", "colour": "green"}]},
    "tiles.json": {"size": {"columns": 3, "rows": 3}, "tiles": [
        tile("centrum", "centre", "night", {"fire": 2}, scare=True),
        tile("polnoc", "suburb", "day", {"earth": 1}), tile("poludnie", "suburb", "night", {"water": 1}),
        tile("sad", "district", "day", {"earth": 1}, summon=True),
        tile("kuznia", "district", "day", {"fire": 2}, scare=True),
        tile("laka", "district", "day", {"air": 1}, scare=True),
        tile("bagna", "district", "night", {"water": 2}, summon=True),
        tile("wieza", "district", "night", {"air": 1}, scare=True),
        tile("cmentarz", "district", "night", {"air": 2})]},
    "creatures.json": {"creatures": [
        creature("strzyga", 3, 3, ALL, "water", True), creature("latarnik", 3, 3, ALL, "fire", True),
        creature("wargin", 3, 3, ALL, "earth", True), creature("dusiol", 3, 3, ALL, "air", True),
        creature("utopiec", 1, 4, ["water"], "water"), creature("syrena", 3, 2, ["water"], "water"),
        creature("wroniec", 2, 4, ["air"], "air"), creature("zmora", 2, 3, ["air"], "air"),
        creature("bies", 2, 4, ["fire"], "fire"), creature("ognik", 1, 3, ["fire"], "fire"),
        creature("borowy", 3, 4, ["earth"], "earth"), creature("bebok", 3, 2, ["earth"], "earth")],
        "imps": [{"id": f"imp-{e}-{n}", "name": f"Imp {e} {n}", "element": e, "text": "Help by hand."}
                 for e in ALL for n in (1, 2)]},
    "pacts.json": {"pacts": [{"id": "pakt-a", "name": "Pact A", "elements": ["water", "water", "air", "fire", "earth"]},
                             {"id": "pakt-b", "name": "Pact B", "elements": ["air", "air", "fire", "fire", "earth"]},
                             {"id": "pakt-c", "name": "Pact C", "elements": ["earth", "earth", "water", "air", "fire"]},
                             {"id": "pakt-d", "name": "Pact D", "elements": ["fire", "fire", "water", "air", "earth"]}]},
    "helpcard.json": {"scaring": [{"id": "exact", "from": 0, "to": 0, "cubes": 3},
                                  {"id": "one-over", "from": 1, "to": 1, "cubes": 2},
                                  {"id": "two-over", "from": 2, "to": 2, "cubes": 1},
                                  {"id": "one-under", "from": -1, "to": -1, "cubes": 2},
                                  {"id": "two-under", "from": -2, "to": -2, "cubes": 1}],
                      "horror": [{"id": "feed-free", "name": "Feed one creature for free", "cost": 4,
                                  "kind": "feed-free", "amount": 1},
                                 {"id": "fear-cube", "name": "A fear cube", "cost": 2, "kind": "fear-cube", "amount": 1}]},
}
LAYOUT = {"0,0": "sad", "1,0": "polnoc", "2,0": "kuznia", "0,1": "bagna", "1,1": "centrum", "2,1": "wieza",
          "0,2": "laka", "1,2": "poludnie", "2,2": "cmentarz"}
NAMES = ["Przemo", "Syla", "Witek", "Ola"]


def small_pack() -> Pack:
    return pack_from_files(copy.deepcopy(FILES))


class PreparedRules(StraszydlaRules):
    """The rules, with a test's situation laid out as the game begins: some players' resources
    (``hands``: seat -> Player fields), blockade markers, and (a setup's ``round``) a game that begins
    in a later round of its first time of day. It is part of the origin (for a game
    started through the service: of its setup), so every rebuild (after a refused input, an
    undo, a replay) starts from it, as a real game would."""

    def begin(self, origin: Mapping[str, object], sink: EffectSink) -> tuple[GameState, Flow[None]]:
        state, flow = super().begin(origin, sink)
        given = origin.get("setup")
        hands = origin.get("hands") or (given.get("hands") if isinstance(given, Mapping) else None) or {}
        assert isinstance(hands, Mapping)
        for seat, hand in hands.items():
            for name, value in hand.items():
                assert hasattr(state.players[seat], name), name
                setattr(state.players[seat], name, copy.deepcopy(value))
        state.blockades = list(origin.get("blockades") or [])  # type: ignore[call-overload]
        late = given.get("round") if isinstance(given, Mapping) else None
        if isinstance(late, int):  # joined later in the first time of day: its card holds fewer cubes
            state.card, state.round, state.round_in_time = state.card + 1 - late, late - 1, late - 1
        return state, flow


def small_rules() -> StraszydlaRules:
    return PreparedRules(small_pack())


class SmallBoxPack(StraszydlaPack):
    """The small box as a pack of its own (``COMPANION_EXTRA_PACKS=straszydla_fixtures:SmallBoxPack``),
    for the browser: the same screens on a 3 x 3 board, a game's ``hands`` in its setup."""

    id = "straszydla-small"
    title = "Straszydła (the tests' small box)"

    def __init__(self) -> None:
        super().__init__(small_rules())

    def owner_data(self) -> None:  # type: ignore[override]
        return None


def setup(players: int = 3, **more: object) -> dict[str, object]:
    found: dict[str, object] = {"players": [{"name": NAMES[n]} for n in range(players)], "layout": dict(LAYOUT),
                                "starting": "p1", "time": "day",
                                "at": {"p1": "polnoc", "p2": "poludnie", **({"p3": "polnoc"} if players > 2 else {})}}
    found.update(more)
    return found


def new_game(players: int = 3, pacts: Mapping[str, str] | None = None,
             hands: Mapping[str, Mapping[str, object]] | None = None, blockades: list[str] | None = None,
             **more: object) -> Game:
    """A game past its pacts (``pacts``: seat -> pact; by default A, B, C in turn), with the
    ``hands`` and ``blockades`` of PreparedRules."""
    game = Game(small_rules(), {"setup": setup(players, **more), "hands": dict(hands or {}),
                                "blockades": list(blockades or [])})
    chosen = dict(pacts or {f"p{n + 1}": ["pakt-a", "pakt-b", "pakt-c"][n % 3] for n in range(players)})
    for seat, pact in chosen.items():
        game.apply({"key": "pact", "answer": pact, "seat": seat})
    return game


def state(game: Game) -> GameState:
    found = game.state
    assert isinstance(found, GameState)
    return found


def key(game: Game) -> str:
    assert game.prompt is not None, "the game is over"
    return game.prompt.key


def plan(game: Game, seat: str, *moves: str) -> Step:
    return game.apply({"key": "plan", "answer": {"action": "plan", "moves": list(moves)}, "seat": seat})


def answer(game: Game, value: object, seat: str | None = None) -> Step:
    entry: dict[str, object] = {"key": key(game), "answer": value}
    if seat is not None:
        entry["seat"] = seat
    return game.apply(entry)


def act(game: Game, action: str, **fields: object) -> Step:
    return answer(game, {"action": action, **fields})


def until(game: Game, wanted: str, answer_with: Callable[[Game], object], limit: int = 500) -> None:
    """Answer with ``answer_with`` until the game asks ``wanted``."""
    for _ in range(limit):
        if key(game) == wanted:
            return
        value = answer_with(game)
        if isinstance(value, dict) and "seat" in value and "answer" in value:
            game.apply({"key": key(game), **value})
        else:
            answer(game, value)
    raise AssertionError(f"no {wanted!r} prompt within {limit} answers")
