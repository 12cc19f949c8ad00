"""Straszydła in Chromium: the tablet's new-game screen lays out the tiles and each player's starting
creature and suburb; then one game on the tests' small box, three phones and the shared tablet: the
pacts named in secret, a duel with plans and bids sealed on the phones while the tablet taps the
dice, three rounds to the feeding, where a player feeds his pact's creatures on his phone and the
tablet announces him alone. What one phone holds never shows on another or on the tablet."""

from __future__ import annotations

import os
from typing import Any, Callable, Iterator

import pytest

from conftest import ROOT, _free_port, companion
from service_process import connect, ok
from straszydla_fixtures import setup as small_setup
from ui_helpers import GAME, Server, prompt_of, version, wait_version_after
from ui_helpers import press as press_target

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


#: web/js/taps.js ignores a tap within 350 ms of a redraw another device caused; a player then taps again.


def shared_tablet(new_tablet: Callable[..., Any], game_url: str) -> Any:
    """The tablet in the middle of the table: it opens the game and watches (the shared screen)."""
    tablet = new_tablet()
    tablet.goto(game_url)
    tablet.get_by_test_id("seat-watch").click()
    tablet.locator(GAME).wait_for()
    return tablet


def take_seat(page: Any, url: str, seat: str) -> None:
    page.goto(url)
    page.get_by_test_id("screen-seat").wait_for()
    page.locator(f"[data-testid=seat-claim][data-seat='{seat}']").click()
    page.locator(GAME).wait_for()


def press(page: Any, selector: str) -> None:
    press_target(page, page.locator(selector).first)


def tap(page: Any, selector: str, watcher: Any) -> None:
    """Tap on ``page`` and wait until ``watcher`` (the tablet) shows the game moved on."""
    old = version(watcher)
    press(page, selector)
    if page.get_by_test_id("confirm").count():  # feeding done with creatures unfed is confirmed
        page.get_by_test_id("confirm").get_by_test_id("confirm-yes").click()
    wait_version_after(watcher, old)


def ends(page: Any) -> list[str]:
    page.locator("[data-testid=sz-plan-to]").first.wait_for()
    return [b.get_attribute("data-end") for b in page.locator("[data-testid=sz-plan-to]").all()]


def plan_to(page: Any, end: str, tablet: Any) -> None:
    tap(page, f"[data-testid=sz-plan-to][data-end='{end}']", tablet)


def name_pact(phone: Any, pact: str, tablet: Any) -> None:
    """Tap the card dealt, see it back with its symbols, and say yes: only then does it count."""
    press(phone, f"[data-testid=option][data-id='{pact}']")
    phone.get_by_test_id("sz-pact-review").wait_for()
    tap(phone, "[data-testid=sz-pact-yes]", tablet)


def answerer(tablet: Any, phones: dict[str, Any], several: bool = False) -> Any:
    """The phone of the seat the question on the tablet is for: a seat played on a phone is answered
    there, the shared tablet only shows whom it waits for (docs/engine.md, "Who answers"); the tablet
    itself for a seat no phone plays. A question put to ``several`` seats at once (sealed bids) names
    those who have not answered yet: the first of them."""
    if prompt_of(tablet)[0] != "waiting":
        return tablet
    seats = (tablet.get_by_test_id("prompt").get_attribute("data-answerers") or "").split()
    assert seats and (several or len(seats) == 1) and all(seat in phones for seat in seats), seats
    return phones[seats[0]]


def roll_on(tablet: Any, faces: int, phones: dict[str, Any]) -> None:
    """The duellist whose roll is asked taps every die as ``faces`` on their phone."""
    phone = answerer(tablet, phones)
    count = phone.locator("[data-testid=die-row]").count()
    for die in range(count):
        press(phone, f"[data-testid=d6][data-die='{die}'][data-value='{faces}']")
    tap(phone, "[data-testid=roll-confirm]", tablet)


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
        assert kind == "waiting", asked  # every seat is on a phone: the tablet answers nothing here
        if key == "duel-roll":
            roll_on(tablet, 6 if rolls % 2 == 0 else 1, phones)
            rolls += 1
        elif key == "duel-bid":
            # the tablet names who still owes a bid; a phone that has bid may show its button a moment longer
            tap(answerer(tablet, phones, several=True), "[data-testid=action][data-action=bid] >> text=Bid 0", tablet)
        elif key == "actions":
            tap(answerer(tablet, phones), "[data-testid=action][data-action=done]", tablet)
        else:
            tap(answerer(tablet, phones), "[data-testid=option]", tablet)


