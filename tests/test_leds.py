"""The LED board driven by real engine effects: a Monster Phase played with
RavenloftRules, its effects and state fed to the renderer (at chosen moments)
and, through a real Table, to the animation thread and the simulated strip."""

from __future__ import annotations

import pytest

from companion.engine.game import Game
from hardware.leds import LedConfig, Renderer, Timing, attach, start_leds
from hardware.leds.backends.simulated import SimulatedStrip
from hardware.leds.cues import trail_points
from companion.games.ravenloft.leds import MONSTER_LOOKS
from hardware.leds.palette import BLUE, ORANGE, SKY_BLUE, VERMILLION, WHITE, YELLOW
from hardware.leds.power import estimate_ma
from hardware.leds.strip import pixel
from leds_fixtures import (LAYOUT, LOOKS, SAM, SHAPE, TERROR_MAX, TableMaker, answer, game_at, lit, looks_like,
                           state_of, table_at)  # noqa: F401 - table_at is a fixture
from polling import wait_for

VALLAKI_TO_TSER_FALLS = ["vallaki", "madam-evas-tent", "tser-falls"]


def carrionette_walks() -> tuple[Game, list[dict[str, object]]]:
    """Carrionette at Vallaki, the Sorcerer at Tser Falls: a potion card moves her two
    locations (the active player picks the route by Madam Eva's Tent) and she attacks."""
    game = game_at(monsters={"carrionette": "vallaki"}, heroes=[{**SAM, "at": "tser-falls"}], terror=2)
    answer(game, "monster-card", "potion-2-2")
    route = next(o.id for o in game.prompt.options if o.data["path"] == VALLAKI_TO_TSER_FALLS)  # type: ignore[union-attr]
    return game, answer(game, "path", route)


def path_leds() -> list[int]:
    a, b, c = VALLAKI_TO_TSER_FALLS
    return [*LAYOUT.location(a), *LAYOUT.segment(a, b), *LAYOUT.location(b), *LAYOUT.segment(b, c), *LAYOUT.location(c)]


def first_lit_times(renderer: Renderer, leds: list[int], colour: tuple[int, int, int], until: float) -> list[float]:
    """When each LED first shows ``colour`` at full strength (the trail's head)."""
    times = {}
    for tick in range(int(until * 100) + 1):
        frame = renderer.frame(tick / 100)
        for led in leds:
            if led not in times and pixel(frame, led) == colour:
                times[led] = tick / 100
    return [times.get(led, float("inf")) for led in leds]


# -- the renderer, at chosen moments --------------------------------------------------------------

def test_the_monster_phase_gives_a_path_and_a_target() -> None:
    _, effects = carrionette_walks()
    kinds = [e["kind"] for e in effects]
    assert "monster-moved" in kinds and "target" in kinds
    moved = next(e for e in effects if e["kind"] == "monster-moved")
    assert moved["data"]["path"] == VALLAKI_TO_TSER_FALLS  # type: ignore[index]


def test_the_path_leds_light_in_path_order() -> None:
    game, effects = carrionette_walks()
    renderer = Renderer(LAYOUT, SHAPE, LOOKS)
    assert renderer.change(effects, state_of(game), now=0.0)
    leds = path_leds()
    times = first_lit_times(renderer, leds, ORANGE, until=1.2)
    assert times == sorted(times) and len(set(times)) == len(times), dict(zip(leds, times))
    assert times[0] == 0.0 and times[-1] == pytest.approx(2 * Timing().step)


def test_the_trail_is_timed_step_by_step() -> None:
    points = trail_points(LAYOUT, VALLAKI_TO_TSER_FALLS, step=0.6)
    assert [p.led for p in points] == path_leds()
    assert [round(p.at, 3) for p in points] == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2]


def test_until_the_trail_arrives_the_destination_shows_no_monster() -> None:
    game, effects = carrionette_walks()
    renderer = Renderer(LAYOUT, SHAPE, LOOKS)
    renderer.change(effects, state_of(game), now=0.0)
    destination = LAYOUT.location("tser-falls")[0]
    assert not looks_like(pixel(renderer.frame(0.5), destination), ORANGE)
    assert looks_like(pixel(renderer.frame(1.0), destination), ORANGE)


def test_the_target_pulses_after_the_move_then_path_and_target_stay_lit() -> None:
    game, effects = carrionette_walks()
    renderer = Renderer(LAYOUT, SHAPE, LOOKS)
    renderer.change(effects, state_of(game), now=0.0)
    timing = Timing()
    target = LAYOUT.location("tser-falls")[0]
    moving = 2 * timing.step + timing.dwell
    pulse = [pixel(renderer.frame(moving + t / 20), target)[0] for t in range(int(timing.pulse * 20))]
    assert max(pulse) - min(pulse) > 100  # it swells and fades
    assert not renderer.busy(moving + timing.pulse)
    still = renderer.frame(moving + timing.pulse + 1)
    assert all(looks_like(pixel(still, led), ORANGE) for led in path_leds())


