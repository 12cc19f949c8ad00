"""The Monster Phase, Frenzy, turns and the end of the game, on the shipped
board with test cards whose attack lines we choose (the real cards are
unverified pack data, so the rules are tested apart from them)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.engine.errors import IllegalInput
from companion.engine.game import Game
from companion.engine.plain import to_plain
from companion.games.ravenloft.pack_types import AttackLine, Effect, MonsterCard
from companion.games.ravenloft.rules import RavenloftRules

BASE = RavenloftRules()


def card(card_id: str, symbols: tuple[str, ...], move: int = 1, dice: int = 1, items: int = 0,
         event: Effect = Effect("none")) -> MonsterCard:
    return MonsterCard(card_id, card_id.replace("-", " ").title(), items, event, AttackLine(symbols, move, dice))


TEST_CARDS = (
    card("potion-2-2", ("potion",), 2, 2),
    card("potion-3-1", ("potion",), 3, 1),
    card("chest-1-1", ("chest",), 1, 1),
    card("frenzy-potion", ("frenzy", "potion"), 1, 0),
    card("spellbook-1-2", ("spellbook",), 1, 2),
    card("wand-only", ("wand",), 1, 1),
    card("sword-1-1", ("sword",), 1, 1),
    card("shield-1-1", ("shield",), 1, 1),
    card("none-attack", (), 0, 0),
    card("one-item", (), 0, 0, items=1),
    card("all-three", ("chest",), 0, 0, items=1, event=Effect("frenzy_next", {}, "Frenzy moves on.")),
    card("bildrath-enters", (), 0, 0, event=Effect("place_villager", {"villager": "bildrath", "location": "krezk"}, "Bildrath comes to Krezk.")),
    card("wand-event", (), 0, 0, event=Effect("move_monsters", {"symbol": "wand", "steps": 2}, "Wand monsters move.")),
    card("potion-event", (), 0, 0, event=Effect("move_monsters", {"symbol": "potion", "steps": 2}, "Potion monsters move.")),
    card("frenzy-next", (), 0, 0, event=Effect("frenzy_next", {}, "The Frenzy marker moves on.")),
)
RULES = RavenloftRules(replace(BASE.pack, cards=BASE.pack.cards + TEST_CARDS))


def game_at(position: dict[str, Any], rules: RavenloftRules = RULES) -> Game:
    return rules.new_game({"position": position})


def ask(game: Game, key: str, value: object) -> list[str]:
    assert game.prompt is not None, "the game is over"
    assert game.prompt.key == key, f"asked {game.prompt.key!r} ({game.prompt.text}), not {key!r}"
    return [e.text for e in game.apply({"key": key, "answer": value}).effects]


def settle(game: Game, said: list[str]) -> list[str]:
    """Answer the route and tie questions with the first option, gathering what was said."""
    while game.prompt is not None and game.prompt.key in ("path", "move-toward", "monster-order", "which-blight"):
        said = said + ask(game, game.prompt.key, game.prompt.option_ids()[0])
    return said


def effect_kinds(game: Game, key: str, value: object) -> list[str]:
    assert game.prompt is not None and game.prompt.key == key, game.prompt
    return [e.kind for e in game.apply({"key": key, "answer": value}).effects]


def monster_phase(monsters: dict[str, str | None], heroes: list[dict[str, Any]], **extra: Any) -> Game:
    return game_at({"phase": "monster", "monsters": monsters, "heroes": heroes, **extra})


SORCERER_AT = lambda where, **more: {"hero": "sorcerer", "player": "Sam", "at": where, **more}  # noqa: E731
DRUID_AT = lambda where, **more: {"hero": "druid", "player": "Beau", "at": where, **more}  # noqa: E731


# -- moving (RL-MP-7 .. RL-MP-12) ---------------------------------------------------------

def test_rl_mp_7_and_rl_mp_12_moves_along_a_chosen_shortest_path() -> None:
    """RL-MP-7, RL-MP-12."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("tser-falls")])
    ask(game, "monster-card", "potion-2-2")
    assert game.prompt is not None and game.prompt.key == "path"  # via Old Bonegrinder or Madam Eva's Tent
    assert sorted(o.data["path"][1] for o in game.prompt.options) == ["madam-evas-tent", "old-bonegrinder"]  # type: ignore[index]
    chosen = next(o.id for o in game.prompt.options if "madam-evas-tent" in o.data["path"])  # type: ignore[operator]
    said = ask(game, "path", chosen)
    assert "Move Carrionette from Vallaki to Tser Falls (2 locations)." in said
    assert game.state.monsters["carrionette"].location == "tser-falls"


