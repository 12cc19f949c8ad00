"""The board editor on the tablet: the owner corrects a road and a number during
a game, saves, and the next Monster Phase moves the monster over their board;
the data survives a restart and an export/import into a fresh companion; a
broken data file is refused with every problem named, and nothing changes."""

from __future__ import annotations

import json
import struct
import sys
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the service tests' helpers

from service_process import Service, connect, ok
from ui_helpers import (
    answer_until,
    data_get,
    open_data,
    open_games,
    prompt_of,
    shot,
    start_game_in_wizard,
    tap_action,
    wait_checks_done,
)

from companion.engine.graph import Graph
from companion.games.ravenloft.ownerdata import owner_pack, parse_owner_data



def _png(width: int = 4, height: int = 3) -> bytes:
    """A small grey PNG: the board photo."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + bytes([120, 120, 120, 255]) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


PNG = _png()




def graph_of(pack: Any) -> Graph:
    main = {l.id for l in pack.board.locations if l.area == "board"}
    return Graph.from_edges(main, [(c.a, c.b) for c in pack.board.connections])


def loc(page: Any, location: str) -> Any:
    return page.locator(f"[data-testid=ed-loc][data-id='{location}']")


def drag(page: Any, location: str, dx: float, dy: float, steps: int) -> None:
    """Drag a location's marker on the board editor by (dx, dy) px, as a finger would."""
    box = loc(page, location).bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx, y + dy, steps=steps)
    page.mouse.up()


def monster_path(page: Any, monster: str) -> list[str] | None:
    found = page.locator(f"[data-testid=monster-path][data-monster='{monster}']")
    return found.first.get_attribute("data-path").split() if found.count() else None


def test_a_road_and_a_number_corrected_mid_game_change_the_next_monster_phase(own_service: Service, tablet: Any, tmp_path: Path) -> None:
    page = tablet
    open_games(page, own_service.url)
    game_id = start_game_in_wizard(page, ["carrionette"], [("sorcerer", "Sam")])
    answer_until(page, lambda p: prompt_of(p)[1] == "hero-action")
    tap_action(page, "end")
    answer_until(page, lambda p: prompt_of(p)[1] == "monster-card")  # the first Monster Phase, at its card draw

    # Where the monster and the hero stand, and how the monster would come with the shipped board.
    state = page.evaluate("window.companion.view.state")
    monster_at = state["monsters"]["carrionette"]["location"]
    hero_at = state["heroes"]["sorcerer"]["location"]
    before = owner_pack(parse_owner_data(data_get(own_service.url)["data"]))
    old_paths = graph_of(before).shortest_paths(monster_at, hero_at)
    assert len(old_paths[0]) > 2, "the hero must be more than one road away for a new road to change the path"
    numbered = {l.id: l.number for l in before.board.locations}
    first, second = "krezk", "wizard-of-wines"

    # Another tablet keeps the game on screen while this one edits the board.
    watcher = page.context.new_page()
    watcher.goto(f"{own_service.url}/#/game/{game_id}")
    watcher.get_by_test_id("screen-game").wait_for()

    # The board editor: connect the monster's place to the hero's, swap two numbers, drag a place.
    page.goto(f"{own_service.url}/#/data/ravenloft/status")
    page.get_by_test_id("screen-data").wait_for()
    page.get_by_test_id("open-board-editor").click()
    page.get_by_test_id("screen-board-editor").wait_for()
    page.get_by_test_id("mode-connect").click()
    loc(page, monster_at).click()
    loc(page, hero_at).click()
    assert "Road added" in page.get_by_test_id("road-done").inner_text()
    page.locator(f"[data-testid=ed-road][data-key='{'+'.join(sorted([monster_at, hero_at]))}']").wait_for()
    page.get_by_test_id("mode-move").click()
    loc(page, first).click()
    page.get_by_test_id("loc-number").select_option(str(numbered[second]))
    checks = wait_checks_done(page)
    assert checks.get_attribute("data-count") != "0"
    assert any(f"number {numbered[second]}" in t for t in checks.get_by_test_id("data-problem").all_inner_texts())
    assert loc(page, first).get_attribute("data-problem") == "yes" or loc(page, second).get_attribute("data-problem") == "yes"
    shot(page, "data-board-editor-problem")
    loc(page, second).click()
    page.get_by_test_id("loc-number").select_option(str(numbered[first]))
    drag(page, "amber-temple", -60, 40, steps=6)
    checks = wait_checks_done(page)
    assert checks.get_attribute("data-count") == "0", checks.inner_text()
    assert loc(page, first).get_attribute("data-number") == str(numbered[second])
    shot(page, "data-board-editor")
    page.get_by_test_id("data-save").click()
    result = page.locator("[data-testid=save-result][data-ok=yes]")
    result.wait_for()
    took = result.locator(f"[data-testid=save-game][data-game-id='{game_id}']")
    assert took.get_attribute("data-applied") == "yes", result.inner_text()

    # The game on the other tablet re-joined for the pack built from the new data: the new road is drawn.
    watcher.wait_for_function(
        "([a, b]) => window.companion.pack.board.connections.some(([x, y]) => (x === a && y === b) || (x === b && y === a))",
        arg=[monster_at, hero_at])
    watcher.close()

    # The saved document holds the corrections; the engine says how the monster comes now.
    saved = data_get(own_service.url)["data"]
    assert [monster_at, hero_at] in saved["changes"]["board"]["connections"]["add"] or \
        [hero_at, monster_at] in saved["changes"]["board"]["connections"]["add"]
    locations = saved["changes"]["board"]["locations"]
    assert locations[first]["number"] == numbered[second] and locations[second]["number"] == numbered[first]
    assert "amber-temple" in locations and locations["amber-temple"]["x"] < 0.92
    after = owner_pack(parse_owner_data(saved))
    new_paths = graph_of(after).shortest_paths(monster_at, hero_at)
    assert new_paths != old_paths and all(path not in old_paths for path in new_paths)

    # Back to the game: this Monster Phase draws a card that moves nobody; the next one moves the
    # Carrionette (the Frenzy monster) toward the Sorcerer over the corrected board.
    page.goto(f"{own_service.url}/#/game/{game_id}")
    page.get_by_test_id("screen-game").wait_for()
    answer_until(page, lambda p: prompt_of(p)[1] == "hero-action", cards=["summons-to-the-castle"])
    state = page.evaluate("window.companion.view.state")
    assert state["monsters"]["carrionette"]["location"] == monster_at and state["heroes"]["sorcerer"]["location"] == hero_at
    tap_action(page, "end")
    answer_until(page, lambda p: monster_path(p, "carrionette") is not None, cards=["the-hunt-begins"])
    shown = monster_path(page, "carrionette")
    assert shown is not None
    assert shown == list(new_paths[0][: len(shown)]) and shown in [list(p) for p in new_paths]
    assert shown not in [list(p) for p in old_paths]
    shot(page, "data-board-next-monster-phase")


