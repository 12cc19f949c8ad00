"""What a person does at the tablet, as small steps the tests share. Every
step taps what a player would tap and then waits on a data-testid hook (the
game screen's data-version changes with every accepted change)."""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence
from urllib.parse import unquote

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

GAME = "[data-testid=screen-game]"


@dataclass
class Server:
    url: str
    state_dir: Path
    process: Any  # the running ``subprocess.Popen``, set when it starts
    output: list[str] = field(default_factory=list)

    def get_json(self, path: str, token: str | None = None) -> Any:
        """``token``: a paired tablet's, where the box does not trust its own address."""
        asked = urllib.request.Request(self.url.rstrip("/") + path, headers={"X-Companion-Token": token} if token else {})
        with urllib.request.urlopen(asked, timeout=10) as response:
            return json.load(response)

    def summary(self, game_id: str) -> dict[str, Any]:
        for game in self.get_json("/api/games")["games"]:
            if game["game_id"] == game_id:
                return dict(game)
        raise AssertionError(f"no game {game_id} on the server")

    def version(self, game_id: str) -> int:
        """The game's version as the server has it: the length of its journal, from the export."""
        return len(self.get_json(f"/api/games/{game_id}/export")["journal"])


def wait_connected(page: Any) -> None:
    page.wait_for_selector("[data-testid=connection][data-state=connected]")


def open_games(page: Any, url: str) -> None:
    page.goto(url)
    page.get_by_test_id("screen-games").wait_for()
    wait_connected(page)


def version(page: Any) -> int:
    return int(page.locator(GAME).get_attribute("data-version"))


def wait_version_after(page: Any, old: int) -> int:
    page.wait_for_selector(f"{GAME}:not([data-version='{old}'])")
    return version(page)


def wait_version(page: Any, wanted: int) -> None:
    page.wait_for_selector(f"{GAME}[data-version='{wanted}']")


def prompt_of(page: Any) -> tuple[str, str]:
    panel = page.get_by_test_id("prompt")
    return panel.get_attribute("data-kind") or "", panel.get_attribute("data-key") or ""


def game_id_of(page: Any) -> str:
    return unquote(page.evaluate("location.hash").split("/")[-1])


def shot(page: Any, name: str, full_page: bool = False) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)


def choose_game(page: Any, game: str = "ravenloft") -> None:
    """After "New game": a box with several games asks which one first."""
    page.locator("[data-testid=screen-setup], [data-testid=screen-choose-game]").first.wait_for()
    if page.get_by_test_id("screen-choose-game").count():
        page.get_by_test_id(f"pack-{game}").click()
    page.get_by_test_id("screen-setup").wait_for()


def fill_wizard(page: Any, monsters: Sequence[str], seats: Sequence[tuple[str, str]],
                screenshot: str | None = None) -> None:
    """From the games screen: New game, tick the monsters, the heroes in seat order
    with their players' names, up to the Start tap (whether the game starts is the
    caller's to check)."""
    page.get_by_test_id("new-game").click()
    choose_game(page)
    fill_steps(page, monsters, seats, screenshot)
    page.get_by_test_id("setup-start").click()


def fill_steps(page: Any, monsters: Sequence[str], seats: Sequence[tuple[str, str]],
               screenshot: str | None = None) -> None:
    """The open wizard's answers up to its Start step (``screenshot``: of the heroes' step)."""
    for monster in monsters:
        page.get_by_test_id(f"monster-{monster}").click()
    page.get_by_test_id("setup-next").click()
    for hero, player in seats:
        page.get_by_test_id(f"hero-{hero}").click()
        page.get_by_test_id(f"player-{hero}").fill(player)
    if screenshot:
        shot(page, screenshot)
    page.get_by_test_id("setup-next").click()
    page.get_by_test_id("setup-start").wait_for()


def start_game_in_wizard(page: Any, monsters: Sequence[str], seats: Sequence[tuple[str, str]],
                         screenshot: str | None = None) -> str:
    """The wizard through Start; returns the new game's id."""
    fill_wizard(page, monsters, seats, screenshot)
    page.get_by_test_id("screen-game").wait_for()
    return game_id_of(page)


#: A moment longer than the tap guard (web/js/taps.js GUARD_MS): a redrawn button takes taps again.
SETTLED_MS = 400


