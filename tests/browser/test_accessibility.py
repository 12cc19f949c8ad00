"""Accessibility: axe-core (the copy that PyPI's axe-playwright-python ships, run in the page, no
download) over every screen of every game at a tablet's and a phone's size, failing on any critical
or serious finding; then one check per point a screen reader or a finger met at the table: the
drop-downs of Straszydła's new-game screen, the LEDs and the threat glow in words besides colour, a
chosen die face, the board's places on a phone, the headings, and History as a dialog."""

from __future__ import annotations

import random
from typing import Any, Callable, Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe

from companion.games.straszydla.packdata import load_pack
from companion.games.straszydla.setup import default_setup
from conftest import TABLET
from service_process import SETUP, connect, ok, play_socket_until
from ui_helpers import GAME, Server

PHONE = {"width": 390, "height": 844}
SIZES = {"tablet": TABLET, "phone": PHONE}
BLOCKING = ("critical", "serious")
ORIGINAL = {"monsters": ["dracula", "creature"], "heroes": [{"hero": "mayor", "player": "Ana"}]}
PAIR = {"monsters": ["baba-lysaga"], "heroes": [{"hero": "sorcerer", "player": "Sam"}, {"hero": "druid", "player": "Dee"}]}
SIEGE = {"players": [{"name": "Ana"}], "dm": "box"}
#: Connected, where the screen shows the connection (the wizard's later steps do not).
CONNECTED = "() => [...document.querySelectorAll('[data-testid=connection]')].every((e) => e.dataset.state === 'connected')"
#: A finger's least target (WCAG 2.5.5, and the platforms' guides).
TAP_PX = 44


def new_game(url: str, game: str, setup: dict[str, Any], until: str | None = None) -> str:
    """A game started over Socket.IO, answered simply up to the question ``until``; its id."""
    client = connect(url)
    try:
        game_id = str(ok(client, "new_game", {"game": game, "name": f"Seen {game}", "setup": setup})["game_id"])
        view = ok(client, "join", {"game_id": game_id})["view"]
        if until:
            play_socket_until(client, view, until, limit=200)
        return game_id
    finally:
        client.disconnect()


def straszydla_game(url: str) -> str:
    setup = default_setup(load_pack(), 2, random.Random(7))
    return new_game(url, "straszydla", setup)


@pytest.fixture(scope="module")
def games(server: Server) -> dict[str, str]:
    """One game of each pack in each of its main states (ids by name)."""
    url = server.url
    return {
        "ravenloft-draw": new_game(url, "ravenloft", dict(SETUP)),
        "ravenloft-roll": new_game(url, "ravenloft", PAIR, "first-player"),
        "ravenloft-hero": new_game(url, "ravenloft", dict(SETUP), "hero-action"),
        "ravenloft-monster": new_game(url, "ravenloft", dict(SETUP), "monster-card"),
        "ravenloft-dice": new_game(url, "ravenloft", dict(SETUP), "monster-dice"),
        "horrified-hero": new_game(url, "horrified", ORIGINAL, "hero-action"),
        "horrified-monster": new_game(url, "horrified", ORIGINAL, "monster-card"),
        "siege-hero": new_game(url, "siege-of-barovia", SIEGE),
    }


class Screens:
    """One page per size, reused: each screen is reached by its address (or a tap) and checked."""

    def __init__(self, page: Any, url: str, size: str) -> None:
        self.page, self.url, self.size = page, url.rstrip("/"), size
        self.axe = Axe()
        self.findings: list[str] = []

    def go(self, hash_: str, ready: str) -> None:
        self.page.goto(f"{self.url}/{hash_}")
        self.page.locator(ready).first.wait_for()
        self.page.wait_for_function(CONNECTED)

    def check(self, name: str) -> None:
        self.page.wait_for_timeout(150)  # a push's redraw settles
        results = self.axe.run(self.page, options={"resultTypes": ["violations"]})
        for violation in results.response["violations"]:
            if violation["impact"] in BLOCKING:
                where = "; ".join(" ".join(node["target"]) for node in violation["nodes"][:4])
                self.findings.append(f"{self.size} {name}: {violation['impact']} {violation['id']} "
                                     f"({violation['help']}) x{len(violation['nodes'])} at {where}")


