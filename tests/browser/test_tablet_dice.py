"""The dice camera on the tablet: a service reading a folder of tray pictures
with a synthetic Monster-dice calibration; the roll prompt says the camera is
watching, the camera's read appears with each die's crop and value, one tap on
a die and one on the right face corrects it (undo + answer, in the journal);
a refused read shows why above the tap buttons, and a camera lost shows a
banner while the tap entry keeps working."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the service tests' helpers

from calibration.dice import save_calibration  # noqa: E402
from service_process import Service, connect  # noqa: E402
from dice_fixtures import of_set, synthetic_calibration  # noqa: E402
from test_server_dice import CALIBRATION, MONSTER_SET, Tray, journal_inputs, to_two_monster_dice  # noqa: E402
from ui_helpers import GAME, shot, wait_version  # noqa: E402


@pytest.fixture
def camera_service(tmp_path: Path) -> Iterator[tuple[Service, Tray]]:
    tray = Tray(tmp_path / "frames", CALIBRATION.background, 33)
    save_calibration(CALIBRATION, tmp_path / "state" / "dice")
    running = Service(tmp_path / "state", args=["--camera", f"folder:{tray.folder}"]).start()
    yield running, tray
    running.stop()


def at_the_roll(service: Service, new_tablet: Callable[..., Any]) -> tuple[Any, dict[str, Any]]:
    """A game at a roll of two Monster dice (played by a script), open on a tablet."""
    client = connect(service.url)
    try:
        view = to_two_monster_dice(client)["view"]
    finally:
        client.disconnect()
    page = new_tablet()
    page.goto(f"{service.url}/#/game/{view['game_id']}")
    wait_version(page, view["version"])
    return page, view


def test_the_read_is_shown_and_one_tap_corrects_it(camera_service: tuple[Service, Tray],
                                                    new_tablet: Callable[..., Any]) -> None:
    service, tray = camera_service
    page, view = at_the_roll(service, new_tablet)
    assert "the camera is watching" in page.get_by_test_id("roll-hint").inner_text()
    tray.throw("hit", "pow")
    card = page.locator("[data-testid=dice-read][data-status=answered]")
    card.wait_for()
    wait_version(page, view["version"] + 1)
    dice = page.get_by_test_id("dice-read-die")
    assert dice.count() == 2
    assert all(dice.nth(i).locator("img").get_attribute("src").startswith("data:image/png") for i in range(2))
    values = [dice.nth(i).get_attribute("data-value") for i in range(2)]
    assert sorted(values) == ["hit", "pow"]  # type: ignore[type-var]
    shot(page, "dice-read")
    dice.nth(0).click()
    page.locator("[data-testid=dice-correct-face][data-face=blank]").click()
    wait_version(page, view["version"] + 3)  # the camera's input, its undo, the corrected answer
    journal = service.export(view["game_id"])["journal"]
    assert [e["kind"] for e in journal[-3:]] == ["input", "undo", "input"]
    assert journal[-1]["entry"] == {"key": "monster-dice", "answer": ["blank", values[1]]}


def test_a_refused_read_and_a_lost_camera_leave_the_taps(camera_service: tuple[Service, Tray],
                                                         new_tablet: Callable[..., Any]) -> None:
    service, tray = camera_service
    page, view = at_the_roll(service, new_tablet)
    tray.throw("hit")  # one die where two are asked for: refused, with why
    refused = page.locator("[data-testid=dice-read][data-status=refused]")
    refused.wait_for()
    assert "2 asked for, but I see 1" in refused.inner_text()
    assert page.get_by_test_id("dice-refused-die").count() == 1
    assert page.locator("[data-testid=face]").count() == 6  # the tap entry, ready
    shot(page, "dice-refused")
    shutil.rmtree(tray.folder)
    page.locator("[data-testid=banner][data-kind=camera]").wait_for()
    assert "Dice camera lost" in page.locator("[data-testid=banner][data-kind=camera]").inner_text()
    assert "the camera is watching" not in page.get_by_test_id("roll-hint").inner_text()
    page.locator("[data-testid=face][data-die='0'][data-face=pow]").click()
    page.locator("[data-testid=face][data-die='1'][data-face=hit]").click()
    page.get_by_test_id("roll-confirm").click()
    wait_version(page, view["version"] + 1)
    assert page.locator(GAME).count() == 1
    assert service.export(view["game_id"])["journal"][-1]["entry"] == {"key": "monster-dice", "answer": ["pow", "hit"]}


def test_a_read_of_a_die_not_yet_self_tested_is_taken_with_one_tap(tmp_path: Path,
                                                                   new_tablet: Callable[..., Any]) -> None:
    """Before the Monster die's self-test has passed the camera answers nothing by itself: the
    tablet shows what it read and why it did not answer, and one tap takes the read."""
    untested = of_set(synthetic_calibration(self_test=False), "monster", MONSTER_SET)
    tray = Tray(tmp_path / "frames", untested.background, 33)
    save_calibration(untested, tmp_path / "state" / "dice")
    service = Service(tmp_path / "state", args=["--camera", f"folder:{tray.folder}"]).start()
    try:
        page, view = at_the_roll(service, new_tablet)
        tray.throw("pow", "blank")
        card = page.locator("[data-testid=dice-read][data-status=refused]", has_text="has not had its self-test")
        card.wait_for()
        use = page.get_by_test_id("dice-use-read")
        assert sorted(use.inner_text().removeprefix("Use it: ").split(", ")) == ["POW", "blank"]
        before = journal_inputs(service, view["game_id"])
        use.click()
        wait_version(page, view["version"] + 1)
        after = journal_inputs(service, view["game_id"])
        assert after[:-1] == before and after[-1]["key"] == "monster-dice"
        assert sorted(after[-1]["answer"]) == ["blank", "pow"]
    finally:
        service.stop()
