"""The SQLite journal store: folding, durability settings, several games,
archive, game files (export, import, refusal of broken ones) and storage
failures. Every test uses a real SQLite file under tmp_path."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Iterator

import pytest

from companion.games import pack_makers
from companion.store import BrokenJournal, JournalEntry, Store, StoreError, UnknownGame, fold, fold_journal
from companion.table import Tables, TableError
from service_process import SETUP, play_until, simple_answer


def entry(answer: object) -> JournalEntry:
    return JournalEntry("input", {"key": "k", "answer": answer})


def answers(items: list[object]) -> list[object]:
    return [item["answer"] for item in items]  # type: ignore[index]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "state" / "companion.sqlite") as opened:
        yield opened


# -- folding the journal ----------------------------------------------------------------------------


def test_fold_undo_redo_and_a_new_input_clears_redo() -> None:
    journal = [entry("a"), entry("b"), entry("c"), JournalEntry("undo", count=2)]
    live, redo = fold_journal(journal)
    assert answers(live) == ["a"] and answers(redo) == ["c", "b"]  # a stack: the next redo ("b") is last

    journal.append(JournalEntry("redo", count=1))
    live, redo = fold_journal(journal)
    assert answers(live) == ["a", "b"] and answers(redo) == ["c"]

    journal.append(entry("d"))
    live, redo = fold_journal(journal)
    assert answers(live) == ["a", "b", "d"] and redo == []


def test_fold_names_the_version_after_each_live_input() -> None:
    journal = [entry("a"), entry("b"), JournalEntry("undo", count=1), entry("c"),
               JournalEntry("undo", count=1), JournalEntry("redo", count=1)]
    folded = fold(journal)
    assert answers(folded.live) == ["a", "c"]
    assert folded.versions == [1, 6]  # "c" came back with the redo, the 6th entry


@pytest.mark.parametrize("journal, words", [
    ([entry("a"), JournalEntry("undo", count=2)], "entry 2 asks to undo 2 but there are only 1 inputs"),
    ([entry("a"), JournalEntry("redo", count=1)], "entry 2 asks to redo 1 but there are only 0 undone inputs"),
])
def test_fold_refuses_more_undo_or_redo_than_there_is(journal: list[JournalEntry], words: str) -> None:
    with pytest.raises(BrokenJournal, match=words):
        fold(journal)


# -- durability ----------------------------------------------------------------------------------


def test_the_connection_is_in_wal_mode_with_synchronous_full(store: Store) -> None:
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert store._db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_an_appended_entry_is_in_the_file_for_another_connection(store: Store) -> None:
    """Committed means visible to a fresh reader (what a restarted service is)."""
    game_id = store.create_game("ravenloft", "Friday", {"setup": {}})
    assert store.append(game_id, entry("a")) == 1
    with sqlite3.connect(store.path) as other:
        assert other.execute("SELECT COUNT(*) FROM journal WHERE game_id = ?", (game_id,)).fetchone()[0] == 1


# -- several games, archive ------------------------------------------------------------------------


def test_several_games_keep_their_own_journals_across_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite"
    with Store(path) as store:
        ids = [store.create_game("ravenloft", f"Game {n}", {"setup": {"n": n}}) for n in range(3)]
        for n, game_id in enumerate(ids):
            for k in range(n + 1):
                store.append(game_id, entry(f"{n}-{k}"))
    with Store(path) as store:
        assert {record.id for record in store.games()} == set(ids)
        for n, game_id in enumerate(ids):
            record = store.game(game_id)
            assert (record.name, record.origin, record.entries) == (f"Game {n}", {"setup": {"n": n}}, n + 1)
            assert [e.entry for e in store.journal(game_id)] == [{"key": "k", "answer": f"{n}-{k}"}
                                                                 for k in range(n + 1)]


def test_archive_hides_a_game_from_the_list_but_keeps_it(store: Store) -> None:
    kept, archived = (store.create_game("ravenloft", name, {"setup": {}}) for name in ("kept", "archived"))
    store.append(archived, entry("a"))
    store.set_status(archived, "archived")
    assert [r.id for r in store.games()] == [kept]
    assert {r.id for r in store.games(include_archived=True)} == {kept, archived}
    assert store.game(archived).status == "archived" and store.game(archived).entries == 1
    assert store.game(archived).summary()["status"] == "archived"


def test_an_unknown_game_is_named(store: Store) -> None:
    with pytest.raises(UnknownGame, match="no game with id 'nope'"):
        store.journal("nope")
    with pytest.raises(UnknownGame):
        store.set_status("nope", "archived")


def test_outcome_can_be_set_and_cleared(store: Store) -> None:
    game_id = store.create_game("ravenloft", "x", {"setup": {}})
    store.set_outcome(game_id, "lost: terror")
    assert store.game(game_id).outcome == "lost: terror"
    store.set_status(game_id, "archived")
    assert store.game(game_id).outcome == "lost: terror"
    store.set_outcome(game_id, None)
    assert store.game(game_id).outcome is None


# -- game files ------------------------------------------------------------------------------------


def played_tables(state_dir: Path) -> tuple[Tables, str]:
    """A real game a little way in, with an undo and a redo in its journal."""
    tables = Tables(Store(state_dir / "companion.sqlite"), pack_makers(""))
    game_id = tables.create("ravenloft", "Round trip", SETUP)
    table = tables.get(game_id)
    play_until(table, "hero-action")
    table.act({"answer": {"action": "end"}}, table.version)
    table.undo(3, table.version)
    table.redo(2, table.version)
    return tables, game_id


def comparable(view: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in view.items() if k != "game_id"}


def test_export_then_import_into_a_fresh_state_dir_gives_the_same_game(tmp_path: Path) -> None:
    tables, game_id = played_tables(tmp_path / "a")
    exported = tables.store.export_game(game_id)
    before = tables.get(game_id).view()
    tables.store.close()

    text = json.dumps(exported)  # through JSON, as a download would
    fresh = Tables(Store(tmp_path / "b" / "companion.sqlite"), pack_makers(""))
    imported = fresh.import_game(json.loads(text))
    after = fresh.get(imported).view()
    assert comparable(after) == comparable(before)
    assert after["version"] == len(exported["journal"])  # type: ignore[arg-type]
    assert fresh.store.export_game(imported) == exported
    fresh.store.close()


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A good game file, played once for all the tests that spoil it."""
    tables, game_id = played_tables(tmp_path_factory.mktemp("source"))
    exported = tables.store.export_game(game_id)
    tables.store.close()
    return exported


