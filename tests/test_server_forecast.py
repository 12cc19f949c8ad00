"""The threat forecast over the wire (docs/protocol.md, "Forecast"): a real service process and
real Socket.IO clients. During a Hero Phase every tablet of the game gets the forecast of the
version it shows, worked out in the background, and the LEDs glow under the threatened places
until the Monster Phase starts; a what-if is answered to the tablet that asked alone; a stale or
malformed what-if is refused with a clear error; the game never changes.

The game starts from a Ravenloft position with two Monster cards left in the deck, so each
forecast takes a few hundredths of a second. What the service sends is checked against the
pack's own forecaster run here on the same position: the wire must carry the engine's numbers."""

from __future__ import annotations

import base64
from typing import Any, Iterator

import pytest
import requests
import socketio

from companion.games.gamepack import View
from hardware.leds import shipped_layout
from hardware.leds.palette import VERMILLION
from hardware.leds.strip import pixel
from leds_fixtures import SHAPE, looks_like
from forecast_fixtures import AWAY, POSITION, expected
from service_process import TIMEOUT, Service, call, connect, drain, next_event, ok

def same_numbers(sent: View, wanted: View) -> bool:
    """Equal but for how long it took to work out (and so how many random plays its first estimate had)."""
    def numbers(found: View) -> View:
        return {k: v for k, v in found.items() if k not in ("milliseconds", "replays")}
    return numbers(sent) == numbers(wanted)


def exact_forecast(client: socketio.SimpleClient, first: dict[str, Any] | None = None) -> dict[str, Any]:
    """The forecast pushes of one version, better and better, up to the exact one: an estimate
    comes first (marked so, with its error)."""
    pushed = first or next_event(client, "forecast")
    while not pushed["forecast"]["exact"]:
        assert pushed["forecast"]["estimated"] and pushed["forecast"]["estimate_error"] > 0
        following = next_event(client, "forecast")
        assert following["version"] == pushed["version"]
        pushed = following
    return pushed


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    running = Service(tmp_path_factory.mktemp("forecast") / "state").start()
    yield running
    running.stop()
    assert "Traceback" not in running.log(), running.log()


@pytest.fixture
def game_id(service: Service) -> str:
    game_file = {"format": "companion-game", "version": 1, "game": "ravenloft", "name": "Two cards left",
                 "origin": {"position": POSITION}, "journal": []}
    reply = requests.post(f"{service.url}/api/games/import", json=game_file, timeout=TIMEOUT).json()
    assert reply["ok"], reply
    return str(reply["game_id"])


