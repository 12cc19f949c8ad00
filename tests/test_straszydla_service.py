"""Straszydła's secrets over the wire: three phones (one per seat) and a shared tablet, real
Socket.IO clients against the service as it runs on the box.

Games are played alike but for one or two of Przemo's secrets: his pact card and his sealed
bid, or his plan. Everything Syla's phone, Witek's phone and the shared tablet receive (every
event and reply, raw, but the list of the box's games) is the same in both until the rules
reveal what differs: the bids when both are sealed, the plans when the last is laid, all three
plans in one view ("When you are ready, reveal your tokens"); a pact, never."""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

import pytest
import socketio

from companion.engine.game import Game
from companion.games.straszydla.geometry import Geometry, plans_to_each_end
from companion.games.straszydla.packdata import load_pack
from companion.games.straszydla.rules import StraszydlaRules
from companion.games.straszydla.setup import default_setup
from companion.games.straszydla.state import GameState
from service_process import Service, call, connect, ok

SEATS = ("p1", "p2", "p3")
OTHERS = ("p2", "p3", "shared")


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    running = Service(tmp_path_factory.mktemp("straszydla") / "state").start()
    yield running
    running.stop()
    assert "Traceback" not in running.log(), running.log()


def meeting_setup() -> tuple[dict[str, Any], dict[str, list[str]]]:
    """A shipped-box game of three, and plans that bring Przemo and Syla to one district (Przemo first,
    so he holds it) and Witek elsewhere."""
    pack = load_pack()
    setup = default_setup(pack, 3, random.Random(3)) | {"time": "day"}
    state = Game(StraszydlaRules(pack), {"setup": setup}).state
    assert isinstance(state, GameState)
    board = Geometry.of(pack, state)
    ends = {seat: plans_to_each_end(board, state.players[seat].at) for seat in SEATS}
    meet = sorted(set(ends["p1"]) & set(ends["p2"]))[0]
    alone = next(end for end in sorted(ends["p3"]) if end != meet)
    elsewhere = next(end for end in sorted(ends["p1"]) if end not in (meet, alone))
    return setup, {"p1": list(ends["p1"][meet]), "p2": list(ends["p2"][meet]), "p3": list(ends["p3"][alone]),
                   "p1-other": list(ends["p1"][elsewhere])}


class Table:
    """One game's clients: the shared tablet and a phone per seat, each with everything it received."""

    def __init__(self, service: Service, setup: dict[str, Any]) -> None:
        self.shared = connect(service.url)
        self.game_id = ok(self.shared, "new_game", {"game": "straszydla", "name": "Secrets", "setup": setup})["game_id"]
        self.received: dict[str, list[Any]] = {"shared": [ok(self.shared, "join", {"game_id": self.game_id})]}
        self.clients = {"shared": self.shared}
        for seat in SEATS:
            phone = connect(service.url)
            token = ok(phone, "claim_seat", {"game_id": self.game_id, "seat": seat})["token"]
            self.received[seat] = [ok(phone, "join", {"game_id": self.game_id, "seat": seat, "token": token})]
            self.clients[seat] = phone
        self.view: dict[str, Any] = self.received["shared"][0]["view"]
        self.views: dict[str, Any] = {}

    def act(self, who: str, answer: object) -> None:
        """``who`` answers the question asked; every client then gets the view it pushes."""
        reply = call(self.clients[who], "act", {"game_id": self.game_id, "version": self.view["version"],
                                                "key": self.view["prompt"]["key"], "answer": answer})
        assert reply.get("ok"), reply
        self.received[who].append(reply)
        for name, client in self.clients.items():
            view = self._next_view(name, client, reply["version"])
            self.views[name] = view
            if name == "shared":
                self.view = view

    def _next_view(self, name: str, client: socketio.SimpleClient, version: int) -> Any:
        """The view of ``version`` (a seat claimed before it pushes the shared screens a view of the
        version before: who may answer changed)."""
        while True:
            event = client.receive(timeout=10)
            if event[0] != "games":  # the list of every game on the box, the other test game's too
                self.received[name].append(event)
            if event[0] == "view" and event[1]["game_id"] == self.game_id and event[1]["version"] == version:
                return event[1]

    def roll(self) -> None:
        """Each duellist taps their own dice on their phone (the shared tablet may not, as their seats
        are played on phones): the holder's 5s and 3s, the challenger's 6s."""
        player = self.view["prompt"]["player"]
        count = self.views[player]["prompt"]["count"]
        self.act(player, [5, 3, 3][:count] if player == "p1" else [6] * count)

    def raw(self, name: str) -> list[str]:
        return [json.dumps(item, sort_keys=True).replace(self.game_id, "GAME") for item in self.received[name]]

    def close(self) -> None:
        for client in self.clients.values():
            client.disconnect()


