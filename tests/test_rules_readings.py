"""Ravenloft at its edges, exactly as the rulebook and the pack's own cards say: Perk cards,
Dark Gifts, Share, the Gem, and only the questions the rules give. Each test plays the rule
through the engine on the shipped board and names the rule ID or card id it holds; the
readings chosen where a text could be read two ways are listed in docs/engine.md."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.engine.errors import IllegalInput, SetupError
from companion.engine.game import Game
from companion.games.ravenloft.ownerdata import FORMAT
from companion.games.ravenloft.pack_types import AttackLine, Effect, MonsterCard
from companion.games.ravenloft.rules import RavenloftRules

BASE = RavenloftRules()


def card(card_id: str, symbols: tuple[str, ...], move: int = 1, dice: int = 1,
         event: Effect = Effect("none")) -> MonsterCard:
    return MonsterCard(card_id, card_id.replace("-", " ").title(), 0, event, AttackLine(symbols, move, dice))


CARDS = (
    card("chest-0-1", ("chest",), 0, 1),
    card("shield-0-1", ("shield",), 0, 1),
    card("potion-1-1", ("potion",), 1, 1),
    card("trickery", ("chest",), 0, 1, Effect("manual", {}, "Every hero hands one item to the hero on their left.")),
)
RULES = RavenloftRules(replace(BASE.pack, cards=BASE.pack.cards + CARDS))


def hero(hero_id: str, at: str | None, **more: Any) -> dict[str, Any]:
    players = {"sorcerer": "Sam", "druid": "Beau", "paladin": "Joel", "ranger": "Ana", "warlock": "Kit"}
    return {"hero": hero_id, "player": players[hero_id], "at": at, **more}


def game_at(phase: str, monsters: dict[str, str | None], heroes: list[dict[str, Any]], **extra: Any) -> Game:
    return RULES.new_game({"position": {"phase": phase, "monsters": monsters, "heroes": heroes, **extra}})


def ask(game: Game, key: str, value: object) -> list[str]:
    assert game.prompt is not None, "the game is over"
    assert game.prompt.key == key, f"asked {game.prompt.key!r} ({game.prompt.text}), not {key!r}"
    return [e.text for e in game.apply({"key": key, "answer": value}).effects]


def asked(game: Game) -> str:
    assert game.prompt is not None, "the game is over"
    return game.prompt.key


def checks(game: Game, key: str, value: object) -> list[dict[str, Any]]:
    """The d20 check effects an answer made."""
    assert game.prompt is not None and game.prompt.key == key, game.prompt
    return [dict(e.data) for e in game.apply({"key": key, "answer": value}).effects if e.kind == "check"]


SWAP = {"action": "advance", "monster": "carrionette", "step": "swap", "part": 2}  # part 2 matches nothing a sling is


def carrionette_phase(*heroes: dict[str, Any]) -> Game:
    """A Hero Phase with the Carrionette at Krezk; the first hero is active."""
    return game_at("hero", {"carrionette": "krezk"}, list(heroes))


# -- RL-D20-2, RL-D20-3 and the "+N to your next roll" Perks -------------------------------------

def test_rl_d20_2_a_roll_boosted_to_20_by_a_perk_card_gains_a_perk() -> None:
    """RL-D20-2: "any die roll result of 20 or higher (even if boosted by a Perk card)": 17 + 4."""
    game = carrionette_phase(hero("sorcerer", "krezk", items=["sling"], perks=["morninglords-blessing"]))
    ask(game, "hero-action", {"action": "perk", "hero": "sorcerer", "perk": "morninglords-blessing"})
    ask(game, "hero-action", {**SWAP, "item": "sling"})
    said = ask(game, "swap", [17])
    assert asked(game) == "perk", said  # the Perk card the 21 earns
    assert any("add 4" in s for s in said)


def test_rl_d20_2_item_strength_and_the_paladins_bonus_are_not_part_of_the_rolls_result() -> None:
    """RL-D20-2 as the rulebook reads: the Perk goes by the roll's result, not the Advance's total."""
    game = carrionette_phase(hero("sorcerer", "krezk", items=["sling"]))
    game.state.bonuses.roll_bonus = 6  # as if the Paladin's table had given +6 this Hero Phase
    ask(game, "hero-action", {**SWAP, "item": "sling"})
    found = checks(game, "swap", [17])
    assert found[0]["total"] == 23 and asked(game) == "hero-action"  # a success, but no Perk


def test_rl_d20_3_a_perk_card_changes_a_1_so_it_is_no_critical_failure() -> None:
    """RL-D20-3: "a roll of 1 is always a critical failure ... although a Perk card may adjust that value"."""
    game = carrionette_phase(hero("sorcerer", "krezk", items=["sling", "dagger"], perks=["morninglords-blessing"]))
    ask(game, "hero-action", {"action": "perk", "hero": "sorcerer", "perk": "morninglords-blessing"})
    ask(game, "hero-action", {**SWAP, "item": "sling"})
    said = ask(game, "swap", [1])
    assert not any("critical failure" in s for s in said)
    assert any("1 + 4" in s or "5 + 0 = 5" in s for s in said), said


def test_rl_d20_3_tarokka_foresight_turns_a_1_into_a_chosen_number() -> None:
    """RL-D20-3 and card tarokka-foresight: "change the result by up to 3 either way (even a 1)"."""
    game = carrionette_phase(hero("sorcerer", "krezk", items=["sling"], perks=["tarokka-foresight"]))
    ask(game, "hero-action", {**SWAP, "item": "sling"})
    ask(game, "swap", [1])
    ask(game, "roll-perk", "perk:sorcerer:tarokka-foresight")
    assert game.prompt is not None and game.prompt.option_ids() == ["2", "3", "4"]
    found = checks(game, "roll-perk-value", "4")
    assert found and found[0]["value"] == 4 and "tarokka-foresight" in game.state.perk_discard


def test_morninglords_blessing_adds_to_the_next_roll_only() -> None:
    """Card morninglords-blessing: "Add 4 to your next Advance or Defeat roll": used up by that roll."""
    game = carrionette_phase(hero("sorcerer", "krezk", items=["sling", "dagger"], perks=["morninglords-blessing"]))
    ask(game, "hero-action", {"action": "perk", "hero": "sorcerer", "perk": "morninglords-blessing"})
    ask(game, "hero-action", {**SWAP, "item": "sling"})
    assert checks(game, "swap", [5])[0]["total"] == 9  # 5 + 4, caught: the sling is discarded
    ask(game, "hero-action", {**SWAP, "item": "dagger"})
    assert checks(game, "swap", [5])[0]["total"] == 5  # no +4 the second time
    assert game.state.bonuses.next_roll == 0


def test_tarokka_foresight_can_lower_a_roll_for_a_better_row_of_the_tile() -> None:
    """Card tarokka-foresight, "either way": the Sorcerer's 6 (move a monster) becomes a 3 (place an item)."""
    game = carrionette_phase(hero("sorcerer", "vallaki", perks=["tarokka-foresight"]))
    ask(game, "hero-action", {"action": "special"})
    ask(game, "special", [6])
    ask(game, "roll-perk", "perk:sorcerer:tarokka-foresight")
    ask(game, "roll-perk-value", "3")
    assert asked(game) == "item"  # the 2-5 row draws an item from the Haversack


