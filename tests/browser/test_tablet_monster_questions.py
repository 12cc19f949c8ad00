"""On the tablet, every question of a Monster Phase that is about one figure names it: over
the question (with its symbols), in the question's words, and ringed on the board."""

from __future__ import annotations

from typing import Any

from ui_helpers import (Server, answer_as_doomed_player, answer_setup, end_hero_phase, open_games, prompt_of,
                        start_game_in_wizard)

NOT_ABOUT_A_MONSTER = {"monster-card", "item", "card-builder", "manual-event", "monster-order", "event-order"}


def test_every_monster_phase_question_names_its_figure(server: Server, tablet: Any) -> None:
    open_games(tablet, server.url)
    start_game_in_wizard(tablet, ["strahd", "carrionette", "baba-lysaga"],
                         [("sorcerer", "Sam"), ("druid", "Beau")])
    answer_setup(tablet)
    checked: list[str] = []
    for _ in range(2):  # two Monster Phases
        end_hero_phase(tablet)
        while tablet.get_by_test_id("turn").get_attribute("data-phase") == "monster" and not \
                tablet.get_by_test_id("outcome").count():
            kind, key = prompt_of(tablet)
            if key not in NOT_ABOUT_A_MONSTER:
                about = tablet.get_by_test_id("prompt-about")
                assert about.count() == 1, f"{key}: no figure over the question"
                figure = about.locator("strong").inner_text()
                text = tablet.get_by_test_id("prompt-text").inner_text()
                assert figure and figure in text, f"{key}: {text!r} does not name {figure}"
                where = about.get_attribute("data-location")
                if where:
                    ring = tablet.locator(f"[data-testid=about-figure][data-location='{where}']")
                    assert ring.count() == 1, f"{key}: {figure} is not ringed on the board"
                checked.append(key)
            answer_as_doomed_player(tablet)
        if tablet.get_by_test_id("outcome").count():
            break
        while prompt_of(tablet)[1] != "hero-action":
            answer_as_doomed_player(tablet)
    assert "monster-dice" in checked, f"too few questions about a monster were seen: {checked}"
