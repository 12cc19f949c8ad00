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

    page.goto(f"{url}/#/new/{GAME}")
    page.get_by_test_id("board-guess").wait_for()
    confirm_the_whole_board(url)  # once confirmed: not a word more, in the open wizard or in a new game
    page.get_by_test_id("board-guess").wait_for(state="detached")
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


def percent(x: float) -> str:
    """As the panel words a chance (whole percent; never 0 % or 100 % for one that is not)."""
    p = round(x * 100)
    return "0%" if x <= 0 else "100%" if x >= 1 else "<1%" if p == 0 else ">99%" if p == 100 else f"{p}%"


def in_view(page: Any, target: Any) -> bool:
    box = target.bounding_box()
    size = page.viewport_size
    return bool(box) and box["y"] >= 0 and box["y"] + min(box["height"], 120) <= size["height"] \
        and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1


RANGED = """() => {
  const kept = window.companion.forecast;
  const made = JSON.parse(JSON.stringify(kept));
  made.forecast.characters.find((c) => c.id === "mayor").attacked = { low: 0.2, high: 0.45, random: 0.3 };
  window.companion.acceptForecast(made);
  return kept;
}"""


def test_the_forecast_shows_the_likely_figure_first_its_range_in_words_and_what_if_before_and_after_beside_the_question(
        server: Server, new_tablet: Callable[..., Any]) -> None:
    import requests

    from companion.engine.game import Game
    from companion.games.registry import pack_makers

    original = pack_makers("")[GAME]()
    cards = [c["id"] for c in original.pack_view()["cards"]]  # type: ignore[union-attr, index]
    position = {"phase": "hero", "monsters": {"mummy": "museum", "dracula": "crypt"},
                "heroes": [{"hero": "mayor", "player": "Ana", "at": "museum"}], "played_cards": cards[3:]}
    game = Game(original.rules, {"position": position})
    forecaster = original.forecaster()
    assert forecaster is not None
    now = forecaster.forecast(game)
    assert now is not None
    mayor_now = next(c for c in now["characters"] if c["id"] == "mayor")  # type: ignore[union-attr, index]

    def attacked_after(action: dict[str, Any]) -> tuple[float, dict[str, Any]]:
        found = forecaster.what_if(game, {k: v for k, v in action.items() if k != "label"})
        assert found is not None
        mayor = next(c for c in found["characters"] if c["id"] == "mayor")  # type: ignore[union-attr, index]
        return abs(mayor["attacked"]["random"] - mayor_now["attacked"]["random"]), found

    moves = [a for a in original.action_menu(game, None) if a["action"] == "move"]
    change, after, move = max(((*attacked_after(a), a) for a in moves), key=lambda found: found[0])
    assert change > 0.005, "a move that changes the Mayor's chance, to show before and after"
    game_file = {"format": "companion-game", "version": 1, "game": GAME, "name": "What the Mummy may do",
                 "origin": {"position": position}, "journal": []}
    reply = requests.post(f"{server.url}api/games/import", json=game_file, timeout=10).json()
    assert reply["ok"], reply
    mayor_after = next(c for c in after["characters"] if c["id"] == "mayor")  # type: ignore[union-attr, index]

    for name, viewport in (("tablet", TABLET), ("phone", PHONE)):
        page = new_tablet(viewport=viewport)
        page.goto(f"{server.url}#/game/{reply['game_id']}")
        panel = page.locator("[data-testid=forecast][data-ready=yes]")
        panel.wait_for()
        mayor = page.locator("[data-testid=forecast-row][data-id=mayor]")
        attacked = mayor.get_by_test_id("forecast-attacked")
        assert attacked.get_by_test_id("forecast-main").inner_text() == percent(mayor_now["attacked"]["random"])
        low, high = percent(mayor_now["attacked"]["low"]), percent(mayor_now["attacked"]["high"])
        assert attacked.get_by_test_id("forecast-range").count() == (low != high)
        if low != high:  # the range second, smaller, in the table's words
            assert attacked.get_by_test_id("forecast-range").inner_text() == f"Ana can make it {low}–{high}"
        keeping = mayor.get_by_test_id("forecast-keeping").inner_text()
        assert "if keeping their items" not in keeping and "never discard an item to stop a hit" in keeping
        assert "how low and how high Ana can make it" in page.get_by_test_id("forecast-legend").inner_text()
        kept = page.evaluate(RANGED)  # a forecast where Ana's choices move the Mayor's chance: the range second
        assert attacked.get_by_test_id("forecast-main").inner_text() == "30%"
        assert attacked.get_by_test_id("forecast-range").inner_text() == "Ana can make it 20%–45%"
        page.evaluate("(kept) => window.companion.acceptForecast(kept)", kept)
        assert attacked.get_by_test_id("forecast-main").inner_text() == percent(mayor_now["attacked"]["random"])

        # Beside the question, not below the board: in the question's column (tablet) or before the board (phone).
        board = page.locator(".board-panel")
        question = page.get_by_test_id("prompt")
        if name == "tablet":
            assert panel.bounding_box()["x"] + panel.bounding_box()["width"] <= board.bounding_box()["x"]
            assert abs(panel.bounding_box()["x"] - question.bounding_box()["x"]) < 2
        assert panel.bounding_box()["y"] < board.bounding_box()["y"] or name == "tablet"
        page.get_by_test_id("what-if").scroll_into_view_if_needed()
        assert in_view(page, page.get_by_test_id("what-if"))

        page.get_by_test_id("what-if").click()
        question.locator(f"[data-testid=action][data-action=move][data-to='{move['to']}']").first.click()
        page.locator("[data-testid=forecast][data-what-if=yes][data-ready=yes]").wait_for()
        page.wait_for_timeout(300)  # the panel is scrolled into view once the answer is drawn
        assert in_view(page, page.get_by_test_id("what-if-label"))
        assert in_view(page, page.get_by_test_id("forecast-table"))
        changed = mayor.get_by_test_id("forecast-attacked")
        assert changed.get_by_test_id("forecast-before").inner_text() == percent(mayor_now["attacked"]["random"])
        assert changed.get_by_test_id("forecast-main").inner_text().endswith(percent(mayor_after["attacked"]["random"]))
        assert "→" in changed.get_by_test_id("forecast-main").inner_text()
        assert page.get_by_test_id("forecast-lose").get_by_test_id("forecast-before").count() == 1
        assert page.get_by_test_id("forecast-terror").get_by_test_id("forecast-before").count() == 1
        shot(page, f"{'phone-' if name == 'phone' else ''}original-forecast-what-if")
        page.get_by_test_id("what-if-dismiss").click()
        page.locator("[data-testid=forecast][data-what-if=no][data-ready=yes]").wait_for()
        assert page.get_by_test_id("forecast-before").count() == 0
