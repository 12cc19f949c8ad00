"""Seats that belong to their players, through the real service: phones paired with codes on a box
that trusts nobody by address, playing Straszydła (docs/protocol.md, "Seats").

A seat another phone holds cannot be taken or freed by a player; one seat per phone; two phones
claiming one free seat at once never both get it; the box's owner frees a lost phone's seat and the
phone that lost it is told at once and sees the shared screen only; a player's phone answers only
its own seat's questions.
"""

from __future__ import annotations

import random
import threading
from typing import Any, Iterator

import pytest
import socketio

from companion.games.straszydla.packdata import load_pack
from companion.games.straszydla.setup import default_setup
from service_process import Service, call, configured, connect, console_code, next_event, ok

# Every client here is on one address: the pairing rate limit is raised so a dozen phones can pair.
STRICT = "[pairing]\ntrust_loopback = false\nclient_attempts = 100\nglobal_attempts = 200\n[discovery]\nenabled = false\n"


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    service = configured(tmp_path_factory.mktemp("seats"), "state", STRICT)
    yield service
    service.stop()
    assert "Traceback" not in service.log(), service.log()


@pytest.fixture(scope="module")
def owner_token(box: Service) -> str:
    """The owner's tablet: paired with the code the box printed in its own output."""
    with connect(box.url) as tablet:
        return str(ok(tablet, "pair_code", {"name": "Owner's tablet", "code": console_code(box)})["token"])


def phone(box: Service, owner_token: str, name: str) -> socketio.SimpleClient:
    """A player's phone, paired with a code shown on the owner's tablet."""
    with connect(box.url, auth={"token": owner_token}) as tablet:
        code = ok(tablet, "pair_show_code")["code"]
    with connect(box.url) as fresh:
        token = ok(fresh, "pair_code", {"name": name, "code": code})["token"]
    return connect(box.url, auth={"token": token})


def new_game(box: Service, owner_token: str, players: int = 3) -> str:
    setup = default_setup(load_pack(), players, random.Random(4))
    with connect(box.url, auth={"token": owner_token}) as tablet:
        return str(ok(tablet, "new_game", {"game": "straszydla", "name": "Seats", "setup": setup})["game_id"])


def seated(client: socketio.SimpleClient, game_id: str, seat: str) -> dict[str, Any]:
    token = ok(client, "claim_seat", {"game_id": game_id, "seat": seat})["token"]
    return {"token": token, "view": ok(client, "join", {"game_id": game_id, "seat": seat, "token": token})["view"]}


def test_a_held_seat_is_neither_taken_nor_freed_by_another_player(box: Service, owner_token: str) -> None:
    game_id = new_game(box, owner_token)
    anna, ben = phone(box, owner_token, "Anna's phone"), phone(box, owner_token, "Ben's phone")
    with anna, ben:
        mine = seated(anna, game_id, "p1")
        theirs = seated(ben, game_id, "p2")
        assert call(ben, "claim_seat", {"game_id": game_id, "seat": "p1"})["error"]["code"] == "seat-taken"
        assert call(ben, "release_seat", {"game_id": game_id, "seat": "p1"})["error"]["code"] == "not-your-seat"
        assert call(ben, "join", {"game_id": game_id, "seat": "p1"})["error"]["code"] == "not-your-seat"
        assert call(ben, "claim_seat", {"game_id": game_id, "seat": "p3"})["error"]["code"] == "one-seat"
        listed = ok(ben, "seat_list", {"game_id": game_id, "token": theirs["token"]})
        assert [(s["id"], s["held"], s["device"], s["yours"]) for s in listed["seats"]] == [
            ("p1", True, "Anna's phone", False), ("p2", True, "Ben's phone", True), ("p3", False, None, False)]
        assert listed["owner"] is False and mine["token"] not in str(listed)
        again = ok(anna, "claim_seat", {"game_id": game_id, "seat": "p1", "token": mine["token"]})
        assert again["token"] == mine["token"]  # the holder gets it again (a reload)


