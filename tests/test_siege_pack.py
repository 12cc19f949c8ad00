"""Siege of Barovia as a pack: the village map and the owner's corrections of it
(every guess marked unverified, every problem of a drawn map listed at once),
the views, the LED board generated from the grid, and the command line playing
whole games to their end."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import pytest

from companion.engine.errors import SetupError
from companion.engine.game import Game
from companion.games.datafiles import PackError
from companion.games.overlay import FORMAT, OwnerDataError
from companion.games.siege_of_barovia.gamepack import SiegePack
from companion.games.siege_of_barovia.leds import scene, shape_of
from companion.games.siege_of_barovia.mapdata import map_from_files, read_map_files, shipped_map
from hardware.leds.layout import shipped_layout
from service_process import ROOT
from siege_fixtures import SQUARE, new_game_of

PACK = SiegePack()


def owner(changes: dict[str, object], confirmed: tuple[str, ...] = ()) -> dict[str, object]:
    return {"format": FORMAT, "version": 1, "game": PACK.id, "changes": {"map": changes}, "confirmed": list(confirmed)}


# -- the map ------------------------------------------------------------------------------------------------

def test_the_shipped_map_is_ours_and_says_so_part_by_part() -> None:
    """No source keeps the rules' map: every part of ours is marked unverified, for the owner to correct."""
    files = read_map_files()
    body = files["map.json"]
    assert isinstance(body, dict)
    parts = [body[k] for k in ("grid", "entrance", "edge", "off_board", "barricades")] + body["places"]
    assert all(part["verified"] is False and part["note"] for part in parts)
    siege_map = shipped_map()
    assert (siege_map.columns, siege_map.rows) == (8, 8) and len(siege_map.places) == 6
    assert {p.code for p in siege_map.places.values()} == {"E3", "E4", "E5", "E7", "E8", "E11"}


def test_a_drawn_map_with_many_problems_lists_them_all() -> None:
    files = read_map_files()
    body = files["map.json"]
    assert isinstance(body, dict)
    body["entrance"]["square"] = "9,9"
    body["places"][0]["square"] = body["places"][1]["square"]
    body["barricades"]["lines"].append(["0,0", "2,2"])
    del body["places"][-1]
    with pytest.raises(PackError) as refused:
        map_from_files(files)
    text = "\n".join(refused.value.problems)
    for expected in ("the square in column 10, row 10 is not on the board", "are both on the square in column", "are not side by side",
                     "missing: estate"):
        assert expected in text


def test_the_owner_redraws_the_grid_and_moves_the_church() -> None:
    data = owner({"set": {"grid": {"columns": 10, "rows": 9, "verified": True}},
                  "places": {"church": {"square": "9,8"}}})
    game = Game(PACK.rules, {"setup": {"players": [{"name": "Ana"}]}, "data": data})
    assert (game.state.map.columns, game.state.map.rows) == (10, 9)
    assert game.state.map.square_of("church") == "9,8" and PACK.data_id(game)
    assert game.state.at("9,8", "zombie"), "the setup's zombie stands on the owner's church"
    assert PACK.pack_view(game)["map"]["columns"] == 10


def test_the_owner_data_desk_checks_a_map_and_reports_its_status() -> None:
    desk = PACK.owner_data()
    files, status = desk.check(owner({"places": {"tavern": {"square": "1,1"}}}, confirmed=("map.grid",)))
    assert isinstance(files["map.json"], dict) and status
    with pytest.raises((OwnerDataError, PackError)):
        desk.check(owner({"places": {"tavern": {"square": "40,1"}}}))
    with pytest.raises(SetupError, match="cannot be played"):
        Game(PACK.rules, {"setup": {"players": [{"name": "Ana"}]},
                          "data": owner({"places": {"tavern": {"square": "40,1"}}})})


