"""The original Horrified on the tablet, in Chromium against the real service: a whole solo game
from the games screen (which game, the wizard with the rules' first game) to the end screen, the
Mummy's scarab tablet solved by tapping its slots, then the Mummy defeated (a won game), and a
mixed game with Dracula on the Ravenloft board through a Monster Phase; and the LEDs under the
original's board drawn on its game screen."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

import requests

from conftest import ROOT
from ui_helpers import (GAME, Server, answer_as_doomed_player, choose_game, open_games, press, prompt_of, roll, tap_action, tap_option,
                        version, wait_version_after)


def test_a_whole_game_of_the_original_from_the_wizard_to_the_end_screen(server: Server,
                                                                        new_tablet: Callable[..., Any]) -> None:
    page = new_tablet()
    open_games(page, server.url)
    page.get_by_test_id("new-game").click()
    choose_game(page, "horrified")
    page.get_by_test_id("preset-first").click()
    assert page.get_by_test_id("monster-creature").get_attribute("aria-pressed") == "true"
    assert page.get_by_test_id("monster-dracula").get_attribute("aria-pressed") == "true"
    page.get_by_test_id("setup-next").click()
    page.get_by_test_id("hero-courier").click()
    assert "not played alone" in page.get_by_test_id("setup-problem").inner_text()  # the solo rule
    assert page.get_by_test_id("setup-next").is_disabled()
    page.get_by_test_id("hero-courier").click()
    page.get_by_test_id("hero-mayor").click()
    page.get_by_test_id("player-mayor").fill("Ben")
    assert "starts at 3" in page.get_by_test_id("solo-note").inner_text()
    page.get_by_test_id("setup-next").click()
    page.get_by_test_id("setup-start").click()
    page.get_by_test_id("screen-game").wait_for()
    assert page.get_by_test_id("terror").get_attribute("data-level") == "3"  # solo: a shorter game to its end
    assert page.get_by_test_id("frenzy").get_attribute("data-monster") == "dracula"
    assert page.locator("[data-testid=token-monster][data-id='creature'][data-location='lagoon']").count() == 1
    assert page.get_by_test_id("water-way").count() == 8

    seen: set[str] = set()
    for _ in range(250):
        if page.get_by_test_id("outcome").count():
            break
        seen.add(prompt_of(page)[1])
        answer_as_doomed_player(page)
    else:
        raise AssertionError("the game did not end")
    assert {"perk", "item", "hero-action", "monster-card", "monster-dice"} <= seen
    outcome = page.get_by_test_id("outcome").get_attribute("data-outcome")
    assert outcome in ("lost: terror", "lost: out of time")
    assert "lose" in page.get_by_test_id("outcome-title").inner_text()
    game_id = page.evaluate("location.hash").split("/")[-1]
    assert server.summary(game_id)["outcome"] == outcome and server.version(game_id) == version(page)


def tap_slot(page: Any, slot: int, move: str) -> int:
    """Tap a glowing slot of the scarab tablet (it must offer ``move``)."""
    old = version(page)
    target = page.locator(f"[data-testid=tablet-prompt] [data-testid=scarab-slot][data-slot='{slot}']")
    assert target.get_attribute("data-move") == move, (slot, target.get_attribute("data-move"))
    press(page, target)  # the tap guard (web/js/taps.js) takes no tap on a button just redrawn by a push
    return wait_version_after(page, old)


def test_the_mummy_s_tablet_is_solved_on_the_tablet_and_the_mummy_defeated(server: Server,
                                                                         new_tablet: Callable[..., Any]) -> None:
    position = {"phase": "hero", "monsters": {"mummy": "museum"},
                "heroes": [{"hero": "mayor", "player": "Ana", "at": "museum",
                            "items": ["scroll-of-thoth-1", "flower-1", "rifle-1", "fire-poker-1"]}],
                "mats": {"mummy": {"numbers": [None, 1, 2, 3, 4, None, None], "up": [False, True, True, True, True, False, False],
                                   "empty": 0}}}
    game_file = {"format": "companion-game", "version": 1, "game": "horrified", "name": "The scarab tablet",
                 "origin": {"position": position}, "journal": []}
    reply = requests.post(f"{server.url}api/games/import", json=game_file, timeout=10).json()
    assert reply["ok"], reply
    page = new_tablet()
    page.goto(f"{server.url}#/game/{reply['game_id']}")
    page.locator(GAME).wait_for()
    page.wait_for_selector("[data-testid=connection][data-state=connected]")
    card = page.locator("[data-testid=monster-card][data-id='mummy']")
    assert card.locator("[data-testid=scarab-slot][data-up=yes]").count() == 4

    tap_action(page, "advance")
    assert prompt_of(page) == ("choice", "scarab")
    slots = page.locator("[data-testid=tablet-prompt] [data-testid=scarab-slot]")
    assert slots.nth(1).get_attribute("data-move") == "slide:1"  # a face-up scarab next to the empty centre
    tap_slot(page, 5, "flip:5")
    assert prompt_of(page) == ("draw", "scarab-number")  # face down since setup: which number is it?
    tap_option(page, "6")
    tap_slot(page, 6, "flip:6")  # the one number left: 5
    assert page.locator("[data-testid=tablet-prompt] [data-testid=scarab-slot][data-slot='6']").get_attribute("data-number") == "5"
    tap_slot(page, 5, "slide:5")  # scarab 6 into the centre
    ring = page.locator("[data-testid=tablet-prompt] [data-testid=scarab-slot]")
    assert ring.nth(2).get_attribute("data-move") is None  # slot 2 is not next to the empty slot 5: it cannot slide
    assert ring.nth(4).get_attribute("data-move") == "slide:4"
    tap_slot(page, 6, "slide:6")  # scarab 5 into slot 5
    tap_slot(page, 0, "slide:0")  # scarab 6 home
    assert prompt_of(page) == ("action", "hero-action")
    assert any("curse is broken" in t for t in page.get_by_test_id("effect").all_inner_texts())
    assert card.locator("[data-testid=scarab-tablet]").count() == 0 or "broken" in card.inner_text()

    tap_action(page, "defeat")
    page.get_by_test_id("outcome").wait_for()
    assert page.get_by_test_id("outcome").get_attribute("data-outcome") == "won"
    assert "win" in page.get_by_test_id("outcome-title").inner_text()


def test_a_mixed_game_with_dracula_on_the_ravenloft_board_resolves_a_monster_phase(
        server: Server, new_tablet: Callable[..., Any]) -> None:
    """The wizard's other board: Dracula as a guest beside the Carrionette, his coffins shown on
    the host's places by default (one moved by hand), then a Monster Phase played on the tablet."""
    page = new_tablet()
    open_games(page, server.url)
    page.get_by_test_id("new-game").click()
    choose_game(page, "horrified")
    page.get_by_test_id("board-ravenloft").click()
    assert "our combination" in page.get_by_test_id("mixed-note").inner_text()
    page.get_by_test_id("monster-dracula").click()
    page.get_by_test_id("monster-carrionette").click()
    page.get_by_test_id("setup-next").click()
    page.get_by_test_id("hero-sorcerer").click()
    page.get_by_test_id("hero-druid").click()
    page.get_by_test_id("setup-next").click()
    coffin = page.get_by_test_id("place-dracula-coffin-1")
    assert coffin.input_value() == "yester-hill"  # the host place drawn nearest to the Cave
    coffin.select_option("vallaki")
    page.get_by_test_id("setup-start").click()
    page.get_by_test_id("screen-game").wait_for()
    assert page.get_by_test_id("mixed").get_attribute("data-board") == "ravenloft"
    game_id = page.evaluate("location.hash").split("/")[-1]

    for _ in range(60):  # the setup draws and first-player rolls, to the first Hero Phase
        if prompt_of(page) == ("action", "hero-action"):
            break
        answer_as_doomed_player(page) if prompt_of(page)[0] != "roll" else roll(page, [20 - i for i in range(page.get_by_test_id("die-row").count())])
    assert page.locator("[data-testid=token-monster][data-id='dracula']").count() == 1
    coffins = page.locator("[data-testid=token-coffin]")
    assert "vallaki" in coffins.evaluate_all("els => els.map(e => e.dataset.location)")
    turn = page.get_by_test_id("turn").get_attribute("data-hero")
    tap_action(page, "end")
    seen: set[str] = set()
    while prompt_of(page) != ("action", "hero-action") and not page.get_by_test_id("outcome").count():
        seen.add(prompt_of(page)[1])
        if prompt_of(page)[1] == "monster-card":
            tap_option(page, "supplies-on-the-road")  # sword: the symbol Dracula answers here
        else:
            answer_as_doomed_player(page)
    assert "monster-card" in seen
    assert any("Dracula" in t for t in page.get_by_test_id("effect").all_inner_texts()) or \
        server.summary(game_id)["outcome"] is not None
    assert page.get_by_test_id("turn").get_attribute("data-hero") != turn or page.get_by_test_id("outcome").count()


