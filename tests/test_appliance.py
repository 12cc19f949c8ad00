"""The appliance pieces (companion/appliance): sd_notify and the watchdog against
a real AF_UNIX datagram socket, the safe-mode marker (with a process that
really dies mid-start), the mDNS advert and the addresses to show (traffic on
loopback only), pairing (link button, codes, throttling, revocation, hashed
tokens), and the boot-file lines the LED backend needs."""

from __future__ import annotations

import concurrent.futures

import io
import json
import logging
import os
import socket
import stat
import subprocess
import sys
import time
import uuid
import zipfile
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.appliance import bootconfig, discovery, health, notify
from companion.appliance.access import OPEN_EVENTS, Access, origin_check
from companion.appliance.pairing import SERIES_GAP, TOKENS_FILE, Grant, Pairing, PairingRefused
from companion.appliance.safemode import MARKER, StartGuard
from companion.config import DiscoverySettings, PairingSettings
from companion.table import TableError
from hardware.leds.config import LedConfig

ROOT = Path(__file__).resolve().parents[1]


# -- sd_notify over a real datagram socket -------------------------------------------------------------

@pytest.fixture
def systemd_socket(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """What systemd listens on: an AF_UNIX datagram socket, named as $NOTIFY_SOCKET names it."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(tmp_path / "notify.sock"))
    listener.settimeout(2.0)
    yield listener, str(tmp_path / "notify.sock")
    listener.close()


def received(listener: socket.socket) -> str:
    return listener.recv(4096).decode()


def test_ready_and_status_reach_the_socket(systemd_socket: tuple[socket.socket, str]) -> None:
    listener, path = systemd_socket
    notifier = notify.Notifier.from_env({"NOTIFY_SOCKET": path})
    assert notifier.enabled and notifier.ready("Serving on port 8000")
    assert received(listener) == "READY=1\nSTATUS=Serving on port 8000"
    assert notifier.status("two\nlines") and received(listener) == "STATUS=two lines"
    assert notifier.watchdog() and received(listener) == "WATCHDOG=1"
    assert notifier.stopping() and received(listener) == "STOPPING=1"
    notifier.close()
    notifier.close()


def test_an_abstract_namespace_socket_is_reached_through_its_at_sign() -> None:
    name = f"table-companion-test-{uuid.uuid4().hex}"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind("\0" + name)
    listener.settimeout(2.0)
    try:
        notifier = notify.Notifier(f"@{name}")
        assert notifier.ready()
        assert received(listener) == "READY=1"
        notifier.close()
    finally:
        listener.close()


def test_without_notify_socket_everything_is_a_quiet_no_op() -> None:
    notifier = notify.Notifier.from_env({})
    assert not notifier.enabled and not notifier.ready() and not notifier.watchdog()
    assert notify.start_watchdog(notifier, env={"WATCHDOG_USEC": "1000000"}) is None


def test_a_vanished_socket_is_reported_once_and_never_raises(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    notifier = notify.Notifier(str(tmp_path / "gone.sock"))
    assert not notifier.ready() and not notifier.watchdog()
    assert caplog.text.count("could not notify systemd") == 1
    notifier.close()


@pytest.mark.parametrize("env, interval", [
    ({"WATCHDOG_USEC": "30000000"}, 15.0),
    ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}, 15.0),
    ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, None),  # another process's watchdog
    ({"WATCHDOG_USEC": "soon"}, None),
    ({"WATCHDOG_USEC": "0"}, None),
    ({}, None),
])
def test_the_watchdog_pings_at_half_watchdog_usec(env: dict[str, str], interval: float | None) -> None:
    assert notify.watchdog_interval(env) == interval


def test_the_watchdog_thread_pings_until_closed(systemd_socket: tuple[socket.socket, str]) -> None:
    listener, path = systemd_socket
    notifier = notify.Notifier(path)
    watchdog = notify.start_watchdog(notifier, env={"WATCHDOG_USEC": "100000"})  # a ping every 0.05 s
    assert watchdog is not None and watchdog.interval == 0.05
    assert [received(listener) for _ in range(3)] == ["WATCHDOG=1"] * 3
    watchdog.close()
    watchdog.close()
    listener.settimeout(0.05)
    while True:  # drain what was sent before close
        try:
            listener.recv(4096)
        except TimeoutError:
            break
    listener.settimeout(0.3)
    with pytest.raises(TimeoutError):
        listener.recv(4096)
    notifier.close()


def test_an_unhealthy_service_gets_no_pings(systemd_socket: tuple[socket.socket, str],
                                            caplog: pytest.LogCaptureFixture) -> None:
    listener, path = systemd_socket
    healthy = [False]
    notifier = notify.Notifier(path)
    watchdog = notify.Watchdog(notifier, 0.02, alive=lambda: healthy[0]).start()
    time.sleep(0.15)
    assert watchdog.pings == 0 and caplog.text.count("not healthy") == 1
    healthy[0] = True
    assert received(listener) == "WATCHDOG=1"
    watchdog.close()
    notifier.close()


# -- safe mode --------------------------------------------------------------------------------------

def test_a_start_that_finishes_leaves_the_next_one_normal(tmp_path: Path) -> None:
    guard = StartGuard(tmp_path / "state")
    assert not guard.begin().safe and (tmp_path / "state" / MARKER).exists()
    guard.ready()
    guard.ready()
    assert not (tmp_path / "state" / MARKER).exists()
    assert StartGuard(tmp_path / "state").begin().safe is False


def test_a_start_killed_before_ready_makes_the_next_one_safe_and_says_why(tmp_path: Path) -> None:
    crash = ("import os, signal, sys; from pathlib import Path; from companion.appliance.safemode import StartGuard; "
             "StartGuard(Path(sys.argv[1])).begin(); os.kill(os.getpid(), signal.SIGKILL)")
    done = subprocess.run([sys.executable, "-c", crash, str(tmp_path)], cwd=ROOT, timeout=60)
    assert done.returncode == -9
    guard = StartGuard(tmp_path)
    mode = guard.begin()
    assert mode.safe and "did not finish" in mode.reason and "without the LEDs, camera and buttons" in mode.reason
    assert mode.to_plain() == {"safe": True, "reason": mode.reason}
    guard.ready()  # the safe start finished: the next one tries the hardware again
    assert not StartGuard(tmp_path).begin().safe


def test_a_marker_cut_short_by_a_power_cut_still_means_safe_mode(tmp_path: Path) -> None:
    (tmp_path / MARKER).write_text("")
    assert StartGuard(tmp_path).begin().safe
    (tmp_path / MARKER).write_text('{"pid": 41, "started": 0, "safe": true}')
    reason = StartGuard(tmp_path).begin().reason
    assert "process 41" in reason and "itself in safe mode" in reason


def test_safe_mode_can_be_asked_for(tmp_path: Path) -> None:
    mode = StartGuard(tmp_path).begin(force=True)
    assert mode.safe and "--safe-mode" in mode.reason


# -- discovery --------------------------------------------------------------------------------------

def test_the_addresses_shown_leave_out_loopback_link_local_and_containers() -> None:
    found = [("lo", "127.0.0.1"), ("lo", "::1"), ("wlan0", "192.168.1.23"), ("eth0", "10.0.0.5"),
             ("wlan0", "fe80::1"), ("docker0", "172.17.0.1"), ("wlan0", "2001:db8::23"), ("eth0", "169.254.3.3"),
             ("wlan0", "not an address"), ("eth0", "10.0.0.5")]
    assert discovery.shown_addresses(found) == ["10.0.0.5", "192.168.1.23", "2001:db8::23"]


def test_this_machines_addresses_are_listed_without_loopback() -> None:
    pairs = discovery.interface_addresses()
    assert ("lo", "127.0.0.1") in pairs or any(a == "127.0.0.1" for _, a in pairs)
    assert "127.0.0.1" not in discovery.local_addresses()


def test_the_urls_put_the_name_first_then_every_address() -> None:
    assert discovery.urls("ravenloft", ["192.168.1.23", "2001:db8::23"], 8000) == [
        "http://ravenloft.local:8000/", "http://192.168.1.23:8000/", "http://[2001:db8::23]:8000/"]
    assert discovery.urls("ravenloft", ["10.0.0.5"], 80) == ["http://ravenloft.local/", "http://10.0.0.5/"]


def test_the_service_info_names_http_on_name_local() -> None:
    pytest.importorskip("zeroconf", reason="zeroconf is not installed (the 'appliance' extra)")
    info = discovery.service_info("ravenloft", 8000, ["192.168.1.23", "2001:db8::23"], "0.1.0")
    assert (info.type, info.name, info.server, info.port) == (
        "_http._tcp.local.", "ravenloft._http._tcp.local.", "ravenloft.local.", 8000)
    assert sorted(info.parsed_addresses()) == ["192.168.1.23", "2001:db8::23"]
    assert info.decoded_properties == {"path": "/", "app": "table-companion", "version": "0.1.0"}


def test_a_disabled_advert_starts_nothing() -> None:
    advert = discovery.Advertiser(DiscoverySettings(enabled=False), 8000, addresses=lambda: ["10.0.0.5"]).start()
    assert advert.health()["state"] == "off" and advert.health()["urls"][0] == "http://table-companion.local:8000/"
    advert.close()


def test_an_advert_that_cannot_start_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("zeroconf", reason="zeroconf is not installed (the 'appliance' extra)")
    def broken(*args: object) -> object:
        raise OSError("no network")

    monkeypatch.setattr(discovery, "service_info", broken)
    advert = discovery.Advertiser(DiscoverySettings(), 8000, interfaces=["127.0.0.1"], addresses=list).start(wait=True)
    assert advert.health()["state"] == "failed" and "no network" in str(advert.health()["reason"])
    advert.close()


def test_the_advert_is_found_and_updated_on_loopback() -> None:
    """Bound to 127.0.0.1 only: nothing leaves this machine. Run on a thread of its own:
    zeroconf's blocking calls refuse to run where an event loop runs (Playwright's, when
    the browser tests ran first in the same session)."""
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        worker.submit(_advert_found_and_updated).result(timeout=60)


def _advert_found_and_updated() -> None:
    zeroconf = pytest.importorskip("zeroconf", reason="zeroconf is not installed (the 'appliance' extra)")
    name = f"companion-test-{uuid.uuid4().hex[:8]}"
    addresses = ["127.0.0.1"]
    advert = discovery.Advertiser(DiscoverySettings(name=name), 8123, interfaces=["127.0.0.1"],
                                  addresses=lambda: list(addresses), refresh_seconds=3600).start(wait=True)
    if advert.health()["state"] != "ok":
        pytest.skip(f"no mDNS on loopback here: {advert.health()['reason']}")
    browser = zeroconf.Zeroconf(interfaces=["127.0.0.1"])
    try:
        found = browser.get_service_info("_http._tcp.local.", f"{name}._http._tcp.local.", timeout=3000)
        assert found is not None and found.port == 8123 and found.server == f"{name}.local."
        addresses.append("127.0.0.2")
        assert advert.refresh() and not advert.refresh()
        assert advert.health()["addresses"] == ["127.0.0.1", "127.0.0.2"]
    finally:
        browser.close()
        advert.close()
        advert.close()


# -- pairing ----------------------------------------------------------------------------------------

class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def desk(tmp_path: Path, clock: Clock) -> Pairing:
    return Pairing(tmp_path, PairingSettings(), clock=clock, wall=lambda: 1_700_000_000.0, iterations=1000)


def refusal(code: str, call: object, *args: object) -> PairingRefused:
    with pytest.raises(PairingRefused) as caught:
        call(*args)  # type: ignore[operator]
    assert caught.value.code == code, str(caught.value)
    return caught.value


def paired_token(desk: Pairing, client: str = "first", address: str = "10.0.0.1") -> str:
    desk.ask(client, f"Tablet {client}", address)
    grant = pressed(desk, desk.clock, desk.request_of(client)["presses"])  # type: ignore[arg-type, index]
    assert grant is not None
    return grant.token


def pressed(desk: Pairing, clock: Any, times: int = 1) -> Grant | None:
    """PAIR pressed ``times`` in a row (0.5 s apart), then the series is decided."""
    for _ in range(times):
        desk.button_pressed()
        clock.now += 0.5
    clock.now += SERIES_GAP
    return desk.series_over()


def test_the_pair_button_pairs_a_tablet_that_asked_within_30_seconds(desk: Pairing, clock: Clock) -> None:
    assert desk.ask("sid-1", "Kitchen tablet", "10.0.0.7") == {"seconds": 30.0, "presses": 1}
    clock.now += 28
    assert desk.request_of("sid-1") == {"name": "Kitchen tablet", "seconds_left": 2.0, "presses": 1}
    assert desk.request_of("sid-2") is None  # nobody sees another tablet's request
    grant = pressed(desk, clock)
    assert grant is not None and grant.client == "sid-1" and grant.device.how == "button"
    assert grant.device.name == "Kitchen tablet"
    assert desk.device_of(grant.token) == grant.device and desk.may_change(grant.token)
    assert desk.request_of("sid-1") is None and desk.waiting_count() == 0


def test_a_press_after_the_window_pairs_nobody(desk: Pairing, clock: Clock) -> None:
    desk.ask("sid-1", "Kitchen tablet", "10.0.0.7")
    clock.now += 30.5
    refusal("no-request", desk.button_pressed)
    assert desk.devices() == []


def test_a_late_press_never_pairs_a_stranger_who_asked_after_the_owners_window(desk: Pairing, clock: Clock) -> None:
    """The owner's request (press once) ran out; a stranger asks at once and is given another number
    (two presses): the owner's late single press pairs nobody."""
    assert desk.ask("owner", "Owner", "10.0.0.7")["presses"] == 1
    clock.now += 30.1
    assert desk.ask("stranger", "Stranger", "10.0.0.66")["presses"] == 2
    clock.now += 0.2
    refusal("no-request", pressed, desk, clock, 1)
    assert desk.devices() == []


