"""Straszydła under the LEDs: the pack's shape and looks fed with the public views of a game played on
the tests' small box (straszydla_fixtures), drawn by the real renderer onto the simulated strip's frames.
The districts glow in their cubes' colours (faint once collected or out of their time of day), a STOP
marker and a blockade marker light their spots, and a duel's effect plays its cue on the duel's square."""

from __future__ import annotations

import json
from typing import Any

from companion.engine.game import Game
from companion.games.straszydla.leds import CUBE_LEDS, StraszydlaLeds
from hardware.leds import Renderer, default_layout
from hardware.leds.palette import VERMILLION, WHITE, YELLOW
from hardware.leds.strip import Colour, pixel
from leds_fixtures import lit, looks_like
from straszydla_fixtures import LAYOUT, SmallBoxPack, act, answer, new_game, plan

PACK = SmallBoxPack()
LEDS: StraszydlaLeds = PACK.leds()
SHAPE = LEDS.shape()
BOARD = default_layout(SHAPE)
SQUARE = {tile: square for square, tile in LAYOUT.items()}  # district -> the square it lies on
COLOUR = {"earth": CUBE_LEDS["green"], "fire": CUBE_LEDS["orange"], "air": CUBE_LEDS["purple"],
          "water": CUBE_LEDS["blue"]}


def public(game: Game) -> dict[str, Any]:
    """The public view as the LED board receives it: through JSON, like every view the service sends."""
    found = json.loads(json.dumps(PACK.public_view(game)))
    assert isinstance(found, dict)
    return found


def still(game: Game) -> bytes:
    renderer = Renderer(BOARD, SHAPE, LEDS.looks())
    renderer.show_state(public(game))
    return renderer.frame(0.0)


def spot(frame: bytes, tile: str, suffix: str = "") -> Colour:
    return pixel(frame, BOARD.location(SQUARE[tile] + suffix)[0])


def brightness(colour: Colour) -> int:
    return max(colour)


def test_the_shape_has_a_middle_a_stop_spot_and_a_blockade_spot_under_every_square() -> None:
    assert set(SHAPE.locations) == {SQUARE[t] + s for t in SQUARE for s in ("", ":stop", ":block")}
    assert SHAPE.steps("card") == 5 and len(SHAPE.connections) == 12  # 3 x 3: 6 sides across, 6 down


def test_the_districts_glow_in_their_cubes_colours_full_while_cubes_lie_there() -> None:
    """"New resources ... appear on all spaces ... matching the current time of day": by day the day districts
    hold cubes (full), the night ones none (faint); a district collected goes faint; its STOP marker is lit."""
    game = new_game(3)
    frame = still(game)
    for tile, element in (("sad", "earth"), ("kuznia", "fire"), ("laka", "air"), ("polnoc", "earth")):
        assert looks_like(spot(frame, tile), COLOUR[element]), tile
    for tile, element in (("bagna", "water"), ("poludnie", "water"), ("wieza", "air"), ("cmentarz", "air")):
        assert looks_like(spot(frame, tile), COLOUR[element]), tile
        assert brightness(spot(frame, tile)) < brightness(spot(frame, "sad")) / 2, tile  # a night district by day
    assert not any(lit(frame, BOARD.location(SQUARE[t] + ":stop")[0]) and
                   brightness(spot(frame, t, ":stop")) > brightness(spot(frame, "bagna")) for t in SQUARE)
    for seat, moves in {"p1": ["S", "W", "N"], "p2": ["E", "N", "N"], "p3": ["E", "S", "S"]}.items():
        plan(game, seat, *moves)
    act(game, "collect")  # Przemo, alone in the orchard, takes its earth cube
    act(game, "done")
    frame = still(game)
    assert looks_like(spot(frame, "sad"), COLOUR["earth"])
    assert brightness(spot(frame, "sad")) < brightness(spot(frame, "polnoc")) / 2  # collected: faint
    assert looks_like(spot(frame, "sad", ":stop"), WHITE)
    assert brightness(spot(frame, "sad", ":stop")) > 2 * brightness(spot(frame, "kuznia", ":stop"))  # only the glow