def press(page: Any, target: Any) -> None:
    """Tap as a player does: a button another device's answer (or a push) just redrew takes no tap
    yet (the page says the tap was ignored), so wait a moment and tap it again."""
    for _ in range(5):
        page.wait_for_function("() => !window.companion.busy")  # a change on its way takes no other tap (main.js send)
        page.evaluate("delete document.documentElement.dataset.lastTap")
        target.click()
        if not str(page.evaluate("document.documentElement.dataset.lastTap || ''")).startswith("ignored"):
            return
        page.wait_for_timeout(SETTLED_MS)
    raise AssertionError(f"{target}: every tap was ignored")


def first_drawn(page: Any) -> str:
    """The id of the first thing offered on the draw question (not "enter a card")."""
    options = page.get_by_test_id("prompt").locator("[data-testid=option]:not([data-id='enter-card'])")
    return str(options.first.get_attribute("data-id"))


def correct_on_the_check(page: Any, card_id: str) -> Any:
    """Tap a guessed card (item, Perk) on its draw question, then "No, correct it" on the sheet that
    asks "Is this your card?"; returns the correction form. Each tap waits out the tap guard."""
    press(page, page.get_by_test_id("prompt").locator(f"[data-testid=option][data-id='{card_id}']"))
    page.get_by_test_id("card-check-fix").wait_for()
    press(page, page.get_by_test_id("card-check-fix"))  # not the moment it comes up under the finger
    return page.get_by_test_id("card-fix")


def strike_line(form: Any, symbols: Sequence[str], move: int, dice: int) -> None:
    """Type a Monster card's attack line on its form: the guessed line cleared, then the symbols, move and dice."""
    if form.get_by_test_id("card-line-clear").count():
        form.get_by_test_id("card-line-clear").click()
    while form.get_by_test_id("card-line-undo").count():
        form.get_by_test_id("card-line-undo").click()
    for symbol in symbols:
        form.locator(f"[data-testid=card-symbol][data-symbol='{symbol}']").click()
    form.locator(f"[data-testid=card-move] [data-value='{move}']").click()
    form.locator(f"[data-testid=card-dice] [data-value='{dice}']").click()


def tap_option(page: Any, option_id: str | None = None) -> int:
    """Tap one option of a choice/draw prompt (the first shown if none named); returns the new version."""
    old = version(page)
    options = page.get_by_test_id("prompt").get_by_test_id("option")
    target = options.and_(page.locator(f"[data-id='{option_id}']")) if option_id else options.locator("visible=true").first
    press(page, target)
    draw_as_it_is(page, old)
    return wait_version_after(page, old)


def draw_as_it_is(page: Any, old: int) -> None:
    """A Monster card, item or Perk still our guess asks "Is this your card?" before it is drawn:
    answer "Not now" (these tests play on with the data as shipped and save nothing)."""
    page.wait_for_selector(f"{GAME}:not([data-version='{old}']), [data-testid=card-check-skip]")
    skip = page.get_by_test_id("card-check-skip")
    if version(page) == old and skip.count():
        skip.click()


def roll(page: Any, faces: Sequence[Any]) -> int:
    """Tap each die's face (Monster die: hit/pow/blank; d20: a number), then send."""
    old = version(page)
    panel = page.get_by_test_id("prompt")
    kind = "face" if isinstance(faces[0], str) else "d20"
    for die, face in enumerate(faces):
        attribute = "data-face" if kind == "face" else "data-value"
        panel.locator(f"[data-testid={kind}][data-die='{die}'][{attribute}='{face}']").click()
    panel.get_by_test_id("roll-confirm").click()
    return wait_version_after(page, old)


def tap_action(page: Any, action: str, **fields: str) -> int:
    old = version(page)
    selector = f"[data-testid=action][data-action='{action}']" + "".join(f"[data-{k}='{v}']" for k, v in fields.items())
    page.get_by_test_id("prompt").locator(selector).first.click()
    if page.get_by_test_id("confirm").count():  # ending a phase with actions left is confirmed
        page.get_by_test_id("confirm").get_by_test_id("confirm-yes").click()
    return wait_version_after(page, old)


def tap_board(page: Any, location: str) -> int:
    old = version(page)
    page.locator(f"[data-testid=loc][data-id='{location}'][data-target]").click()
    return wait_version_after(page, old)


def answer_setup(page: Any) -> None:
    """Perk draws, the twelve items and the first-player roll, by tapping."""
    rolls = 0
    while True:
        kind, key = prompt_of(page)
        if key == "hero-action":
            return
        if kind == "draw":
            tap_option(page)
        elif key == "first-player":
            count = page.get_by_test_id("die-row").count()
            roll(page, [20 - (i + rolls) % 20 for i in range(count)])  # all different: nobody ties
            rolls += 1
        else:
            raise AssertionError(f"unexpected setup prompt {kind}/{key}")