def test_a_press_counts_from_when_it_was_made_not_when_it_is_handled(desk: Pairing, clock: Clock) -> None:
    """Pressed at the end of the owner's window, handled a moment later, after a stranger asked:
    only requests made before the press count, so the owner is paired."""
    desk.ask("owner", "Owner", "10.0.0.7")
    pressed_at = clock.now + 29.9
    clock.now += 30.05
    desk.ask("stranger", "Stranger", "10.0.0.66")
    clock.now += 0.1
    desk.button_pressed(pressed_at)
    clock.now += SERIES_GAP
    grant = desk.series_over()
    assert grant is not None and grant.client == "owner" and [d.name for d in desk.devices()] == ["Owner"]


def test_a_stranger_waiting_cannot_block_the_owner_who_presses_their_number(desk: Pairing, clock: Clock) -> None:
    assert desk.ask("stranger", "Stranger", "10.0.0.66")["presses"] == 1
    assert desk.ask("owner", "Owner's tablet", "10.0.0.7")["presses"] == 2
    assert desk.ask("stranger-again", "Stranger", "10.0.0.66")["presses"] == 1  # one request per address
    grant = pressed(desk, clock, 2)
    assert grant is not None and grant.client == "owner" and grant.device.name == "Owner's tablet"
    assert [d.name for d in desk.devices()] == ["Owner's tablet"]