def test_the_data_survives_a_restart_and_an_export_import_round_trip(tablet: Any, tmp_path: Path) -> None:
    page = tablet
    first = Service(tmp_path / "first").start()
    try:
        open_data(page, first.url, "board")
        # A change kept until saved, or thrown away with "Discard changes".
        page.locator("[data-testid=villager-safe][data-id='bildrath']").select_option("krezk")
        assert page.get_by_test_id("data-savebar").get_attribute("data-dirty") == "yes"
        page.get_by_test_id("data-discard").click()
        assert page.get_by_test_id("data-savebar").get_attribute("data-dirty") == "no"
        assert page.locator("[data-testid=villager-safe][data-id='bildrath']").input_value() == "tser-falls"
        page.locator("[data-testid=monster-start][data-id='carrionette']").select_option("krezk")
        page.get_by_test_id("mode-connect").click()
        loc(page, "krezk").click()
        loc(page, "vallaki").click()
        page.get_by_test_id("mode-move").click()
        loc(page, "yester-hill").click()
        page.get_by_test_id("loc-name").fill("Yester Hill (mine)")
        assert wait_checks_done(page).get_attribute("data-count") == "0"
        drag(page, "amber-temple", -120, 80, steps=8)
        photo = tmp_path / "board.png"
        photo.write_bytes(PNG)
        page.get_by_test_id("photo-file").set_input_files(str(photo))
        page.locator("[data-testid=ed-board] [data-testid=board-photo]").wait_for()
        page.get_by_test_id("data-save").click()
        page.locator("[data-testid=save-result][data-ok=yes]").wait_for()
        saved = data_get(first.url)["data"]
        assert saved["changes"]["board"]["connections"]["add"] == [["krezk", "vallaki"]]
        assert saved["changes"]["monsters"]["monsters"] == {"carrionette": {"start": "krezk"}}
    finally:
        first.stop()

    # The same state folder, a fresh process.
    again = Service(tmp_path / "first").start()
    try:
        reply = data_get(again.url)
        assert reply["data"]["changes"] == saved["changes"] and reply["problems"] == []
        open_data(page, again.url, "board")
        page.locator("[data-testid=ed-road][data-key='krezk+vallaki']").wait_for()
        assert loc(page, "yester-hill").get_by_test_id("ed-loc-name").text_content() == "Yester Hill (mine)"
        assert page.locator("[data-testid=ed-board] [data-testid=board-photo]").count() == 1  # the photo is kept too
        # LED setup draws the same board: the owner's road and photo.
        page.goto(f"{again.url}/#/leds")
        page.locator("[data-testid=cal-board] [data-testid=board-photo]").wait_for()
        names = page.locator("[data-testid=cal-board] .loc-name").all_text_contents()
        assert "Yester Hill (mine)" in names
        # The LED under the Amber Temple is drawn where the owner put the Amber Temple.
        moved = next(l for l in reply["files"]["board.json"]["locations"] if l["id"] == "amber-temple")
        led = page.locator("[data-testid=cal-board] [data-testid=led][data-role=location][data-name='amber-temple']")
        if led.count():
            x, y = map(float, led.get_attribute("transform").removeprefix("translate(").rstrip(")").split())
            assert abs(x - (30 + moved["x"] * 940)) < 2 and abs(y - (12 + moved["y"] * 690)) < 2
        shot(page, "data-led-setup-owner-board")
        page.goto(f"{again.url}/#/data/ravenloft/board")
        page.get_by_test_id("screen-board-editor").wait_for()
        with page.expect_download() as download:
            page.get_by_test_id("data-tab-status").click()
            page.get_by_test_id("data-download").click()
        exported = Path(download.value.path())
        assert json.loads(exported.read_text())["changes"] == saved["changes"]
    finally:
        again.stop()

    # Into a companion that never saw it: imported through the tablet.
    fresh = Service(tmp_path / "fresh").start()
    try:
        assert data_get(fresh.url)["data"].get("changes", {}) == {}
        open_data(page, fresh.url)
        page.get_by_test_id("data-import-file").set_input_files(str(exported))
        page.locator("[data-testid=import-result][data-ok=yes]").wait_for()
        assert data_get(fresh.url)["data"]["changes"] == saved["changes"]
        row = page.locator("[data-testid=summary-row][data-kind=connection]")
        assert int(row.get_attribute("data-guess")) >= 1
    finally:
        fresh.stop()