def test_rl_mp_12_no_question_when_the_walked_part_is_the_same() -> None:
    # From Vallaki to Tser Falls there are two routes, but a one-step walk toward a hero
    # at Madam Eva's Tent has only one: no path prompt.
    """RL-MP-12."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("madam-evas-tent")])
    ask(game, "monster-card", "chest-1-1")
    assert game.prompt is not None and game.prompt.key == "monster-dice"


def test_rl_mp_10_entering_a_location_with_a_character_ends_the_move() -> None:
    """RL-MP-10."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("madam-evas-tent")])
    said = ask(game, "monster-card", "potion-3-1")
    assert "Move Carrionette from Vallaki to Madam Eva's Tent (1 location)." in said


def test_rl_mp_9_a_monster_with_a_character_does_not_move() -> None:
    """RL-MP-9."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("vallaki"), DRUID_AT("madam-evas-tent")])
    said = ask(game, "monster-card", "potion-2-2")
    assert any("starts with a character" in s for s in said)
    assert game.state.monsters["carrionette"].location == "vallaki"


def test_rl_mp_11_no_character_on_the_board_no_move() -> None:
    """RL-MP-11."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT(None)])
    said = ask(game, "monster-card", "potion-2-2")
    assert any("No character is on the board" in s for s in said)
    assert game.state.monsters["carrionette"].location == "vallaki"


def test_rl_mp_8_hero_beats_villager_at_the_same_distance() -> None:
    """RL-MP-8."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("lake-zarovich")], villagers={"bildrath": "madam-evas-tent"})
    said = ask(game, "monster-card", "potion-2-2")
    assert game.state.monsters["carrionette"].location == "lake-zarovich", said


def test_rl_mp_8_a_closer_villager_beats_a_hero() -> None:
    """RL-MP-8."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("krezk")], villagers={"bildrath": "madam-evas-tent"})
    ask(game, "monster-card", "potion-2-2")
    assert game.state.monsters["carrionette"].location == "madam-evas-tent"


def test_rl_mp_8_equally_close_heroes_are_the_active_players_choice() -> None:
    """RL-MP-8."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("lake-zarovich"), DRUID_AT("madam-evas-tent")])
    ask(game, "monster-card", "potion-2-2")
    assert game.prompt is not None and game.prompt.key == "move-toward"
    assert game.prompt.player == "sorcerer" and set(game.prompt.option_ids()) == {"lake-zarovich", "madam-evas-tent"}
    ask(game, "move-toward", "madam-evas-tent")
    assert game.state.monsters["carrionette"].location == "madam-evas-tent"


# -- attacking (RL-MP-13 .. RL-MP-19) --------------------------------------------------------

def test_rl_mp_14_hero_before_villager_and_a_choice_between_heroes() -> None:
    """RL-MP-14."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("vallaki"), DRUID_AT("vallaki")],
                         villagers={"bildrath": "vallaki"})
    ask(game, "monster-card", "chest-1-1")
    assert game.prompt is not None and game.prompt.key == "attack-target"
    assert set(game.prompt.option_ids()) == {"hero:sorcerer", "hero:druid"}
    assert "Carrionette attacks the Druid." in ask(game, "attack-target", "hero:druid")