def test_a_count_nobody_asked_for_pairs_nobody(desk: Pairing, clock: Clock) -> None:
    desk.ask("a", "A", "10.0.0.1")
    desk.ask("b", "B", "10.0.0.2")
    assert "pressed 3 times" in str(refusal("no-request", pressed, desk, clock, 3)) and desk.devices() == []
    grant = pressed(desk, clock, 1)
    assert grant is not None and grant.client == "a"


def test_a_tablet_that_gave_up_is_not_paired_and_its_number_is_kept(desk: Pairing, clock: Clock) -> None:
    desk.ask("sid-1", "Kitchen tablet", "10.0.0.7")
    desk.cancel("sid-1")
    refusal("no-request", desk.button_pressed)
    assert desk.ask("sid-2", "Other", "10.0.0.8")["presses"] == 2
    clock.now += 31
    assert desk.ask("sid-3", "Third", "10.0.0.9")["presses"] == 1  # kept for a window only


def test_at_most_four_tablets_wait_at_once(desk: Pairing) -> None:
    for n in range(4):
        assert desk.ask(f"sid-{n}", "T", f"10.0.0.{n}")["presses"] == n + 1
    assert "ask again in" in str(refusal("several-requests", desk.ask, "sid-9", "T", "10.0.0.9"))


def test_a_code_shown_on_a_paired_tablet_pairs_one_more_tablet(desk: Pairing, clock: Clock) -> None:
    token = paired_token(desk)
    shown = desk.show_code(token)
    assert len(shown.code) == 6 and shown.code.isdigit() and shown.seconds_left(clock.now) == 120
    grant = desk.pair_with_code("sid-9", "Lounge tablet", "10.0.0.9", f"{shown.code[:3]} {shown.code[3:]}")
    assert grant.device.how == "code" and desk.device_of(grant.token) == grant.device
    refusal("no-code", desk.pair_with_code, "sid-10", "Third", "10.0.0.10", shown.code)  # used up