def test_a_broken_data_file_is_refused_with_each_problem_named(own_service: Service, tablet: Any, tmp_path: Path) -> None:
    page = tablet
    # Some good data first: it must still be there after the refusal.
    client = connect(own_service.url)
    try:
        good = {"format": "table-companion.owner-data", "version": 1, "game": "ravenloft",
                "changes": {"board": {"connections": {"add": [["krezk", "vallaki"]]}}}, "confirmed": ["board.locations.krezk"]}
        ok(client, "data_save", {"game": "ravenloft", "data": good})
    finally:
        client.disconnect()
    before = data_get(own_service.url)["data"]
    broken = {"format": "table-companion.owner-data", "version": 1, "game": "ravenloft", "confirmed": [],
              "changes": {"board": {
                  "locations": {"krezk": {"number": 3}},  # Wizard of Wines has 3 already
                  "connections": {"add": [["krezk", "nowhere"]],
                                  "remove": [["wizard-of-wines", "yester-hill"], ["yester-hill", "werewolf-den"]]}}}}
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken))
    open_data(page, own_service.url)
    page.get_by_test_id("data-import-file").set_input_files(str(path))
    refused = page.locator("[data-testid=import-result][data-ok=no]")
    refused.wait_for()
    problems = " | ".join(refused.get_by_test_id("import-problem").all_inner_texts())
    assert "'nowhere'" in problems, problems
    assert "number 3" in problems and "'krezk'" in problems or "'wizard-of-wines'" in problems, problems
    assert "'yester-hill'" in problems and "reach" in problems, problems
    shot(page, "data-import-refused")
    assert data_get(own_service.url)["data"] == before


#: In the page: the companion's answers to reading the data come ``ms`` late, and the upload of a
#: file twice as late (a slow Wi-Fi): the screen finishes loading between the file chosen and its answer.
SLOW_DATA = """(ms) => { const conn = window.companion.conn; const request = conn.request.bind(conn);
  conn.request = async (event, payload, options) => { const reply = await request(event, payload, options);
    if (event === "data_get") await new Promise((done) => setTimeout(done, ms));
    return reply; };
  const upload = window.fetch.bind(window);
  window.fetch = async (...args) => { const reply = await upload(...args);
    await new Promise((done) => setTimeout(done, 2 * ms)); return reply; }; }"""


def test_a_file_imported_while_the_screen_still_loads_says_it_was_imported(own_service: Service, tablet: Any,
                                                                           tmp_path: Path) -> None:
    page = tablet
    good = {"format": "table-companion.owner-data", "version": 1, "game": "ravenloft", "confirmed": [],
            "changes": {"board": {"connections": {"add": [["krezk", "vallaki"]]}}}}
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(good))
    open_data(page, own_service.url, "board")
    page.evaluate(SLOW_DATA, 1000)
    page.goto(f"{own_service.url}/#/data/ravenloft/status")  # the status screen reads the data again, slowly
    page.get_by_test_id("data-import-file").set_input_files(str(path))
    page.locator("[data-testid=import-result][data-ok=yes]").wait_for(timeout=10_000)
    assert data_get(own_service.url)["data"]["changes"] == good["changes"]
