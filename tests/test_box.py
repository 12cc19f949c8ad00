"""The service as an appliance, tested as it runs: real service processes, real
Socket.IO clients over TCP, real HTTP.

Pairing (issue: the Pi appliance): unpaired tablets may watch but not change,
paired ones may, a revoked token is refused at its next change, guessing codes
is throttled, a foreign web page can neither open the Socket.IO connection nor
post to the box. The PAIR button is pressed through gpiozero's MockFactory on an
in-process server. Also: the configuration file, safe mode, READY and watchdog
pings on a real datagram socket, diagnostics and one-file backup and restore.
"""

from __future__ import annotations

import io
import json
import socket
import subprocess
import sys
import threading
import zipfile
from pathlib import Path
from typing import Any, Iterator

import pytest
import requests
import socketio

from companion.appliance.safemode import MARKER
from companion.config import PairingSettings
from companion.server import create_app
from companion.server.app import services_of
from polling import wait_for
from service_process import (ROOT, SETUP, STRICT, Service, TIMEOUT, call, configured, connect, console_code, next_event, ok,
                             simple_answer)

FOREIGN = "http://evil.example"


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """Pairing required, the box's own address not trusted: every client here is a stranger until paired."""
    service = configured(tmp_path_factory.mktemp("strict"), "box", STRICT)
    yield service
    service.stop()


@pytest.fixture(scope="module")
def owner(strict: Service) -> dict[str, Any]:
    """The first tablet, paired with the code the service printed for the console."""
    tablet = connect(strict.url)
    reply = ok(tablet, "pair_code", {"name": "Owner's tablet", "code": console_code(strict)})
    tablet.disconnect()
    return reply


def paired_client(service: Service, token: str) -> socketio.SimpleClient:
    return connect(service.url, auth={"token": token})


def new_game(client: socketio.SimpleClient) -> dict[str, Any]:
    return call(client, "new_game", {"setup": SETUP, "name": "Pairing test"})


def test_an_unpaired_tablet_can_watch_but_not_change(strict: Service, owner: dict[str, Any]) -> None:
    with paired_client(strict, owner["token"]) as paired:
        game_id = ok(paired, "new_game", {"setup": SETUP})["game_id"]
    with connect(strict.url) as stranger:
        refused = new_game(stranger)
        assert refused["error"]["code"] == "not-paired" and "watch" in refused["error"]["message"]
        view = ok(stranger, "join", {"game_id": game_id})["view"]
        for event, data in [("act", {"game_id": game_id, "version": view["version"], "answer": 1}),
                            ("undo", {"game_id": game_id, "version": view["version"]}),
                            ("archive", {"game_id": game_id}), ("leds_calibration_start", {}),
                            ("dice_setup_start", {})]:
            assert call(stranger, event, data)["error"]["code"] == "not-paired", event
        assert ok(stranger, "join", {"game_id": game_id})["view"]["version"] == view["version"]
        status = ok(stranger, "pair_status")
        assert status["paired"] is False and status["required"] is True and status["trusted"] is False
        assert status["pair_button"] is False  # no PAIR button wired: the tablet offers codes only


def test_a_paired_tablet_changes_games_and_a_wrong_token_does_not(strict: Service, owner: dict[str, Any]) -> None:
    with paired_client(strict, owner["token"]) as paired:
        assert ok(paired, "pair_status")["device"]["name"] == "Owner's tablet"
        game_id = ok(paired, "new_game", {"setup": SETUP})["game_id"]
        view = ok(paired, "join", {"game_id": game_id})["view"]
        assert ok(paired, "act", {"game_id": game_id, "version": view["version"], "key": view["prompt"]["key"],
                                  "answer": simple_answer(view["prompt"])})["version"] == view["version"] + 1
    forged = owner["token"].split(".")[0] + ".not-the-secret"
    with paired_client(strict, forged) as forger:
        assert new_game(forger)["error"]["code"] == "not-paired"


