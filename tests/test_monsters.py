"""The four Ravenloft monsters' own rules (RL-CA, RL-GT, RL-BL, RL-ST), driven
through their real generators with scripted answers on the small test pack
of ``ravenloft_fixtures``."""

from __future__ import annotations

from typing import Callable, TypeVar

import pytest

from companion.engine.errors import IllegalInput, SetupError
from companion.games.horrified_core.arrivals import hero_arrives
from companion.games.horrified_core.attack import attack
from companion.games.horrified_core.context import Character, Figure, GameEnded
from companion.games.horrified_core.events import resolve_event
from companion.games.horrified_core.monster_phase import resolve_attack_line
from companion.games.horrified_core.monsters import MAX_OPTIONS
from companion.games.ravenloft.monsters import REGISTRY, Actor, rules_for
from companion.games.ravenloft.monsters.baba_lysaga_mat import HutMat
from companion.games.ravenloft.monsters.carrionette_mat import CarrionetteMat
from companion.games.ravenloft.monsters.gulthias_tree_mat import TreeMat
from companion.games.ravenloft.monsters.strahd import StrahdRules
from companion.games.ravenloft.monsters.strahd_mat import StrahdMat
from companion.games.ravenloft.pack_types import AttackLine, Effect, Monster
from companion.games.ravenloft.state import Mat

from ravenloft_fixtures import MONSTERS, Many, Ran, Table, first_choice, make_pack, new_table, run

M = TypeVar("M", bound=Mat)
Answers = list[tuple[str, object]]


# -- helpers ------------------------------------------------------------------------------------------

def adv(monster: str, step: str, **fields: object) -> dict[str, object]:
    return {"action": "advance", "monster": monster, "step": step, **fields}


def defeat_action(monster: str, items: list[str]) -> dict[str, object]:
    return {"action": "defeat", "monster": monster, "items": items}


def advance(t: Table, hero: str, action: dict[str, object], answers: Answers | None = None,
            distanced: bool = False) -> Ran[None]:
    return run(t.rule(str(action["monster"])).advance(t.ctx, hero, action, distanced), answers or [])


def defeat(t: Table, hero: str, action: dict[str, object], answers: Answers | None = None) -> Ran[None]:
    return run(t.rule(str(action["monster"])).defeat(t.ctx, hero, action), answers or [])


def refused(t: Table, attempt: Callable[[], object], match: str) -> None:
    """The attempt raises IllegalInput naming the problem, and the table is untouched."""
    before = t.snapshot()
    with pytest.raises(IllegalInput, match=match):
        attempt()
    assert t.snapshot() == before


def mat(t: Table, monster: str, cls: type[M]) -> M:
    found = t.state.mats[monster]
    assert isinstance(found, cls)
    return found


def held(t: Table, hero: str) -> list[str]:
    return t.state.heroes[hero].items


# -- registry ------------------------------------------------------------------------------------------

def test_every_monster_registers_and_rules_for_builds_one_each() -> None:
    assert {"carrionette", "gulthias-tree", "baba-lysaga", "strahd"} <= set(REGISTRY)
    rules = rules_for(make_pack())
    assert list(rules) == [m.id for m in MONSTERS]
    assert all(rule.id == monster_id for monster_id, rule in rules.items())


def test_a_monster_without_rules_is_a_setup_error() -> None:
    odd = Monster("vampire-spawn", "Vampire Spawn", 3, ("skull",), "gates", "Low", "Bite", MONSTERS[0].details)
    with pytest.raises(SetupError, match="vampire-spawn"):
        rules_for(make_pack(monsters=(*MONSTERS, odd)))


def test_unknown_step_is_refused_with_the_steps_it_has() -> None:
    t = new_table(held={"druid": ["bow-4"]}, monsters={"carrionette": "village"})
    refused(t, lambda: advance(t, "druid", adv("carrionette", "dance", item="bow-4", part=0)),
            "Carrionette has no challenge step called 'dance' \\(its steps: swap\\)")


def test_the_driver_answers_by_key_in_turn() -> None:
    """The fixture driver: a mapping answers by prompt key, ``Many`` answers one after another."""
    t = tree_table([None, None, None], druid="lake", items=["ring-1", "wand-2"])
    ran = advance_keyed(t, adv("gulthias-tree", "dig", item="ring-1"),
                        {"root": Many("eye", "claw"), "dig-more": Many("wand-2")})
    assert ran.keys == ["root", "dig-more", "root"]  # no Magical item left: stopping is not asked
    assert mat(t, "gulthias-tree", TreeMat).roots == {"eye": 1, "claw": 2, "thorn": 4}


def advance_keyed(t: Table, action: dict[str, object], answers: dict[str, object]) -> Ran[None]:
    return run(t.rule(str(action["monster"])).advance(t.ctx, "druid", action, False), answers)


# -- Carrionette ---------------------------------------------------------------------------------------

def carrionette_table(**heroes_held: list[str]) -> Table:
    return new_table(heroes={"druid": "village"}, held=heroes_held or {"druid": []},
                     monsters={"carrionette": "village", "baba-lysaga": "lake"}, haversack=["mirror-5", "rope-1"])


def test_rl_ca_1_silver_needle_discards_items_of_the_drawn_strength() -> None:
    """RL-CA-1: heroes with the Carrionette lose every item of the drawn strength; others and relics are safe."""
    t = new_table(heroes={"druid": "village", "sorcerer": "village", "paladin": "gates"},
                  held={"druid": ["sword-5", "club-3"], "sorcerer": ["tome-5", "ring-1"], "paladin": ["axe-6"]},
                  monsters={"carrionette": "village"}, haversack=["mirror-5", "rope-1"])
    t.state.heroes["sorcerer"].relics.append("sunsword")
    run(t.rule("carrionette").power(t.ctx, Figure("carrionette"), Character("hero", "druid")), [("item", "mirror-5")])
    assert held(t, "druid") == ["club-3"]
    assert held(t, "sorcerer") == ["ring-1"] and t.state.heroes["sorcerer"].relics == ["sunsword"]
    assert held(t, "paladin") == ["axe-6"]
    assert sorted(t.state.item_discard) == ["mirror-5", "sword-5", "tome-5"]
    texts = t.texts()
    assert "Silver Needle: the Druid discards the Sword (strength 5)." in texts
    assert "Silver Needle: the Sorcerer discards the Tome (strength 5)." in texts


def test_rl_ca_1_the_needle_strikes_before_the_hit() -> None:
    """RL-CA-1 with RL-MP-16: the POW empties the hero's hands, so the HIT defeats them."""
    t = carrionette_table(druid=["sword-5"])
    run(attack(t.ctx, Figure("carrionette"), 2), [("monster-dice", ["hit", "pow"]), ("item", "mirror-5")])
    assert t.state.heroes["druid"].location is None
    assert t.state.terror == 1