# -- RL-TU-2: any player, any number of Perk cards ------------------------------------------------

def test_rl_tu_2_after_one_roll_changing_perk_the_next_holder_is_asked_too() -> None:
    """RL-TU-2: "ANY player may play any number of Perk cards": two holders change one roll."""
    game = carrionette_phase(hero("sorcerer", "krezk", items=["sling"], perks=["tarokka-foresight"]),
                             hero("druid", "vallaki", perks=["vistani-luck"]))
    ask(game, "hero-action", {**SWAP, "item": "sling"})
    ask(game, "swap", [10])
    assert game.prompt is not None and "perk:druid:vistani-luck" in game.prompt.option_ids()
    ask(game, "roll-perk", "perk:sorcerer:tarokka-foresight")
    ask(game, "roll-perk-value", "13")
    assert game.prompt is not None and game.prompt.option_ids() == ["keep", "perk:druid:vistani-luck"]
    ask(game, "roll-perk", "perk:druid:vistani-luck")
    found = checks(game, "roll-perk-value", "15")
    assert found[0]["success"] and found[0]["value"] == 15


# -- RL-HA-8: a Dark Gift at any time ---------------------------------------------------------------

def test_rl_ha_8_a_gift_that_changes_the_roll_is_offered_before_the_roll_takes_effect() -> None:
    """RL-HA-8: the Druid's Gift (+2 to Advance rolls) turns a 14 into a success if accepted now."""
    game = carrionette_phase(hero("druid", "krezk", items=["sling"]))
    ask(game, "hero-action", {**SWAP, "item": "sling"})
    ask(game, "swap", [14])
    assert game.prompt is not None and "gift:druid" in game.prompt.option_ids()
    found = checks(game, "roll-perk", "gift:druid")
    assert game.state.heroes["druid"].gift and found[0]["success"] and found[0]["total"] == 16


