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
from conftest import TABLET, StrictServer
from service_process import SETUP, connect, next_event, ok, simple_answer
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
    """A game started over Socket.IO, answered simply up to the question ``until`` (``"end"``: to its
    end screen); its id."""
    client = connect(url)
    try:
        game_id = str(ok(client, "new_game", {"game": game, "name": f"Seen {game}", "setup": setup})["game_id"])
        view = ok(client, "join", {"game_id": game_id})["view"]
        if until:
            play_to(client, view, until)
        return game_id
    finally:
        client.disconnect()


def play_to(client: Any, view: dict[str, Any], until: str, limit: int = 400) -> None:
    """Simple answers (a d6 rolls 6s) until the question ``until`` is asked, or the game ends for "end"."""
    for _ in range(limit):
        if view["prompt"] is None or view["prompt"]["key"] == until:
            assert (view["prompt"] is None) == (until == "end"), (until, view["prompt"])
            return
        prompt = view["prompt"]
        answer = [6] * prompt["count"] if prompt["kind"] == "roll" and prompt.get("die") == "d6" else simple_answer(prompt)
        ok(client, "act", {"game_id": view["game_id"], "version": view["version"], "key": prompt["key"], "answer": answer})
        view = next_event(client, "view")
    raise AssertionError(f"no {until} within {limit} answers")


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
        "ravenloft-end": new_game(url, "ravenloft", dict(SETUP), "end"),
        "siege-hero": new_game(url, "siege-of-barovia", SIEGE),
        "siege-roll": new_game(url, "siege-of-barovia", SIEGE, "summon"),
        "siege-end": new_game(url, "siege-of-barovia", SIEGE, "end"),
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
        if not self.page.evaluate("typeof window.axe === 'object'"):  # once per page load: a new hash keeps it
            self.page.evaluate(self.axe.axe_script)
        violations = self.page.evaluate("axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)")
        for violation in violations:
            if violation["impact"] in BLOCKING:
                where = "; ".join(" ".join(node["target"]) for node in violation["nodes"][:4])
                self.findings.append(f"{self.size} {name}: {violation['impact']} {violation['id']} "
                                     f"({violation['help']}) x{len(violation['nodes'])} at {where}")


#: The shell's screens: (route, what shows it has come, its name in a finding).
SHELL_SCREENS = (
    ("#/", "[data-testid=screen-games]", "games list"),
    ("#/new", "[data-testid=screen-choose-game]", "which game"),
    ("#/pair", "[data-testid=screen-pair]", "pairing"),
    ("#/health", "[data-testid=screen-health]", "box health"),
    ("#/leds", "[data-testid=screen-leds], [data-testid=screen-leds-loading]", "LED setup"),
    ("#/dice", "[data-testid=screen-dice], [data-testid=screen-dice-loading]", "dice setup"),
)


def shell_screens(screens: Screens) -> None:
    for route, shown, name in SHELL_SCREENS:
        screens.go(route, shown)
        screens.check(name)


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
    screens.go(f"#/game/{games['ravenloft-monster']}", GAME)
    page.get_by_test_id("history-open").click()
    page.get_by_test_id("history").wait_for()
    screens.check("history")
    page.get_by_test_id("history-close").click()
    overlays(screens, games)
    straszydla = straszydla_game(screens.url)
    screens.go(f"#/game/{straszydla}", "[data-testid=screen-seat]")
    screens.check("straszydla: whose device")
    page.locator("[data-testid=seat-claim][data-seat=p1]").click()
    page.locator(f"{GAME} [data-testid=prompt]").wait_for()
    screens.check("straszydla: the pact, on a player's phone")
    page.get_by_test_id("prompt").get_by_test_id("option").first.click()
    page.get_by_test_id("sz-pact-review").wait_for()
    screens.check("straszydla: the pact card reviewed before it counts")
    page.get_by_test_id("sz-pact-yes").click()
    page.wait_for_selector("[data-testid=prompt][data-key=plan], [data-testid=prompt][data-kind=waiting]")
    screens.check("straszydla: waiting for the other pacts")
    page.get_by_test_id("history-open").click()
    page.get_by_test_id("history").wait_for()
    screens.check("straszydla history")