def played(service: Service, pact: str, plan: str, bid: int | None) -> Table:
    """Pacts named (Przemo's first: ``pact``, neither of the two after it), plans laid (his first: ``plan`` names which of his), then, when there is
    a ``bid``, the duel's dice tapped and the bids sealed (his first)."""
    setup, plans = meeting_setup()
    pacts = [p.id for p in load_pack().pacts]
    table = Table(service, setup)
    table.act("p1", pact)
    for seat, other in (("p2", pacts[1]), ("p3", pacts[2])):
        table.act(seat, other)
    for seat in SEATS:
        table.act(seat, {"action": "plan", "moves": plans[plan if seat == "p1" else seat]})
    if bid is not None:
        while table.view["prompt"]["key"] == "duel-roll":
            table.roll()
        table.act("p1", {"action": "bid", "energy": bid})
        table.act("p2", {"action": "bid", "energy": 0})
    return table


def first_difference(one: Table, other: Table, name: str) -> str:
    """What ``name`` was sent in the first game where the second game sent something else (the games
    may go on for different lengths)."""
    seen_one, seen_other = one.raw(name), other.raw(name)
    return next((a for a, b in zip(seen_one, seen_other) if a != b), "")


def test_over_socket_io_a_seats_pact_plan_and_bid_reach_no_other_phone_nor_the_shared_tablet(service: Service) -> None:
    pacts = [p.id for p in load_pack().pacts]
    tables = [played(service, pacts[0], "p1", 1), played(service, pacts[3], "p1", 2),
              played(service, pacts[0], "p1-other", None)]
    try:
        pact_and_bid, plan = (tables[0], tables[1]), (tables[0], tables[2])
        for name in OTHERS:
            first = first_difference(*pact_and_bid, name)
            assert '"bids-revealed"' in first, f"{name} was told Przemo's pact or bid before the bids: {first[:600]}"
            assert f"Your pact: {load_pack().pacts[0].name}" not in "".join(tables[0].raw(name))
            first = first_difference(*plan, name)
            assert '"plans-revealed"' in first, f"{name} was told Przemo's plan before the reveal: {first[:600]}"
            revealed = json.loads(first)
            assert revealed[0] == "view" and set(revealed[1]["state"]["plans"]) == set(SEATS)  # all three at once
        assert tables[0].raw("p1") != tables[1].raw("p1")  # Przemo's own phone does show them
    finally:
        for table in tables:
            table.close()


def test_the_owner_corrects_a_creature_the_game_in_play_and_new_games_play_with_it_and_a_bad_value_changes_nothing(
        service: Service) -> None:
    """"Every datum no rulebook states is marked unverified and is correctable by the owner": the tablet
    sends the corrected values of one guessed creature; the service checks them with the pack's own
    loader, keeps them, hands them to the game in play and to every new game, and marks the record
    corrected; a value the loader refuses is refused whole, naming the field, and the saved data stays."""
    setup, _ = meeting_setup()
    with connect(service.url) as tablet:
        playing = ok(tablet, "new_game", {"game": "straszydla", "name": "Before", "setup": setup})["game_id"]
        current = ok(tablet, "data_get", {"game": "straszydla"})
        creature = next(c for c in current["files"]["creatures.json"]["creatures"] if not c["starter"])
        key = f"creatures.creatures.{creature['id']}"
        assert next(e for e in current["status"]["elements"] if e["key"] == key)["state"] == "guess"
        night, stack = (creature["night"] + 1) % 8, next(e for e in ("air", "earth") if e != creature["stack"])
        mine = {**current["data"], "changes": {"creatures": {"creatures": {creature["id"]: {"night": night, "stack": stack}}}},
                "confirmed": [key]}
        try:
            saved = ok(tablet, "data_save", {"game": "straszydla", "data": mine})
            assert {"game_id": playing, "name": "Before", "applied": True,
                    "why": "the next steps use the new data"} in saved["games"]  # the module's other games too
            record = next(e for e in saved["status"]["elements"] if e["key"] == key)
            assert (record["state"], record["changed"]) == ("confirmed", True)
            fresh = ok(tablet, "new_game", {"game": "straszydla", "name": "After", "setup": setup})["game_id"]
            for game_id in (playing, fresh):
                shown = next(c for c in ok(tablet, "join", {"game_id": game_id})["pack"]["creatures"]
                             if c["id"] == creature["id"])
                assert (shown["night"], shown["stack"]) == (night, stack), game_id
            broken = {**mine, "changes": {"creatures": {"creatures": {creature["id"]: {"night": -1}}}}}
            refused = call(tablet, "data_save", {"game": "straszydla", "data": broken})
            assert refused["ok"] is False and f"'{creature['id']}'.night: -1" in " ".join(refused["error"]["problems"])
            assert ok(tablet, "data_get", {"game": "straszydla"})["data"] == mine
        finally:  # the box's values again, for whatever plays on this service after
            ok(tablet, "data_save", {"game": "straszydla", "data": current["data"]})
        assert next(e for e in ok(tablet, "data_get", {"game": "straszydla"})["status"]["elements"]
                    if e["key"] == key)["changed"] is False
