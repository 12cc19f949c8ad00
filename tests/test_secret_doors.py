"""Secrets through the box's other doors: what a player's phone, an unpaired tablet and the owner
may read over HTTP (the games' list, a game's file, the backup, diagnostics), the socket's list
of games, the shared screen's history, and the service's own log.

Real parts: the service as it runs on the box (``python -m companion.server``, pairing
required and the box's own address not trusted, so every client here is a tablet on the
Wi-Fi), real Socket.IO clients, real HTTP. The owner's tablet is paired with the code the box
printed; each player's phone with a code the owner's tablet showed (a player's code).

Each pack with secrets is played twice, alike but for one seat's secret: Straszydła's first
player names another pact card and lays another plan (the others have not planned yet, so
nothing is revealed); a person DM in Siege of Barovia takes another turn and takes it back
(the undone answer stays in the journal). Every read a player's phone or a stranger makes is
then the same, byte for byte, in both games (with the game's id and the clock's times put
aside); the owner's export differs, which shows the secret is there to leak."""

from __future__ import annotations

import io
import json
import random
import re
import zipfile
from pathlib import Path
from typing import Any, Iterator

import pytest
import requests
import socketio

from companion.engine.game import Game
from companion.games.straszydla.geometry import Geometry, plans_to_each_end
from companion.games.straszydla.packdata import load_pack
from companion.games.straszydla.rules import StraszydlaRules
from companion.games.straszydla.setup import default_setup
from companion.games.straszydla.state import GameState
from service_process import TIMEOUT, Service, call, configured, connect, console_code, ok

CONFIG = ("[pairing]\ntrust_loopback = false\nclient_attempts = 100\n"
          "[discovery]\nenabled = false\n")
HEADER = "X-Companion-Token"
PACTS = [pact.id for pact in load_pack().pacts]
PACT_NAMES = {pact.id: pact.name for pact in load_pack().pacts}


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    service = configured(tmp_path_factory.mktemp("doors"), "box", CONFIG)
    yield service
    service.stop()


@pytest.fixture(scope="module")
def tokens(box: Service) -> dict[str, str]:
    """The owner's token (the box's printed code), and three players' (codes the owner showed)."""
    code = console_code(box)
    found = {}
    with connect(box.url) as owner:
        found["owner"] = ok(owner, "pair_code", {"name": "Owner", "code": code})["token"]
    with connect(box.url, auth={"token": found["owner"]}) as owner:
        for name in ("p1", "p2", "p3", "dm"):
            shown = ok(owner, "pair_show_code")["code"]
            with connect(box.url) as phone:
                reply = ok(phone, "pair_code", {"name": f"Phone {name}", "code": shown})
                assert reply["device"]["owner"] is False  # a code from a tablet pairs a player's phone
                found[name] = reply["token"]
    return found


def get(box: Service, path: str, token: str | None) -> requests.Response:
    return requests.get(box.url + path, headers={HEADER: token} if token else {}, timeout=TIMEOUT)


class Seats:
    """A game played by the owner's tablet (the shared screen) and one phone per seat."""

    def __init__(self, box: Service, tokens: dict[str, str], game: str, setup: dict[str, Any]) -> None:
        self.box = box
        self.owner = connect(box.url, auth={"token": tokens["owner"]})
        self.game_id = ok(self.owner, "new_game", {"game": game, "name": "Secrets", "setup": setup})["game_id"]
        self.phones: dict[str, socketio.SimpleClient] = {}
        self.seat_tokens: dict[str, str] = {}
        for seat in ok(self.owner, "join", {"game_id": self.game_id})["view"]["seats"]:
            phone = connect(box.url, auth={"token": tokens[seat["id"]]})
            claimed = ok(phone, "claim_seat", {"game_id": self.game_id, "seat": seat["id"]})
            self.seat_tokens[seat["id"]] = claimed["token"]
            self.phones[seat["id"]] = phone
            self.seat_view(seat["id"])

    def seat_view(self, seat: str) -> dict[str, Any]:
        """The seat's own view, as its phone joins with the seat's token."""
        view: dict[str, Any] = ok(self.phones[seat], "join", {"game_id": self.game_id, "seat": seat,
                                                              "token": self.seat_tokens[seat]})["view"]
        return view

    def view(self) -> dict[str, Any]:
        view: dict[str, Any] = ok(self.owner, "join", {"game_id": self.game_id})["view"]
        return view

    def act(self, seat: str, answer: object) -> None:
        view = self.view()
        ok(self.phones[seat], "act", {"game_id": self.game_id, "version": view["version"],
                                      "key": view["prompt"]["key"], "answer": answer})

    def undo(self) -> None:
        ok(self.owner, "undo", {"game_id": self.game_id, "version": self.view()["version"], "count": 1})

    def close(self) -> None:
        for client in (self.owner, *self.phones.values()):
            client.disconnect()


