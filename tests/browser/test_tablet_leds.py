"""The LEDs on the tablet: the simulated strip's frames drawn over the board
during a Monster Phase (a monster's trail, the Terror bar), hidden and shown
again, and held by LED setup on another tablet; and LED setup: one LED lit at a time, answered by a tap on the board or
a button, skipped, taken back, finished into a layout in use, exported and
restored (a refused file shows every reason). The dots are checked through
their data attributes (data-lit, data-rgb), not only by the screenshots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from ui_helpers import (Server, answer_as_doomed_player, answer_setup, open_games, shot, start_game_in_wizard,
                        tap_action)

CARRIONETTE = (0xE6, 0x9F, 0x00)  # its LED colour (docs/leds.md, palette)
LAYER = "[data-testid=led-layer]"


def lit_dots(page: Any, role: str | None = None) -> list[dict[str, Any]]:
    selector = "[data-testid=led][data-lit=yes]" + (f"[data-role={role}]" if role else "")
    found: list[dict[str, Any]] = page.eval_on_selector_all(selector, """dots => dots.map(d => ({
        index: Number(d.dataset.index), role: d.dataset.role, name: d.dataset.name,
        rgb: d.dataset.rgb.split(",").map(Number)}))""")
    return found


def same_hue(rgb: list[int], colour: tuple[int, int, int], tolerance: int = 4) -> bool:
    """Lit, and a dimmed copy of ``colour`` (a trail is the colour at 30 %)."""
    level = max(rgb) / max(colour)
    return max(rgb) > 0 and all(abs(c - w * level) <= tolerance for c, w in zip(rgb, colour))


def test_the_leds_show_a_monster_phase_over_the_board(server: Server, new_tablet: Callable[..., Any]) -> None:
    page = new_tablet()
    open_games(page, server.url)
    start_game_in_wizard(page, ["carrionette"], [("sorcerer", "Sam")])
    answer_setup(page)

    # The still picture: every location glows faintly, the Terror bar is lit up to the level.
    layer = page.locator(LAYER)
    assert layer.get_attribute("data-count") == "127"
    page.wait_for_function("() => document.querySelectorAll('[data-testid=led][data-role=location][data-lit=yes]').length >= 23")
    level = int(page.get_by_test_id("terror").get_attribute("data-level") or "-1")
    assert sorted(int(d["name"]) for d in lit_dots(page, "terror")) == list(range(1, level + 1))
    assert [d["name"] for d in lit_dots(page, "mat")] == ["carrionette"]

    # Monster Phase: play on until the Carrionette has walked somewhere.
    tap_action(page, "end")
    for _ in range(60):
        if page.get_by_test_id("monster-path").count():
            break
        answer_as_doomed_player(page)
    else:
        raise AssertionError("no monster moved")
    path = (page.get_by_test_id("monster-path").first.get_attribute("data-path") or "").split()
    assert len(path) >= 2
    roads = {f"{a}|{b}" for a, b in zip(path, path[1:])} | {f"{b}|{a}" for a, b in zip(path, path[1:])}

    # The trail, once walked: every LED along the path dimly lit in the Carrionette's colour, the destination bright.
    page.wait_for_function("""([roads, last]) => {
        const level = (d) => Math.max(...d.dataset.rgb.split(',').map(Number));
        const dots = [...document.querySelectorAll('[data-testid=led][data-role=connection]')]
          .filter(d => roads.includes(d.dataset.name));
        const end = document.querySelector(`[data-testid=led][data-role=location][data-name='${last}']`);
        return dots.length > 0 && dots.every(d => d.dataset.lit === 'yes' && d.dataset.rgb.endsWith(',0') && level(d) < 120)
          && end && level(end) > 200;
    }""", arg=[sorted(roads), path[-1]], timeout=15_000)
    trail = [d for d in lit_dots(page) if d["role"] == "connection" and d["name"] in roads]
    assert len(trail) == 2 * (len(path) - 1) and all(same_hue(d["rgb"], CARRIONETTE) for d in trail)
    on_path = [d for d in lit_dots(page, "location") if d["name"] in path]
    assert len(on_path) == len(path) and all(same_hue(d["rgb"], CARRIONETTE) for d in on_path)
    destination = next(d for d in on_path if d["name"] == path[-1])
    assert max(destination["rgb"]) > max(max(d["rgb"]) for d in trail)
    elsewhere = [d for d in lit_dots(page, "connection") if d["name"] not in roads]
    assert not elsewhere  # nothing else lights along the roads
    shot(page, "led-overlay")

    # Hidden, then shown again: the choice is the tablet's own.
    page.get_by_test_id("leds-toggle").click()
    assert layer.get_attribute("data-count") == "0" and page.get_by_test_id("led").count() == 0
    assert page.get_by_test_id("leds-toggle").get_attribute("aria-pressed") == "false"
    page.reload()
    page.get_by_test_id("screen-game").wait_for()
    assert page.get_by_test_id("leds-toggle").get_attribute("aria-pressed") == "false"
    page.get_by_test_id("leds-toggle").click()
    assert page.locator(LAYER).get_attribute("data-count") == "127"
    page.wait_for_function("() => Number(document.querySelector('[data-testid=led-layer]')?.dataset.lit) >= 23")

    # LED setup on another tablet holds the LEDs: this screen shows its one LED and says why, until it stops.
    owner = new_tablet()
    open_games(owner, server.url)
    owner.get_by_test_id("led-setup").click()
    owner.get_by_test_id("screen-leds").wait_for()
    page.get_by_test_id("leds-calibrating").wait_for()
    page.wait_for_selector(f"{LAYER}[data-lit='1']")
    owner.get_by_test_id("cal-stop").click()
    page.get_by_test_id("leds-calibrating").wait_for(state="hidden")
    page.wait_for_function("() => Number(document.querySelector('[data-testid=led-layer]')?.dataset.lit) >= 23")


def banner(page: Any, kind: str, words: str) -> None:
    """Wait for a banner of ``kind`` saying ``words`` (files are read and answers come asynchronously)."""
    page.locator(f"[data-testid=banner][data-kind={kind}]", has_text=words).wait_for()


def status(page: Any) -> dict[str, str]:
    panel = page.get_by_test_id("cal-status")
    return {key: panel.get_attribute(f"data-{key}") or "" for key in ("index", "answered", "skipped", "done")}


def wait_lit_alone(page: Any, index: int) -> None:
    """The overlay shows exactly one LED lit: the one being asked about."""
    page.wait_for_selector(f"[data-testid=cal-status][data-index='{index}']")
    page.wait_for_selector(f"{LAYER}[data-lit='1'] [data-testid=led][data-index='{index}'][data-lit=yes]")


def test_led_setup_lights_each_led_saves_a_layout_and_restores_a_backup(server: Server, new_tablet: Callable[..., Any],
                                                                          tmp_path: Path) -> None:
    page = new_tablet()
    open_games(page, server.url)
    page.get_by_test_id("led-setup").click()
    page.get_by_test_id("screen-leds").wait_for()
    wait_lit_alone(page, 0)
    assert status(page) == {"index": "0", "answered": "0", "skipped": "0", "done": "no"}

    # A backup of the layout in use (the shipped one) before changing anything.
    with page.expect_download() as download:
        page.get_by_test_id("leds-export").click()
    backup = Path(download.value.path())
    shipped = json.loads(backup.read_text())
    assert shipped["board"] == "ravenloft" and shipped["count"] == 127 and len(shipped["locations"]) == 28

    # LED 0 shines under Krezk: tap Krezk. LED 1 is hidden: skip it; then back, and it is a Terror step.
    page.locator("[data-testid=cal-loc][data-id=krezk]").click()
    wait_lit_alone(page, 1)
    assert "LED 0: Krezk" in page.get_by_test_id("cal-answered").inner_text()
    page.get_by_test_id("cal-skip").click()
    wait_lit_alone(page, 2)
    assert "LED 1: skipped" in page.get_by_test_id("cal-answered").inner_text()
    page.get_by_test_id("cal-back").click()
    wait_lit_alone(page, 1)
    page.locator("[data-testid=cal-terror][data-step='3']").click()
    wait_lit_alone(page, 2)
    assert status(page) == {"index": "2", "answered": "2", "skipped": "0", "done": "no"}
    shot(page, "led-setup")

    # A tap far from every place and road is refused, saying what to do; nothing changes.
    box = page.get_by_test_id("cal-board").bounding_box()
    page.mouse.click(box["x"] + 4, box["y"] + 4)
    banner(page, "error", "tap closer")
    assert status(page)["index"] == "2"

    # Finish early: the first tap says how many stay dark, the second saves; the layout is in use.
    page.get_by_test_id("cal-finish").click()
    assert "125 LEDs have no answer" in page.get_by_test_id("cal-finish").inner_text()
    page.get_by_test_id("cal-finish").click()
    page.get_by_test_id("screen-games").wait_for()
    banner(page, "info", "2 LEDs placed")
    page.get_by_test_id("led-setup").click()
    wait_lit_alone(page, 0)  # a new round starts at LED 0
    summary = page.get_by_test_id("leds-layout-summary")
    assert summary.get_attribute("data-placed") == "2" and page.get_by_test_id("led").count() == 2

    # Restore: a broken file is refused with every reason; the backup goes back in use.
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({**shipped, "locations": {"atlantis": [0], "krezk": [900]}, "colour": "red"}))
    page.get_by_test_id("leds-restore-file").set_input_files(str(broken))
    page.get_by_test_id("cal-problem").first.wait_for()
    reasons = page.get_by_test_id("cal-problem").all_inner_texts()
    assert len(reasons) >= 3 and any("atlantis" in r for r in reasons) and any("900" in r for r in reasons)
    assert summary.get_attribute("data-placed") == "2"
    not_json = tmp_path / "notes.json"
    not_json.write_text("LED 4 is under the castle")
    page.get_by_test_id("leds-restore-file").set_input_files(str(not_json))
    banner(page, "error", "not JSON")
    page.get_by_test_id("leds-restore-file").set_input_files(str(backup))
    page.wait_for_selector("[data-testid=leds-layout-summary][data-placed='127']")
    banner(page, "info", "Restored")
    assert page.get_by_test_id("cal-problem").count() == 0
    page.get_by_test_id("back-to-games").click()
    page.get_by_test_id("screen-games").wait_for()
