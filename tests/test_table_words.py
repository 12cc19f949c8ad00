"""The words a table reads, from the service: each saved game with its players, a seat by its
name (never its id) in a refusal, a Perk card drawn at setup asked of the player who draws it,
and Straszydła's counts and articles ("1 die", "1 horror cube", "an Ogień imp")."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.straszydla.packdata import load_pack
from companion.table import TableError, Tables
from companion.table.seats import Claimant
from service_process import simple_answer

TWO = {"monsters": ["baba-lysaga"], "heroes": [{"hero": "sorcerer", "player": "Sam"}, {"hero": "druid", "player": "Beau"}]}


def test_every_saved_game_is_listed_with_its_players(tables: Tables) -> None:
    game_id = tables.create("ravenloft", "Friday", TWO)
    listed = {g["game_id"]: g for g in tables.summaries()}
    assert listed[game_id]["players"] == ["Sam (Sorcerer)", "Beau (Druid)"]
    tables.get(game_id)  # opened or not, the same names
    assert {g["game_id"]: g for g in tables.summaries()}[game_id]["players"] == ["Sam (Sorcerer)", "Beau (Druid)"]


def test_a_perk_card_drawn_at_setup_is_asked_of_its_own_player(tables: Tables) -> None:
    table = tables.get(tables.create("ravenloft", "Friday", TWO))
    asked: dict[str, Any] = {}
    for _ in range(30):
        prompt = table.view()["prompt"]
        if prompt["key"] == "perk":
            asked.setdefault(prompt["text"].split(" draws")[0], prompt["player"])
        if len(asked) == 2 or prompt["key"] == "hero-action":
            break
        table.act({"answer": simple_answer(prompt)}, table.version)
    assert asked == {"Sam": "sorcerer", "Beau": "druid"}, asked


def test_a_refused_seat_is_named_as_the_table_calls_it(tables: Tables) -> None:
    table = tables.get(tables.create("ravenloft", "Friday", TWO))
    table.claim_seat("druid", Claimant("phone-1"))
    with pytest.raises(TableError) as taken:
        table.claim_seat("druid", Claimant("phone-2"))
    assert "“Beau (Druid)”" in str(taken.value) and "'druid'" not in str(taken.value)


def test_counts_and_articles_read_as_spoken() -> None:
    from companion.games.straszydla.context import a_or_an, dice_words, horror_words

    assert [dice_words(n) for n in (1, 3)] == ["1 die", "3 dice"]
    assert [horror_words(n) for n in (1, 4)] == ["1 horror cube", "4 horror cubes"]
    pack = load_pack()
    assert a_or_an(pack.element("fire").name) == "an Ogień" and a_or_an(pack.element("water").name) == "a Woda"