def lay_out_on_the_tablet(tablet: Any, url: str) -> None:
    """The new-game screen of the small box: two players, two tiles swapped to match the table, Przemo
    (starting) takes Wargin and the second suburb, so Syla may only have the first; the box starts
    the game as chosen."""
    tablet.goto(url)
    tablet.get_by_test_id("new-game").click()
    tablet.get_by_test_id("screen-choose-game").wait_for()
    tablet.get_by_test_id("pack-straszydla-small").click()
    tablet.get_by_test_id("sz-setup-board").wait_for()
    tablet.get_by_test_id("sz-players-2").click()
    squares = tablet.locator("[data-testid=sz-setup-square]")
    tiles = squares.nth(0).get_attribute("data-tile"), squares.nth(1).get_attribute("data-tile")
    squares.nth(0).click()
    squares.nth(1).click()  # the owner swaps two tiles to match the table
    assert (squares.nth(0).get_attribute("data-tile"), squares.nth(1).get_attribute("data-tile")) == tiles[::-1]
    przemo, syla = (f"[data-testid=sz-suburb][data-seat={seat}]" for seat in ("p1", "p2"))
    suburbs = [o.get_attribute("value") for o in tablet.locator(f"{przemo} option").all()]
    assert len(suburbs) == 2 and tablet.locator(f"{syla} option").count() == 1  # Przemo chooses first
    tablet.locator("[data-testid=sz-starter][data-seat=p1]").select_option("wargin")
    tablet.locator(przemo).select_option(suburbs[1])
    assert [o.get_attribute("value") for o in tablet.locator(f"{syla} option").all()] == [suburbs[0]]
    assert "wargin" not in [o.get_attribute("value") for o in tablet.locator("[data-testid=sz-starter][data-seat=p2] option").all()]
    tablet.get_by_test_id("setup-start").click()
    tablet.get_by_test_id("seat-watch").click()
    tablet.locator(GAME).wait_for()
    tablet.wait_for_selector(f"[data-testid=sz-square][data-tile='{suburbs[1]}'] [data-testid=sz-pawn][data-seat=p1]")
    assert "Wargin" in tablet.locator("[data-testid=sz-player][data-seat=p1]").inner_text()
    assert tablet.locator(f"[data-testid=sz-square][data-tile='{suburbs[0]}'] [data-testid=sz-pawn][data-seat=p2]").count() == 1


def secrets_kept(phones: dict[str, Any], tablet: Any, pacts: dict[str, str]) -> None:
    """No phone and not the tablet shows another seat's pact card."""
    for seat, pact in pacts.items():
        assert f"Your pact: {pact}" in phones[seat].get_by_test_id("sz-pact").inner_text()
        for other in [tablet, *(phone for mine, phone in phones.items() if mine != seat)]:
            assert pact not in other.content(), (seat, pact)


def sealed_plan(phones: dict[str, Any], tablet: Any, seat: str, end: str) -> str:
    """``seat`` plans to ``end``: the tablet shows only that it is ready, no other phone shows the plan."""
    plan_to(phones[seat], end, tablet)
    sealed = phones[seat].get_by_test_id("sz-plan").inner_text().split(": ", 1)[1]
    tablet.wait_for_selector(f"[data-testid=sz-player][data-seat={seat}] >> text=ready")
    assert "Every plan is revealed" not in tablet.content()
    for other in (phone for mine, phone in phones.items() if mine != seat):
        assert sealed not in other.get_by_test_id("sz-mine").inner_text()
    return sealed


