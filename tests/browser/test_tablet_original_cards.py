"""The original Horrified's card library and "Is this your card?" on the tablet, in Chromium
against the real service. A Monster card corrected through its library form (this box's Event
kinds, the strike line, move and dice) is the card the game in play then draws; a Perk card,
a hero and a sequence Event go in through theirs, and a value the companion refuses comes back
on the form, named, with nothing saved. On the game screen a guessed card tapped on the draw is confirmed
with one tap, and the next one corrected on one sheet and played as corrected."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the service tests' helpers

from service_process import Service, play_to_draw  # noqa: E402
from ui_helpers import (correct_on_the_check, data_get, first_drawn, open_data, press, shot, strike_line, table_steps,  # noqa: E402
                        wait_version)

GAME = "horrified"
SETUP = {"monsters": ["dracula", "creature"], "heroes": [{"hero": "mayor", "player": "Ana"}]}
NAME = "Night Flight"


def dracula_strikes_with(page: Any, dice: int, where: str) -> None:
    """The card played as corrected: no item drawn, Dracula put at ``where`` by its Event, and
    the Frenzy line's attack rolled with ``dice`` Monster dice."""
    page.wait_for_selector("[data-testid=prompt][data-kind=roll] [data-testid=face]")
    assert page.get_by_test_id("prompt").get_by_test_id("die-row").count() == dice
    assert page.locator("[data-testid=token-monster][data-id='dracula']").get_attribute("data-location") == where
    assert NAME in table_steps(page)


def test_a_card_corrected_in_the_originals_library_is_the_card_the_game_in_play_draws(own_service: Service, tablet: Any) -> None:
    page = tablet
    view = play_to_draw(own_service.url, SETUP, GAME)
    game_id, card = view["game_id"], next(o["id"] for o in view["prompt"]["options"] if o["id"] != "enter-card")
    mayor_at = view["state"]["heroes"]["mayor"]["location"]
    open_data(page, own_service.url, "cards", pack=GAME)
    assert page.get_by_test_id("lib-card").count() == len(data_get(own_service.url, GAME)["files"]["cards.json"]["cards"])
    page.locator(f"[data-testid=lib-card-edit][data-id='{card}']").click()
    form = page.get_by_test_id("lib-card-form")
    kinds = form.get_by_test_id("card-event-kind").locator("option").evaluate_all("options => options.map(o => o.value)")
    assert {"hunt", "soul", "meeting", "sequence", "monster_to_most_items"} <= set(kinds) and "move_monsters_to" not in kinds

    # A card without its name is refused on the form, saying why; nothing is saved.
    form.get_by_test_id("card-name").fill(" ")
    form.get_by_test_id("lib-card-save").click()
    assert "name" in form.get_by_test_id("lib-form-errors").inner_text()
    assert data_get(own_service.url, GAME)["data"]["changes"] == {}

    form.get_by_test_id("card-name").fill(NAME)
    form.locator("[data-testid=card-items] [data-value='0']").click()
    form.get_by_test_id("card-event-kind").select_option("place_monster")
    form.locator("[data-testid=card-event-param][data-param=symbol]").select_option("dracula")
    form.locator("[data-testid=card-event-param][data-param=location]").select_option(mayor_at)
    strike_line(form, ["frenzy"], 1, 3)
    shot(page, "data-original-card-form")
    form.get_by_test_id("lib-card-save").click()
    page.get_by_test_id("lib-card-form").wait_for(state="detached")
    page.locator(f"[data-testid=lib-card][data-id='{card}'][data-state=confirmed]").wait_for()
    saved = data_get(own_service.url, GAME)["data"]
    assert saved["changes"]["cards"]["cards"][card] == {
        "name": NAME, "items": 0, "event": {"kind": "place_monster", "params": {"symbol": "dracula", "location": mayor_at},
                                            "text": "A monster is put in a space"},
        "attack": {"symbols": ["frenzy"], "move": 1, "dice": 3}}
    assert f"cards.cards.{card}" in saved["confirmed"]

    # The game in play took the data as an input; the card, drawn on its screen, is played as corrected.
    page.goto(f"{own_service.url}#/game/{game_id}")
    wait_version(page, view["version"] + 1)
    press(page, page.get_by_test_id("prompt").locator(f"[data-testid=option][data-id='{card}']"))
    wait_version(page, view["version"] + 2)  # drawn at once: a card the owner entered is not asked about
    dracula_strikes_with(page, 3, mayor_at)
    assert own_service.entries(game_id)[-1] == {"key": "monster-card", "answer": card}


