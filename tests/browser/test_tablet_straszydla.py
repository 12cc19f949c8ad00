"""Straszydła in Chromium: a shared tablet lays out the game, three phones take their seats and
play their secrets (pact cards, plans, bids) while the tablet taps the duel's dice; what one
phone holds never shows on another phone or on the tablet before the rules reveal it. Then, on
the tests' small box, four rounds to the feeding, where a player feeds his pact's creatures on
his phone and the tablet announces him alone."""

from __future__ import annotations

import os
from typing import Any, Callable, Iterator

import pytest

from conftest import ROOT, _free_port, companion
from service_process import connect, ok
from straszydla_fixtures import setup as small_setup
from ui_helpers import GAME, Server, prompt_of, version, wait_version_after

PHONE = {"width": 390, "height": 844}
SEATS = ("p1", "p2", "p3")


SMALL_ENV = {"COMPANION_EXTRA_PACKS": "straszydla_fixtures:SmallBoxPack",
             "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])}


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The box with the tests' small box of Straszydła beside the shipped one."""
    running = Server(f"http://127.0.0.1:{_free_port()}/", tmp_path_factory.mktemp("straszydla-state"), None)
    with companion(running, [], env=SMALL_ENV):
        yield running


#: web/js/taps.js ignores a tap within 350 ms of a redraw another device caused; a player is slower.
SETTLED_MS = 400


def take_seat(page: Any, url: str, seat: str) -> None:
    page.goto(url)
    page.get_by_test_id("screen-seat").wait_for()
    page.locator(f"[data-testid=seat-claim][data-seat='{seat}']").click()
    page.locator(GAME).wait_for()


def tap(page: Any, selector: str, watcher: Any) -> None:
    """Tap on ``page`` and wait until ``watcher`` (the tablet) shows the game moved on."""
    old = version(watcher)
    page.wait_for_timeout(SETTLED_MS)  # a button another device's answer just redrew takes no tap yet
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
    tablet.wait_for_timeout(SETTLED_MS)
    for die in range(count):
        tablet.locator(f"[data-testid=d6][data-die='{die}'][data-value='{faces}']").click()
    tap(tablet, "[data-testid=roll-confirm]", tablet)


def plan_apart(phones: dict[str, Any], tablet: Any) -> None:
    """Each phone plans to a district no one before it chose, where there is one."""
    taken: list[str] = []
    for phone in phones.values():
        found = ends(phone)
        end = next((e for e in found if e not in taken), found[0])
        taken.append(end)
        plan_to(phone, end, tablet)


def finish_round(tablet: Any, phones: dict[str, Any]) -> None:
    """Duels (the one there first rolls 6s, the other 1s, nobody bids), actions ended, choices the first,
    until the next round's planning or the feeding."""
    rolls = 0
    while (asked := prompt_of(tablet))[1] not in ("plan", "feed"):
        kind, key = asked
        if kind == "roll":
            roll_on(tablet, 6 if rolls % 2 == 0 else 1)
            rolls += 1
        elif kind == "waiting" and key == "duel-bid":
            phone = next(p for p in phones.values() if p.locator("[data-testid=action][data-action=bid]").count())
            tap(phone, "[data-testid=action][data-action=bid] >> text=Bid 0", tablet)
        elif kind in ("choice", "draw"):
            tap(tablet, "[data-testid=option]", tablet)
        else:
            assert key == "actions", asked
            tap(tablet, "[data-testid=action][data-action=done]", tablet)


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

    # The actions of the round, in turn, and the next round's planning.
    finish_round(tablet, phones)
    assert prompt_of(phones["p1"]) == ("action", "plan")


def test_przemo_feeds_the_five_creatures_of_his_pact_on_his_phone_and_the_tablet_names_only_him(
        box: Server, new_tablet: Callable[..., Any]) -> None:
    """The small box (3 x 3), Przemo holding five creatures and the cubes to feed them: four rounds from the
    phones and the tablet, then he feeds them on his phone and the tablet announces him alone."""
    hands = {"p1": {"creatures": ["utopiec", "syrena", "zmora", "bies", "wargin"],
                    "cubes": {"water": 4, "air": 2, "fire": 2, "earth": 3}}}
    client = connect(box.url)
    game_id = ok(client, "new_game", {"game": "straszydla-small", "name": "Small box", "setup": small_setup(
        3, hands=hands, starters={"p1": "wargin", "p2": "dusiol", "p3": "strzyga"})})["game_id"]
    client.disconnect()
    tablet = new_tablet()
    game_url = f"{box.url}#/game/{game_id}"
    tablet.goto(game_url)
    tablet.get_by_test_id("seat-watch").click()
    tablet.locator(GAME).wait_for()
    phones = {seat: new_tablet(PHONE) for seat in SEATS}
    for (seat, phone), pact in zip(phones.items(), ("pakt-a", "pakt-b", "pakt-c")):
        take_seat(phone, game_url, seat)
        tap(phone, f"[data-testid=option][data-id='{pact}']", tablet)
    for _ in range(4):
        plan_apart(phones, tablet)
        finish_round(tablet, phones)
    assert prompt_of(phones["p1"]) == ("action", "feed")
    for name in ("Utopiec", "Syrena", "Zmora", "Bies", "Wargin"):
        tap(phones["p1"], f"[data-testid=action][data-action=feed] >> text=Feed {name}", tablet)
    for _ in SEATS:
        tap(tablet, "[data-testid=action][data-action=done]", tablet)
    outcome = tablet.get_by_test_id("sz-outcome")
    assert outcome.inner_text() == "Przemo wins"
    assert "Pact B" not in tablet.content() and "Pact C" not in tablet.content()  # the others' pacts stay secret
    assert phones["p2"].get_by_test_id("sz-outcome").inner_text() == "Przemo wins"


def test_the_owner_sees_which_data_is_our_guess_and_confirms_one_against_the_box(
        box: Server, new_tablet: Callable[..., Any]) -> None:
    """"Game data honesty": every record of the box with where it comes from; a guess confirmed stays confirmed."""
    page = new_tablet()
    page.goto(f"{box.url}#/data/straszydla/status")
    page.get_by_test_id("screen-data").wait_for()
    guess = page.locator("[data-testid=sz-data-element][data-state=guess]").first
    guess.wait_for()
    key = guess.get_attribute("data-key")
    assert page.locator("[data-testid=sz-data-element]").count() > 60  # tiles, creatures, imps, pacts, rows, colours
    guess.get_by_test_id("sz-data-confirm").click()
    page.wait_for_selector(f"[data-testid=sz-data-element][data-key='{key}'][data-state=confirmed]")
    page.reload()
    page.wait_for_selector(f"[data-testid=sz-data-element][data-key='{key}'][data-state=confirmed]")
