"""Straszydła in Chromium: a shared tablet lays out the game, three phones take their seats and
play their secrets (pact cards, plans, bids) while the tablet taps the duel's dice, through a
duel and whole rounds to the feeding at the end of the time of day. What one phone holds never
shows on another phone or on the tablet before the rules reveal it."""

from __future__ import annotations

from typing import Any, Callable, Iterator

import pytest

from conftest import _free_port, companion
from ui_helpers import GAME, Server, prompt_of, version, wait_version_after

PHONE = {"width": 390, "height": 844}
SEATS = ("p1", "p2", "p3")


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(f"http://127.0.0.1:{_free_port()}/", tmp_path_factory.mktemp("straszydla-state"), None)
    with companion(running, []):
        yield running


def take_seat(page: Any, url: str, seat: str) -> None:
    page.goto(url)
    page.get_by_test_id("screen-seat").wait_for()
    page.locator(f"[data-testid=seat-claim][data-seat='{seat}']").click()
    page.locator(GAME).wait_for()


def tap(page: Any, selector: str, watcher: Any) -> None:
    """Tap on ``page`` and wait until ``watcher`` (the tablet) shows the game moved on."""
    old = version(watcher)
    page.locator(selector).first.click()
    wait_version_after(watcher, old)


def ends(page: Any) -> list[str]:
    page.locator("[data-testid=sz-plan-to]").first.wait_for()
    return [b.get_attribute("data-end") for b in page.locator("[data-testid=sz-plan-to]").all()]


def plan_to(page: Any, end: str, tablet: Any) -> None:
    tap(page, f"[data-testid=sz-plan-to][data-end='{end}']", tablet)


def roll_on(tablet: Any, faces: int) -> None:
    """The tablet taps every die of the roll asked as ``faces``."""
    count = tablet.locator("[data-testid=die-row]").count()
    for die in range(count):
        tablet.locator(f"[data-testid=d6][data-die='{die}'][data-value='{faces}']").click()
    tap(tablet, "[data-testid=roll-confirm]", tablet)


def start(tablet: Any, url: str) -> str:
    tablet.goto(url)
    tablet.get_by_test_id("new-game").click()
    tablet.get_by_test_id("screen-choose-game").wait_for()
    tablet.get_by_test_id("pack-straszydla").click()
    tablet.get_by_test_id("sz-setup-board").wait_for()
    assert tablet.locator("[data-testid=sz-setup-square]").count() == 25
    first, second = tablet.locator("[data-testid=sz-setup-square]").nth(6), tablet.locator("[data-testid=sz-setup-square]").nth(7)
    tiles = first.get_attribute("data-tile"), second.get_attribute("data-tile")
    first.click()
    second.click()  # the owner swaps two tiles to match the table
    assert (tablet.locator("[data-testid=sz-setup-square]").nth(6).get_attribute("data-tile"),
            tablet.locator("[data-testid=sz-setup-square]").nth(7).get_attribute("data-tile")) == tiles[::-1]
    tablet.get_by_test_id("setup-start").click()
    tablet.get_by_test_id("screen-seat").wait_for()
    game_url = str(tablet.url)
    tablet.get_by_test_id("seat-watch").click()
    tablet.locator(GAME).wait_for()
    return game_url


def play_actions_and_feeding(tablet: Any) -> None:
    """Every player ends their actions (and their feeding) at once; draws and choices take the first option."""
    for _ in range(40):
        kind, key = prompt_of(tablet)
        if key == "plan" or kind == "none":
            return
        if kind in ("choice", "draw"):
            tap(tablet, "[data-testid=option]", tablet)
        else:
            assert key in ("actions", "feed"), (kind, key)
            tap(tablet, "[data-testid=action][data-action=done]", tablet)  # the shared tablet, for whoever's turn it is
    raise AssertionError("the round did not come back to planning")


def test_three_phones_and_a_tablet_play_straszydla_with_every_secret_kept(
        box: Server, new_tablet: Callable[..., Any]) -> None:
    tablet = new_tablet()
    game_url = start(tablet, box.url)
    phones = {seat: new_tablet(PHONE) for seat in SEATS}
    for seat, phone in phones.items():
        take_seat(phone, game_url, seat)
    assert phones["p3"].get_by_test_id("sz-board").get_attribute("data-side") == "N"  # Witek's board turned to him

    # The pacts, named in secret on each phone.
    for n, phone in enumerate(phones.values()):
        tap(phone, f"[data-testid=option] >> nth={n}", tablet)
    pact = phones["p1"].get_by_test_id("sz-pact").inner_text().removeprefix("Your pact: ").split(" (")[0]
    for other in (phones["p2"], phones["p3"], tablet):
        assert f"Your pact: {pact}" not in other.content()

    # Planning: Przemo and Syla head for the same district, Witek elsewhere; nobody sees a plan before all are laid.
    mine = {seat: ends(phone) for seat, phone in phones.items()}
    meet = next(end for end in mine["p1"] if end in mine["p2"])
    plan_to(phones["p1"], meet, tablet)
    sealed = phones["p1"].get_by_test_id("sz-plan").inner_text()
    tablet.wait_for_selector("[data-testid=sz-player][data-seat=p1] >> text=ready")
    assert phones["p2"].locator("[data-testid=sz-plan]").count() == 0 and "Every plan is revealed" not in tablet.content()
    assert sealed.split(": ", 1)[1] not in phones["p2"].get_by_test_id("sz-mine").inner_text()
    plan_to(phones["p2"], meet, tablet)
    plan_to(phones["p3"], next(end for end in mine["p3"] if end != meet), tablet)
    tablet.wait_for_selector("[data-testid=effects] >> text=Every plan is revealed")

    # The duel: the tablet taps the dice, the bids are sealed on the phones and shown together.
    tablet.get_by_test_id("sz-duel").wait_for()
    roll_on(tablet, 6)  # Przemo, there first
    roll_on(tablet, 2)
    tap(phones["p1"], "[data-testid=action][data-action=bid] >> text=Bid 1 energy cube", tablet)
    tablet.wait_for_selector("[data-testid=sz-duel] >> text=sealed: Przemo")
    assert "bids Przemo" not in tablet.get_by_test_id("sz-duel").inner_text()
    assert "Your sealed bid: 1" in phones["p1"].get_by_test_id("sz-bid").inner_text()
    assert phones["p2"].locator("[data-testid=sz-bid]").count() == 0
    tap(phones["p2"], "[data-testid=action][data-action=bid] >> text=Bid 0 energy cubes", tablet)
    tablet.wait_for_selector("[data-testid=effects] >> text=Bids revealed")
    tap(phones["p1"], "[data-testid=action][data-action=keep]", tablet)  # Przemo keeps the dice: he wins
    tap(phones["p1"], "[data-testid=option]", tablet)  # and sends Syla next door
    tablet.wait_for_selector("[data-testid=effects] >> text=Move Syla's pawn")

    # The rest of the day: actions, blockades, three more rounds, then the feeding (nobody can feed: the
    # starting creatures flee) and the summoning; the night begins.
    play_actions_and_feeding(tablet)
    for _ in range(3):
        taken: list[str] = []
        for phone in phones.values():
            end = next(e for e in ends(phone) if e not in taken)
            taken.append(end)
            plan_to(phone, end, tablet)
        play_actions_and_feeding(tablet)
    tablet.wait_for_selector("[data-testid=sz-time][data-time=night]")
    tablet.get_by_test_id("history-open").click()
    assert "was not fed and flees" in tablet.get_by_test_id("history").inner_text()