def test_a_perk_and_a_hero_go_in_through_their_forms_and_a_refused_value_is_named(own_service: Service, tablet: Any) -> None:
    page = tablet
    shipped = data_get(own_service.url, GAME)["files"]
    perk = next(p for p in shipped["perks.json"]["perks"] if p["effect"]["kind"] == "place_or_move_monster")
    open_data(page, own_service.url, "perks", pack=GAME)
    page.locator(f"[data-testid=lib-perk-edit][data-id='{perk['id']}']").click()
    form = page.get_by_test_id("lib-perk-form")
    form.locator("[data-testid=perk-param][data-param=monster]").select_option("mummy")
    form.locator("[data-testid=perk-param][data-param=steps]").fill("25")  # more than the companion takes
    form.get_by_test_id("lib-perk-save").click()
    refused = form.get_by_test_id("lib-form-errors")
    refused.wait_for()
    assert f"'{perk['id']}'" in refused.inner_text() and "steps" in refused.inner_text() and "25" in refused.inner_text()
    assert data_get(own_service.url, GAME)["data"]["changes"] == {}  # nothing saved
    form.locator("[data-testid=perk-param][data-param=steps]").fill("2")
    form.get_by_test_id("perk-text").fill("Put the Mummy in any space, or move any monster up to 2 spaces.")
    form.get_by_test_id("lib-perk-save").click()
    page.locator(f"[data-testid=lib-perk][data-id='{perk['id']}'][data-state=confirmed]").wait_for()

    page.get_by_test_id("data-tab-heroes").click()
    page.locator("[data-testid=lib-hero-edit][data-id='mayor']").click()
    form = page.get_by_test_id("lib-hero-form")
    form.get_by_test_id("hero-actions").fill("4")
    form.get_by_test_id("hero-start").select_option("inn")
    form.get_by_test_id("hero-special-kind").select_option("move_to_monster")
    form.get_by_test_id("lib-hero-save").click()
    page.locator("[data-testid=lib-hero][data-id='mayor'][data-state=confirmed]").wait_for()

    # A card whose Event is a sequence: each step is an Event of its own, and a step is added.
    card = next(c for c in shipped["cards.json"]["cards"] if c["event"]["kind"] == "sequence")
    page.get_by_test_id("data-tab-cards").click()
    page.locator(f"[data-testid=lib-card-edit][data-id='{card['id']}']").click()
    form = page.get_by_test_id("lib-card-form")
    steps = form.get_by_test_id("card-event-step")
    assert steps.count() == len(card["event"]["params"]["steps"])
    form.get_by_test_id("card-event-step-add").click()
    added = steps.nth(steps.count() - 1)
    added.get_by_test_id("card-event-step-kind").select_option("place_villager")
    added.locator("[data-testid=card-event-step-param][data-param=location]").select_option("inn")
    form.get_by_test_id("lib-card-save").click()
    page.locator(f"[data-testid=lib-card][data-id='{card['id']}'][data-state=confirmed]").wait_for()

    changes = data_get(own_service.url, GAME)["data"]["changes"]
    event = changes["cards"]["cards"][card["id"]]["event"]
    assert event["params"]["steps"][:-1] == card["event"]["params"]["steps"]
    assert event["params"]["steps"][-1]["kind"] == "place_villager" and event["params"]["steps"][-1]["params"]["location"] == "inn"
    assert changes["perks"]["perks"][perk["id"]]["effect"]["params"] == {"monster": "mummy", "steps": 2}
    mayor = changes["heroes"]["heroes"]["mayor"]
    assert (mayor["actions"], mayor["start"], mayor["special"]["kind"]) == (4, "inn", "move_to_monster")


def test_the_originals_game_screen_asks_is_this_your_card_and_plays_the_correction(own_service: Service, tablet: Any) -> None:
    page = tablet
    view = play_to_draw(own_service.url, SETUP, GAME)
    game_id = view["game_id"]
    page.goto(f"{own_service.url}#/game/{game_id}")
    wait_version(page, view["version"])

    # The first card drawn: our guess is shown (its items, Event, strike line), and one tap confirms it.
    first = first_drawn(page)
    ours = next(c for c in data_get(own_service.url, GAME)["files"]["cards.json"]["cards"] if c["id"] == first)
    page.get_by_test_id("prompt").locator(f"[data-testid=option][data-id='{first}']").click()
    check = page.get_by_test_id("card-check")
    check.get_by_test_id("card-check-yes").wait_for()
    assert check.get_by_test_id("check-guess-name").text_content() == ours["name"]
    assert ours["event"]["text"].rstrip(".") in check.get_by_test_id("check-guess-event").inner_text()
    assert f"move {ours['attack']['move']} · {ours['attack']['dice']} dice" in check.get_by_test_id("check-guess-attack").inner_text()
    assert own_service.entries(game_id)[-1].get("key") != "monster-card"  # the draw waits
    press(page, check.get_by_test_id("card-check-yes"))  # not the moment it comes up under the finger
    wait_version(page, view["version"] + 2)  # the owner's data, then the draw
    data_input, drawn = own_service.entries(game_id)[-2:]
    assert f"cards.cards.{first}" in data_input["data"]["confirmed"] and drawn == {"key": "monster-card", "answer": first}

    # The next draw: another guessed card, corrected on the sheet and played as corrected.
    view = play_to_draw(own_service.url, game_id=game_id)
    wait_version(page, view["version"])
    second = first_drawn(page)
    mayor_at = view["state"]["heroes"]["mayor"]["location"]
    form = correct_on_the_check(page, second)
    form.get_by_test_id("card-name").fill(NAME)
    form.locator("[data-testid=card-items] [data-value='0']").click()
    form.get_by_test_id("card-event-kind").select_option("monster_to_active_hero")
    form.locator("[data-testid=card-event-param][data-param=symbol]").select_option("dracula")
    strike_line(form, ["frenzy"], 1, 2)
    shot(page, "original-card-check-correct")
    page.get_by_test_id("card-check-save").click()
    wait_version(page, view["version"] + 2)
    dracula_strikes_with(page, 2, mayor_at)
    data_input, drawn = own_service.entries(game_id)[-2:]
    card = data_input["data"]["changes"]["cards"]["cards"][second]
    assert card["event"]["kind"] == "monster_to_active_hero" and card["attack"] == {"symbols": ["frenzy"], "move": 1, "dice": 2}
    assert drawn == {"key": "monster-card", "answer": second} and f"cards.cards.{first}" in data_input["data"]["confirmed"]
