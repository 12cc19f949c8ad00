"""The shell at the table, on a 10" tablet and on a phone: its messages sit in the page under the
top bar (never over a button) and go when they no longer hold (another game, pairing done, by
themselves); an unpaired tablet says "Watching" up front; the browser's Back from a new game is the
games screen; the games screen names the box's games and each saved game's players."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from conftest import TABLET, StrictServer
from service_process import SETUP, connect, ok, simple_answer
from ui_helpers import GAME, Server, game_id_of, open_games, start_game_in_wizard, version, wait_connected

PHONE = {"width": 390, "height": 844}
BANNERS = "[data-testid=banner]"

#: The centre of ``el`` is ``el`` (or inside it) for a finger: nothing lies over it.
UNCOVERED = """(el) => { const r = el.getBoundingClientRect(); const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return Boolean(top) && (top === el || el.contains(top)); }"""


def uncovered(locator: Any) -> bool:
    locator.scroll_into_view_if_needed()
    return bool(locator.evaluate(UNCOVERED))


def assert_nothing_covered(page: Any, *test_ids: str) -> None:
    for test_id in test_ids:
        target = page.get_by_test_id(test_id).first
        assert uncovered(target), f"{test_id} is covered at {page.viewport_size}"


def new_game_by_socket(url: str, name: str) -> str:
    """A Ravenloft game made as another tablet makes it (this box trusts its own address)."""
    with connect(url.rstrip("/")) as other:
        return str(ok(other, "new_game", {"name": name, "setup": SETUP, "game": "ravenloft"})["game_id"])


def test_back_from_a_new_game_is_the_games_screen(server: Server, tablet: Any) -> None:
    open_games(tablet, server.url)
    start_game_in_wizard(tablet, ["carrionette"], [("sorcerer", "Sam")])
    tablet.go_back()
    tablet.get_by_test_id("screen-games").wait_for()
    assert tablet.get_by_test_id("screen-setup").count() == 0 and tablet.get_by_test_id("screen-choose-game").count() == 0


def test_the_games_screen_names_the_box_and_each_games_players(server: Server, tablet: Any) -> None:
    ravenloft = next(p["title"] for p in server.get_json("/api/packs")["packs"] if p["id"] == "ravenloft")
    game_id = new_game_by_socket(server.url, ravenloft)  # as the wizard names a game by default
    open_games(tablet, server.url)
    tablet.wait_for_function("() => document.querySelector('[data-testid=home-title]')?.textContent.includes('Straszyd')")
    title = tablet.get_by_test_id("home-title").inner_text()
    for box in ("Table companion", "Ravenloft", "Horrified", "Siege of Barovia", "Straszydła"):
        assert box in title, title
    row = tablet.locator(f"[data-testid=game-row][data-game-id='{game_id}']")
    assert row.get_by_test_id("game-row-players").inner_text() == "Sam (Sorcerer)"
    assert row.get_by_test_id("game-row-box").count() == 0  # named after its box already: not said twice
    other = new_game_by_socket(server.url, "Friday")
    tablet.reload()
    row = tablet.locator(f"[data-testid=game-row][data-game-id='{other}']")
    assert row.get_by_test_id("game-row-box").inner_text() == ravenloft


@pytest.mark.parametrize("size", [TABLET, PHONE], ids=["tablet", "phone"])
def test_messages_cover_no_button_and_stay_with_their_game(server: Server, new_tablet: Callable[..., Any],
                                                            size: dict[str, int]) -> None:
    game_id = new_game_by_socket(server.url, "Messages")
    page = new_tablet(viewport=size)
    page.goto(f"{server.url}#/game/{game_id}")
    page.locator(GAME).wait_for()
    wait_connected(page)
    # A message (an error and a note) is shown: the top bar's buttons, the question's heading and its
    # answers stay tappable.
    page.evaluate("""() => { companion.showBanner('info', 'Paired as “Kitchen tablet”. This tablet can now change the game.');
                             companion.showBanner('error', 'the companion could not do that'); }""")
    assert page.locator(BANNERS).count() == 2
    assert_nothing_covered(page, "back-to-games", "history-open", "prompt-text", "option")
    assert page.locator("[data-testid=banner][data-kind=error]").inner_text().startswith("The companion could not do that.")
    page.get_by_test_id("back-to-games").click()  # a real tap, no force
    page.get_by_test_id("screen-games").wait_for()
    assert page.locator(BANNERS).count() == 0  # the game's messages stayed with it

    # Nor do they come back with the game, or follow into another one.
    page.locator(f"[data-testid=game-row][data-game-id='{game_id}']").get_by_test_id("resume").click()
    page.locator(GAME).wait_for()
    assert page.locator(BANNERS).count() == 0


def pair_with(page: Any, code: str, name: str) -> None:
    page.get_by_test_id("screen-pair").wait_for()
    page.wait_for_selector("[data-testid=pair-status][data-paired=no]")
    page.get_by_test_id("pair-name").fill(name)
    page.get_by_test_id("pair-code-input").fill(code)
    page.get_by_test_id("pair-code-submit").click()


def test_an_unpaired_tablet_says_watching_up_front_and_pairing_clears_its_messages(
        strict_server: StrictServer, new_tablet: Callable[..., Any]) -> None:
    with connect(strict_server.url.rstrip("/")) as owner:
        ok(owner, "pair_code", {"name": "Owner's phone", "code": strict_server.first_code})
        game_id = ok(owner, "new_game", {"name": "Watched", "setup": SETUP})["game_id"]
        code = str(ok(owner, "pair_show_code")["code"])
    page = new_tablet(viewport=PHONE)
    page.goto(f"{strict_server.url}#/game/{game_id}")
    page.locator(GAME).wait_for()
    wait_connected(page)

    # Before any tap: "Watching", not a green "Connected", and the answers cannot be tapped.
    page.wait_for_selector("[data-testid=connection][data-access=watching]")
    assert page.get_by_test_id("connection").inner_text().strip() == "Watching"
    note = page.get_by_test_id("watching-note")
    assert "not paired" in note.inner_text()
    options = page.get_by_test_id("prompt").get_by_test_id("option")
    assert options.count() > 0 and all(options.nth(i).is_disabled() for i in range(options.count()))
    before = version(page)

    # A refusal for want of pairing (the diagnostics file) shows the pairing banner; pairing clears it,
    # and "Paired" covers nothing and goes by itself.
    page.get_by_test_id("back-to-games").click()
    page.get_by_test_id("screen-games").wait_for()
    page.get_by_test_id("health-open").click()
    page.get_by_test_id("health-overall").wait_for()
    page.get_by_test_id("diagnostics-download").click()
    page.locator("[data-testid=banner][data-kind=pair]").wait_for()
    page.goto(f"{strict_server.url}#/game/{game_id}")
    page.locator(GAME).wait_for()
    page.get_by_test_id("watching-pair").click()
    pair_with(page, code, "Kitchen tablet")
    page.locator(GAME).wait_for()  # back to the game it came from
    assert game_id_of(page) == game_id
    page.wait_for_selector("[data-testid=connection][data-state=connected]:not([data-access=watching])")
    assert page.get_by_test_id("connection").inner_text().strip() == "Connected"
    assert page.locator("[data-testid=banner][data-kind=pair], [data-testid=banner][data-kind=error]").count() == 0
    assert page.get_by_test_id("watching-note").count() == 0
    assert not page.get_by_test_id("prompt").get_by_test_id("option").first.is_disabled()
    paired = page.locator("[data-testid=banner][data-kind=info]")
    assert "Paired as" in paired.inner_text()
    assert_nothing_covered(page, "back-to-games", "history-open", "prompt-text")
    top = page.get_by_test_id("prompt-text").bounding_box()
    paired.wait_for(state="hidden", timeout=15_000)  # it no longer needs saying: it goes by itself,
    assert page.get_by_test_id("prompt-text").bounding_box() == top  # and nothing jumps under a finger
    assert version(page) == before


def first_answered(url: str, game: str, setup: dict[str, Any]) -> str:
    """A game made and its first question answered simply, as another tablet does."""
    with connect(url.rstrip("/")) as other:
        game_id = str(ok(other, "new_game", {"name": "Who", "setup": setup, "game": game})["game_id"])
        view = ok(other, "join", {"game_id": game_id})["view"]
        ok(other, "act", {"game_id": game_id, "version": view["version"], "key": view["prompt"]["key"],
                          "answer": simple_answer(view["prompt"])})
    return game_id


def test_a_perk_draw_names_the_player_who_draws(server: Server, tablet: Any) -> None:
    """The second hero's Perk card at setup is that player's draw, not the first player's."""
    two = {"monsters": ["baba-lysaga"], "heroes": [{"hero": "sorcerer", "player": "Sam"}, {"hero": "druid", "player": "Beau"}]}
    game_id = first_answered(server.url, "ravenloft", two)
    tablet.goto(f"{server.url}#/game/{game_id}")
    tablet.wait_for_selector("[data-testid=prompt][data-key=perk]")
    assert tablet.get_by_test_id("prompt-text").inner_text().startswith("Beau draws a Perk card")
    assert "Beau" in tablet.locator(".prompt-who").inner_text() and "Sam" not in tablet.locator(".prompt-who").inner_text()


def test_a_question_for_no_seat_names_nobody(server: Server, tablet: Any) -> None:
    """The box's own Dungeon Master has no seat: its summoning roll names nobody ("Dm answers" was its id)."""
    siege = first_answered(server.url, "siege-of-barovia", {"players": [{"name": "Ana"}], "dm": "box"})
    tablet.goto(f"{server.url}#/game/{siege}")
    tablet.wait_for_selector("[data-testid=prompt][data-key=summon]")
    who = tablet.locator(".prompt-who").inner_text()
    assert "Dm" not in who and "answers" not in who, who