def test_only_a_paired_tablet_can_show_a_code(desk: Pairing) -> None:
    refusal("not-paired", desk.show_code, None)
    refusal("not-paired", desk.show_code, "abc.def")


def test_an_expired_code_is_refused(desk: Pairing, clock: Clock) -> None:
    shown = desk.show_code(paired_token(desk))
    clock.now += 121
    refusal("no-code", desk.pair_with_code, "sid-9", "Lounge", "10.0.0.9", shown.code)


def test_the_console_code_pairs_the_first_tablet_and_lasts_ten_minutes(desk: Pairing, clock: Clock) -> None:
    shown = desk.console_code()
    assert shown.by == "console"
    clock.now += 599
    assert desk.pair_with_code("sid-1", "First", "10.0.0.1", shown.code).device.how == "code"


def wrong(code: str) -> str:
    return f"{(int(code) + 1) % 1_000_000:06d}"


def test_an_address_has_five_guesses_at_a_code_and_a_strangers_guesses_do_not_void_it(desk: Pairing,
                                                                                      clock: Clock) -> None:
    shown = desk.show_code(paired_token(desk))
    for left in (4, 3, 2, 1):
        assert f"{left} more tries" in str(refusal("wrong-code", desk.pair_with_code, "x", "X", "10.1.0.1",
                                                   wrong(shown.code)))
    clock.now += 61  # past the attempt window: the address's code tries still count
    assert "last try" in str(refusal("wrong-code", desk.pair_with_code, "x", "X", "10.1.0.1", wrong(shown.code)))
    assert "no more tries" in str(refusal("wrong-code", desk.pair_with_code, "x", "X", "10.1.0.1", shown.code))
    grant = desk.pair_with_code("owner", "Owner's new tablet", "10.0.0.8", shown.code)  # the owner's still works
    assert grant.device.name == "Owner's new tablet"
    refusal("no-code", desk.pair_with_code, "x", "X", "10.1.0.2", shown.code)  # a code pairs one tablet


def test_attempts_from_one_address_are_rate_limited(desk: Pairing, clock: Clock) -> None:
    for n in range(5):
        desk.ask(f"sid-{n}", "Tablet", "10.0.0.66")
    refused = refusal("rate-limited", desk.ask, "sid-5", "Tablet", "10.0.0.66")
    assert refused.retry_after == 60.0 and "try again in 61 s" in str(refused)
    desk.ask("sid-7", "Tablet", "10.0.0.7")  # another address still may
    clock.now += 60.5
    desk.ask("sid-6", "Tablet", "10.0.0.66")  # and this one, once the window has passed


def test_a_brute_force_from_many_addresses_is_refused_but_never_locks_the_owner_out(desk: Pairing) -> None:
    """Over the limit for everyone, an address that already guessed wrong is refused; the owner's new
    tablet, which has not guessed, still pairs with the code (which no wrong guess voided)."""
    shown = desk.show_code(paired_token(desk))
    guesses = (f"{n:06d}" for n in range(1_000_000) if f"{n:06d}" != shown.code)
    codes = []
    for n in range(10):  # ten bots, three guesses each: 30 attempts, over the 20 for everyone
        for _ in range(3):
            try:
                desk.pair_with_code(f"bot-{n}", "Bot", f"10.9.{n}.1", next(guesses))
            except PairingRefused as refused:
                codes.append(refused.code)
    assert codes.count("wrong-code") < 26 and "rate-limited" in codes and set(codes) <= {"wrong-code", "rate-limited"}
    refusal("rate-limited", desk.pair_with_code, "bot-0", "Bot", "10.9.0.1", shown.code)  # a bot, even right
    assert desk.pair_with_code("owner", "Owner", "10.0.0.8", shown.code).device.name == "Owner"
    assert [d.how for d in desk.devices()] == ["button", "code"]


