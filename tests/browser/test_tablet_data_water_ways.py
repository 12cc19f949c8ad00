"""The board editor's water ways, on the original Horrified's board: its data's one mover gets a
mode of its own (the other edition's board, with no such ways, has none); two taps mark a new
water way, drawn apart from the roads, and two more make a shipped water way a road for everyone;
saved, the owner's data and the pack new games start with carry both."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the service tests' helpers

from service_process import TIMEOUT, Service
from ui_helpers import data_get, open_data, wait_checks_done

GAME = "horrified"


def owner_data(url: str) -> dict[str, Any]:
    return data_get(url, GAME)


def loc(page: Any, location: str) -> Any:
    return page.locator(f"[data-testid=ed-loc][data-id='{location}']")


def road(page: Any, a: str, b: str) -> Any:
    return page.locator(f"[data-testid=ed-road][data-key='{'+'.join(sorted((a, b)))}']")


def places_of(files: dict[str, Any]) -> tuple[str, str, list[str], str]:
    """From the shipped board: the mover, a water place, a land place it has no way to, and one of its water ways."""
    connections = files["board.json"]["connections"]
    wet = next(c for c in connections if c.get("only"))
    mover = wet["only"][0]
    pool = next(p for p in wet["between"] if all(c.get("only") for c in connections if p in c["between"]))
    joined = {p for c in connections if pool in c["between"] for p in c["between"]}
    land = {p for c in connections if not c.get("only") for p in c["between"]}
    shore = sorted(land - joined)[0]
    return mover, pool, sorted(wet["between"]), shore


def test_a_water_way_is_marked_and_another_unmarked_in_the_board_editor(own_service: Service, tablet: Any) -> None:
    page = tablet
    shipped = owner_data(own_service.url)
    mover, pool, wet, shore = places_of(shipped["files"])
    other = next(p["id"] for p in requests.get(f"{own_service.url}/api/packs", timeout=TIMEOUT).json()["packs"]
                 if p["owner_data"] and p["id"] != GAME)
    open_data(page, own_service.url, "board", pack=other)
    page.get_by_test_id("mode-connect").wait_for()
    assert page.get_by_test_id("mode-way").count() == 0  # its board has no ways only some take

    open_data(page, own_service.url, "board", pack=GAME)
    page.locator(f"[data-testid=screen-board-editor][data-game={GAME}]").wait_for()
    assert road(page, *wet).get_attribute("data-only") == mover  # the shipped water way, drawn as one
    button = page.locator(f"[data-testid=mode-way][data-mover='{mover}']")
    assert "Water way" in button.inner_text()
    button.click()
    loc(page, pool).click()
    loc(page, shore).click()
    assert "Water way marked" in page.get_by_test_id("road-done").inner_text()
    road(page, pool, shore).and_(page.locator(f"[data-only='{mover}'].way-only")).wait_for()
    loc(page, wet[0]).click()
    loc(page, wet[1]).click()
    assert "road for everyone" in page.get_by_test_id("road-done").inner_text()
    page.wait_for_function("key => { const way = document.querySelector(`[data-testid=ed-road][data-key='${key}']`); "
                           "return Boolean(way) && !way.dataset.only; }",
                           arg="+".join(wet))
    page.get_by_test_id("mode-move").click()
    loc(page, pool).click()
    shore_name = next(l["name"] for l in shipped["files"]["board.json"]["locations"] if l["id"] == shore)
    assert shore_name in page.get_by_test_id("loc-roads").inner_text().split("alone) to:")[1]
    checks = wait_checks_done(page)
    assert checks.get_attribute("data-count") == "0", checks.inner_text()
    page.get_by_test_id("data-save").click()
    page.locator("[data-testid=save-result][data-ok=yes]").wait_for()

    roads = owner_data(own_service.url)["data"]["changes"]["board"]["connections"]
    assert {"between": [pool, shore], "kind": "water", "only": [mover]} in roads["add"]
    assert wet in [sorted(p) for p in roads["add"] if isinstance(p, list)] and wet in [sorted(p) for p in roads["remove"]]
    pack = requests.get(f"{own_service.url}/api/packs/{GAME}", timeout=TIMEOUT).json()
    water = [sorted(pair) for pair in pack["board"]["water"]]
    assert sorted([pool, shore]) in water and wet not in water
    assert wet in [sorted(pair) for pair in pack["board"]["connections"]]