def test_a_phone_answers_only_its_own_seats_questions(box: Service, owner_token: str) -> None:
    game_id = new_game(box, owner_token, players=2)
    anna, ben = phone(box, owner_token, "Anna's phone"), phone(box, owner_token, "Ben's phone")
    with anna, ben, connect(box.url, auth={"token": owner_token}) as shared:
        seats = {"p1": (anna, seated(anna, game_id, "p1")), "p2": (ben, seated(ben, game_id, "p2"))}
        pacts = [o["id"] for o in seats["p1"][1]["view"]["prompt"]["options"]]
        for n, (client, held) in enumerate(seats.values()):
            version = ok(client, "join", {"game_id": game_id, "seat": held["view"]["seat"], "token": held["token"]})
            ok(client, "act", {"game_id": game_id, "version": version["view"]["version"], "key": "pact",
                               "answer": pacts[n]})
        planning = ok(shared, "join", {"game_id": game_id})["view"]
        assert planning["prompt"]["kind"] == "waiting"  # the shared tablet answers for no held seat
        refused = call(shared, "act", {"game_id": game_id, "version": planning["version"], "key": "plan",
                                       "answer": {"action": "plan", "moves": []}})
        assert refused["error"]["code"] == "not-your-seat"
        assert ok(shared, "join", {"game_id": game_id})["view"]["version"] == planning["version"]


def test_two_phones_claiming_one_free_seat_at_once_never_both_get_it(box: Service, owner_token: str) -> None:
    game_id = new_game(box, owner_token)
    phones = [phone(box, owner_token, f"Phone {n}") for n in range(5)]
    replies: list[dict[str, Any]] = []
    start = threading.Barrier(len(phones))

    def claim(client: socketio.SimpleClient) -> None:
        start.wait()
        replies.append(call(client, "claim_seat", {"game_id": game_id, "seat": "p2"}))

    threads = [threading.Thread(target=claim, args=(client,)) for client in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    for client in phones:
        client.disconnect()
    assert sorted(r["ok"] for r in replies) == [False, False, False, False, True]
    assert {r["error"]["code"] for r in replies if not r["ok"]} == {"seat-taken"}


def test_the_owner_frees_a_lost_phones_seat_and_that_phone_is_told_at_once(box: Service, owner_token: str) -> None:
    game_id = new_game(box, owner_token)
    lost, found = phone(box, owner_token, "Lost phone"), phone(box, owner_token, "New phone")
    with lost, found, connect(box.url, auth={"token": owner_token}) as owner:
        old = seated(lost, game_id, "p1")
        assert ok(owner, "seat_list", {"game_id": game_id})["owner"] is True
        assert ok(owner, "release_seat", {"game_id": game_id, "seat": "p1"})["freed"] is True
        told = next_event(lost, "seat_lost")
        assert told["seat"] == "p1" and told["view"]["seat"] is None and "private" not in told["view"]
        assert call(lost, "join", {"game_id": game_id, "seat": "p1", "token": old["token"]})["error"]["code"] == \
            "not-your-seat"
        fresh = seated(found, game_id, "p1")
        assert fresh["token"] != old["token"] and fresh["view"]["seat"] == "p1" and "private" in fresh["view"]


def test_a_player_gives_up_their_own_seat_and_another_phone_takes_it(box: Service, owner_token: str) -> None:
    game_id = new_game(box, owner_token)
    anna, ben = phone(box, owner_token, "Anna's phone"), phone(box, owner_token, "Ben's phone")
    with anna, ben:
        held = seated(anna, game_id, "p3")
        wrong = call(anna, "release_seat", {"game_id": game_id, "seat": "p3", "token": "not-its-token"})
        assert wrong["error"]["code"] == "not-your-seat"
        assert ok(anna, "release_seat", {"game_id": game_id, "seat": "p3", "token": held["token"]})["freed"] is True
        assert seated(ben, game_id, "p3")["view"]["seat"] == "p3"