def test_rl_ca_2_a_swap_that_rolls_15_keeps_the_item_on_the_part() -> None:
    """RL-CA-2: the Bow matches the first part's type and strength (+10); 5 + 10 = 15 keeps it there."""
    t = carrionette_table(druid=["bow-4"])
    ran = advance(t, "druid", adv("carrionette", "swap", item="bow-4", part=0), [("swap", [5])])
    assert ran.keys == ["swap"]
    assert mat(t, "carrionette", CarrionetteMat).parts == ["bow-4", None, None]
    assert held(t, "druid") == [] and "bow-4" not in t.state.item_discard
    texts = t.texts()
    assert "Put the Bow on the Carrionette's first spare part." in texts
    assert any(text.startswith("Swapped! Leave the Bow on the first spare part (1 of 3") for text in texts)


def test_rl_ca_2_a_failed_swap_discards_the_item() -> None:
    """RL-CA-2: the Club matches the type only (+5); 9 + 5 = 14 is caught and the Club is discarded."""
    t = carrionette_table(druid=["club-3"])
    advance(t, "druid", adv("carrionette", "swap", item="club-3", part=0), [("swap", [9])])
    assert mat(t, "carrionette", CarrionetteMat).parts == [None, None, None]
    assert t.state.item_discard == ["club-3"] and held(t, "druid") == []


def test_rl_ca_2_match_bonus_for_type_strength_or_both() -> None:
    """RL-CA-2: +5 for type or strength, +10 for both, nothing otherwise."""
    t = carrionette_table()
    rule = t.rule("carrionette")
    assert isinstance(rule, REGISTRY["carrionette"])
    bonus = getattr(rule, "bonus")
    assert bonus(t.ctx, "bow-4", 0) == 10  # weapon 4 on weapon 4
    assert bonus(t.ctx, "club-3", 0) == 5  # weapon, other strength
    assert bonus(t.ctx, "shovel-4", 0) == 5  # strength 4, other type
    assert bonus(t.ctx, "ring-1", 0) == 0
    assert bonus(t.ctx, "wand-2", 1) == 10


def test_rl_ca_2_swap_only_at_its_location_unless_distanced() -> None:
    """RL-CA-2 (and RL-HE-2's distanced Advance): elsewhere only a distanced Advance may swap."""
    t = new_table(heroes={"druid": "gates"}, held={"druid": ["bow-4"]}, monsters={"carrionette": "village"})
    refused(t, lambda: advance(t, "druid", adv("carrionette", "swap", item="bow-4", part=0)),
            "must be at Village of Barovia to swap")
    advance(t, "druid", adv("carrionette", "swap", item="bow-4", part=0), [("swap", [12])], distanced=True)
    assert mat(t, "carrionette", CarrionetteMat).parts[0] == "bow-4"


def test_rl_ca_2_illegal_swaps_are_refused() -> None:
    """RL-CA-2: a part already swapped, an item not held, a part that does not exist."""
    t = carrionette_table(druid=["bow-4"])
    mat(t, "carrionette", CarrionetteMat).parts[1] = "wand-2"
    refused(t, lambda: advance(t, "druid", adv("carrionette", "swap", item="bow-4", part=1)),
            "second spare part is already swapped \\(the Wand lies on it\\)")
    refused(t, lambda: advance(t, "druid", adv("carrionette", "swap", item="axe-6", part=0)), "does not hold axe-6")
    refused(t, lambda: advance(t, "druid", adv("carrionette", "swap", item="bow-4", part=3)),
            "'part' must pick one of the 3 spare parts")
    refused(t, lambda: advance(t, "druid", adv("carrionette", "swap", part=0)), "name the item to swap in")


def test_rl_ca_3_weapons_and_15_take_the_carrionette_apart() -> None:
    """RL-CA-3, RL-HA-6: defeated; the items on its parts are discarded; terror falls; Frenzy passes on."""
    t = carrionette_table(druid=["axe-6", "sword-5", "ring-1"])
    t.state.terror = 2
    mat(t, "carrionette", CarrionetteMat).parts = ["bow-4", "wand-2", "mirror-5"]
    defeat(t, "druid", defeat_action("carrionette", ["axe-6", "sword-5"]), [("defeat", [4])])
    assert t.state.monsters["carrionette"].defeated and t.state.monsters["carrionette"].location is None
    assert mat(t, "carrionette", CarrionetteMat).parts == [None, None, None]
    assert {"bow-4", "wand-2", "mirror-5", "axe-6", "sword-5"} <= set(t.state.item_discard)
    assert held(t, "druid") == ["ring-1"]
    assert t.state.terror == 1 and t.state.frenzy == "baba-lysaga"


def test_rl_ca_3_defeat_is_refused_before_every_part_is_swapped_and_needs_weapons_there() -> None:
    """RL-CA-3: not before all parts are swapped, only with Weapons, only at its location."""
    t = carrionette_table(druid=["axe-6", "orb-4"])
    parts = mat(t, "carrionette", CarrionetteMat).parts
    parts[0] = "bow-4"
    refused(t, lambda: defeat(t, "druid", defeat_action("carrionette", ["axe-6"])),
            "cannot be taken apart yet: 2 of its spare parts still need swapping")
    parts[1:] = ["wand-2", "mirror-5"]
    refused(t, lambda: defeat(t, "druid", defeat_action("carrionette", ["orb-4"])), "only weapon items count")
    refused(t, lambda: defeat(t, "druid", defeat_action("carrionette", [])), "at least 1 weapon item")
    t.state.heroes["druid"].location = "gates"
    refused(t, lambda: defeat(t, "druid", defeat_action("carrionette", ["axe-6"])), "must be at Village of Barovia")


def test_rl_d20_3_a_1_fails_a_challenge_roll_and_the_items_are_still_spent() -> None:
    """RL-D20-3: 1 + 15 would be enough, but a 1 is a critical failure; the Weapons are gone anyway."""
    t = carrionette_table(druid=["axe-6", "sword-5", "bow-4"])
    mat(t, "carrionette", CarrionetteMat).parts = ["club-3", "wand-2", "mirror-5"]
    defeat(t, "druid", defeat_action("carrionette", ["axe-6", "sword-5", "bow-4"]), [("defeat", [1])])
    assert not t.state.monsters["carrionette"].defeated
    assert held(t, "druid") == [] and {"axe-6", "sword-5", "bow-4"} <= set(t.state.item_discard)
    texts = t.texts()
    assert any("critical failure" in text for text in texts)
    assert "Carrionette survives; the spent items stay discarded." in texts


def test_rl_end_1_defeating_the_last_monster_wins() -> None:
    """RL-CA-3 with RL-END-1: the last monster defeated ends the game."""
    t = new_table(held={"druid": ["axe-6", "sword-5"]}, monsters={"carrionette": "village"})
    mat(t, "carrionette", CarrionetteMat).parts = ["club-3", "wand-2", "mirror-5"]
    with pytest.raises(GameEnded) as ended:
        defeat(t, "druid", defeat_action("carrionette", ["axe-6", "sword-5"]), [("defeat", [10])])
    assert ended.value.outcome == "won"


