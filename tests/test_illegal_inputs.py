"""Illegal inputs are refused with an error that names what and why, and the
game stays exactly as it was (state, version, prompt)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine.errors import IllegalInput, NotOffered, SetupError, StaleInput
from companion.engine.game import Game
from companion.engine.plain import to_plain
from companion.games.ravenloft.rules import RavenloftRules

RULES = RavenloftRules()

TABLE = {
    "phase": "hero", "active": "sorcerer",
    "monsters": {"carrionette": "vallaki", "baba-lysaga": "ruins-of-berez"},
    "heroes": [{"hero": "sorcerer", "player": "Sam", "at": "krezk", "items": ["rod"]},
               {"hero": "druid", "player": "Beau", "at": "gates-of-barovia"}],
    "villagers": {"bildrath": "krezk"},
    "items": {"club": "krezk"},
}


def refused(game: Game, entry: dict[str, Any], error: type[Exception], match: str, version: int | None = None) -> None:
    before, prompt, count = to_plain(game.state), game.prompt, game.version
    with pytest.raises(error, match=match):
        game.apply(entry, version=version)
    assert to_plain(game.state) == before and game.prompt == prompt and game.version == count


@pytest.fixture
def game() -> Game:
    return RULES.new_game({"position": TABLE})


@pytest.mark.parametrize("action, match", [
    ({"action": "move", "to": "vallaki"}, "Vallaki is not next to Krezk"),
    ({"action": "move", "to": "atlantis"}, "'atlantis' is not a location on this board"),
    ({"action": "move"}, "needs 'to'"),
    ({"action": "move", "to": "lake-zarovich", "villagers": ["mad-mage-of-mount-baratok"]}, "is not at Krezk"),
    ({"action": "fly", "to": "vallaki"}, "no hero action called 'fly'"),
    ({"action": "pick_up", "items": ["whip"]}, "not at Krezk: whip"),
    ({"action": "guide", "villager": "bildrath", "to": "vallaki"}, "Guide moves a villager"),
    ({"action": "defeat", "monster": "carrionette", "items": ["rod"]}, "spare part"),
    ({"action": "defeat", "monster": "strahd", "items": ["rod"]}, "no monster 'strahd' in this game"),
    ({"action": "advance", "monster": "carrionette", "step": "swap", "item": "rod", "part": 0}, "must be at Vallaki"),
    ({"action": "perk", "hero": "sorcerer", "perk": "tatyana"}, "does not hold the Perk card"),
])
def test_illegal_hero_actions_change_nothing(game: Game, action: dict[str, Any], match: str) -> None:
    """RL-HA-1, RL-HA-2, RL-HA-3, RL-HA-5, RL-HA-6: refusals name what and why."""
    refused(game, {"key": "hero-action", "answer": action}, IllegalInput, match)


def test_a_malformed_answer_is_refused(game: Game) -> None:
    refused(game, {"key": "hero-action", "answer": "move to vallaki"}, IllegalInput, "expected an action")
    refused(game, {"answer_to": "hero-action"}, IllegalInput, "must be an object with an 'answer'")


def test_a_choice_that_was_not_offered_is_refused() -> None:
    game = RULES.new_game({"position": {**TABLE, "phase": "monster"}})
    game.apply({"key": "monster-card", "answer": "ambush"})
    refused(game, {"key": "item", "answer": "no-such-item"}, NotOffered, "'no-such-item' was not one of the choices")
    refused(game, {"key": "monster-card", "answer": "ambush"}, IllegalInput, "answers 'monster-card' but the game is asking 'item'")


def test_a_card_already_drawn_is_not_offered_again() -> None:
    game = RULES.new_game({"position": {**TABLE, "phase": "monster", "played_cards": ["ambush"]}})
    refused(game, {"key": "monster-card", "answer": "ambush"}, NotOffered, "'ambush' was not one of the choices")


def test_a_stale_tablet_is_refused(game: Game) -> None:
    game.apply({"key": "hero-action", "answer": {"action": "move", "to": "lake-zarovich"}}, version=0)
    refused(game, {"key": "hero-action", "answer": {"action": "move", "to": "vallaki"}}, StaleInput,
            "saw version 0 of the game but it is now at version 1", version=0)


def test_no_action_left_is_refused(game: Game) -> None:
    for _ in range(2):
        game.apply({"answer": {"action": "move", "to": "lake-zarovich"}})
        game.apply({"answer": {"action": "move", "to": "krezk"}})
    refused(game, {"answer": {"action": "move", "to": "lake-zarovich"}}, IllegalInput, "has no actions left")


@pytest.mark.parametrize("change, match", [
    ({"heroes": [{"hero": "sorcerer", "at": "narnia"}]}, r"position.heroes\[0\].at: no location 'narnia'"),
    ({"monsters": {"dracula": "vallaki"}}, "position.monsters.dracula: no such monster"),
    ({"terror": 99}, "position.terror: must be a whole number from 0 to"),
    ({"frenzy": "strahd"}, "position.frenzy: 'strahd' is not a monster in play"),
    ({"items": {"club": "krezk"}, "discard": ["club"]}, "in two places at once: club"),
    ({"active": "paladin"}, "position.active: 'paladin' is not one of the heroes"),
])
def test_a_broken_position_is_refused(change: dict[str, Any], match: str) -> None:
    with pytest.raises(SetupError, match=match):
        RULES.new_game({"position": {**TABLE, **change}})


@pytest.mark.parametrize("setup, match", [
    ({"monsters": ["dracula"], "heroes": ["sorcerer"]}, "unknown or repeated monsters"),
    ({"monsters": ["strahd"], "heroes": ["sorcerer", "sorcerer"]}, "each hero can be played by one player only"),
    ({"monsters": [], "heroes": ["sorcerer"]}, "choose 1 to 4 monsters"),
    ({"monsters": ["strahd"], "heroes": ["sorcerer"] * 6}, "choose 1 to 5 heroes"),
])
def test_a_broken_setup_is_refused(setup: dict[str, Any], match: str) -> None:
    """RL-SU-3, RL-SU-4: 1-4 monsters, 1-5 different heroes."""
    with pytest.raises(SetupError, match=match):
        RULES.new_game({"setup": setup})


@pytest.mark.parametrize("change, match", [
    ({"villager": {"bildrath": "krezk"}}, "position: unknown field"),
    ({"heroes": [{"hero": "sorcerer", "at": ["krezk"]}]}, r"heroes\[0\].at: no location \['krezk'\]"),
    ({"heroes": [{"hero": "sorcerer", "player": ["Sam"]}]}, r"heroes\[0\].player: the player's name must be some text"),
    ({"heroes": [{"hero": "sorcerer", "relics": ["sunsword"]}]}, r"heroes\[0\].relics: no relic called sunsword"),
    ({"active": ["sorcerer"]}, "position.active"),
    ({"monsters": {"gulthias-tree": "yester-hill"}, "mats": {"gulthias-tree": {"blights": ["nowhere", None, None]}}},
     "Twig Blight 1 is at 'nowhere'"),
    ({"mats": {"carrionette": {"parts": [None]}}}, "'parts' needs 3 entries"),
    ({"items": {"club": None}}, "an item on the board needs a location"),
])
def test_a_position_with_wrong_shapes_is_refused_with_the_field(change: dict[str, Any], match: str) -> None:
    with pytest.raises(SetupError, match=match):
        RULES.new_game({"position": {**TABLE, **change}})


def test_manual_changes_are_all_checked_before_any_is_applied() -> None:
    """A manual event's report: one bad change refuses the whole report."""
    from dataclasses import replace

    from companion.games.ravenloft.pack_types import AttackLine, Effect, MonsterCard

    manual = MonsterCard("by-hand", "By Hand", 0, Effect("manual", {}, "Everyone gives an item away."),
                         AttackLine((), 0, 0))
    rules = RavenloftRules(replace(RULES.pack, cards=RULES.pack.cards + (manual,)))
    game = rules.new_game({"position": {**TABLE, "phase": "monster"}})
    game.apply({"key": "monster-card", "answer": "by-hand"})
    bad = {"action": "done", "changes": [{"give": "rod", "to": "druid"}, {"place": "hero:sorcerer", "at": "narnia"}]}
    refused(game, {"key": "manual-event", "answer": bad}, IllegalInput, "no such location")
    good = {"action": "done", "changes": [{"give": "rod", "to": "druid"}, {"terror": 1}]}
    game.apply({"key": "manual-event", "answer": good})
    assert game.state.heroes["druid"].items == ["rod"] and game.state.terror == 1