def test_a_code_pairs_a_second_tablet_and_revoking_it_refuses_its_next_change(strict: Service,
                                                                              owner: dict[str, Any]) -> None:
    with paired_client(strict, owner["token"]) as first, connect(strict.url) as second:
        shown = ok(first, "pair_show_code")
        assert len(shown["code"]) == 6 and shown["seconds"] > 0
        grant = ok(second, "pair_code", {"name": "Kitchen", "code": shown["code"]})
        assert "token" in grant and ok(second, "new_game", {"setup": SETUP})["game_id"]  # paired at once
        devices = {d["name"]: d["id"] for d in ok(first, "pair_devices")["devices"]}
        assert set(devices) >= {"Owner's tablet", "Kitchen"}
        assert ok(first, "pair_revoke", {"device_id": devices["Kitchen"]})["revoked"]["name"] == "Kitchen"
        assert new_game(second)["error"]["code"] == "not-paired"
        with paired_client(strict, grant["token"]) as again:  # the token stays dead on a new connection
            assert new_game(again)["error"]["code"] == "not-paired"
        assert call(second, "pair_devices")["error"]["code"] == "not-paired"


def test_http_writes_need_a_token_and_the_box_s_own_origin(strict: Service, owner: dict[str, Any]) -> None:
    with paired_client(strict, owner["token"]) as paired:
        game_id = ok(paired, "new_game", {"setup": SETUP})["game_id"]
    export = f"{strict.url}/api/games/{game_id}/export"
    unpaired = requests.get(export, timeout=TIMEOUT)  # a game's file is no stranger's
    assert unpaired.status_code == 403 and unpaired.json()["error"]["code"] == "not-paired"
    header = {"X-Companion-Token": owner["token"]}
    game_file = requests.get(export, headers=header, timeout=TIMEOUT).json()
    url = f"{strict.url}/api/games/import"
    bare = requests.post(url, json=game_file, timeout=TIMEOUT)
    assert bare.status_code == 403 and bare.json()["error"]["code"] == "not-paired"
    foreign = requests.post(url, json=game_file, headers={**header, "Origin": FOREIGN}, timeout=TIMEOUT)
    assert foreign.status_code == 403 and foreign.json()["error"]["code"] == "bad-origin"
    assert requests.post(url, json=game_file, headers={**header, "Origin": strict.url}, timeout=TIMEOUT).json()["ok"]
    assert requests.get(f"{strict.url}/api/diagnostics", timeout=TIMEOUT).status_code == 403
    bundle = requests.get(f"{strict.url}/api/diagnostics", headers=header, timeout=TIMEOUT)
    with zipfile.ZipFile(io.BytesIO(bundle.content)) as archive:
        assert {"health.json", "errors.log", "config.toml"} <= set(archive.namelist())
        assert "trust_loopback = false" in archive.read("config.toml").decode()
        assert owner["token"].split(".")[1] not in b"".join(archive.read(n) for n in archive.namelist()).decode()


def test_a_foreign_web_page_cannot_open_the_socket(strict: Service) -> None:
    with pytest.raises(socketio.exceptions.ConnectionError):
        connect(strict.url, transport="polling", headers={"Origin": FOREIGN})
    with connect(strict.url, transport="polling", headers={"Origin": strict.url}) as own:
        assert ok(own, "pair_status")["paired"] is False


def test_guessing_codes_is_throttled(tmp_path: Path) -> None:
    service = configured(tmp_path, "guess", STRICT)
    try:
        real = console_code(service)
        wrong = f"{(int(real) + 1) % 1_000_000:06d}"
        with connect(service.url) as guesser:
            codes = [call(guesser, "pair_code", {"code": wrong})["error"]["code"] for _ in range(7)]
            assert codes[:4] == ["wrong-code"] * 4
            assert codes[4] == "wrong-code" and codes[5] in ("no-code", "rate-limited")  # five tries void it
            assert codes[6] == "rate-limited"  # five attempts a minute from one address
            final = call(guesser, "pair_code", {"code": real})["error"]
            assert final["code"] == "rate-limited" and "try again in" in final["message"]
    finally:
        service.stop()


# -- the PAIR button, pressed on an in-process box ---------------------------------------------------

