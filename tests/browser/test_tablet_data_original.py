"""The original Horrified's owner data on the tablet, through the family's data pages: its
status page counts its own kinds (POW before HIT, the solo game) and confirms one, its board
editor renames a place, makes another the Hospital and adds a road; once saved, the service's
data and the pack new games start with carry all of it, and the status page marks it changed;
an item corrected in the library is saved as confirmed.
An unsaved edit of the other edition's board waits aside meanwhile, and is neither saved nor lost."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the service tests' helpers

from service_process import TIMEOUT, Service, connect, ok
from ui_helpers import data_get, open_data, shot, wait_checks_done

GAME = "horrified"


def owner_data(url: str) -> dict[str, Any]:
    return data_get(url, GAME)


def loc(page: Any, location: str) -> Any:
    return page.locator(f"[data-testid=ed-loc][data-id='{location}']")


def unjoined_pair(files: dict[str, Any]) -> list[str]:
    """Two places of the shipped village with no road between them."""
    board = files["board.json"]
    joined = {frozenset(c["between"]) for c in board["connections"]}
    places = sorted(l["id"] for l in board["locations"])
    return next([a, b] for a in places for b in places if a < b and frozenset((a, b)) not in joined)


def test_the_originals_status_page_board_editor_and_items_save_its_owner_data(own_service: Service, tablet: Any) -> None:
    page = tablet
    shipped = owner_data(own_service.url)
    assert shipped["data"]["changes"] == {} and shipped["data"]["game"] == GAME
    road = unjoined_pair(shipped["files"])

    # An edit of the other edition's board, left unsaved.
    other = next(p["id"] for p in requests.get(f"{own_service.url}/api/packs", timeout=TIMEOUT).json()["packs"]
                 if p["owner_data"] and p["id"] != GAME)
    open_data(page, own_service.url, "board", pack=other)
    page.get_by_test_id("ed-loc").first.click()
    page.get_by_test_id("loc-name").fill("Not saved yet")
    page.locator("[data-testid=data-savebar][data-dirty=yes]").wait_for()

    # The status page: this edition's kinds and its tabs only; Confirm saves at once.
    open_data(page, own_service.url, "status", pack=GAME)
    page.locator(f"[data-testid=screen-data][data-game={GAME}]").wait_for()
    assert page.get_by_test_id("data-unsaved").count() == 0  # the other game's changes are not this one's
    summary = page.get_by_test_id("data-summary")
    locations = len(shipped["files"]["board.json"]["locations"])
    assert summary.locator("[data-kind=location]").get_attribute("data-guess") is not None
    assert sum(int(summary.locator("[data-kind=location]").get_attribute(f"data-{s}") or 0)
               for s in ("rulebook", "confirmed", "guess")) == locations
    assert "POW before HIT" in summary.locator("[data-kind=pow_first]").inner_text()
    assert "The Event's monster moves" in summary.locator("[data-kind=event_monster_moves]").inner_text()  # a reading to change
    assert page.locator("nav.data-tabs a").all_inner_texts() == ["Status", "Board", "Monster cards", "Items", "Perks", "Heroes"]
    page.locator("[data-testid=data-kind][data-kind=pow_first] summary").click()
    page.locator("[data-testid=confirm][data-key='board.pow_first']").click()
    page.locator("[data-testid=confirm][data-key='board.pow_first'][aria-pressed=true]").wait_for()
    assert "board.pow_first" in owner_data(own_service.url)["data"]["confirmed"]

    # The board editor: the village drawn from this edition's files, a rename, the Hospital moved, a road.
    page.get_by_test_id("open-board-editor").click()
    page.get_by_test_id("screen-board-editor").wait_for()
    assert page.get_by_test_id("ed-loc").count() == locations
    loc(page, "abbey").click()
    page.get_by_test_id("loc-name").fill("Old Abbey")
    page.get_by_test_id("loc-role-hospital").click()
    page.get_by_test_id("loc-role-hospital").and_(page.locator("[aria-pressed=true]")).wait_for()
    page.get_by_test_id("mode-connect").click()
    loc(page, road[0]).click()
    loc(page, road[1]).click()
    assert "Road added" in page.get_by_test_id("road-done").inner_text()
    # Quick entry: each tap on the photo puts the next place of the list there, and names the one after.
    page.get_by_test_id("mode-order").click()
    hint = page.get_by_test_id("mode-hint")
    first = hint.get_attribute("data-next")
    before = loc(page, first).get_attribute("data-x")
    area = page.get_by_test_id("ed-board").bounding_box()
    page.mouse.click(area["x"] + area["width"] * 0.31, area["y"] + area["height"] * 0.42)
    page.wait_for_function("first => { const hint = document.querySelector('[data-testid=mode-hint]'); return Boolean(hint) && hint.dataset.next !== first; }", arg=first)
    second = hint.get_attribute("data-next")
    assert second != first and "2 of" in hint.inner_text()
    assert loc(page, first).get_attribute("data-x") != before
    checks = wait_checks_done(page)
    assert checks.get_attribute("data-count") == "0", checks.inner_text()
    shot(page, "data-original-board-editor")
    page.get_by_test_id("data-save").click()
    page.locator("[data-testid=save-result][data-ok=yes]").wait_for()

    # Saved for this pack, with the confirmation kept; new games of the original start with it.
    saved = owner_data(own_service.url)
    board = saved["data"]["changes"]["board"]
    assert board["locations"]["abbey"]["name"] == "Old Abbey" and board["set"]["hospital"] == "abbey"
    assert 0 < board["locations"][first]["x"] < 1 and 0 < board["locations"][first]["y"] < 1  # placed by one tap
    assert [sorted(pair) for pair in board["connections"]["add"]] == [road]
    assert "board.pow_first" in saved["data"]["confirmed"] and saved["problems"] == []
    pack = requests.get(f"{own_service.url}/api/packs/{GAME}", timeout=TIMEOUT).json()
    assert {l["id"]: l["name"] for l in pack["board"]["locations"]}["abbey"] == "Old Abbey"
    assert pack["board"]["hospital"] == "abbey" and road in [sorted(c) for c in pack["board"]["connections"]]

    # The items: one corrected from the box (its colour and where it is put) counts as confirmed.
    page.get_by_test_id("data-tab-items").click()
    page.get_by_test_id("screen-library-items").wait_for()
    assert page.get_by_test_id("lib-item").count() == len(shipped["files"]["items.json"]["items"])
    item = shipped["files"]["items.json"]["items"][0]
    page.locator(f"[data-testid=lib-item-edit][data-id='{item['id']}']").click()
    form = page.get_by_test_id("lib-item-form")
    colour = next(c for c in ("red", "blue", "yellow") if c != item["type"])
    form.get_by_test_id("item-type").select_option(colour)
    form.get_by_test_id("item-location").select_option("abbey")
    form.get_by_test_id("lib-item-save").click()
    page.locator(f"[data-testid=lib-item][data-id='{item['id']}'][data-state=confirmed]").wait_for()
    saved = owner_data(own_service.url)
    assert saved["data"]["changes"]["items"]["items"][item["id"]] == {"name": item["name"], "type": colour,
                                                                     "strength": item["strength"], "location": "abbey"}
    assert f"items.items.{item['id']}" in saved["data"]["confirmed"] and saved["problems"] == []
    page.get_by_test_id("data-tab-status").click()
    page.locator("[data-testid=data-element][data-key='board.locations.abbey'] [data-testid=changed]").wait_for(state="attached")

    # Back at the other edition's board: its edit is still there, unsaved, and nothing of it was saved.
    open_data(page, own_service.url, "board", pack=other)
    page.locator(f"[data-testid=screen-board-editor][data-game={other}] [data-testid=data-savebar][data-dirty=yes]").wait_for()
    assert page.locator("[data-testid=ed-loc-name]", has_text="Not saved yet").count() == 1
    client = connect(own_service.url)
    try:
        assert ok(client, "data_get", {"game": other})["data"]["changes"] == {}
    finally:
        client.disconnect()
