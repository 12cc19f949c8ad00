"""The tablet at the rules' edges (RL-HA-4, RL-HA-8, the change editor of a card done by hand):
one Share for every hand-over, a card's hand-overs and a spared hero told to the box, and a Dark
Gift accepted in the middle of a Monster Phase, each in Chromium against the real service."""

from __future__ import annotations

from typing import Any, Callable

import requests

from ui_helpers import GAME, Server, prompt_of, table_steps, tap_option, version, wait_version_after

TIMEOUT = 10


def open_position(server: Server, page: Any, position: dict[str, Any], name: str) -> str:
    """A game started from a position (imported as a game file), opened on the tablet."""
    game_file = {"format": "companion-game", "version": 1, "game": "ravenloft", "name": name,
                 "origin": {"position": position}, "journal": []}
    reply = requests.post(f"{server.url}api/games/import", json=game_file, timeout=TIMEOUT).json()
    assert reply["ok"], reply
    page.goto(f"{server.url}#/game/{reply['game_id']}")
    page.locator(GAME).wait_for()
    page.wait_for_selector("[data-testid=connection][data-state=connected]")
    return str(reply["game_id"])


def hero_items(page: Any, hero: str) -> list[str]:
    card = page.locator(f"[data-testid=hero-card][data-id='{hero}']")
    return sorted(card.get_by_test_id("hero-item").evaluate_all("els => els.map(e => e.dataset.id)"))


def test_rl_ha_4_one_share_hands_items_both_ways_for_one_action(server: Server, new_tablet: Callable[..., Any]) -> None:
    page = new_tablet()
    open_position(server, page, {
        "phase": "hero", "monsters": {"carrionette": "yester-hill"},
        "heroes": [{"hero": "sorcerer", "player": "Sam", "at": "vallaki", "items": ["sling"]},
                   {"hero": "druid", "player": "Beau", "at": "vallaki", "items": ["rod"]}]}, "Share test")
    assert page.get_by_test_id("actions-left").get_attribute("data-left") == "4"
    page.get_by_test_id("prompt").locator("[data-testid=action][data-action='share']").click()
    editor = page.get_by_test_id("share-editor")
    assert editor.get_by_test_id("share-send").is_disabled()
    editor.locator("[data-testid=share-select][data-thing='items:sling']").select_option("druid")
    editor.locator("[data-testid=share-select][data-thing='items:rod']").select_option("sorcerer")
    old = version(page)
    send = page.get_by_test_id("share-editor").get_by_test_id("share-send")
    assert "2 items change hands (1 action)" in send.inner_text()
    send.click()
    wait_version_after(page, old)
    assert hero_items(page, "sorcerer") == ["rod"] and hero_items(page, "druid") == ["sling"]
    assert page.get_by_test_id("actions-left").get_attribute("data-left") == "3"


def test_a_card_done_by_hand_reports_hand_overs_a_spared_hero_and_a_gift_mid_phase(
        server: Server, new_tablet: Callable[..., Any]) -> None:
    page = new_tablet()
    open_position(server, page, {
        "phase": "monster", "monsters": {"carrionette": "vallaki"},
        "heroes": [{"hero": "sorcerer", "player": "Sam", "at": "vallaki", "items": ["sling"]},
                   {"hero": "druid", "player": "Beau", "at": "vallaki", "items": ["rod"]}]}, "Trickery test")
    tap_option(page, "vistani-trickery")
    while prompt_of(page)[1] == "item":  # the card's item, drawn from the Haversack
        tap_option(page)
    assert prompt_of(page) == ("action", "manual-event")
    editor = page.get_by_test_id("change-editor")
    editor.get_by_test_id("change-give-item").select_option("sling")
    editor.get_by_test_id("change-give-to").select_option("druid")
    editor.get_by_test_id("add-give").click()
    page.get_by_test_id("change-editor").get_by_test_id("change-spare").select_option("sorcerer")
    page.get_by_test_id("change-editor").get_by_test_id("add-spare").click()
    listed = page.get_by_test_id("change-list").inner_text()
    assert "Sling goes to Druid" in listed and "No monster attacks Sorcerer" in listed
    old = version(page)
    page.get_by_test_id("change-editor").locator("[data-testid=action][data-action='done']").click()
    wait_version_after(page, old)
    assert hero_items(page, "druid") == ["rod", "sling"] and hero_items(page, "sorcerer") == []
    effects = table_steps(page)
    assert "attacks the Druid" in effects  # the spared Sorcerer is passed over: no choice of target asked

    # RL-HA-8: the Sorcerer accepts the Dark Gift while the Monster dice are being rolled.
    key = prompt_of(page)[1]
    accept = page.locator("[data-testid=gift-accept][data-id='sorcerer']")
    old = version(page)
    accept.click()
    dialog = page.get_by_test_id("confirm")
    assert "for good" in dialog.inner_text()  # a permanent choice is confirmed first
    dialog.get_by_test_id("confirm-yes").click()
    wait_version_after(page, old)
    gift = page.locator("[data-testid=hero-card][data-id='sorcerer'] [data-testid=hero-gift]")
    assert gift.get_attribute("data-taken") == "yes" and prompt_of(page)[1] == key