def test_each_monster_has_its_own_rhythm_not_only_its_colour() -> None:
    patterns = {look.pattern_name for look in MONSTER_LOOKS.values()}
    colours = {look.colour for look in MONSTER_LOOKS.values()}
    assert len(patterns) == len(MONSTER_LOOKS) == len(colours)


def test_strahd_breathes_along_his_path() -> None:
    game = game_at(monsters={"strahd": "vallaki"}, heroes=[{**SAM, "at": "tser-falls"}])
    answer(game, "monster-card", "wand-2-1")
    effects = answer(game, "path", game.prompt.option_ids()[0])  # type: ignore[union-attr]
    assert any(e["kind"] == "monster-moved" for e in effects)
    renderer = Renderer(LAYOUT, SHAPE, LOOKS)
    renderer.change(effects, state_of(game), now=0.0)
    start = LAYOUT.location("vallaki")[0]
    levels = {pixel(renderer.frame(0.05 * t), start)[2] for t in range(20)}
    assert len(levels) > 5 and all(looks_like(pixel(renderer.frame(0.05 * t), start), BLUE) for t in range(20))


@pytest.mark.parametrize("level", range(TERROR_MAX))
def test_the_terror_leds_equal_the_terror_level(level: int) -> None:
    game = game_at(monsters={"carrionette": "vallaki"}, heroes=[{**SAM, "at": "krezk"}], terror=level)
    renderer = Renderer(LAYOUT, SHAPE, LOOKS)
    renderer.show_state(state_of(game))
    frame = renderer.frame(0.0)
    assert [lit(frame, LAYOUT.step("terror", step)[0]) for step in range(SHAPE.steps("terror"))] == \
        [0 < step <= level for step in range(SHAPE.steps("terror"))]


def test_a_villager_killed_raises_the_bar_with_a_blink_then_it_holds() -> None:
    game = game_at(monsters={"carrionette": "vallaki"}, heroes=[{**SAM, "at": "krezk"}],
                   villagers={"bildrath": "vallaki"}, terror=2)
    answer(game, "monster-card", "potion-2-2")
    effects = answer(game, "monster-dice", ["hit", "blank"])
    assert {"villager-defeated", "terror"} <= {e["kind"] for e in effects} and state_of(game)["terror"] == 3
    renderer = Renderer(LAYOUT, SHAPE, LOOKS)
    renderer.change(effects, state_of(game), now=0.0)
    step3 = LAYOUT.step("terror", 3)[0]
    seen = {pixel(renderer.frame(t / 20), step3) for t in range(200)}
    assert (0, 0, 0) in seen and any(looks_like(c, YELLOW) for c in seen)  # it blinked
    settled = renderer.frame(60.0)
    assert [lit(settled, LAYOUT.step("terror", s)[0]) for s in range(SHAPE.steps("terror"))] == \
        [0 < s <= 3 for s in range(SHAPE.steps("terror"))]


def test_near_the_maximum_the_bar_turns_vermillion_and_hatched() -> None:
    level = TERROR_MAX - 1
    game = game_at(monsters={"carrionette": "vallaki"}, heroes=[{**SAM, "at": "krezk"}], terror=level)
    renderer = Renderer(LAYOUT, SHAPE, LOOKS)
    renderer.show_state(state_of(game))
    frame = renderer.frame(0.0)
    bar = [pixel(frame, LAYOUT.step("terror", step)[0]) for step in range(1, level + 1)]
    assert all(looks_like(colour, VERMILLION) for colour in bar)
    assert bar[-1][0] > bar[-2][0] < bar[-3][0]  # bright, dim, bright from the top: hatched


def test_the_frenzy_marker_and_the_active_seat() -> None:
    game = game_at(monsters={"carrionette": "vallaki", "strahd": "krezk"},
                   heroes=[{**SAM, "at": "krezk"}, {"hero": "druid", "player": "Beau", "at": "vallaki"}],
                   frenzy="strahd", active="druid")
    renderer = Renderer(LAYOUT, SHAPE, LOOKS)
    renderer.show_state(state_of(game))
    frame = renderer.frame(0.0)
    strahd, carrionette = pixel(frame, LAYOUT.mat("strahd")[0]), pixel(frame, LAYOUT.mat("carrionette")[0])
    assert strahd == BLUE and looks_like(carrionette, ORANGE) and max(carrionette) < 60
    assert lit(frame, LAYOUT.seat(1)[0]) and looks_like(pixel(frame, LAYOUT.seat(1)[0]), WHITE, tolerance=4)
    assert not lit(frame, LAYOUT.seat(0)[0])