def test_rl_mp_15_roll_the_dice_shown_and_rl_mp_19_a_hit_villager_dies() -> None:
    """RL-MP-15, RL-MP-19."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("krezk")], villagers={"bildrath": "vallaki"}, terror=2)
    ask(game, "monster-card", "potion-2-2")
    assert game.prompt is not None and game.prompt.key == "monster-dice" and game.prompt.count == 2
    said = ask(game, "monster-dice", ["hit", "blank"])
    assert game.state.villagers["bildrath"].location is None and game.state.terror == 3
    assert any("Bildrath is killed" in s for s in said)


def test_rl_mp_18_discard_one_item_per_hit_or_fall() -> None:
    """RL-MP-18."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("vallaki", items=["club", "rod", "whip"])], terror=1)
    ask(game, "monster-card", "potion-2-2")
    ask(game, "monster-dice", ["hit", "hit"])
    assert game.prompt is not None and game.prompt.key == "defend" and game.prompt.option_ids()[0] == "discard"
    ask(game, "defend", "discard")
    assert game.prompt is not None and game.prompt.key == "defend-items" and game.prompt.min_picks == 2
    with pytest.raises(IllegalInput):
        game.apply({"key": "defend-items", "answer": ["club"]})
    ask(game, "defend-items", ["club", "whip"])
    assert game.state.heroes["sorcerer"].items == ["rod"] and {"club", "whip"} <= set(game.state.item_discard)
    assert game.state.heroes["sorcerer"].location == "vallaki" and game.state.terror == 1


def test_rl_mp_13_no_character_at_the_end_of_the_move_no_attack() -> None:
    """RL-MP-13."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("krezk")])
    said = settle(game, ask(game, "monster-card", "chest-1-1"))
    assert game.state.monsters["carrionette"].location in ("wizard-of-wines", "lake-zarovich")
    assert any("does not attack" in s for s in said)


def test_rl_mp_17_hits_land_only_if_the_target_is_still_there() -> None:
    """Baba Lysaga's Power carries her away from her target before the hit (RL-MP-16, RL-BL-1). (RL-MP-17)"""
    game = monster_phase({"baba-lysaga": "vallaki"}, [SORCERER_AT("vallaki", items=["rod"])],
                         villagers={"bildrath": "krezk"})
    ask(game, "monster-card", "spellbook-1-2")
    said = settle(game, ask(game, "monster-dice", ["hit", "pow"]))
    assert game.state.monsters["baba-lysaga"].location == "krezk"
    assert any("no longer there" in s for s in said)
    assert game.state.heroes["sorcerer"].items == ["rod"] and game.state.heroes["sorcerer"].location == "vallaki"


def test_rl_mp_20_warlock_ward_from_the_hero_phase_stops_a_hit() -> None:
    """RL-MP-20."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("vallaki")])
    state = to_plain(game.state)
    state["bonuses"]["ward"] = 1
    game = RULES.new_game({"state": state})
    ask(game, "monster-card", "chest-1-1")
    said = ask(game, "monster-dice", ["hit"])
    assert any("ward stops 1 hit" in s for s in said) and game.state.heroes["sorcerer"].location == "vallaki"


def test_rl_mp_20_ranger_slows_monsters_this_monster_phase() -> None:
    """RL-MP-20."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("tser-falls")])
    state = to_plain(game.state)
    state["bonuses"]["slow_monsters"] = 1
    game = RULES.new_game({"state": state})
    settle(game, ask(game, "monster-card", "potion-2-2"))  # 2 - 1 = 1 step
    assert game.state.monsters["carrionette"].location in ("old-bonegrinder", "madam-evas-tent")


# -- the card (RL-MP-1 .. RL-MP-6) -----------------------------------------------------------

def test_rl_mp_1_and_rl_end_3_an_empty_deck_loses_the_game() -> None:
    """RL-MP-1, RL-END-3."""
    everything = [c.id for c in RULES.pack.cards]
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("krezk")], played_cards=everything)
    assert game.over and game.state.outcome == "lost: out of time"


def test_rl_mp_2_items_then_event_then_attack() -> None:
    """RL-MP-2."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("krezk")])
    assert effect_kinds(game, "monster-card", "all-three") == ["card-drawn"]
    kinds = effect_kinds(game, "item", "rod")
    assert kinds.index("item-placed") < kinds.index("event") < kinds.index("symbol") < kinds.index("card-discarded")
    assert "all-three" in game.state.played_cards and "all-three" not in game.state.deck


def test_rl_mp_3_an_event_for_an_absent_symbol_is_ignored() -> None:
    """RL-MP-3."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("krezk")])
    assert "event-ignored" in effect_kinds(game, "monster-card", "wand-event")
    assert game.state.monsters["carrionette"].location == "vallaki"