@pytest.fixture
def box_with_buttons(tmp_path: Path) -> Iterator[tuple[str, Any, Any]]:
    mock = pytest.importorskip("gpiozero.pins.mock")
    from werkzeug.serving import make_server

    from hardware.buttons import ButtonConfig, ButtonPanel

    app = create_app({"STATE_DIR": tmp_path / "state",
                      "PAIRING": PairingSettings(trust_loopback=False)})
    services = services_of(app)
    factory = mock.MockFactory()
    panel = ButtonPanel(ButtonConfig(pair_pin=17, undo_pin=27, hold_seconds=0.3, bounce_ms=0),
                        services.box.controls(services.socketio), pin_factory=factory).start()
    services.box.add_part("buttons", panel.health.to_plain)  # as the service's start does
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.port}", factory.pin(17), panel
    finally:
        server.shutdown()
        panel.close()
        services.close()


def test_pressing_pair_pairs_the_tablet_that_asked(box_with_buttons: tuple[str, Any, Any]) -> None:
    url, pin, panel = box_with_buttons
    with connect(url) as tablet:
        assert new_game(tablet)["error"]["code"] == "not-paired"
        assert ok(tablet, "pair_request", {"name": "Den"}) == {"ok": True, "seconds": 30, "presses": 1}
        status = ok(tablet, "pair_status")
        assert status["request"]["name"] == "Den" and status["pair_button"] is True
        pin.drive_low()
        pin.drive_high()
        assert panel.settle()
        paired = next_event(tablet, "paired")  # once the presses in a row are over (1.5 s)
        assert paired["device"]["name"] == "Den" and paired["device"]["how"] == "button"
        assert ok(tablet, "new_game", {"setup": SETUP})["game_id"]
    with connect(url, auth={"token": paired["token"]}) as later:
        assert ok(later, "pair_status")["paired"] is True


def test_undo_acts_on_the_owners_game_whatever_a_watcher_or_an_archived_game_opens(
        box_with_buttons: tuple[str, Any, Any]) -> None:
    """The owner's paired tablet opened "Mine"; a watcher opens "Other", the owner looks at an archived
    game: UNDO still takes back a step of "Mine" and of nothing else."""
    url, _, panel = box_with_buttons
    undo = panel.pin_factory.pin(27)
    desk = panel.control.pairing
    with connect(url) as owner:
        token = ok(owner, "pair_code", {"name": "Owner", "code": desk.console_code().code})["token"]
    with connect(url, auth={"token": token}) as owner, connect(url) as watcher:
        games = [ok(owner, "new_game", {"setup": SETUP, "name": name})["game_id"] for name in ("Mine", "Other", "Old")]
        for game_id in games:
            view = ok(owner, "join", {"game_id": game_id})["view"]
            ok(owner, "act", {"game_id": game_id, "version": 0, "answer": simple_answer(view["prompt"])})
        ok(owner, "archive", {"game_id": games[2]})
        assert ok(owner, "join", {"game_id": games[0]})["on_board"] is True
        assert ok(watcher, "join", {"game_id": games[1]})["on_board"] is False  # not paired: only watches
        assert ok(owner, "join", {"game_id": games[2]})["on_board"] is False  # archived: only looked at
        undo.drive_low()
        assert wait_for(lambda: panel.health.presses == 1, timeout=5)
        undo.drive_high()
        assert panel.settle()
        for game_id, steps in zip(games, (0, 1, 1)):
            assert ok(watcher, "join", {"game_id": game_id})["view"]["can_undo"] is bool(steps), game_id
        assert panel.health.last["done"] is True


def test_pressing_pair_with_nobody_asking_pairs_nobody(box_with_buttons: tuple[str, Any, Any]) -> None:
    url, pin, panel = box_with_buttons
    pin.drive_low()
    pin.drive_high()
    assert panel.settle()
    assert panel.health.last["done"] is False and "no tablet asked" in str(panel.health.last["why"])
    with connect(url) as tablet:
        assert new_game(tablet)["error"]["code"] == "not-paired"


# -- configuration, safe mode, systemd's notify socket -------------------------------------------------

