"""LED layouts: the shipped Ravenloft default (generated from the board),
validation that names every bad field and why, and where each LED is drawn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hardware.leds import LayoutError, parse_layout
from hardware.leds.generate_layout import default_layout, layout_json
from companion.games.ravenloft.leds import LAYOUT_FILE
from hardware.leds.layout import load_layout
from hardware.leds.positions import led_positions
from hardware.leds.tablet import overlay
from leds_fixtures import LAYOUT, SHAPE, TERROR_MAX


def plain(**changes: Any) -> dict[str, Any]:
    data = LAYOUT.to_plain()
    data.update(changes)
    return data


def problems(data: object) -> list[str]:
    with pytest.raises(LayoutError) as caught:
        parse_layout(data, SHAPE)
    return [str(p) for p in caught.value.problems]


def test_the_shipped_layout_covers_the_whole_board() -> None:
    assert set(LAYOUT.locations) == set(SHAPE.locations)
    assert {frozenset(pair) for pair in LAYOUT.connections} == {frozenset(pair) for pair in SHAPE.connections}
    assert all(len(leds) == 2 for leds in LAYOUT.connections.values())
    assert len(LAYOUT.tracks["terror"]) == TERROR_MAX + 1 and set(LAYOUT.mats) == set(SHAPE.mats)
    assert len(LAYOUT.seats) == 5 and sorted(LAYOUT.used()) == list(range(LAYOUT.count)) and LAYOUT.count == 127


def test_the_shipped_file_is_what_the_generator_makes() -> None:
    assert LAYOUT_FILE.read_text(encoding="utf-8") == layout_json(default_layout(SHAPE))


def test_a_denser_layout_for_300_leds() -> None:
    dense = default_layout(SHAPE, per_connection=6)
    assert dense.count == 28 + 41 * 6 + 8 + 4 + 5


def test_segments_read_either_way() -> None:
    (a, b), leds = next(iter(LAYOUT.connections.items()))
    assert LAYOUT.segment(a, b) == leds and LAYOUT.segment(b, a) == tuple(reversed(leds))
    assert LAYOUT.segment("krezk", "north-tower") == ()


def test_an_index_out_of_range_names_the_field() -> None:
    assert problems(plain(locations={"krezk": [127]})) == \
        ["locations.krezk[0]: LED index must be a whole number from 0 to 126, got 127"]


def test_an_index_used_twice_names_both_fields() -> None:
    data = plain(locations={"krezk": [5]}, mats={"strahd": [5]})
    data["connections"] = []
    data["terror"], data["seats"] = [], []
    assert problems(data) == ["mats.strahd[0]: LED 5 is already used by locations.krezk[0]"]


def test_unknown_locations_connections_and_monsters_are_refused() -> None:
    data = plain(locations={"atlantis": [0]}, mats={"dracula": [1]}, terror=[], seats=[],
                 connections=[{"from": "krezk", "to": "north-tower", "leds": [2]},
                              {"from": "krezk", "to": "abbey-of-saint-markovia", "leds": [3]},
                              {"from": "abbey-of-saint-markovia", "to": "krezk", "leds": [4]}])
    assert problems(data) == [
        "locations.atlantis: no such location on the board",
        "connections[0]: the board has no connection between 'krezk' and 'north-tower'",
        "connections[2]: the connection abbey-of-saint-markovia - krezk is listed twice",
        "mats.dracula: no such monster in this game",
    ]


def test_the_header_and_shapes_are_checked() -> None:
    assert problems([]) == ["layout: must be a JSON object"]
    found = problems(plain(board="dracula", version=2, extra=1, terror=[[1]] * 9, seats="x"))
    assert found[0] == "extra: unknown field" and any(p.startswith("board: this layout is for 'dracula'") for p in found)
    assert "terror: must be a list of at most 8 lists of LED indices" in found and any(p.startswith("seats") for p in found)


def test_a_layout_file_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(LAYOUT.to_plain()))
    assert load_layout(path, SHAPE) == LAYOUT
    path.write_text("{not json")
    with pytest.raises(LayoutError, match="cannot read the layout"):
        load_layout(path, SHAPE)


def test_every_led_has_a_place_for_the_tablet() -> None:
    positions = led_positions(LAYOUT, SHAPE)
    assert [p.index for p in positions] == list(range(LAYOUT.count))
    krezk = next(p for p in positions if p.role == "location" and p.name == "krezk")
    assert (krezk.x, krezk.y) == SHAPE.locations["krezk"]
    (a, b), (first, second) = next(iter(LAYOUT.connections.items()))
    ax, bx = SHAPE.locations[a][0], SHAPE.locations[b][0]
    assert positions[first].x == pytest.approx(ax + (bx - ax) / 3)
    assert {p.role for p in positions if p.y > 1} == {"terror", "mat", "seat"}
    sent = overlay(LAYOUT, SHAPE)
    assert sent["count"] == 127 and len(sent["positions"]) == 127  # type: ignore[arg-type]
