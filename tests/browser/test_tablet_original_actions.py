"""The original Horrified's hero actions on the tablet, in Chromium against the real service: a Share
where the players choose which items change hands, each way, as one action, and a Move from a place
with villagers where the players choose who comes along (some, none or all), from a button or a tap
on the board. The companion's menu holds one Move per place (every villager along) and one Share
(everything round the circle): sent as they are, the players had no choice."""

from __future__ import annotations

from typing import Any, Callable

import requests

from ui_helpers import GAME, Server, version, wait_version_after

POSITION = {"phase": "hero", "monsters": {"dracula": "crypt"}, "villagers": {"maria": "inn", "lucy": "inn"},
            "heroes": [{"hero": "mayor", "player": "Ana", "at": "inn", "items": ["dart-1", "torch-1"]},
                       {"hero": "professor", "player": "Ben", "at": "inn", "items": ["rifle-1"]}]}


def open_position(server: Server, new_tablet: Callable[..., Any]) -> tuple[Any, str]:
    game_file = {"format": "companion-game", "version": 1, "game": "horrified", "name": "Share and escort",
                 "origin": {"position": POSITION}, "journal": []}
    reply = requests.post(f"{server.url}api/games/import", json=game_file, timeout=10).json()
    assert reply["ok"], reply
    page = new_tablet()
    page.goto(f"{server.url}#/game/{reply['game_id']}")
    page.locator(GAME).wait_for()
    page.wait_for_selector("[data-testid=connection][data-state=connected]")
    return page, reply["game_id"]


def last_answer(server: Server, game_id: str) -> Any:
    return server.get_json(f"/api/games/{game_id}/export")["journal"][-1]["entry"]["answer"]


def items_of(page: Any, hero: str) -> list[str]:
    chips = page.locator(f"[data-testid=hero-card][data-id='{hero}'] [data-testid=hero-item]")
    return sorted(chips.evaluate_all("chips => chips.map(c => c.dataset.id)"))


def test_a_share_hands_chosen_items_each_way_as_one_action(server: Server, new_tablet: Callable[..., Any]) -> None:
    page, game_id = open_position(server, new_tablet)
    panel = page.get_by_test_id("prompt")
    panel.locator("[data-testid=action][data-action=share]").click()
    editor = panel.get_by_test_id("share-editor")
    assert editor.get_by_test_id("share-hero").count() == 2
    assert editor.get_by_test_id("form-send").is_disabled()  # nothing chosen yet: nothing to send
    editor.locator("[data-testid=share-select][data-thing='item:dart-1']").select_option("professor")
    editor.locator("[data-testid=share-select][data-thing='item:rifle-1']").select_option("mayor")
    old = version(page)
    editor.get_by_test_id("form-send").click()
    wait_version_after(page, old)
    assert last_answer(server, game_id) == {"action": "share", "give": [
        {"item": "dart-1", "from": "mayor", "to": "professor"}, {"item": "rifle-1", "from": "professor", "to": "mayor"}]}
    assert items_of(page, "mayor") == ["rifle-1", "torch-1"] and items_of(page, "professor") == ["dart-1"]
    assert page.get_by_test_id("actions-left").get_attribute("data-left") == "4"  # the Mayor's five, less one


def test_a_move_takes_some_none_or_all_of_the_villagers_along(server: Server, new_tablet: Callable[..., Any]) -> None:
    page, game_id = open_position(server, new_tablet)
    page.locator("[data-testid=loc][data-id='fountain'][data-target]").click()  # a tap on the board opens the choice
    form = page.get_by_test_id("prompt").get_by_test_id("escort-form")
    assert form.get_attribute("data-to") == "fountain"
    assert form.locator("[data-testid=escort]:checked").count() == 2  # all of them, until told otherwise
    form.locator("[data-testid=escort][data-id='lucy']").uncheck()
    assert "with Maria" in form.get_by_test_id("form-send").inner_text()
    old = version(page)
    form.get_by_test_id("form-send").click()
    old = wait_version_after(page, old)
    assert last_answer(server, game_id) == {"action": "move", "to": "fountain", "villagers": ["maria"]}
    villagers = page.locator("[data-testid=token-villager]")
    assert dict(zip(villagers.evaluate_all("v => v.map(t => t.dataset.id)"),
                    villagers.evaluate_all("v => v.map(t => t.dataset.location)"))) == {"maria": "fountain", "lucy": "inn"}

    # Back to the Inn for Lucy, then away alone: the button opens the same choice; none ticked is "alone".
    page.get_by_test_id("prompt").locator("[data-testid=action][data-action=move][data-to=inn]").click()
    form = page.get_by_test_id("prompt").get_by_test_id("escort-form")
    form.locator("[data-testid=escort][data-id='maria']").uncheck()
    assert "alone" in form.get_by_test_id("form-send").inner_text()
    form.get_by_test_id("form-send").click()
    wait_version_after(page, old)
    assert last_answer(server, game_id) == {"action": "move", "to": "inn", "villagers": []}
