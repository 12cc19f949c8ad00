"""Tap safety with two devices: a tap counts only on the button that was under the finger
when it went down, and not within a short time after another device's answer redrew it
(the tap that ran "a move nobody chose")."""

from __future__ import annotations

from typing import Any, Callable

from ui_helpers import (Server, answer_setup, draw_as_it_is, end_hero_phase, open_games, start_game_in_wizard, tap_option,
                        version, wait_version)

GUARD_MS = 350  # web/js/taps.js


def first_option_centre(page: Any) -> tuple[float, float]:
    box = page.get_by_test_id("prompt").get_by_test_id("option").first.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def two_tablets_at_a_draw(server: Server, new_tablet: Callable[..., Any]) -> tuple[Any, Any, str]:
    a = new_tablet()
    open_games(a, server.url)
    game_id = start_game_in_wizard(a, ["carrionette"], [("sorcerer", "Sam"), ("druid", "Beau")])
    answer_setup(a)
    end_hero_phase(a)
    b = new_tablet()
    open_games(b, server.url)
    b.locator(f"[data-testid=game-row][data-game-id='{game_id}'] [data-testid=resume]").click()
    wait_version(b, version(a))
    assert b.get_by_test_id("prompt").get_attribute("data-key") == "monster-card"
    return a, b, game_id


def test_a_finger_that_went_down_before_a_redraw_does_not_tap_the_new_button(
        server: Server, new_tablet: Callable[..., Any]) -> None:
    a, b, game_id = two_tablets_at_a_draw(server, new_tablet)
    x, y = first_option_centre(b)
    b.mouse.move(x, y)
    b.mouse.down()  # B's finger is on the first card...
    before = version(a)
    after = tap_option(a)  # ... when A's answer redraws B's screen under it
    wait_version(b, after)
    b.mouse.up()
    b.wait_for_timeout(300)
    assert server.version(game_id) == after, "the lifted finger ran an answer nobody chose"
    assert version(b) == after and after == before + 1


#: In the page: the moment the next version is drawn, a finger taps the first option
#: (pointerdown then click, as a touch gives them). Done inside the page because a tap sent
#: from the test process arrives a variable time later on a busy machine.
TAP_ON_REDRAW = """(wanted) => { window.tapOnRedraw = null;
  const watch = new MutationObserver(() => {
    const screen = document.querySelector(`[data-testid=screen-game][data-version='${wanted}']`);
    const option = screen && screen.querySelector("[data-testid=prompt] [data-testid=option]");
    if (!option) return;
    watch.disconnect();
    const box = option.getBoundingClientRect();
    const at = { bubbles: true, cancelable: true, clientX: box.x + 5, clientY: box.y + 5, detail: 1 };
    option.dispatchEvent(new PointerEvent("pointerdown", { ...at, pointerType: "touch", isPrimary: true }));
    option.dispatchEvent(new MouseEvent("click", at));
    window.tapOnRedraw = document.documentElement.dataset.lastTap;
  });
  watch.observe(document.getElementById("screen"), { childList: true, subtree: true, attributes: true });
}"""


def test_a_tap_just_after_another_devices_redraw_is_ignored_then_counts(
        server: Server, new_tablet: Callable[..., Any]) -> None:
    a, b, game_id = two_tablets_at_a_draw(server, new_tablet)
    wanted = version(a) + 1
    b.evaluate(TAP_ON_REDRAW, wanted)  # B's finger is on its way...
    after = tap_option(a)  # ... as A draws the card and B's screen redraws with the item draw
    assert after == wanted
    assert b.wait_for_function("() => window.tapOnRedraw").json_value() == "ignored:fresh"
    assert float(b.evaluate("document.documentElement.dataset.lastTapAge")) < GUARD_MS
    banner = b.locator("[data-testid=banner][data-kind=tap]")
    banner.wait_for()
    assert "tap again" in banner.inner_text()
    b.wait_for_timeout(300)
    assert server.version(game_id) == after, "a tap on a button drawn a moment ago was used"

    b.wait_for_timeout(GUARD_MS)  # a moment later the same tap is the player's own
    b.get_by_test_id("prompt").get_by_test_id("option").first.click()
    draw_as_it_is(b, after)  # a draw of a guessed item asks "Is this your item?" first
    wait_version(b, after + 1)
    assert b.evaluate("document.documentElement.dataset.lastTap") == "counted"
    assert server.version(game_id) == after + 1
    banner.wait_for(state="hidden", timeout=10_000)  # the notice goes by itself (its room kept until the next redraw)


def test_buttons_that_did_not_change_stay_tappable_after_a_redraw(
        server: Server, new_tablet: Callable[..., Any]) -> None:
    """Another device's answer blocks only what it changed: B's history button is as it was."""
    a, b, game_id = two_tablets_at_a_draw(server, new_tablet)
    after = tap_option(a)
    wait_version(b, after)
    b.get_by_test_id("history-open").click()
    assert b.evaluate("document.documentElement.dataset.lastTap") == "counted"


#: In the page: every reply to a change ("act") comes in ``ms`` after the box sent it, as on a
#: slow Wi-Fi or a busy box where the pushed view overtakes the reply.
SLOW_REPLIES = """(ms) => { const conn = window.companion.conn; const request = conn.request.bind(conn);
  conn.request = async (event, payload, options) => { const reply = await request(event, payload, options);
    if (event === "act") await new Promise((done) => setTimeout(done, ms));
    return reply; }; }"""


def test_a_tap_after_our_own_change_came_in_counts_before_its_reply(server: Server, new_tablet: Callable[..., Any]) -> None:
    page = new_tablet()
    open_games(page, server.url)
    game_id = start_game_in_wizard(page, ["carrionette"], [("sorcerer", "Sam")])
    page.evaluate(SLOW_REPLIES, 4000)
    first = tap_option(page)  # back when the pushed view shows the draw done: its reply is 4 s away
    assert page.evaluate("window.companion.busy") is False, "the tablet still waits for a change the box has shown done"
    page.set_default_timeout(3000)  # the next tap counts now, not once the reply is in
    second = tap_option(page)
    assert second == first + 1 and server.version(game_id) == second
