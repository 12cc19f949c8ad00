"""Taps and seconds a table spends, played through the tablet app as players tap it.

A player at the table should get through a Monster Phase with few taps: a card whose
data is known and that brings no tie should take a median of at most 8 taps (the card,
the items drawn, the dice, the hits), and correcting a guessed card as it is drawn at
most 10 taps plus typing its name. This starts the real service on a temporary state
dir, opens the app in Debian's Chromium (Playwright), and plays scripted Monster Phases:
(a) with every card confirmed, from the card draw to the next Hero Phase; (b) with the
cards still our guesses, correcting each card drawn ("No, correct it": its name, items,
a new attack line, moves and dice). It prints each figure with PASS or over-target.
Then (c), for every game the box plays (taps_plays.py): a setup from the games screen to
the first turn, a typical turn, and the game's other part (a Monster Phase, a person
Dungeon Master's turn, a day of Straszydła), with every device at the table a page:

    .venv/bin/python benchmarks/bench_taps.py
    .venv/bin/python benchmarks/bench_taps.py --phases 12 --corrections 4
    .venv/bin/python benchmarks/bench_taps.py --part games --turns 4 --games siege-of-barovia straszydla

A tap is one press on the screen: a button, a field to type in, and two for a drop-down
list (open it, choose). The seconds are the app's and the companion's, with no thinking
time: the script taps as soon as the screen can take it.
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import socketio

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_service  # noqa: E402
from bench_service import SETUP, TIMEOUT  # noqa: E402
from taps_games import Spent  # noqa: E402
from taps_plays import PLAYS  # noqa: E402

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
GAME = "[data-testid=screen-game]"
PHASE_TARGET = 8
CORRECTION_TARGET = 10
GUARD_S = 0.4  # the tap guard: a button just drawn by something the player did not do takes no tap
VERBOSE = False
START_S = 60.0  # a start imports Flask, Socket.IO and OpenCV: slow on a busy 2-core machine


class Service(bench_service.Service):
    """The service as the service benchmark starts it, given longer to print its address."""

    def _address(self) -> str:
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            try:
                return super()._address()
            except bench_service.queue.Empty:
                continue
        raise SystemExit(f"the service printed no address within {START_S:g} s; see {self.log.name}")


@dataclass
class Phase:
    taps: int = 0
    seconds: float = 0.0
    choices: int = 0  # questions with a choice to make (ties, whom to attack): "a card with no ties" has none
    card: str = ""
    notes: list[str] = field(default_factory=list)


class Tablet:
    """One page of the app, counting the taps it makes."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0

    def version(self) -> int:
        return int(self.page.locator(GAME).get_attribute("data-version"))

    def tap(self, locator: Any) -> None:
        locator.click()
        self.taps += 1

    def choose(self, locator: Any, value: str) -> None:
        locator.select_option(value)
        self.taps += 2

    def type_in(self, locator: Any, text: str) -> None:
        locator.fill(text)
        self.taps += 1  # the tap on the field; the typing is the name's

    def wait_past(self, old: int) -> None:
        self.page.wait_for_selector(f"{GAME}:not([data-version='{old}'])")

    def prompt(self) -> tuple[str, str]:
        panel = self.page.get_by_test_id("prompt")
        return panel.get_attribute("data-kind") or "", panel.get_attribute("data-key") or ""

    def phase(self) -> str:
        return self.page.get_by_test_id("turn").get_attribute("data-phase") or ""

    def over(self) -> bool:
        return self.page.get_by_test_id("outcome").count() > 0


def answer_one(tablet: Tablet, phase: Phase) -> None:
    """One answer of the phase, as a player who takes the first option, rolls blanks and takes hits."""
    kind, key = tablet.prompt()
    panel = tablet.page.get_by_test_id("prompt")
    old, taps = tablet.version(), tablet.taps
    if kind in ("choice", "draw"):
        phase.choices += kind == "choice"
        options = panel.locator("[data-testid=option]:not([data-id='enter-card'])")
        tablet.tap(options.locator("visible=true").first)
    elif kind == "roll":
        for die in range(panel.get_by_test_id("die-row").count()):
            face = panel.locator(f"[data-testid=face][data-die='{die}'][data-face='blank'], [data-testid=d20][data-die='{die}'][data-value='10']")
            tablet.tap(face.first)
        tablet.tap(panel.get_by_test_id("roll-confirm"))
    elif kind == "pick":
        options = panel.get_by_test_id("pick-option")
        index = 0
        while panel.get_by_test_id("pick-confirm").is_disabled():
            tablet.tap(options.nth(index))
            index += 1
        tablet.tap(panel.get_by_test_id("pick-confirm"))
    else:
        finisher = panel.locator("[data-testid=action][data-action='done'], [data-testid=action][data-action='skip'], [data-testid=action][data-action='end']")
        tablet.tap(finisher.first)
        if tablet.page.get_by_test_id("confirm").count():
            tablet.tap(tablet.page.get_by_test_id("confirm").get_by_test_id("confirm-yes"))
    phase.notes.append(f"{key}:{tablet.taps - taps}")
    tablet.wait_past(old)