def masked(text: str, game_id: str) -> str:
    """A read with what differs between any two games put aside: the game's id and the clock's times."""
    text = text.replace(game_id, "GAME")
    return re.sub(r'"(created|updated|at|paired_at)": ?[0-9.e+]+', r'"\1": TIME', text)


def listed(box: Service, token: str, game_id: str) -> str:
    """The game's line in the games' list as a phone reads it over HTTP."""
    games = get(box, "/api/games", token).json()["games"]
    return masked(json.dumps(next(g for g in games if g["game_id"] == game_id), sort_keys=True), game_id)


def reads(box: Service, tokens: dict[str, str], game: Seats) -> dict[str, str]:
    """Everything a player's phone and an unpaired tablet may read of ``game``, as text."""
    found = {"list (HTTP)": listed(box, tokens["p2"], game.game_id),
             "export by a player": get(box, f"/api/games/{game.game_id}/export", tokens["p2"]).text}
    with connect(box.url, auth={"token": tokens["p2"]}) as phone:
        line = next(g for g in ok(phone, "games")["games"] if g["game_id"] == game.game_id)
        found["list (socket)"] = masked(json.dumps(line, sort_keys=True), game.game_id)
    with connect(box.url) as stranger:
        watched = ok(stranger, "join", {"game_id": game.game_id})["view"]
        found["watched view"] = masked(json.dumps(watched, sort_keys=True), game.game_id)
        found["watched history"] = json.dumps(watched["history"])
    return found


def secret_free(box: Service, tokens: dict[str, str], secrets: list[str]) -> None:
    """No secret in the diagnostics a player downloads, nor in the service's log (its journal)."""
    bundle = get(box, "/api/diagnostics", tokens["p2"])
    assert bundle.status_code == 200
    with zipfile.ZipFile(io.BytesIO(bundle.content)) as archive:
        text = " ".join(archive.read(name).decode("utf-8", "replace") for name in archive.namelist())
    for secret in secrets:
        assert secret not in text and secret not in box.log() and secret not in "\n".join(box.output), secret


# -- Straszydła: a pact and a plan ------------------------------------------------------------------------

def straszydla_setup() -> tuple[dict[str, Any], dict[str, list[list[str]]]]:
    """A shipped-box game of three, and two plans for each player (to two districts)."""
    pack = load_pack()
    setup = default_setup(pack, 3, random.Random(3)) | {"time": "day"}
    state = Game(StraszydlaRules(pack), {"setup": setup}).state
    assert isinstance(state, GameState)
    board = Geometry.of(pack, state)
    plans = {seat: [list(plan) for _, plan in sorted(plans_to_each_end(board, state.players[seat].at).items())][:2]
             for seat in ("p1", "p2", "p3")}
    return setup, plans


def straszydla(box: Service, tokens: dict[str, str], pact: str, plan: int) -> Seats:
    """Pacts named (the first player's ``pact``), and the first player's plan laid (which of his
    two: ``plan``); the others have not planned, so no plan is shown yet."""
    setup, plans = straszydla_setup()
    game = Seats(box, tokens, "straszydla", setup)
    for seat, named in (("p1", pact), ("p2", PACTS[1]), ("p3", PACTS[2])):
        game.act(seat, named)
    game.act("p1", {"action": "plan", "moves": plans["p1"][plan]})
    return game


def test_a_straszydla_pact_and_plan_leave_by_no_door_before_their_reveal(box: Service, tokens: dict[str, str]) -> None:
    one, other = straszydla(box, tokens, PACTS[0], 0), straszydla(box, tokens, PACTS[3], 1)
    try:
        seen = reads(box, tokens, one), reads(box, tokens, other)
        for door in seen[0]:
            assert seen[0][door] == seen[1][door], f"{door} tells the pact or the plan: {seen[0][door][:400]}"
        whole = [get(box, f"/api/games/{g.game_id}/export", tokens["owner"]).json() for g in (one, other)]
        assert whole[0] != whole[1] and PACTS[0] in json.dumps(whole[0])  # the owner's file is whole
        redacted = json.loads(seen[0]["export by a player"])
        assert PACTS[0] not in json.dumps(redacted) and redacted["redacted"]["answers_left_out"] == 4
        secret_free(box, tokens, [PACTS[0], PACTS[3], PACT_NAMES[PACTS[0]], PACT_NAMES[PACTS[3]]])
    finally:
        one.close()
        other.close()