# -- Gulthias Tree -------------------------------------------------------------------------------------

def tree_table(blights: list[str | None], druid: str | None = "village", items: list[str] | None = None) -> Table:
    t = new_table(heroes={"druid": druid}, held={"druid": items or []},
                  monsters={"gulthias-tree": "lake", "carrionette": "gates"}, haversack=[])
    mat(t, "gulthias-tree", TreeMat).blights = list(blights)
    return t


def test_rl_su_7_roots_face_down_and_blights_placed_by_d20_with_rerolls() -> None:
    """RL-SU-7: rerolls onto the Tree, a hero, another Blight or a number no location has;
    a 1 at setup is simply location 1."""
    t = new_table(heroes={"druid": "village"}, monsters={"gulthias-tree": None})
    rolls: Answers = [("blight-setup", [8]), ("blight-setup", [9]), ("blight-setup", [2]), ("blight-setup", [1]),
                      ("blight-setup", [6]), ("blight-setup", [6]), ("blight-setup", ["symbol"]),
                      ("blight-setup", [7])]
    run(t.rule("gulthias-tree").setup(t.ctx), rolls)
    tree = mat(t, "gulthias-tree", TreeMat)
    assert t.state.monsters["gulthias-tree"].location == "lake"
    assert tree.blights == ["gates", "tower", "woods"]
    assert sum(tree.roots.values()) == 9
    texts = t.texts()
    assert "Gulthias Tree is already at Lake Zarovich: roll the d20 again for Twig Blight 1." in texts
    assert "No location has the number 9: roll the d20 again for Twig Blight 1." in texts
    assert "The Druid is already at Village of Barovia: roll the d20 again for Twig Blight 1." in texts
    assert "Put Twig Blight 1 at Gates of Barovia (number 1)." in texts
    assert "Twig Blight 2 is already at Van Richten's Tower: roll the d20 again for Twig Blight 3." in texts


def test_rl_gt_1_the_tree_never_moves_and_attacks_only_at_its_location() -> None:
    """RL-GT-1: with a hero next door the Tree stays and does not attack; with one at its location it attacks."""
    t = tree_table([None, None, None], druid="woods", items=["rope-1"])
    tree = t.rule("gulthias-tree")
    assert tree.rooted
    ran = run(tree.activate(t.ctx, Actor("gulthias-tree", "tree", "Gulthias Tree"), 2, 2))
    assert ran.keys == [] and t.state.monsters["gulthias-tree"].location == "lake"
    t.state.heroes["druid"].location = "lake"
    run(tree.activate(t.ctx, Actor("gulthias-tree", "tree", "Gulthias Tree"), 2, 2),
        [("monster-dice", ["hit", "blank"]), ("defend", "discard")])
    assert t.state.monsters["gulthias-tree"].location == "lake" and held(t, "druid") == []


def test_rl_gt_2_the_active_player_picks_a_blight_never_the_same_twice_in_a_turn() -> None:
    """RL-GT-2: each Blight activation picks a Blight that has not acted; none left is a note; a new turn resets."""
    t = tree_table(["gates", "tower", None], druid="village")
    tree, blight = t.rule("gulthias-tree"), Actor("gulthias-tree", "blight", "a Twig Blight")
    assert tree.actors(t.ctx) == [Actor("gulthias-tree", "tree", "Gulthias Tree"), blight]
    first = run(tree.activate(t.ctx, blight, 1, 1), [("which-blight", "0"), ("monster-dice", ["blank"])])
    assert first.prompts[0].option_ids() == ["0", "1"]
    assert mat(t, "gulthias-tree", TreeMat).blights[0] == "village"
    second = run(tree.activate(t.ctx, blight, 1, 1))  # only Blight 2 is left: nothing to ask
    assert second.keys == [] and mat(t, "gulthias-tree", TreeMat).blights[1] == "tent"
    t.effects()
    run(tree.activate(t.ctx, blight, 1, 1))
    assert t.texts() == ["No Twig Blight can act: each is off the board or has already acted this turn."]
    assert mat(t, "gulthias-tree", TreeMat).blights_used == [0, 1]
    tree.start_of_turn(t.ctx)
    assert mat(t, "gulthias-tree", TreeMat).blights_used == []


def test_rl_gt_2_the_frenzy_symbol_sends_another_blight() -> None:
    """RL-GT-2 on a whole attack line: Hat then Frenzy (the Tree is frenzied) send two different Blights."""
    t = tree_table(["gates", "tower", None], druid="village")
    t.state.frenzy = "gulthias-tree"
    # Nobody stands with the Tree, so its place in the order changes nothing and is not asked (RL-MP-5);
    # the second Blight is the only one left for the Frenzy symbol.
    run(resolve_attack_line(t.ctx, AttackLine(("hat", "frenzy"), 1, 0)), [("which-blight", "1")])
    assert mat(t, "gulthias-tree", TreeMat).blights == ["village", "tent", None]
    assert mat(t, "gulthias-tree", TreeMat).blights_used == [1, 0]


def test_rl_gt_3_colour_events_do_not_move_twig_blights() -> None:
    """RL-GT-3: an Event moving Hat monsters moves neither the rooted Tree nor its Blights."""
    t = tree_table(["gates", "tower", None], druid="village")
    ran = run(resolve_event(t.ctx, Effect("move_monsters", {"symbol": "hat", "steps": 2}, "Hat monsters move 2.")))
    assert ran.keys == []
    assert mat(t, "gulthias-tree", TreeMat).blights == ["gates", "tower", None]
    assert t.state.monsters["gulthias-tree"].location == "lake"


def test_rl_gt_4_necrosynthesis_returns_fallen_blights_and_a_1_fails() -> None:
    """RL-GT-4, RL-D20-3: a Blight's POW rolls for each fallen Blight; rerolls as at setup; a 1 leaves it off."""
    t = tree_table([None, "tower", None], druid="tower", items=["rope-1"])
    rolls: Answers = [("monster-dice", ["pow"]), ("necrosynthesis", [6]), ("necrosynthesis", [1]),
                      ("necrosynthesis", [8]), ("necrosynthesis", [3])]
    run(attack(t.ctx, Figure("gulthias-tree", 1), 1), rolls)
    assert mat(t, "gulthias-tree", TreeMat).blights == [None, "tower", "tser-falls"]
    texts = t.texts()
    assert "A 1: critical failure, Twig Blight 1 stays off the board." in texts
    assert "Put Twig Blight 3 at Tser Falls (number 3)." in texts


