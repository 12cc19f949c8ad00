"""Helpers for the original Horrified's rule tests: the pack's own rules on the shipped board,
positions to start from, and a driver that answers the questions a test names (item draws,
which only put tokens on the board, are answered with the first token unless a test names them).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

from companion.engine.effects import Effect, EffectSink
from companion.engine.game import Game
from companion.games.horrified.packrules import HorrifiedPackRules
from companion.games.horrified_core.context import GameContext
from companion.games.horrified_core.rules import HorrifiedRules


@lru_cache(maxsize=1)
def pack_rules() -> HorrifiedPackRules:
    """The pack's rules, built once for the whole test run (the shipped data is read once)."""
    return HorrifiedPackRules()


def hero(hero_id: str, at: str | None, *items: str, player: str | None = None, perks: Iterable[str] = ()) -> dict[str, Any]:
    return {"hero": hero_id, "player": player or hero_id.title(), "at": at, "items": list(items), "perks": list(perks)}


def position(monsters: dict[str, str | None], heroes: list[dict[str, Any]], **fields: object) -> dict[str, object]:
    return {"position": {"monsters": monsters, "heroes": heroes, **fields}}


def new_game(origin: dict[str, object], rules: HorrifiedRules | HorrifiedPackRules | None = None) -> Game:
    return (rules or pack_rules()).new_game(origin)


def context(game: Game) -> GameContext:
    return pack_rules().for_state(game.state).context(game.state, EffectSink())


def skip_items(game: Game) -> list[Effect]:
    """Answer every item draw asked now with the first token offered."""
    seen: list[Effect] = []
    while game.prompt is not None and game.prompt.key == "item":
        seen += game.apply({"key": "item", "answer": game.prompt.options[0].id}).effects
    return seen


def play(game: Game, *answers: tuple[str, object]) -> list[Effect]:
    """Answer in order (each must be the question asked, after any item draws), then any item draws
    asked next; every effect, in order."""
    seen: list[Effect] = []
    for key, answer in answers:
        if key != "item":
            seen += skip_items(game)
        assert game.prompt is not None, f"the game is over ({game.state.outcome}); {key!r} was to be answered"
        assert game.prompt.key == key, (game.prompt.key, game.prompt.text, key)
        seen += game.apply({"key": key, "answer": answer}).effects
    return seen + skip_items(game)


def act(game: Game, **action: object) -> list[Effect]:
    return play(game, ("hero-action", action))


def kinds(effects: Iterable[Effect]) -> list[str]:
    return [e.kind for e in effects]


def of_kind(effects: Iterable[Effect], kind: str) -> list[Effect]:
    return [e for e in effects if e.kind == kind]
