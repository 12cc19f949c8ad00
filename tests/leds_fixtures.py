"""Shared pieces for the LED tests: the shipped board and layout, Monster cards
whose attack lines we choose (as in test_monster_phase.py), a game kind for a
real Table, and small readers of frames."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

import pytest

from companion.engine.game import Game
from companion.engine.plain import to_plain
from companion.games.ravenloft.gamepack import RavenloftPack
from companion.games.ravenloft.leds import RavenloftLeds
from companion.games.ravenloft.pack_types import AttackLine, Effect, MonsterCard
from companion.games.ravenloft.rules import RavenloftRules
from companion.store import Store
from companion.table import Table
from hardware.leds.board import BoardShape
from hardware.leds.layout import Layout, shipped_layout
from hardware.leds.looks import Looks
from hardware.leds.strip import Colour, pixel

BASE = RavenloftRules()


def card(card_id: str, symbols: tuple[str, ...], move: int = 1, dice: int = 1) -> MonsterCard:
    return MonsterCard(card_id, card_id.replace("-", " ").title(), 0, Effect("none"), AttackLine(symbols, move, dice))


RULES = RavenloftRules(replace(BASE.pack, cards=BASE.pack.cards + (
    card("potion-2-2", ("potion",), 2, 2),
    card("potion-3-1", ("potion",), 3, 1),
    card("wand-2-1", ("wand",), 2, 1),
)))
SHAPE: BoardShape = RavenloftLeds().shape()
LOOKS: Looks = RavenloftLeds().looks()
TERROR_MAX = SHAPE.steps("terror") - 1
LAYOUT: Layout = shipped_layout(SHAPE)
SAM = {"hero": "sorcerer", "player": "Sam"}


def game_at(**position: Any) -> Game:
    return RULES.new_game({"position": {"phase": "monster", **position}})


def answer(game: Game, key: str, value: object) -> list[dict[str, object]]:
    """Answer the prompt (which must be ``key``); the change's effects as plain dicts."""
    assert game.prompt is not None and game.prompt.key == key, game.prompt
    return [effect.to_plain() for effect in game.apply({"key": key, "answer": value}).effects]


def state_of(game: Game) -> dict[str, object]:
    plain = to_plain(game.state)
    assert isinstance(plain, dict)
    return plain


def looks_like(colour: Colour, wanted: Colour, tolerance: int = 3) -> bool:
    """Lit, and a dimmed copy of ``wanted`` (same hue), within rounding."""
    if max(colour) == 0:
        return False
    top = max(range(3), key=lambda c: wanted[c])
    level = colour[top] / wanted[top]
    return all(abs(colour[c] - wanted[c] * level) <= tolerance for c in range(3))


def lit(frame: bytes, index: int) -> bool:
    return pixel(frame, index) != (0, 0, 0)


TableMaker = Callable[[Mapping[str, object]], Table]


@pytest.fixture
def table_at(tmp_path: Path) -> Iterator[TableMaker]:
    """Real Tables (SQLite in tmp_path) at Monster-Phase positions; closed afterwards."""
    stores: list[Store] = []

    def make(position: Mapping[str, object]) -> Table:
        stores.append(Store(tmp_path / f"game-{len(stores)}.sqlite"))
        game_id = stores[-1].create_game("ravenloft", "LED test", {"position": {"phase": "monster", **position}})
        return Table(stores[-1], RavenloftPack(RULES), game_id)  # the shipped pack with the test cards

    yield make
    for store in stores:
        store.close()