def test_blockades_light_their_spots_until_the_time_of_day_changes() -> None:
    """"At the end of each round, players place blockade markers on the districts" they stand in; "after the time of
    day changes, the starting player removes all blockade markers"."""
    game = new_game(3)
    for seat, moves in {"p1": ["S", "W", "N"], "p2": ["E", "N", "N"], "p3": ["E", "S", "S"]}.items():
        plan(game, seat, *moves)
    for _ in range(3):
        act(game, "done")
    frame = still(game)
    blockaded = {"sad", "kuznia", "cmentarz"}
    for tile in SQUARE:
        assert looks_like(spot(frame, tile, ":block"), VERMILLION) == (tile in blockaded), tile
    assert brightness(spot(frame, "sad", ":stop")) < 20  # the STOP markers came off as round 2 began


def duel_at_the_centre() -> tuple[Game, list[dict[str, object]]]:
    """Przemo and Syla both end their plans in the Centre; the last plan's effects, as the LEDs get them."""
    game = new_game(3)
    plan(game, "p1", "S", "S", "N")
    plan(game, "p3", "E", "S", "S")
    step = plan(game, "p2", "N", "N", "S")
    return game, [json.loads(json.dumps(e.to_plain())) for e in step.effects if e.audience is None]


def test_a_duel_pulses_yellow_on_its_district_after_the_pawns_have_moved() -> None:
    """The duel's cue: after the trails of the revealed plans, the Centre beats in yellow and stays so while the
    duel is fought; its winner flashes when it is won."""
    game, effects = duel_at_the_centre()
    assert "duel" in [e["kind"] for e in effects]
    renderer = Renderer(BOARD, SHAPE, LEDS.looks())
    assert renderer.change(effects, public(game), 0.0)
    end = renderer.settles_at()
    centre = BOARD.location(SQUARE["centrum"])[0]
    frames = [renderer.frame(end * n / 200) for n in range(200)]
    yellow = [n for n, f in enumerate(frames) if looks_like(pixel(f, centre), YELLOW, tolerance=6)]
    assert yellow and min(yellow) > 100  # the trails first, then the duel
    held = renderer.frame(end + 1.0)
    assert looks_like(pixel(held, centre), YELLOW, tolerance=6) and not renderer.busy(end + 1.0)
    answer(game, [6, 6])  # Przemo, there first
    answer(game, [1, 1])
    answer(game, {"action": "bid", "energy": 0}, "p1")
    step = answer(game, {"action": "bid", "energy": 0}, "p2")
    won = [json.loads(json.dumps(e.to_plain())) for e in step.effects if e.audience is None]
    assert "duel-won" in [e["kind"] for e in won], [e["kind"] for e in won]
    assert renderer.change(won, public(game), 10.0)
    flashed = [renderer.frame(10.0 + n * 0.05) for n in range(40)]
    assert any(pixel(f, centre) == (0, 0, 0) for f in flashed) and any(
        looks_like(pixel(f, centre), YELLOW, tolerance=6) for f in flashed)


def test_the_card_track_counts_the_rounds_left_and_warns_on_the_last() -> None:
    """"The starting player returns a horror cube from the day/night card" each round; on the fourth the card is
    empty, and the one step left lights in the warning look rather than nothing at all."""
    game = new_game(3)
    frame = still(game)  # round 1: three cubes on the card, four rounds to play
    steps = [lit(frame, BOARD.step("card", s)[0]) for s in range(5)]
    assert steps == [False, True, True, True, True]
    assert looks_like(pixel(frame, BOARD.step("card", 4)[0]), YELLOW)
    last = new_game(3, round=4)
    frame = still(last)
    assert [lit(frame, BOARD.step("card", s)[0]) for s in range(5)] == [False, True, False, False, False]
    assert looks_like(pixel(frame, BOARD.step("card", 1)[0]), VERMILLION)