def test_rl_ha_8_no_gift_question_where_it_cannot_change_the_roll() -> None:
    """RL-HA-8 offered only where it matters: a 20 succeeds without the Druid's +2, a 3 fails with it."""
    for face in (18, 3):
        game = carrionette_phase(hero("druid", "krezk", items=["sling"]))
        ask(game, "hero-action", {**SWAP, "item": "sling"})
        ask(game, "swap", [face])
        assert asked(game) == "hero-action"


def test_rl_ha_8_a_gift_accepted_in_the_middle_of_a_monster_phase() -> None:
    """RL-HA-8, "at any time on any player's turn (even before an effect resolves)": the Sorcerer
    accepts Yog while the Monster dice are being rolled, and Yog stops the hit."""
    game = game_at("monster", {"carrionette": "vallaki"}, [hero("sorcerer", "vallaki")])
    ask(game, "monster-card", "chest-0-1")
    assert asked(game) == "monster-dice"
    version = game.version
    step = game.apply({"anytime": {"action": "gift", "hero": "sorcerer"}})
    assert step.prompt is not None and step.prompt.key == "monster-dice" and game.version == version + 1
    said = ask(game, "monster-dice", ["hit"])
    assert any("ignores the first hit" in s for s in said) and game.state.heroes["sorcerer"].location == "vallaki"
    with pytest.raises(IllegalInput, match="already accepted"):
        game.apply({"anytime": {"action": "gift", "hero": "sorcerer"}})
    with pytest.raises(IllegalInput, match="only move that can be made at any time"):
        game.apply({"anytime": {"action": "move", "to": "krezk"}})


def test_rl_ha_8_a_gift_accepted_at_any_time_replays_and_undoes_like_any_input() -> None:
    game = game_at("monster", {"carrionette": "vallaki"}, [hero("sorcerer", "vallaki")])
    ask(game, "monster-card", "chest-0-1")
    game.apply({"anytime": {"action": "gift", "hero": "sorcerer"}})
    again = RULES.new_game(game.origin, game.inputs)
    assert again.state.heroes["sorcerer"].gift and again.prompt == game.prompt
    game.undo(1)
    assert not game.state.heroes["sorcerer"].gift


# -- RL-BL-2: the Gem moves exactly the item's Strength -------------------------------------------

