"""Two tablets on one game: what one does shows on the other; a tablet that
fell behind is refused with a clear message and its tap is not applied (nor
applied twice); a dropped connection comes back by itself and re-joins."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ui_helpers import (Server, answer_setup, draw_as_it_is, open_games, press, start_game_in_wizard, tap_action, tap_board,
                        version, wait_connected, wait_version, wait_version_after)

SOCKET_PATH = re.compile(r"/socket\.io/")


@dataclass
class Line:
    """Tablet B's network line to the companion, under the test's control:
    `hold_views` drops the `view` pushes (B stays connected but falls behind),
    `down` cuts the line (open sockets closed, new ones refused)."""

    hold_views: bool = False
    down: bool = False
    held: list[str] = field(default_factory=list)
    sockets: list[tuple[Any, Any]] = field(default_factory=list)

    def attach(self, page: Any) -> None:
        page.route_web_socket(SOCKET_PATH, self._websocket)
        page.route(SOCKET_PATH, self._polling)

    def _websocket(self, ws: Any) -> None:
        if self.down:
            ws.close()
            return
        server = ws.connect_to_server()
        self.sockets.append((ws, server))

        def from_server(message: Any) -> None:
            if self.hold_views and isinstance(message, str) and message.startswith('42["view"'):
                self.held.append(message)
                return
            ws.send(message)

        server.on_message(from_server)

    def _polling(self, route: Any) -> None:
        if self.down:
            route.abort()
        else:
            route.continue_()

    def cut(self) -> None:
        self.down = True
        for ws, server in self.sockets:
            server.close()
            ws.close()
        self.sockets.clear()


def test_two_tablets_stay_in_sync_and_a_stale_tap_is_refused(server: Server, new_tablet: Callable[..., Any]) -> None:
    a = new_tablet()
    open_games(a, server.url)
    game_id = start_game_in_wizard(a, ["carrionette"], [("sorcerer", "Sam"), ("druid", "Beau")])
    answer_setup(a)
    start = version(a)

    # Tablet B (its line under the test's control) opens the same game from the games list.
    line = Line()
    b = new_tablet()
    line.attach(b)
    open_games(b, server.url)
    b.locator(f"[data-testid=game-row][data-game-id='{game_id}'] [data-testid=resume]").click()
    wait_version(b, start)
    active = a.get_by_test_id("turn").get_attribute("data-hero")
    assert b.get_by_test_id("turn").get_attribute("data-hero") == active

    # A moves by tapping the board; B shows the move.
    there = a.locator("[data-testid=loc][data-target=move]").first.get_attribute("data-id")
    v1 = tap_board(a, there)
    wait_version(b, v1)
    assert b.locator(f"[data-testid=token-hero][data-id='{active}'][data-location='{there}']").count() == 1
    assert b.get_by_test_id("actions-left").get_attribute("data-left") == a.get_by_test_id("actions-left").get_attribute("data-left")

    # B acts; A shows it. (A tap within a moment of another device's redraw is not used: B waits.)
    b.wait_for_timeout(400)
    back = b.locator("[data-testid=loc][data-target=move]").first.get_attribute("data-id")
    v2 = tap_board(b, back)
    wait_version(a, v2)
    assert a.locator(f"[data-testid=token-hero][data-id='{active}'][data-location='{back}']").count() == 1

    # B falls behind: its line drops the view pushes while A moves again.
    line.hold_views = True
    a.wait_for_timeout(400)  # B's move just redrew A's board: A's player taps a moment later
    v3 = tap_board(a, a.locator("[data-testid=loc][data-target=move]").first.get_attribute("data-id"))
    assert server.version(game_id) == v3
    a.wait_for_function("() => !window.companion.busy")
    assert version(b) == v2, "B has not seen A's move"
    assert line.held, "the push to B was held back"

    # B taps "End the Hero Phase" on its old screen: refused, explained, and B shows the game as it is.
    b.locator("[data-testid=prompt] [data-testid=action][data-action='end']").click()
    b.get_by_test_id("confirm").get_by_test_id("confirm-yes").click()  # actions are left: confirmed
    banner = b.locator("[data-testid=banner][data-kind=stale]")
    banner.wait_for()
    assert "Another tablet moved first" in banner.inner_text()
    wait_version(b, v3)
    assert server.version(game_id) == v3, "the stale tap changed nothing"
    assert b.get_by_test_id("turn").get_attribute("data-phase") == "hero"
    line.hold_views = False

    # The banner can be dismissed; tapping again on the fresh screen is applied exactly once.
    b.get_by_test_id("banner-close").click()
    assert b.locator("[data-testid=banner]").count() == 0
    v4 = tap_action(b, "end")
    assert v4 == v3 + 1
    wait_version(a, v4)
    assert server.version(game_id) == v4
    assert a.get_by_test_id("turn").get_attribute("data-phase") == "monster"

    # A double tap on one answer is one answer (a moment after B's answer redrew A's screen, as a player would).
    a.wait_for_timeout(400)
    a.locator("[data-testid=prompt] [data-testid=option]").first.dblclick()
    draw_as_it_is(a, v4)  # the card is still our guess: "Is this your card?" comes first, asked once
    v5 = wait_version_after(a, v4)
    a.wait_for_function("() => !window.companion.busy")
    assert v5 == v4 + 1
    assert server.version(game_id) == v5
    assert a.locator("[data-testid=banner]").count() == 0
    wait_version(b, v5)

    # B's line is cut: it says so, A plays on, and B comes back by itself with the current game.
    line.cut()
    b.wait_for_selector("[data-testid=connection][data-state=reconnecting]")
    v6 = tap_action(a, "end") if a.locator("[data-testid=action][data-action='end']").count() else _tap_first(a)
    assert version(b) == v5
    # A tap while disconnected is not sent, and says why.
    press(b, b.locator("[data-testid=prompt] [data-testid=option], [data-testid=prompt] [data-testid=action]").first)
    assert "Not connected" in b.locator("[data-testid=banner][data-kind=error]").inner_text()
    assert server.version(game_id) == v6
    line.down = False
    wait_connected(b)
    wait_version(b, v6)
    assert b.get_by_test_id("prompt").get_attribute("data-key") == a.get_by_test_id("prompt").get_attribute("data-key")


def _tap_first(page: Any) -> int:
    old = version(page)
    page.locator("[data-testid=prompt] [data-testid=option]").first.click()
    draw_as_it_is(page, old)
    return wait_version_after(page, old)