def test_a_players_file_does_not_import_and_the_backup_is_the_owners(box: Service, tokens: dict[str, str]) -> None:
    game = straszydla(box, tokens, PACTS[0], 0)
    try:
        redacted = get(box, f"/api/games/{game.game_id}/export", tokens["p1"]).json()
        refused = requests.post(f"{box.url}/api/games/import", json=redacted, headers={HEADER: tokens["owner"]},
                                timeout=TIMEOUT)
        assert refused.status_code == 400 and "answers given in secret are left out" in refused.json()["error"]["message"]
        backup = get(box, "/api/backup", tokens["p1"])
        assert backup.status_code == 403 and backup.json()["error"]["code"] == "not-owner"
        assert "owner" in backup.json()["error"]["message"]
        restore = requests.post(f"{box.url}/api/backup/restore", data=b"PK", headers={HEADER: tokens["p1"]},
                                timeout=TIMEOUT)
        assert restore.status_code == 403 and restore.json()["error"]["code"] == "not-owner"
        whole = get(box, "/api/backup", tokens["owner"])
        assert whole.status_code == 200
        with zipfile.ZipFile(io.BytesIO(whole.content)) as archive:
            assert any(PACTS[0] in archive.read(n).decode() for n in archive.namelist() if n.startswith("games/"))
        again = get(box, f"/api/games/{game.game_id}/export", tokens["owner"]).json()
        assert requests.post(f"{box.url}/api/games/import", json=again, headers={HEADER: tokens["owner"]},
                             timeout=TIMEOUT).json()["ok"]  # the owner's file plays on
    finally:
        game.close()


def test_an_unpaired_tablet_gets_no_list_and_no_file_but_may_watch(box: Service, tokens: dict[str, str]) -> None:
    game = straszydla(box, tokens, PACTS[0], 0)
    try:
        for path in ("/api/games", f"/api/games/{game.game_id}/export", "/api/backup", "/api/diagnostics"):
            answer = get(box, path, None)
            assert answer.status_code == 403 and answer.json()["error"]["code"] == "not-paired", path
        with connect(box.url) as stranger:
            refused = call(stranger, "games")
            assert refused["error"]["code"] == "not-paired" and "pair this tablet to see the games" in \
                refused["error"]["message"]
            assert ok(stranger, "join", {"game_id": game.game_id})["view"]["game_id"] == game.game_id
            with connect(box.url, auth={"token": tokens["p2"]}) as phone:
                ok(phone, "new_game", {"game": "straszydla", "name": "News", "setup": straszydla_setup()[0]})
                pushed = phone.receive(timeout=TIMEOUT)
                assert pushed[0] == "games"  # a paired phone hears of the new game
            with pytest.raises(socketio.exceptions.TimeoutError):
                while True:  # the stranger never does
                    assert stranger.receive(timeout=0.5)[0] != "games"
    finally:
        game.close()


# -- Siege of Barovia with a person as the DM: a turn taken back --------------------------------------------

def siege(box: Service, tokens: dict[str, str], first: int) -> Seats:
    """The first hero ends their turn; the DM takes the ``first``-th turn of their menu (a move
    with no attack: no dice), takes it back, then takes the first one: the table ends up the same
    in both games, and the journal holds the turn undone."""
    game = Seats(box, tokens, "siege-of-barovia", {"players": [{"name": "Ana"}, {"name": "Ben"}], "dm": "person"})
    game.act("p1", {"action": "end"})
    menu = [{k: v for k, v in action.items() if k != "label"} for action in game.seat_view("dm")["actions"]]
    quiet = [turn for turn in menu if "act" not in turn and "move" in turn]
    assert len(quiet) > first, menu
    game.act("dm", quiet[first])
    game.undo()
    game.act("dm", quiet[0])
    return game


def test_a_person_dms_turn_taken_back_leaves_by_no_door(box: Service, tokens: dict[str, str]) -> None:
    one, other = siege(box, tokens, 1), siege(box, tokens, 2)
    try:
        seen = reads(box, tokens, one), reads(box, tokens, other)
        for door in seen[0]:
            assert seen[0][door] == seen[1][door], f"{door} tells the DM's turn taken back: {seen[0][door][:400]}"
        whole = [get(box, f"/api/games/{g.game_id}/export", tokens["owner"]).json() for g in (one, other)]
        assert whole[0]["journal"] != whole[1]["journal"]  # the owner's files hold the turn undone
        assert json.loads(seen[0]["export by a player"])["redacted"]["answers_left_out"] == 2
        assert get(box, "/api/backup", tokens["dm"]).status_code == 403  # the DM's phone is a player's too
    finally:
        one.close()
        other.close()