def hut_game(items: list[str]) -> Game:
    mat = {"gem": "top", "face_down": ["lower-left"], "revealed": {"upper-left": "scarecrow-1", "centre": "witch"},
           "removed": ["raven-1", "scarecrow-2"]}
    return game_at("hero", {"baba-lysaga": "krezk"}, [hero("sorcerer", "krezk", items=items)],
                   mats={"baba-lysaga": mat})


def test_rl_bl_2_the_gem_moves_a_number_of_spaces_equal_to_the_strength() -> None:
    """RL-BL-2: "move the Gem a number of unoccupied spaces equal to the discarded Item's Strength"."""
    game = hut_game(["garlic"])  # Mundane, Strength 2
    gem = {"action": "advance", "monster": "baba-lysaga", "step": "gem", "item": "garlic"}
    with pytest.raises(IllegalInput, match="moves exactly 2 empty spaces"):
        game.apply({"answer": {**gem, "to": "upper-right"}})  # one space: fewer than the Strength
    ask(game, "hero-action", {**gem, "to": "lower-right"})
    assert game.state.mats["baba-lysaga"].gem == "lower-right"  # type: ignore[union-attr]


def test_rl_bl_2_the_door_ends_the_gems_move_and_a_boxed_in_gem_goes_as_far_as_it_can() -> None:
    """RL-BL-2 read with the Door as the Hut's way out (docs/engine.md, Readings)."""
    game = hut_game(["cauldron", "broom"])  # Strength 6 and 1
    gem = {"action": "advance", "monster": "baba-lysaga", "step": "gem"}
    ask(game, "hero-action", {**gem, "item": "cauldron", "to": "door"})  # three spaces, then the Door
    assert game.state.mats["baba-lysaga"].gem == "door"  # type: ignore[union-attr]


# -- RL-HA-4: Share is one action ---------------------------------------------------------------------

def test_rl_ha_4_one_share_action_swaps_items_both_ways_and_passes_them_on() -> None:
    """RL-HA-4: heroes at one location exchange any number of items, both ways, for one action;
    an item handed on may be handed on again in the same Share."""
    game = carrionette_phase(hero("sorcerer", "vallaki", items=["sling"]), hero("druid", "vallaki", items=["rod"]),
                             hero("paladin", "vallaki", items=["garlic"]))
    left = game.state.actions_left
    ask(game, "hero-action", {"action": "share", "give": [
        {"item": "rod", "from": "druid", "to": "sorcerer"}, {"item": "sling", "from": "sorcerer", "to": "druid"},
        {"item": "garlic", "from": "paladin", "to": "druid"}, {"item": "garlic", "from": "druid", "to": "sorcerer"}]})
    heroes = game.state.heroes
    assert heroes["sorcerer"].items == ["rod", "garlic"] and heroes["druid"].items == ["sling"]
    assert heroes["paladin"].items == [] and game.state.actions_left == left - 1


def test_rl_ha_4_the_menu_offers_one_share_of_everything_the_heroes_hold() -> None:
    """RL-HA-4: the tablet's menu (and the simulator) gets one Share per location, not one per item."""
    from companion.games.ravenloft.choices import hero_actions
    from companion.games.ravenloft.simulate import context_for

    game = carrionette_phase(hero("sorcerer", "vallaki", items=["sling", "dagger"]), hero("druid", "vallaki", items=["rod"]))
    shares = [a for a in hero_actions(context_for(RULES, game.state)) if a["action"] == "share"]
    assert len(shares) == 1
    given = {(g["item"], g["from"]) for g in shares[0]["give"]}  # type: ignore[union-attr]
    assert given == {("sling", "sorcerer"), ("dagger", "sorcerer"), ("rod", "druid")}


# -- Only the questions the rules give (RL-MP-5) ------------------------------------------------------