def test_rl_gt_4_with_every_blight_standing_nothing_is_rolled() -> None:
    """RL-GT-4: Necrosynthesis only concerns defeated Blights."""
    t = tree_table(["gates", "tower", "woods"])
    ran = run(t.rule("gulthias-tree").power(t.ctx, Figure("gulthias-tree"), Character("hero", "druid")))
    assert ran.keys == [] and t.texts() == ["Necrosynthesis: every Twig Blight is already on the board."]


def test_rl_gt_5_pruning_with_mundane_items_and_8_removes_the_blight() -> None:
    """RL-GT-5: 3 + 2 + 3 = 8 cuts the Blight down."""
    t = tree_table(["village", None, "tower"], items=["lamp-2", "lockpicks-3", "sword-5"])
    advance(t, "druid", adv("gulthias-tree", "prune", blight=0, items=["lamp-2", "lockpicks-3"]), [("prune", [3])])
    assert mat(t, "gulthias-tree", TreeMat).blights == [None, None, "tower"]
    assert held(t, "druid") == ["sword-5"] and t.state.item_discard == ["lamp-2", "lockpicks-3"]
    assert "Twig Blight 1 is cut down: take it off Village of Barovia." in t.texts()


def test_rl_gt_5_a_failed_prune_still_spends_the_items() -> None:
    """RL-GT-5."""
    t = tree_table(["village", None, None], items=["lamp-2", "lockpicks-3"])
    advance(t, "druid", adv("gulthias-tree", "prune", blight=0, items=["lamp-2", "lockpicks-3"]), [("prune", [2])])
    assert mat(t, "gulthias-tree", TreeMat).blights[0] == "village" and held(t, "druid") == []


def test_rl_gt_5_illegal_prunes_are_refused() -> None:
    """RL-GT-5: the Blight must be on the board, the hero with it, the items Mundane."""
    t = tree_table(["village", None, "tower"], items=["lamp-2", "sword-5"])
    refused(t, lambda: advance(t, "druid", adv("gulthias-tree", "prune", blight=1, items=["lamp-2"])),
            "Twig Blight 2 is not on the board")
    refused(t, lambda: advance(t, "druid", adv("gulthias-tree", "prune", blight=2, items=["lamp-2"])),
            "must be at Van Richten's Tower to prune Twig Blight 3")
    refused(t, lambda: advance(t, "druid", adv("gulthias-tree", "prune", blight=0, items=["sword-5"])),
            "only mundane items count")


def test_rl_gt_6_dig_then_stop_removes_the_revealed_roots() -> None:
    """RL-GT-6: one Magical item per Root turned; stopping removes them; a group of k shows k symbols."""
    t = tree_table([None, None, None], druid="lake", items=["ring-1", "wand-2", "orb-4"])
    ran = advance(t, "druid", adv("gulthias-tree", "dig", item="ring-1"),
                  [("root", "thorn"), ("dig-more", "wand-2"), ("root", "eye"), ("dig-more", "stop")])
    assert ran.prompts[0].kind == "draw" and ran.prompts[0].option_ids() == ["eye", "claw", "thorn"]
    assert ran.prompts[0].option("thorn").data == {"symbols": 4, "face_down": 4}
    assert ran.prompts[1].option_ids() == ["stop", "wand-2", "orb-4"]
    assert mat(t, "gulthias-tree", TreeMat).roots == {"eye": 1, "claw": 3, "thorn": 3}
    assert t.state.item_discard == ["ring-1", "wand-2"] and held(t, "druid") == ["orb-4"]
    texts = t.texts()
    assert any(text.startswith("The Root shows 4 symbols (thorn); 3 more of that group") for text in texts)
    assert "Take the 2 revealed Root(s) off the Gulthias Tree's mat: 7 still lie face down." in texts


def test_rl_gt_6_two_roots_of_one_group_in_one_dig_go_back_face_down() -> None:
    """RL-GT-6: a second Root of the same group spoils the dig: nothing is removed, the items are spent."""
    t = tree_table([None, None, None], druid="lake", items=["ring-1", "wand-2", "orb-4"])
    ran = advance(t, "druid", adv("gulthias-tree", "dig", item="ring-1"),
                  [("root", "claw"), ("dig-more", "wand-2"), ("root", "claw")])
    assert "claw" in ran.prompts[2].option_ids()  # two more claw Roots were still face down
    assert mat(t, "gulthias-tree", TreeMat).roots == {"eye": 2, "claw": 3, "thorn": 4}
    assert held(t, "druid") == ["orb-4"]
    assert any(text.startswith("A second Root of the claw group in this dig!") for text in t.texts())


def test_rl_gt_6_the_last_roots_need_no_questions_and_unblock_the_defeat() -> None:
    """RL-GT-6: a group already revealed in this dig is not offered again once none of it is left face down."""
    t = tree_table([None, None, None], druid="lake", items=["ring-1", "wand-2", "orb-4"])
    mat(t, "gulthias-tree", TreeMat).roots = {"eye": 1, "claw": 0, "thorn": 1}
    ran = advance(t, "druid", adv("gulthias-tree", "dig", item="ring-1"), [("root", "eye"), ("dig-more", "wand-2")])
    assert ran.keys == ["root", "dig-more"] and ran.prompts[0].option_ids() == ["eye", "thorn"]
    assert mat(t, "gulthias-tree", TreeMat).roots == {"eye": 0, "claw": 0, "thorn": 0}
    assert t.rule("gulthias-tree").defeat_blocker(t.ctx, "druid") is None


def test_rl_gt_6_illegal_digs_are_refused() -> None:
    """RL-GT-6."""
    t = tree_table([None, None, None], druid="lake", items=["ring-1", "sword-5"])
    refused(t, lambda: advance(t, "druid", adv("gulthias-tree", "dig", item="sword-5")), "only magical items count")
    t.state.heroes["druid"].location = "woods"
    refused(t, lambda: advance(t, "druid", adv("gulthias-tree", "dig", item="ring-1")),
            "must be at Lake Zarovich to dig up")
    t.state.heroes["druid"].location = "lake"
    mat(t, "gulthias-tree", TreeMat).roots = {"eye": 0, "claw": 0, "thorn": 0}
    refused(t, lambda: advance(t, "druid", adv("gulthias-tree", "dig", item="ring-1")), "every Root is already dug up")


def test_rl_gt_7_rl_gt_8_the_tree_falls_with_its_blights_which_never_needed_pruning() -> None:
    """RL-GT-7, RL-GT-8: all Roots removed, Blights still standing: Weapons and 15 defeat Tree and Blights."""
    t = tree_table(["village", "tower", "gates"], druid="lake", items=["axe-6", "sword-5"])
    assert t.rule("gulthias-tree").figures_at(t.ctx) == ["lake", "village", "tower", "gates"]
    mat(t, "gulthias-tree", TreeMat).roots = {"eye": 0, "claw": 0, "thorn": 0}
    defeat(t, "druid", defeat_action("gulthias-tree", ["axe-6", "sword-5"]), [("defeat", [4])])
    assert t.state.monsters["gulthias-tree"].defeated
    assert mat(t, "gulthias-tree", TreeMat).blights == [None, None, None]
    assert "Take Twig Blight 2 off Van Richten's Tower." in t.texts()


