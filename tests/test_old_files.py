"""Files written before the Horrified core was split out still load: a game log and a
saved state the engine wrote then (tests/data/before-the-core/, all four monsters with
their mats mid-game) replay and load to the same state, in the same JSON shape, with
each mat rebuilt as its plug-in's own type."""

from __future__ import annotations

import json
from pathlib import Path

from companion.engine.game import Game
from companion.engine.plain import to_plain
from companion.gamelog import load_log, replay
from companion.games.ravenloft.monsters.baba_lysaga_mat import HutMat
from companion.games.ravenloft.monsters.carrionette_mat import CarrionetteMat
from companion.games.ravenloft.monsters.gulthias_tree_mat import TreeMat
from companion.games.ravenloft.monsters.strahd_mat import StrahdMat
from companion.games.ravenloft.rules import RavenloftRules
from companion.games.ravenloft.state import HeroState

OLD = Path(__file__).resolve().parent / "data" / "before-the-core"


def saved() -> dict[str, object]:
    data = json.loads((OLD / "saved-state.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_an_old_game_log_replays_to_the_state_saved_with_it() -> None:
    game = replay(RavenloftRules(), load_log(OLD / "game-log.json"), "game-log.json")
    assert to_plain(game.state) == saved()["state"]


def test_an_old_saved_state_loads_as_it_was_written_and_plays_on() -> None:
    rules = RavenloftRules()
    game = Game(rules, saved())
    assert to_plain(game.state) == saved()["state"]
    kinds = {monster: type(mat) for monster, mat in game.state.mats.items()}
    assert kinds == {"carrionette": CarrionetteMat, "baba-lysaga": HutMat, "strahd": StrahdMat,
                     "gulthias-tree": TreeMat}
    assert all(isinstance(hero, HeroState) for hero in game.state.heroes.values())
    assert game.prompt is not None
    game.apply({"key": game.prompt.key, "answer": game.prompt.option_ids()[0]})
    assert game.version == 1