def test_rl_mp_5_strahds_fury_asks_no_order_when_nothing_depends_on_it() -> None:
    """RL-ST-1, RL-MP-5: everyone takes one hit whatever the order: no "whose hit next" question."""
    game = game_at("monster", {"strahd": "dining-hall"}, [hero("paladin", "dining-hall"), hero("druid", "dining-hall")],
                   villagers={"bildrath": "dining-hall"})
    ask(game, "monster-card", "shield-0-1")
    ask(game, "attack-target", "hero:paladin")
    said = ask(game, "monster-dice", ["pow"])
    assert "fury-order" not in game.state.played_cards and game.state.terror == 3  # two heroes and Bildrath fell
    assert any("Bildrath is killed" in s for s in said)


def test_rl_mp_5_strahds_fury_asks_whom_a_ward_shields_when_it_cannot_shield_all() -> None:
    """RL-MP-20 with RL-MP-5: one Warlock ward, two heroes hit: which one it shields changes the outcome."""
    game = game_at("monster", {"strahd": "dining-hall"}, [hero("paladin", "dining-hall"), hero("druid", "dining-hall")])
    game.state.bonuses.ward = 1
    ask(game, "monster-card", "shield-0-1")
    ask(game, "attack-target", "hero:paladin")
    ask(game, "monster-dice", ["pow"])
    assert asked(game) == "fury-order" and game.prompt is not None
    assert game.prompt.option_ids() == ["hero:paladin", "hero:druid"]
    said = ask(game, "fury-order", "hero:druid")
    assert any("ward stops 1 hit on the Druid" in s for s in said) and any("Paladin is defeated" in s for s in said)


def test_rl_mp_5_no_tree_or_blight_question_with_no_blight_on_the_board() -> None:
    """RL-GT-2, RL-MP-5: with every Twig Blight cut down and nobody at the Tree, nothing can act
    whatever the order, so the Potion symbol asks nothing about the Tree and a Blight."""
    game = game_at("monster", {"gulthias-tree": "yester-hill", "carrionette": "vallaki"}, [hero("sorcerer", "krezk")],
                   mats={"gulthias-tree": {"blights": [None, None, None]}})
    ask(game, "monster-card", "potion-1-1")
    assert asked(game) != "monster-order"


def test_rl_mp_5_the_tree_and_a_blight_are_still_ordered_when_the_tree_may_bring_blights_back() -> None:
    """RL-GT-4 with RL-MP-5: someone stands with the Tree, whose POW may return the Blights; then the
    order of the Tree and "a Twig Blight" can change what happens, so it is asked."""
    game = game_at("monster", {"gulthias-tree": "yester-hill"}, [hero("sorcerer", "yester-hill")],
                   mats={"gulthias-tree": {"blights": [None, None, None]}})
    ask(game, "monster-card", "potion-1-1")
    assert asked(game) == "monster-order"


# -- The pack's own card text --------------------------------------------------------------------------

def test_vistani_wagon_puts_the_hero_where_another_hero_stands() -> None:
    """Card vistani-wagon: "Put your hero at the location of another hero"."""
    game = carrionette_phase(hero("sorcerer", "krezk", perks=["vistani-wagon"]), hero("druid", "vallaki"))
    wagon = {"action": "perk", "hero": "sorcerer", "perk": "vistani-wagon"}
    with pytest.raises(IllegalInput, match="no other hero is at Lake Zarovich"):
        game.apply({"answer": {**wagon, "to": "lake-zarovich"}})
    ask(game, "hero-action", {**wagon, "to": "vallaki"})
    assert game.state.heroes["sorcerer"].location == "vallaki"


def test_bildraths_mercantile_puts_the_items_at_their_locations() -> None:
    """Card bildraths-mercantile: "Draw three items from the Haversack and put them at their locations"."""
    game = carrionette_phase(hero("sorcerer", "vallaki", perks=["bildraths-mercantile"]))
    ask(game, "hero-action", {"action": "perk", "hero": "sorcerer", "perk": "bildraths-mercantile"})
    for item in ("sling", "rod", "garlic"):
        ask(game, "item", item)
    assert game.state.heroes["sorcerer"].items == []
    assert {i: game.state.items_at[i] for i in ("sling", "rod", "garlic")} == {
        "sling": "yester-hill", "rod": "svalich-woods", "garlic": "village-of-barovia"}