def test_rl_gt_7_the_tree_cannot_be_chopped_while_roots_remain() -> None:
    """RL-GT-7: the Defeat is refused while a Root is face down, and away from the Tree."""
    t = tree_table([None, None, None], druid="lake", items=["axe-6"])
    refused(t, lambda: defeat(t, "druid", defeat_action("gulthias-tree", ["axe-6"])),
            "cannot be chopped down yet: 9 Root\\(s\\) are still face down")
    mat(t, "gulthias-tree", TreeMat).roots = {"eye": 0, "claw": 0, "thorn": 0}
    t.state.heroes["druid"].location = "woods"
    refused(t, lambda: defeat(t, "druid", defeat_action("gulthias-tree", ["axe-6"])), "must be at Lake Zarovich")


# -- Baba Lysaga -------------------------------------------------------------------------------------

def hut_table(druid: str | None = "church", items: list[str] | None = None,
              villagers: dict[str, str | None] | None = None, baba: str = "church") -> Table:
    return new_table(heroes={"druid": druid}, held={"druid": items or []}, villagers=villagers,
                     monsters={"baba-lysaga": baba, "carrionette": "lake"}, haversack=[])


def carried_off(t: Table, answers: Answers | None = None) -> Ran[None]:
    return run(t.rule("baba-lysaga").power(t.ctx, Figure("baba-lysaga"), Character("hero", "druid")), answers or [])


def test_rl_su_8_the_gem_on_top_and_five_tokens_face_down() -> None:
    """RL-SU-8: the Gem on the top space, a face-down token on each of the five non-Door spaces."""
    t = new_table(monsters={"baba-lysaga": None})
    run(t.rule("baba-lysaga").setup(t.ctx))
    hut = mat(t, "baba-lysaga", HutMat)
    assert t.state.monsters["baba-lysaga"].location == "church"
    assert hut.gem == "top" and hut.revealed == {}
    assert hut.face_down == ["upper-left", "upper-right", "centre", "lower-left", "lower-right"]
    assert any(text.startswith("Put the Gem face up on the top space") for text in t.texts())


def test_rl_bl_1_rl_vi_3_carried_off_two_locations_with_her_villagers() -> None:
    """RL-BL-1, RL-VI-3: she goes 2 toward the closest villager elsewhere (past a hero); Ireena rides along to
    the Church, her safe place, and stays there in Baba Lysaga's clutches (no Perk)."""
    t = hut_table(druid="village", baba="gates",
                  villagers={"ireena": "gates", "bildrath": "church", "mad-mage": "lake"})
    ran = carried_off(t)
    assert ran.keys == []
    assert t.state.monsters["baba-lysaga"].location == "church"
    ireena = t.state.villagers["ireena"]
    assert ireena.location == "church" and ireena.clutched
    assert not t.state.villagers["bildrath"].clutched
    texts = t.texts()
    assert "Move Baba Lysaga from Gates of Barovia to Church (2 locations)." in texts
    assert "Move Ireena along with Baba Lysaga to Church." in texts
    assert "Ireena is home but in Baba Lysaga's clutches: leave them there." in texts


def test_rl_vi_3_a_hero_entering_frees_a_clutched_villager() -> None:
    """RL-VI-3: a hero entering the location rescues the clutched villager, with a Perk."""
    t = hut_table(druid="village", baba="gates", villagers={"ireena": "gates", "bildrath": "church"})
    carried_off(t)
    t.state.heroes["druid"].location = "church"
    run(hero_arrives(t.ctx, "druid"), [("perk", "tatyana")])
    assert t.state.villagers["ireena"].location is None and t.state.heroes["druid"].perks == ["tatyana"]


def test_rl_vi_3_carried_away_from_home_a_villager_is_no_longer_clutched() -> None:
    """RL-VI-3: leaving the safe location (carried away) ends the clutch."""
    t = hut_table(druid="gates", baba="church", villagers={"ireena": "church", "bildrath": "tent"})
    t.state.villagers["ireena"].clutched = True
    carried_off(t)
    assert t.state.villagers["ireena"].location == "tent" and not t.state.villagers["ireena"].clutched


def test_rl_bl_1_ties_are_asked_and_she_stops_at_the_goal() -> None:
    """RL-BL-1 with RL-MP-8/12: equally close villagers are the active player's choice; reaching one ends the move."""
    t = hut_table(druid="lake", baba="village", villagers={"bildrath": "gates", "ireena": "church"})
    ran = carried_off(t, [("carried-off-toward", "gates")])
    assert ran.prompts[0].option_ids() == ["church", "gates"]
    assert t.state.monsters["baba-lysaga"].location == "gates"


def test_rl_bl_1_several_shortest_paths_are_asked() -> None:
    """RL-BL-1 with RL-MP-12: two ways to the Tent, the active player picks one."""
    t = hut_table(druid="lake", baba="village", villagers={"bildrath": "tent", "ireena": "village"})
    ran = carried_off(t, [("path", "1")])
    assert ran.keys == ["path"]
    assert t.state.monsters["baba-lysaga"].location == "tent" and t.state.villagers["ireena"].location == "tent"


def test_rl_bl_1_with_no_villager_elsewhere_she_stays() -> None:
    """RL-BL-1: the villagers at her own location do not count."""
    t = hut_table(druid="gates", baba="village", villagers={"ireena": "village"})
    assert carried_off(t).keys == []
    assert t.state.monsters["baba-lysaga"].location == "village" and t.state.villagers["ireena"].location == "village"
    assert t.texts() == ["Carried Off: no villager is elsewhere on the board, so Baba Lysaga stays."]


def test_rl_bl_2_a_mundane_item_reveals_as_many_tokens_as_its_strength() -> None:
    """RL-BL-2: the player names the spaces; each token turned is an input, already-seen tokens are not offered."""
    t = hut_table(items=["lockpicks-3", "crowbar-6"])
    ran = advance(t, "druid", adv("baba-lysaga", "reveal", item="lockpicks-3",
                                  spaces=["upper-left", "centre", "lower-left"]),
                  [("hut-token", "scarecrow-1"), ("hut-token", "witch"), ("hut-token", "raven-1")])
    assert ran.prompts[1].option_ids() == ["scarecrow-2", "raven-1", "raven-2", "witch"]
    hut = mat(t, "baba-lysaga", HutMat)
    assert hut.revealed == {"upper-left": "scarecrow-1", "centre": "witch", "lower-left": "raven-1"}
    assert hut.face_down == ["upper-right", "lower-right"] and t.state.item_discard == ["lockpicks-3"]
    refused(t, lambda: advance(t, "druid", adv("baba-lysaga", "reveal", item="crowbar-6", spaces=["upper-right"])),
            "this item reveals exactly 2 Hut token\\(s\\); 1 space\\(s\\) were named")
    ran = advance(t, "druid", adv("baba-lysaga", "reveal", item="crowbar-6", spaces=["upper-right", "lower-right"]),
                  [("hut-token", "raven-2")])
    assert ran.keys == ["hut-token"]  # the last token is the one left
    assert hut.revealed["lower-right"] == "scarecrow-2" and hut.face_down == []
    assert "The lower right space shows the scarecrow token (target 13): leave it face up." in t.texts()