def broken(data: dict[str, object], **changes: object) -> dict[str, object]:
    return {**json.loads(json.dumps(data)), **changes}


BROKEN_FILES = {
    "not a game file": lambda good: {"format": "something-else", "journal": []},
    "not an object": lambda good: ["format", "companion-game"],
    "a newer file version": lambda good: broken(good, version=2),
    "no journal": lambda good: broken(good, journal="none"),
    "an unknown journal kind": lambda good: broken(good, journal=[*good["journal"], {"kind": "rewind", "count": 1}]),
    "an input without an answer": lambda good: broken(good, journal=[{"kind": "input", "entry": {"key": "perk"}}]),
    "an input that does not replay": lambda good: broken(
        good, journal=[{"kind": "input", "entry": {"key": "perk", "answer": "no-such-perk"}}]),
    "an undo larger than the inputs": lambda good: broken(
        good, journal=[*good["journal"][:2], {"kind": "undo", "count": 3}]),
    "a redo with nothing undone": lambda good: broken(good, journal=[{"kind": "redo", "count": 1}]),
    "an undo count of zero": lambda good: broken(good, journal=[{"kind": "undo", "count": 0}]),
    "an unknown game kind": lambda good: broken(good, game="monopoly"),
    "a setup that cannot start": lambda good: broken(good, origin={"setup": {"monsters": ["nobody"], "heroes": []}}),
    "an origin of the wrong shape": lambda good: broken(good, origin={"setup": 5}),
}