def duel_with_sealed_bids(phones: dict[str, Any], tablet: Any, pacts: dict[str, str]) -> None:
    """Przemo and Syla plan to one district, Witek elsewhere: nobody sees a plan before all are laid; the
    tablet taps the duel's dice, the bids are sealed on the phones and shown together; Przemo wins and sends
    Syla off."""
    meet = next(end for end in ends(phones["p1"]) if end in ends(phones["p2"]))
    sealed_plan(phones, tablet, "p1", meet)
    assert phones["p2"].locator("[data-testid=sz-plan]").count() == 0
    sealed_plan(phones, tablet, "p3", next(end for end in ends(phones["p3"]) if end != meet))
    assert phones["p2"].locator("[data-testid=sz-plan]").count() == 0
    plan_to(phones["p2"], meet, tablet)
    tablet.wait_for_selector("[data-testid=effects] >> text=Every plan is revealed")
    tablet.get_by_test_id("sz-duel").wait_for()
    roll_on(tablet, 6, phones)  # Przemo, there first
    roll_on(tablet, 2, phones)
    tap(phones["p1"], "[data-testid=action][data-action=bid] >> text=Bid 1 energy cube", tablet)
    tablet.wait_for_selector("[data-testid=sz-duel] >> text=sealed: Przemo")
    assert "bids Przemo" not in tablet.get_by_test_id("sz-duel").inner_text()
    assert "Your sealed bid: 1" in phones["p1"].get_by_test_id("sz-bid").inner_text()
    assert all(phones[seat].locator("[data-testid=sz-bid]").count() == 0 for seat in ("p2", "p3"))
    secrets_kept(phones, tablet, pacts)
    tap(phones["p2"], "[data-testid=action][data-action=bid] >> text=Bid 0 energy cubes", tablet)
    tablet.wait_for_selector("[data-testid=effects] >> text=Bids revealed")
    tap(phones["p1"], "[data-testid=action][data-action=keep]", tablet)  # Przemo keeps the dice: he wins
    tap(phones["p1"], "[data-testid=option]", tablet)  # and sends Syla next door
    tablet.wait_for_selector("[data-testid=effects] >> text=Move Syla's pawn")


def test_three_phones_and_the_tablet_play_straszydla_through_a_duel_and_the_feeding_to_a_winner(
        box: Server, new_tablet: Callable[..., Any]) -> None:
    """The new-game screen's choices reach the board; then the small box (3 x 3), from the day's second round
    (three rounds to the feeding, to keep the test short), with Przemo holding five
    creatures and the cubes to feed them, Syla and Witek: the pacts named on the phones, a duel with sealed
    plans and bids, three rounds, the feeding on his phone, and the tablet names him alone; no phone ever shows
    another's pact."""
    tablet = new_tablet()
    lay_out_on_the_tablet(tablet, box.url)
    hands = {"p1": {"creatures": ["utopiec", "syrena", "zmora", "bies", "wargin"],
                    "cubes": {"water": 4, "air": 2, "fire": 2, "earth": 3}}}
    client = connect(box.url)
    game_id = ok(client, "new_game", {"game": "straszydla-small", "name": "Small box", "setup": small_setup(
        3, hands=hands, starters={"p1": "wargin", "p2": "dusiol", "p3": "strzyga"},
        round=2)})["game_id"]
    client.disconnect()
    game_url = f"{box.url}#/game/{game_id}"
    tablet.goto(game_url)
    tablet.get_by_test_id("seat-watch").click()
    tablet.locator(GAME).wait_for()
    phones = {seat: new_tablet(PHONE) for seat in SEATS}
    for (seat, phone), pact in zip(phones.items(), ("pakt-a", "pakt-b", "pakt-c")):
        take_seat(phone, game_url, seat)
        name_pact(phone, pact, tablet)
    sides = [phone.get_by_test_id("sz-board").get_attribute("data-side") for phone in phones.values()]
    assert len(set(sides)) == 3 and sides[0] == "S"  # each phone's board turned to its seat's side
    pacts = {"p1": "Pact A", "p2": "Pact B", "p3": "Pact C"}
    secrets_kept(phones, tablet, pacts)
    duel_with_sealed_bids(phones, tablet, pacts)
    finish_round(tablet, phones)
    for _ in range(2):  # the game began in the day's second round: rounds 3 and 4
        plan_apart(phones, tablet)
        finish_round(tablet, phones)
    assert prompt_of(phones["p1"]) == ("action", "feed")
    secrets_kept(phones, tablet, pacts)
    for name in ("Utopiec", "Syrena", "Zmora", "Bies", "Wargin"):
        tap(phones["p1"], f"[data-testid=action][data-action=feed] >> text=Feed {name}", tablet)
    for _ in phones:
        tap(answerer(tablet, phones), "[data-testid=action][data-action=done]", tablet)
    assert tablet.get_by_test_id("sz-outcome").inner_text() == "Przemo wins"
    assert phones["p2"].get_by_test_id("sz-outcome").inner_text() == "Przemo wins"
    for page in (tablet, phones["p1"], phones["p3"]):
        assert "Pact B" not in page.content()  # a loser's pact stays their own
    assert "Pact C" not in phones["p2"].content()


