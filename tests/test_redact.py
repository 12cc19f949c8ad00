"""A game file for a player (companion/table/redact.py), on the toy pack's secret words and a real
store: the answers given in secret are left out while the game is in play (undone ones too),
two games alike but for a secret give the same file, such a file is refused on import with the
reason; a finished game's file is redacted too (the rules never reveal some secrets, a loser's
pact), and a game without secrets is whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games.ravenloft.gamepack import RavenloftPack
from companion.store import Store
from companion.table import Table, TableError, Tables
from companion.table.redact import for_players
from service_process import SETUP
from toy_pack import ToyPack


@pytest.fixture
def tables(tmp_path: Path) -> Tables:
    return Tables(Store(tmp_path / "companion.sqlite"), {"secret-words": ToyPack, "ravenloft": RavenloftPack})


def write(table: Table, seat: str, word: str) -> None:
    table.act({"key": "secret-word", "answer": {"action": "write", "word": word}}, table.version, seat)


def toy(tables: Tables, north: str) -> Table:
    """North writes a word and takes it back, then writes ``north``, takes it back and gives it
    again (a redo); South has not written: the game is in play, nothing revealed."""
    table = tables.get(tables.create("secret-words", "Words", {}))
    write(table, "north", north[::-1])
    table.undo(1, table.version)
    write(table, "north", north)
    table.undo(1, table.version)
    table.redo(1, table.version)
    return table


def player_file(tables: Tables, table: Table) -> dict[str, object]:
    return for_players(table.kind, tables.store.export_game(table.game_id))


def test_a_players_file_leaves_out_every_answer_given_in_secret_undone_ones_too(tables: Tables) -> None:
    one, other = toy(tables, "lantern"), toy(tables, "gallows")
    files = player_file(tables, one), player_file(tables, other)
    assert json.dumps(files[0]) == json.dumps(files[1])  # alike but for the secret: the same file, byte for byte
    assert files[0]["redacted"]["answers_left_out"] == 2  # type: ignore[index]
    assert "lantern" not in json.dumps(files[0]) and "nretnal" not in json.dumps(files[0])
    whole = tables.store.export_game(one.game_id)
    assert "lantern" in json.dumps(whole) and "nretnal" in json.dumps(whole) and "redacted" not in whole
    with pytest.raises(TableError) as refused:
        tables.import_game(files[0])
    assert refused.value.code == "bad-request" and "left out" in str(refused.value)


def test_a_finished_games_file_stays_redacted_and_a_game_without_secrets_is_whole(tables: Tables) -> None:
    table = tables.get(tables.create("secret-words", "Words", {}))
    for north, south in (("longer", "a"), ("longest", "b")):
        write(table, "north", north)
        write(table, "south", south)
    assert table.view()["outcome"] == "North wins"
    finished = player_file(tables, table)
    assert "redacted" in finished and "longest" not in json.dumps(finished)
    assert "longest" in json.dumps(tables.store.export_game(table.game_id))  # the owner's file is whole
    ravenloft = tables.get(tables.create("ravenloft", "Friday", SETUP))
    view = ravenloft.view()
    ravenloft.act({"key": view["prompt"]["key"], "answer": view["prompt"]["options"][0]["id"]}, view["version"])
    assert player_file(tables, ravenloft) == tables.store.export_game(ravenloft.game_id)