def play_out(tablet: Tablet, phase: Phase, limit: int = 60) -> None:
    """Answer until the Monster Phase is over (the next Hero Phase, or the game's end)."""
    for _ in range(limit):
        if tablet.over() or tablet.phase() != "monster":
            return
        answer_one(tablet, phase)
    raise SystemExit(f"a Monster Phase did not end within {limit} answers: {phase.notes}")


def to_the_draw(tablet: Tablet) -> bool:
    """End the Hero Phase on the tablet (not counted); False when the game is over instead."""
    for _ in range(20):
        if tablet.over():
            return False
        if tablet.prompt()[1] == "monster-card":
            return True
        answer_one(tablet, Phase())
    raise SystemExit("no Monster card draw came")


def draw_known_card(tablet: Tablet) -> Phase:
    phase = Phase()
    start, taps = time.perf_counter(), tablet.taps
    answer_one(tablet, phase)
    play_out(tablet, phase)
    phase.taps, phase.seconds = tablet.taps - taps, time.perf_counter() - start
    return phase


def correct_card(tablet: Tablet, number: int) -> Phase:
    """Tap the card, "No, correct it", and make it a different card: its name, no items, a new
    two-symbol attack line, 3 moves, 2 dice; then save (the phase itself is not counted here)."""
    page, phase = tablet.page, Phase()
    start, taps = time.perf_counter(), tablet.taps
    options = page.get_by_test_id("prompt").locator("[data-testid=option]:not([data-id='enter-card'])")
    phase.card = str(options.first.get_attribute("data-id"))
    old = tablet.version()
    tablet.tap(options.first)
    page.get_by_test_id("card-check-fix").wait_for()
    time.sleep(GUARD_S)  # the sheet came up under the finger
    tablet.tap(page.get_by_test_id("card-check-fix"))
    form = page.get_by_test_id("card-fix")
    tablet.type_in(form.get_by_test_id("card-name"), f"Our own card {number}")
    tablet.tap(form.locator("[data-testid=card-items] [data-value='0']"))
    if form.get_by_test_id("card-line-clear").count():
        tablet.tap(form.get_by_test_id("card-line-clear"))
    while form.get_by_test_id("card-line-undo").count():
        tablet.tap(form.get_by_test_id("card-line-undo"))
    tablet.tap(form.locator("[data-testid=card-symbol][data-symbol=frenzy]"))
    tablet.tap(form.locator("[data-testid=card-symbol][data-symbol=hat]"))
    tablet.tap(form.locator("[data-testid=card-move] [data-value='3']"))
    tablet.tap(form.locator("[data-testid=card-dice] [data-value='2']"))
    tablet.tap(page.get_by_test_id("card-check-save"))
    page.wait_for_selector(f"{GAME}:not([data-version='{old}']):not([data-version='{old + 1}'])")
    phase.taps, phase.seconds = tablet.taps - taps, time.perf_counter() - start
    play_out(tablet, Phase())
    return phase


def save_data(url: str, confirmed: list[str]) -> None:
    client = socketio.SimpleClient()
    client.connect(url, transports=["websocket"])
    try:
        document = {"format": "table-companion.owner-data", "version": 1, "game": "ravenloft", "changes": {}, "confirmed": confirmed}
        reply = client.call("data_save", {"game": "ravenloft", "data": document}, timeout=TIMEOUT)
        if not reply.get("ok"):
            raise SystemExit(f"the owner data was refused: {reply}")
    finally:
        client.disconnect()


def every(url: str, stem: str) -> list[str]:
    """The keys of every record of a list (``cards``, ``items``, ``perks``), to confirm them all."""
    client = socketio.SimpleClient()
    client.connect(url, transports=["websocket"])
    try:
        reply = client.call("data_get", {"game": "ravenloft"}, timeout=TIMEOUT)
        return [f"{stem}.{stem}.{e['id']}" for e in reply["files"][f"{stem}.json"][stem]]
    finally:
        client.disconnect()