def test_the_owner_confirms_one_guess_against_the_box_and_corrects_another_on_the_tablet(
        box: Server, new_tablet: Callable[..., Any]) -> None:
    """"Game data honesty": every record of the box with where it comes from; a guess confirmed stays
    confirmed; a creature's strength corrected on the tablet is kept, a value the box refuses is named."""
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
    creature = page.locator("[data-testid=sz-data-element][data-key^='creatures.creatures.'][data-state=guess]").first
    key = creature.get_attribute("data-key")
    record = page.locator(f"[data-testid=sz-data-element][data-key='{key}']")
    record.get_by_test_id("sz-data-edit").click()
    night = record.locator("[data-field=night]")
    corrected = str((int(night.input_value()) + 1) % 9)  # another strength than our guess
    night.fill("-3")
    record.get_by_test_id("sz-data-save").click()
    assert ".night: -3 is outside" in record.get_by_test_id("sz-data-problem").first.inner_text()
    night.fill(corrected)
    record.get_by_test_id("sz-data-save").click()
    page.wait_for_selector(f"[data-testid=sz-data-element][data-key='{key}'][data-changed=yes] >> text=you corrected it")
    page.reload()
    page.locator(f"[data-testid=sz-data-element][data-key='{key}'][data-changed=yes]").get_by_test_id("sz-data-edit").click()
    assert page.locator(f"[data-testid=sz-data-element][data-key='{key}'] [data-field=night]").input_value() == corrected


def test_the_owner_frees_a_lost_phones_seat_from_the_tablet_and_another_phone_takes_it(
        box: Server, new_tablet: Callable[..., Any]) -> None:
    """A phone holds Przemo's seat and is lost: on the box's own screen (the owner's), History → Seats…
    lists who plays each seat and frees it after a confirmation; the old phone is told at once and
    shows the shared screen; a new phone takes the seat and sees its pact question."""
    client = connect(box.url)
    game_id = ok(client, "new_game", {"game": "straszydla-small", "name": "Lost phone",
                                      "setup": small_setup(3)})["game_id"]
    client.disconnect()
    game_url = f"{box.url}#/game/{game_id}"
    lost, found, tablet = new_tablet(PHONE), new_tablet(PHONE), new_tablet()
    lost.goto(game_url)
    hint = lost.get_by_test_id("seat-hint").inner_text()  # issue 33, point 14: every player on their own phone
    assert hint.startswith("Each player plays on their own phone") and "shared tablet plays" not in hint, hint
    assert lost.get_by_test_id("seat-watch").inner_text() == "This is the shared screen (no player's seat)"
    take_seat(lost, game_url, "p1")
    assert prompt_of(lost) == ("choice", "pact")
    tablet.goto(game_url)
    tablet.get_by_test_id("seat-watch").click()
    tablet.locator(GAME).wait_for()
    tablet.get_by_role("button", name="↶ History").click()
    tablet.get_by_test_id("open-seats").click()
    row = tablet.locator("[data-testid=seat-row][data-seat=p1]")
    row.wait_for()
    assert row.get_attribute("data-held") == "true" and "Played on" in row.inner_text()
    row.get_by_test_id("seat-free").click()
    assert "Free" in tablet.get_by_test_id("confirm").inner_text()
    tablet.get_by_test_id("confirm-yes").click()
    tablet.wait_for_selector("[data-testid=seat-row][data-seat=p1][data-held=false]")
    lost.wait_for_selector("text=no longer plays the seat")
    assert lost.get_by_test_id("sz-pact").count() == 0 and prompt_of(lost)[0] == "waiting"
    take_seat(found, game_url, "p1")
    assert prompt_of(found) == ("choice", "pact")


