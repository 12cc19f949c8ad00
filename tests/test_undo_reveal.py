"""Revealed means final: going back past a reveal (sealed bids, plans shown to everyone) needs the
agreement of every seat whose secret it showed (docs/engine.md, "Who answers")."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.straszydla.gamepack import StraszydlaPack
from companion.store import Store
from companion.table import Table, TableError, Tables
from test_who_answers import right_entry, table_of
from toy_pack import ToyPack


def words(tmp_path: Path) -> Table:
    tables = Tables(Store(tmp_path / "companion.sqlite"), {"secret-words": ToyPack})
    table = tables.get(tables.create("secret-words", "Words", {}))
    for seat, word in (("north", "owl"), ("south", "heron")):
        table.act({"key": "secret-word", "answer": {"action": "write", "word": word}}, table.version, seat)
    return table


def test_going_back_past_a_reveal_waits_for_each_seat_that_wrote_in_secret(tmp_path: Path) -> None:
    table = words(tmp_path)
    version = table.version
    with pytest.raises(TableError, match="agreement of north, south") as asked:
        table.undo(1, version, None)  # the shared screen asks: it is nobody's secret to give back
    assert asked.value.code == "needs-consent" and table.version == version
    with pytest.raises(TableError, match="agreement of south"):
        table.undo(1, version, "north")
    assert table.view("south")["undo_request"] == {"count": 1, "version": version, "agreed": ["north"],
                                                   "waiting": ["south"]}
    table.undo(1, version, "south")
    assert table.version == version + 1 and table.game.state.revealed == {}  # type: ignore[attr-defined]
    assert table.view(None)["undo_request"] is None


def test_a_request_to_go_back_lapses_when_the_game_moves_on(tmp_path: Path) -> None:
    table = words(tmp_path)
    with pytest.raises(TableError):
        table.undo(1, table.version, "north")
    table.act({"key": "secret-word", "answer": {"action": "write", "word": "lark"}}, table.version, "north")
    assert table.view(None)["undo_request"] is None
    with pytest.raises(TableError, match="agreement of north \\("):
        table.undo(2, table.version, "south")  # north's earlier agreement lapsed with the game's change
    table.undo(2, table.version, "north")


def test_a_step_before_the_reveal_or_after_it_goes_back_freely(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "companion.sqlite"), {"secret-words": ToyPack})
    table = tables.get(tables.create("secret-words", "Words", {}))
    table.act({"key": "secret-word", "answer": {"action": "write", "word": "owl"}}, table.version, "north")
    table.undo(1, table.version)  # North's own word, never shown: taken back without asking
    words_table = words(tmp_path / "second")
    words_table.act({"key": "secret-word", "answer": {"action": "write", "word": "kite"}}, words_table.version,
                    "north")
    words_table.undo(1, words_table.version)  # after the reveal: round two's word, not yet shown


def test_straszydla_bids_and_plans_once_revealed_are_not_taken_back_by_one_phone(tmp_path: Path) -> None:
    """Played by the pack's random players until its first reveal (every plan shown)."""
    table, pack = table_of(tmp_path, "straszydla", [], 5)
    assert isinstance(pack, StraszydlaPack)
    policy = pack.cli().policy("random", 5)
    while not any(e.reveals for e in table.last_effects):
        entry = right_entry(table, pack, policy)
        table.act({k: v for k, v in entry.items() if k != "seat"}, table.version, str(entry.get("seat") or
                  (table.game.prompt.answered_by() or ("p1",))[0]))  # type: ignore[union-attr]
    revealed = [e for e in table.last_effects if e.reveals]
    assert revealed[0].kind == "plans-revealed"
    with pytest.raises(TableError, match="needs the agreement of p1, p3 "):
        table.undo(1, table.version, "p2")  # p2 asked: the other two planned in secret too