def test_the_leds_under_the_originals_board_show_on_its_game_screen(new_tablet: Callable[..., Any], tmp_path: Path) -> None:
    """With ``[leds] board = "horrified"`` the box's LEDs lie under the original's board: its game
    screen draws them over the village and paints each frame the LEDs show."""
    sys.path.insert(0, str(ROOT / "tests"))
    from service_process import Service, connect, ok

    config = tmp_path / "companion.toml"
    config.write_text('[leds]\nbackend = "simulated"\ncount = 107\nboard = "horrified"\n', encoding="utf-8")
    own = Service(tmp_path / "state", args=["--config", str(config)]).start()
    try:
        client = connect(own.url)
        setup = {"monsters": ["dracula", "creature"], "heroes": [{"hero": "mayor", "player": "Ana"},
                                                                  {"hero": "scientist", "player": "Ben"}]}
        game_id = ok(client, "new_game", {"game": "horrified", "name": "Under the LEDs", "setup": setup})["game_id"]
        client.disconnect()
        page = new_tablet()
        page.goto(f"{own.url}#/game/{game_id}")
        layer = page.locator("[data-testid=board] [data-testid=led-layer]")
        layer.wait_for(state="attached")
        page.wait_for_function("() => Number(document.querySelector('[data-testid=led-layer]')?.dataset.count) === 107")
        assert page.get_by_test_id("leds-toggle").count() == 1
        tap_option(page)  # the setup's first question answered: the LEDs follow the game
        page.wait_for_selector("[data-testid=led-layer] [data-testid=led][data-lit=yes]", state="attached")
    finally:
        own.stop()
