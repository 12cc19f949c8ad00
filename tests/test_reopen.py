"""A game reopened after a restart (a new ``Table`` over the same SQLite file) goes on from the
snapshots its reopen cache keeps (companion/table/reopen.py), and is the very game a replay of
its whole journal gives: state, question, version, history and effects as each seat sees them,
redo stack, put-back list, tabletops. A cache that is missing, damaged, unreadable or made by
other code is passed over (the log says why) and the game opens exactly as before."""

from __future__ import annotations

import hashlib
import json
import logging
import pickle
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.engine.errors import GameOver
from companion.engine.game import Game, Resumable
from companion.engine.plain import to_plain
from companion.games.gamepack import GamePack
from companion.games.registry import BUILT_IN, pack_makers
from companion.store import Store
from companion.table import Table, TableError, Tables
from companion.table.table import TABLETOPS_KEPT
from test_tabletop_contract import new_game

FALLBACK = "opens by replaying its whole journal"


def answering_seat(table: Table, entry: dict[str, Any]) -> str | None:
    """The seat whose device gives ``entry`` (None: the shared screen, for a question anyone answers)."""
    if "anytime" in entry:
        return table.kind.anytime_by(table.game, entry["anytime"])
    if "seat" in entry:
        return str(entry["seat"])
    prompt = table.game.prompt
    answerers = prompt.answered_by() if prompt is not None else None
    return answerers[0] if answerers and prompt is not None and prompt.audience is not None else None


def undo(table: Table, count: int) -> None:
    """Undo ``count``, each seat agreeing when it takes back a reveal."""
    try:
        table.undo(count, table.version)
    except TableError as refused:
        assert refused.code == "needs-consent", str(refused)
        assert table.undo_request is not None
        for seat in sorted(table.undo_request.needed):
            try:
                table.undo(count, table.version, seat)
            except TableError as still:
                assert still.code == "needs-consent", str(still)


def play_randomly(table: Table, pack: GamePack, seed: int, moves: int) -> None:
    """Random inputs (the pack's random player), with undos and redos among them."""
    rng, cli = random.Random(seed), pack.cli()
    policy = cli.policy("random", seed)
    for _ in range(moves):
        roll = rng.random()
        if roll < 0.12 and table.game.inputs:
            undo(table, rng.randint(1, min(20 if rng.random() < 0.2 else 4, len(table.game.inputs))))
        elif roll < 0.2 and table.redo_stack:
            table.redo(rng.randint(1, len(table.redo_stack)), table.version)
        elif not table.game.over:
            shadow = Game(pack.rules, table.origin, table.game.inputs, snapshots=table.game.snapshots)
            try:
                cli.step(shadow, policy)
            except GameOver:
                continue
            entry = dict(shadow.inputs[-1])
            table.act(entry, table.version, answering_seat(table, entry))


def seen(table: Table) -> dict[str, Any]:
    """Everything of a table a player or the box can tell, and the record behind it."""
    seats: list[str | None] = [None, *table.seats()]
    tops = table.tabletops
    found = {
        "views": {str(seat): table.view(seat) for seat in seats}, "box": table.box_view(),
        "state": to_plain(table.game.state), "prompt": to_plain(table.game.prompt), "inputs": table.game.inputs,
        "version": table.version, "redo": list(table.redo_stack),
        "put_back": None if table.put_back is None else [c.to_plain() for c in table.put_back],
        "labels": table.labels, "effects": table.step_effects, "last_effects": table.last_effects,
        "tabletops": {n: to_plain(tops[n]) for n in {0, *range(max(0, len(tops) - TABLETOPS_KEPT), len(tops))}},
        "moves": [table._moves(i) for i in range(len(table.labels))],
    }
    return json.loads(json.dumps(found, default=repr))


def reopened(store: Store, pack: GamePack, game_id: str) -> Table:
    return Table(store, pack, game_id)


def fallbacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    found = [r.getMessage() for r in caplog.records if FALLBACK in r.getMessage()]
    caplog.clear()
    return found