def answer_as_doomed_player(page: Any) -> None:
    """One answer from a player who ends every Hero Phase, rolls HITs and takes the hits."""
    kind, key = prompt_of(page)
    panel = page.get_by_test_id("prompt")
    if kind in ("choice", "draw"):
        if key == "defend" and panel.locator("[data-testid=option][data-id='fall']").count():
            tap_option(page, "fall")
        else:
            tap_option(page)
    elif kind == "roll":
        count = panel.get_by_test_id("die-row").count()
        monster = panel.get_by_test_id("face").count() > 0
        roll(page, ["hit"] * count if monster else [10] * count)
    elif kind == "pick":
        old = version(page)
        need = panel.get_by_test_id("pick-confirm").inner_text()
        options = panel.get_by_test_id("pick-option")
        index = 0
        while panel.get_by_test_id("pick-confirm").is_disabled():
            options.nth(index).click()
            index += 1
        assert need
        panel.get_by_test_id("pick-confirm").click()
        wait_version_after(page, old)
    elif kind == "action":
        for finisher in ("end", "skip", "done"):
            if panel.locator(f"[data-testid=action][data-action='{finisher}']").count():
                tap_action(page, finisher)
                return
        raise AssertionError(f"no way to finish the action prompt {key}")
    else:
        raise AssertionError(f"unexpected prompt {kind}/{key}")


def answer_until(page: Any, stop: Any, cards: Sequence[str] = (), limit: int = 80) -> None:
    """Answer like ``answer_as_doomed_player`` until ``stop(page)`` holds; at each
    Monster card draw tap the next of ``cards`` (by id) while any are left."""
    queue = list(cards)
    for _ in range(limit):
        if stop(page):
            return
        if prompt_of(page)[1] == "monster-card" and queue:
            tap_option(page, queue.pop(0))
        else:
            answer_as_doomed_player(page)
    raise AssertionError(f"gave up after {limit} answers at {prompt_of(page)}")


def new_game(page: Any, pack: str = "ravenloft") -> None:
    """New game from the games screen: the box has several games, so pick ``pack`` on "Which game?"."""
    page.get_by_test_id("new-game").click()
    page.get_by_test_id("screen-choose-game").wait_for()
    page.get_by_test_id(f"pack-{pack}").click()


def open_data(page: Any, url: str, part: str = "", pack: str = "ravenloft") -> None:
    """Open a game data screen (status, board, cards…) of ``pack`` once its data is read."""
    page.goto(f"{url.rstrip('/')}/#/data/{pack}/{part or 'status'}")
    wait_connected(page)
    page.locator("[data-testid=screen-data], [data-testid=screen-board-editor], [data-testid^=screen-library-]").first.wait_for()


def wait_checks_done(page: Any) -> Any:
    """The live checks panel once the companion has answered for the last edit."""
    page.wait_for_selector("[data-testid=data-checks][data-pending=no]")
    return page.get_by_test_id("data-checks")


def data_get(url: str, game: str = "ravenloft") -> dict[str, Any]:
    """The owner's game data of ``game`` as the service has it (a Socket.IO client of its own)."""
    from service_process import connect, ok

    client = connect(url)
    try:
        reply: dict[str, Any] = ok(client, "data_get", {"game": game})
        return reply
    finally:
        client.disconnect()


def confirm(page: Any) -> None:
    """Say yes to the confirmation on screen."""
    dialog = page.get_by_test_id("confirm")
    dialog.wait_for()
    dialog.get_by_test_id("confirm-yes").click()


def end_hero_phase(page: Any) -> int:
    """Tap "End the Hero Phase", and confirm it when actions are left; returns the new version."""
    old = version(page)
    page.get_by_test_id("prompt").locator("[data-testid=action][data-action='end']").first.click()
    if page.get_by_test_id("confirm").count():
        page.get_by_test_id("confirm").get_by_test_id("confirm-yes").click()
    return wait_version_after(page, old)


def table_steps(page: Any) -> str:
    """What the screen tells the table to do: "What to do now", or in a Monster Phase its guide
    (every step of the phase so far)."""
    texts = page.locator("[data-testid=effect], [data-testid=guide-step] .guide-text").all_inner_texts()
    return " ".join(texts)
