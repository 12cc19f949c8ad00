"""Box health on the tablet: the overall state, one card per part (the LED
strip simulated, the camera), versions and recent errors; the diagnostics
file (a zip holding health.json); a backup downloaded and restored again,
which finds its games already on the box and skips them. And the games
screen's safe-mode banner, when the box says it started in safe mode."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any, Callable

from ui_helpers import Server, open_games, shot, start_game_in_wizard


def open_health(page: Any, url: str) -> None:
    open_games(page, url)
    page.get_by_test_id("health-open").click()
    page.get_by_test_id("screen-health").wait_for()
    page.get_by_test_id("health-overall").wait_for()


def test_the_health_screen_shows_every_part_and_downloads_diagnostics(server: Server, new_tablet: Callable[..., Any]) -> None:
    page = new_tablet()
    open_health(page, server.url)

    overall = page.get_by_test_id("health-overall")
    assert overall.get_attribute("data-overall") in ("ok", "degraded")
    leds = page.locator("[data-testid=health-part][data-part=leds]")
    assert "simulated" in leds.inner_text()  # the simulated strip (its state: ok)
    camera = page.locator("[data-testid=health-part][data-part=camera]")
    assert camera.get_attribute("data-state")
    assert camera.get_by_test_id("part-reason").inner_text()  # says why (no camera configured)
    assert page.locator("[data-testid=health-part][data-part=disk]").get_attribute("data-state") == "ok"
    assert page.locator("[data-testid=version][data-package=python]").inner_text()
    assert page.get_by_test_id("health-errors").count() == 1

    page.get_by_test_id("health-refresh").click()
    page.get_by_test_id("health-part").first.wait_for()
    shot(page, "box-health")

    with page.expect_download() as download:
        page.get_by_test_id("diagnostics-download").click()
    assert download.value.suggested_filename.endswith(".zip")
    with zipfile.ZipFile(download.value.path()) as bundle:
        assert "health.json" in bundle.namelist()
        health = json.loads(bundle.read("health.json"))
    assert health["parts"]["leds"]["backend"] == "simulated"


def test_a_backup_restored_on_the_same_box_skips_the_games_it_has(server: Server, new_tablet: Callable[..., Any],
                                                                   tmp_path: Path) -> None:
    page = new_tablet()
    open_games(page, server.url)
    start_game_in_wizard(page, ["carrionette"], [("sorcerer", "Sam")])
    games = len(server.get_json("/api/games")["games"])
    page.goto(server.url + "#/health")
    page.get_by_test_id("health-overall").wait_for()

    with page.expect_download() as download:
        page.get_by_test_id("backup-download").click()
    backup = tmp_path / download.value.suggested_filename
    download.value.save_as(backup)
    assert zipfile.is_zipfile(backup)

    page.get_by_test_id("backup-restore-input").set_input_files(str(backup))
    result = page.locator("[data-testid=restore-result][data-ok=yes]")
    result.wait_for()
    assert result.get_attribute("data-games") == "0"
    assert result.get_attribute("data-skipped") == str(games)
    assert "already on the box" in result.inner_text()
    assert len(server.get_json("/api/games")["games"]) == games

    # A file that is not a backup is refused, saying why.
    broken = tmp_path / "notes.zip"
    broken.write_text("the castle key is under the mat")
    page.get_by_test_id("backup-restore-input").set_input_files(str(broken))
    refused = page.locator("[data-testid=restore-result][data-ok=no]")
    refused.wait_for()
    assert "notes.zip" in refused.inner_text()


def test_the_games_screen_says_when_the_box_started_in_safe_mode(server: Server, new_tablet: Callable[..., Any]) -> None:
    page = new_tablet()
    real = server.get_json("/api/health")
    safe = {**real, "overall": "safe-mode", "start": {"safe": True, "reason": "the last start did not finish"}}
    page.route("**/api/health", lambda route: route.fulfill(json=safe))
    open_games(page, server.url)
    banner = page.locator("[data-testid=banner][data-kind=safe]")
    banner.wait_for()
    assert "safe mode" in banner.inner_text() and "The last start did not finish." in banner.inner_text()
    assert banner.get_by_test_id("banner-close").count() == 0  # it stays while the box is in safe mode
    banner.get_by_test_id("banner-health-link").click()
    page.get_by_test_id("screen-health").wait_for()
    assert page.locator("[data-testid=banner][data-kind=safe]").count() == 0