def socket_act(client: Any, game_id: str, tablet: Any, key: str, answer: object) -> None:
    """A phone without a screen (a Socket.IO client holding its seat) answers; the tablet shows it."""
    old = version(tablet)
    ok(client, "act", {"game_id": game_id, "version": old, "key": key, "answer": answer})
    wait_version_after(tablet, old)


def test_guessed_values_are_marked_where_they_are_played_and_a_phone_trades_at_any_moment(
        box: Server, new_tablet: Callable[..., Any]) -> None:
    """"Game data honesty": the small box's data is all our guess, so the tablet marks the creatures' strengths and the
    districts' cubes, the scaring spends on their buttons and the cubes a scaring gave. And "At any moment of the game
    you may exchange your cubes": Syla's phone trades at the bank while Przemo is asked for his actions."""
    clients = {"shared": connect(box.url), "p1": connect(box.url), "p3": connect(box.url)}
    try:
        marks_and_a_trade(box, new_tablet, clients)
    finally:
        for client in clients.values():
            client.disconnect()


def marks_and_a_trade(box: Server, new_tablet: Callable[..., Any], phones: dict[str, Any]) -> None:
    game_id = ok(phones["shared"], "new_game", {"game": "straszydla-small", "name": "Guesses", "setup": small_setup(
        3, hands={"p1": {"creatures": ["strzyga"]}})})["game_id"]
    game_url = f"{box.url}#/game/{game_id}"
    tablet = shared_tablet(new_tablet, game_url)
    syla = new_tablet(PHONE)
    take_seat(syla, game_url, "p2")
    name_pact(syla, "pakt-b", tablet)
    tokens: dict[str, str] = {}
    for seat, pact in (("p1", "pakt-a"), ("p3", "pakt-c")):
        token = tokens[seat] = ok(phones[seat], "claim_seat", {"game_id": game_id, "seat": seat})["token"]
        ok(phones[seat], "join", {"game_id": game_id, "seat": seat, "token": token})
        socket_act(phones[seat], game_id, tablet, "pact", pact)
    socket_act(phones["p1"], game_id, tablet, "plan", {"action": "plan", "moves": ["E", "S", "N"]})  # to Kuznia
    socket_act(phones["p3"], game_id, tablet, "plan", {"action": "plan", "moves": ["SW", "N", "E"]})  # to Polnoc
    plan_to(syla, next(end for end in ends(syla) if end not in ("Kuznia", "Polnoc")), tablet)
    assert prompt_of(tablet) == ("waiting", "actions")  # Przemo's, on his phone: the tablet shows whom it waits for

    players = tablet.get_by_test_id("sz-players")
    assert players.locator("[data-testid=sz-creature][data-creature=strzyga] [data-testid=sz-guess]").count() == 1
    assert "Strzyga 3/3" in players.inner_text() and "our guess" in players.get_by_test_id("sz-guess-legend").inner_text()
    assert tablet.locator("[data-testid=sz-square] [data-testid=sz-guess]").count() == 9  # every tile of the small box
    syla.get_by_test_id("sz-anytime").locator("summary").click()
    trade = syla.locator("[data-testid=sz-anytime-move][data-action=trade]").first
    assert "white" in trade.inner_text()
    tap(syla, "[data-testid=sz-anytime-move][data-action=trade]", tablet)
    assert "0 white" in tablet.locator("[data-testid=sz-player][data-seat=p2]").inner_text()
    assert prompt_of(tablet) == ("waiting", "actions")  # Przemo is still asked for his actions

    ok(phones["p1"], "release_seat", {"game_id": game_id, "seat": "p1", "token": tokens["p1"]})  # his phone died:
    tablet.wait_for_selector("[data-testid=prompt][data-kind=action]")  # he plays on the shared tablet now
    tap(tablet, "[data-testid=action][data-action=scare]", tablet)
    roll_on(tablet, 2, {})  # one die against Strzyga's 3 by day
    spends = [b.inner_text() for b in tablet.locator("[data-testid=action][data-action=spend]").all()]
    assert spends and all("(our guess)" in s for s in spends), spends
    tap(tablet, "[data-testid=action][data-action=keep]", tablet)
    tablet.wait_for_selector("[data-testid=effects] >> text=our guess")


