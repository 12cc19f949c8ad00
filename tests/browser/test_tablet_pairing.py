"""Pairing on the tablet, against a companion that trusts nobody (not even a
browser on the box itself): an unpaired tablet can watch but its changes are
refused, with a banner leading to the pairing screen; it pairs with the code
the box prints for the first tablet, and then the same change goes through,
also after a reload (the token is kept) and over HTTP (the diagnostics file). A paired tablet shows a code, a
second tablet types it and is paired; the first removes the second, whose
next change is refused again. Asking the box shows the PAIR countdown (the
button itself is pressed in the server tests, with Socket.IO clients)."""

from __future__ import annotations

import zipfile
from typing import Any, Callable

from conftest import StrictServer
from service_process import connect, ok
from ui_helpers import (choose_game, fill_steps, game_id_of, open_games, shot, start_game_in_wizard, tap_option, version,
                        wait_connected)

NOT_PAIRED = "This tablet can watch but not change the game"
PAIR_BANNER = "[data-testid=banner][data-kind=pair]"


def wait_refused(page: Any) -> None:
    """The pairing banner, saying what the tablet may do and leading to the pairing screen."""
    banner = page.locator(PAIR_BANNER)
    banner.wait_for()
    assert NOT_PAIRED in banner.inner_text()
    assert banner.get_by_test_id("banner-pair-link").get_attribute("href") == "#/pair"
    assert page.locator("[data-testid=banner][data-kind=error]").count() == 0  # one banner, not two


def pair_with_code(page: Any, code: str, name: str) -> None:
    """On the pairing screen: name this tablet, type the code, and wait until it is paired."""
    page.get_by_test_id("screen-pair").wait_for()
    page.wait_for_selector("[data-testid=pair-status][data-paired=no]")
    page.get_by_test_id("pair-name").fill(name)
    page.get_by_test_id("pair-code-input").fill(code)
    page.get_by_test_id("pair-code-submit").click()
    page.wait_for_selector("[data-testid=pair-status][data-paired=yes]")
    assert name in page.get_by_test_id("pair-status").inner_text()


def enter_code(page: Any, code: str, name: str) -> None:
    """On the pairing screen: name this tablet and type the code (where it goes next is the caller's to check)."""
    page.wait_for_selector("[data-testid=pair-status][data-paired=no]")
    page.get_by_test_id("pair-name").fill(name)
    page.get_by_test_id("pair-code-input").fill(code)
    page.get_by_test_id("pair-code-submit").click()


def token_of(page: Any) -> str:
    return str(page.evaluate("localStorage.getItem('companion.token') || ''"))