def test_rl_bl_2_illegal_reveals_are_refused() -> None:
    """RL-BL-2."""
    t = hut_table(items=["lockpicks-3", "sword-5"])
    refused(t, lambda: advance(t, "druid", adv("baba-lysaga", "reveal", item="lockpicks-3",
                                               spaces=["top", "centre", "door"])),
            "no face-down token lies on top, door")
    refused(t, lambda: advance(t, "druid", adv("baba-lysaga", "reveal", item="sword-5", spaces=["centre"])),
            "only mundane items count")
    t.state.heroes["druid"].location = "tent"
    refused(t, lambda: advance(t, "druid", adv("baba-lysaga", "reveal", item="lockpicks-3",
                                               spaces=["upper-left", "centre", "lower-left"])),
            "must be at Church to explore Baba Lysaga's Hut")


def test_rl_bl_2_the_gem_moves_through_empty_spaces_only_as_far_as_the_strength() -> None:
    """RL-BL-2: the Gem walks top -> upper-right -> lower-right -> Door (3) around the tokens."""
    t = hut_table(items=["lamp-2", "shovel-4"])
    hut = mat(t, "baba-lysaga", HutMat)
    hut.face_down, hut.revealed = ["upper-left"], {"centre": "witch", "lower-left": "raven-1"}
    refused(t, lambda: advance(t, "druid", adv("baba-lysaga", "gem", item="lamp-2", to="door")),
            "the Gem moves exactly 2 empty spaces .* cannot end on the door space; from the top space it can end "
            "on: lower-right")
    refused(t, lambda: advance(t, "druid", adv("baba-lysaga", "gem", item="shovel-4", to="centre")),
            "the Gem cannot reach the centre space")
    refused(t, lambda: advance(t, "druid", adv("baba-lysaga", "gem", item="shovel-4", to="attic")),
            "the Hut has no space called 'attic'")
    refused(t, lambda: advance(t, "druid", adv("baba-lysaga", "gem", item="shovel-4", to="top")),
            "the Gem is already on the top space")
    advance(t, "druid", adv("baba-lysaga", "gem", item="shovel-4", to="door"))
    assert hut.gem == "door" and held(t, "druid") == ["lamp-2"]
    assert ("Move the Gem to the door space of the Hut. It is on the Door: Baba Lysaga can now be confronted."
            in t.texts())


def test_rl_bl_2_a_weapon_and_the_target_remove_a_scarecrow() -> None:
    """RL-BL-2: 7 + 3 = 10 meets the scarecrow's 10; the space is empty again."""
    t = hut_table(items=["club-3", "orb-4"])
    hut = mat(t, "baba-lysaga", HutMat)
    hut.face_down, hut.revealed = ["upper-right"], {"upper-left": "scarecrow-1"}
    refused(t, lambda: advance(t, "druid", adv("baba-lysaga", "scarecrow", item="orb-4", space="upper-left")),
            "only weapon items count")
    refused(t, lambda: advance(t, "druid", adv("baba-lysaga", "raven", item="orb-4", space="upper-left")),
            "the upper-left space shows a scarecrow, not a raven")
    refused(t, lambda: advance(t, "druid", adv("baba-lysaga", "scarecrow", item="club-3", space="upper-right")),
            "still face down: reveal it first")
    advance(t, "druid", adv("baba-lysaga", "scarecrow", item="club-3", space="upper-left"), [("scarecrow", [7])])
    assert hut.revealed == {} and t.state.item_discard == ["club-3"]
    assert "Take the scarecrow token (target 10) off the upper left space of the Hut." in t.texts()


def test_rl_bl_2_a_missed_scarecrow_stays_and_the_weapon_is_spent() -> None:
    """RL-BL-2."""
    t = hut_table(items=["club-3"])
    hut = mat(t, "baba-lysaga", HutMat)
    hut.face_down, hut.revealed = [], {"upper-left": "scarecrow-1"}
    advance(t, "druid", adv("baba-lysaga", "scarecrow", item="club-3", space="upper-left"), [("scarecrow", [6])])
    assert mat(t, "baba-lysaga", HutMat).revealed == {"upper-left": "scarecrow-1"} and held(t, "druid") == []


def test_rl_bl_2_a_released_raven_gives_a_perk() -> None:
    """RL-BL-2: a Magical item and 8 + 4 = 12 release the raven, and the active hero draws a Perk."""
    t = hut_table(items=["orb-4"])
    hut = mat(t, "baba-lysaga", HutMat)
    hut.face_down, hut.revealed = ["upper-left"], {"upper-right": "raven-2"}
    advance(t, "druid", adv("baba-lysaga", "raven", item="orb-4", space="upper-right"),
            [("raven", [8]), ("perk", "second-wind")])
    assert hut.revealed == {} and t.state.heroes["druid"].perks == ["second-wind"]


def test_rl_bl_4_her_own_token_can_never_be_removed_or_passed() -> None:
    """RL-BL-4: no fight can remove the witch, and the Gem cannot pass her space."""
    t = hut_table(items=["axe-6", "crowbar-6"])
    hut = mat(t, "baba-lysaga", HutMat)
    hut.face_down, hut.revealed = ["upper-left"], {"upper-right": "witch"}
    refused(t, lambda: advance(t, "druid", adv("baba-lysaga", "scarecrow", item="axe-6", space="upper-right")),
            "Baba Lysaga's own token: it can never be moved or removed")
    refused(t, lambda: advance(t, "druid", adv("baba-lysaga", "gem", item="crowbar-6", to="door")),
            "Hut tokens \\(face up or down\\) block every way")


def test_rl_bl_3_with_the_gem_at_the_door_magical_items_and_15_defeat_her() -> None:
    """RL-BL-3: refused until the Gem is on the Door; then Magical items (only) and 15 defeat her."""
    t = hut_table(items=["staff-6", "tome-5", "axe-6"])
    refused(t, lambda: defeat(t, "druid", defeat_action("baba-lysaga", ["staff-6"])),
            "the Gem must reach the Door of her Hut \\(it is on the top space\\)")
    mat(t, "baba-lysaga", HutMat).gem = "door"
    refused(t, lambda: defeat(t, "druid", defeat_action("baba-lysaga", ["axe-6"])), "only magical items count")
    defeat(t, "druid", defeat_action("baba-lysaga", ["staff-6", "tome-5"]), [("defeat", [4])])
    assert t.state.monsters["baba-lysaga"].defeated


