"""Siege of Barovia in Chromium: a game against the box's Dungeon Master from the
new-game screen to the end screen, and a game with a person as the DM on a
phone while the heroes play on a tablet that cannot act for the DM."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np
import requests

from ui_helpers import GAME, Server, new_game, open_games, prompt_of, version, wait_version_after

PHONE = {"width": 390, "height": 844}
MOST_STEPS = 400


def start_siege(page: Any, url: str, players: int, dm: str) -> None:
    open_games(page, url)
    new_game(page, "siege-of-barovia")
    page.get_by_test_id("screen-setup").wait_for()
    for _ in range(3 - players):
        page.get_by_test_id("setup-fewer").click()
    page.get_by_test_id("setup-player-0").fill("Ana")
    page.get_by_test_id(f"setup-dm-{dm}").click()
    if dm == "box":
        page.get_by_test_id("setup-level-hard").click()
    page.get_by_test_id("setup-start").click()


def roll(page: Any, value: int) -> None:
    old = version(page)
    page.locator(f"[data-testid=d6][data-value='{value}']").first.click()
    page.get_by_test_id("roll-confirm").click()
    wait_version_after(page, old)


def tap(page: Any, action: str) -> None:
    old = version(page)
    page.get_by_test_id("prompt").locator(f"[data-testid=action][data-action='{action}']").first.click()
    if page.get_by_test_id("confirm").count():  # ending the turn with the move or the action left is confirmed
        page.get_by_test_id("confirm").get_by_test_id("confirm-yes").click()
    wait_version_after(page, old)


def move_on_the_grid(phone: Any, figure: str) -> str:
    """The DM taps ``figure``'s square on the grid (and the figure, when creatures of several kinds stand
    there), then the first square it may move to; returns that square."""
    at = phone.locator(f"[data-testid=siege-pick-board] [data-testid=figure][data-figure={figure}]").get_attribute("data-square")
    phone.locator(f"[data-testid=grid-pick][data-pick=from][data-square='{at}']").click()
    if phone.get_by_test_id("dm-which").count():
        phone.locator(f"[data-testid=dm-figure][data-figure={figure}]").click()
    target = phone.locator("[data-testid=grid-pick][data-pick=to]").first
    square = str(target.get_attribute("data-square"))
    target.click()
    phone.get_by_test_id("dm-acts").wait_for()
    return square


def test_a_game_against_the_box_dm_to_the_end_screen(server: Server, new_tablet: Callable[..., Any]) -> None:
    page = new_tablet()
    start_siege(page, server.url, players=1, dm="box")
    page.locator(GAME).wait_for()  # no seat to claim against the box: the tablet plays the heroes at once
    assert page.get_by_test_id("screen-seat").count() == 0
    board = page.get_by_test_id("siege-board")
    assert board.locator("[data-testid=figure][data-kind=hero]").count() == 1
    assert board.locator("[data-testid=barricade]").count() == 6
    tap(page, "end")  # the hero waits; the box plays its turn and says why
    assert page.get_by_test_id("dm-why").inner_text().startswith("Why: ")
    for _ in range(MOST_STEPS):
        if page.get_by_test_id("outcome").count():
            break
        kind, _key = prompt_of(page)
        if kind == "roll":
            roll(page, 6)
        else:
            tap(page, "end")
    outcome = page.get_by_test_id("outcome")
    assert outcome.get_attribute("data-outcome").startswith("lost")
    assert page.get_by_test_id("outcome-title").inner_text() == "Barovia has fallen"
    assert board.locator("[data-testid=square][data-destroyed=yes]").count() == 3


def test_a_person_dm_on_a_phone_while_the_heroes_play_on_a_tablet(server: Server,
                                                                  new_tablet: Callable[..., Any]) -> None:
    tablet = new_tablet()
    start_siege(tablet, server.url, players=1, dm="person")
    tablet.get_by_test_id("screen-seat").wait_for()
    assert [b.get_attribute("data-seat") for b in tablet.get_by_test_id("seat-claim").all()] == ["dm"]  # the one secret seat
    hint, watch = tablet.get_by_test_id("seat-hint").inner_text(), tablet.get_by_test_id("seat-watch").inner_text()
    assert "Dungeon Master plays on their own phone" in hint and "The shared tablet plays Ana" in hint, hint
    assert "watches" not in hint and watch.startswith("This is the shared tablet: it plays Ana"), watch  # issue 33, point 14
    game_url = tablet.url
    tablet.get_by_test_id("seat-watch").click()  # the heroes' shared tablet
    tablet.locator(GAME).wait_for()
    phone = new_tablet(PHONE)
    phone.goto(game_url)
    phone.get_by_test_id("screen-seat").wait_for()
    phone.locator("[data-testid=seat-claim][data-seat='dm']").click()
    phone.locator(GAME).wait_for()

    tap(tablet, "end")
    tablet.wait_for_selector("[data-testid=prompt][data-kind=waiting]")
    assert tablet.get_by_test_id("prompt").locator("[data-testid=action]").count() == 0  # nothing to act for the DM
    phone.wait_for_selector("[data-testid=prompt][data-key=dm-turn]")
    old = version(phone)
    phone.wait_for_timeout(400)  # the tablet's answer just redrew the phone: the tap guard takes no tap yet
    move_on_the_grid(phone, "ghoul-1")
    phone.get_by_test_id("dm-act").first.click()
    wait_version_after(phone, old)
    tablet.wait_for_selector("[data-testid=dm-path]", state="attached")  # a straight line has no height to be "visible"
    tablet.wait_for_selector("[data-testid=prompt][data-key=hero-turn]")
    assert tablet.locator("[data-testid=figure][data-figure=ghoul-1]").get_attribute("data-square") != \
        phone.locator("[data-testid=square][data-place=graveyard]").get_attribute("data-square")


def test_the_grid_editor_changes_the_map_new_games_play_on(own_service: Any, new_tablet: Callable[..., Any],
                                                           tmp_path: Path) -> None:
    """Size, a place, a barricade, Strahd's edge and a square off the board, drawn over a photo of
    the owner's map with the grid's sides moved onto it; saved, then a new game plays on it."""
    page = new_tablet()
    open_games(page, own_service.url)
    page.get_by_test_id("data-open").click()
    page.get_by_test_id("screen-choose-game").wait_for()
    page.get_by_test_id("pack-siege-of-barovia").click()
    editor = page.get_by_test_id("screen-grid-editor")
    editor.wait_for()
    page.get_by_test_id("grid-columns-more").click()
    page.wait_for_selector("[data-testid=ed-grid][data-columns='9']")
    page.get_by_test_id("place-pick-church").click()
    page.locator("[data-testid=ed-square][data-square='8,0']").click()
    page.wait_for_selector("[data-testid=ed-square][data-square='8,0'][data-place=church]")
    page.get_by_test_id("mode-barricades").click()
    page.locator("[data-testid=ed-line][data-line='7,0|8,0']").click()
    page.wait_for_selector("[data-testid=ed-line][data-line='7,0|8,0'][data-barricade=yes]")
    page.locator("[data-testid=ed-square][data-square='8,7']").click()  # not a line: nothing changes in this mode
    assert page.locator("[data-testid=ed-square][data-square='8,7']").get_attribute("data-place") is None
    page.wait_for_selector("[data-testid=data-checks][data-pending=no][data-problems='0']")
    square = lambda name: page.locator(f"[data-testid=ed-square][data-square='{name}']")  # noqa: E731
    assert square("8,7").get_attribute("data-edge") == "yes"  # every border square, until the owner says
    page.get_by_test_id("mode-edge").click()
    square("8,7").click()
    page.wait_for_selector("[data-testid=ed-square][data-square='8,7'][data-edge=no]")
    assert square("8,6").get_attribute("data-edge") == "yes"
    page.get_by_test_id("mode-off").click()
    square("0,7").click()
    page.wait_for_selector("[data-testid=ed-square][data-square='0,7'][data-off=yes]")
    page.wait_for_selector("[data-testid=data-checks][data-pending=no][data-problems='0']")
    photo = tmp_path / "map.png"
    photo.write_bytes(bytes(cv2.imencode(".png", np.full((300, 320, 3), 120, np.uint8))[1].tobytes()))
    page.get_by_test_id("photo-file").set_input_files(str(photo))
    page.get_by_test_id("ed-photo").wait_for()
    page.get_by_test_id("frame-left-more").click()
    page.wait_for_selector("[data-testid=frame-left]:has-text('1 %')")

    page.get_by_test_id("place-pick-tavern").click()  # two places on one square: refused with why
    page.locator("[data-testid=ed-square][data-square='8,0']").click()
    page.wait_for_selector("[data-testid=data-checks][data-pending=no]:not([data-problems='0'])")
    assert "both on the square in column 9, row 1" in page.get_by_test_id("data-checks").inner_text()
    assert page.get_by_test_id("data-save").is_disabled()
    page.locator("[data-testid=ed-square][data-square='2,5']").click()  # the tavern back where it was
    page.wait_for_selector("[data-testid=data-checks][data-pending=no][data-problems='0']")
    page.get_by_test_id("data-save").click()
    page.wait_for_selector("[data-testid=data-checks]:has-text('The map as saved.')")  # read back from the box
    saved = requests.get(f"{own_service.url}/api/data/siege-of-barovia", timeout=10).json()
    assert saved["changes"]["map"]["places"] == {"church": {"square": "8,0"}}
    kept = saved["changes"]["map"]["set"]
    assert "8,7" not in kept["edge"]["squares"] and "8,6" in kept["edge"]["squares"]
    assert kept["off_board"]["squares"] == ["0,7"] and kept["frame"]["left"] == 0.01

    start_siege(page, own_service.url, players=1, dm="box")
    board = page.get_by_test_id("siege-board")
    board.wait_for()
    assert board.locator("[data-testid=square][data-place=church]").get_attribute("data-square") == "8,0"
    assert board.locator("[data-testid=square]").count() == 9 * 8 - 1  # the square off the board is not drawn
    assert board.locator("[data-testid=barricade][data-line='7,0|8,0']").count() == 1


# -- the hero turn's Fortify and the readings, on the tablet -----------------------------------------------

def tap_label(page: Any, text: str) -> None:
    old = version(page)
    page.get_by_test_id("prompt").locator("[data-testid=action]", has_text=text).first.click()
    wait_version_after(page, old)


def until_hero_turn(page: Any) -> None:
    """The box DM's turn played out, its dice rolled 1 (a summon brings nobody, an attack misses)."""
    for _ in range(6):
        page.wait_for_selector("[data-testid=prompt][data-kind=roll], [data-testid=prompt][data-key=hero-turn]")
        kind, key = prompt_of(page)
        if key == "hero-turn":
            return
        roll(page, 1)
    raise AssertionError("the hero's turn did not come back")


