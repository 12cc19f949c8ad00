"""The game-pack seam (docs/engine.md, "Writing a pack"): a second game, the toy
pack of tests/toy_pack, plays through the table, the service and the command
line without a change outside its folder; one seat's secret never reaches
another seat's socket nor the shared screen; and nothing outside a pack's own
folder (the registry aside) names the pack."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest
import socketio

from companion.games.registry import BUILT_IN, pack_makers
from companion.store import Store
from companion.table import Table, TableError, Tables
from service_process import ROOT, Service, call, connect, drain, next_event, ok
from toy_pack import ToyPack

TOY = "toy_pack:ToyPack"
#: Distinctive on purpose: the tests look for North's word in everything another socket received.
NORTH_WORD, SOUTH_WORD = "ZQXJ-MARMALADE-7731", "PLUM-42"
ENV = {"COMPANION_EXTRA_PACKS": TOY, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])}


def toy_tables(tmp_path: Path) -> Tables:
    return Tables(Store(tmp_path / "companion.sqlite"), {"secret-words": ToyPack})


def answer(table: Table, word: str, seat: str | None) -> None:
    prompt = table.game.prompt
    assert prompt is not None
    table.act({"key": prompt.key, "answer": {"action": "write", "word": word}}, table.version, seat)


# -- the table --------------------------------------------------------------------------------------

def test_a_seats_secret_is_in_its_own_view_only(tmp_path: Path) -> None:
    tables = toy_tables(tmp_path)
    table = tables.get(tables.create("secret-words", "Toy", {}))
    assert [s for s in table.seats()] == ["north", "south"]
    answer(table, NORTH_WORD, "north")
    north, south, shared = table.view("north"), table.view("south"), table.view()
    assert north["private"] == {"my_word": NORTH_WORD} and any(NORTH_WORD in e["text"] for e in north["effects"])
    for other in (south, shared):
        assert NORTH_WORD not in json.dumps(other)
    assert south["prompt"]["kind"] == "action" and shared["prompt"]["kind"] == "waiting"  # South's turn to write
    assert north["prompt"]["kind"] == "waiting" and north["history"][0]["label"] == "You wrote ZQXJ-MARMALADE-7731"
    assert south["history"][0]["label"] == "An answer given in secret"
    answer(table, SOUTH_WORD, "south")
    assert all(NORTH_WORD in json.dumps(table.view(seat)) for seat in ("north", "south", None))  # revealed together
    assert table.view()["state"]["scores"] == {"north": 1, "south": 0}  # the longer word


def test_only_the_seat_a_secret_question_is_for_may_answer_it(tmp_path: Path) -> None:
    tables = toy_tables(tmp_path)
    table = tables.get(tables.create("secret-words", "Toy", {}))
    for seat in ("south", None):
        with pytest.raises(TableError, match="this question is for north"):
            answer(table, NORTH_WORD, seat)
    assert table.version == 0


def test_a_secret_answer_shows_in_others_history_only_as_given(tmp_path: Path) -> None:
    tables = toy_tables(tmp_path)
    table = tables.get(tables.create("secret-words", "Toy", {}))
    answer(table, NORTH_WORD, "north")
    table.undo(1, table.version)  # the redo stack holds the secret answer now: it must not show either
    assert NORTH_WORD not in json.dumps(table.view("south")) and NORTH_WORD not in json.dumps(table.view())


# -- the service, with real Socket.IO clients ---------------------------------------------------------

@pytest.fixture(scope="module")
def toy_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    running = Service(tmp_path_factory.mktemp("toy") / "state", env=ENV).start()
    yield running
    running.stop()
    assert "Traceback" not in running.log(), running.log()


def seated(service: Service, game_id: str, seat: str) -> tuple[socketio.SimpleClient, dict[str, Any]]:
    client = connect(service.url)
    token = ok(client, "claim_seat", {"game_id": game_id, "seat": seat})["token"]
    joined = ok(client, "join", {"game_id": game_id, "seat": seat, "token": token})
    return client, {"token": token, "join": joined}


def test_over_socket_io_a_seats_secret_never_reaches_another_seat_or_the_shared_screen(toy_service: Service) -> None:
    host = connect(toy_service.url)
    game_id = ok(host, "new_game", {"game": "secret-words", "name": "Toy", "setup": {}})["game_id"]
    seen_by_shared: list[Any] = [ok(host, "join", {"game_id": game_id})]
    north, north_seat = seated(toy_service, game_id, "north")
    south, south_seat = seated(toy_service, game_id, "south")
    again = ok(north, "claim_seat", {"game_id": game_id, "seat": "north", "token": north_seat["token"]})
    assert again["token"] == north_seat["token"]  # the device holding the seat gets it again
    version = north_seat["join"]["view"]["version"]
    ok(north, "act", {"game_id": game_id, "version": version, "key": "secret-word", "answer": written(NORTH_WORD)})
    north_view = next_event(north, "view")
    assert north_view["private"]["my_word"] == NORTH_WORD
    south_view = next_event(south, "view")
    assert south_view["prompt"]["kind"] == "action" and south_view["private"] == {"my_word": None}
    refusals = [call(south, "join", {"game_id": game_id, "seat": "north"}),  # no token
                call(south, "claim_seat", {"game_id": game_id, "seat": "north"}),  # taken
                call(host, "act", {"game_id": game_id, "version": south_view["version"], "key": "secret-word",
                                   "answer": written(SOUTH_WORD)})]  # the shared screen cannot answer for South
    assert [r["error"]["code"] for r in refusals] == ["not-your-seat", "seat-taken", "not-your-seat"]
    seen_by_south = [south_seat, south_view, *refusals, *drain(south)]
    seen_by_shared += drain(host)
    assert NORTH_WORD not in json.dumps(seen_by_south) and NORTH_WORD not in json.dumps(seen_by_shared)
    assert any(e[0] == "view" and e[1]["state"]["chosen"] == ["north"] for e in seen_by_shared[1:])
    ok(south, "act", {"game_id": game_id, "version": south_view["version"], "key": "secret-word",
                      "answer": written(SOUTH_WORD)})
    revealed = next_event(host, "view")
    assert revealed["state"]["revealed"] == {"north": NORTH_WORD, "south": SOUTH_WORD}
    for client in (host, north, south):
        client.disconnect()


def written(word: str) -> dict[str, str]:
    return {"action": "write", "word": word}


def test_the_toy_game_plays_to_its_end_from_the_command_line() -> None:
    done = subprocess.run([sys.executable, "-m", "companion.cli", "play", "--game", "secret-words", "--seed", "3",
                           "--quiet"], capture_output=True, text=True, env={**os.environ, **ENV}, cwd=ROOT,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert re.search(r"Outcome: (North|South) wins", done.stdout), done.stdout
    listed = subprocess.run([sys.executable, "-m", "companion.cli", "games"], capture_output=True, text=True,
                            env={**os.environ, **ENV}, cwd=ROOT, timeout=60)
    assert "secret-words" in listed.stdout and "ravenloft" in listed.stdout


def test_the_registry_finds_a_pack_from_outside_the_tree() -> None:
    assert "secret-words" in pack_makers(TOY) and set(BUILT_IN) <= set(pack_makers(TOY))
    assert "secret-words" not in pack_makers("")


# -- nothing outside a pack names it ----------------------------------------------------------------------

SOURCES = [p for folder in ("companion", "hardware", "calibration") for p in (ROOT / folder).rglob("*.py")]
SHELL = list((ROOT / "web").rglob("*.js")) + list((ROOT / "web").rglob("*.html"))
#: Tablet code in the games' tree: a pack's own, or a family's that several packs serve.
PACK_JS = list((ROOT / "companion").rglob("*.js"))


def _pack_folder(pack_id: str) -> Path:
    module = BUILT_IN[pack_id].partition(":")[0]  # companion.games.<folder>.gamepack
    return ROOT.joinpath(*module.split(".")[:-1])


def _named(pack_id: str) -> re.Pattern[str]:
    """The id as a word of its own: ``horrified`` is not named by ``horrified_core``, the library beside it."""
    return re.compile(rf"(?<!\w){re.escape(pack_id)}(?!\w)")


def _names(path: Path, pack_id: str, folder: str) -> list[str]:
    """Where a module names the pack: imports its modules, or has its id as a string."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = re.compile(rf"(^|\.)games\.{re.escape(folder)}(\.|$)")
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [f"line {node.lineno}: imports {m}" for m in modules if module.search(m)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _named(pack_id).search(node.value):
            found.append(f"line {node.lineno}: {node.value[:60]!r}")
    return found


@pytest.mark.parametrize("pack_id", sorted(BUILT_IN))
def test_no_module_outside_a_pack_names_it(pack_id: str) -> None:
    own = _pack_folder(pack_id)
    registry = ROOT / "companion" / "games" / "registry.py"
    outside = [p for p in SOURCES if own not in p.parents and p != registry]
    named = {str(p.relative_to(ROOT)): hits for p in outside if (hits := _names(p, pack_id, own.name))}
    assert named == {}, f"these modules name the {pack_id} pack: {named}"
    shell = {str(p.relative_to(ROOT)) for p in SHELL + [p for p in PACK_JS if own not in p.parents]
             if _named(pack_id).search(p.read_text(encoding="utf-8"))}
    assert shell == set(), f"tablet code outside the pack names the {pack_id} pack: {shell}"
