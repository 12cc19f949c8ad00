"""Learning the data as it is played: a Monster card (or an item) still our guess, tapped on
its draw question, is shown as we have it with "Is this your card?". One tap confirms it in
the owner's data; "No, correct it" opens one screen whose save corrects the owner's data,
and the draw then resolves the owner's card (its items, Event and attack line)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the service tests' helpers

from service_process import SETUP, Service, connect, ok, play_socket_until  # noqa: E402
from ui_helpers import data_get, prompt_of, shot, table_steps, wait_version  # noqa: E402

NAME = "Hag's Bargain"


def _to_the_draw(url: str, game_id: str | None = None) -> dict[str, Any]:
    """A game (new, or ``game_id``) played over Socket.IO up to its next Monster card draw."""
    client = connect(url)
    try:
        if game_id is None:
            game_id = ok(client, "new_game", {"name": "Card check", "setup": SETUP})["game_id"]
        view = ok(client, "join", {"game_id": game_id})["view"]
        if view["prompt"]["key"] == "monster-card":
            view = play_socket_until(client, view, "hero-action")
        return play_socket_until(client, view, "monster-card")
    finally:
        client.disconnect()


def _first_card(page: Any) -> str:
    options = page.get_by_test_id("prompt").locator("[data-testid=option]:not([data-id='enter-card'])")
    return str(options.first.get_attribute("data-id"))


def _entries(service: Service, game_id: str) -> list[Any]:
    return [e["entry"] for e in service.export(game_id)["journal"]]


def test_a_guessed_card_is_confirmed_with_one_tap_and_another_corrected_on_one_screen(own_service: Service, tablet: Any) -> None:
    page = tablet
    view = _to_the_draw(own_service.url)
    game_id = view["game_id"]
    page.goto(f"{own_service.url}#/game/{game_id}")
    wait_version(page, view["version"])

    # The first card drawn: our guess is shown, and one tap says it is the owner's card.
    first = _first_card(page)
    page.get_by_test_id("prompt").locator(f"[data-testid=option][data-id='{first}']").click()
    check = page.get_by_test_id("card-check")
    check.get_by_test_id("card-check-yes").wait_for()
    guess = data_get(own_service.url)["files"]["cards.json"]["cards"]
    ours = next(c for c in guess if c["id"] == first)
    assert check.get_by_test_id("check-guess-name").text_content() == ours["name"]
    assert f"move {ours['attack']['move']} · {ours['attack']['dice']} dice" in check.get_by_test_id("check-guess-attack").inner_text()
    assert own_service.export(game_id)["journal"][-1]["entry"].get("key") != "monster-card"  # the draw waits
    shot(page, "card-check")
    page.wait_for_timeout(400)  # the sheet's buttons take no tap the moment they come up under the finger
    check.get_by_test_id("card-check-yes").click()
    wait_version(page, view["version"] + 2)  # the owner's data, then the draw
    data_input, drawn = _entries(own_service, game_id)[-2:]
    assert f"cards.cards.{first}" in data_input["data"]["confirmed"] and drawn == {"key": "monster-card", "answer": first}
    # Its item comes out of the bag: the item is asked about the same way, and confirmed.
    page.wait_for_selector("[data-testid=prompt][data-key=item]")
    item = _first_card(page)
    page.get_by_test_id("prompt").locator(f"[data-testid=option][data-id='{item}']").click()
    page.locator("[data-testid=card-check][data-kind=item] [data-testid=card-check-yes]").wait_for()
    assert check.locator(".card-check-question").text_content() == "Is this your item?"
    page.wait_for_timeout(400)
    check.get_by_test_id("card-check-yes").click()
    wait_version(page, view["version"] + 4)
    assert _entries(own_service, game_id)[-1] == {"key": "item", "answer": item}
    states = {e["key"]: e["state"] for e in data_get(own_service.url)["status"]["elements"]}
    assert states[f"cards.cards.{first}"] == "confirmed" and states[f"items.items.{item}"] == "confirmed"

    # The next draw: another guessed card, corrected on one screen and resolved as corrected.
    view = _to_the_draw(own_service.url, game_id)
    wait_version(page, view["version"])
    second = _first_card(page)
    assert second != first
    page.wait_for_timeout(400)  # as a player taps: not within the tap guard's moment after the other device's answer
    page.get_by_test_id("prompt").locator(f"[data-testid=option][data-id='{second}']").click()
    page.get_by_test_id("card-check-fix").wait_for()
    page.wait_for_timeout(400)
    page.get_by_test_id("card-check-fix").click()
    form = page.get_by_test_id("card-fix")
    form.get_by_test_id("card-name").fill(NAME)
    form.locator("[data-testid=card-items] [data-value='0']").click()
    sorcerer = page.locator("[data-testid=token-hero][data-id='sorcerer']").get_attribute("data-location")
    form.get_by_test_id("card-event-kind").select_option("place_monster")  # Baba Lysaga (hat) is put at the Sorcerer
    form.locator("[data-testid=card-event-param][data-param=symbol]").select_option("hat")
    form.locator("[data-testid=card-event-param][data-param=location]").select_option(sorcerer)
    if form.get_by_test_id("card-line-clear").count():
        form.get_by_test_id("card-line-clear").click()  # our guessed line, gone in one tap
    while form.get_by_test_id("card-line-undo").count():
        form.get_by_test_id("card-line-undo").click()
    form.locator("[data-testid=card-symbol][data-symbol=frenzy]").click()
    form.locator("[data-testid=card-move] [data-value='1']").click()
    form.locator("[data-testid=card-dice] [data-value='3']").click()
    shot(page, "card-check-correct")
    page.get_by_test_id("card-check-save").click()
    wait_version(page, view["version"] + 2)

    # No item is drawn (0 items), the Event puts her at the Sorcerer, and the Frenzy line attacks with 3 dice.
    page.wait_for_selector("[data-testid=prompt][data-kind=roll] [data-testid=face]")
    assert page.get_by_test_id("prompt").get_by_test_id("die-row").count() == 3
    assert page.locator("[data-testid=token-monster][data-id='baba-lysaga']").get_attribute("data-location") == sorcerer
    assert NAME in table_steps(page)
    entries = _entries(own_service, game_id)
    at = max(i for i, e in enumerate(entries) if e.get("key") == "monster-card")
    data_input, drawn = entries[at - 1:at + 1]
    card = data_input["data"]["changes"]["cards"]["cards"][second]
    assert card["name"] == NAME and card["items"] == 0 and card["attack"] == {"symbols": ["frenzy"], "move": 1, "dice": 3}
    assert drawn == {"key": "monster-card", "answer": second}
    assert f"cards.cards.{first}" in data_input["data"]["confirmed"]  # the earlier confirmation is kept
    assert prompt_of(page)[0] == "roll"
