"""Learning the data as it is played: a Monster card (or an item) still our guess, tapped on
its draw question, is shown as we have it with "Is this your card?". One tap confirms it in
the owner's data; "No, correct it" opens one screen whose save corrects the owner's data,
and the draw then resolves the owner's card (its items, Event and attack line)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the service tests' helpers

from service_process import Service, play_to_draw  # noqa: E402
from ui_helpers import (correct_on_the_check, data_get, first_drawn, press, prompt_of, shot, strike_line, table_steps,  # noqa: E402
                        wait_version)

NAME = "Hag's Bargain"


def test_a_guessed_card_is_confirmed_with_one_tap_and_another_corrected_on_one_screen(own_service: Service, tablet: Any) -> None:
    page = tablet
    view = play_to_draw(own_service.url)
    game_id = view["game_id"]
    page.goto(f"{own_service.url}#/game/{game_id}")
    wait_version(page, view["version"])

    # The first card drawn: our guess is shown, and one tap says it is the owner's card.
    first = first_drawn(page)
    page.get_by_test_id("prompt").locator(f"[data-testid=option][data-id='{first}']").click()
    check = page.get_by_test_id("card-check")
    check.get_by_test_id("card-check-yes").wait_for()
    guess = data_get(own_service.url)["files"]["cards.json"]["cards"]
    ours = next(c for c in guess if c["id"] == first)
    assert check.get_by_test_id("check-guess-name").text_content() == ours["name"]
    assert f"move {ours['attack']['move']} · {ours['attack']['dice']} dice" in check.get_by_test_id("check-guess-attack").inner_text()
    assert own_service.export(game_id)["journal"][-1]["entry"].get("key") != "monster-card"  # the draw waits
    shot(page, "card-check")
    press(page, check.get_by_test_id("card-check-yes"))  # not the moment it comes up under the finger
    wait_version(page, view["version"] + 2)  # the owner's data, then the draw
    data_input, drawn = own_service.entries(game_id)[-2:]
    assert f"cards.cards.{first}" in data_input["data"]["confirmed"] and drawn == {"key": "monster-card", "answer": first}
    # Its item comes out of the bag: the item is asked about the same way, and confirmed.
    page.wait_for_selector("[data-testid=prompt][data-key=item]")
    item = first_drawn(page)
    page.get_by_test_id("prompt").locator(f"[data-testid=option][data-id='{item}']").click()
    page.locator("[data-testid=card-check][data-kind=item] [data-testid=card-check-yes]").wait_for()
    assert check.locator(".card-check-question").text_content() == "Is this your item?"
    press(page, check.get_by_test_id("card-check-yes"))
    wait_version(page, view["version"] + 4)
    assert own_service.entries(game_id)[-1] == {"key": "item", "answer": item}
    states = {e["key"]: e["state"] for e in data_get(own_service.url)["status"]["elements"]}
    assert states[f"cards.cards.{first}"] == "confirmed" and states[f"items.items.{item}"] == "confirmed"

    # The next draw: another guessed card, corrected on one screen and resolved as corrected.
    view = play_to_draw(own_service.url, game_id=game_id)
    wait_version(page, view["version"])
    second = first_drawn(page)
    assert second != first
    form = correct_on_the_check(page, second)
    form.get_by_test_id("card-name").fill(NAME)
    form.locator("[data-testid=card-items] [data-value='0']").click()
    sorcerer = page.locator("[data-testid=token-hero][data-id='sorcerer']").get_attribute("data-location")
    form.get_by_test_id("card-event-kind").select_option("place_monster")  # Baba Lysaga (hat) is put at the Sorcerer
    form.locator("[data-testid=card-event-param][data-param=symbol]").select_option("hat")
    form.locator("[data-testid=card-event-param][data-param=location]").select_option(sorcerer)
    strike_line(form, ["frenzy"], 1, 3)
    shot(page, "card-check-correct")
    page.get_by_test_id("card-check-save").click()
    wait_version(page, view["version"] + 2)

    # No item is drawn (0 items), the Event puts her at the Sorcerer, and the Frenzy line attacks with 3 dice.
    page.wait_for_selector("[data-testid=prompt][data-kind=roll] [data-testid=face]")
    assert page.get_by_test_id("prompt").get_by_test_id("die-row").count() == 3
    assert page.locator("[data-testid=token-monster][data-id='baba-lysaga']").get_attribute("data-location") == sorcerer
    assert NAME in table_steps(page)
    entries = own_service.entries(game_id)
    at = max(i for i, e in enumerate(entries) if e.get("key") == "monster-card")
    data_input, drawn = entries[at - 1:at + 1]
    card = data_input["data"]["changes"]["cards"]["cards"][second]
    assert card["name"] == NAME and card["items"] == 0 and card["attack"] == {"symbols": ["frenzy"], "move": 1, "dice": 3}
    assert drawn == {"key": "monster-card", "answer": second}
    assert f"cards.cards.{first}" in data_input["data"]["confirmed"]  # the earlier confirmation is kept
    assert prompt_of(page)[0] == "roll"