def new_game(browser: Any, url: str) -> Tablet:
    """A game started over Socket.IO and set up (perks, items, first player) by simple answers."""
    client = socketio.SimpleClient()
    client.connect(url, transports=["websocket"])
    try:
        game_id = client.call("new_game", {"name": "Taps", "setup": SETUP}, timeout=TIMEOUT)["game_id"]
    finally:
        client.disconnect()
    context = browser.new_context(viewport={"width": 1280, "height": 800}, has_touch=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.goto(f"{url}/#/game/{game_id}")
    page.locator(GAME).wait_for()
    tablet = Tablet(page)
    for _ in range(40):
        if tablet.prompt()[1] == "hero-action":
            return tablet
        answer_one(tablet, Phase())
    raise SystemExit("the setup did not reach a Hero Phase")


def phases_of(browser: Any, url: str, count: int, play: Any) -> list[Phase]:
    """``count`` Monster Phases, each begun with ``play`` (new games when one ends)."""
    found: list[Phase] = []
    tablet = new_game(browser, url)
    while len(found) < count:
        if not to_the_draw(tablet):
            tablet.page.context.close()
            tablet = new_game(browser, url)
            continue
        found.append(play(tablet, len(found) + 1))
    tablet.page.context.close()
    return found


def report(name: str, phases: list[Phase], target: int, extra: str) -> None:
    taps = [p.taps for p in phases]
    seconds = [p.seconds for p in phases]
    median = statistics.median(taps)
    verdict = "PASS" if median <= target else f"over-target (target <= {target} taps{extra})"
    if VERBOSE:
        for p in phases:
            print(f"      {p.taps:3d} taps {p.seconds:5.2f} s  {' '.join(p.notes)}")
    print(f"    {name}: {len(phases)} phases   taps median {median:g}, worst {max(taps)}   "
          f"seconds median {statistics.median(seconds):.2f}, worst {max(seconds):.2f}   {verdict}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phases", type=int, default=8, help="Monster Phases with known cards (a)")
    parser.add_argument("--corrections", type=int, default=3, help="cards corrected as they are drawn (b)")
    parser.add_argument("--verbose", action="store_true", help="each phase's questions too")
    parser.add_argument("--part", choices=("all", "phases", "games"), default="all",
                        help="(a) and (b) Ravenloft's Monster Phases, (c) every game, or all")
    parser.add_argument("--games", nargs="+", choices=sorted(PLAYS), default=list(PLAYS), help="the games of (c)")
    parser.add_argument("--turns", type=int, default=3, help="(c): turns and phases (Straszydła: days) per game")
    args = parser.parse_args(argv)
    global VERBOSE
    VERBOSE = args.verbose
    print("$ " + " ".join(shlex.quote(a) for a in [os.path.relpath(sys.executable), *sys.argv]))
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, Chromium at {CHROMIUM}, "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        service = Service(Path(folder) / "state")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless=new", "--no-sandbox", "--disable-gpu"])
        try:
            if args.part in ("all", "phases"):
                monster_phases(browser, service.url, args)
            if args.part in ("all", "games"):
                every_game(browser, service.url, args)
        finally:
            browser.close()
            service.stop()
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


def monster_phases(browser: Any, url: str, args: argparse.Namespace) -> None:
    # Items and Perks known throughout, so only the card is asked about (their own checks are like it).
    others = every(url, "items") + every(url, "perks")
    save_data(url, every(url, "cards") + others)
    known = phases_of(browser, url, args.phases, lambda tablet, _: draw_known_card(tablet))
    save_data(url, others)
    fixed = phases_of(browser, url, args.corrections, correct_card)
    save_data(url, [])  # (c) plays the box as shipped: a guessed card drawn is checked ("Yes", one tap)
    plain = [p for p in known if not p.choices]
    print("\n(a) a Monster Phase with the card known, from the card tap to the next Hero Phase:")
    report("no ties     ", plain or known, PHASE_TARGET, "")
    report("all         ", known, PHASE_TARGET, "")
    print("\n(b) a guessed card corrected as it is drawn, from the card tap to the draw sent:")
    report("correction  ", fixed, CORRECTION_TARGET, " plus the name")


def spent_line(name: str, found: list[Spent]) -> str:
    if not found:
        return f"    {name:38s} none played (the game ended first)"
    taps, seconds = [s.taps for s in found], [s.seconds for s in found]
    return (f"    {name:38s} {len(found):2d} x   taps median {statistics.median(taps):g}, worst {max(taps)}   "
            f"seconds median {statistics.median(seconds):.1f}, worst {max(seconds):.1f}")


def every_game(browser: Any, url: str, args: argparse.Namespace) -> None:
    print("\n(c) every game: taps on every device at the table, seconds with no thinking time:")
    for game in args.games:
        turn, phase, play = PLAYS[game]
        found = play(browser, url, args.turns)
        print(f"  {game}")
        print(spent_line("setup (games screen to the first turn)", found["setup"]))
        print(spent_line(turn, found["turn"]))
        print(spent_line(phase, found["phase"]))


if __name__ == "__main__":
    raise SystemExit(main())
