"""The card builder on the tablet: a Monster card the pack does not list is
typed in once (name, items, Event, attack line, moves, dice), checked by the
companion, and resolved like any card; a broken card is refused with why."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the service tests' helpers

from service_process import SETUP, TIMEOUT, connect, ok, play_socket_until  # noqa: E402
from ui_helpers import Server, data_get, shot, tap_option, wait_version  # noqa: E402


def at_the_card_draw(server: Server) -> dict[str, Any]:
    client = connect(server.url)
    try:
        game_id = ok(client, "new_game", {"name": "Card night", "setup": SETUP})["game_id"]
        view = ok(client, "join", {"game_id": game_id})["view"]
        return play_socket_until(client, view, "monster-card")
    finally:
        client.disconnect()


def wait_in_the_library(url: str, name: str) -> None:
    """The card typed in joins the owner's card library just after its game's view is pushed:
    until then a new game could still be handed the change."""
    deadline = time.monotonic() + TIMEOUT
    while name not in json.dumps(data_get(url)["data"].get("changes", {})):
        assert time.monotonic() < deadline, f"{name!r} never joined the owner's card library"
        time.sleep(0.1)


def open_the_builder(server: Server, new_tablet: Callable[..., Any]) -> tuple[dict[str, Any], Any, Any]:
    """A tablet at a Monster card draw that has tapped "not in this list"."""
    view = at_the_card_draw(server)
    page = new_tablet()
    page.goto(f"{server.url}#/game/{view['game_id']}")
    wait_version(page, view["version"])
    tap_option(page, "enter-card")
    return view, page, page.get_by_test_id("card-builder")


def test_a_card_typed_in_at_the_table_is_resolved(server: Server, new_tablet: Callable[..., Any]) -> None:
    view, page, builder = open_the_builder(server, new_tablet)
    builder.wait_for()
    builder.get_by_test_id("card-name").fill("Dolls in the Attic")
    builder.locator("[data-testid=card-items] [data-value='0']").click()
    builder.locator("[data-testid=card-event] [data-value='manual']").click()
    builder.get_by_test_id("card-event-text").fill("Each hero discards a Mundane item.")
    assert builder.get_by_test_id("card-symbol").count() == 9  # Frenzy and the eight colour symbols
    builder.locator("[data-testid=card-symbol][data-symbol=hat]").click()
    builder.locator("[data-testid=card-symbol][data-symbol=frenzy]").click()
    builder.locator("[data-testid=card-dice] [data-value='2']").click()
    shot(page, "card-builder")
    builder.get_by_test_id("card-send").click()
    wait_version(page, view["version"] + 2)
    assert page.get_by_test_id("prompt").get_attribute("data-key") == "manual-event"
    assert "Dolls in the Attic" in page.get_by_test_id("screen-game").inner_text()
    journal = server.get_json(f"/api/games/{view['game_id']}/export")["journal"]
    entered = journal[-1]["entry"]
    assert entered["key"] == "card-builder" and entered["answer"]["card"]["attack"]["symbols"] == ["hat", "frenzy"]
    wait_in_the_library(server.url, "Dolls in the Attic")


def test_a_card_without_symbols_is_refused_with_why(server: Server, new_tablet: Callable[..., Any]) -> None:
    view, page, builder = open_the_builder(server, new_tablet)
    builder.get_by_test_id("card-name").fill("Blank card")
    builder.get_by_test_id("card-send").click()
    banner = page.get_by_text("an attack line shows 1 to 3 symbols")
    banner.wait_for()
    assert server.version(view["game_id"]) == view["version"] + 1  # only the "enter it" tap was kept