def test_rl_mp_4_a_symbol_on_no_mat_is_ignored() -> None:
    """RL-MP-4."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("krezk")])
    assert "symbol-ignored" in effect_kinds(game, "monster-card", "wand-only")


def test_rl_mp_5_active_player_orders_monsters_sharing_a_symbol() -> None:
    """RL-MP-5."""
    game = monster_phase({"carrionette": "vallaki", "baba-lysaga": "krezk"}, [SORCERER_AT("abbey-of-saint-markovia")])
    ask(game, "monster-card", "spellbook-1-2")
    assert game.prompt is not None and game.prompt.key == "monster-order"
    assert set(game.prompt.option_ids()) == {"carrionette/monster", "baba-lysaga/monster"}


def test_rl_mp_6_one_monster_can_act_twice() -> None:
    """RL-MP-6."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("krezk")], frenzy="carrionette")
    said = settle(game, ask(game, "monster-card", "frenzy-potion"))
    assert sum("Carrionette moves and attacks" in s for s in said) == 2
    assert game.state.monsters["carrionette"].location == "krezk"


def test_rl_vi_1_villagers_enter_where_the_card_says() -> None:
    """RL-VI-1."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("krezk")])
    ask(game, "monster-card", "bildrath-enters")
    assert game.state.villagers["bildrath"].location == "krezk"


def test_rl_gt_3_events_naming_a_symbol_do_not_move_twig_blights() -> None:
    """RL-GT-3."""
    game = monster_phase({"gulthias-tree": "yester-hill"}, [SORCERER_AT("krezk")],
                         mats={"gulthias-tree": {"blights": ["abbey-of-saint-markovia", None, None]}})
    ask(game, "monster-card", "potion-event")
    mat = game.state.mats["gulthias-tree"]
    assert getattr(mat, "blights")[0] == "abbey-of-saint-markovia"
    assert game.state.monsters["gulthias-tree"].location == "yester-hill"


# -- Frenzy (RL-FR-*) ---------------------------------------------------------------------------

def test_rl_fr_1_and_rl_su_3_frenzy_starts_on_the_lowest_order() -> None:
    """RL-FR-1, RL-SU-3."""
    game = BASE.new_game({"setup": {"monsters": ["gulthias-tree", "strahd", "baba-lysaga"], "heroes": ["sorcerer"]}})
    assert list(game.state.monsters) == ["baba-lysaga", "strahd", "gulthias-tree"]
    assert game.state.frenzy == "baba-lysaga"


@pytest.mark.parametrize("start, expected", [("carrionette", "strahd"), ("strahd", "gulthias-tree"),
                                             ("gulthias-tree", "carrionette")])
def test_rl_fr_2_next_monster_wraps_to_the_lowest(start: str, expected: str) -> None:
    """RL-FR-2."""
    monsters = {"carrionette": "vallaki", "strahd": "dining-hall", "gulthias-tree": "yester-hill"}
    game = monster_phase(monsters, [SORCERER_AT("krezk")], frenzy=start)
    ask(game, "monster-card", "frenzy-next")
    assert game.state.frenzy == expected


def test_rl_fr_2_with_no_other_monster_the_marker_stays() -> None:
    """RL-FR-2."""
    game = monster_phase({"carrionette": "vallaki", "strahd": None}, [SORCERER_AT("krezk")])
    ask(game, "monster-card", "frenzy-next")
    assert game.state.frenzy == "carrionette"


def _ready_to_defeat_carrionette(**extra: Any) -> Game:
    return game_at({"phase": "hero", "monsters": {"carrionette": "vallaki", "strahd": "dining-hall"},
                    "frenzy": "carrionette", "terror": 3,
                    "heroes": [SORCERER_AT("vallaki", items=["club", "warhammer"])],
                    "mats": {"carrionette": {"parts": ["rod", "whip", "broom"]}}, **extra})


def test_rl_fr_3_rl_end_4_rl_ha_6_defeat_passes_frenzy_and_lowers_terror() -> None:
    """RL-FR-3, RL-END-4, RL-HA-6."""
    game = _ready_to_defeat_carrionette()
    ask(game, "hero-action", {"action": "defeat", "monster": "carrionette", "items": ["club"]})
    said = ask(game, "defeat", [12])
    assert game.state.monsters["carrionette"].defeated and game.state.frenzy == "strahd"
    assert game.state.terror == 2 and any("Carrionette is defeated" in s for s in said)
    assert {"rod", "whip", "broom", "club"} <= set(game.state.item_discard)  # mat items go too


def test_rl_end_1_defeating_the_last_monster_wins_at_once() -> None:
    """RL-END-1."""
    game = _ready_to_defeat_carrionette(monsters={"carrionette": "vallaki"})
    ask(game, "hero-action", {"action": "defeat", "monster": "carrionette", "items": ["club", "warhammer"]})
    ask(game, "defeat", [5])
    assert game.over and game.state.outcome == "won"


def test_rl_end_2_terror_at_the_maximum_loses_at_once() -> None:
    """RL-END-2."""
    top = RULES.pack.board.terror_max
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("krezk")], villagers={"bildrath": "vallaki"},
                         terror=top - 1)
    ask(game, "monster-card", "chest-1-1")
    ask(game, "monster-dice", ["hit"])
    assert game.over and game.state.outcome == "lost: terror" and game.state.terror == top


def test_rl_ha_6_defeat_before_the_challenge_is_refused() -> None:
    """RL-HA-6."""
    game = _ready_to_defeat_carrionette(mats={"carrionette": {"parts": ["rod", None, None]}})
    with pytest.raises(IllegalInput, match="spare part"):
        game.apply({"key": "hero-action", "answer": {"action": "defeat", "monster": "carrionette", "items": ["club"]}})
    assert game.version == 0 and game.state.heroes["sorcerer"].items == ["club", "warhammer"]


# -- setup and turns (RL-SU-*, RL-TU-*) ------------------------------------------------------

def test_rl_su_1_solo_starts_at_terror_3_and_rl_su_4_rl_su_5_setup() -> None:
    """RL-SU-1, RL-SU-4, RL-SU-5."""
    game = BASE.new_game({"setup": {"monsters": ["carrionette"], "heroes": [{"hero": "sorcerer", "player": "Sam"}]}})
    assert game.state.terror == 3
    assert game.state.heroes["sorcerer"].location == "tser-falls"
    assert game.prompt is not None and game.prompt.key == "perk"
    ask(game, "perk", "tatyana")
    for _ in range(12):
        assert game.prompt is not None and game.prompt.key == "item"
        ask(game, "item", game.prompt.option_ids()[0])
    assert len(game.state.items_at) == 12 and game.state.heroes["sorcerer"].perks == ["tatyana"]
    assert game.prompt is not None and game.prompt.key == "hero-action"  # solo: no first-player roll
    assert game.state.terror == 3 and len(game.state.deck) == 30  # RL-SU-2


def _through_setup(game: Game) -> None:
    while game.prompt is not None and game.prompt.key in ("perk", "item"):
        ask(game, game.prompt.key, game.prompt.option_ids()[0])


def test_rl_su_6_highest_roll_starts_ties_roll_again() -> None:
    """RL-SU-6."""
    game = BASE.new_game({"setup": {"monsters": ["carrionette"], "heroes": ["sorcerer", "druid", "paladin"]}})
    _through_setup(game)
    ask(game, "first-player", [12, 17, "symbol"][:2] + [17])
    assert game.prompt is not None and game.prompt.key == "first-player" and game.prompt.count == 2
    ask(game, "first-player", [3, 9])
    assert game.state.active_hero.id == "paladin"


def test_rl_tu_1_hero_phase_then_monster_phase_then_the_next_player() -> None:
    """RL-TU-1."""
    game = game_at({"phase": "hero", "monsters": {"carrionette": "vallaki"},
                    "heroes": [SORCERER_AT("krezk"), DRUID_AT("abbey-of-saint-markovia")]})
    ask(game, "hero-action", {"action": "end"})
    ask(game, "monster-card", "none-attack")
    assert game.prompt is not None and game.prompt.key == "hero-action" and game.prompt.player == "druid"
    assert game.state.actions_left == RULES.pack.hero("druid").actions


def test_rl_tu_3_a_defeated_hero_returns_at_the_gates_with_full_actions() -> None:
    """RL-TU-3."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("krezk"), DRUID_AT(None, items=["rod"])])
    said = ask(game, "monster-card", "none-attack")
    assert game.state.heroes["druid"].location == "gates-of-barovia" and game.state.heroes["druid"].items == ["rod"]
    assert any("back at Gates of Barovia" in s for s in said)
    assert game.state.actions_left == RULES.pack.hero("druid").actions


