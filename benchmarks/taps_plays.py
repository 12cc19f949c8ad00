"""Each game's stretches of play for bench_taps.py (taps_games.py drives the devices):

* Ravenloft and the original Horrified: the new-game wizard (the first game's monsters, two
  heroes and their players' names) and the setup draws up to the first Hero Phase; a Hero
  Phase (one move on the board, then ended and confirmed); a Monster Phase (the card, items
  drawn, dice, hits) up to the next Hero Phase.
* Siege of Barovia with a person Dungeon Master: the new-game screen (three players' names,
  the DM a person), the shared tablet and the DM's phone taking their seats; a hero's turn
  (a move, then end); the DM's turn on the grid with its dice, up to the next hero turn.
* Straszydła, three players on their own phones: the new-game screen (three players, the
  tiles as dealt), the seats, each pact named and checked; a round (plans, duels, actions
  ended, feeding) and a day (four rounds).
"""

from __future__ import annotations

from typing import Any, Callable

from taps_games import GAME, PHONE, TABLET, Spent, Table, answer, answer_until, over, prompt, settle

Stretches = dict[str, list[Spent]]


def _games_screen(table: Table, name: str, viewport: dict[str, int]) -> Any:
    page = table.open(name, viewport)
    page.goto(table.url)
    page.get_by_test_id("new-game").wait_for()
    return page


def _new_game(table: Table, page: Any, pack: str) -> None:
    table.tap(page, page.get_by_test_id("new-game"))
    page.get_by_test_id("screen-choose-game").wait_for()
    table.tap(page, page.get_by_test_id(f"pack-{pack}"))


# -- Ravenloft and the original ----------------------------------------------------------------------------------
HEROES = {"ravenloft": ("sorcerer", "paladin"), "horrified": ("mayor", "courier")}


def horrified_setup(table: Table, pack: str) -> None:
    page = _games_screen(table, "tablet", TABLET)
    _new_game(table, page, pack)
    table.tap(page, page.get_by_test_id("preset-first"))
    table.tap(page, page.get_by_test_id("setup-next"))
    for hero, player in zip(HEROES[pack], ("Sam", "Ana")):
        table.tap(page, page.get_by_test_id(f"hero-{hero}"))
        table.type_in(page, page.get_by_test_id(f"player-{hero}"), player)
    table.tap(page, page.get_by_test_id("setup-next"))
    table.tap(page, page.get_by_test_id("setup-start"))
    page.locator(GAME).wait_for()
    answer_until(table, lambda: prompt(page)[1] == "hero-action" or over(page))


def hero_phase(table: Table) -> None:
    """One move on the board (a place glowing as a move), then the phase ended, up to the card draw."""
    page = table.pages["tablet"]
    move = page.locator("[data-testid=loc][data-target=move]")
    if move.count():
        table.changing(page, move.first)
    answer_until(table, lambda: prompt(page)[1] == "monster-card" or over(page))


def monster_phase(table: Table) -> None:
    page = table.pages["tablet"]
    answer(table)
    answer_until(table, lambda: prompt(page)[1] == "hero-action" or over(page))


def play_horrified(browser: Any, url: str, pack: str, turns: int) -> Stretches:
    found: Stretches = {"setup": [], "turn": [], "phase": []}
    table = Table(browser, url)
    try:
        found["setup"].append(table.spend(lambda: horrified_setup(table, pack)))
        for _ in range(turns):
            if over(table.pages["tablet"]):
                break
            found["turn"].append(table.spend(lambda: hero_phase(table)))
            if over(table.pages["tablet"]):
                break
            found["phase"].append(table.spend(lambda: monster_phase(table)))
    finally:
        table.close()
    return found


# -- Siege of Barovia ----------------------------------------------------------------------------------------------
def siege_setup(table: Table) -> None:
    tablet = _games_screen(table, "tablet", TABLET)
    _new_game(table, tablet, "siege-of-barovia")
    tablet.get_by_test_id("screen-setup").wait_for()
    for n, name in enumerate(("Ana", "Ben", "Cid")):
        table.type_in(tablet, tablet.get_by_test_id(f"setup-player-{n}"), name)
    table.tap(tablet, tablet.get_by_test_id("setup-dm-person"))
    table.tap(tablet, tablet.get_by_test_id("setup-start"))
    tablet.get_by_test_id("screen-seat").wait_for()
    game_url = tablet.url
    table.tap(tablet, tablet.get_by_test_id("seat-watch"))
    phone = table.open("dm", PHONE)
    phone.goto(game_url)  # the DM opens the game on their phone (the address or its QR code)
    table.tap(phone, phone.locator("[data-testid=seat-claim][data-seat='dm']"))
    phone.locator(GAME).wait_for()
    settle(table)


