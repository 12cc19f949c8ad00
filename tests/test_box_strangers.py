"""A stranger on the box's network, tried against the real service process with
real clients, each from a loopback address of its own (the owner's tablets
127.0.0.3 and .5, the stranger 127.0.0.4), with the box's trust in its own
loopback turned off:

* a stranger who opens a game only watches it: the LEDs, buttons and camera
  stay on the game the owner's paired tablet opened, and an archived game
  never takes the board;
* a stranger cannot lock the owner out of pairing: wrong guesses use up only
  the stranger's own tries and attempts, and the owner's new tablet still
  pairs with the code; a stranger never sees who else waits for PAIR;
* a page that reached the box under a foreign name (DNS rebinding) is refused,
  for HTTP and for Socket.IO, and every answer carries the security headers.
"""

from __future__ import annotations

import json
from typing import Any, Iterator

import pytest
import requests
import socketio

from service_process import (SETUP, STRICT, Service, TIMEOUT, call, configured, connect, console_code, next_event, ok,
                             simple_answer)

OWNER, STRANGER, OWNERS_NEW = "127.0.0.3", "127.0.0.4", "127.0.0.5"


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    service = configured(tmp_path_factory.mktemp("strangers"), "box", STRICT)
    yield service
    service.stop()


@pytest.fixture(scope="module")
def token(box: Service) -> str:
    with connect(box.url, source=OWNER) as tablet:
        found: str = ok(tablet, "pair_code", {"name": "Owner", "code": console_code(box)})["token"]
        return found


def board(box: Service) -> dict[str, Any]:
    found: dict[str, Any] = box.health()["parts"]["board"]
    return found


def test_a_strangers_join_leaves_the_leds_and_buttons_on_the_owners_game(box: Service, token: str) -> None:
    with connect(box.url, source=OWNER, auth={"token": token}) as owner:
        mine = ok(owner, "new_game", {"setup": SETUP, "name": "Owner's game"})["game_id"]
        other = ok(owner, "new_game", {"setup": SETUP, "name": "Another game"})["game_id"]
        old = ok(owner, "new_game", {"setup": SETUP, "name": "An old game"})["game_id"]
        ok(owner, "archive", {"game_id": old})
        joined = ok(owner, "join", {"game_id": mine})
        assert joined["on_board"] is True and board(box)["game_id"] == mine and board(box)["leds"] == mine

        with connect(box.url, source=STRANGER) as stranger:
            watched = ok(stranger, "join", {"game_id": other})
            assert watched["on_board"] is False and watched["view"]["game_id"] == other
            assert watched["leds"] is not None  # the overlay, to watch the LEDs, without moving them
            assert board(box)["game_id"] == mine and board(box)["leds"] == mine
            assert call(stranger, "act", {"game_id": other, "version": 0, "answer": "x"})["error"]["code"] == \
                "not-paired"
            view = joined["view"]
            ok(owner, "act", {"game_id": mine, "version": view["version"], "answer": simple_answer(view["prompt"])})
            frame = next_event(stranger, "leds", timeout=TIMEOUT)  # the owner's change lights the board
            assert frame["game_id"] == mine

        archived = ok(owner, "join", {"game_id": old})  # even the owner: an archived game is only looked at
        assert archived["on_board"] is False and board(box)["game_id"] == mine
        assert ok(owner, "join", {"game_id": other})["on_board"] is True and board(box)["game_id"] == other


def test_a_stranger_cannot_lock_the_owner_out_of_pairing(box: Service, token: str) -> None:
    with connect(box.url, source=OWNER, auth={"token": token}) as owner:
        code = str(ok(owner, "pair_show_code")["code"])
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    with connect(box.url, source=STRANGER) as stranger:
        assert ok(stranger, "pair_request", {"name": "Stranger"})["presses"] == 1  # one attempt of five
        codes = [call(stranger, "pair_code", {"code": wrong})["error"]["code"] for _ in range(6)]
        assert codes == ["wrong-code"] * 4 + ["rate-limited"] * 2, codes
        assert call(stranger, "pair_code", {"code": code})["error"]["code"] == "rate-limited"  # even right
        with connect(box.url, source=OWNERS_NEW) as new:
            assert ok(new, "pair_status")["request"] is None  # the stranger's request is not shown
            reply = ok(new, "pair_code", {"name": "Owner's phone", "code": code})
            assert reply["device"]["name"] == "Owner's phone"
            assert ok(new, "pair_request", {"name": "x"})["presses"] == 2  # the stranger holds number 1
    with connect(box.url, source=OWNER, auth={"token": token}) as owner:
        names = [d["name"] for d in ok(owner, "pair_devices")["devices"]]
        assert "Owner's phone" in names and "Stranger" not in names