# -- hero actions (RL-HA-*) -------------------------------------------------------------------------

def hero_phase(heroes: list[dict[str, Any]], **extra: Any) -> Game:
    return game_at({"phase": "hero", "monsters": {"carrionette": "yester-hill"}, "heroes": heroes, **extra})


def test_rl_ha_1_move_only_to_an_adjacent_location() -> None:
    """RL-HA-1."""
    game = hero_phase([SORCERER_AT("krezk")])
    with pytest.raises(IllegalInput, match="Vallaki is not next to Krezk"):
        game.apply({"answer": {"action": "move", "to": "vallaki"}})
    assert game.state.heroes["sorcerer"].location == "krezk" and game.state.actions_left == 4
    ask(game, "hero-action", {"action": "move", "to": "lake-zarovich"})
    assert game.state.heroes["sorcerer"].location == "lake-zarovich" and game.state.actions_left == 3


def test_rl_ha_4_share_between_heroes_at_one_location() -> None:
    """RL-HA-4."""
    game = hero_phase([SORCERER_AT("krezk"), DRUID_AT("krezk", items=["rod", "club"]),
                       {"hero": "paladin", "player": "Joel", "at": "krezk"}])
    ask(game, "hero-action", {"action": "share", "give": [{"item": "rod", "from": "druid", "to": "paladin"},
                                                            {"item": "club", "from": "druid", "to": "paladin"}]})
    assert game.state.heroes["paladin"].items == ["rod", "club"]
    far = hero_phase([SORCERER_AT("krezk"), DRUID_AT("vallaki", items=["rod"])])
    with pytest.raises(IllegalInput, match="not a hero at Krezk"):
        far.apply({"answer": {"action": "share", "give": [{"item": "rod", "from": "druid", "to": "sorcerer"}]}})


