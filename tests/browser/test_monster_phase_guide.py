"""The Monster Phase guide: every physical step of the phase stays on screen with the
prompt until the phase is over (earlier steps ticked, none replaced), a summary of the
phase (what changed on the table) comes before the next Hero Phase; the top bar keeps to one row on a 10" tablet; on a
phone the header is slim and stays, and the board fits the width."""

from __future__ import annotations

from typing import Any, Callable

from ui_helpers import (Server, answer_as_doomed_player, answer_setup, end_hero_phase, open_games, prompt_of, shot,
                        start_game_in_wizard)

PHONE = {"width": 390, "height": 844}


def steps(page: Any) -> list[dict[str, str]]:
    found: list[dict[str, str]] = page.eval_on_selector_all(
        "[data-testid=phase-guide] [data-testid=guide-step]",
        "items => items.map(i => ({text: i.querySelector('.guide-text').innerText.trim(), done: i.dataset.done, note: i.dataset.note,"
        " version: i.dataset.version}))")
    return found


def in_view(page: Any, testid: str) -> bool:
    return box_in_view(page, page.get_by_test_id(testid).bounding_box())


def newest_step_in_view(page: Any) -> bool:
    return box_in_view(page, page.locator("[data-testid=phase-guide] [data-testid=guide-step]").last.bounding_box())


def box_in_view(page: Any, box: Any) -> bool:
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1 \
        and box["y"] < size["height"]


def start_a_monster_phase(page: Any, server: Server) -> None:
    open_games(page, server.url)
    start_game_in_wizard(page, ["carrionette", "strahd"], [("sorcerer", "Sam"), ("druid", "Beau")])
    answer_setup(page)
    end_hero_phase(page)
    assert page.get_by_test_id("turn").get_attribute("data-phase") == "monster"


def test_every_step_stays_in_view_until_the_phase_ends_then_a_summary(server: Server, tablet: Any) -> None:
    start_a_monster_phase(tablet, server)
    assert tablet.get_by_test_id("topbar").bounding_box()["height"] < 80, "the top bar wraps at 1280 px"
    before: list[dict[str, str]] = []
    answers = 0
    while tablet.get_by_test_id("turn").get_attribute("data-phase") == "monster" and answers < 60:
        now = steps(tablet)
        assert [s["text"] for s in now[: len(before)]] == [s["text"] for s in before], "a step was replaced"
        assert len(now) >= len(before)
        newest = max(int(s["version"]) for s in now)
        for step in now:
            if step["note"] == "no" and int(step["version"]) < newest:
                assert step["done"] == "yes", f"an earlier step is not ticked: {step}"
        tablet.wait_for_timeout(100)  # the guide's column scrolls its newest step into view after drawing
        assert newest_step_in_view(tablet) and in_view(tablet, "prompt-text"), "the guide or the prompt is out of view"
        if answers == 2:
            shot(tablet, "monster-phase-guide")
            ticks = tablet.locator("[data-testid=guide-step][data-done=no] [data-testid=guide-tick]:not([disabled])")
            if ticks.count():
                ticks.first.click()  # a step of the last answer, tapped off by hand
                assert tablet.locator("[data-testid=guide-step][data-done=no] "
                                      "[data-testid=guide-tick]:not([disabled])").count() == ticks.count()
        before = steps(tablet)
        answer_as_doomed_player(tablet)
        answers += 1
    assert len(before) >= 5 and answers >= 3
    if tablet.get_by_test_id("outcome").count():
        return  # the doomed table lost in its first Monster Phase: no next Hero Phase to come
    assert prompt_of(tablet)[1] == "hero-action"
    summary = tablet.get_by_test_id("phase-summary")
    assert summary.count() == 1 and in_view(tablet, "phase-summary")
    # The summary: what changed on the table from the phase's start (the Monster card drawn left the deck)...
    changes = [t.strip() for t in summary.get_by_test_id("summary-change").all_inner_texts()]
    assert any("Monster card" in change and "from the Monster deck" in change for change in changes), changes
    # ... and every step of the phase, in order, a tap away.
    summary.locator("details.summary-steps > summary").click()
    listed = summary.locator("[data-testid=guide-step] .guide-text").all_inner_texts()
    assert [t.strip() for t in listed[: len(before)]] == [s["text"] for s in before]
    shot(tablet, "monster-phase-summary")
    summary.get_by_test_id("summary-continue").click()
    assert tablet.get_by_test_id("phase-summary").count() == 0
    assert tablet.get_by_test_id("effects").count() == 1


def test_on_a_phone_the_header_shows_all_without_sideways_scrolling_and_the_board_fits(
        server: Server, new_tablet: Callable[..., Any]) -> None:
    """On a phone the top bar wraps (nothing hidden off to the side: it was a 971 px scroller on a
    390 px screen) and scrolls away with the page, so the board and the question get the screen."""
    phone = new_tablet(PHONE)
    start_a_monster_phase(phone, server)
    header = phone.get_by_test_id("topbar")
    widths = header.evaluate("(el) => [el.scrollWidth, el.clientWidth]")
    assert widths[0] <= widths[1] + 1, f"the header scrolls sideways: {widths}"
    board = phone.locator("svg.board").bounding_box()
    assert board is not None and board["width"] <= PHONE["width"], "the board is wider than the phone"
    assert phone.get_by_test_id("phase-guide").count() == 1
    phone.evaluate("window.scrollTo(0, 0)")
    shot(phone, "phone-monster-phase")