def test_a_foreign_host_is_refused_and_every_answer_carries_the_security_headers(box: Service) -> None:
    """A page of evil.example that made its name resolve to the box: refused before anything,
    for HTTP and for Socket.IO's handshake (as a rebound page's own requests would be)."""
    rebound = {"Host": "evil.example:8000"}
    for path in ("/", "/api/games", "/api/health", "/socket.io/?EIO=4&transport=polling"):
        answer = requests.get(box.url + path, headers=rebound, timeout=TIMEOUT)
        assert answer.status_code == 421 and answer.json()["error"]["code"] == "bad-host", path
    assert requests.post(box.url + "/api/games/import", headers=rebound, json={}, timeout=TIMEOUT).status_code == 421
    with pytest.raises(socketio.exceptions.ConnectionError):
        connect(box.url, transport="polling", headers=rebound)
    port = box.url.rsplit(":", 1)[1]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LocalHost.:{port}", "[::1]"):
        for path in ("/", "/api/packs", "/js/main.js"):
            answer = requests.get(box.url + path, headers={"Host": host}, timeout=TIMEOUT)
            assert answer.status_code == 200, (host, path)
            assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
            assert answer.headers["Referrer-Policy"] == "no-referrer" and answer.headers["X-Frame-Options"] == "DENY"


FRAMES = {  # raw Socket.IO frames a stranger might send, and what the answer must say
    '422["games",{': ("ack", 2, "cannot be read"),
    '42["games",{': ("event", None, "cannot be read"),
    '423' + "[" * 5000 + "]" * 5000: ("ack", 3, "nested too deeply"),
    '424' + '["act",' + '{"a":' * 100 + '1' + '}' * 100 + ']': ("ack", 4, "more than 64 levels"),
    '42x': ("event", None, "cannot be read"),
    '47': ("event", None, "not accepted"),
    '425{"a":1}': ("ack", 5, "an event must be a list"),
    '426[]': ("ack", 6, "an event must be a list"),
    '427[5]': ("ack", 7, "an event must be a list"),
    '451-["games",{"_placeholder":true,"num":0}]': ("event", None, "binary attachments"),
    '451-9["act",{"_placeholder":true,"num":0}]': ("ack", 9, "binary attachments"),
}


def raw_socket(box: Service) -> Any:
    import websocket

    ws = websocket.create_connection(box.url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket",
                                     timeout=TIMEOUT)
    assert ws.recv().startswith("0{")
    ws.send("40")
    assert ws.recv().startswith("40")
    return ws


def test_every_malformed_frame_gets_an_answer_and_a_flood_of_them_closes_the_connection(box: Service) -> None:
    ws = raw_socket(box)
    try:
        for frame, (kind, ack, words) in FRAMES.items():
            ws.send(frame)
            answer = ws.recv()
            if kind == "ack":
                assert answer.startswith(f"43{ack}["), (frame[:20], answer)
                reply = json.loads(answer[len(f"43{ack}"):])[0]
            else:
                name, reply = json.loads(answer[2:])
                assert answer.startswith("42[") and name == "error", (frame[:20], answer)
            assert reply["ok"] is False and reply["error"]["code"] == "bad-request", answer
            assert words in reply["error"]["message"], (frame[:20], answer)
            if "_placeholder" in frame:
                ws.send_binary(b"\x00\x01")  # its attachment: part of the message answered, not another
        ws.send('428["pair_status",{}]')  # a good one is still answered as ever
        assert json.loads(ws.recv()[3:])[0]["ok"] is True
        for _ in range(30):
            ws.send('42["games",{')
            answer = ws.recv()
            if "closed after too many" in answer:
                break
        else:
            raise AssertionError("a connection sending malformed frames without end was never closed")
        assert ws.recv().startswith(("41", "1"))  # then the server closes it
    finally:
        ws.close()
    errors = box.health()["errors"]
    assert all(e["level"] != "ERROR" for e in errors), errors  # noise, not errors
    assert len(errors) <= 50