def test_rl_ha_8_dark_gift_is_free_permanent_and_flips_the_table() -> None:
    """RL-HA-8."""
    game = hero_phase([SORCERER_AT("krezk")])
    ask(game, "hero-action", {"action": "gift", "hero": "sorcerer"})
    assert game.state.heroes["sorcerer"].gift and game.state.actions_left == 4
    ask(game, "hero-action", {"action": "special"})
    said = ask(game, "special", [4])  # 2-5 placed an item before the Gift; after it, nothing
    assert game.prompt is not None and game.prompt.key == "hero-action", said
    with pytest.raises(IllegalInput, match="already accepted"):
        game.apply({"answer": {"action": "gift", "hero": "sorcerer"}})


def test_rl_he_1_yog_ignores_the_first_hit_each_turn_and_doubles_villager_terror() -> None:
    """RL-HE-1."""
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("vallaki", gift=True)], villagers={"bildrath": "krezk"})
    ask(game, "monster-card", "chest-1-1")
    said = ask(game, "monster-dice", ["hit"])
    assert any("ignores the first hit" in s for s in said) and game.state.heroes["sorcerer"].location == "vallaki"
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("krezk", gift=True)], villagers={"bildrath": "vallaki"})
    ask(game, "monster-card", "chest-1-1")
    ask(game, "monster-dice", ["hit"])
    assert game.state.terror == 2


def test_rl_ha_9_paladin_bonus_ends_with_the_hero_phase() -> None:
    """RL-HA-9."""
    game = hero_phase([{"hero": "paladin", "player": "Joel", "at": "krezk"}])
    ask(game, "hero-action", {"action": "special"})
    ask(game, "special", [5])  # the Paladin's 2-9 row: +2 for the rest of this Hero Phase
    assert game.state.bonuses.roll_bonus > 0
    ask(game, "hero-action", {"action": "end"})
    assert game.state.bonuses.roll_bonus == 0


