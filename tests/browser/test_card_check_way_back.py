"""The card check ("Is this your card?") at the table: a wrong card's name tapped has a way back
(nothing drawn, nothing saved), a tap as the sheet comes up is not dropped silently, and once a card
is confirmed the history reads as the game went (the owner's data taken in is folded under the draw
that followed it, with its own "Go back to here")."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the service tests' helpers

from service_process import Service, play_to_draw  # noqa: E402
from ui_helpers import first_drawn, press, prompt_of, version, wait_version  # noqa: E402

#: Tap the sheet's "Yes" in the same moment it is drawn (as the second tap of a double tap lands):
#: a pointer down and a click, as a finger makes them.
TAP_AS_IT_APPEARS = """() => new MutationObserver((_, watch) => {
  const yes = document.querySelector('[data-testid=card-check-yes]');
  if (!yes) return;
  watch.disconnect();
  yes.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, pointerType: 'touch' }));
  yes.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }));
}).observe(document.body, { childList: true, subtree: true })"""


def tap_card(page: Any, card_id: str) -> None:
    press(page, page.get_by_test_id("prompt").locator(f"[data-testid=option][data-id='{card_id}']"))


def test_a_wrong_card_goes_back_and_an_early_tap_says_so(own_service: Service, tablet: Any) -> None:
    page = tablet
    view = play_to_draw(own_service.url)
    game_id, at = view["game_id"], view["version"]
    page.goto(f"{own_service.url}#/game/{game_id}")
    wait_version(page, at)
    journal = len(own_service.entries(game_id))

    # A tap on "Yes" as the sheet appears is not used, and the sheet says so.
    wrong = first_drawn(page)
    page.evaluate(TAP_AS_IT_APPEARS)
    tap_card(page, wrong)
    early = page.get_by_test_id("card-check-early")
    early.wait_for()
    assert "not used" in early.inner_text()
    assert page.evaluate("document.documentElement.dataset.lastTap") == "ignored:fresh"
    assert page.get_by_test_id("card-check").get_attribute("data-stage") == "ask"

    # The name tapped was the wrong card: back to the draw question, nothing drawn or saved.
    press(page, page.get_by_test_id("card-check-wrong"))
    page.get_by_test_id("card-check").wait_for(state="detached")
    assert prompt_of(page)[1] == "monster-card" and version(page) == at
    assert len(own_service.entries(game_id)) == journal

    # The right card is checked instead.
    right = page.get_by_test_id("prompt").locator(f"[data-testid=option]:not([data-id='{wrong}']):not([data-id='enter-card'])").first
    tap_card(page, str(right.get_attribute("data-id")))
    page.get_by_test_id("card-check-yes").wait_for()
    assert page.get_by_test_id("check-guess").get_attribute("data-id") != wrong


def test_the_history_folds_the_data_taken_in_under_the_draw(own_service: Service, tablet: Any) -> None:
    page = tablet
    view = play_to_draw(own_service.url)
    at = view["version"]
    page.goto(f"{own_service.url}#/game/{view['game_id']}")
    wait_version(page, at)
    tap_card(page, first_drawn(page))
    page.get_by_test_id("card-check-yes").wait_for()
    press(page, page.get_by_test_id("card-check-yes"))
    wait_version(page, at + 2)
    page.wait_for_timeout(400)
    page.get_by_test_id("history-open").click()
    entries = page.get_by_test_id("history").locator("[data-testid=history-entry]")
    labels = [entries.nth(i).locator(":scope > .history-label").inner_text() for i in range(entries.count())]
    assert not any("game data changed" in label.lower() for label in labels), labels
    newest = entries.first
    assert newest.get_attribute("data-undo-count") == "0"
    aside = newest.get_by_test_id("history-asides")
    aside.locator("summary").click()
    folded = aside.get_by_test_id("history-aside")
    assert folded.count() == 1 and "game data" in folded.inner_text().lower()
    assert folded.get_by_test_id("undo-to").get_attribute("data-count") == "1"  # nothing lost: it can be gone back to
