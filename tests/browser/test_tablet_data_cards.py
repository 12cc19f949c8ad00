"""The card library on the tablet: a Monster card of the owner's box is entered
in place of a guessed one, saved, and then drawn in a game by its name; its
attack line is the one the Monster Phase resolves. The deck tracker lists it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the service tests' helpers

from service_process import Service
from ui_helpers import (
    answer_until,
    data_get,
    open_data,
    open_games,
    prompt_of,
    shot,
    start_game_in_wizard,
    table_steps,
    tap_action,
    tap_option,
)

NAME = "Night of the Dolls"




def test_a_card_entered_in_the_library_is_drawn_by_name_and_resolved(own_service: Service, tablet: Any) -> None:
    page = tablet
    open_data(page, own_service.url, "cards")
    first_guess = page.locator("[data-testid=lib-card][data-state=guess]").first.get_attribute("data-id")
    page.get_by_test_id("lib-enter-card").click()
    form = page.get_by_test_id("lib-card-form")
    assert form.get_by_test_id("lib-card-target").input_value() == first_guess  # the first card still a guess
    form.get_by_test_id("card-name").fill(NAME)
    form.locator("[data-testid=card-items] [data-value='0']").click()
    form.get_by_test_id("card-event-kind").select_option("none")
    # The attack line: Chest alone (the Carrionette shows it), 3 locations, 3 dice.
    form.locator("[data-testid=card-symbol][data-symbol=chest]").click()
    form.locator("[data-testid=card-move] [data-value='3']").click()
    form.locator("[data-testid=card-dice] [data-value='3']").click()
    shot(page, "data-card-library-entry")
    form.get_by_test_id("lib-card-save").click()
    page.get_by_test_id("lib-card-form").wait_for(state="detached")
    row = page.locator(f"[data-testid=lib-card][data-id='{first_guess}']")
    assert NAME in row.inner_text()
    assert row.get_attribute("data-state") == "confirmed"
    saved = data_get(own_service.url)["data"]
    card = saved["changes"]["cards"]["cards"][first_guess]
    assert card["name"] == NAME and card["attack"] == {"symbols": ["chest"], "move": 3, "dice": 3} and card["items"] == 0
    assert f"cards.cards.{first_guess}" in saved["confirmed"]

    # A new game uses it: the draw lists the remaining cards by name, this one among them.
    open_games(page, own_service.url)
    game_id = start_game_in_wizard(page, ["carrionette"], [("sorcerer", "Sam")])
    answer_until(page, lambda p: prompt_of(p)[1] == "hero-action")
    tap_action(page, "end")
    answer_until(page, lambda p: prompt_of(p)[1] == "monster-card")
    page.get_by_test_id("deck-count").click()
    assert page.locator(f"[data-testid=deck-card][data-id='{first_guess}']").inner_text() == NAME
    assert page.get_by_test_id("played-card").count() == 0
    page.get_by_test_id("deck-close").click()
    option = page.get_by_test_id("prompt").locator(f"[data-testid=option][data-id='{first_guess}']")
    assert NAME in option.inner_text()
    tap_option(page, first_guess)

    # No items, no Event; Chest: the Carrionette comes (up to 3 locations) and attacks with 3 dice.
    start = "vallaki"
    answer_until(page, lambda p: prompt_of(p)[0] == "roll" and p.get_by_test_id("face").count() > 0)
    assert page.get_by_test_id("prompt").get_by_test_id("die-row").count() == 3
    carrionette = page.locator("[data-testid=token-monster][data-id='carrionette']").get_attribute("data-location")
    assert carrionette == page.locator("[data-testid=token-hero][data-id='sorcerer']").get_attribute("data-location")
    assert carrionette != start
    effects = table_steps(page)
    assert f"from {'Vallaki'}" in effects and "attacks the Sorcerer" in effects, effects
    page.get_by_test_id("history-open").click()
    history = " | ".join(page.get_by_test_id("history-entry").all_inner_texts())
    page.get_by_test_id("history-close").click()
    assert NAME in history, history
    page.get_by_test_id("deck-count").click()
    assert page.locator(f"[data-testid=now-card][data-id='{first_guess}']").inner_text() == NAME  # being resolved
    assert page.locator(f"[data-testid=deck-card][data-id='{first_guess}']").count() == 0
    shot(page, "data-deck-tracker")
    page.get_by_test_id("deck-close").click()
    answer_until(page, lambda p: p.get_by_test_id("turn").get_attribute("data-phase") != "monster" or p.get_by_test_id("outcome").count() > 0)
    page.get_by_test_id("deck-count").click()
    assert page.locator(f"[data-testid=played-card][data-id='{first_guess}']").inner_text() == NAME
    page.get_by_test_id("deck-close").click()
    journal = own_service.export(game_id)["journal"]
    assert any(entry["entry"].get("answer") == first_guess for entry in journal if isinstance(entry.get("entry"), dict))


def test_items_perks_hero_tables_and_confirming_on_the_status_page(own_service: Service, tablet: Any) -> None:
    page = tablet
    # An item as printed in the owner's box.
    open_data(page, own_service.url, "items")
    page.locator("[data-testid=lib-item-edit][data-id='sling']").click()
    form = page.get_by_test_id("lib-item-form")
    form.get_by_test_id("item-name").fill("Slingshot")
    form.get_by_test_id("item-type").select_option("mundane")
    form.get_by_test_id("item-strength").select_option("2")
    form.get_by_test_id("item-location").select_option("krezk")
    form.get_by_test_id("lib-item-save").click()
    form.wait_for(state="detached")
    row = page.locator("[data-testid=lib-item][data-id='sling']")
    assert "Slingshot" in row.inner_text() and row.get_attribute("data-state") == "confirmed"

    # A Perk card with an effect from the library.
    page.get_by_test_id("data-tab-perks").click()
    page.locator("[data-testid=lib-perk-edit][data-id='second-wind']").click()
    form = page.get_by_test_id("lib-perk-form")
    form.get_by_test_id("perk-kind").select_option("terror")
    form.locator("[data-testid=perk-param][data-param=amount]").fill("-1")
    form.get_by_test_id("perk-text").fill("Lower the terror level by one.")
    form.get_by_test_id("lib-perk-save").click()
    form.wait_for(state="detached")
    assert "Lower the terror level" in page.locator("[data-testid=lib-perk][data-id='second-wind']").inner_text()

    # A hero table: a gap is refused on the tablet before anything is sent, then put right.
    page.get_by_test_id("data-tab-heroes").click()
    page.locator("[data-testid=lib-hero-edit][data-id='druid']").click()
    form = page.get_by_test_id("lib-hero-form")
    special = form.locator("[data-testid=hero-table][data-table=special]")
    special.get_by_test_id("row-remove").last.click()  # 20 is left without a row
    form.get_by_test_id("lib-hero-save").click()
    assert "No row for 20" in form.get_by_test_id("lib-form-errors").inner_text()
    special.get_by_test_id("row-add").click()
    last = special.get_by_test_id("hero-row").last
    last.get_by_test_id("row-kind").select_option("roll_bonus")
    last.locator("[data-testid=row-param][data-param=amount]").fill("3")
    last.get_by_test_id("row-text").fill("Add 3 to your rolls this Hero Phase.")
    form.get_by_test_id("lib-hero-save").click()
    form.wait_for(state="detached")
    saved = data_get(own_service.url)["data"]
    assert saved["changes"]["items"]["items"]["sling"] == {"name": "Slingshot", "type": "mundane", "strength": 2, "location": "krezk"}
    assert saved["changes"]["perks"]["perks"]["second-wind"]["effect"]["params"] == {"amount": -1}
    druid = saved["changes"]["heroes"]["heroes"]["druid"]["special"]
    assert druid[-1] == {"low": 20, "high": 20, "effect": {"kind": "roll_bonus", "params": {"amount": 3},
                                                           "text": "Add 3 to your rolls this Hero Phase."}}

    # The status page: counts per kind, a Confirm toggle per element, "only guesses".
    page.get_by_test_id("data-tab-status").click()
    page.get_by_test_id("screen-data").wait_for()
    row = page.locator("[data-testid=summary-row][data-kind=location]")
    confirmed = int(row.get_attribute("data-confirmed"))
    page.get_by_test_id("only-guesses").click()
    element = page.locator("[data-testid=data-element][data-key='board.locations.krezk']")
    assert element.get_attribute("data-state") == "guess"
    element.get_by_test_id("confirm").click()
    page.wait_for_selector(f"[data-testid=summary-row][data-kind=location][data-confirmed='{confirmed + 1}']")
    assert page.locator("[data-testid=data-element][data-key='board.locations.krezk']").count() == 0  # no longer a guess
    page.get_by_test_id("only-guesses").click()
    page.locator("[data-testid=data-kind][data-kind=location] summary").click()  # open the locations
    element = page.locator("[data-testid=data-element][data-key='board.locations.krezk']")
    assert element.get_attribute("data-state") == "confirmed" and "Confirmed by you" in element.inner_text()
    shot(page, "data-status", full_page=False)
    assert "board.locations.krezk" in data_get(own_service.url)["data"]["confirmed"]
    element.get_by_test_id("confirm").click()  # and back
    page.wait_for_selector(f"[data-testid=summary-row][data-kind=location][data-confirmed='{confirmed}']")
