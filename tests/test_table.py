"""Table: the one writer of a game. Refusals (stale, illegal, game over,
storage) change nothing, in memory or on disk; undo and redo move through the
journal; the history reads as plain words. A real SQLite file in tmp_path."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.engine.plain import to_plain
from companion.games import pack_makers
from companion.store import Store
from companion.table import Table, Tables, TableError
from service_process import SETUP, play_until, simple_answer


@pytest.fixture
def table(tables: Tables) -> Table:
    return tables.get(tables.create("ravenloft", "Friday night", SETUP))


def snapshot(table: Table) -> dict[str, Any]:
    """Everything a refusal must leave alone: the view, the engine's inputs and the file."""
    return {"view": json.loads(json.dumps(table.view())), "inputs": list(table.game.inputs),
            "state": to_plain(table.game.state), "stored": table.store.export_game(table.game_id)}


def act_simply(table: Table) -> dict[str, object]:
    prompt = table.view()["prompt"]
    assert isinstance(prompt, dict)
    return table.act({"key": prompt["key"], "answer": simple_answer(prompt)}, table.version)


def refused(code: str, call: Any, *args: Any) -> TableError:
    with pytest.raises(TableError) as caught:
        call(*args)
    assert caught.value.code == code, str(caught.value)
    assert str(caught.value)
    return caught.value


# -- refusals change nothing -----------------------------------------------------------------------


def test_a_stale_version_is_refused(table: Table) -> None:
    act_simply(table)
    before = snapshot(table)
    problem = refused("stale", table.act, {"answer": "bildraths-mercantile"}, 0)
    assert "version 0" in str(problem) and "version 1" in str(problem)
    refused("stale", table.undo, 1, 5)
    refused("stale", table.redo, 1, 0)
    assert snapshot(table) == before


@pytest.mark.parametrize("entry", [
    {"answer": "no-such-item"},
    {"answer": ["amulet"]},
    {"answer": {"action": "end"}},
    {"key": "monster-card", "answer": "ambush"},
    {"key": "item"},
])
def test_an_illegal_answer_is_refused_and_nothing_is_stored(table: Table, entry: dict[str, object]) -> None:
    act_simply(table)  # now asking for the first setup item
    before = snapshot(table)
    refused("illegal", table.act, entry, table.version)
    assert snapshot(table) == before


def test_undo_or_redo_of_more_than_there_is_is_refused(table: Table) -> None:
    act_simply(table)
    before = snapshot(table)
    assert "cannot undo 2" in str(refused("illegal", table.undo, 2, table.version))
    assert "cannot redo 1" in str(refused("illegal", table.redo, 1, table.version))
    assert snapshot(table) == before


def finished_game(tables: Tables) -> Table:
    """Terror one below the end, the hero on Baba Lysaga's space: Ambush! with two hits ends it."""
    position = {"phase": "monster", "terror": 6, "monsters": {"baba-lysaga": "krezk"},
                "heroes": [{"hero": "sorcerer", "player": "Sam", "at": "krezk"}]}
    table = tables.get(tables.store.create_game("ravenloft", "Last stand", {"position": position}))
    answers = {"monster-card": "ambush", "monster-dice": ["hit", "hit"], "defend": "fall"}
    while table.view()["prompt"] is not None:
        prompt = table.view()["prompt"]
        assert isinstance(prompt, dict)
        table.act({"answer": answers.get(prompt["key"], simple_answer(prompt))}, table.version)
    return table


def test_a_finished_game_refuses_input_with_game_over_and_undo_reopens_it(tables: Tables) -> None:
    table = finished_game(tables)
    view = table.view()
    assert view["outcome"] == "lost: terror"
    assert tables.store.game(table.game_id).outcome == "lost: terror"
    before = snapshot(table)
    assert "over" in str(refused("game-over", table.act, {"answer": "fall"}, table.version))
    assert snapshot(table) == before

    table.undo(1, table.version)
    assert table.view()["outcome"] is None and table.view()["prompt"] is not None
    assert tables.store.game(table.game_id).outcome is None


