"""A road we guessed, said missing from the path screen: one tap on the Monster Phase's
path question takes it out of the owner's board, and the phase is worked out again
without it (the question goes, the monster walks the other way), in Chromium against
a service of its own (the owner data it saves must not reach other tests)."""

from __future__ import annotations

from typing import Any

import requests

from ui_helpers import GAME, data_get, prompt_of, shot, tap_option, version, wait_version

POSITION = {"phase": "monster", "monsters": {"carrionette": "vallaki"},
            "heroes": [{"hero": "sorcerer", "player": "Sam", "at": "tser-falls"}], "terror": 2}
MISSING = "madam-evas-tent vallaki"  # a road the shipped board only guesses


def missing_buttons(page: Any) -> list[str]:
    return sorted(page.get_by_test_id("road-missing").evaluate_all("els => els.map(e => e.dataset.between)"))


def test_a_guessed_road_rejected_from_the_path_screen_and_the_phase_worked_out_again(own_service: Any, tablet: Any) -> None:
    game_file = {"format": "companion-game", "version": 1, "game": "ravenloft", "name": "Roads",
                 "origin": {"position": POSITION}, "journal": []}
    reply = requests.post(f"{own_service.url}/api/games/import", json=game_file, timeout=10).json()
    page = tablet
    page.goto(f"{own_service.url}/#/game/{reply['game_id']}")
    page.locator(GAME).wait_for()
    page.wait_for_selector("[data-testid=connection][data-state=connected]")
    assert not page.get_by_test_id("road-check").count()  # no path on screen yet: nothing to check
    tap_option(page, "flight-of-the-wereravens")
    while prompt_of(page)[1] == "item":
        tap_option(page)
    assert prompt_of(page)[1] == "path" and page.get_by_test_id("path-option").count() == 2
    # Both paths' roads are guesses: each has its button, in words a player reads.
    assert missing_buttons(page) == sorted(["madam-evas-tent vallaki", "madam-evas-tent tser-falls",
                                            "old-bonegrinder vallaki", "old-bonegrinder tser-falls"])
    button = page.locator(f"[data-testid=road-missing][data-between='{MISSING}']")
    assert "That road isn't on my board: Vallaki" in button.inner_text()
    shot(page, "road-check")

    asked_at = version(page)
    button.click()
    wait_version(page, asked_at + 3)
    # The game now plays with the owner's board: the tablet draws it without the road.
    page.wait_for_selector(f"[data-testid=road][data-between='{MISSING}']", state="detached")
    assert page.locator("[data-testid=road][data-between='old-bonegrinder vallaki']").count() == 1
    assert prompt_of(page)[1] != "path"  # one shortest path left: the question is not asked again
    walked = page.get_by_test_id("monster-path").get_attribute("data-path")
    assert walked == "vallaki old-bonegrinder tser-falls"
    # The move now shown walks guessed roads too: those stay offered, the rejected one does not.
    assert missing_buttons(page) == ["old-bonegrinder tser-falls", "old-bonegrinder vallaki"]
    # What to do now: the new move; not again what the table already did (the card's item is out).
    now = page.get_by_test_id("effects").inner_text()
    assert "Move Carrionette from Vallaki to Tser Falls" in now and "Put the" not in now
    saved = data_get(own_service.url)["data"]["changes"]["board"]["connections"]
    assert saved["remove"] == [["vallaki", "madam-evas-tent"]]
