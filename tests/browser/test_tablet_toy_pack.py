"""A second game through the tablet's shell, with no change outside its folder
(tests/toy_pack): a shared tablet and two phones, each phone playing its own
seat, the word North writes never shown on South's phone nor the tablet until
both words are revealed together."""

from __future__ import annotations

import os
from typing import Any, Callable, Iterator

import pytest

from conftest import ROOT, _free_port, companion
from ui_helpers import GAME, Server, press, version, wait_version_after

PHONE = {"width": 390, "height": 844}
ENV = {"COMPANION_EXTRA_PACKS": "toy_pack:ToyPack",
       "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])}
NORTH_WORD = "ZQXJ-MARMALADE-7731"


@pytest.fixture(scope="module")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(f"http://127.0.0.1:{_free_port()}/", tmp_path_factory.mktemp("toy-state"), None)
    with companion(running, [], env=ENV):
        yield running


def take_seat(page: Any, url: str, seat: str) -> None:
    page.goto(url)
    page.get_by_test_id("screen-seat").wait_for()
    page.locator(f"[data-testid=seat-claim][data-seat='{seat}']").click()
    page.locator(GAME).wait_for()


def write(page: Any, word: str) -> None:
    old = version(page)
    page.get_by_test_id("toy-word").fill(word)
    press(page, page.get_by_test_id("toy-write"))  # the tap guard: another phone may just have redrawn this one
    wait_version_after(page, old)


def test_two_phones_and_a_tablet_play_the_toy_game_with_secrets_kept(
        toy_server: Server, new_tablet: Callable[..., Any]) -> None:
    tablet = new_tablet()
    tablet.goto(toy_server.url)
    tablet.get_by_test_id("new-game").click()
    tablet.get_by_test_id("screen-choose-game").wait_for()  # two games on this box: which one?
    tablet.get_by_test_id("pack-secret-words").click()
    tablet.get_by_test_id("setup-start").click()
    tablet.get_by_test_id("screen-seat").wait_for()
    game_url = tablet.url
    tablet.get_by_test_id("seat-watch").click()
    tablet.locator(GAME).wait_for()
    north, south = new_tablet(PHONE), new_tablet(PHONE)
    take_seat(north, game_url, "north")
    take_seat(south, game_url, "south")
    assert south.get_by_test_id("prompt").get_attribute("data-kind") == "waiting"
    write(north, NORTH_WORD)
    assert NORTH_WORD in north.get_by_test_id("toy-mine").inner_text()
    south.get_by_test_id("toy-word").wait_for()  # South's turn now
    for other in (south, tablet):
        other.wait_for_selector("[data-testid=effects] >> text=North has written")
        assert NORTH_WORD not in other.content()
    write(south, "PLUM")
    for page in (north, south, tablet):
        page.wait_for_selector(f"[data-testid=toy-revealed] >> text={NORTH_WORD}")
    assert tablet.locator("[data-testid=toy-score][data-seat='north']").inner_text() == "North: 1"
