"""What is hard to take back at the table is confirmed first: ending the Hero Phase with
actions left, and going back several steps, which lists the pieces to put back (shown again
after the undo); then all the undone steps come back with one redo."""

from __future__ import annotations

from typing import Any

from ui_helpers import (Server, answer_as_doomed_player, answer_setup, open_games, prompt_of, start_game_in_wizard,
                        tap_board, version, wait_version, wait_version_after)


def lines_of(page: Any, testid: str) -> list[str]:
    return [text.strip() for text in page.get_by_test_id(testid).all_inner_texts()]


def test_end_with_actions_left_then_undo_several_steps_lists_what_to_put_back(server: Server, tablet: Any) -> None:
    open_games(tablet, server.url)
    game_id = start_game_in_wizard(tablet, ["carrionette"], [("sorcerer", "Sam"), ("druid", "Beau")])
    answer_setup(tablet)
    start = version(tablet)
    hero = tablet.get_by_test_id("turn").get_attribute("data-hero")
    home = tablet.locator(f"[data-testid=token-hero][data-id='{hero}']").get_attribute("data-location")

    # "End the Hero Phase" with every action left asks first; "Keep playing" sends nothing.
    end = tablet.get_by_test_id("prompt").locator("[data-testid=action][data-action='end']").first
    end.click()
    dialog = tablet.get_by_test_id("confirm")
    assert "End the Hero Phase?" in dialog.inner_text() and "4 actions left" in dialog.inner_text()
    dialog.get_by_test_id("confirm-no").click()
    assert tablet.get_by_test_id("confirm").count() == 0
    tablet.wait_for_timeout(300)
    assert server.version(game_id) == start and version(tablet) == start

    # A move, then End (confirmed), then a few answers of the Monster Phase.
    there = tablet.locator("[data-testid=loc][data-target=move]").first.get_attribute("data-id")
    tap_board(tablet, there)
    end.click()
    tablet.get_by_test_id("confirm").get_by_test_id("confirm-yes").click()
    wait_version(tablet, start + 2)
    assert tablet.get_by_test_id("turn").get_attribute("data-phase") == "monster"
    for _ in range(3):
        answer_as_doomed_player(tablet)
    now = version(tablet)
    steps = now - start

    # "Go back to here" on the last step of the setup: the dialog lists the pieces to put back.
    tablet.get_by_test_id("history-open").click()
    tablet.locator(f"[data-testid=undo-to][data-count='{steps}']").click()
    dialog = tablet.get_by_test_id("confirm")
    dialog.wait_for()
    assert f"Go back {steps} steps?" in dialog.inner_text()
    listed = lines_of(tablet, "confirm-line")
    assert any(line.startswith("Move the ") and " from " in line and " to " in line for line in listed), listed
    assert any("Monster card" in line and "to the Monster deck" in line for line in listed), listed
    dialog.get_by_test_id("confirm-yes").click()
    back = wait_version_after(tablet, now)
    assert prompt_of(tablet)[1] == "hero-action"
    assert tablet.locator(f"[data-testid=token-hero][data-id='{hero}']").get_attribute("data-location") == home
    assert lines_of(tablet, "put-back-line")[: len(listed)] == listed  # the same list stays on screen

    # Redo brings every undone step back at once.
    redo_all = tablet.get_by_test_id("redo-all")
    assert redo_all.get_attribute("data-count") == str(steps)
    redo_all.click()
    wait_version_after(tablet, back)
    assert tablet.get_by_test_id("turn").get_attribute("data-phase") == "monster"
    assert tablet.locator(f"[data-testid=token-hero][data-id='{hero}']").get_attribute("data-location") == there
    assert tablet.get_by_test_id("put-back").count() == 0
