"""The original Horrified and mixed games as a new owner meets them, in Chromium against the real
service: the mixed game stays on offer in the wizard once the owner has confirmed a guessed card,
and Ravenloft's wizard leads to it with its board chosen; the monster step says where each monster
starts (on the village, and for a guest on the host's board); a mixed game's first-player roll
names each d20 by its player, and every number of the grid can be tapped (none under the Send
bar) on a tablet and on a phone."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the service tests' helpers

from service_process import Service, connect, next_event, ok, simple_answer
from ui_helpers import Server, choose_game, open_games, shot, wait_connected

GAME = "horrified"
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1280, "height": 800}
MIXED_SETUP = {"board": "ravenloft", "monsters": ["dracula", "carrionette"],
               "heroes": [{"hero": "sorcerer", "player": "Ana"}, {"hero": "druid", "player": "Ben"}]}


def confirm_a_guessed_card(url: str) -> str:
    """The owner confirms one of the guessed Monster cards (saved as the service's owner data)."""
    client = connect(url)
    try:
        data = ok(client, "data_get", {"game": GAME})
        card = data["files"]["cards.json"]["cards"][0]["id"]
        doc = {**data["data"], "confirmed": [*data["data"]["confirmed"], f"cards.cards.{card}"]}
        ok(client, "data_save", {"game": GAME, "data": doc})
        return str(card)
    finally:
        client.disconnect()


def test_the_mixed_game_stays_on_offer_once_a_card_is_confirmed_and_ravenloft_leads_to_it(
        own_service: Service, new_tablet: Callable[..., Any]) -> None:
    confirm_a_guessed_card(own_service.url)
    page = new_tablet()
    page.goto(f"{own_service.url}/#/new/{GAME}")
    wait_connected(page)
    page.get_by_test_id("screen-setup").wait_for()
    page.get_by_test_id("monster-dracula").wait_for()
    assert page.get_by_test_id("board-ravenloft").count() == 1  # the owner's data does not take it away
    page.reload()
    page.get_by_test_id("board-ravenloft").wait_for()

    # Ravenloft's wizard: the original's monsters on its board, set up in the original's wizard.
    page.goto(f"{own_service.url}/#/new/ravenloft")
    page.get_by_test_id("monster-strahd").wait_for()
    link = page.get_by_test_id(f"mixed-from-{GAME}")
    link.wait_for()
    assert "Horrified" in link.inner_text()
    link.scroll_into_view_if_needed()
    shot(page, "setup-ravenloft-mixed-offer")
    link.click()
    page.locator(f"[data-testid=screen-setup][data-game={GAME}]").wait_for()
    assert page.get_by_test_id("board-ravenloft").get_attribute("aria-pressed") == "true"
    assert "our combination" in page.get_by_test_id("mixed-note").inner_text()
    assert page.get_by_test_id("monster-carrionette").count() == 1  # the host's monsters on offer beside the guests


def test_the_monster_step_says_where_each_monster_starts(server: Server, new_tablet: Callable[..., Any]) -> None:
    page = new_tablet()
    open_games(page, server.url)
    page.get_by_test_id("new-game").click()
    choose_game(page, GAME)
    pack = server.get_json(f"/api/packs/{GAME}")
    places = {l["id"]: l["name"] for l in pack["board"]["locations"]}
    for monster in pack["monsters"]:
        line = page.get_by_test_id(f"monster-start-{monster['id']}").inner_text()
        assert "undefined" not in line
        assert f"starts at {places[monster['start']]}" in line, line
    shot(page, "setup-original-monsters")

    # A mixed game: the host's monsters at their own places, a guest where its start lands by default.
    page.get_by_test_id("board-ravenloft").click()
    host = next(b for b in pack["boards"] if b["id"] == "ravenloft")
    host_places = {l["id"]: l["name"] for l in host["pack"]["board"]["locations"]}
    strahd = next(m for m in host["pack"]["monsters"] if m["id"] == "strahd")
    assert f"starts at {host_places[strahd['start']]}" in page.get_by_test_id("monster-start-strahd").inner_text()
    landed = host_places[host["places"]["dracula"]["start"]["to"]]
    assert f"starts at {landed}" in page.get_by_test_id("monster-start-dracula").inner_text()


def mixed_game_at_the_first_player_roll(url: str) -> str:
    """A mixed game (Dracula on the Ravenloft board, two heroes) answered up to its first-player roll."""
    client = connect(url)
    try:
        game_id = ok(client, "new_game", {"name": "Mixed dice", "game": GAME, "setup": MIXED_SETUP})["game_id"]
        view = ok(client, "join", {"game_id": game_id})["view"]
        for _ in range(40):
            prompt = view["prompt"]
            if prompt["kind"] == "roll":
                assert prompt["die"] == "d20" and prompt["count"] == 2, prompt
                return str(game_id)
            ok(client, "act", {"game_id": game_id, "version": view["version"], "key": prompt["key"],
                               "answer": simple_answer(prompt)})
            view = next_event(client, "view")
        raise AssertionError("no roll within the setup")
    finally:
        client.disconnect()


#: Each d20 button scrolled into view as a person scrolling down meets it (at the bottom of the
#: screen, or of the question's own scrolling column): the point under its centre must be its own.
UNCOVERED = """() => [...document.querySelectorAll('[data-testid=d20]')].filter((button) => {
  button.scrollIntoView({ block: 'end', inline: 'nearest' });
  const r = button.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !(hit && button.contains(hit));
}).map((button) => `${button.dataset.die}:${button.dataset.value}`)"""


def test_a_mixed_games_d20_rolls_are_named_and_every_number_can_be_tapped(
        server: Server, new_tablet: Callable[..., Any]) -> None:
    game_id = mixed_game_at_the_first_player_roll(server.url)
    for name, viewport in (("tablet", TABLET), ("phone", PHONE)):
        page = new_tablet(viewport=viewport)
        page.goto(f"{server.url}#/game/{game_id}")
        page.locator("[data-testid=prompt][data-kind=roll]").wait_for()
        labels = page.locator("[data-testid=die-row] .die-row-label").all_inner_texts()
        assert labels == ["Ana (Sorcerer): the d20", "Ben (Druid): the d20"], labels
        assert "Monster die" not in page.get_by_test_id("prompt").inner_text()
        assert page.evaluate(UNCOVERED) == [], f"d20 buttons under something else on the {name}"
        for die in (0, 1):  # a real tap on the lowest row of each die, scrolled to as Playwright does
            button = page.locator(f"[data-testid=d20][data-die='{die}'][data-value='20']")
            button.click()
            assert button.get_attribute("aria-pressed") == "true"
        assert "Send the roll: 20, 20" in page.get_by_test_id("roll-confirm").inner_text()
        shot(page, f"{'phone-' if name == 'phone' else ''}mixed-first-player-roll")