def test_a_pairing_the_disk_refuses_changes_nothing(desk: Pairing, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    shown = desk.console_code()

    def full(*args: object, **kwargs: object) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("companion.appliance.pairing.os.write", full)
    refused = refusal("storage", desk.pair_with_code, "sid-1", "First", "10.0.0.1", shown.code)
    assert "No space left on device" in str(refused) and "nothing changed" in str(refused)
    assert desk.devices() == [] and not list(tmp_path.glob("*.tmp"))
    monkeypatch.undo()
    assert desk.pair_with_code("sid-1", "First", "10.0.0.1", shown.code).device.name == "First"  # the code lives


def test_unpaired_clients_may_watch_but_not_change(desk: Pairing, tmp_path: Path) -> None:
    for token in (None, "", "nodot", "abc.def", 42, "a" * 500):
        assert desk.device_of(token) is None
        refusal("not-paired", desk.check_change, token)
    desk.check_change(paired_token(desk))
    relaxed = Pairing(tmp_path / "open", PairingSettings(required=False))
    relaxed.check_change(None)


def test_a_revoked_token_is_refused_at_once(desk: Pairing) -> None:
    kitchen, lounge = paired_token(desk, "k", "10.0.0.1"), paired_token(desk, "l", "10.0.0.2")
    lounge_id = lounge.split(".")[0]
    desk.check_change(lounge)  # checked once: remembered in memory
    assert desk.revoke(lounge_id, kitchen).id == lounge_id
    refusal("not-paired", desk.check_change, lounge)
    refusal("unknown-device", desk.revoke, lounge_id, kitchen)
    refusal("not-paired", desk.revoke, kitchen.split(".")[0], lounge)  # a revoked tablet revokes nothing
    assert desk.revoke(kitchen.split(".")[0], kitchen)  # a tablet may remove itself
    assert desk.devices() == []


def test_tokens_are_never_stored_in_clear_and_survive_a_restart(desk: Pairing, tmp_path: Path) -> None:
    token = paired_token(desk)
    device_id, secret = token.split(".")
    path = tmp_path / TOKENS_FILE
    text = path.read_text()
    assert secret not in text and token not in text
    record = json.loads(text)["devices"][0]
    assert record["kdf"] == "pbkdf2-sha256" and len(bytes.fromhex(record["salt"])) == 16 and record["hash"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = Pairing(tmp_path, PairingSettings(), iterations=1000)
    assert again.device_of(token) is not None and again.device_of(f"{device_id}.{secret[:-1]}x") is None


def test_a_broken_pairing_file_is_set_aside_and_nobody_is_paired(tmp_path: Path) -> None:
    (tmp_path / TOKENS_FILE).write_text("{not json")
    desk = Pairing(tmp_path, PairingSettings())
    assert desk.devices() == [] and "every tablet must pair again" in desk.store.problem
    assert (tmp_path / (TOKENS_FILE + ".broken")).read_text() == "{not json"


def test_a_tablets_name_is_kept_short_and_printable(desk: Pairing) -> None:
    desk.ask("sid", "  Kitchen\x00\x1b[31m   tablet " + "x" * 80, "10.0.0.1")
    grant = pressed(desk, desk.clock)
    assert grant is not None
    name = grant.device.name
    assert name.startswith("Kitchen[31m tablet x") and len(name) == 40


# -- boot files for the LED backend -------------------------------------------------------------------

PI4, PI5, ZERO2 = "Raspberry Pi 4 Model B Rev 1.4", "Raspberry Pi 5 Model B Rev 1.0", "Raspberry Pi Zero 2 W Rev 1.0"


@pytest.mark.parametrize("leds, model, config_txt, cmdline", [
    (LedConfig(backend="rpi_ws281x"), PI4, ["dtparam=spi=on", "core_freq=500", "core_freq_min=500"],
     ["spidev.bufsiz=32768"]),
    (LedConfig(backend="rpi_ws281x"), ZERO2, ["dtparam=spi=on", "core_freq=250"], ["spidev.bufsiz=32768"]),
    (LedConfig(backend="rpi_ws281x", pin=18), PI4, ["dtparam=audio=off"], []),
    (LedConfig(backend="pi5", pin=18, count=127), PI5,
     ["dtoverlay=ws2812-pio,gpio=18,num_leds=127,brightness=255"], []),
    (LedConfig(backend="simulated"), PI4, [], []),
    (LedConfig(backend="none"), PI5, [], []),
])
def test_the_boot_lines_follow_the_backend_and_the_model(leds: LedConfig, model: str, config_txt: list[str],
                                                         cmdline: list[str]) -> None:
    lines = bootconfig.boot_lines(leds, model)
    assert (lines.config_txt, lines.cmdline) == (config_txt, cmdline)


def test_pwm_and_the_wrong_board_come_with_a_warning() -> None:
    assert "needs root" in bootconfig.boot_lines(LedConfig(backend="rpi_ws281x", pin=18), PI4).notes[0]
    assert "does not run on a Pi 5" in bootconfig.boot_lines(LedConfig(backend="rpi_ws281x"), PI5).notes[0]
    assert "only on a Pi 5" in bootconfig.boot_lines(LedConfig(backend="pi5"), PI4).notes[-1]


def test_the_boot_files_are_changed_once_kept_apart_and_restored(tmp_path: Path) -> None:
    config_txt, cmdline = tmp_path / "config.txt", tmp_path / "cmdline.txt"
    config_txt.write_text("dtparam=audio=on\n[pi4]\narm_boost=1\n")
    cmdline.write_text("console=serial0,115200 root=PARTUUID=abc rootwait\n")
    lines = bootconfig.boot_lines(LedConfig(backend="rpi_ws281x"), PI4)
    assert bootconfig.apply_config_txt(config_txt, lines.config_txt)
    assert bootconfig.apply_cmdline(cmdline, lines.cmdline)
    assert not bootconfig.apply_config_txt(config_txt, lines.config_txt)  # idempotent
    assert not bootconfig.apply_cmdline(cmdline, lines.cmdline)
    text = config_txt.read_text()
    assert text.startswith("dtparam=audio=on\n[pi4]\narm_boost=1\n# >>> table-companion")
    assert "\n[all]\ndtparam=spi=on\n" in text
    assert cmdline.read_text() == "console=serial0,115200 root=PARTUUID=abc rootwait spidev.bufsiz=32768\n"
    bootconfig.apply_config_txt(config_txt, ["dtparam=spi=on"])  # a new run replaces the block
    assert config_txt.read_text().count("dtparam=spi=on") == 1 and "core_freq" not in config_txt.read_text()
    assert bootconfig.remove_config_txt(config_txt) and bootconfig.apply_cmdline(cmdline, lines.cmdline, remove=True)
    assert config_txt.read_text() == (tmp_path / "config.txt.table-companion.bak").read_text()
    assert cmdline.read_text() == (tmp_path / "cmdline.txt.table-companion.bak").read_text()


def test_the_boot_lines_command_prints_and_applies_only_when_asked(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('[leds]\nbackend = "pi5"\npin = 18\n')
    (tmp_path / "model").write_text(PI5 + "\0")
    (tmp_path / "config.txt").write_text("")
    base = [sys.executable, "-m", "companion.appliance.bootconfig", "--config", str(tmp_path / "config.toml"),
            "--model-file", str(tmp_path / "model"), "--boot-dir", str(tmp_path)]
    printed = subprocess.run(base, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert "dtoverlay=ws2812-pio,gpio=18,num_leds=127" in printed.stdout and (tmp_path / "config.txt").read_text() == ""
    applied = subprocess.run(base + ["--apply"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert "reboot" in applied.stdout and "dtoverlay=ws2812-pio" in (tmp_path / "config.txt").read_text()


def test_a_pairing_record_that_cannot_be_checked_sets_the_file_aside(tmp_path: Path) -> None:
    record = {"id": "abc", "name": "Kitchen", "paired_at": 0, "how": "button", "kdf": "pbkdf2-sha256",
              "iterations": 1000, "salt": "not hex", "hash": "00"}
    (tmp_path / TOKENS_FILE).write_text(json.dumps({"devices": [record]}))
    desk = Pairing(tmp_path, PairingSettings())
    assert desk.devices() == [] and desk.device_of("abc.secret") is None and desk.store.problem


# -- the health view and the diagnostics bundle ---------------------------------------------------------

def test_recent_errors_keep_the_last_warnings_newest_first() -> None:
    errors = health.RecentErrors(size=3)
    log = logging.getLogger("test.health")
    errors.install(log)
    try:
        log.info("not kept")
        for n in range(5):
            log.warning("problem %d", n)
    finally:
        log.removeHandler(errors)
    assert [e["message"] for e in errors.items()] == ["problem 4", "problem 3", "problem 2"]
    assert errors.items()[0]["level"] == "WARNING" and errors.items()[0]["where"] == "test.health"


def test_a_flood_of_warnings_never_pushes_an_error_out_and_repeats_are_counted() -> None:
    errors = health.RecentErrors(size=5)
    log = logging.getLogger("test.health.flood")
    errors.install(log)
    try:
        try:
            {}["missing"]
        except KeyError:
            log.exception("the act handler failed")
        for n in range(200):
            log.warning("a malformed message from a stranger (%d)", n)
        for _ in range(40):
            log.warning("the same noise")
    finally:
        log.removeHandler(errors)
    items = errors.items()
    real = [e for e in items if e["level"] == "ERROR"]
    assert len(real) == 1 and real[0]["message"] == "the act handler failed"
    cause = str(real[0]["error"])
    assert cause.startswith("KeyError: 'missing' (at ") and "test_appliance.py:" in cause
    assert items[0]["message"] == "the same noise" and items[0]["repeated"] == 40 and len(items) == 6


def test_the_journal_gets_a_repeated_line_a_few_times_a_minute_then_the_count(clock: Clock) -> None:
    limit = health.RepeatLimit(burst=3, window=60, clock=clock)
    records = [logging.LogRecord("x", logging.WARNING, __file__, 1, "refused %s", (n,), None) for n in range(10)]
    assert [limit.filter(r) for r in records] == [True] * 3 + [False] * 7
    other = logging.LogRecord("x", logging.ERROR, __file__, 1, "a real error", (), None)
    assert limit.filter(other)  # another line is not held back by the noise
    clock.now += 61
    later = logging.LogRecord("x", logging.WARNING, __file__, 1, "refused %s", ("again",), None)
    assert limit.filter(later) and later.getMessage() == "refused again [7 more like this were left out of the log]"


def test_an_internal_error_is_logged_with_its_traceback_and_answered(tmp_path: Path,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    """A bug in a handler: the tablet gets ``internal``, the log its traceback, health its short form."""
    from companion.server import create_app
    from companion.server.app import services_of
    from companion.server.sockets import register

    errors = health.RecentErrors().install()
    app = create_app({"STATE_DIR": tmp_path / "state", "ERRORS": errors, "PAIRING": PairingSettings(required=False)})
    services = services_of(app)

    def broken(services: object, data: object) -> dict[str, object]:
        raise RuntimeError("a bug in a handler")

    register(services.socketio, services, {"broken": broken})
    try:
        client = services.socketio.test_client(app)
        reply = client.emit("broken", {}, callback=True)
        assert reply["ok"] is False and reply["error"]["code"] == "internal" and "fault" in reply["error"]["message"]
        failed = [r for r in caplog.records if r.levelno == logging.ERROR and "broken" in r.getMessage()]
        assert failed and failed[0].exc_info is not None and failed[0].exc_info[0] is RuntimeError
        shown = [e for e in errors.items() if e["level"] == "ERROR"]
        assert shown and str(shown[0]["error"]).startswith("RuntimeError: a bug in a handler (at ")
        client.disconnect()
    finally:
        logging.getLogger().removeHandler(errors)
        services.close()


def test_the_service_logs_to_stderr_with_tracebacks() -> None:
    code = ("import logging; from companion.server.serve import log_to_stderr; log_to_stderr()\n"
            "try:\n    1/0\nexcept ZeroDivisionError:\n    logging.getLogger('x').exception('it failed')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "ERROR x: it failed" in done.stderr and "ZeroDivisionError: division by zero" in done.stderr
    assert "Traceback (most recent call last)" in done.stderr


def test_the_health_view_names_each_part_the_disk_versions_and_the_start(tmp_path: Path) -> None:
    parts = {"leds": {"state": "ok"}, "buttons": {"state": "off"}}
    view = health.health_view(parts, tmp_path, None, {"safe": False, "reason": ""})
    assert view["overall"] == "ok" and set(view["parts"]) == {"leds", "buttons", "disk"}  # type: ignore[arg-type]
    assert view["parts"]["disk"]["state"] == "ok" and view["parts"]["disk"]["free_mb"] > 0  # type: ignore[index]
    assert view["versions"]["python"] and "table-companion" in view["versions"]  # type: ignore[index, operator]
    failed = health.health_view({"camera": {"state": "failed"}}, tmp_path, None, {"safe": False})
    assert failed["overall"] == "degraded"
    assert health.health_view(parts, tmp_path, None, {"safe": True, "reason": "x"})["overall"] == "safe-mode"
    assert health.disk_status(tmp_path, low_mb=10**12)["state"] == "low"
    assert health.disk_status(tmp_path / "missing")["state"] == "failed"


def test_the_diagnostics_bundle_holds_the_view_errors_and_config_but_no_pairing(tmp_path: Path) -> None:
    errors = health.RecentErrors()
    errors.emit(logging.makeLogRecord({"msg": "LED strip failed", "levelname": "ERROR", "name": "leds"}))
    view = health.health_view({"leds": {"state": "failed"}}, tmp_path, errors, {"safe": False})
    data = health.diagnostics_bundle(view, "[leds]\nbackend = \"pi5\"\n")
    with zipfile.ZipFile(io.BytesIO(data)) as bundle:
        assert sorted(bundle.namelist()) == ["config.toml", "errors.log", "health.json"]
        assert json.loads(bundle.read("health.json"))["overall"] == "degraded"
        assert "ERROR leds: LED strip failed" in bundle.read("errors.log").decode()
        assert bundle.read("config.toml").decode().startswith("[leds]")


# -- pairing per Socket.IO connection (companion/appliance/access.py) ---------------------------------

def code_of(problem: pytest.ExceptionInfo[TableError]) -> str:
    return problem.value.code


def test_a_connection_without_a_token_may_watch_but_not_change(desk: Pairing) -> None:
    access = Access(desk)
    access.connected("sid-1", None)
    with pytest.raises(TableError) as refused_change:
        access.check_change("sid-1")
    assert code_of(refused_change) == "not-paired" and "can watch" in str(refused_change.value)
    assert access.status("sid-1")["paired"] is False and "act" not in OPEN_EVENTS and "join" in OPEN_EVENTS


def test_the_link_button_pairs_the_connection_that_asked(desk: Pairing) -> None:
    access = Access(desk)
    access.connected("sid-1", {})
    assert access.ask("sid-1", "10.0.0.7", {"name": "Kitchen"}) == {"seconds": 30.0, "presses": 1}
    assert access.status("sid-1")["request"] == {"name": "Kitchen", "seconds_left": 30.0, "presses": 1}
    assert access.status("sid-2")["request"] is None
    grant = pressed(desk, desk.clock)
    assert grant is not None
    access.granted(grant)
    access.check_change("sid-1")
    assert access.status("sid-1")["device"]["name"] == "Kitchen"  # type: ignore[index]
    access.connected("sid-2", {"token": access.token_of("sid-1")})  # the same tablet, reconnected
    access.check_change("sid-2")


def test_a_code_pairs_a_connection_and_a_revoked_one_is_refused_at_its_next_change(desk: Pairing) -> None:
    access = Access(desk)
    access.connected("old", {"token": paired_token(desk)})
    code = access.show_code("old")["code"]
    reply = access.pair_with_code("new", "10.0.0.8", {"name": "Lounge", "code": code})
    access.check_change("new")
    assert [d["name"] for d in access.devices("old")["devices"]] == ["Tablet first", "Lounge"]
    access.revoke("old", {"device_id": reply["device"]["id"]})
    with pytest.raises(TableError) as refused_change:
        access.check_change("new")
    assert code_of(refused_change) == "not-paired"


def test_pairing_refusals_carry_their_codes(desk: Pairing) -> None:
    access = Access(desk)
    access.connected("bot", {"token": 42})
    for code, call in (("not-paired", lambda: access.show_code("bot")), ("not-paired", lambda: access.devices("bot")),
                       ("no-code", lambda: access.pair_with_code("bot", "10.6.6.6", {"code": "123456"}))):
        with pytest.raises(TableError) as refused_call:
            call()
        assert code_of(refused_call) == code
    for _ in range(4):
        access.ask("bot", "10.6.6.6", {})
    with pytest.raises(TableError) as limited:
        access.ask("bot", "10.6.6.6", {})
    assert code_of(limited) == "rate-limited"


def test_a_tablet_that_leaves_takes_its_request_with_it(desk: Pairing) -> None:
    access = Access(desk)
    access.ask("sid-1", "10.0.0.7", {"name": "Kitchen"})
    access.disconnected("sid-1")
    assert desk.waiting_count() == 0 and access.token_of("sid-1") is None


def test_only_the_boxs_own_origin_and_configured_ones_may_open_the_socket() -> None:
    allowed = origin_check(["http://kitchen.local:8080/"])
    environ = {"wsgi.url_scheme": "http", "HTTP_HOST": "ravenloft.local:8000"}
    assert allowed("http://ravenloft.local:8000", environ)
    assert allowed("http://192.168.1.23:8000", {**environ, "HTTP_HOST": "192.168.1.23:8000"})
    assert allowed("http://kitchen.local:8080", environ)
    assert not allowed("http://evil.example", environ) and not allowed("https://ravenloft.local:8000", environ)
    assert allowed(None, environ)  # a script, not a browser page


# -- the owner's authority (issue: secrets through every door) ---------------------------------------

def player_token(desk: Pairing, shown_by: str, client: str, address: str, owner: bool = False) -> str:
    """A tablet paired with a code another (paired) tablet shows."""
    code = desk.show_code(shown_by, owner).code
    return desk.pair_with_code(client, f"Tablet {client}", address, code).token


def test_the_button_and_the_boxs_own_code_pair_the_owner_a_tablets_code_a_player(desk: Pairing) -> None:
    button = paired_token(desk, "owner", "10.0.0.1")
    console = desk.pair_with_code("c", "Console", "10.0.0.2", desk.console_code().code).token
    player = player_token(desk, button, "p", "10.0.0.3")
    assert desk.is_owner(button) and desk.is_owner(console) and not desk.is_owner(player)
    shown = {d.name: d.to_plain()["owner"] for d in desk.devices()}
    assert shown == {"Tablet owner": True, "Console": True, "Tablet p": False}
    assert not desk.is_owner(None) and not desk.is_owner("abc.def")
    refusal("not-owner", desk.check_owner, player, "download the backup")
    refusal("not-paired", desk.check_owner, None, "download the backup")
    desk.check_owner(button, "download the backup")


def test_only_an_owners_device_shows_a_code_that_pairs_an_owner(desk: Pairing) -> None:
    owner = paired_token(desk, "owner", "10.0.0.1")
    player = player_token(desk, owner, "p", "10.0.0.2")
    refusal("not-owner", desk.show_code, player, True)
    second = player_token(desk, owner, "o2", "10.0.0.3", owner=True)
    third = player_token(desk, player, "p2", "10.0.0.4")  # a player's code pairs a player
    assert desk.is_owner(second) and not desk.is_owner(third)


def test_an_owner_marks_and_unmarks_devices_and_a_player_cannot(desk: Pairing, tmp_path: Path) -> None:
    owner = paired_token(desk, "owner", "10.0.0.1")
    player = player_token(desk, owner, "p", "10.0.0.2")
    player_id, owner_id = player.split(".")[0], owner.split(".")[0]
    refusal("not-owner", desk.set_owner, player_id, True, player)  # a player cannot promote itself
    refusal("not-owner", desk.set_owner, owner_id, False, player)
    refusal("last-owner", desk.set_owner, owner_id, False, owner)  # the only owner's device stays one
    refusal("unknown-device", desk.set_owner, "nope", True, owner)
    assert desk.set_owner(player_id, True, owner).owner and desk.is_owner(player)
    assert not desk.set_owner(owner_id, False, player).owner and not desk.is_owner(owner)
    again = Pairing(tmp_path, PairingSettings(), iterations=1000)  # the mark is kept on disk
    assert again.is_owner(player) and not again.is_owner(owner)
    assert not desk.set_owner(player_id, False, None, trusted=True).owner  # the box's own screen may unmark all


def test_a_player_removes_only_itself_the_owner_any_device(desk: Pairing) -> None:
    owner = paired_token(desk, "owner", "10.0.0.1")
    one, two = player_token(desk, owner, "p1", "10.0.0.2"), player_token(desk, owner, "p2", "10.0.0.3")
    refusal("not-owner", desk.revoke, owner.split(".")[0], one)
    refusal("not-owner", desk.revoke, two.split(".")[0], one)
    assert desk.revoke(one.split(".")[0], one)  # itself
    assert desk.revoke(two.split(".")[0], owner)
    assert [d.name for d in desk.devices()] == ["Tablet owner"]


def test_records_from_before_the_mark_read_as_the_owners_when_paired_by_the_button(desk: Pairing,
                                                                                    tmp_path: Path) -> None:
    button = paired_token(desk, "b", "10.0.0.1")
    coded = player_token(desk, button, "c", "10.0.0.2", owner=True)
    path = tmp_path / TOKENS_FILE
    data = json.loads(path.read_text())
    for record in data["devices"]:
        del record["owner"]  # as an older box wrote them
    path.write_text(json.dumps(data))
    older = Pairing(tmp_path, PairingSettings(), iterations=1000)
    assert older.is_owner(button) and not older.is_owner(coded) and not older.store.problem


def test_with_pairing_off_every_tablet_plays_but_the_owner_is_still_the_owners_devices(tmp_path: Path) -> None:
    relaxed = Pairing(tmp_path, PairingSettings(required=False), iterations=1000)
    access = Access(relaxed)
    access.connected("anyone", {}, "10.0.0.9")
    access.check_change("anyone")
    access.check_read("anyone")
    assert access.readers() is None and not access.is_owner("anyone")
    with pytest.raises(TableError) as refused_backup:
        access.check_owner("anyone", "download the backup")
    assert code_of(refused_backup) == "not-paired"
    owner = relaxed.pair_with_code("sid", "Owner", "10.0.0.1", relaxed.console_code().code).token
    access.connected("owner", {"token": owner}, "10.0.0.1")
    assert access.is_owner("owner")


def test_access_is_owner_follows_the_boxs_screen_and_the_devices_mark(desk: Pairing) -> None:
    access = Access(desk)
    owner = paired_token(desk, "owner", "10.0.0.1")
    player = player_token(desk, owner, "p", "10.0.0.2")
    access.connected("screen", {}, "127.0.0.1")
    access.connected("owner", {"token": owner}, "10.0.0.1")
    access.connected("player", {"token": player}, "10.0.0.2")
    access.connected("stranger", {}, "10.0.0.9")
    assert [access.is_owner(sid) for sid in ("screen", "owner", "player", "stranger")] == [True, True, False, False]
    assert access.status("player")["owner"] is False and access.status("owner")["owner"] is True
    assert access.readers() == ["owner", "player", "screen"]  # the games' list: never the stranger
    with pytest.raises(TableError) as refused_read:
        access.check_read("stranger")
    assert code_of(refused_read) == "not-paired" and "pair this tablet to see the games" in str(refused_read.value)
    access.check_read("player")
    with pytest.raises(TableError) as refused_mark:
        access.set_owner("player", {"device_id": player.split(".")[0], "owner": True})
    assert code_of(refused_mark) == "not-owner"
    marked = access.set_owner("owner", {"device_id": player.split(".")[0], "owner": True})
    assert marked["device"]["owner"] is True and access.is_owner("player")
    assert access.owner_request(None, "127.0.0.1") and not access.owner_request(None, "10.0.0.9")
    with pytest.raises(TableError) as bad:
        access.set_owner("owner", {"device_id": player.split(".")[0], "owner": "yes"})
    assert code_of(bad) == "bad-request"
    assert access.show_code("owner", {"owner": True})["owner"] is True
    assert access.show_code("screen", {})["owner"] is False