def test_rictavios_disguise_no_monster_attacks_the_hero_next_monster_phase() -> None:
    """Card rictavios-disguise: "no monster attacks them in the next Monster Phase"."""
    game = game_at("hero", {"carrionette": "vallaki"}, [hero("sorcerer", "vallaki", perks=["rictavios-disguise"])],
                   villagers={"bildrath": "vallaki"})
    ask(game, "hero-action", {"action": "perk", "hero": "sorcerer", "perk": "rictavios-disguise"})
    ask(game, "hero-action", {"action": "end"})
    ask(game, "monster-card", "chest-0-1")
    said = ask(game, "monster-dice", ["hit"])  # the Carrionette goes for the villager instead
    assert game.state.villagers["bildrath"].location is None and game.state.heroes["sorcerer"].location == "vallaki"
    assert any("attacks Bildrath" in s for s in said) or game.state.terror == 1


def test_a_druid_with_the_gift_raises_terror_once_more_when_defeated() -> None:
    """Hero druid, Dark Gift: "Whenever you are defeated, raise the terror level one extra time"."""
    game = game_at("monster", {"carrionette": "vallaki"}, [hero("druid", "vallaki", gift=True)])
    ask(game, "monster-card", "chest-0-1")
    said = ask(game, "monster-dice", ["hit"])
    assert any("Druid is defeated" in s for s in said) and game.state.terror == 2


def test_a_ranger_with_the_gift_loses_the_items_that_stop_a_hit_for_good() -> None:
    """Hero ranger, Dark Gift: "Every item you discard to stop a hit is lost for good"."""
    game = game_at("monster", {"carrionette": "vallaki"}, [hero("ranger", "vallaki", items=["sling"], gift=True)])
    ask(game, "monster-card", "chest-0-1")
    ask(game, "monster-dice", ["hit"])
    ask(game, "defend", "discard")
    assert game.state.removed_items == ["sling"] and "sling" not in game.state.item_discard


def test_a_warlock_with_the_gift_raises_terror_on_a_special_roll_of_1() -> None:
    """Hero warlock, Dark Gift: "Each time your special roll's result is a 1, raise the terror level by one"."""
    game = carrionette_phase(hero("warlock", "vallaki", gift=True))
    ask(game, "hero-action", {"action": "special"})
    ask(game, "special", [1])
    assert game.state.terror == 1


# -- The change editor: a give and a spared hero (done by hand) ----------------------------------------

def test_vistani_trickery_done_by_hand_hands_items_on_and_spares_a_hero() -> None:
    """Card vistani-trickery (a manual event): the players say who handed what to whom, and that a
    hero is not attacked this phase; an item cannot be handed on twice in one report."""
    game = game_at("monster", {"carrionette": "vallaki"}, [hero("sorcerer", "vallaki", items=["sling"]),
                                                          hero("druid", "vallaki", items=["rod"])])
    ask(game, "monster-card", "trickery")
    with pytest.raises(IllegalInput, match="more than once"):
        game.apply({"answer": {"action": "done", "changes": [{"give": "sling", "to": "druid"},
                                                             {"give": "sling", "to": "druid"}]}})
    said = ask(game, "manual-event", {"action": "done", "changes": [
        {"give": "sling", "to": "druid"}, {"give": "rod", "to": "sorcerer"}, {"spare": "sorcerer"}]})
    assert game.state.heroes["druid"].items == ["sling"] and game.state.heroes["sorcerer"].items == ["rod"]
    assert asked(game) == "monster-dice"  # no choice of target between the two heroes: the Druid it is
    assert any("attacks the Druid" in s for s in said)


# -- Positions with the owner's data ----------------------------------------------------------------------