def test_tablets_racing_on_one_version_one_wins_and_the_rest_are_stale(table: Table) -> None:
    prompt = table.view()["prompt"]
    assert isinstance(prompt, dict)
    start = threading.Barrier(8)
    results: list[str] = []

    def tablet() -> None:
        start.wait(timeout=10)
        try:
            table.act({"answer": simple_answer(prompt)}, 0)
            results.append("ok")
        except TableError as problem:
            results.append(problem.code)

    threads = [threading.Thread(target=tablet) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert sorted(results) == ["ok"] + ["stale"] * 7
    assert table.version == 1 and table.store.game(table.game_id).entries == 1


# -- undo, redo, history ---------------------------------------------------------------------------


def test_undo_several_steps_then_redo(table: Table) -> None:
    states = [to_plain(table.game.state)]
    for _ in range(5):
        act_simply(table)
        states.append(to_plain(table.game.state))
    view = table.undo(3, table.version)
    assert to_plain(table.game.state) == states[2]
    assert view["version"] == 6 and view["can_redo"] is True and view["can_undo"] is True
    view = table.redo(2, table.version)
    assert to_plain(table.game.state) == states[4]
    view = table.redo(1, table.version)
    assert to_plain(table.game.state) == states[5] and view["can_redo"] is False
    assert view["version"] == 8  # 5 inputs, an undo, two redos: every entry counts
    assert view == Table(table.store, table.kind, table.game_id).view()  # redo forward = replay from the file

    table.undo(2, table.version)
    act_simply(table)  # a new input forgets what was undone
    assert table.view()["can_redo"] is False
    refused("illegal", table.redo, 1, table.version)


def test_a_peek_shows_what_an_undo_would_leave_and_changes_nothing(table: Table) -> None:
    """The tablet lists the pieces to put back before a multi-step undo: the public state that
    many steps back, exactly what the undo then gives; the redo count lets it redo them all."""
    for _ in range(5):
        act_simply(table)
    before = snapshot(table)
    peeked = table.peek(3, table.version)
    assert snapshot(table) == before, "a peek changed the game"
    assert peeked["version"] == 2
    view = table.undo(3, table.version)
    assert peeked["state"] == view["state"]
    assert view["last_change"] == "undo" and view["redo_count"] == 3
    view = table.redo(3, table.version)
    assert view["last_change"] == "redo" and view["redo_count"] == 0
    assert view["state"] == before["view"]["state"]
    refused("stale", table.peek, 1, 0)
    refused("illegal", table.peek, 99, table.version)


def test_a_view_carries_the_recent_steps_of_live_inputs_only(table: Table) -> None:
    """The Monster Phase guide keeps a whole phase on screen: each recent live input's effects
    with its version; an undone input's steps are gone, a redone one's are back."""
    seen = []
    for _ in range(6):
        view = act_simply(table)
        seen.append({"version": view["version"], "effects": view["effects"]})
    assert table.view()["recent_effects"] == seen
    view = table.undo(2, table.version)
    assert view["recent_effects"] == seen[:4]
    view = table.redo(2, table.version)
    assert [r["effects"] for r in view["recent_effects"]] == [r["effects"] for r in seen]
    assert view == Table(table.store, table.kind, table.game_id).view()


def test_the_recent_steps_begin_with_the_phase_the_table_is_in(table: Table) -> None:
    """Every push carries them, so not more than the guide shows: from the newest input whose
    effects begin a phase (the pack's phase_marks: the Hero Phase ending), not the last 60."""
    marks = table.kind.phase_marks
    assert marks, "Ravenloft's Monster Phase begins where the Hero Phase ends"
    begun = []
    while len(begun) < 2:
        view = act_simply(table)
        if any(e["kind"] in marks for e in view["effects"]):
            begun.append(view["version"])
    for _ in range(3):
        act_simply(table)
    recent = table.view()["recent_effects"]
    assert recent[0]["version"] == begun[-1]
    assert [r for r in recent if any(e["kind"] in marks for e in r["effects"])] == recent[:1]
    assert [r["version"] for r in recent] == list(range(begun[-1], begun[-1] + 4))


def test_history_reads_as_what_happened_and_its_undo_counts_go_back_there(table: Table) -> None:
    play_until(table, "hero-action")
    table.act({"answer": {"action": "end"}}, table.version)
    table.act({"answer": "call-of-the-fortune-teller"}, table.version)
    play_until(table, "path")
    act_simply(table)
    history = table.view()["history"]
    assert isinstance(history, list)
    assert re.fullmatch(r"Move Baba Lysaga from [A-Z][\w' ]+ to [A-Z][\w' ]+ \(\d locations?\)",
                        history[0]["label"]), history[0]
    assert history[0]["undo_count"] == 0 and history[0]["version"] == table.version
    labels = [item["label"] for item in history]
    assert "Monster card: Call of the Fortune Teller" in labels
    assert labels[-1] == "Sam takes the Perk card Bildrath's Mercantile"
    assert all(label[:1].isupper() and "{" not in label for label in labels), labels

    # undo_count k takes the game back to just after that input
    target = history[3]
    view = table.undo(target["undo_count"], table.version)
    assert view["history"][0]["label"] == target["label"]  # type: ignore[index]
    assert view["history"][0]["version"] == target["version"]  # type: ignore[index]


def test_an_answer_without_effects_is_labelled_with_the_question_and_the_option_text(tables: Tables) -> None:
    position = {"phase": "monster", "monsters": {"baba-lysaga": "krezk"},
                "heroes": [{"hero": "sorcerer", "player": "Sam", "at": "krezk", "items": ["dagger", "mace"]}]}
    table = tables.get(tables.store.create_game("ravenloft", "Labels", {"position": position}))
    table.act({"answer": "ambush"}, table.version)
    play_until(table, "monster-dice")
    table.act({"answer": ["hit", "blank"]}, table.version)
    assert table.view()["history"][0]["label"] == "Roll 2 Monster dice for Baba Lysaga. → rolled HIT, BLANK"  # type: ignore[index]
    prompt = table.view()["prompt"]
    assert isinstance(prompt, dict) and prompt["key"] == "defend"
    discard = next(option for option in prompt["options"] if option["id"] == "discard")
    table.act({"answer": "discard"}, table.version)  # asks which item next: no effect yet
    label = table.view()["history"][0]["label"]  # type: ignore[index]
    text = prompt["text"]
    assert label == f"{text[:1].upper()}{text[1:]} → {discard['text']}"
    assert label == "The Sorcerer is hit 1 time by Baba Lysaga. What now? → Discard 1 item to stop the hit"


def test_the_history_survives_reopening(tables: Tables, tmp_path: Path) -> None:
    table = tables.get(tables.create("ravenloft", "Reopened", SETUP))
    for _ in range(4):
        act_simply(table)
    table.undo(2, table.version)
    table.redo(1, table.version)
    before = table.view()
    with Store(tmp_path / "companion.sqlite") as again:
        assert Tables(again, pack_makers("")).get(table.game_id).view() == before


# -- listeners -------------------------------------------------------------------------------------


def test_listeners_get_one_view_per_change_and_a_failing_one_does_not_refuse_it(table: Table) -> None:
    seen: list[int] = []

    def broken(_: Table, view: dict[str, object]) -> None:
        raise RuntimeError("a tablet went away")

    table.subscribe(broken)
    table.subscribe(lambda _, view: seen.append(int(view["version"])))  # type: ignore[call-overload]
    act_simply(table)
    act_simply(table)
    table.undo(1, table.version)
    refused("stale", table.act, {"answer": "x"}, 0)
    assert seen == [1, 2, 3]


# -- storage failures ------------------------------------------------------------------------------


def test_a_closed_store_refuses_the_change_with_storage_and_the_game_is_unchanged(table: Table) -> None:
    act_simply(table)
    before = snapshot(table)
    table.store.close()
    prompt = before["view"]["prompt"]
    assert "closed" in str(refused("storage", table.act, {"answer": simple_answer(prompt)}, table.version))
    refused("storage", table.undo, 1, table.version)
    assert table.view() == before["view"]
    assert list(table.game.inputs) == before["inputs"]


def test_a_redo_the_disk_refuses_leaves_the_game_as_it_was(table: Table) -> None:
    for _ in range(4):
        act_simply(table)
    table.undo(3, table.version)
    before = snapshot(table)
    table.store._db.execute("PRAGMA query_only = ON")
    refused("storage", table.redo, 2, table.version)
    table.store._db.execute("PRAGMA query_only = OFF")
    assert snapshot(table) == before and len(table.redo_stack) == 3
    assert table.redo(3, table.version)["can_redo"] is False


def test_a_read_only_database_refuses_with_storage_and_the_table_recovers(table: Table) -> None:
    act_simply(table)
    before = snapshot(table)
    prompt = before["view"]["prompt"]
    # Writes now fail as on a read-only file (chmod does not stop root, nor an open file).
    table.store._db.execute("PRAGMA query_only = ON")
    problem = refused("storage", table.act, {"answer": simple_answer(prompt)}, table.version)
    assert "nothing changed" in str(problem)
    refused("storage", table.undo, 1, table.version)
    table.store._db.execute("PRAGMA query_only = OFF")
    assert snapshot(table) == before

    view = table.act({"answer": simple_answer(prompt)}, table.version)  # the disk is back
    assert view["version"] == 2



def test_an_imported_finished_game_is_listed_as_finished(tables: Tables) -> None:
    table = finished_game(tables)
    copy = tables.import_game(tables.store.export_game(table.game_id))
    listed = {g["game_id"]: g for g in tables.summaries()}
    assert listed[copy]["outcome"] == "lost: terror"


def test_archived_games_stay_listed_as_archived_and_can_be_restored(tables: Tables) -> None:
    game_id = tables.store.create_game("ravenloft", "Old", {"setup": SETUP})
    tables.archive(game_id)
    assert {g["game_id"]: g["status"] for g in tables.summaries()}[game_id] == "archived"
    tables.restore(game_id)
    assert {g["game_id"]: g["status"] for g in tables.summaries()}[game_id] == "active"
    assert "no game" in str(refused("unknown-game", tables.restore, "nope"))


def test_an_answer_label_reads_as_words_not_ids() -> None:
    """History lines: a roll says what was rolled, an action its name, never "→ special"."""
    from companion.engine.game import Step
    from companion.engine.prompts import Prompt
    from companion.table.table import label_of

    nothing = Step((), None, 1)
    dice = Prompt("roll", "monster-dice", "Roll 2 Monster dice for Strahd.", die="monster", count=2)
    assert label_of(dice, {"answer": ["hit", "pow"]}, nothing, frozenset()).text == \
        "Roll 2 Monster dice for Strahd. → rolled HIT, POW"
    menu = Prompt("action", "hero-action", "Sam's turn: the Sorcerer has 2 actions left.")
    assert label_of(menu, {"answer": {"action": "special"}}, nothing, frozenset()).text.endswith("→ the Special action")
    assert label_of(menu, {"answer": {"action": "end"}}, nothing, frozenset()).text.endswith("→ Ended")