MESSAGES = {
    "not a game file": "not a game file",
    "not an object": "not a game file",
    "a newer file version": "game file version 2",
    "no journal": "'journal' list",
    "an unknown journal kind": "journal entry 17 must be an object with \"kind\" input, undo or redo, not 'rewind'",
    "an input without an answer": "journal entry 1 is an input without",
    "an input that does not replay": "does not replay: .*no-such-perk",
    "an undo larger than the inputs": "does not replay: journal entry 3 asks to undo 3 but there are only 2 inputs",
    "a redo with nothing undone": "does not replay: journal entry 1 asks to redo 1",
    "an undo count of zero": "journal entry 1 is an undo whose count is not a whole number of at least 1",
    "an unknown game kind": "does not know the game 'monopoly'",
    "a setup that cannot start": "does not replay",
    "an origin of the wrong shape": "does not replay",
}


@pytest.mark.parametrize("case", sorted(BROKEN_FILES))
def test_a_broken_game_file_is_refused_clearly_and_nothing_is_kept(tmp_path: Path, case: str,
                                                                   good: dict[str, object]) -> None:
    data = BROKEN_FILES[case](good)
    tables = Tables(Store(tmp_path / "target" / "companion.sqlite"), pack_makers(""))
    with pytest.raises(TableError, match=MESSAGES[case]) as refused:
        tables.import_game(data)
    assert refused.value.code == "bad-request"
    assert tables.store.games(include_archived=True) == []
    assert tables.store._db.execute("SELECT COUNT(*) FROM journal").fetchone()[0] == 0
    tables.store.close()


def test_the_good_file_itself_imports(tmp_path: Path, good: dict[str, object]) -> None:
    """The broken files above are this one spoiled; it has 16 entries (so the
    unknown kind appended to it is entry 17)."""
    data = good
    assert len(data["journal"]) == 16  # type: ignore[arg-type]
    tables = Tables(Store(tmp_path / "target" / "companion.sqlite"), pack_makers(""))
    assert tables.store.export_game(tables.import_game(data))["journal"] == data["journal"]
    tables.store.close()


# -- storage failures ------------------------------------------------------------------------------


def test_a_closed_store_refuses_reads_and_writes_with_store_error(store: Store) -> None:
    game_id = store.create_game("ravenloft", "x", {"setup": {}})
    store.close()
    store.close()  # twice is fine
    with pytest.raises(StoreError, match="closed"):
        store.append(game_id, entry("a"))
    with pytest.raises(StoreError, match="closed"):
        store.games()


def test_a_refused_write_is_a_store_error_and_releases_the_lock(store: Store) -> None:
    """A read-only database fails at BEGIN: the lock must still be released, or
    every other thread would hang on its next write."""
    game_id = store.create_game("ravenloft", "x", {"setup": {}})
    store._db.execute("PRAGMA query_only = ON")
    with pytest.raises(StoreError, match="could not write"):
        store.append(game_id, entry("a"))
    store._db.execute("PRAGMA query_only = OFF")

    done: list[int] = []
    writer = threading.Thread(target=lambda: done.append(store.append(game_id, entry("b"))))
    writer.start()
    writer.join(timeout=5)
    assert done == [1], "another thread could not write after the failure"
    assert [e.entry for e in store.journal(game_id)] == [{"key": "k", "answer": "b"}]


def test_an_import_that_fails_half_way_keeps_nothing(store: Store, good: dict[str, object]) -> None:
    data = good
    store._db.execute("CREATE TRIGGER no_third BEFORE INSERT ON journal WHEN NEW.n = 2 "
                      "BEGIN SELECT RAISE(ABORT, 'disk trouble'); END")
    with pytest.raises(StoreError, match="disk trouble"):
        store.import_game(data)
    assert store.games(include_archived=True) == []


def test_a_store_that_cannot_open_says_where(tmp_path: Path) -> None:
    (tmp_path / "companion.sqlite").write_text("this is not a database " * 100)
    with pytest.raises(StoreError, match="companion.sqlite"):
        Store(tmp_path / "companion.sqlite")


def test_simple_answer_gives_legal_shapes() -> None:
    """The helper the service tests share must answer every prompt kind legally."""
    assert simple_answer({"kind": "pick", "options": [{"id": "a"}, {"id": "b"}], "min_picks": 1}) == ["a"]
    assert simple_answer({"kind": "roll", "die": "monster", "count": 2}) == ["blank", "blank"]
    assert simple_answer({"kind": "roll", "die": "d20", "count": 1}) == [10]