def test_an_unpaired_tablet_watches_until_it_pairs_with_a_code(strict_server: StrictServer,
                                                                new_tablet: Callable[..., Any]) -> None:
    assert strict_server.first_code, "the service printed no pairing code for the first tablet:\n" + "\n".join(strict_server.output)
    page = new_tablet()
    open_games(page, strict_server.url)
    page.wait_for_selector("[data-testid=pair-open][data-state=watching]")
    # This page is on the box's own screen (loopback): it shows the address a tablet opens, as a QR code too.
    shown = page.get_by_test_id("tablet-address")
    shown.wait_for()
    urls = (shown.get_attribute("data-urls") or "").split()
    assert urls == strict_server.get_json("/api/tablet-address")["urls"]
    if urls:
        page.wait_for_function("() => document.querySelector('[data-testid=tablet-qr]')?.naturalWidth > 0")
        assert page.get_by_test_id("tablet-url").first.inner_text() == urls[0]
        shot(page, "box-screen-address")

    # The box's health is open to all; its diagnostics file is not.
    page.get_by_test_id("health-open").click()
    page.get_by_test_id("health-overall").wait_for()
    page.get_by_test_id("diagnostics-download").click()
    wait_refused(page)
    page.locator(PAIR_BANNER).get_by_test_id("banner-close").click()
    page.get_by_test_id("back-to-games").click()
    page.get_by_test_id("screen-games").wait_for()

    # A new game asks for pairing first, before any of its questions; this box has a PAIR button wired,
    # so asking the box is offered beside the code. The owner's phone (paired first) shows a code.
    page.get_by_test_id("new-game").click()
    page.get_by_test_id("pair-first").wait_for()
    page.wait_for_selector("[data-testid=pair-status][data-paired=no]")
    page.get_by_test_id("pair-ask").wait_for()  # offered once the box's access status (its PAIR button) is in
    assert page.get_by_test_id("pair-ask").count() == 1
    with connect(strict_server.url.rstrip("/")) as owner:
        owners = ok(owner, "pair_code", {"name": "Owner's phone", "code": strict_server.first_code})["token"]
        enter_code(page, str(ok(owner, "pair_show_code")["code"]), "Kitchen tablet")
        # Paired: straight back to the new game. Its answers are then kept across a pairing lost
        # and given again: the refused Start leads to pairing, and pairing back to Start.
        choose_game(page)
        assert token_of(page) and page.locator(PAIR_BANNER).count() == 0
        fill_steps(page, ["carrionette"], [("sorcerer", "Sam")])
        mine = next(d["id"] for d in ok(owner, "pair_devices")["devices"] if d["name"] == "Kitchen tablet")
        ok(owner, "pair_revoke", {"device_id": mine})
        page.get_by_test_id("setup-start").click()
        page.get_by_test_id("pair-first").wait_for()
        assert strict_server.get_json("/api/games", owners)["games"] == []
        enter_code(page, str(ok(owner, "pair_show_code")["code"]), "Kitchen tablet")
    page.wait_for_selector("[data-testid=screen-setup][data-step='3']")
    assert "Carrionette" in page.get_by_test_id("screen-setup").inner_text()
    page.get_by_test_id("setup-start").click()
    page.get_by_test_id("screen-game").wait_for()
    game_id = game_id_of(page)
    assert [g["game_id"] for g in strict_server.get_json("/api/games", owners)["games"]] == [game_id]
    tap_option(page)

    # A reload keeps the pairing: the next answer goes through too.
    page.reload()
    page.get_by_test_id("screen-game").wait_for()
    wait_connected(page)
    assert game_id_of(page) == game_id
    before = version(page)
    assert tap_option(page) > before
    assert page.locator(PAIR_BANNER).count() == 0
    page.goto(strict_server.url + "#/pair")
    page.wait_for_selector("[data-testid=pair-status][data-paired=yes]")

    # The token goes with HTTP requests too: the diagnostics file now downloads.
    page.get_by_test_id("back-to-games").click()
    page.get_by_test_id("health-open").click()
    page.get_by_test_id("health-overall").wait_for()
    with page.expect_download() as download:
        page.get_by_test_id("diagnostics-download").click()
    with zipfile.ZipFile(download.value.path()) as bundle:
        assert "health.json" in bundle.namelist()


