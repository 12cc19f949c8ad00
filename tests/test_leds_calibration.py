"""LED calibration: an owner answering LED by LED (taps on the board picture
for locations and connections, buttons for the Terror track, mats and seats)
rebuilds the layout; it resumes after a stop; it is saved, exported and
restored in the state directory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calibration.leds import (LedCalibrationError, LedCalibration, LedCalibrationStore, Target, layout_in_use,
                              resolve_tap, start_session, target_from_plain)
from hardware.leds import LayoutError, shipped_layout
from hardware.leds.generate_layout import default_layout
from hardware.leds.positions import LedPosition, led_positions
from leds_fixtures import LAYOUT, SHAPE, TERROR_MAX


def owner_says(position: LedPosition) -> Target:
    """What an owner answers for an LED: a tap where it shines, or a button off the board."""
    if position.role in ("location", "connection"):
        target = resolve_tap(SHAPE, position.x, position.y)
        assert target is not None
        return target
    if position.role == "mat":
        return Target("mat", position.name)
    return Target(position.role, step=int(position.name))


def test_taps_resolve_to_locations_and_points_along_connections() -> None:
    x, y = SHAPE.locations["krezk"]
    assert resolve_tap(SHAPE, x + 0.01, y) == Target("location", "krezk")
    (a, b) = SHAPE.connections[0]
    (ax, ay), (bx, by) = SHAPE.locations[a], SHAPE.locations[b]
    middle = resolve_tap(SHAPE, ax + (bx - ax) * 0.6, ay + (by - ay) * 0.6)
    assert middle is not None and (middle.kind, middle.name, middle.to) == ("connection", a, b)
    assert middle.at == pytest.approx(0.6)
    assert resolve_tap(SHAPE, 0.5, -0.5) is None


def test_answering_every_led_rebuilds_the_shipped_layout() -> None:
    calibration = LedCalibration(SHAPE, LAYOUT.count)
    for position in led_positions(LAYOUT, SHAPE):
        assert calibration.index == position.index
        calibration.answer(owner_says(position))
    assert calibration.index is None and calibration.done
    assert calibration.layout() == LAYOUT


def test_connections_tapped_backwards_still_light_from_a_to_b() -> None:
    """A strip laid from b to a: LED n is nearer b; the layout orders along a -> b."""
    (a, b) = SHAPE.connections[0]
    calibration = LedCalibration(SHAPE, 3)
    calibration.answer(Target("connection", b, a, 0.2))
    calibration.answer(Target("connection", b, a, 0.8))
    calibration.answer(Target("connection", a, b, 0.5))
    layout = calibration.layout()
    assert layout.segment(b, a) == (0, 2, 1) and layout.segment(a, b) == (1, 2, 0)


def test_skip_back_and_goto() -> None:
    calibration = LedCalibration(SHAPE, 4)
    calibration.answer(Target("location", "krezk"))
    calibration.skip()
    calibration.back()
    assert calibration.index == 1
    calibration.answer(Target("terror", step=3))
    calibration.goto(0)
    calibration.answer(Target("mat", "strahd"))
    assert calibration.index == 2
    calibration.skip()
    calibration.answer(Target("seat", step=4))
    layout = calibration.layout()
    assert layout.mats == {"strahd": (0,)} and layout.step("terror", 3) == (1,) and layout.seat(4) == (3,)
    assert 2 not in set(layout.used()) and calibration.view()["skipped"] == 1


def test_wrong_answers_are_refused_with_why() -> None:
    calibration = LedCalibration(SHAPE, 2)
    for bad, why in [(Target("location", "atlantis"), "not a location"),
                     (Target("connection", "krezk", "north-tower"), "no connection"),
                     (Target("terror", step=TERROR_MAX + 1), "Terror steps go from 0 to 7"),
                     (Target("mat", "dracula"), "no mat"), (Target("seat", step=5), "seats go from 0 to 4")]:
        with pytest.raises(LedCalibrationError, match=why):
            calibration.answer(bad)
    with pytest.raises(LedCalibrationError, match="'kind'"):
        target_from_plain({"kind": "sofa"}, SHAPE)
    with pytest.raises(LedCalibrationError, match="no LED 9"):
        calibration.goto(9)
    assert calibration.index == 0 and not calibration.answers


def test_it_resumes_from_saved_progress(tmp_path: Path) -> None:
    store = LedCalibrationStore(tmp_path)
    positions = led_positions(LAYOUT, SHAPE)
    calibration = LedCalibration(SHAPE, LAYOUT.count)
    for position in positions[:50]:
        calibration.answer(owner_says(position))
    store.save_progress(calibration)
    resumed = store.load_progress(SHAPE)
    assert resumed is not None and resumed.index == 50 and resumed.answers == calibration.answers
    for position in positions[50:]:
        resumed.answer(owner_says(position))
    assert resumed.layout() == LAYOUT


def test_the_session_lights_each_led_saves_and_finishes(tmp_path: Path) -> None:
    store = LedCalibrationStore(tmp_path)
    lit: list[int | None] = []
    resumed: list[bool] = []
    session = start_session(SHAPE, 3, store, lit.append, lambda: resumed.append(True))
    x, y = SHAPE.locations["krezk"]
    session.tap(x, y)
    session.skip()
    with pytest.raises(LedCalibrationError, match="not near"):
        session.tap(0.5, -0.5)
    view = session.answer({"kind": "terror", "step": 2})
    assert lit == [0, 1, 2, None] and view["done"] and view["problems"] == []
    again = start_session(SHAPE, 3, store, lit.append, lambda: None)  # a reload mid-way resumes
    assert again.calibration.answers == session.calibration.answers
    layout = session.finish()
    assert layout.location("krezk") == (0,) and layout.step("terror", 2) == (2,) and resumed == [True]
    assert store.layout(SHAPE) == layout and store.load_progress(SHAPE) is None


def test_save_keeps_the_previous_layout_and_revert_brings_it_back(tmp_path: Path) -> None:
    store = LedCalibrationStore(tmp_path)
    assert store.layout(SHAPE) is None and store.layout_or_default(SHAPE) == shipped_layout(SHAPE)
    dense = default_layout(SHAPE, per_connection=3)
    store.save_layout(LAYOUT, SHAPE)
    store.save_layout(dense, SHAPE)
    assert store.layout(SHAPE) == dense
    assert store.revert(SHAPE) == LAYOUT and store.layout(SHAPE) == LAYOUT
    assert sorted(p.name for p in (tmp_path / "calibration").iterdir()) == \
        ["leds-ravenloft.json", "leds-ravenloft.previous.json"]


def test_export_and_restore(tmp_path: Path) -> None:
    store = LedCalibrationStore(tmp_path)
    store.save_layout(default_layout(SHAPE, per_connection=3), SHAPE)
    backup = json.loads(json.dumps(store.export(SHAPE)))
    other = LedCalibrationStore(tmp_path / "new-box")
    assert other.restore(backup, SHAPE) == store.layout(SHAPE)
    backup["locations"]["krezk"] = [10_000]
    with pytest.raises(LayoutError, match=r"locations.krezk\[0\]"):
        other.restore(backup, SHAPE)
    assert other.layout(SHAPE) == store.layout(SHAPE)  # refused whole: nothing changed


def test_an_unfinished_calibration_lists_its_problems() -> None:
    calibration = LedCalibration(SHAPE, 2)
    calibration.answer(Target("location", "krezk"))
    calibration.answer(Target("location", "krezk"))
    assert calibration.layout().location("krezk") == (0, 1)  # two LEDs under one place is fine
    assert calibration.problems() == []


def test_a_saved_calibration_for_another_board_is_refused(tmp_path: Path) -> None:
    saved = LedCalibration(SHAPE, 3).to_plain()
    saved["board"] = "dracula"
    with pytest.raises(LedCalibrationError, match="for 'dracula'"):
        LedCalibration.from_plain(saved, SHAPE)
    saved["board"], saved["answers"] = "ravenloft", {"7": None}
    with pytest.raises(LedCalibrationError, match="'7' is not an LED"):
        LedCalibration.from_plain(saved, SHAPE)


def test_the_layout_in_use_falls_back_to_the_default_with_a_note(tmp_path: Path) -> None:
    store = LedCalibrationStore(tmp_path)
    assert layout_in_use(store, SHAPE) == (LAYOUT, "")
    dense = store.save_layout(default_layout(SHAPE, per_connection=3), SHAPE)
    assert layout_in_use(store, SHAPE) == (dense, "")
    saved = tmp_path / "calibration" / "leds-ravenloft.json"
    saved.write_text(saved.read_text().replace('"krezk"', '"atlantis"'))
    layout, note = layout_in_use(store, SHAPE)
    assert layout == LAYOUT and "locations.atlantis: no such location" in note
