"""A whole game through the tablet only: games screen → wizard → setup draws →
Hero Phases (a pick-up, a move by tapping the board) → Monster Phases (cards,
items, HITs) → the terror track fills → the end screen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from ui_helpers import (Server, answer_as_doomed_player, choose_game, open_games, prompt_of, tap_action, tap_board,
                        tap_option, version, wait_version_after)


def test_a_solo_game_from_the_games_screen_to_the_end_screen(server: Server, new_tablet: Callable[..., Any]) -> None:
    page = new_tablet()
    open_games(page, server.url)

    # The wizard: the Sorcerer alone against the Carrionette; the solo rule is shown.
    page.get_by_test_id("new-game").click()
    choose_game(page)
    page.get_by_test_id("monster-carrionette").click()
    page.get_by_test_id("setup-next").click()
    page.get_by_test_id("hero-sorcerer").click()
    page.get_by_test_id("player-sorcerer").fill("Sam")
    assert "starts at 3" in page.get_by_test_id("solo-note").inner_text()
    page.get_by_test_id("setup-back").click()  # back and forth keeps what was chosen
    assert page.get_by_test_id("monster-carrionette").get_attribute("aria-pressed") == "true"
    page.get_by_test_id("setup-next").click()
    assert page.get_by_test_id("player-sorcerer").input_value() == "Sam"
    page.get_by_test_id("setup-next").click()
    page.get_by_test_id("setup-start").click()
    page.get_by_test_id("screen-game").wait_for()
    game_id = page.evaluate("location.hash").split("/")[-1]

    assert page.get_by_test_id("terror").get_attribute("data-level") == "3"
    assert page.get_by_test_id("terror").get_attribute("data-max") == "7"
    assert page.get_by_test_id("deck-count").get_attribute("data-count") == "30"
    assert page.get_by_test_id("frenzy").get_attribute("data-monster") == "carrionette"

    # Setup: the Perk card found with the filter box, then the twelve items.
    assert prompt_of(page) == ("draw", "perk")
    page.get_by_test_id("filter").fill("tatyana")
    assert page.get_by_test_id("option").locator("visible=true").count() == 1
    tap_option(page, "tatyana")
    assert page.locator("[data-testid=hero-perk][data-id='tatyana']").count() == 1
    first_item = True
    while prompt_of(page) == ("draw", "item"):
        if first_item:  # a Cart Wheel at Tser Falls, where the Sorcerer starts
            page.get_by_test_id("filter").fill("cart wheel")
            tap_option(page, "cart-wheel")
            first_item = False
        else:
            tap_option(page)
    assert prompt_of(page) == ("action", "hero-action")
    assert page.get_by_test_id("actions-left").get_attribute("data-left") == "4"
    sorcerer = page.locator("[data-testid=token-hero][data-id='sorcerer'][data-location='tser-falls']")
    assert sorcerer.count() == 1
    assert page.locator("[data-testid=token-items][data-location='tser-falls']").get_attribute("data-count") == "1"

    # Hero Phase: pick up the Cart Wheel, then move by tapping a glowing place on the board.
    tap_action(page, "pick_up")
    assert page.locator("[data-testid=hero-card][data-id='sorcerer'] [data-testid=hero-item][data-id='cart-wheel']").count() == 1
    assert page.get_by_test_id("actions-left").get_attribute("data-left") == "3"
    assert page.locator("[data-testid=loc][data-target=move]").count() >= 2
    tap_board(page, "madam-evas-tent")
    assert page.locator("[data-testid=token-hero][data-id='sorcerer'][data-location='madam-evas-tent']").count() == 1
    assert page.get_by_test_id("actions-left").get_attribute("data-left") == "2"
    assert any("Move the Sorcerer" in t for t in page.get_by_test_id("effect").all_inner_texts())
    tap_action(page, "end")
    assert page.get_by_test_id("turn").get_attribute("data-phase") == "monster"

    # Monster Phases until the terror track is full. Every answer is a tap.
    seen_keys: set[str] = set()
    saw_path = False
    for _ in range(150):
        if page.get_by_test_id("outcome").count():
            break
        seen_keys.add(prompt_of(page)[1])
        saw_path = saw_path or page.get_by_test_id("monster-path").count() > 0
        answer_as_doomed_player(page)
    else:
        raise AssertionError("the game did not end")

    outcome = page.get_by_test_id("outcome")
    assert outcome.get_attribute("data-outcome") == "lost: terror"
    assert "lose" in page.get_by_test_id("outcome-title").inner_text()
    assert page.get_by_test_id("terror").get_attribute("data-level") == "7"
    assert {"monster-card", "item", "monster-dice", "hero-action"} <= seen_keys
    assert saw_path, "a monster moved and its path was drawn"
    assert server.summary(game_id)["outcome"] == "lost: terror"
    assert server.version(game_id) == version(page)

    # The end screen lets the table take the last step back; then "Go back to here" in
    # the history drawer, and Redo until the end screen is back.
    final = version(page)
    page.get_by_test_id("outcome-undo").click()
    now = wait_version_after(page, final)
    assert page.get_by_test_id("outcome").count() == 0
    page.get_by_test_id("history-open").click()
    page.locator("[data-testid=undo-to][data-count='2']").click()
    dialog = page.get_by_test_id("confirm")  # going back several steps is confirmed first
    assert "Go back 2 steps?" in dialog.inner_text()
    dialog.get_by_test_id("confirm-yes").click()
    now = wait_version_after(page, now)
    assert page.locator("[data-testid=history-entry]").first.get_attribute("data-undo-count") == "0"
    page.get_by_test_id("redo").click()  # one step forward, then the other two at once
    now = wait_version_after(page, now)
    assert page.get_by_test_id("redo-all").get_attribute("data-count") == "2"
    page.get_by_test_id("redo-all").click()
    now = wait_version_after(page, now)
    assert page.get_by_test_id("outcome").get_attribute("data-outcome") == "lost: terror"
    assert server.version(game_id) == now

    # Back on the games screen, the game is listed as lost; export it, import the file, archive the original.
    page.get_by_test_id("outcome-games").click()
    row = page.locator(f"[data-testid=game-row][data-game-id='{game_id}']")
    row.wait_for()
    assert "Lost" in row.inner_text()
    with page.expect_download() as download:
        row.get_by_test_id("export").click()
    exported = Path(download.value.path())
    assert json.loads(exported.read_text())["origin"]["setup"]["monsters"] == ["carrionette"]
    rows_before = page.get_by_test_id("game-row").count()
    page.get_by_test_id("import-file").set_input_files(str(exported))
    assert "Imported" in page.locator("[data-testid=banner][data-kind=info]").inner_text()
    page.wait_for_function(f"() => document.querySelectorAll('[data-testid=game-list] [data-testid=game-row]').length === {rows_before + 1}")
    imported = page.locator(f"[data-testid=game-list] [data-testid=game-row]:not([data-game-id='{game_id}'])").first
    imported_id = imported.get_attribute("data-game-id")
    imported.get_by_test_id("resume").click()  # the file replays to the same end
    assert page.get_by_test_id("outcome").get_attribute("data-outcome") == "lost: terror"
    assert version(page) == server.version(game_id) == server.version(imported_id)
    page.get_by_test_id("outcome-games").click()
    row.wait_for()
    row.get_by_test_id("archive").click()
    assert "again" in row.get_by_test_id("archive").inner_text()  # a second tap is needed
    row.get_by_test_id("archive").click()
    page.wait_for_selector(f"[data-testid=game-list] [data-testid=game-row][data-game-id='{game_id}']", state="detached")
    assert server.summary(game_id)["status"] == "archived"  # out of the list on screen, still listed by the API
    assert server.version(game_id) == now  # archived, not deleted: it can still be exported