def barricade_lines(page: Any) -> set[frozenset[str]]:
    lines = page.get_by_test_id("siege-board").locator("[data-testid=barricade]")
    return {frozenset(line.get_attribute("data-line").split("|")) for line in lines.all()}


def test_fortify_moves_several_barricades_at_once_one_of_the_heros_own_square_to_another_side(
        server: Server, new_tablet: Callable[..., Any]) -> None:
    """"... or moves any number of barricades to lines in the space that hero is in": the hero beside the
    Tavern brings its own west barricade round to the south side and a far one to the north, in one action."""
    page = new_tablet()
    start_siege(page, server.url, players=1, dm="box")
    page.locator(GAME).wait_for()
    tap_label(page, "to the square in column 2, row 5")  # east, off the entrance
    tap(page, "end")
    until_hero_turn(page)
    tap_label(page, "to the square in column 2, row 6")  # south: beside the Tavern, its barricade on the east side
    form = page.get_by_test_id("fortify-moves")
    form.locator("summary").click()
    form.locator("[data-testid=fortify-pick][data-side=S][data-line='1,5|2,5']").click()
    form.locator("[data-testid=fortify-pick][data-side=N][data-line='6,4|6,5']").click()
    assert form.locator("[data-testid=fortify-pick][data-side=W][data-line='1,5|2,5']").is_disabled()  # once each
    old = version(page)
    form.get_by_test_id("fortify-send").click()
    wait_version_after(page, old)
    lines = barricade_lines(page)
    assert {frozenset({"1,5", "1,6"}), frozenset({"1,4", "1,5"})} <= lines
    assert not {frozenset({"1,5", "2,5"}), frozenset({"6,4", "6,5"})} & lines
    assert len(lines) == 6