def test_a_paired_tablet_pairs_another_with_a_code_and_removes_it(strict_server: StrictServer,
                                                                   new_tablet: Callable[..., Any]) -> None:
    owner = new_tablet()
    owner.goto(strict_server.url + "#/pair")
    wait_connected(owner)
    pair_with_code(owner, strict_server.first_code, "Owner")

    # The owner shows a code: big digits with a countdown.
    owner.get_by_test_id("pair-show-code").click()
    shown = owner.get_by_test_id("pair-code")
    shown.wait_for()
    code = shown.get_attribute("data-code") or ""
    assert code.isdigit() and len(code) == 6
    assert int(owner.get_by_test_id("pair-code-countdown").get_attribute("data-seconds") or "0") > 30
    shot(owner, "pairing-code")

    # A second tablet types it and is paired; it can start a game.
    guest = new_tablet()
    guest.goto(strict_server.url + "#/pair")
    wait_connected(guest)
    assert guest.get_by_test_id("pair-code-input").get_attribute("inputmode") == "numeric"
    pair_with_code(guest, code, "Guest")
    guest.get_by_test_id("back-to-games").click()
    guest.get_by_test_id("screen-games").wait_for()
    start_game_in_wizard(guest, ["carrionette"], [("sorcerer", "Sam")])
    start = tap_option(guest)

    # The code paired one tablet: typed again, it is refused.
    third = new_tablet()
    third.goto(strict_server.url + "#/pair")
    wait_connected(third)
    third.get_by_test_id("pair-code-input").fill(code)
    third.get_by_test_id("pair-code-submit").click()
    third.get_by_test_id("pair-code-note").wait_for()
    assert third.get_by_test_id("pair-status").get_attribute("data-paired") == "no"

    # Unpaired, it sees no list of the games: it is told to pair, and may watch the game on the board.
    third.goto(strict_server.url)
    third.get_by_test_id("games-not-paired").wait_for()
    assert "Pair this tablet to see the games" in third.get_by_test_id("games-not-paired").inner_text()
    assert third.get_by_test_id("game-row").count() == 0
    third.get_by_test_id("watch-board").click()
    third.get_by_test_id("screen-game").wait_for()
    playing = game_id_of(guest)
    assert game_id_of(third) == playing

    # The guest's list shows who is the owner's; it marks nobody and removes only itself.
    guest.goto(strict_server.url + "#/pair")
    guest.wait_for_selector("[data-testid=device-row][data-name=Owner]")
    assert guest.locator("[data-testid=pair-status]").get_attribute("data-owner") == "no"
    assert guest.locator("[data-testid=device-row][data-name=Owner]").get_attribute("data-owner") == "yes"
    assert guest.get_by_test_id("device-mark").count() == 0
    assert guest.locator("[data-testid=device-row][data-name=Owner]").get_by_test_id("device-remove").count() == 0

    # The owner sees both tablets (itself marked, the owner's; the guest a player's) and marks the guest
    # as the owner's, then back as a player's; then removes it: two taps.
    owner.reload()
    owner.wait_for_selector("[data-testid=device-row][data-name=Guest]")
    assert owner.locator("[data-testid=device-row][data-this=yes]").get_attribute("data-name") == "Owner"
    guest_row = owner.locator("[data-testid=device-row][data-name=Guest]")
    assert guest_row.get_attribute("data-owner") == "no" and guest_row.get_by_test_id("device-role").inner_text() == "player"
    guest_row.get_by_test_id("device-mark").click()
    owner.wait_for_selector("[data-testid=device-row][data-name=Guest][data-owner=yes]")
    shot(owner, "pairing-owner")
    guest.reload()
    guest.wait_for_selector("[data-testid=pair-status][data-owner=yes]")
    owner.locator("[data-testid=device-row][data-name=Guest]").get_by_test_id("device-mark").click()
    owner.wait_for_selector("[data-testid=device-row][data-name=Guest][data-owner=no]")
    guest.goto(f"{strict_server.url}#/game/{playing}")
    guest.get_by_test_id("screen-game").wait_for()
    wait_connected(guest)
    remove = owner.locator("[data-testid=device-row][data-name=Guest]").get_by_test_id("device-remove")
    remove.click()
    assert "again" in remove.inner_text()
    assert owner.locator("[data-testid=device-row][data-name=Guest]").count() == 1
    remove.click()
    owner.locator("[data-testid=device-row][data-name=Guest]").wait_for(state="detached")
    assert "Guest" in owner.get_by_test_id("devices-note").inner_text()

    # The guest's next answer is refused, with the banner; nothing changed.
    guest.get_by_test_id("prompt").get_by_test_id("option").locator("visible=true").first.click()
    guest.wait_for_selector(f"[data-testid=card-check-skip], {PAIR_BANNER}")  # a guessed item is asked about first
    if guest.get_by_test_id("card-check-skip").count():
        guest.get_by_test_id("card-check-skip").click()
    wait_refused(guest)
    assert version(guest) == start
    assert token_of(guest)  # kept: the tablet only offers to pair again
    guest.locator(PAIR_BANNER).get_by_test_id("banner-pair-link").click()
    guest.wait_for_selector("[data-testid=pair-status][data-paired=no]")
    assert "no longer knows" in guest.get_by_test_id("pair-status").inner_text()


def test_asking_the_box_shows_the_pair_countdown(strict_server: StrictServer, new_tablet: Callable[..., Any]) -> None:
    page = new_tablet()
    page.clock.install()
    page.goto(strict_server.url + "#/pair")
    wait_connected(page)
    page.wait_for_selector("[data-testid=pair-status][data-paired=no]")
    page.get_by_test_id("pair-ask").click()
    countdown = page.get_by_test_id("pair-countdown")
    countdown.wait_for()
    assert "Press PAIR on the box once now" in countdown.inner_text()  # the only tablet asking: number 1
    assert page.get_by_test_id("pair-presses").get_attribute("data-presses") == "1"
    assert 25 <= int(countdown.get_attribute("data-seconds") or "0") <= 30

    # Nobody presses PAIR: when the time is up the screen says so and offers to ask again.
    page.clock.run_for(31_000)
    page.get_by_test_id("pair-ask-note").wait_for()
    assert "Nobody pressed PAIR in time" in page.get_by_test_id("pair-ask-note").inner_text()
    assert page.get_by_test_id("pair-ask").inner_text() == "Ask the box again"
    assert page.get_by_test_id("pair-countdown").count() == 0