def test_a_pact_card_shows_its_symbols_and_counts_only_once_checked_on_the_phone(
        box: Server, new_tablet: Callable[..., Any]) -> None:
    """Issue 33, point 15: naming one's pact card shows the five symbols printed on it, and a tap only
    shows the card for review: it counts on "Yes"; "No, choose another" goes back, nothing sent."""
    client = connect(box.url)
    game_id = ok(client, "new_game", {"game": "straszydla-small", "name": "Pacts", "setup": small_setup(2)})["game_id"]
    pack = ok(client, "join", {"game_id": game_id})["pack"]
    client.disconnect()
    game_url = f"{box.url}#/game/{game_id}"
    tablet = shared_tablet(new_tablet, game_url)
    phone = new_tablet(PHONE)
    take_seat(phone, game_url, "p1")
    cards = {p["id"]: p for p in pack["pacts"]}
    first = phone.locator("[data-testid=option][data-id='pakt-a']")
    symbols = [s.get_attribute("data-element") for s in first.locator("[data-testid=sz-symbol]").all()]
    assert symbols == cards["pakt-a"]["elements"] and len(symbols) == 5  # the card's symbols, before any tap
    before = version(tablet)
    press(phone, "[data-testid=option][data-id='pakt-b']")
    review = phone.get_by_test_id("sz-pact-review")
    assert review.get_attribute("data-pact") == "pakt-b" and "Pact B" in review.inner_text()
    assert [s.get_attribute("data-element") for s in review.locator("[data-testid=sz-symbol]").all()] == cards["pakt-b"]["elements"]
    assert version(tablet) == before and prompt_of(phone) == ("choice", "pact")  # nothing counted yet
    press(phone, "[data-testid=sz-pact-back]")
    press(phone, "[data-testid=option][data-id='pakt-a']")
    tap(phone, "[data-testid=sz-pact-yes]", tablet)
    assert "Your pact: Pact A" in phone.get_by_test_id("sz-pact").inner_text()
    assert phone.locator("[data-testid=sz-pact] [data-testid=sz-symbol]").count() == 5
    assert "Pact A" not in tablet.content()


def test_a_plan_is_shown_and_may_be_changed_on_the_phone_until_everyone_has_planned(
        box: Server, new_tablet: Callable[..., Any]) -> None:
    """Issue 33, point 16: "When you are ready, reveal your tokens. From that moment you may not change your
    plan." Przemo plans, sees his plan on his phone, lays another while Syla is still planning; nothing shows
    elsewhere; the plan revealed once Syla has planned is his second."""
    client = connect(box.url)
    game_id = ok(client, "new_game", {"game": "straszydla-small", "name": "Plans", "setup": small_setup(2)})["game_id"]
    client.disconnect()
    game_url = f"{box.url}#/game/{game_id}"
    tablet = shared_tablet(new_tablet, game_url)
    phones = {seat: new_tablet(PHONE) for seat in ("p1", "p2")}
    for (seat, phone), pact in zip(phones.items(), ("pakt-a", "pakt-b")):
        take_seat(phone, game_url, seat)
        name_pact(phone, pact, tablet)
    przemo = phones["p1"]
    first, second = ends(przemo)[:2]
    plan_to(przemo, first, tablet)
    laid = przemo.get_by_test_id("sz-plan-laid")
    assert "Your plan is laid" in laid.inner_text() and "Syla" in laid.inner_text()
    assert przemo.locator(f"[data-testid=sz-plan-to][data-end='{first}']").get_attribute("aria-pressed") == "true"
    assert prompt_of(przemo) == ("action", "plan")  # still asked: he may change it
    tablet.wait_for_selector("[data-testid=sz-player][data-seat=p1] >> text=ready")
    plan_to(przemo, second, tablet)
    assert przemo.locator(f"[data-testid=sz-plan-to][data-end='{second}']").get_attribute("aria-pressed") == "true"
    assert "Every plan is revealed" not in tablet.content()
    assert phones["p2"].locator("[data-testid=sz-plan-laid]").count() == 0
    plan_to(phones["p2"], ends(phones["p2"])[0], tablet)
    revealed = tablet.locator("[data-testid=effects] >> text=Every plan is revealed").inner_text()
    assert f"→ {second}" in revealed.split("Syla")[0], revealed