def test_a_broken_configuration_stops_the_start_with_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("[server]\nport = 99999\n[pairing]\nrequired = 'yes'\n[lights]\n")
    done = subprocess.run([sys.executable, "-m", "companion.server", "--config", str(path),
                           "--state-dir", str(tmp_path / "state")], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 78 and "READY" not in done.stdout
    for expected in ("server.port", "pairing.required", "lights: unknown section", "nothing was started"):
        assert expected in done.stderr, done.stderr
    assert not (tmp_path / "state").exists()


def test_a_start_that_did_not_finish_makes_the_next_one_safe(tmp_path: Path) -> None:
    state = tmp_path / "box"
    state.mkdir()
    (state / MARKER).write_text(json.dumps({"pid": 4242, "started": 1.0}))
    service = configured(tmp_path, "box", "[leds]\nbackend = \"pi5\"\n[discovery]\nenabled = false\n")
    try:
        health = service.health()
        assert health["overall"] == "safe-mode" and health["start"]["safe"] is True
        assert "4242" in health["start"]["reason"] and any(line.startswith("SAFE MODE") for line in service.output)
        assert health["parts"]["leds"]["backend"] == "simulated" and health["parts"]["camera"]["state"] == "off"
        assert health["parts"]["buttons"]["reason"].startswith("safe mode")
        assert not (state / MARKER).exists()  # this start finished: the next one tries the hardware again
    finally:
        service.stop()


def test_ready_and_watchdog_pings_reach_systemd_s_socket(tmp_path: Path) -> None:
    address = str(tmp_path / "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(TIMEOUT)
    service = configured(tmp_path, "box", "[discovery]\nenabled = false\n",
                    env={"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "400000"})
    try:
        messages = [listener.recv(4096).decode() for _ in range(3)]
        assert messages[0].startswith("READY=1") and "STATUS=" in messages[0]
        assert messages[1:] == ["WATCHDOG=1", "WATCHDOG=1"]
    finally:
        service.stop()
        listener.close()


def test_no_debugger_or_console_is_ever_served(strict: Service) -> None:
    """Werkzeug's interactive console would run any Python a visitor types: never on the box."""
    for path in ("/console", "/?__debugger__=yes&cmd=resource&f=debugger.js"):
        response = requests.get(f"{strict.url}{path}", timeout=TIMEOUT)
        assert "debugger" not in response.text.lower() or response.status_code == 404
        assert response.status_code in (200, 404) and "Werkzeug" not in response.text
    with connect(strict.url) as stranger:  # a handler failing is answered, never a traceback page
        assert call(stranger, "join", {"game_id": 42})["error"]["code"] == "bad-request"


def test_buttons_that_cannot_start_are_reported_and_the_game_goes_on(tmp_path: Path) -> None:
    """Off a Pi gpiozero finds no pins: the health view says so, the tablets still play."""
    service = configured(tmp_path, "box", "[buttons]\nnext_pin = 5\n[discovery]\nenabled = false\n",
                    env={"GPIOZERO_PIN_FACTORY": ""})
    try:
        health = service.health()
        buttons = health["parts"]["buttons"]
        assert health["overall"] == "degraded" and buttons["state"] == "disabled"
        assert buttons["pins"] == {"next_pin": 5} and "could not start" in buttons["reason"]
        with connect(service.url) as tablet:
            assert ok(tablet, "new_game", {"setup": SETUP})["game_id"]
    finally:
        service.stop()


def test_the_watchdog_pings_only_after_a_real_request_is_answered(tmp_path: Path) -> None:
    """The watchdog's check is a real request through the server: a port that is open but does not
    answer (a hung server) is not alive; the running service is."""
    from companion.server.serve import answers

    hung = socket.socket()
    hung.bind(("127.0.0.1", 0))
    hung.listen(5)  # accepts connections (the kernel's backlog) but never answers
    try:
        assert answers(f"http://127.0.0.1:{hung.getsockname()[1]}/api/alive", timeout=0.5)() is False
    finally:
        hung.close()
    assert answers("http://127.0.0.1:1/api/alive", timeout=0.5)() is False  # nothing listening
    service = configured(tmp_path, "box", "[discovery]\nenabled = false\n")
    try:
        assert answers(f"{service.url}/api/alive", timeout=5)() is True
        assert answers(f"{service.url}/api/health", timeout=5)() is True and \
            answers(f"{service.url}/no-such-page", timeout=5)() is False
    finally:
        service.stop()