def test_the_readings_are_chosen_on_the_new_game_screen_and_shown_during_the_game(
        server: Server, new_tablet: Callable[..., Any]) -> None:
    """The ten readings, ours unless the table changes them before the game; the game screen lists the ones
    in play, and the game plays them (moving in either order: an action first does not end the turn)."""
    page = new_tablet()
    open_games(page, server.url)
    new_game(page, "siege-of-barovia")
    readings = page.get_by_test_id("setup-readings")
    readings.wait_for()
    # A tap on the summary and a choice made in the same moment, before the toggle event comes: the
    # screen drawn again for the choice keeps the readings open (once it closed them under load).
    page.evaluate("""() => {
      const readings = document.querySelector('[data-testid=setup-readings]');
      readings.querySelector('summary').click();
      const order = readings.querySelector('[data-testid=setup-reading-hero_order]');
      order.value = 'any-order';
      order.dispatchEvent(new Event('change'));
    }""")
    assert readings.evaluate("(details) => details.open")
    assert readings.get_by_test_id("setup-reading").count() == 10
    assert page.get_by_test_id("setup-reading-hero_order").input_value() == "any-order"
    page.get_by_test_id("setup-reading-ghoul_summon").select_option("printed-e11")
    for _ in range(2):
        page.get_by_test_id("setup-fewer").click()
    page.get_by_test_id("setup-start").click()
    page.locator(GAME).wait_for()
    shown = page.get_by_test_id("siege-readings")
    assert "2 not ours" in shown.locator("summary").inner_text()
    choices = {item.get_attribute("data-reading"): item.get_attribute("data-choice")
               for item in shown.get_by_test_id("siege-reading").all()}
    assert len(choices) == 10 and choices["hero_order"] == "any-order" and choices["ghoul_summon"] == "printed-e11"
    assert choices["dm_pass"] == "may-pass"
    tap_label(page, "Build a barricade on the north side")  # acting first...
    kind, key = prompt_of(page)
    assert (kind, key) == ("action", "hero-turn")  # ...leaves the move, by the reading chosen
    assert page.get_by_test_id("prompt").locator("[data-testid=action][data-action=move]").count() > 0


