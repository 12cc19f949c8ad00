"""Screenshots of the main screens, saved to docs/screenshots/ (overwritten on
every run; docs/screenshots/README.md lists them). The game is played through
the UI, so each picture is also a check that the screen shows what it should."""

from __future__ import annotations

from typing import Any, Callable

from ui_helpers import (Server, answer_as_doomed_player, choose_game, open_games, prompt_of, shot, start_game_in_wizard, tap_action,
                        tap_option, version, wait_version, wait_version_after)

PHONE = {"width": 390, "height": 844}


def test_screenshots_of_the_main_screens(server: Server, new_tablet: Callable[..., Any]) -> None:
    page = new_tablet()
    open_games(page, server.url)

    page.get_by_test_id("new-game").click()
    choose_game(page)
    page.get_by_test_id("preset-first").click()
    shot(page, "setup-monsters")
    page.get_by_test_id("setup-back").click()
    game_id = start_game_in_wizard(page, ["carrionette"], [("sorcerer", "Sam")], screenshot="setup-heroes")

    # A setup draw with the filter box in use.
    tap_option(page)  # the Perk card
    page.get_by_test_id("filter").fill("magical 3")
    shot(page, "setup-item-draw")
    page.get_by_test_id("filter-clear").click()
    while prompt_of(page) == ("draw", "item"):
        tap_option(page)

    # The board in a Hero Phase, on a tablet and on a phone.
    assert prompt_of(page) == ("action", "hero-action")
    assert page.locator("[data-testid=loc][data-target=move]").count() >= 2
    shot(page, "hero-phase")
    phone = new_tablet(viewport=PHONE)
    phone.goto(f"{server.url}#/game/{game_id}")
    wait_version(phone, version(page))
    shot(phone, "phone-hero-phase")
    phone.get_by_test_id("board").scroll_into_view_if_needed()
    shot(phone, "phone-board")
    phone.context.close()

    # Monster Phase: play on until the monster has two equally short ways to go.
    tap_action(page, "end")
    for _ in range(60):
        if prompt_of(page)[1] == "path":
            break
        answer_as_doomed_player(page)
    else:
        raise AssertionError("no path question came up")
    assert page.get_by_test_id("path-option").count() >= 2
    shot(page, "monster-phase-path")

    # The path taken is drawn; the Monster dice are entered by tapping faces.
    tap_option(page)
    assert page.get_by_test_id("monster-path").count() >= 1
    assert prompt_of(page) == ("roll", "monster-dice")
    page.locator("[data-testid=face][data-die='0'][data-face='hit']").click()
    assert page.get_by_test_id("roll-confirm").is_enabled()
    shot(page, "dice-entry")
    old = version(page)
    page.get_by_test_id("roll-confirm").click()
    wait_version_after(page, old)

    # The history drawer, then on to the end.
    page.get_by_test_id("history-open").click()
    page.get_by_test_id("history").wait_for()
    shot(page, "history")
    page.get_by_test_id("history-close").click()
    for _ in range(150):
        if page.get_by_test_id("outcome").count():
            break
        answer_as_doomed_player(page)
    page.get_by_test_id("outcome").wait_for()
    shot(page, "end-screen")

    page.get_by_test_id("outcome-games").click()
    page.get_by_test_id("game-list").wait_for()
    shot(page, "games-list")
