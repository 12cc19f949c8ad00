"""What the box derives from every game's tabletop, on a 10" tablet (1280×800) and a phone
(390×844), one game of each pack: the setup checklist of a new game; a phase's steps kept in
view while it runs, then its summary; a declared confirmation before a hard-to-undo answer;
"go back" listing every piece to put back, from where to where, before and after.

The game is played by real Socket.IO clients (a shared screen, and a phone per seat in a game
with secrets) with the answers the pack's own random policy gives, worked out beforehand on the
engine; the two browser pages watch it, as a tablet and a phone at the table would."""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, Iterator

import pytest

from conftest import ROOT, _free_port, companion
from ui_helpers import GAME, Server, press, version, wait_version

sys.path.insert(0, str(ROOT / "tests"))
from service_process import connect, ok  # noqa: E402

from companion.engine.game import Game  # noqa: E402
from companion.engine.tabletop import changes  # noqa: E402
from companion.games.gamepack import GamePack  # noqa: E402
from companion.games.registry import pack_makers  # noqa: E402
from companion.table.tabletops import setup_list  # noqa: E402
from companion.terminal import policy_options  # noqa: E402

PHONE = {"width": 390, "height": 844}
#: The answer each pack asks to confirm first, and its button.
CONFIRMED = {"ravenloft": ("end", "End the Hero Phase?"), "horrified": ("end", "End the Hero Phase?"),
             "siege-of-barovia": ("end", "End the turn?"), "straszydla": ("done", "Done feeding?")}
STEPS = {"straszydla": 260}


class Driver:
    """One game on the service, answered by socket clients with the pack's random policy (worked
    out on an engine copy of the game first, so the test knows each tabletop)."""

    def __init__(self, url: str, pack_id: str, seed: int) -> None:
        self.pack: GamePack = pack_makers()[pack_id]()
        cli = self.pack.cli()
        parser = argparse.ArgumentParser()
        cli.add_play_options(parser)
        policy_options(parser, ("random",), "random")
        setup = dict(cli.setup(parser.parse_args([])))
        self.game = Game(self.pack.rules, {"setup": setup})
        self.policy = cli.policy("random", seed)
        self.shared = connect(url)
        self.game_id = ok(self.shared, "new_game", {"game": pack_id, "name": "Tabletop", "setup": setup})["game_id"]
        self.view = ok(self.shared, "join", {"game_id": self.game_id})["view"]
        self.seats: dict[str, Any] = {}
        self.tokens: dict[str, str] = {}
        if self.pack.pack_view().get("secret_seats") is True:
            for seat in self.pack.seats(self.game):
                phone = connect(url)
                token = ok(phone, "claim_seat", {"game_id": self.game_id, "seat": seat.id})["token"]
                ok(phone, "join", {"game_id": self.game_id, "seat": seat.id, "token": token})
                self.seats[seat.id], self.tokens[seat.id] = phone, token

    @property
    def version(self) -> int:
        return self.game.version

    def step(self) -> None:
        prompt = self.game.prompt
        assert prompt is not None, "the game ended before the test saw what it looks for"
        self.pack.cli().step(self.game, self.policy)
        entry = self.game.inputs[-1]
        seat = entry.get("seat") or (prompt.answered_by() or (None,))[0]
        client = self.seats.get(str(seat), self.shared)  # a seat's phone answers its questions
        ok(client, "act", {"game_id": self.game_id, "version": self.version - 1, "key": entry["key"],
                           "answer": entry["answer"]})

    def give_up(self, prompt: Any) -> None:
        """The phone of the seat ``prompt`` is for gives its seat up (a dead phone), so the shared
        tablet plays that seat from now on (docs/engine.md, "Who answers")."""
        seat = (prompt.answered_by() or (None,))[0]
        if seat in self.seats:
            phone = self.seats.pop(seat)
            ok(phone, "release_seat", {"game_id": self.game_id, "seat": seat, "token": self.tokens[seat]})
            phone.disconnect()

    def latest_view(self) -> dict[str, Any]:
        view: dict[str, Any] = ok(self.shared, "join", {"game_id": self.game_id})["view"]
        return view

    def close(self) -> None:
        for client in [self.shared, *self.seats.values()]:
            client.disconnect()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A box of this module's own: the session's box carries the owner data other tests saved (cards
    confirmed, a board changed), and these tests compare the tablet with the shipped packs' tables."""
    running = Server(f"http://127.0.0.1:{_free_port()}/", tmp_path_factory.mktemp("tabletop-state"), None)
    with companion(running, []):
        yield running