def joined_forecast(client: socketio.SimpleClient, game_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Join, then the forecast of the version joined: in the reply if ready, else as it is pushed."""
    reply = ok(client, "join", {"game_id": game_id})
    return reply["view"], exact_forecast(client, reply["forecast"])


def test_the_forecast_is_pushed_to_every_tablet_of_the_game_during_a_hero_phase(service: Service, game_id: str) -> None:
    first, second = connect(service.url), connect(service.url)
    try:
        view, pushed = joined_forecast(first, game_id)
        assert view["prompt"]["key"] == "hero-action"
        assert pushed["game_id"] == game_id and pushed["version"] == view["version"] == 0
        assert same_numbers(pushed["forecast"], expected())
        assert 0 < pushed["forecast"]["glow"]["vallaki"] <= 1  # the Carrionette is there, and Sam
        again = ok(second, "join", {"game_id": game_id})
        assert same_numbers(again["forecast"]["forecast"], expected())  # kept: not worked out again

        ok(first, "act", {"game_id": game_id, "version": 0, "key": "hero-action", "answer": AWAY})
        moved = [exact_forecast(tablet) for tablet in (first, second)]  # the new version's, to both
        assert all(m["version"] == 1 and same_numbers(m["forecast"], expected(AWAY)) for m in moved)
    finally:
        first.disconnect()
        second.disconnect()


def test_no_forecast_once_the_monster_phase_starts(service: Service, game_id: str) -> None:
    client = connect(service.url)
    try:
        joined_forecast(client, game_id)
        ok(client, "act", {"game_id": game_id, "version": 0, "key": "hero-action", "answer": {"action": "end"}})
        view = next_event(client, "view")
        assert view["state"]["phase"] == "monster"
        assert not [e for e in drain(client) if e[0] == "forecast"]
        assert ok(client, "join", {"game_id": game_id})["forecast"] is None
        message = refused(client, "illegal", {"game_id": game_id, "version": view["version"], "action": AWAY})
        assert "Hero Phase" in message
    finally:
        client.disconnect()


def refused(client: socketio.SimpleClient, code: str, data: Any) -> str:
    reply = call(client, "forecast_what_if", data)
    assert reply["ok"] is False and reply["error"]["code"] == code, reply
    return str(reply["error"]["message"])


def test_a_what_if_is_answered_to_the_asker_only_and_changes_nothing(service: Service, game_id: str) -> None:
    asker, watcher = connect(service.url), connect(service.url)
    try:
        joined_forecast(asker, game_id)
        joined_forecast(watcher, game_id)
        before = service.export(game_id)
        state = ok(asker, "join", {"game_id": game_id})["view"]
        reply = ok(asker, "forecast_what_if", {"game_id": game_id, "version": 0, "action": AWAY})
        assert reply["version"] == 0 and reply["action"] == AWAY
        assert same_numbers(reply["forecast"], expected(AWAY))
        assert not same_numbers(reply["forecast"], expected())  # the move makes a difference: it is the what-if's
        assert not [e for e in drain(watcher) if e[0] in ("forecast", "view")]  # the watcher hears nothing of it
        assert service.export(game_id) == before
        after = ok(asker, "join", {"game_id": game_id})["view"]
        assert after["version"] == 0 and after["state"] == state["state"] and after["prompt"] == state["prompt"]
    finally:
        asker.disconnect()
        watcher.disconnect()


@pytest.mark.parametrize(("data", "code", "words"), [
    ({"version": 0, "action": "move to lake-zarovich"}, "bad-request", "'action' must be an object"),
    ({"version": 0}, "bad-request", "'action' must be an object"),
    ({"version": "0", "action": AWAY}, "bad-request", "'version' must be a whole number"),
    ({"version": 0, "action": {"action": "fly", "to": "krezk"}}, "illegal", "no what-if for this action"),
    ({"version": 0, "action": {"action": "move", "to": "nowhere-at-all"}}, "illegal", "no what-if for this action"),
    ({"version": 3, "action": AWAY}, "stale", "3"),
])
def test_a_stale_or_malformed_what_if_is_refused_clearly_and_changes_nothing(
        service: Service, game_id: str, data: dict[str, Any], code: str, words: str) -> None:
    client = connect(service.url)
    try:
        view = ok(client, "join", {"game_id": game_id})["view"]
        before = service.export(game_id)
        reply = call(client, "forecast_what_if", {"game_id": game_id, **data})
        assert reply["ok"] is False and reply["error"]["code"] == code, reply
        assert words in reply["error"]["message"]
        if code == "stale":
            assert reply["view"]["version"] == 0  # the fresh view comes with it, as for every stale request
        assert service.export(game_id) == before
        assert ok(client, "join", {"game_id": game_id})["view"]["version"] == view["version"] == 0
    finally:
        client.disconnect()


def glows_at(event: dict[str, Any], place: str) -> bool:
    """Whether a ``leds`` frame shows the threat glow under ``place`` (the shipped layout)."""
    frame = base64.b64decode(event["frame"])
    return looks_like(pixel(frame, shipped_layout(SHAPE).location(place)[0]), VERMILLION)


def next_frame_where(client: socketio.SimpleClient, game_id: str, glowing: bool, place: str) -> None:
    for _ in range(300):
        event = next_event(client, "leds")
        if event["game_id"] == game_id and glows_at(event, place) == glowing:
            return
    raise AssertionError(f"no LED frame with {place} {'glowing' if glowing else 'dark'}")


def test_the_leds_glow_under_the_threat_until_the_monster_phase_starts(service: Service, game_id: str) -> None:
    client = connect(service.url)
    try:
        joined = ok(client, "join", {"game_id": game_id})
        assert joined["on_board"] is True and joined["leds"] is not None
        quiet = [p for p in SHAPE.locations if p not in expected()["glow"]]
        next_frame_where(client, game_id, True, "svalich-woods")  # Baba Lysaga ends there: no marker yet
        ok(client, "act", {"game_id": game_id, "version": 0, "key": "hero-action", "answer": {"action": "end"}})
        next_frame_where(client, game_id, False, "svalich-woods")
        assert quiet and not any(glows_at(e[1], p) for e in drain(client) if e[0] == "leds" for p in quiet)
    finally:
        client.disconnect()