def overlays(screens: Screens, games: dict[str, str]) -> None:
    """What opens over a game screen: the Monster deck, a confirmation, "Is this your card?", What if…"""
    page = screens.page
    screens.go(f"#/game/{games['ravenloft-hero']}", GAME)
    page.get_by_test_id("deck-count").click()
    page.get_by_test_id("deck").wait_for()
    screens.check("Monster deck")
    page.get_by_test_id("deck-close").click()
    page.get_by_test_id("what-if").click()
    page.get_by_test_id("what-if-hint").wait_for()
    screens.check("what if: choose an action")
    page.get_by_test_id("what-if-cancel").click()
    page.get_by_test_id("prompt").locator("[data-testid=action][data-action='end']").first.click()
    page.get_by_test_id("confirm").wait_for()
    screens.check("confirm ending the Hero Phase")
    page.get_by_test_id("confirm-no").click()
    screens.go(f"#/game/{games['ravenloft-draw']}", GAME)
    page.wait_for_timeout(400)  # the tap guard
    page.get_by_test_id("prompt").locator("[data-testid=option]:not([data-id='enter-card'])").first.click()
    page.locator("[data-testid=card-check], [data-version]:not([data-version='0'])").first.wait_for()
    screens.check("is this your card?")


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


def test_axe_finds_nothing_critical_or_serious_where_a_tablet_is_not_paired_yet(
        strict_server: StrictServer, pages: Callable[[dict[str, int]], Any]) -> None:
    """A box that trusts nobody: the games list of a tablet that only watches, the pairing screen
    with its code, and the screen once paired."""
    findings: list[str] = []
    for size, viewport in SIZES.items():
        screens = Screens(pages(viewport), strict_server.url, size)
        screens.go("#/", "[data-testid=screen-games]")
        screens.check("games list, not paired")
        screens.go("#/pair", "[data-testid=pair-status][data-paired=no]")
        screens.check("pairing, not paired")
        findings += screens.findings
    screens.page.get_by_test_id("pair-name").fill("Kitchen tablet")
    screens.page.get_by_test_id("pair-code-input").fill(strict_server.first_code)
    screens.page.get_by_test_id("pair-code-submit").click()
    screens.page.wait_for_selector("[data-testid=pair-status][data-paired=yes]")
    screens.findings = []
    screens.check("pairing, paired")
    findings += screens.findings
    assert not findings, "axe-core's critical and serious findings:\n" + "\n".join(findings)


# -- one check per point ------------------------------------------------------------------------------------
NAMES_AND_HEIGHTS = """(els) => els.map((e) => ({ id: e.dataset.testid || e.dataset.reading || '',
  name: (e.getAttribute('aria-label') || [...e.labels].map((l) => l.textContent).join(' ')).trim(),
  height: e.getBoundingClientRect().height }))"""


@pytest.mark.parametrize("size", SIZES)
def test_straszydla_s_wizard_names_every_drop_down_and_makes_it_finger_tall(server: Server, pages: Any, size: str) -> None:
    page = pages(SIZES[size])
    page.goto(f"{server.url}#/new/straszydla")
    page.get_by_test_id("sz-setup-board").wait_for()
    page.get_by_test_id("sz-readings").locator("summary").click()
    selects = page.locator("[data-testid=screen-setup] select").evaluate_all(NAMES_AND_HEIGHTS)
    assert len(selects) >= 8, selects
    unnamed = [s["id"] for s in selects if not s["name"]]
    small = [(s["id"], round(s["height"])) for s in selects if s["height"] < TAP_PX]
    assert not unnamed and not small, f"drop-downs with no name: {unnamed}; under {TAP_PX} px: {small}"
    creature = page.locator("[data-testid=sz-starter][data-seat=p1]").get_attribute("aria-label")
    assert creature and "Przemo" in creature


