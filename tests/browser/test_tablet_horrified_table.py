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


def confirm_the_whole_board(url: str) -> None:
    """The owner confirms every place and every road of the village (each as it is)."""
    client = connect(url)
    try:
        data = ok(client, "data_get", {"game": GAME})
        board = data["files"]["board.json"]
        keys = [f"board.locations.{l['id']}" for l in board["locations"]]
        keys += [f"board.connections.{'+'.join(sorted(c['between']))}" for c in board["connections"]]
        ok(client, "data_save", {"game": GAME, "data": {**data["data"], "confirmed": [*data["data"]["confirmed"], *keys]}})
    finally:
        client.disconnect()


def original_game(url: str) -> str:
    client = connect(url)
    try:
        setup = {"monsters": ["creature", "dracula"], "heroes": [{"hero": "mayor", "player": "Ana"}]}
        return str(ok(client, "new_game", {"name": "The village", "game": GAME, "setup": setup})["game_id"])
    finally:
        client.disconnect()


def test_the_guessed_village_is_said_in_setup_and_play_with_a_way_to_check_it_and_not_once_confirmed(
        own_service: Service, new_tablet: Callable[..., Any]) -> None:
    url = own_service.url
    pack = own_service_pack(url)
    places, roads = len(pack["board"]["locations"]), len(pack["board"]["connections"])
    page = new_tablet()
    page.goto(f"{url}/#/new/{GAME}")
    note = page.get_by_test_id("board-guess")
    note.wait_for()
    assert (note.get_attribute("data-places"), note.get_attribute("data-roads")) == (str(places), str(roads))
    assert f"all {places} places and all {roads} roads" in note.inner_text() and "our guess" in note.inner_text()
    shot(page, "setup-original-board-guess")
    page.get_by_test_id("board-ravenloft").click()  # a mixed game: the host's board, as sure as its own data is
    host = next(b for b in pack["boards"] if b["id"] == "ravenloft")["pack"]["board"]
    guessed = len(host["guessed_places"]) + len(host["guessed_roads"])
    host_note = page.locator("[data-testid=board-guess]")
    assert host_note.count() == (1 if guessed else 0)
    if guessed:
        assert host_note.get_attribute("data-roads") == str(len(host["guessed_roads"]))
        assert "Ravenloft board is our guess" in host_note.inner_text()
    page.get_by_test_id(f"board-{GAME}").click()
    page.get_by_test_id("board-guess-editor").click()
    page.get_by_test_id("screen-board-editor").wait_for()

    game_id = original_game(url)
    for name, viewport in (("tablet", TABLET), ("phone", PHONE)):
        play = new_tablet(viewport=viewport)
        play.goto(f"{url}/#/game/{game_id}")
        line = play.locator(".board-panel [data-testid=board-guess]")
        line.wait_for()
        assert "our guess" in line.inner_text()
        line.scroll_into_view_if_needed()
        assert line.is_visible() and line.bounding_box()["width"] <= viewport["width"]
        if name == "phone":
            shot(play, "phone-original-board-guess")
        play.get_by_test_id("board-guess-status").click()
        play.get_by_test_id("screen-data").wait_for()

    confirm_the_whole_board(url)  # once confirmed: not a word more, in the wizard or in a new game
    page.goto(f"{url}/#/new/{GAME}")
    page.reload()
    page.get_by_test_id("monster-dracula").wait_for()
    assert page.get_by_test_id("board-guess").count() == 0
    confirmed_game = original_game(url)
    page.goto(f"{url}/#/game/{confirmed_game}")
    page.get_by_test_id("screen-game").wait_for()
    page.get_by_test_id("board").first.wait_for()
    assert page.get_by_test_id("board-guess").count() == 0


def own_service_pack(url: str) -> dict[str, Any]:
    import requests

    found: dict[str, Any] = requests.get(f"{url}/api/packs/{GAME}", timeout=10).json()
    return found