# -- Strahd ----------------------------------------------------------------------------------------------

def strahd_table(druid: str | None = "tent", items: list[str] | None = None, strahd: str = "stairway") -> Table:
    return new_table(heroes={"druid": druid, "sorcerer": "tower"}, held={"druid": items or []},
                     monsters={"strahd": strahd, "carrionette": "lake"}, haversack=[])


def strahd_rule(t: Table) -> StrahdRules:
    rule = t.rule("strahd")
    assert isinstance(rule, StrahdRules)
    return rule


def test_rl_su_9_the_castle_mat_is_on_the_board_only_with_strahd() -> None:
    """RL-SU-9, RL-ST-6: the second mat's locations join the graph with Strahd; one step links the two."""
    without = new_table(monsters={"carrionette": "village"})
    assert "heart" not in without.ctx.graph and "stairs" not in without.ctx.graph
    t = new_table(monsters={"strahd": None})
    assert "heart" in t.ctx.graph and t.ctx.graph.adjacent("stairway", "stairs")
    run(t.rule("strahd").setup(t.ctx))
    assert t.state.monsters["strahd"].location == "stairway"
    assert mat(t, "strahd", StrahdMat) == StrahdMat()
    assert any("Heart of Sorrow on the second" in text for text in t.texts())


def test_rl_st_6_strahd_walks_onto_his_mat_like_any_location() -> None:
    """RL-ST-6: one move takes him from the Grand Stairway to the Stairs on his mat."""
    t = strahd_table(druid="heart")
    run(t.rule("strahd").activate(t.ctx, Actor("strahd", "monster", "Strahd"), 1, 1))
    assert t.state.monsters["strahd"].location == "stairs"


def test_rl_st_1_rl_it_5_strahds_fury_hits_everyone_with_him_in_the_chosen_order() -> None:
    """RL-ST-1: one hit each; the order changes nothing here, so it is not asked (RL-MP-5);
    RL-IT-5: a Relic cannot stop the hit."""
    t = new_table(heroes={"druid": "stairway", "sorcerer": "stairway"}, held={"druid": ["rope-1", "lamp-2"]},
                  villagers={"ireena": "stairway"}, monsters={"strahd": "stairway"})
    t.state.heroes["sorcerer"].relics.append("sunsword")
    ran = run(strahd_rule(t).power(t.ctx, Figure("strahd"), Character("hero", "druid")),
              [("defend", "discard"), ("defend-items", ["rope-1"])])
    assert "fury-order" not in ran.keys
    assert t.state.villagers["ireena"].location is None
    assert held(t, "druid") == ["lamp-2"] and t.state.heroes["druid"].location == "stairway"
    sorcerer = t.state.heroes["sorcerer"]
    assert sorcerer.location is None and sorcerer.relics == ["sunsword"]
    assert t.state.terror == 2


def test_rl_st_2_madam_eva_shows_where_the_relic_of_that_type_lies() -> None:
    """RL-ST-2: the item's type picks the card; which card it was is an input; the Relic goes to its location."""
    t = strahd_table(items=["sword-5", "dagger-1", "rope-1"])
    ran = advance(t, "druid", adv("strahd", "eva", item="sword-5"), [("tarokka", "master-of-swords")])
    assert ran.prompts[0].kind == "draw" and ran.prompts[0].option_ids() == ["seven-of-swords", "master-of-swords"]
    strahd = mat(t, "strahd", StrahdMat)
    assert strahd.revealed == {"weapon": "master-of-swords"} and strahd.relics_on_board == {"sunsword": "gates"}
    assert t.state.item_discard == ["sword-5"]
    assert "The card is Master of Swords: put the Sunsword at Gates of Barovia." in t.texts()
    refused(t, lambda: advance(t, "druid", adv("strahd", "eva", item="dagger-1")),
            "the Tarokka card for weapon items is already face up \\(Master of Swords\\)")
    t.state.heroes["sorcerer"].location = "tent"
    refused(t, lambda: advance(t, "sorcerer", adv("strahd", "eva", item="rope-1")), "does not hold rope-1")
    t.state.heroes["druid"].location = "tower"
    refused(t, lambda: advance(t, "druid", adv("strahd", "eva", item="rope-1")),
            "must be at Madam Eva's Tent to consult Madam Eva")


def test_rl_it_5_relics_are_picked_up_where_they_lie() -> None:
    """RL-IT-5: a Relic is picked up like an item (into the hero's relics, not items)."""
    t = strahd_table(druid="gates")
    rule = strahd_rule(t)
    mat(t, "strahd", StrahdMat).relics_on_board = {"sunsword": "gates", "tome": "lake"}
    refused(t, lambda: rule.pick_up_relics(t.ctx, "druid", ["tome"]),
            "the Tome of Strahd lies at Lake Zarovich, but the Druid is at Gates of Barovia")
    refused(t, lambda: rule.pick_up_relics(t.ctx, "druid", ["holy-symbol"]), "not lying on the board")
    refused(t, lambda: rule.pick_up_relics(t.ctx, "druid", ["stake"]), "there is no Relic called 'stake'")
    rule.pick_up_relics(t.ctx, "druid", ["sunsword"])
    assert t.state.heroes["druid"].relics == ["sunsword"] and held(t, "druid") == []
    assert mat(t, "strahd", StrahdMat).relics_on_board == {"tome": "lake"}


def test_rl_st_3_relics_are_returned_to_their_rooms() -> None:
    """RL-ST-3: the Sunsword goes to the Tomb; the hero must hold it and stand there."""
    t = strahd_table(druid="study")
    t.state.heroes["druid"].relics.append("sunsword")
    refused(t, lambda: advance(t, "druid", adv("strahd", "relic", relic="sunsword")), "must be at Tomb")
    refused(t, lambda: advance(t, "druid", adv("strahd", "relic", relic="tome")), "does not hold the Tome of Strahd")
    t.state.heroes["druid"].location = "tomb"
    advance(t, "druid", adv("strahd", "relic", relic="sunsword"))
    assert mat(t, "strahd", StrahdMat).relics_returned == ["sunsword"] and t.state.heroes["druid"].relics == []
    assert "Put the Sunsword in Tomb (1 of 3 Relics returned)." in t.texts()
    refused(t, lambda: advance(t, "druid", adv("strahd", "relic", relic="sunsword")),
            "does not hold the Sunsword \\(it is already back in the castle\\)")


