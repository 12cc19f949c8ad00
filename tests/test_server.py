"""The table service over the wire: a real ``python -m companion.server``
process and real Socket.IO clients (docs/protocol.md). Every refusal is
answered with a clear error, leaves the game as it was (version and game file)
and leaves the server serving. HTTP routes are checked against the process
and, where simpler, with Flask's test client."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
import requests
import socketio
import websocket
from flask.testing import FlaskClient

from companion.config import PairingSettings
from companion.games.gamepack import PackWeb
from companion.games.registry import pack_makers
from companion.server import create_app
from service_process import (
    SETUP, TIMEOUT, Service, call, connect, drain, next_event, ok, play_socket_until, simple_answer,
)


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    running = Service(tmp_path_factory.mktemp("service") / "state").start()
    yield running
    running.stop()
    assert "Traceback" not in running.log(), running.log()  # nothing a client sent crashed a handler


@pytest.fixture
def client(service: Service) -> Iterator[socketio.SimpleClient]:
    opened = connect(service.url)
    yield opened
    opened.disconnect()


@pytest.fixture
def game(service: Service, client: socketio.SimpleClient) -> dict[str, Any]:
    """A new game, joined by ``client``: its id, first view and game file."""
    game_id = ok(client, "new_game", {"name": "Friday night", "setup": SETUP})["game_id"]
    joined = ok(client, "join", {"game_id": game_id})
    return {"game_id": game_id, "view": joined["view"], "pack": joined["pack"], "file": service.export(game_id)}


def unchanged(service: Service, game: dict[str, Any], client: socketio.SimpleClient) -> None:
    """The game is exactly as before: same version, same game file, and still playable."""
    view = ok(client, "join", {"game_id": game["game_id"]})["view"]
    assert view["version"] == game["view"]["version"]
    assert view["state"] == game["view"]["state"] and view["prompt"] == game["view"]["prompt"]
    assert service.export(game["game_id"]) == game["file"]
    assert service.health()["ok"] is True


def refused(client: socketio.SimpleClient, code: str, event: str, data: Any = None) -> str:
    reply = call(client, event, data)
    assert reply["ok"] is False, reply
    assert reply["error"]["code"] == code, reply
    message = reply["error"]["message"]
    assert isinstance(message, str) and len(message) > 5
    return message


# -- playing -----------------------------------------------------------------------------------------


def test_new_game_join_act_and_every_joined_tablet_gets_the_view(service: Service) -> None:
    tablets = [connect(service.url) for _ in range(3)]
    try:
        game_id = ok(tablets[0], "new_game", {"name": "Friday night", "setup": SETUP})["game_id"]
        for tablet in tablets:  # everyone is told about the new game
            listed = next_event(tablet, "games")["games"]
            assert game_id in [g["game_id"] for g in listed]
        joined = [ok(tablet, "join", {"game_id": game_id}) for tablet in tablets]
        view, pack = joined[0]["view"], joined[0]["pack"]
        assert view["version"] == 0 and view["name"] == "Friday night" and view["game"] == "ravenloft"
        assert view["prompt"]["key"] == "perk" and view["history"] == [] and view["can_undo"] is False
        assert {"board", "monsters", "heroes", "villagers", "items", "perks", "cards", "symbols"} <= set(pack)

        answer = simple_answer(view["prompt"])
        assert ok(tablets[1], "act", {"game_id": game_id, "version": 0, "key": "perk", "answer": answer}) == \
            {"ok": True, "version": 1}
        pushed = [next_event(tablet, "view") for tablet in tablets]
        assert all(p == pushed[0] for p in pushed)
        assert pushed[0]["version"] == 1 and pushed[0]["prompt"]["key"] == "item"
        assert pushed[0]["history"][0] == {
            "version": 1, "undo_count": 0, "label": "Sam takes the Perk card Bildrath's Mercantile",
            "moves": ["Move the Perk card Bildrath's Mercantile from the Perk deck to the Sorcerer."]}
        assert pushed[0]["effects"][0]["kind"] and pushed[0]["can_undo"] is True

        ok(tablets[2], "undo", {"game_id": game_id, "version": 1, "count": 1})
        assert [next_event(tablet, "view")["version"] for tablet in tablets] == [2, 2, 2]
        ok(tablets[0], "redo", {"game_id": game_id, "version": 2, "count": 1})
        assert all(next_event(tablet, "view")["history"][0]["version"] == 3 for tablet in tablets)
        assert all(not [e for e in drain(tablet) if e[0] == "view"] for tablet in tablets)  # one push each
    finally:
        for tablet in tablets:
            tablet.disconnect()


def test_a_stale_version_is_refused_with_the_fresh_view(service: Service, client: socketio.SimpleClient,
                                                        game: dict[str, Any]) -> None:
    game_id = game["game_id"]
    ok(client, "act", {"game_id": game_id, "version": 0, "answer": simple_answer(game["view"]["prompt"])})
    game["view"] = next_event(client, "view")
    game["file"] = service.export(game_id)
    reply = call(client, "act", {"game_id": game_id, "version": 0, "answer": "amulet"})
    assert reply["ok"] is False and reply["error"]["code"] == "stale"
    assert reply["view"]["version"] == 1 and reply["view"] == game["view"]
    unchanged(service, game, client)


def test_polling_transport_works_too(service: Service, game: dict[str, Any]) -> None:
    tablet = connect(service.url, transport="polling")
    try:
        view = ok(tablet, "join", {"game_id": game["game_id"]})["view"]
        ok(tablet, "act", {"game_id": game["game_id"], "version": view["version"],
                           "answer": simple_answer(view["prompt"])})
        assert next_event(tablet, "view")["version"] == view["version"] + 1
    finally:
        tablet.disconnect()


def test_archive_marks_a_game_archived_and_restore_brings_it_back(service: Service, client: socketio.SimpleClient,
                                                                   game: dict[str, Any]) -> None:
    def status() -> tuple[str, str]:
        by_socket = {g["game_id"]: g["status"] for g in ok(client, "games", {})["games"]}
        by_http = {g["game_id"]: g["status"] for g in requests.get(f"{service.url}/api/games",
                                                                  timeout=TIMEOUT).json()["games"]}
        return by_socket[game["game_id"]], by_http[game["game_id"]]

    assert ok(client, "archive", {"game_id": game["game_id"]}) == {"ok": True}
    assert status() == ("archived", "archived")
    assert ok(client, "restore", {"game_id": game["game_id"]}) == {"ok": True}
    assert status() == ("active", "active")


# -- refusals ------------------------------------------------------------------------------------------

MALFORMED = [
    ("act", "not an object", "send a JSON object"),
    ("act", 17, "send a JSON object"),
    ("act", ["game_id", "x"], "send a JSON object"),
    ("join", {}, "'game_id' must be a non-empty text"),
    ("join", {"game_id": 12}, "'game_id' must be a non-empty text"),
    ("act", {"version": 0, "answer": "x"}, "'game_id'"),
    ("act", {"game_id": "{game}", "answer": "x"}, "'version' must be a whole number"),
    ("act", {"game_id": "{game}", "version": "0", "answer": "x"}, "'version' must be a whole number"),
    ("act", {"game_id": "{game}", "version": True, "answer": "x"}, "'version' must be a whole number"),
    ("act", {"game_id": "{game}", "version": -1, "answer": "x"}, "'version' must be a whole number"),
    ("act", {"game_id": "{game}", "version": 0}, "'answer' is missing"),
    ("act", {"game_id": "{game}", "version": 0, "key": 5, "answer": "x"}, "'key' must be"),
    ("undo", {"game_id": "{game}", "version": 0}, "'count' must be a whole number of at least 1"),
    ("undo", {"game_id": "{game}", "version": 0, "count": 0}, "'count' must be a whole number of at least 1"),
    ("redo", {"game_id": "{game}", "version": 0, "count": 1.5}, "'count'"),
    ("new_game", {"name": "x"}, "'setup' must be an object"),
    ("new_game", {"name": ["x"], "setup": SETUP}, "'name' must be a text"),
    ("new_game", {"game": "monopoly", "setup": SETUP}, "does not know the game 'monopoly'"),
    ("new_game", {"game": 7, "setup": SETUP}, "'game' must be a text"),
]


@pytest.mark.parametrize("event, data, words", MALFORMED, ids=[f"{e}-{i}" for i, (e, _, _) in enumerate(MALFORMED)])
def test_a_malformed_message_is_a_bad_request(service: Service, client: socketio.SimpleClient,
                                              game: dict[str, Any], event: str, data: Any, words: str) -> None:
    if isinstance(data, dict):
        data = {k: game["game_id"] if v == "{game}" else v for k, v in data.items()}
    assert words in refused(client, "bad-request", event, data)
    unchanged(service, game, client)


def test_binary_data_and_extra_arguments_are_bad_requests(service: Service, client: socketio.SimpleClient,
                                                          game: dict[str, Any]) -> None:
    data = {"game_id": game["game_id"], "version": 0, "answer": b"\x00\x01"}
    assert "binary" in refused(client, "bad-request", "act", data)
    reply = client.client.call("act", ({"game_id": game["game_id"]}, "extra"), timeout=TIMEOUT)
    assert reply["ok"] is False and reply["error"]["code"] == "bad-request"
    unchanged(service, game, client)


def test_answers_out_of_turn_are_illegal(service: Service, client: socketio.SimpleClient,
                                         game: dict[str, Any]) -> None:
    """Asked for a Perk card: an answer for another prompt, or an action, is refused."""
    base = {"game_id": game["game_id"], "version": 0}
    message = refused(client, "illegal", "act", {**base, "key": "monster-card", "answer": "ambush"})
    assert "'monster-card'" in message and "'perk'" in message
    refused(client, "illegal", "act", {**base, "answer": {"action": "move", "to": "krezk"}})
    refused(client, "illegal", "act", {**base, "key": "hero-action", "answer": {"action": "end"}})
    refused(client, "illegal", "act", {**base, "answer": "no-such-perk"})
    assert "cannot undo 1" in refused(client, "illegal", "undo", {**base, "count": 1})
    refused(client, "illegal", "redo", {**base, "count": 1})
    refused(client, "illegal", "new_game", {"setup": {"monsters": ["nobody"], "heroes": ["sorcerer"]}})
    unchanged(service, game, client)


@pytest.mark.parametrize("event", ["join", "act", "undo", "redo", "archive"])
def test_an_unknown_game_is_named(client: socketio.SimpleClient, event: str) -> None:
    message = refused(client, "unknown-game", event, {"game_id": "no-such-game", "version": 0, "count": 1,
                                                      "answer": "x"})
    assert "no-such-game" in message


def test_an_unknown_event_is_answered(client: socketio.SimpleClient) -> None:
    message = refused(client, "bad-request", "make_coffee", {"game_id": "x"})
    assert "make_coffee" in message and "act" in message


def test_garbage_frames_do_not_stop_the_server(tmp_path: Path) -> None:
    """Frames no Socket.IO client sends (bad JSON, an empty event, nesting too deep
    to decode): the library cannot decode them, so no answer is possible; the
    server must simply go on serving. Its own service: the library logs these."""
    own = Service(tmp_path / "state").start()
    try:
        raw = websocket.create_connection(own.url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket",
                                          timeout=TIMEOUT)
        raw.recv()  # engine.io open
        raw.send("40")  # Socket.IO connect
        assert raw.recv().startswith("40")
        for frame in ['421["act",{"game_id": ', "421[]", "421" + "[" * 50_000 + "]" * 50_000, "4x", "9", "42[5]"]:
            raw.send(frame)
        raw.close()
        fresh = connect(own.url)
        try:
            assert ok(fresh, "games", {})["games"] == []
        finally:
            fresh.disconnect()
        assert own.alive() and own.health()["ok"] is True
    finally:
        own.stop()


def test_a_message_over_64_kib_is_refused_clearly(service: Service, client: socketio.SimpleClient,
                                                  game: dict[str, Any]) -> None:
    data = {"game_id": game["game_id"], "version": 0, "answer": "x" * (100 * 1024)}
    assert "larger than 64 KiB" in refused(client, "bad-request", "act", data)
    unchanged(service, game, client)


def test_a_message_over_the_engine_io_limit_does_not_stop_the_server(service: Service,
                                                                     game: dict[str, Any]) -> None:
    """Over 1 MiB engine.io may drop the connection: fine, as long as the game is
    unchanged and a new tablet is served."""
    big = socketio.Client(reconnection=False)
    settled = threading.Event()
    replies: list[Any] = []
    big.on("disconnect", lambda *_: settled.set())
    big.connect(service.url, transports=["websocket"], wait_timeout=TIMEOUT)
    socket = big.eio.ws  # the client library does not close it after the server drops it
    data = {"game_id": game["game_id"], "version": 0, "answer": "x" * (2 * 1024 * 1024)}
    big.emit("act", data, callback=lambda reply: (replies.append(reply), settled.set()))
    assert settled.wait(TIMEOUT), "neither an answer nor a disconnect"
    if replies:
        assert replies[0]["ok"] is False and replies[0]["error"]["code"] == "bad-request"
    big.disconnect()
    socket.shutdown()

    fresh = connect(service.url)
    try:
        unchanged(service, game, fresh)
    finally:
        fresh.disconnect()


# -- HTTP, against the process ---------------------------------------------------------------------


def test_health_and_the_game_list(service: Service, game: dict[str, Any]) -> None:
    health = service.health()
    assert health["ok"] is True and isinstance(health["version"], str)
    listed = requests.get(f"{service.url}/api/games", timeout=TIMEOUT).json()["games"]
    mine = next(g for g in listed if g["game_id"] == game["game_id"])
    assert mine["name"] == "Friday night" and mine["status"] == "active" and mine["version"] == 0


def test_export_then_import_gives_the_same_game(service: Service, client: socketio.SimpleClient,
                                                game: dict[str, Any]) -> None:
    view = play_socket_until(client, game["view"], "hero-action")
    response = requests.get(f"{service.url}/api/games/{game['game_id']}/export", timeout=TIMEOUT)
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    exported = response.json()
    assert exported["format"] == "companion-game" and len(exported["journal"]) == view["version"]

    reply = requests.post(f"{service.url}/api/games/import", data=response.content, timeout=TIMEOUT).json()
    assert reply["ok"] is True
    copy = ok(client, "join", {"game_id": reply["game_id"]})["view"]
    assert {k: v for k, v in copy.items() if k != "game_id"} == {k: v for k, v in view.items() if k != "game_id"}
    assert service.export(reply["game_id"]) == exported


@pytest.mark.parametrize("body, words", [
    (b"not json at all", "send the game file as JSON"),
    (b'{"format": "companion-game", "version": 1, "game": "ravenloft", "origin": {}, "journal": [{"kind": "x"}]}',
     "journal entry 1"),
    (b'{"format": "companion-game", "version": 1, "game": "ravenloft", "name": "x", '
     b'"origin": {"setup": {"monsters": ["baba-lysaga"], "heroes": ["sorcerer"]}}, '
     b'"journal": [{"kind": "undo", "count": 1}]}', "asks to undo 1 but there are only 0"),
])
def test_a_bad_import_is_refused_and_nothing_is_kept(service: Service, body: bytes, words: str) -> None:
    before = requests.get(f"{service.url}/api/games", timeout=TIMEOUT).json()
    response = requests.post(f"{service.url}/api/games/import", data=body, timeout=TIMEOUT)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad-request" and words in response.json()["error"]["message"]
    assert requests.get(f"{service.url}/api/games", timeout=TIMEOUT).json() == before


def test_a_body_over_1_mib_is_refused_with_413(service: Service) -> None:
    body = json.dumps({"format": "companion-game", "padding": "x" * (1024 * 1024 + 10)})
    response = requests.post(f"{service.url}/api/games/import", data=body,
                             headers={"Content-Type": "application/json"}, timeout=TIMEOUT)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "bad-request"
    assert service.health()["ok"] is True


def test_an_unknown_export_is_404(service: Service) -> None:
    response = requests.get(f"{service.url}/api/games/nope/export", timeout=TIMEOUT)
    assert response.status_code == 404 and response.json()["error"]["code"] == "unknown-game"


# -- HTTP, with Flask's test client ------------------------------------------------------------------


@pytest.fixture
def http(tmp_path: Path) -> Iterator[FlaskClient]:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>companion</title>")
    app = create_app({"STATE_DIR": tmp_path / "state", "WEB_DIR": web, "TESTING": True})
    yield app.test_client()
    app.extensions["companion"].close()


def test_the_tablet_app_is_served_and_api_paths_are_not_files(http: FlaskClient) -> None:
    with http.get("/") as page:  # a file response: closed, or it leaks the open file
        assert page.status_code == 200 and b"companion" in page.data
    assert http.get("/api/nothing").status_code == 404
    assert http.get("/../secret").status_code == 404


def _families(webs: dict[str, PackWeb]) -> dict[Path, list[str]]:
    """The packs that share tablet code, by the family folder they declare."""
    families: dict[Path, list[str]] = {}
    for pack_id, web in webs.items():
        if web.family is not None:
            families.setdefault(web.family, []).append(pack_id)
    return families


def test_a_familys_shared_tablet_code_is_served_for_each_of_its_packs_and_nothing_beside_it(http: FlaskClient) -> None:
    """Packs of one family import the same files from /packs/<id>/family/, each under its own
    address; a name that climbs out of the folder is refused, for a pack with no family too."""
    webs = {pack_id: make().web() for pack_id, make in pack_makers().items()}
    families = _families(webs)
    assert any(len(packs) >= 2 for packs in families.values()), families
    for folder, pack_ids in families.items():
        shared = sorted(p.name for p in folder.glob("*.js"))
        assert shared, folder
        for pack_id in pack_ids:
            for name in shared:
                with http.get(f"/packs/{pack_id}/family/{name}") as served:
                    assert served.status_code == 200 and served.data == (folder / name).read_bytes()
                    assert "javascript" in served.content_type
            own = webs[pack_id]
            for climbing in ("..%2fpack.js", "%2e%2e/%2e%2e/gamepack.py", "..%2f..%2fgamepack.py", "%2fetc%2fpasswd",
                             "..%5c..%5cgamepack.py"):
                assert http.get(f"/packs/{pack_id}/family/{climbing}").status_code == 404, climbing
            assert http.get(f"/packs/{pack_id}/%2e%2e/gamepack.py").status_code == 404
            with http.get(f"/packs/{pack_id}/{own.module}") as module:  # its own module is still its own
                assert module.status_code == 200 and module.data == (own.folder / own.module).read_bytes()
    lone = [pack_id for pack_id, web in webs.items() if web.family is None]
    assert lone and all(http.get(f"/packs/{pack_id}/family/names.js").status_code == 404 for pack_id in lone)
    assert http.get("/packs/no-such-game/family/names.js").status_code == 404


def test_import_through_the_test_client(http: FlaskClient) -> None:
    assert http.get("/api/games").get_json() == {"games": []}
    game_file = {"format": "companion-game", "version": 1, "game": "ravenloft", "name": "Imported",
                 "origin": {"setup": SETUP},
                 "journal": [{"kind": "input", "entry": {"key": "perk", "answer": "tatyana"}}]}
    reply = http.post("/api/games/import", json=game_file).get_json()
    assert reply["ok"] is True
    listed = http.get("/api/games").get_json()["games"]
    assert [(g["game_id"], g["name"], g["version"]) for g in listed] == [(reply["game_id"], "Imported", 1)]
    assert http.get(f"/api/games/{reply['game_id']}/export").get_json()["journal"] == game_file["journal"]
    assert http.post("/api/games/import", json=[1, 2]).status_code == 400
    too_big = http.post("/api/games/import", data=b"x" * (1024 * 1024 + 1), content_type="application/json")
    assert too_big.status_code == 413 and too_big.get_json()["error"]["code"] == "bad-request"


def test_a_disk_that_refuses_is_a_storage_error_over_socket_io(tmp_path: Path) -> None:
    """Flask-SocketIO's test client, in-process, so the store can be made to refuse writes."""
    # The in-process client has no address, so it cannot count as the box's own browser: pairing off.
    app = create_app({"STATE_DIR": tmp_path / "state", "TESTING": True, "PAIRING": PairingSettings(required=False)})
    services = app.extensions["companion"]
    tablet = services.socketio.test_client(app)
    try:
        game_id = tablet.emit("new_game", {"setup": SETUP}, callback=True)["game_id"]
        view = tablet.emit("join", {"game_id": game_id}, callback=True)["view"]
        services.store._db.execute("PRAGMA query_only = ON")  # writes fail as on a read-only file
        reply = tablet.emit("act", {"game_id": game_id, "version": 0, "answer": simple_answer(view["prompt"])},
                            callback=True)
        assert reply["ok"] is False and reply["error"]["code"] == "storage"
        assert "nothing changed" in reply["error"]["message"]
        assert not [event for event in tablet.get_received() if event["name"] == "view"]
        services.store._db.execute("PRAGMA query_only = OFF")
        assert tablet.emit("join", {"game_id": game_id}, callback=True)["view"] == view
    finally:
        tablet.disconnect()
        services.close()


def test_pack_views_are_kept_a_few_at_once_the_least_lately_used_let_go() -> None:
    from companion.server.app import KeptFew

    built: list[str] = []
    kept: KeptFew[str] = KeptFew(3)

    def builder(key: str) -> Callable[[], str]:
        def build() -> str:
            built.append(key)
            return key.upper()
        return build

    for key in ["a", "b", "c", "a", "d"]:  # "a" used again: "b" is the least lately used when "d" comes
        kept.get(key, builder(key))
    assert len(kept) == 3
    assert built == ["a", "b", "c", "d"]
    assert kept.get("a", lambda: "rebuilt") == "A" and kept.get("b", lambda: "rebuilt") == "rebuilt"
