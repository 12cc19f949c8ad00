"""Screenshots of Siege of Barovia's and Straszydła's main screens on a 10" tablet (1280 x 800) and
a phone (390 x 844), saved to docs/screenshots/ (docs/screenshots/README.md lists them). Each game
is played through the app, so each picture is also a check that its screen shows what it should."""

from __future__ import annotations

import random
from typing import Any, Callable

from companion.games.straszydla.packdata import load_pack
from companion.games.straszydla.setup import default_setup
from service_process import connect, ok
from ui_helpers import GAME, Server, new_game, open_games, press, prompt_of, shot, version, wait_version_after

PHONE = {"width": 390, "height": 844}


def watch(page: Any, url: str) -> None:
    page.goto(url)
    page.get_by_test_id("seat-watch").click()
    page.locator(GAME).wait_for()


def take_seat(page: Any, url: str, seat: str) -> None:
    page.goto(url)
    page.locator(f"[data-testid=seat-claim][data-seat='{seat}']").click()
    page.locator(GAME).wait_for()


def test_screenshots_of_siege_of_barovia(server: Server, new_tablet: Callable[..., Any]) -> None:
    tablet = new_tablet()
    open_games(tablet, server.url)
    new_game(tablet, "siege-of-barovia")
    tablet.get_by_test_id("screen-setup").wait_for()
    for n, name in enumerate(("Ana", "Ben", "Cid")):
        tablet.get_by_test_id(f"setup-player-{n}").fill(name)
    tablet.get_by_test_id("setup-dm-person").click()
    shot(tablet, "siege-setup")
    tablet.get_by_test_id("setup-start").click()
    tablet.get_by_test_id("screen-seat").wait_for()
    assert "The shared tablet plays" in tablet.get_by_test_id("seat-hint").inner_text()
    shot(tablet, "siege-seat")
    game_url = tablet.url
    tablet.get_by_test_id("seat-watch").click()
    tablet.locator(GAME).wait_for()
    assert prompt_of(tablet) == ("action", "hero-turn")
    shot(tablet, "siege-hero-turn")
    phone = new_tablet(PHONE)
    take_seat(phone, game_url, "dm")
    old = version(tablet)
    press(tablet, tablet.locator("[data-testid=action][data-action=end]"))  # Ana ends her turn: the DM's comes
    tablet.get_by_test_id("confirm-yes").click()  # asked first: she has not moved nor acted (a declared confirmation)
    wait_version_after(tablet, old)
    phone.wait_for_selector("[data-testid=prompt][data-key=dm-turn]")
    phone.wait_for_timeout(400)  # the tap guard after another device's redraw
    shot(phone, "siege-phone-dm-turn")
    shot(tablet, "siege-dm-turn-waiting")
    at = phone.locator("[data-testid=siege-pick-board] [data-testid=figure][data-figure=ghoul-1]").get_attribute("data-square")
    phone.locator(f"[data-testid=grid-pick][data-pick=from][data-square='{at}']").click()
    if phone.get_by_test_id("dm-which").count():
        phone.locator("[data-testid=dm-figure][data-figure=ghoul-1]").click()
    phone.locator("[data-testid=grid-pick][data-pick=to]").first.wait_for()
    shot(phone, "siege-phone-dm-where")
    phone.locator("[data-testid=grid-pick][data-pick=to]").first.click()
    phone.get_by_test_id("dm-acts").wait_for()
    shot(phone, "siege-phone-dm-acts")
    phone.get_by_test_id("dm-restart").click()
    phone.get_by_test_id("dm-no-move").click()
    old = version(phone)
    phone.locator("[data-testid=dm-act][data-act=summon]").click()
    wait_version_after(phone, old)
    old = version(phone)
    phone.locator("[data-testid=d6][data-value='6']").first.click()
    phone.get_by_test_id("roll-confirm").click()
    wait_version_after(phone, old)
    phone.wait_for_selector("[data-testid=prompt][data-key=strahd-arrives]")
    phone.locator("[data-testid=grid-pick][data-pick=edge]").nth(5).click()
    shot(phone, "siege-phone-strahd-arrives")
    shared = new_tablet(PHONE)
    watch(shared, game_url)
    shot(shared, "siege-phone-shared", full_page=True)


def test_screenshots_of_straszydla(server: Server, new_tablet: Callable[..., Any]) -> None:
    tablet = new_tablet()
    open_games(tablet, server.url)
    new_game(tablet, "straszydla")
    tablet.get_by_test_id("sz-setup-board").wait_for()
    tablet.get_by_test_id("sz-players-3").click()
    shot(tablet, "straszydla-setup")
    client = connect(server.url)
    try:
        game_id = ok(client, "new_game", {"game": "straszydla", "name": "Straszydła",
                                          "setup": default_setup(load_pack(), 3, random.Random(3))})["game_id"]
    finally:
        client.disconnect()
    game_url = f"{server.url}#/game/{game_id}"
    tablet.goto(game_url)
    tablet.get_by_test_id("screen-seat").wait_for()
    shot(tablet, "straszydla-seat")
    tablet.get_by_test_id("seat-watch").click()
    tablet.locator(GAME).wait_for()
    phones = {seat: new_tablet(PHONE) for seat in ("p1", "p2", "p3")}
    pacts = [p["id"] for p in load_pack_view(server.url, game_id)]
    for n, (seat, phone) in enumerate(phones.items()):
        take_seat(phone, game_url, seat)
        press(phone, phone.locator(f"[data-testid=option][data-id='{pacts[n]}']"))
        phone.get_by_test_id("sz-pact-review").wait_for()
        if seat == "p1":
            shot(phone, "straszydla-phone-pact-review")
        old = version(tablet)
        press(phone, phone.get_by_test_id("sz-pact-yes"))
        wait_version_after(tablet, old)
    przemo = phones["p1"]
    przemo.locator("[data-testid=sz-plan-to]").first.wait_for()
    old = version(tablet)
    press(przemo, przemo.locator("[data-testid=sz-plan-to]").first)
    wait_version_after(tablet, old)
    przemo.get_by_test_id("sz-plan-laid").wait_for()
    shot(przemo, "straszydla-phone-plan-laid")
    shot(przemo, "straszydla-phone-board", full_page=True)
    tablet.wait_for_selector("[data-testid=sz-player][data-seat=p1] >> text=ready")
    shot(tablet, "straszydla-planning")


def load_pack_view(url: str, game_id: str) -> list[dict[str, Any]]:
    """The pact cards of the box, as the app gets them."""
    client = connect(url)
    try:
        return list(ok(client, "join", {"game_id": game_id})["pack"]["pacts"])
    finally:
        client.disconnect()
