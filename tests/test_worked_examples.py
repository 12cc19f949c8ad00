"""The rulebook's two worked examples, played through the engine on the
shipped board, whose distances were laid out to match them (checked first)."""

from __future__ import annotations

from typing import Iterator

import pytest

from companion.engine.game import Game
from companion.games.horrified_core.context import areas_of, board_graph
from companion.games.ravenloft.rules import RavenloftRules


@pytest.fixture(scope="module")
def rules() -> RavenloftRules:
    return RavenloftRules()


def distance(rules: RavenloftRules, a: str, b: str) -> int:
    """On the main board alone (no Strahd, so no castle mat)."""
    return board_graph(rules.pack, areas_of([])).distances(a)[b]


def answer(game: Game, key: str, value: object) -> list[str]:
    """Answer the prompt, which must be ``key``; return the texts of the effects."""
    assert game.prompt is not None, "the game ended early"
    assert game.prompt.key == key, f"expected to be asked {key!r}, was asked {game.prompt.key!r}: {game.prompt.text}"
    return [e.text for e in game.apply({"key": key, "answer": value}).effects]


def kinds(game: Game, key: str, value: object) -> Iterator[str]:
    assert game.prompt is not None and game.prompt.key == key, game.prompt
    return (e.kind for e in game.apply({"key": key, "answer": value}).effects)


EX1_POSITION = {
    "phase": "hero", "active": "druid", "terror": 3,
    "monsters": {"carrionette": "village-of-barovia", "baba-lysaga": "ruins-of-berez"},
    "heroes": [
        {"hero": "druid", "player": "Beau", "at": "svalich-woods"},
        {"hero": "paladin", "player": "Joel", "at": "vallaki"},
        {"hero": "sorcerer", "player": "Sam", "at": "van-richtens-tower", "perks": ["tatyana"]},
    ],
    "villagers": {"bildrath": "svalich-woods"},
    "items": {"longsword": "gates-of-barovia", "lockpicks": "gates-of-barovia", "mask": "gates-of-barovia"},
}


def test_rl_ex_1_board_fits_the_hero_phase_example(rules: RavenloftRules) -> None:
    """RL-EX-1."""
    assert distance(rules, "svalich-woods", "gates-of-barovia") == 1
    assert distance(rules, "gates-of-barovia", "tser-falls") == 1
    assert distance(rules, "gates-of-barovia", "village-of-barovia") == 1  # the Carrionette next door
    assert rules.pack.villager("bildrath").safe_location == "tser-falls"
    assert rules.pack.hero("druid").actions == 4


def test_rl_ex_1_hero_phase_example(rules: RavenloftRules) -> None:
    """RL-EX-1, RL-HA-1, RL-HA-2, RL-HA-3, RL-VI-2, RL-D20-3, RL-TU-2, RL-HA-7."""
    game = rules.new_game({"position": EX1_POSITION})
    state = game.state
    answer(game, "hero-action", {"action": "move", "to": "gates-of-barovia", "villagers": ["bildrath"]})
    assert state.heroes["druid"].location == state.villagers["bildrath"].location == "gates-of-barovia"
    answer(game, "hero-action", {"action": "pick_up", "items": ["longsword", "lockpicks", "mask"]})
    assert sorted(state.heroes["druid"].items) == ["lockpicks", "longsword", "mask"]
    rescued = answer(game, "hero-action", {"action": "guide", "villager": "bildrath", "to": "tser-falls"})
    assert any("Bildrath is safe" in text for text in rescued)
    answer(game, "perk", "second-wind")  # the Perk Beau draws for the rescue (RL-VI-2)
    assert state.villagers["bildrath"].location is None and state.heroes["druid"].perks == ["second-wind"]
    answer(game, "hero-action", {"action": "special"})
    assert any("critical failure" in text for text in answer(game, "special", [1]))
    assert state.actions_left == 0
    answer(game, "hero-action", {"action": "perk", "hero": "sorcerer", "perk": "tatyana"})
    assert state.actions_left == 2 and "tatyana" in state.perk_discard
    for roll, item, part, check in ((13, "longsword", 0, 15), (18, "mask", 1, 16)):
        answer(game, "hero-action", {"action": "special"})
        answer(game, "special", [roll])  # 6-19: a distanced Advance
        answer(game, "distanced-advance", {"action": "advance", "monster": "carrionette", "step": "swap",
                                           "item": item, "part": part})
        answer(game, "swap", [check])
    parts = getattr(state.mats["carrionette"], "parts")
    assert parts[:2] == ["longsword", "mask"]
    assert state.actions_left == 0
    answer(game, "hero-action", {"action": "end"})
    assert game.prompt is not None and game.prompt.key == "monster-card"