def shell_screens(screens: Screens) -> None:
    screens.go("#/", "[data-testid=screen-games]")
    screens.check("games list")
    screens.go("#/new", "[data-testid=screen-choose-game]")
    screens.check("which game")
    screens.go("#/pair", "[data-testid=screen-pair]")
    screens.check("pairing")
    screens.go("#/health", "[data-testid=screen-health]")
    screens.check("box health")
    screens.go("#/leds", "[data-testid=screen-leds], [data-testid=screen-leds-loading]")
    screens.check("LED setup")
    screens.go("#/dice", "[data-testid=screen-dice], [data-testid=screen-dice-loading]")
    screens.check("dice setup")


def wizard_screens(screens: Screens) -> None:
    page = screens.page
    for pack in ("ravenloft", "horrified"):
        screens.go(f"#/new/{pack}", "[data-testid=screen-setup][data-step]")
        screens.check(f"{pack} wizard: monsters")
        page.locator("[data-testid^=monster-]").first.click()
        page.get_by_test_id("setup-next").click()
        page.locator("[data-testid^=hero-]").first.click()
        screens.check(f"{pack} wizard: heroes")
        page.get_by_test_id("setup-next").click()
        page.get_by_test_id("setup-start").wait_for()
        screens.check(f"{pack} wizard: start")
    screens.go("#/new/siege-of-barovia", "[data-testid=setup-start]")
    screens.check("siege-of-barovia wizard")
    screens.go("#/new/straszydla", "[data-testid=sz-setup-board]")
    screens.check("straszydla wizard")


def data_screens(screens: Screens) -> None:
    page = screens.page
    for pack in ("ravenloft", "horrified"):
        screens.go(f"#/data/{pack}/status", "[data-testid=screen-data]")
        tabs = [str(tab.get_attribute("data-testid")).removeprefix("data-tab-")
                for tab in page.locator("[data-testid^=data-tab-]").all()]
        screens.check(f"{pack} data: status")
        for tab in tabs:
            if tab != "status":
                screens.go(f"#/data/{pack}/{tab}", "[data-testid=screen-board-editor], [data-testid^=screen-library-]")
                screens.check(f"{pack} data: {tab}")
    screens.go("#/data/siege-of-barovia/status", "[data-testid=screen-grid-editor]")
    screens.check("siege-of-barovia data")
    screens.go("#/data/straszydla/status", "[data-testid=screen-data] section")
    screens.check("straszydla data")


def game_screens(screens: Screens, games: dict[str, str]) -> None:
    page = screens.page
    for name, game_id in games.items():
        screens.go(f"#/game/{game_id}", GAME)
        screens.check(f"game {name}")
    page.get_by_test_id("history-open").click()
    page.get_by_test_id("history").wait_for()
    screens.check("history")
    page.get_by_test_id("history-close").click()
    straszydla = straszydla_game(screens.url)
    screens.go(f"#/game/{straszydla}", "[data-testid=screen-seat]")
    screens.check("straszydla: whose device")
    page.locator("[data-testid=seat-claim][data-seat=p1]").click()
    page.locator(f"{GAME} [data-testid=prompt]").wait_for()
    screens.check("straszydla: the pact, on a player's phone")
    page.get_by_test_id("history-open").click()
    page.get_by_test_id("history").wait_for()
    screens.check("straszydla history")


@pytest.fixture
def pages(browser: Any) -> Iterator[Callable[[dict[str, int]], Any]]:
    contexts: list[Any] = []

    def open_page(viewport: dict[str, int]) -> Any:
        context = browser.new_context(viewport=viewport, has_touch=True)
        context.set_default_timeout(30_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def test_axe_finds_nothing_critical_or_serious_on_any_screen_at_either_size(
        server: Server, games: dict[str, str], pages: Callable[[dict[str, int]], Any]) -> None:
    findings: list[str] = []
    for size, viewport in SIZES.items():
        screens = Screens(pages(viewport), server.url, size)
        shell_screens(screens)
        wizard_screens(screens)
        data_screens(screens)
        game_screens(screens, games)
        findings += screens.findings
    assert not findings, "axe-core's critical and serious findings:\n" + "\n".join(findings)