def siege_hero_turn(table: Table) -> None:
    tablet = table.pages["tablet"]
    move = tablet.get_by_test_id("prompt").locator("[data-testid=action][data-action=move]")
    if move.count():
        table.changing(tablet, move.first)
    answer_until(table, lambda: prompt(tablet)[1] != "hero-turn" or over(tablet))


def siege_dm_turn(table: Table) -> None:
    tablet = table.pages["tablet"]
    answer_until(table, lambda: prompt(tablet)[1] == "hero-turn" or over(tablet))


def play_siege(browser: Any, url: str, turns: int) -> Stretches:
    found: Stretches = {"setup": [], "turn": [], "phase": []}
    table = Table(browser, url)
    try:
        found["setup"].append(table.spend(lambda: siege_setup(table)))
        for _ in range(turns):
            if over(table.pages["tablet"]):
                break
            found["turn"].append(table.spend(lambda: siege_hero_turn(table)))
            found["phase"].append(table.spend(lambda: siege_dm_turn(table)))
    finally:
        table.close()
    return found


# -- Straszydła ----------------------------------------------------------------------------------------------------
SEATS = ("p1", "p2", "p3")


def straszydla_setup(table: Table) -> None:
    tablet = _games_screen(table, "tablet", TABLET)
    _new_game(table, tablet, "straszydla")
    tablet.get_by_test_id("sz-setup-board").wait_for()
    table.tap(tablet, tablet.get_by_test_id("sz-players-3"))
    table.tap(tablet, tablet.get_by_test_id("setup-start"))
    tablet.get_by_test_id("screen-seat").wait_for()
    game_url = tablet.url
    table.tap(tablet, tablet.get_by_test_id("seat-watch"))
    for seat in SEATS:
        phone = table.open(seat, PHONE)
        phone.goto(game_url)
        table.tap(phone, phone.locator(f"[data-testid=seat-claim][data-seat='{seat}']"))
        phone.locator(GAME).wait_for()
    answer_until(table, lambda: prompt(table.pages["p1"])[1] == "plan")


def _round_of(page: Any) -> str:
    return str(page.get_by_test_id("sz-time").inner_text())


def straszydla_round(table: Table) -> None:
    """From the plans to the next round's plans (or the game's end)."""
    tablet = table.pages["tablet"]
    start = _round_of(tablet)
    answer(table)
    answer_until(table, lambda: over(tablet) or (_round_of(tablet) != start and prompt(table.pages["p1"])[1] == "plan"))


def play_straszydla(browser: Any, url: str, days: int) -> Stretches:
    found: Stretches = {"setup": [], "turn": [], "phase": []}
    table = Table(browser, url)
    try:
        found["setup"].append(table.spend(lambda: straszydla_setup(table)))
        for _ in range(days):
            day = Spent()
            for _ in range(4):
                if over(table.pages["tablet"]):
                    break
                spent = table.spend(lambda: straszydla_round(table))
                found["turn"].append(spent)
                day.taps, day.seconds = day.taps + spent.taps, day.seconds + spent.seconds
            found["phase"].append(day)
    finally:
        table.close()
    return found


#: pack -> (what its "turn" and "phase" are, how to play it with ``count`` of them)
PLAYS: dict[str, tuple[str, str, Callable[[Any, str, int], Stretches]]] = {
    "ravenloft": ("a Hero Phase (a move, end)", "a Monster Phase", lambda b, u, n: play_horrified(b, u, "ravenloft", n)),
    "horrified": ("a Hero Phase (a move, end)", "a Monster Phase", lambda b, u, n: play_horrified(b, u, "horrified", n)),
    "siege-of-barovia": ("a hero's turn (a move, end)", "a person DM's turn on the grid", play_siege),
    "straszydla": ("a round (3 players)", "a day (4 rounds)", play_straszydla),
}

__all__ = ["PLAYS", "Stretches"]