def owner_data(**changes: Any) -> dict[str, Any]:
    return {"format": FORMAT, "version": 1, "game": "ravenloft", "changes": changes, "confirmed": []}


MY_ROAD = owner_data(board={"connections": {"add": [["krezk", "vallaki"]]}})
POSITION = {"phase": "monster", "monsters": {"carrionette": "vallaki"}, "heroes": [hero("sorcerer", "krezk")]}


def test_a_position_plays_on_the_owners_data_given_beside_it() -> None:
    """A position with ``data`` beside it plays on the owner's board (their road Krezk-Vallaki)."""
    game = BASE.new_game({"position": POSITION, "data": MY_ROAD})
    assert game.state.data_id
    ask(game, "monster-card", "ambush")
    while asked(game) == "item":  # Ambush! places two items first
        ask(game, "item", game.prompt.option_ids()[0])  # type: ignore[union-attr]
    assert game.state.monsters["carrionette"].location == "krezk"  # one step along the owner's road


def test_a_position_whose_data_cannot_be_used_is_refused_with_the_reason() -> None:
    broken = owner_data(board={"connections": {"add": [["krezk", "nowhere"]]}})
    with pytest.raises(SetupError, match="game data this game starts with is refused.*nowhere"):
        BASE.new_game({"position": POSITION, "data": broken})
    with pytest.raises(SetupError, match="unknown field"):
        BASE.new_game({"position": POSITION, "dta": MY_ROAD})


def test_cli_resolve_plays_a_custom_board_with_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``companion resolve POSITION.json --data OWNER.json --card ID``, and the same data beside the position."""
    from companion.cli import main

    position, data = tmp_path / "position.json", tmp_path / "owner.json"
    position.write_text(json.dumps(POSITION), encoding="utf-8")
    data.write_text(json.dumps(MY_ROAD), encoding="utf-8")
    assert main(["resolve", str(position), "--data", str(data), "--card", "ambush", "--policy", "first"]) == 0
    assert "Move Carrionette from Vallaki to Krezk" in capsys.readouterr().out
    both = tmp_path / "both.json"
    both.write_text(json.dumps({"position": POSITION, "data": MY_ROAD}), encoding="utf-8")
    assert main(["resolve", str(both), "--card", "ambush", "--policy", "first"]) == 0
    assert "Move Carrionette from Vallaki to Krezk" in capsys.readouterr().out
    assert main(["resolve", str(both), "--data", str(data), "--card", "ambush", "--policy", "first"]) == 2
    assert "already carries its own game data" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(owner_data(board={"connections": {"add": [["krezk", "nowhere"]]}})), encoding="utf-8")
    assert main(["resolve", str(position), "--data", str(bad), "--card", "ambush", "--policy", "first"]) == 2
    assert "nowhere" in capsys.readouterr().err


def test_rl_ha_8_a_gift_accepted_at_any_time_is_kept_on_disk_and_replays(tmp_path: Path) -> None:
    """The store keeps an ``anytime`` input like an answer: a box restarted after a Gift accepted
    mid-phase opens the game where it was."""
    from companion.games import pack_makers
    from companion.store import Store
    from companion.table import Tables

    with Store(tmp_path / "companion.sqlite") as store:
        tables = Tables(store, pack_makers(""))
        game_id = store.create_game("ravenloft", "Gift", {"position": {
            "phase": "monster", "monsters": {"carrionette": "vallaki"}, "heroes": [hero("sorcerer", "vallaki")]}})
        table = tables.get(game_id)
        table.act({"key": "monster-card", "answer": "flight-of-the-wereravens"}, table.version)
        table.act({"anytime": {"action": "gift", "hero": "sorcerer"}}, table.version)
        before = table.view()
    with Store(tmp_path / "companion.sqlite") as again:
        after = Tables(again, pack_makers("")).get(game_id).view()
    assert after == before and after["state"]["heroes"]["sorcerer"]["gift"] is True  # type: ignore[index]