def dm_phone_at_its_turn(server: Server, new_tablet: Callable[..., Any]) -> tuple[Any, Any]:
    """A game with a person DM: the heroes' tablet ends Ana's turn; the DM's phone is at its turn."""
    tablet = new_tablet()
    start_siege(tablet, server.url, players=1, dm="person")
    tablet.get_by_test_id("screen-seat").wait_for()
    game_url = tablet.url
    tablet.get_by_test_id("seat-watch").click()
    tablet.locator(GAME).wait_for()
    phone = new_tablet(PHONE)
    phone.goto(game_url)
    phone.locator("[data-testid=seat-claim][data-seat='dm']").click()
    phone.locator(GAME).wait_for()
    tap(tablet, "end")
    phone.wait_for_selector("[data-testid=prompt][data-key=dm-turn]")
    phone.wait_for_timeout(400)  # the tap guard after the tablet's redraw
    return tablet, phone


def test_a_person_dm_chooses_on_the_grid_with_a_few_buttons_at_each_step(server: Server,
                                                                         new_tablet: Callable[..., Any]) -> None:
    """Issue 33, points 11 and 13: on the DM's phone the turn is chosen on the grid, right under the question
    (not thousands of pixels down), a handful of buttons at each step instead of a menu of every whole turn;
    the move tapped is the move made."""
    tablet, phone = dm_phone_at_its_turn(server, new_tablet)
    grid = phone.get_by_test_id("siege-pick-board")
    box = grid.bounding_box()
    assert box is not None and box["y"] < PHONE["height"] and box["x"] + box["width"] <= PHONE["width"], box
    assert phone.locator("[data-testid=prompt] button").count() <= 4  # the grid holds the choices
    picks = phone.locator("[data-testid=grid-pick]")
    assert picks.count() >= 1 and all((b := r.bounding_box()) and b["width"] >= 36 for r in picks.all())
    square = move_on_the_grid(phone, "ghoul-1")
    acts = phone.get_by_test_id("dm-act")
    assert 1 <= acts.count() <= 12 and phone.get_by_test_id("siege-pick-board").count() == 0
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    old = version(phone)
    acts.first.click()
    wait_version_after(phone, old)
    tablet.wait_for_selector(f"[data-testid=figure][data-figure=ghoul-1][data-square='{square}']")


def test_count_strahd_arrives_on_the_edge_square_the_dm_taps(server: Server, new_tablet: Callable[..., Any]) -> None:
    """Issue 33, point 13: the DM acts without moving, summons, rolls a 6: the edge squares are marked on the
    grid; one tapped and confirmed is where Count Strahd stands."""
    tablet, phone = dm_phone_at_its_turn(server, new_tablet)
    phone.get_by_test_id("dm-no-move").click()
    old = version(phone)
    phone.locator("[data-testid=dm-act][data-act=summon]").click()
    wait_version_after(phone, old)
    roll(phone, 6)
    phone.wait_for_selector("[data-testid=prompt][data-key=strahd-arrives]")
    edges = phone.locator("[data-testid=grid-pick][data-pick=edge]")
    assert edges.count() >= 8 and phone.get_by_test_id("option").count() == 0  # squares on the grid, no list
    assert phone.get_by_test_id("arrival-send").is_disabled()
    chosen = str(edges.nth(3).get_attribute("data-square"))
    edges.nth(3).click()
    old = version(phone)
    phone.get_by_test_id("arrival-send").click()
    wait_version_after(phone, old)
    tablet.wait_for_selector(f"[data-testid=figure][data-figure=strahd][data-square='{chosen}']")