def game_page(pages: Any, server: Server, game_id: str, viewport: dict[str, int] = TABLET) -> Any:
    page = pages(viewport)
    page.goto(f"{server.url}#/game/{game_id}")
    page.locator(GAME).wait_for()
    return page


def test_every_led_is_named_with_its_colour_in_words(server: Server, games: dict[str, str], pages: Any) -> None:
    page = game_page(pages, server, games["ravenloft-hero"])
    page.wait_for_selector("[data-testid=led-layer][data-lit]:not([data-lit='0'])")
    leds = page.get_by_test_id("led").evaluate_all("(els) => els.map((e) => [e.getAttribute('role'), e.getAttribute('aria-label'), e.dataset.lit])")
    assert len(leds) > 50
    assert all(role == "img" and label for role, label, _ in leds), [led for led in leds if not led[1]][:5]
    lit = [label for _, label, on in leds if on == "yes"]
    colours = ("white", "red", "orange", "yellow", "green", "blue", "purple", "vermillion")
    assert lit and all(": off" not in label and any(word in label for word in colours) for label in lit), lit[:5]
    page.get_by_test_id("led-words").locator("summary").click()  # and in words on screen, grouped by colour
    page.get_by_test_id("led-words").locator("li").first.wait_for()  # filled when the panel's toggle event comes
    lines = page.get_by_test_id("led-words-line").all_inner_texts()
    assert lines and all(line.split(":")[0].split()[-1] in colours and "LED" in line for line in lines), lines


def test_the_threat_glow_has_marks_and_a_legend_besides_its_shade(server: Server, games: dict[str, str], pages: Any) -> None:
    page = game_page(pages, server, games["horrified-hero"])
    page.wait_for_selector("[data-testid=forecast][data-ready=yes]", timeout=120_000)
    legend = page.get_by_test_id("threat-legend")
    assert "!!!" in legend.inner_text() and "very likely" in legend.inner_text()
    marks = page.get_by_test_id("threat-mark")
    places = page.get_by_test_id("threat-places").inner_text()
    if marks.count():  # each glowing place is marked by level, and named in the legend
        tiers = {"0": "!", "1": "!!", "2": "!!!"}
        for mark in marks.all():
            assert mark.locator("text").text_content() == tiers[str(mark.get_attribute("data-tier"))]
        assert places.startswith("Threatened: ")
    else:
        assert places == "No place is threatened."


def test_a_chosen_die_face_is_ticked_and_pressed_not_only_bordered(server: Server, games: dict[str, str], pages: Any) -> None:
    page = game_page(pages, server, games["ravenloft-dice"])
    face = page.locator("[data-testid=face][data-die='0'][data-face='hit']")
    face.click()
    assert face.get_attribute("aria-pressed") == "true"
    assert face.get_by_test_id("chosen-mark").inner_text() == "✓"
    assert page.get_by_test_id("chosen-mark").count() == 1  # the other faces carry no tick


@pytest.mark.parametrize("game", ["ravenloft-hero", "horrified-hero"])
def test_on_a_phone_every_board_place_a_tap_answers_is_finger_sized_named_and_not_nested(
        server: Server, games: dict[str, str], pages: Any, game: str) -> None:
    page = game_page(pages, server, games[game], PHONE)
    places = page.locator("[data-testid=board] [data-testid=loc][data-target]")
    assert places.count() >= 2
    for place in places.all():
        box = place.bounding_box()
        assert box["width"] >= TAP_PX and box["height"] >= TAP_PX, (place.get_attribute("data-id"), box)
        assert place.get_attribute("aria-label"), place.get_attribute("data-id")
    # The board holds buttons, so it is a group: an image's (or a button's) children are never controls.
    assert page.get_by_test_id("board").get_attribute("role") not in ("img", "button", "link")