def test_rl_d20_1_symbol_counts_as_20_and_rl_d20_2_gives_a_perk_in_the_hero_phase() -> None:
    """RL-D20-1, RL-D20-2."""
    game = hero_phase([SORCERER_AT("krezk")])
    ask(game, "hero-action", {"action": "special"})
    ask(game, "special", ["symbol"])
    assert game.prompt is not None and game.prompt.key == "perk"  # 20 or more in a Hero Phase


def test_rl_d20_2_no_perk_for_a_20_in_the_monster_phase() -> None:
    """RL-D20-2."""
    game = monster_phase({"gulthias-tree": "yester-hill"}, [SORCERER_AT("wizard-of-wines")],
                         mats={"gulthias-tree": {"blights": ["krezk", None, None]}})
    ask(game, "monster-card", "potion-2-2")
    while game.prompt is not None and game.prompt.key in ("monster-order", "which-blight", "path", "move-toward", "attack-target"):
        ask(game, game.prompt.key, game.prompt.option_ids()[0])
    ask(game, "monster-dice", ["pow", "blank"])
    assert game.prompt is not None and game.prompt.key == "necrosynthesis"
    ask(game, "necrosynthesis", [20])
    assert game.prompt is None or game.prompt.key != "perk"


def test_rl_it_3_empty_haversack_is_refilled_from_the_discard() -> None:
    """RL-IT-3."""
    everything = sorted(i.id for i in RULES.pack.items)
    game = monster_phase({"carrionette": "vallaki"}, [SORCERER_AT("krezk")], discard=everything)
    assert game.state.haversack == []
    said = effect_kinds(game, "monster-card", "one-item")
    assert game.state.item_discard == [] and len(game.state.haversack) == 60
    assert game.prompt is not None and game.prompt.key == "item", said


def test_rl_st_6_and_rl_su_9_the_castle_mat_joins_only_with_strahd() -> None:
    """RL-ST-6, RL-SU-9."""
    with_strahd = game_at({"phase": "hero", "monsters": {"strahd": "dining-hall"},
                           "heroes": [SORCERER_AT("ravenloft-grand-stairway")]})
    ask(with_strahd, "hero-action", {"action": "move", "to": "stairs"})
    assert with_strahd.state.heroes["sorcerer"].location == "stairs"
    without = hero_phase([SORCERER_AT("ravenloft-grand-stairway")])
    with pytest.raises(IllegalInput, match="'stairs' is not a location on this board"):
        without.apply({"answer": {"action": "move", "to": "stairs"}})


def test_rl_it_4_single_type_icon_takes_one_or_more_of_that_type_only() -> None:
    """RL-IT-4: Weapon items (the single-type icon): one or more, all Weapons, strengths add up."""
    game = _ready_to_defeat_carrionette(heroes=[SORCERER_AT("vallaki", items=["club", "warhammer", "staff"])])
    with pytest.raises(IllegalInput, match="only weapon items count"):
        game.apply({"answer": {"action": "defeat", "monster": "carrionette", "items": ["club", "staff"]}})
    ask(game, "hero-action", {"action": "defeat", "monster": "carrionette", "items": ["club", "warhammer"]})
    said = ask(game, "defeat", [5])  # 5 + 5 + 5 = 15
    assert any("= 15" in s for s in said) and game.state.monsters["carrionette"].defeated


def test_rl_it_4_an_item_of_a_type_is_exactly_one() -> None:
    """RL-IT-4: "a Mundane item" for the Hut is one item, not a handful."""
    game = game_at({"phase": "hero", "monsters": {"baba-lysaga": "krezk"},
                    "heroes": [SORCERER_AT("krezk", items=["broom", "lockpicks"])]})
    with pytest.raises(IllegalInput):
        game.apply({"answer": {"action": "advance", "monster": "baba-lysaga", "step": "gem",
                               "item": ["broom", "lockpicks"], "to": "door"}})
    assert game.state.heroes["sorcerer"].items == ["broom", "lockpicks"]