#: Every pack with two seeds, and a mixed game (this box's monsters on another box's board: other rules).
CASES = [*((pack_id, (), seed) for pack_id in BUILT_IN for seed in (3, 11)),
         ("horrified", ("--board", "ravenloft", "--monsters", "dracula,carrionette"), 5)]


@pytest.mark.parametrize(("pack_id", "options", "seed"), CASES)
def test_a_reopened_game_is_the_replayed_game(tmp_path: Path, pack_id: str, options: tuple[str, ...], seed: int,
                                              caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "companion.table.table")
    store = Store(tmp_path / "companion.sqlite")
    tables = Tables(store, pack_makers(""))
    pack = tables.kind(pack_id)
    game_id = tables.create(pack_id, "Reopened", new_game(pack, options).origin["setup"])  # type: ignore[arg-type]
    live = tables.get(game_id)
    resumes, from_snapshots = isinstance(pack.rules, Resumable), 0
    for round_ in range(3):
        play_randomly(live, pack, seed * 10 + round_, 45)
        if round_ == 1 and len(live.game.inputs) >= 2:  # a restart just after an undo: its put-back list
            undo(live, 2)
            assert live.put_back is not None
        caplog.clear()
        again = reopened(store, pack, game_id)
        if any(s.played > 0 for s in live.game.snapshots):
            assert fallbacks(caplog) == [], "the reopen cache written as the game was played is used"
            from_snapshots += 1
        store.save_cache(game_id, [], replace=True)  # no cache: the whole journal replayed
        replayed = reopened(store, pack, game_id)
        assert bool(fallbacks(caplog)) == (resumes and bool(live.game.inputs))
        assert bool(store.cache(game_id)) == (resumes and bool(live.game.inputs)), "the cache is made again"
        expected = seen(live)
        assert seen(again) == expected
        assert seen(replayed) == expected
        live = again  # the reopened table plays on (one table writes a game): the next round checks it
    assert bool(from_snapshots) == resumes, "games of rules that resume reopen from their snapshots"
    assert {"input", "undo", "redo"} <= {entry.kind for entry in live.journal}
    store.close()


def played_table(tmp_path: Path) -> tuple[Store, Tables, Table]:
    store = Store(tmp_path / "companion.sqlite")
    tables = Tables(store, pack_makers(""))
    pack = tables.kind("ravenloft")
    setup = new_game(pack).origin["setup"]
    table = tables.get(tables.create("ravenloft", "Damaged cache", setup))  # type: ignore[arg-type]
    play_randomly(table, pack, 7, 110)
    assert len(table.game.snapshots) >= 2
    return store, tables, table


def damage(path: Path, sql: str) -> int:
    db = sqlite3.connect(path)
    try:
        with db:
            return db.execute(sql).rowcount
    finally:
        db.close()


LAST_SNAPSHOT = "{last}"  # the snapshot the game goes on from
NOT_A_GAME = pickle.dumps(("not", "a game"))  # loads, but no game goes on from it
GARBAGE = hashlib.sha256(bytes([0, 255])).hexdigest()  # the checksum of x'00ff': right, for a body that does not load
DAMAGES = {
    "missing": ("DELETE FROM reopen_cache", "no reopen cache is saved"),
    "truncated": (f"UPDATE reopen_cache SET body = substr(body, 1, 20) WHERE kind = 'snapshot' AND n = {LAST_SNAPSHOT}",
                  "is damaged"),
    "unreadable": (f"UPDATE reopen_cache SET body = x'00ff', digest = '{GARBAGE}' "
                   f"WHERE kind = 'snapshot' AND n = {LAST_SNAPSHOT}", "does not load"),
    "unreadable step": (f"UPDATE reopen_cache SET body = x'00ff', digest = '{GARBAGE}' WHERE kind = 'step' AND n = 3",
                        "does not load"),
    "not a game": (f"UPDATE reopen_cache SET body = x'{NOT_A_GAME.hex()}', digest = "
                   f"'{hashlib.sha256(NOT_A_GAME).hexdigest()}' WHERE kind = 'snapshot' AND n = {LAST_SNAPSHOT}",
                   "going on from its reopen cache failed"),
    "foreign": ("UPDATE reopen_cache SET stamp = 'other code'", "made by other code"),
    "another branch": ("UPDATE reopen_cache SET prefix = 'another game'", "no snapshot"),
}


