"""The LED board below the games: a pack hands it a shape (named tracks, mats,
seats) and its looks (a cue book, a scene of its public view), and it lights a
game it knows nothing about; two packs never share cues; files saved before
tracks had names read as they did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calibration.leds import LedCalibrationError, LedCalibration, LedCalibrationStore, Target, target_from_plain
from hardware.leds import (PLAIN, BoardShape, CueBook, LayoutError, Looks, Marker, MatLight, Renderer, Scene,
                           ShapeError, Stage, TrackLevel, default_layout, parse_layout, shipped_layout)
from hardware.leds.animations import Animation, Pulse
from hardware.leds.cues import Data, View
from hardware.leds.palette import BLUE, VERMILLION, WHITE, YELLOW, Look, steady
from hardware.leds.positions import led_positions
from hardware.leds.strip import pixel
from leds_fixtures import LAYOUT, SHAPE, lit, looks_like

DATA = Path(__file__).resolve().parent / "data" / "leds"
#: A toy game of the Siege kind: three squares, a hit-point track and a round track, the DM's mat, two seats.
TOY = BoardShape("toy", {"a": (0.1, 0.5), "b": (0.5, 0.5), "c": (0.9, 0.5)}, (("a", "b"), ("b", "c")),
                 tracks={"hp": 4, "rounds": 6}, mats=("dm",), seats=2)
RED = (200, 0, 0)


def toy_scene(view: View, shape: BoardShape) -> Scene:
    """Strahd (a blue marker) where the view says; the hit points warn at 1."""
    hp = view.get("hp")
    tracks = {"hp": TrackLevel(hp, warning=hp <= 1)} if isinstance(hp, int) else {}
    where = view.get("strahd")
    return Scene(markers=(Marker(where, BLUE),) if isinstance(where, str) else (), tracks=tracks,
                 mats={"dm": MatLight(RED, on=bool(view.get("dm_turn")))}, seat=1)


def struck(stage: Stage, data: Data, view: View) -> Animation | None:
    where = data.get("square")
    return Pulse(stage.layout.location(where), Look(RED, steady, "steady"), 1.0) if isinstance(where, str) else None


TOY_LOOKS = Looks(CueBook({"struck": struck}), toy_scene)


# -- the shape and its layout --------------------------------------------------------------------------

def test_a_toy_board_has_a_layout_with_a_field_per_track() -> None:
    layout = default_layout(TOY, per_connection=1)
    assert layout.count == 3 + 2 + 4 + 6 + 1 + 2
    plain = layout.to_plain()
    assert list(plain) == ["format", "version", "board", "count", "locations", "connections", "hp", "rounds", "mats",
                           "seats"]
    assert parse_layout(json.loads(json.dumps(plain)), TOY) == layout and layout.step("rounds", 5) == (14,)
    assert shipped_layout(TOY) == default_layout(TOY)  # a pack that ships no file gets one generated


def test_fields_of_other_boards_are_refused_by_name() -> None:
    plain = default_layout(TOY).to_plain()
    problems = _problems({**plain, "terror": [[0]], "hp": [[1]] * 5, "mats": {"strahd": [2]}}, TOY)
    assert "terror: unknown field" in problems and "mats.strahd: no such mat in this game" in problems
    assert "hp: must be a list of at most 4 lists of LED indices" in problems


def test_a_track_cannot_take_a_name_a_layout_already_uses() -> None:
    for name in ("mats", "seat", "locations"):
        with pytest.raises(ShapeError, match=repr(name)):
            BoardShape("bad", {}, (), tracks={name: 3})


def test_each_track_has_its_row_below_the_picture() -> None:
    positions = led_positions(default_layout(TOY), TOY)
    rows = {p.role: p.y for p in positions if p.y > 1}
    assert set(rows) == {"hp", "rounds", "mat", "seat"} and rows["hp"] < rows["rounds"] < rows["mat"] == rows["seat"]


def test_calibration_answers_name_the_track() -> None:
    calibration = LedCalibration(TOY, 3)
    calibration.answer(target_from_plain({"kind": "rounds", "step": 5}, TOY))
    calibration.answer(Target("hp", step=3))
    calibration.answer(Target("mat", "dm"))
    assert calibration.layout().step("rounds", 5) == (0,) and calibration.layout().step("hp", 3) == (1,)
    with pytest.raises(LedCalibrationError, match="Hp steps go from 0 to 3"):
        LedCalibration(TOY, 3).answer(Target("hp", step=4))
    with pytest.raises(LedCalibrationError, match="one of location, connection, hp, rounds, mat, seat"):
        target_from_plain({"kind": "terror", "step": 1}, TOY)


# -- what the pack says is drawn --------------------------------------------------------------------------

def test_the_scene_the_pack_computes_is_what_is_lit() -> None:
    layout = default_layout(TOY)
    renderer = Renderer(layout, TOY, TOY_LOOKS)
    renderer.show_state({"strahd": "b", "hp": 3, "dm_turn": True})
    frame = renderer.frame(0.0)
    assert looks_like(pixel(frame, layout.location("b")[0]), BLUE)
    assert looks_like(pixel(frame, layout.location("a")[0]), WHITE)
    assert [lit(frame, layout.step("hp", s)[0]) for s in range(4)] == [False, True, True, True]
    assert all(looks_like(pixel(frame, layout.step("hp", s)[0]), YELLOW) for s in (1, 2, 3))
    assert not any(lit(frame, layout.step("rounds", s)[0]) for s in range(6))  # the scene says nothing of rounds
    assert pixel(frame, layout.mat("dm")[0]) == RED
    assert lit(frame, layout.seat(1)[0]) and not lit(frame, layout.seat(0)[0])
    renderer.show_state({"hp": 1})
    warned = renderer.frame(0.0)
    assert looks_like(pixel(warned, layout.step("hp", 1)[0]), VERMILLION)
    assert looks_like(pixel(warned, layout.location("b")[0]), WHITE)  # Strahd gone: the glow only


def test_each_pack_brings_its_own_cues() -> None:
    layout = default_layout(TOY)
    other = Looks(CueBook({"struck": lambda stage, data, view: None}), toy_scene)
    mine, theirs = Renderer(layout, TOY, TOY_LOOKS), Renderer(layout, TOY, other)
    effects = [{"kind": "struck", "data": {"square": "c"}}, {"kind": "monster-moved", "data": {"path": ["a", "b"]}}]
    assert mine.change(effects, {}, 0.0) and not theirs.change(effects, {}, 0.0)
    assert lit(mine.frame(0.5), layout.location("c")[0]) and not mine.busy(1.0)
    assert TOY_LOOKS.cues.kinds() == {"struck"} and "struck" not in PLAIN.cues.kinds()
    with pytest.raises(ValueError, match="two cues for the effect kind 'struck'"):
        CueBook({"struck": struck}).add(["hit", "struck"], struck)


def test_a_board_with_no_looks_only_glows() -> None:
    renderer = Renderer(LAYOUT, SHAPE, PLAIN)
    assert not renderer.change([{"kind": "game-won", "data": {}}], {"terror": 5}, 0.0)
    frame = renderer.frame(0.0)
    glowing = sorted(i for leds in LAYOUT.locations.values() for i in leds)
    assert [i for i in range(LAYOUT.count) if lit(frame, i)] == glowing


# -- files saved before tracks had names ---------------------------------------------------------------------

def test_a_layout_saved_before_tracks_had_names_loads_as_it_was() -> None:
    old = json.loads((DATA / "ravenloft-layout-before-tracks.json").read_text(encoding="utf-8"))
    assert parse_layout(old, SHAPE) == LAYOUT and old["terror"] == [[110 + n] for n in range(8)]
    assert LAYOUT.to_plain() == {key: value for key, value in old.items() if key != "note"}  # written as before


def test_a_calibration_saved_before_tracks_had_names_resumes(tmp_path: Path) -> None:
    store = LedCalibrationStore(tmp_path)
    store.folder.mkdir(parents=True)
    (store.folder / "leds-ravenloft.progress.json").write_text(
        (DATA / "ravenloft-progress-before-tracks.json").read_text(encoding="utf-8"), encoding="utf-8")
    resumed = store.load_progress(SHAPE)
    assert resumed is not None and resumed.index == 8 and resumed.answers[4] == Target("terror", step=3)
    layout = resumed.layout()
    assert layout.step("terror", 3) == (4,) and layout.mat("strahd") == (5,) and layout.seat(4) == (6,)
    assert layout.segment("abbey-of-saint-markovia", "krezk") == (1, 7)
    assert resumed.to_plain() == json.loads((DATA / "ravenloft-progress-before-tracks.json").read_text())


def _problems(data: object, shape: BoardShape) -> list[str]:
    with pytest.raises(LayoutError) as caught:
        parse_layout(data, shape)
    return [str(p) for p in caught.value.problems]