def test_a_defeat_flashes_and_the_mat_goes_dark() -> None:
    renderer = Renderer(LAYOUT, SHAPE, LOOKS)
    state = {"monsters": {"carrionette": {"id": "carrionette", "location": None, "defeated": True}}, "terror": 1}
    renderer.change([{"kind": "monster-defeated", "data": {"monster": "carrionette", "location": "vallaki"}}],
                    state, now=0.0)
    vallaki, mat = LAYOUT.location("vallaki")[0], LAYOUT.mat("carrionette")[0]
    assert {pixel(renderer.frame(t / 20), vallaki) for t in range(20)} >= {WHITE, ORANGE}
    assert lit(renderer.frame(0.0), mat) and not lit(renderer.frame(10.0), mat)


def test_a_rescue_sparkles_sky_blue() -> None:
    renderer = Renderer(LAYOUT, SHAPE, LOOKS)
    renderer.change([{"kind": "villager-rescued", "data": {"villager": "bildrath", "location": "tser-falls"}}], {}, 0.0)
    seen = {pixel(renderer.frame(t / 25), LAYOUT.location("tser-falls")[0]) for t in range(40)}
    assert SKY_BLUE in seen and (0, 0, 0) in seen


def test_winning_sweeps_the_board_and_losing_glows_red() -> None:
    renderer = Renderer(LAYOUT, SHAPE, LOOKS)
    renderer.change([{"kind": "game-won", "data": {"outcome": "won"}}], {"phase": "over"}, 0.0)
    lit_now = [sum(lit(renderer.frame(t), led) for led in LAYOUT.locations["krezk"]) for t in (0.0, 2.5)]
    assert renderer.busy(1.0) and not renderer.busy(Timing().finale)
    assert lit_now == [1, 1]
    renderer.change([{"kind": "game-lost", "data": {"outcome": "lost: terror"}}], {"phase": "over"}, 10.0)
    assert looks_like(pixel(renderer.frame(30.0), LAYOUT.location("krezk")[0]), VERMILLION)


def test_effects_the_leds_do_not_show_keep_the_picture() -> None:
    game, effects = carrionette_walks()
    renderer = Renderer(LAYOUT, SHAPE, LOOKS)
    renderer.change(effects, state_of(game), now=0.0)
    before = renderer.frame(30.0)
    assert not renderer.change([{"kind": "dice", "data": {"faces": ["hit"]}}], state_of(game), now=30.0)
    assert renderer.frame(31.0) == before


def test_unknown_or_malformed_effects_are_ignored() -> None:
    renderer = Renderer(LAYOUT, SHAPE, LOOKS)
    odd: list[dict[str, object]] = [{"kind": "monster-moved", "data": {"path": "nowhere"}}, {"kind": "terror", "data": {"level": "x"}},
           {"kind": "target", "data": {"location": "atlantis"}}, {"kind": "brand-new-kind"}, {"no": "kind"}]
    assert not renderer.change(odd, {"terror": "lots", "monsters": [], "mats": None}, 0.0)


# -- through a real Table, the animation thread and the simulated strip -----------------------------

FAST = Timing().scaled(0.25)


def test_a_table_change_reaches_the_simulated_strip_in_path_order(table_at: TableMaker) -> None:
    table = table_at({"monsters": {"carrionette": "vallaki"}, "heroes": [{**SAM, "at": "tser-falls"}]})
    board = start_leds(LedConfig(backend="simulated", brightness=1.0, budget_ma=100_000, fps=100), SHAPE,
                       looks=LOOKS, timing=FAST)
    attach(table, board)
    strip = board.strip
    assert isinstance(strip, SimulatedStrip)
    table.act({"key": "monster-card", "answer": "potion-2-2"}, table.version)
    route = next(o["id"] for o in table.view()["prompt"]["options"]  # type: ignore[index]
                 if o["data"]["path"] == VALLAKI_TO_TSER_FALLS)
    table.act({"key": "path", "answer": route}, table.version)
    assert wait_for(lambda: not board.animator.running)
    frames = [shown.data for shown in strip.frames()]
    first = [next((n for n, f in enumerate(frames) if pixel(f, led) == ORANGE), None) for led in path_leds()]
    assert None not in first and first == sorted(first), first  # type: ignore[type-var]
    board.close()


def test_the_power_budget_holds_on_every_frame_shown() -> None:
    config = LedConfig(backend="simulated", brightness=1.0, budget_ma=400, fps=100)
    board = start_leds(config, SHAPE, looks=LOOKS, timing=FAST)
    board.on_change(None, {"game": "ravenloft", "effects": [{"kind": "game-won", "data": {}}], "state": {"terror": 6}})
    assert wait_for(lambda: not board.animator.running)
    strip = board.strip
    assert isinstance(strip, SimulatedStrip) and len(strip.frames()) > 5
    assert max(estimate_ma(f.data, config.ma_per_channel) for f in strip.frames()) <= config.budget_ma
    board.close()