@pytest.mark.parametrize("kind", list(DAMAGES))
def test_a_damaged_cache_opens_the_game_exactly_as_before(tmp_path: Path, kind: str,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "companion.table.table")
    store, tables, table = played_table(tmp_path)
    expected = seen(table)
    sql, why = DAMAGES[kind]
    assert damage(store.path, sql.replace(LAST_SNAPSHOT, str(table.game.snapshots[-1].played))) > 0
    caplog.clear()
    again = reopened(store, table.kind, table.game_id)
    said = fallbacks(caplog)
    assert len(said) == 1 and why in said[0], said
    assert seen(again) == expected
    assert not any(bytes.hex(r.body)[:16] in " ".join(said) for r in store.cache(table.game_id)), "no row in the log"
    once_more = reopened(store, table.kind, table.game_id)  # the cache was made again from the journal
    assert fallbacks(caplog) == []
    assert seen(once_more) == expected
    store.close()


def test_the_cache_leaves_the_box_in_no_export_nor_backup(tmp_path: Path) -> None:
    """The cache holds what the game hides: the game file (export, backup) is the journal alone,
    and a game imported from one has no cache until it is opened here."""
    store, tables, table = played_table(tmp_path)
    bodies = [row.body for row in store.cache(table.game_id)]
    assert bodies
    exported = store.export_game(table.game_id)
    assert set(exported) == {"format", "version", "game", "name", "origin", "journal"}
    text = json.dumps(exported).encode()
    assert not any(body[:32] in text or body[:32].hex().encode() in text for body in bodies)
    imported = tables.import_game(exported)
    assert store.cache(imported) == []
    assert seen(tables.get(imported))["views"] == {k: {**v, "game_id": imported}
                                                   for k, v in seen(table)["views"].items()}
    store.close()


def test_a_file_from_before_the_cache_gets_it_and_a_read_only_one_replays(tmp_path: Path,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    """A database made before the reopen cache (no table for it): opened for writing it gets the
    table, each game replays whole once and is cached; opened read-only its games replay, as before."""
    caplog.set_level(logging.INFO, "companion.table.table")
    store, _, table = played_table(tmp_path)
    expected, game_id, pack = seen(table), table.game_id, table.kind
    store.close()
    assert damage(tmp_path / "companion.sqlite", "DROP TABLE reopen_cache") == -1
    caplog.clear()

    read_only = Store(tmp_path / "companion.sqlite", read_only="the card is read-only")
    assert seen(reopened(read_only, pack, game_id)) == expected
    assert any("could not save the reopen cache" in r.getMessage() for r in caplog.records)
    read_only.close()

    store = Store(tmp_path / "companion.sqlite")
    caplog.clear()
    assert seen(reopened(store, pack, game_id)) == expected
    assert any("no reopen cache is saved" in said for said in fallbacks(caplog))
    assert seen(reopened(store, pack, game_id)) == expected
    assert fallbacks(caplog) == []
    store.close()


def test_the_code_stamp_covers_a_pack_from_outside_the_package() -> None:
    """A pack added from outside the tree (``COMPANION_EXTRA_PACKS``) pickles its own classes into the
    cache: its folder is in the stamp, so a change of it makes its games' caches foreign."""
    from companion.table import reopen
    from toy_pack import ToyPack

    shipped = pack_makers("")["ravenloft"]()
    assert reopen.code_stamp(shipped, shipped.rules) == reopen.code_stamp()
    outside = ToyPack()
    assert reopen.code_stamp(outside, outside.rules) != reopen.code_stamp()