def test_a_setup_that_cannot_be_is_refused_with_why() -> None:
    for setup, words in (({"players": []}, "from 1 to 6"), ({"players": [{}], "dm": "cat"}, "setup.dm"),
                         ({"players": [{}], "readings": {"ghoul_summon": "moon"}}, "not a choice"),
                         ({"players": [{}], "colour": 1}, "unknown field")):
        with pytest.raises(SetupError, match=words):
            Game(PACK.rules, {"setup": setup})


# -- views and LEDs -------------------------------------------------------------------------------------

def test_the_public_view_carries_the_board_and_the_dms_last_move() -> None:
    game = new_game_of(players=1, level="hard", seed=4)
    game.apply({"key": "hero-turn", "answer": {"action": "end"}})
    view = PACK.public_view(game)
    assert view["places"] == SQUARE and view["standing"] == ["tavern", "mercantile", "estate"]
    assert set(view["figures"]) >= {"hero-p1", "ghoul-1", "zombie-1", "strahd"}
    assert view["last_dm"]["by"] == "box" and view["last_dm"]["why"]
    json.dumps(view)
    assert PACK.seat_view(game, "p1") == {}


def test_the_led_board_is_the_grid_over_a_matrix_and_lights_figures_barricades_and_houses() -> None:
    siege_map = shipped_map()
    shape = shape_of(siege_map)
    layout = shipped_layout(shape)
    assert set(layout.locations) == set(siege_map.grid.places) and layout.count == 1024
    game = new_game_of(players=1)
    drawn = scene(PACK.public_view(game), shape)
    marked = {m.location for m in drawn.markers}
    assert {SQUARE["church"], SQUARE["graveyard"], SQUARE["tavern"], siege_map.entrance} <= marked
    assert {(line.a, line.b) for line in drawn.lines} == set(siege_map.barricades)


def test_the_siege_leds_command_writes_a_layout_for_the_owners_matrix(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "layout.json"
    done = subprocess.run([sys.executable, "-m", "companion.cli", "siege-leds", "--panel", "8x8", "--panels", "2x2",
                           "--out", str(out)], capture_output=True, text=True, cwd=ROOT, timeout=60,
                          env={**os.environ})
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["count"] == 256


# -- whole games --------------------------------------------------------------------------------------------

def play(seed: int, dm: str, policy: str = "random") -> Game:
    cli = PACK.cli()
    parser = argparse.ArgumentParser()
    cli.add_play_options(parser)
    args = parser.parse_args(["--heroes", "3", "--dm", dm])
    args.seed = seed
    game = Game(PACK.rules, {"setup": cli.setup(args)})
    chooser = cli.policy(policy, seed)
    while not game.over and game.version < 5000:
        cli.step(game, chooser)
    return game


def test_random_games_against_the_box_reach_an_end_for_seeds_1_to_20() -> None:
    outcomes = [PACK.outcome(play(seed, "box")) for seed in range(1, 21)]
    assert all(outcomes), outcomes


def test_scripted_heroes_can_win_against_an_easy_box() -> None:
    from companion.games.siege_of_barovia.simulate import play_out, scripted_heroes

    results = []
    for seed in range(6):
        game = new_game_of(players=3, level="easy", seed=seed)
        play_out(game, scripted_heroes(seed), 3000)
        results.append(game.state.outcome)
    assert "won" in results and all(results)


def test_play_from_the_command_line_prints_the_outcome() -> None:
    done = subprocess.run([sys.executable, "-m", "companion.cli", "play", "--game", PACK.id, "--heroes", "3",
                           "--dm", "box", "--policy", "random", "--seed", "7", "--quiet"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, env={**os.environ})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1].startswith("Outcome: ")


def test_every_reading_is_documented_with_both_choices() -> None:
    from companion.games.siege_of_barovia.readings import READINGS

    text = (ROOT / "docs" / "siege-of-barovia.md").read_text(encoding="utf-8")
    for reading in READINGS:
        assert f"`{reading.id}`" in text and all(f"`{choice.id}`" in text for choice in reading.choices), reading.id
    assert "(siege-of-barovia.md)" in (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