@pytest.fixture
def pages(new_tablet: Callable[..., Any]) -> tuple[Any, Any]:
    return new_tablet(), new_tablet(PHONE)


def open_game(page: Any, server: Server, game_id: str) -> None:
    page.goto(f"{server.url}#/game/{game_id}")
    page.locator(f"{GAME}, [data-testid=screen-seat]").first.wait_for()
    if page.get_by_test_id("screen-seat").count():
        page.get_by_test_id("seat-watch").click()
        page.locator(GAME).wait_for()


def fully_in_view(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1 \
        and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1


def texts(page: Any, testid: str) -> list[str]:
    return [t.strip() for t in page.get_by_test_id(testid).all_inner_texts()]


def dock_mode(page: Any) -> str:
    return str(page.get_by_test_id("table-dock").get_attribute("data-mode") or "")


def follow(driver: Driver, *pages: Any) -> None:
    driver.step()
    for page in pages:
        wait_version(page, driver.version)


@pytest.mark.parametrize("pack_id", sorted(CONFIRMED))
def test_the_table_guide_of_every_game_on_a_tablet_and_a_phone(pack_id: str, server: Server,
                                                               pages: tuple[Any, Any]) -> None:
    tablet, phone = pages
    driver = Driver(server.url, pack_id, seed=4)
    try:
        for page in pages:
            open_game(page, server, driver.game_id)
        _setup_checklist(driver, pages)
        _phase_in_view_then_summary(driver, pages)
        _declared_confirmation(driver, tablet)
        _go_back_lists_what_moved(driver, tablet, phone)
    finally:
        driver.close()


def _setup_checklist(driver: Driver, pages: tuple[Any, Any]) -> None:
    """A new game: every piece to lay out, from an empty table (the pieces going onto one place
    together in one line), ticked off one by one, in view."""
    expected = [c["text"] for c in setup_list(driver.pack.tabletop(driver.game))]
    for page in pages:
        listed = [t.strip() for t in page.locator("[data-testid=setup-step] .guide-text").all_inner_texts()]
        assert listed == expected
        heading = page.get_by_test_id("setup-guide").locator("h2")
        assert fully_in_view(page, heading), "the setup checklist is out of view"
        page.locator("[data-testid=setup-step] [data-testid=guide-tick]").first.click()
        assert page.locator("[data-testid=setup-step][data-done=yes]").count() == 1


def _phase_in_view_then_summary(driver: Driver, pages: tuple[Any, Any]) -> None:
    """While a phase runs its steps stay listed, the newest in view; once over, its summary (the
    changes on the table since it began) is in view on both screens."""
    tablet, phone = pages
    seen_guide = False
    for _ in range(STEPS.get(driver.pack.id, 150)):
        follow(driver, tablet, phone)
        mode = dock_mode(tablet)
        if mode == "guide" and tablet.locator("[data-testid=phase-guide] [data-testid=guide-step]").count():
            seen_guide = True
            for page in pages:
                page.wait_for_timeout(50)  # the dock scrolls its newest step into view after drawing
                assert fully_in_view(page, page.locator("[data-testid=phase-guide] [data-testid=guide-step]").last)
            if tablet.get_by_test_id("prompt-text").count():  # a question for other eyes shows whom it waits for
                assert fully_in_view(tablet, tablet.get_by_test_id("prompt-text")), "the prompt is out of view"
        if mode == "summary" and seen_guide:
            view = driver.latest_view()
            expected = [c["text"] for c in view["phase"]["changes"]]
            for page in pages:
                assert fully_in_view(page, page.get_by_test_id("phase-summary").locator("h2"))
                assert texts(page, "summary-change") == expected
            assert expected, "a phase changed nothing on the table"
            return
    raise AssertionError(f"no phase of {driver.pack.id} ran and ended in view")


def _declared_confirmation(driver: Driver, tablet: Any) -> None:
    """The answer the pack declares hard to undo asks first; "no" sends nothing."""
    action, title = CONFIRMED[driver.pack.id]
    for _ in range(STEPS.get(driver.pack.id, 150)):
        menu = driver.pack.action_menu(driver.game, None)
        if any("confirm" in entry and entry["action"] == action for entry in menu):
            break
        follow(driver, tablet)
    else:
        raise AssertionError(f"no {action} to confirm came up")
    driver.give_up(driver.game.prompt)
    before = version(tablet)
    press(tablet, tablet.get_by_test_id("prompt").locator(f"[data-testid=action][data-action='{action}']").first)
    dialog = tablet.get_by_test_id("confirm")
    dialog.wait_for()
    assert title in dialog.inner_text() and fully_in_view(tablet, dialog)
    dialog.get_by_test_id("confirm-no").click()
    tablet.wait_for_timeout(300)
    assert version(tablet) == before and driver.latest_view()["version"] == before


def _go_back_lists_what_moved(driver: Driver, tablet: Any, phone: Any) -> None:
    """"Go back to here" lists every piece to put back, from where to where, before (the dialog)
    and after (on both screens); it lists a moved piece."""
    now = driver.pack.tabletop(driver.game)
    count, expected = _a_go_back_with_moves(driver, now)
    tablet.get_by_test_id("history-open").click()
    newest = tablet.get_by_test_id("history-entry").first  # the history keeps each step's changes on the table
    last = changes(driver.pack.tabletop(Game(driver.pack.rules, driver.game.origin, driver.game.inputs[:-1])), now)
    assert [t.strip() for t in newest.get_by_test_id("history-move").all_inner_texts()] == [c.text for c in last]
    tablet.locator(f"[data-testid=undo-to][data-count='{count}']").click()
    dialog = tablet.get_by_test_id("confirm")
    dialog.wait_for()
    assert texts(tablet, "confirm-line") == expected
    dialog.get_by_test_id("confirm-yes").click()
    for page in (tablet, phone):
        wait_version(page, driver.version + 1)  # the undo is a change of its own
        if page.get_by_test_id("history").count():
            page.get_by_test_id("history-close").click()
        assert texts(page, "put-back-line") == expected
        assert fully_in_view(page, page.get_by_test_id("put-back").locator("h2"))


def _a_go_back_with_moves(driver: Driver, now: Any) -> tuple[int, list[str]]:
    """How far back to go (2 steps or more: a single undo is not asked) for a piece to move back."""
    inputs = driver.game.inputs
    for count in range(2, min(40, len(inputs))):
        then = driver.pack.tabletop(Game(driver.pack.rules, driver.game.origin, inputs[:-count]))
        found = changes(now, then)
        if any(change.what == "piece" for change in found):
            return count, [change.text for change in found]
    raise AssertionError("no piece moved in the game's last steps")


def test_the_siege_grid_is_labelled_and_its_tokens_numbered(server: Server, tablet: Any) -> None:
    """Words a player can act on: the grid's columns and rows numbered as the sentences count them,
    each zombie, ghoul and hero a numbered token, and a DM's move says the square it came from."""
    driver = Driver(server.url, "siege-of-barovia", seed=9)
    try:
        moves: list[str] = []
        for _ in range(40):
            driver.step()
            moves = [e["text"] for entry in driver.latest_view()["recent_effects"] for e in entry["effects"]
                     if e["kind"] == "dm-move"]
            if moves and driver.version >= 12:
                break
        assert moves and all(" from the " in text and " to the " in text for text in moves), moves
        open_game(tablet, server, driver.game_id)
        state = driver.game.state
        columns = tablet.locator("[data-testid=grid-column]").all_text_contents()
        rows = tablet.locator("[data-testid=grid-row]").all_text_contents()
        assert columns == [str(n) for n in range(1, state.map.columns + 1)]  # type: ignore[attr-defined]
        assert rows == [str(n) for n in range(1, state.map.rows + 1)]  # type: ignore[attr-defined]
        tokens = {f.get_attribute("data-figure"): f.get_attribute("data-token")
                  for f in tablet.locator("[data-testid=figure]").all()}
        for figure_id, mark in tokens.items():
            figure = state.figures[figure_id]  # type: ignore[attr-defined]
            number = figure.name.rsplit(" ", 1)[-1] if figure.kind in ("zombie", "ghoul") else None
            assert number is None or mark.endswith(number), (figure.name, mark)
        assert any(mark[:1] in "ZG" and mark[1:].isdigit() for mark in tokens.values()), tokens
        # A screen that opens a game under way offers how the whole table should look now.
        tablet.get_by_test_id("table-now-open").click()
        lines = " ".join(tablet.get_by_test_id("table-now-line").all_inner_texts())
        zombie = next(f for f in state.figures.values() if f.kind == "zombie" and f.square)  # type: ignore[attr-defined]
        assert zombie.name in lines and "column" in lines and "row" in lines, lines
    finally:
        driver.close()