#: The two places of the board editor nearest each other: their centres on screen, in drawing order.
CLOSEST_PAIR = """() => {
  const places = [...document.querySelectorAll('[data-testid=ed-loc]')].map((g) => {
    const r = g.querySelector('.loc-disc').getBoundingClientRect();
    return { id: g.dataset.id, x: r.x + r.width / 2, y: r.y + r.height / 2 };
  });
  let best = null;
  places.forEach((a, i) => places.slice(i + 1).forEach((b) => {
    const d = Math.hypot(a.x - b.x, a.y - b.y);
    if (!best || d < best.d) best = { a, b, d };
  }));
  return best;
}"""


@pytest.mark.parametrize("pack", ["ravenloft", "horrified"])
def test_on_a_phone_the_board_editor_s_places_are_finger_sized_and_a_press_takes_the_nearest(
        server: Server, pages: Any, pack: str) -> None:
    page = pages(PHONE)
    page.goto(f"{server.url}#/data/{pack}/board")
    page.get_by_test_id("ed-loc").first.wait_for()
    areas = page.locator("[data-testid=ed-loc] .loc-hit").evaluate_all(
        "(els) => els.map((e) => [e.parentElement.dataset.id, e.getBoundingClientRect().width])")
    small = [(place, round(width)) for place, width in areas if width < TAP_PX]
    assert len(areas) > 20 and not small, small
    # Grown that large, neighbours' tap areas overlap: a press 45 % of the way from one place to the
    # next, inside both, is for the nearer one (drawn first, so not the one on top).
    pair = page.evaluate(CLOSEST_PAIR)
    page.locator(f"[data-testid=ed-loc][data-id='{pair['a']['id']}']").scroll_into_view_if_needed()
    pair = page.evaluate(CLOSEST_PAIR)
    a, b, radius = pair["a"], pair["b"], min(width for _, width in areas) / 2
    x, y = a["x"] + 0.45 * (b["x"] - a["x"]), a["y"] + 0.45 * (b["y"] - a["y"])
    assert 0.55 * pair["d"] < radius, ("the two nearest places' tap areas do not overlap", pair, radius)
    page.mouse.click(x, y)
    selected = page.locator("[data-testid=ed-loc].selected")
    selected.wait_for()
    assert selected.get_attribute("data-id") == a["id"], (pair, selected.get_attribute("data-id"))


HEADINGS = "() => [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].map((e) => Number(e.tagName[1]))"


def test_every_game_screen_has_one_h1_and_headings_in_order(server: Server, games: dict[str, str], pages: Any) -> None:
    page = pages(TABLET)
    for name, game_id in games.items():
        page.goto(f"{server.url}#/game/{game_id}")
        page.locator(GAME).wait_for()
        levels = page.evaluate(HEADINGS)
        assert levels.count(1) == 1 and levels[0] == 1, (name, levels)
        jumps = [(a, b) for a, b in zip(levels, levels[1:]) if b > a + 1]
        assert not jumps, (name, levels)


def test_history_is_a_modal_dialog_named_by_its_heading_and_escape_closes_it(
        server: Server, games: dict[str, str], pages: Any) -> None:
    page = game_page(pages, server, games["horrified-hero"])
    page.get_by_test_id("history-open").click()
    drawer = page.get_by_test_id("history")
    drawer.wait_for()
    assert drawer.evaluate("(e) => e.tagName") != "ASIDE"
    assert drawer.get_attribute("role") == "dialog" and drawer.get_attribute("aria-modal") == "true"
    assert page.locator(f"#{drawer.get_attribute('aria-labelledby')}").inner_text() == "History"
    page.wait_for_function("() => document.querySelector('[data-testid=history]').contains(document.activeElement)")
    page.keyboard.press("Escape")
    page.get_by_test_id("history").wait_for(state="detached")
    assert page.evaluate("document.activeElement.dataset.testid") == "history-open"
    page.wait_for_selector("[data-testid=forecast-table]", timeout=120_000)
    headers = page.locator("th").all_inner_texts()
    assert headers and all(text.strip() for text in headers), headers