def test_rl_st_3_the_heart_waits_for_all_three_relics() -> None:
    """RL-ST-3: no Heart of Sorrow before every Relic is back."""
    t = strahd_table(druid="heart", items=["axe-6"])
    mat(t, "strahd", StrahdMat).relics_returned = ["sunsword", "tome"]
    refused(t, lambda: advance(t, "druid", adv("strahd", "heart", items=["axe-6"])),
            "still missing: Holy Symbol of Ravenkind")


def test_rl_st_4_destroying_the_heart_places_strahd_in_the_north_tower() -> None:
    """RL-ST-4: Weapons and 15 at the Heart; Strahd is placed (not moved) in the North Tower."""
    t = strahd_table(druid="heart", items=["axe-6", "sword-5", "orb-4"])
    mat(t, "strahd", StrahdMat).relics_returned = ["sunsword", "tome", "holy-symbol"]
    refused(t, lambda: advance(t, "druid", adv("strahd", "heart", items=["orb-4"])), "only weapon items count")
    advance(t, "druid", adv("strahd", "heart", items=["axe-6", "sword-5"]), [("heart", [4])])
    assert mat(t, "strahd", StrahdMat).heart_destroyed
    assert t.state.monsters["strahd"].location == "north-tower"
    assert "Place Strahd in North Tower (he is placed there, not moved)." in t.texts()
    refused(t, lambda: advance(t, "druid", adv("strahd", "heart", items=["orb-4"])), "already destroyed")


def test_rl_st_4_a_failed_heart_roll_leaves_strahd_where_he_is() -> None:
    """RL-ST-4."""
    t = strahd_table(druid="heart", items=["axe-6"])
    mat(t, "strahd", StrahdMat).relics_returned = ["sunsword", "tome", "holy-symbol"]
    advance(t, "druid", adv("strahd", "heart", items=["axe-6"]), [("heart", [8])])
    assert not mat(t, "strahd", StrahdMat).heart_destroyed and t.state.monsters["strahd"].location == "stairway"


def test_rl_st_5_the_showdown_needs_the_heart_destroyed_and_exactly_three_items() -> None:
    """RL-ST-5: refused before the Heart falls; exactly three items of any type; 15 defeats him."""
    t = strahd_table(druid="north-tower", items=["club-3", "orb-4", "mirror-5", "rope-1"], strahd="north-tower")
    refused(t, lambda: defeat(t, "druid", defeat_action("strahd", ["club-3", "orb-4", "mirror-5"])),
            "the Heart of Sorrow must be destroyed first")
    mat(t, "strahd", StrahdMat).heart_destroyed = True
    refused(t, lambda: defeat(t, "druid", defeat_action("strahd", ["club-3", "orb-4"])), "exactly 3 item")
    defeat(t, "druid", defeat_action("strahd", ["club-3", "orb-4", "mirror-5"]), [("defeat", [3])])
    assert t.state.monsters["strahd"].defeated and held(t, "druid") == ["rope-1"]
    assert "stairs" in t.ctx.graph  # RL-SU-9: his mat stays in play after he is defeated


# -- the options offered to a simulator or the tablet ----------------------------------------------------

def plays(build: Callable[[], Table], monster: str, distanced: bool = False) -> list[dict[str, object]]:
    """Every Advance option offered is bounded and is accepted by the rules on a fresh table."""
    options = build().rule(monster).advance_options(build().ctx, "druid", distanced)
    assert 0 < len(options) <= MAX_OPTIONS
    for option in options:
        t = build()
        run(t.rule(monster).advance(t.ctx, "druid", option, distanced), fallback=first_choice)
    return options


def test_carrionette_options_offer_each_bonus_per_free_part() -> None:
    """RL-CA-2: per free part, the weakest item earning each different bonus."""
    def build() -> Table:
        t = carrionette_table(druid=["bow-4", "club-3", "dagger-1", "shovel-4", "ring-1", "wand-2"])
        mat(t, "carrionette", CarrionetteMat).parts[2] = "mirror-5"
        return t
    options = plays(build, "carrionette")
    assert {(o["part"], o["item"]) for o in options} == {
        (0, "bow-4"), (0, "dagger-1"), (0, "ring-1"), (1, "wand-2"), (1, "ring-1"), (1, "dagger-1")}
    assert carrionette_table(druid=["bow-4"]).rule("carrionette").defeat_options(
        carrionette_table(druid=["bow-4"]).ctx, "druid") == []


def test_tree_options_cover_prune_and_dig() -> None:
    def build() -> Table:
        return tree_table(["lake", None, "tower"], druid="lake", items=["lamp-2", "rope-1", "ring-1", "orb-4"])
    options = plays(build, "gulthias-tree")
    assert {o["step"] for o in options} == {"prune", "dig"}
    assert all(o.get("blight") != 2 for o in options)  # the Blight at the Tower is out of reach
    assert {o["step"] for o in plays(build, "gulthias-tree", distanced=True) if o.get("blight") == 2} == {"prune"}


def test_hut_options_cover_every_step_kind() -> None:
    def build() -> Table:
        t = hut_table(items=["lamp-2", "club-3", "orb-4"])
        hut = mat(t, "baba-lysaga", HutMat)
        hut.face_down, hut.revealed = ["lower-left", "lower-right"], {"upper-left": "scarecrow-1", "centre": "raven-1"}
        return t
    options = plays(build, "baba-lysaga")
    assert {o["step"] for o in options} == {"reveal", "gem", "scarecrow", "raven"}
    assert {o["to"] for o in options if o["step"] == "gem"} == {"upper-right"}


def test_strahd_options_and_defeat_options() -> None:
    def build() -> Table:
        t = strahd_table(druid="tent", items=["sword-5", "dagger-1", "rope-1", "orb-4"])
        t.state.heroes["druid"].relics.append("tome")
        return t
    options = plays(build, "strahd", distanced=True)
    assert {o["step"] for o in options} == {"eva", "relic"}
    # the Tome is already found, so no Mundane card is left to consult: only Weapon and Magical
    assert [o["item"] for o in options if o["step"] == "eva"] == ["dagger-1", "orb-4"]
    t = strahd_table(druid="north-tower", items=["sword-5", "dagger-1", "rope-1", "orb-4"], strahd="north-tower")
    mat(t, "strahd", StrahdMat).heart_destroyed = True
    showdowns = t.rule("strahd").defeat_options(t.ctx, "druid")
    assert showdowns == [defeat_action("strahd", ["sword-5", "orb-4", "dagger-1"]),
                         defeat_action("strahd", ["dagger-1", "rope-1", "orb-4"])]


def test_defeat_options_are_strongest_first_weapon_sets() -> None:
    t = carrionette_table(druid=["bow-4", "axe-6", "ring-1"])
    mat(t, "carrionette", CarrionetteMat).parts = ["club-3", "wand-2", "mirror-5"]
    assert t.rule("carrionette").defeat_options(t.ctx, "druid") == [
        defeat_action("carrionette", ["axe-6"]), defeat_action("carrionette", ["axe-6", "bow-4"])]
