"""What a table spends in taps and seconds in each game, played through the app in Chromium:
a setup (the new-game screen, the seats, the answers up to the first turn), a typical player's
turn, and the game's other part (a Monster Phase, a person Dungeon Master's turn on their phone,
a day of Straszydła: four rounds). Used by bench_taps.py.

Every device at the table is a page: the shared tablet, and a phone per seat that keeps secrets.
A tap is one press on any of them (a field to type in counts one; the typing is the name's). The
script answers as a player in a hurry would: the first option, the first district, a die's
values alternating high and low (so a duel is not tied for ever), every action phase ended.
A tap the app ignores (web/js/taps.js: within 350 ms of a redraw another device caused) is
tapped again and counted once: a player waits that moment rather than tap twice.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable

GAME = "[data-testid=screen-game]"
SETTLED_MS = 400
CLICK_MS = 8_000  # a button redrawn away under the script (a late push): look at the screen again
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1280, "height": 800}
FINISHERS = ("done", "skip", "end")
TRACE = bool(os.environ.get("BENCH_TAPS_TRACE"))  # print each question answered


@dataclass
class Spent:
    """Taps and seconds of one stretch of play."""

    taps: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


class Table:
    """The devices of one game and the taps made on all of them."""

    def __init__(self, browser: Any, url: str) -> None:
        self.browser, self.url = browser, url
        self.pages: dict[str, Any] = {}
        self.taps = 0
        self.rolled = 0

    def open(self, name: str, viewport: dict[str, int]) -> Any:
        context = self.browser.new_context(viewport=viewport, has_touch=True)
        context.set_default_timeout(30_000)
        page = context.new_page()
        self.pages[name] = page
        return page

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()

    def tap(self, page: Any, target: Any) -> None:
        """One tap as a player makes it: again after the tap guard when the app ignored it."""
        for _ in range(6):
            page.wait_for_function("() => !window.companion || !window.companion.busy")
            page.evaluate("delete document.documentElement.dataset.lastTap")
            target.click(timeout=CLICK_MS)
            if not str(page.evaluate("document.documentElement.dataset.lastTap || ''")).startswith("ignored"):
                self.taps += 1
                return
            page.wait_for_timeout(SETTLED_MS)
        raise SystemExit(f"{target}: every tap was ignored")

    def type_in(self, page: Any, target: Any, text: str) -> None:
        target.fill(text)
        self.taps += 1

    def changing(self, page: Any, target: Any) -> None:
        """Tap what sends an answer, and wait until this device shows the game moved on."""
        old = version(page)
        self.tap(page, target)
        page.wait_for_selector(f"{GAME}:not([data-version='{old}'])")

    def spend(self, play: Callable[[], None]) -> Spent:
        start, taps = time.perf_counter(), self.taps
        play()
        return Spent(self.taps - taps, time.perf_counter() - start)


def version(page: Any) -> int:
    return int(page.locator(GAME).get_attribute("data-version"))


def prompt(page: Any) -> tuple[str, str]:
    panel = page.get_by_test_id("prompt")
    return panel.get_attribute("data-kind") or "", panel.get_attribute("data-key") or ""


def over(page: Any) -> bool:
    return page.get_by_test_id("outcome").count() > 0


def settle(table: Table) -> None:
    """Let every device take in the last change (each shows the newest version, or a later one)."""
    newest = max(version(page) for page in table.pages.values())
    for page in table.pages.values():
        page.wait_for_function("(v) => { const g = document.querySelector('[data-testid=screen-game]'); "
                               "return g && Number(g.dataset.version) >= v; }", arg=newest)


def answerer(table: Table) -> Any | None:
    """The device that has a question to answer now (for a plan: a phone that has not planned yet)."""
    settle(table)
    for page in table.pages.values():
        kind, key = prompt(page)
        if kind in ("", "none", "waiting"):
            continue
        if key == "plan" and page.get_by_test_id("sz-plan-laid").count():
            continue
        return page
    return None


# -- one answer, whatever the game ---------------------------------------------------------------------------
def roll(table: Table, page: Any) -> None:
    panel = page.get_by_test_id("prompt")
    for die in range(panel.get_by_test_id("die-row").count()):
        high = table.rolled % 2 == 0  # the whole roll high, the next one low: no duel tied for ever
        d20 = 20 - (die + table.rolled) % 20  # every die another number: nobody ties for the first player
        face = panel.locator(f"[data-testid=face][data-die='{die}'][data-face='blank'], [data-testid=d20][data-die='{die}'][data-value='{d20}'], "
                             f"[data-testid=d6][data-die='{die}'][data-value='{6 if high else 1}']")
        table.tap(page, face.first)
    table.rolled += 1
    table.changing(page, panel.get_by_test_id("roll-confirm"))


def check_card(table: Table, page: Any) -> None:
    """A card still our guess, drawn: "Is this your card?" answered "Yes" (one tap, counted)."""
    page.wait_for_timeout(SETTLED_MS)  # the sheet came up under the finger
    table.tap(page, page.get_by_test_id("card-check-yes"))
    page.wait_for_selector("[data-testid=card-check]", state="detached")  # saved, then the card drawn


def choose(table: Table, page: Any) -> None:
    panel = page.get_by_test_id("prompt")
    if page.get_by_test_id("card-check-yes").count():  # a check still open from the draw before
        check_card(table, page)
        return
    if panel.get_by_test_id("grid-pick").count():  # a square on the grid (Count Strahd's arrival), then confirm
        table.tap(page, panel.get_by_test_id("grid-pick").first)
        table.changing(page, panel.get_by_test_id("arrival-send"))
        return
    options = panel.locator("[data-testid=option]:not([data-id='enter-card'])")
    if not options.locator("visible=true").count():
        raise SystemExit(f"nothing to tap for {prompt(page)}: {panel.inner_text()[:300]!r}")
    was = version(page)
    table.tap(page, options.locator("visible=true").first)
    page.wait_for_selector(f"{GAME}:not([data-version='{was}']), [data-testid=sz-pact-review], [data-testid=card-check-yes]")
    if page.get_by_test_id("sz-pact-review").count():  # a pact card is checked before it counts
        table.changing(page, page.get_by_test_id("sz-pact-yes"))
    elif page.get_by_test_id("card-check-yes").count():
        check_card(table, page)


def pick(table: Table, page: Any) -> None:
    panel = page.get_by_test_id("prompt")
    index = 0
    while panel.get_by_test_id("pick-confirm").is_disabled():
        table.tap(page, panel.get_by_test_id("pick-option").nth(index))
        index += 1
    table.changing(page, panel.get_by_test_id("pick-confirm"))


def dm_on_the_grid(table: Table, page: Any) -> None:
    """A person DM's turn: a creature's square, where it goes, the first act left."""
    panel = page.get_by_test_id("prompt")
    if not panel.locator("[data-testid=grid-pick][data-pick=from]").count():  # nothing can move: act where it stands
        table.tap(page, panel.get_by_test_id("dm-no-move"))
        table.changing(page, panel.get_by_test_id("dm-act").first)
        return
    table.tap(page, panel.locator("[data-testid=grid-pick][data-pick=from]").first)
    if panel.get_by_test_id("dm-which").count():
        table.tap(page, panel.get_by_test_id("dm-figure").first)
    table.tap(page, panel.locator("[data-testid=grid-pick][data-pick=to]").first)
    table.changing(page, panel.get_by_test_id("dm-act").first)


def act(table: Table, page: Any) -> None:
    panel = page.get_by_test_id("prompt")
    if panel.get_by_test_id("sz-plan-to").count():
        table.changing(page, panel.locator("[data-testid=sz-plan-to]:not([disabled])").first)
        return
    if panel.get_by_test_id("siege-pick-board").count():
        dm_on_the_grid(table, page)
        return
    finisher = panel.locator(", ".join(f"[data-testid=action][data-action='{f}']" for f in FINISHERS))
    old = version(page)
    table.tap(page, (finisher if finisher.count() else panel.get_by_test_id("action")).first)
    if page.get_by_test_id("confirm").count():
        table.tap(page, page.get_by_test_id("confirm").get_by_test_id("confirm-yes"))
    page.wait_for_selector(f"{GAME}:not([data-version='{old}'])")


def answer(table: Table) -> bool:
    """One answer on the device asked; False when nobody is asked (the game is over). A button gone
    before the tap (the screen redrawn by a late push) is looked for again on the new screen."""
    from playwright.sync_api import TimeoutError as Gone

    try:
        return _answer(table)
    except Gone as gone:
        if TRACE:
            print(f"      (looked again: {str(gone).splitlines()[0]})", flush=True)
        return True


def _answer(table: Table) -> bool:
    page = answerer(table)
    if page is None:
        return False
    kind, key = prompt(page)
    if TRACE:
        print(f"      {next(n for n, p in table.pages.items() if p is page)}: {kind}/{key}", flush=True)
    was = version(page)
    if kind == "roll":
        roll(table, page)
    elif kind in ("choice", "draw"):
        choose(table, page)
    elif kind == "pick":
        pick(table, page)
    else:
        act(table, page)
    page.wait_for_selector(f"{GAME}:not([data-version='{was}'])")
    return True


def answer_until(table: Table, done: Callable[[], bool], limit: int = 200) -> None:
    for _ in range(limit):
        if done() or not answer(table):
            return
    raise SystemExit(f"{limit} answers and the stretch did not end")


__all__ = ["PHONE", "Spent", "TABLET", "Table", "answer", "answer_until", "over", "prompt", "settle", "version"]