EX2_POSITION = {
    "phase": "monster", "active": "druid", "terror": 4, "frenzy": "carrionette",
    "monsters": {"carrionette": "village-of-barovia", "baba-lysaga": "ruins-of-berez"},
    "heroes": [
        {"hero": "druid", "player": "Beau", "at": "gates-of-barovia", "items": ["lockpicks"]},
        {"hero": "paladin", "player": "Joel", "at": "vallaki", "items": ["longsword", "rod"]},
        {"hero": "sorcerer", "player": "Sam", "at": "van-richtens-tower", "items": ["warhammer"]},
    ],
}


def test_rl_ex_2_board_fits_the_monster_phase_example(rules: RavenloftRules) -> None:
    """RL-EX-2."""
    assert distance(rules, "ruins-of-berez", "gates-of-barovia") == 2  # Baba Lysaga to the Druid
    assert distance(rules, "ruins-of-berez", "vallaki") == 2  # ... and to the Paladin
    assert distance(rules, "ruins-of-berez", "van-richtens-tower") > 2
    assert distance(rules, "village-of-barovia", "van-richtens-tower") == 1  # the Carrionette to the Sorcerer
    assert distance(rules, "village-of-barovia", "gates-of-barovia") == 1  # ... and to the Druid (see the note)
    assert rules.pack.item("mask").location == "van-richtens-tower"
    assert rules.pack.item("club").strength == rules.pack.item("warhammer").strength == 5


def test_rl_ex_2_monster_phase_example(rules: RavenloftRules) -> None:
    """RL-EX-2, RL-MP-2, RL-MP-3, RL-MP-4, RL-MP-5, RL-MP-8, RL-MP-13, RL-MP-16, RL-MP-18, RL-CA-1."""
    game = rules.new_game({"position": EX2_POSITION})
    state = game.state
    answer(game, "monster-card", "far-worse-things-than-death")
    placed = answer(game, "item", "mask")
    assert "Put the Mask at Van Richten's Tower." in placed
    assert state.items_at["mask"] == "van-richtens-tower"
    # The Wand Event and the Wand symbol are ignored; the Spellbook moves both monsters: Beau picks the order.
    assert game.prompt is not None and set(game.prompt.option_ids()) == {"baba-lysaga/monster", "carrionette/monster"}
    answer(game, "monster-order", "baba-lysaga/monster")
    assert game.prompt is not None and set(game.prompt.option_ids()) == {"gates-of-barovia", "vallaki"}
    moved = answer(game, "move-toward", "vallaki")  # toward Joel's Paladin
    assert "Move Baba Lysaga from Ruins of Berez to Old Bonegrinder (1 location)." in moved
    assert any("does not attack" in text for text in moved)
    # The Carrionette is one step from both the Sorcerer and the Druid: the engine must ask (the rules index note).
    assert game.prompt is not None and set(game.prompt.option_ids()) == {"van-richtens-tower", "gates-of-barovia"}
    moved = answer(game, "move-toward", "van-richtens-tower")
    assert state.monsters["carrionette"].location == "van-richtens-tower"
    assert "Carrionette attacks the Sorcerer." in moved
    answer(game, "monster-dice", ["hit", "pow"])
    needle = answer(game, "item", "club")  # Silver Needle first: the Club, strength 5
    assert state.heroes["sorcerer"].items == [] and {"club", "warhammer"} <= set(state.item_discard)
    assert any("Warhammer" in text for text in needle)
    assert game.prompt is not None and game.prompt.key == "defend"
    assert "discard" not in game.prompt.option_ids()  # no item left to stop the hit
    fallen = answer(game, "defend", "fall")
    assert state.heroes["sorcerer"].location is None
    assert state.terror == 5
    assert any("Terror marker up to 5" in text for text in fallen)
    assert state.active_hero.id == "paladin"  # "It is now Joel's turn."
