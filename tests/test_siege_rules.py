"""Siege of Barovia's rules, one test per rule of the text (quoted in each docstring),
on the shipped map (its keyed squares by name: tests/siege_fixtures.py)."""

from __future__ import annotations

import pytest

from companion.engine.errors import IllegalInput, SetupError
from companion.games.siege_of_barovia import dm, hero
from companion.games.siege_of_barovia.dm import ATTACK, DESTROY, SUMMON, DmAct, DmMove, DmTurn
from companion.games.siege_of_barovia.menu import hero_menu
from companion.games.siege_of_barovia.state import HERO_HP, STRAHD_HP
from siege_fixtures import SQUARE, act, clear_enemies, dm_does, fresh, kinds, put

HERO = "hero-p1"


# -- setup ----------------------------------------------------------------------------------------------

def test_setup_heroes_at_the_entrance_a_ghoul_at_the_graveyard_a_zombie_at_the_church() -> None:
    """"place all hero tokens on the indicated space, at the entrance to town. Place one ghoul token at
    the graveyard (space E8) and one zombie token at the church (space E7). Place barricades as shown."""
    state = fresh(players=3)
    assert {f.square for f in state.heroes()} == {state.map.entrance}
    assert [(f.kind, f.square) for f in state.enemies()] == [("ghoul", SQUARE["graveyard"]),
                                                              ("zombie", SQUARE["church"])]
    assert state.barricades == sorted(state.map.barricades) and not state.strahd.on_board
    assert all(f.hp == HERO_HP == 3 for f in state.heroes())


def test_up_to_six_heroes_besides_the_dm() -> None:
    """"up to six other players each direct their own hero"."""
    assert len(fresh(players=6).heroes()) == 6
    with pytest.raises(SetupError, match="from 1 to 6 players"):
        fresh(players=7)


# -- moving and barricades --------------------------------------------------------------------------------

def test_a_hero_moves_one_space_up_down_left_or_right_never_diagonally() -> None:
    """"Heroes and enemies may only move up down, left, or right; never diagonally."""
    state = fresh()
    put(state, HERO, "3,3")
    for refused in ("4,4", "3,5", "3,3"):
        with pytest.raises(IllegalInput, match="one square up, down, left or right"):
            act(state, {"action": "move", "to": refused})
    act(state, {"action": "move", "to": "3,2"})
    assert state.figures[HERO].square == "3,2" and state.moved


def test_a_barricade_stops_a_hero_and_a_militia() -> None:
    """"No hero or creature, except Count Strahd, can move through a barricade."""
    state = fresh()
    put(state, HERO, "4,2")  # the shipped map's barricade on the Mercantile's north side
    with pytest.raises(IllegalInput, match="a barricade stands in the way"):
        act(state, {"action": "move", "to": SQUARE["mercantile"]})
    assert state.figures[HERO].square == "4,2" and not state.moved


@pytest.mark.parametrize("kind", ["zombie-1", "ghoul-1"])
def test_a_barricade_stops_zombies_and_ghouls(kind: str) -> None:
    """"Zombies and ghouls cannot cross a barricade"."""
    state = fresh()
    put(state, kind, "4,2")
    assert DmMove(kind, SQUARE["mercantile"]) not in dm.moves(state)
    assert DmMove(kind, "3,2") in dm.moves(state)


def test_count_strahd_crosses_a_barricade_by_our_reading_and_not_by_the_other() -> None:
    """"No hero or creature, except Count Strahd, can move through a barricade" (Fortify), against the
    turn text's "may move through any space ... that is not protected by a barricade": the
    ``strahd_barricades`` reading."""
    crosses, stopped = fresh(), fresh(readings={"strahd_barricades": "stopped"})
    for state in (crosses, stopped):
        put(state, "strahd", "4,2")
    assert DmMove("strahd", SQUARE["mercantile"]) in dm.moves(crosses)
    assert DmMove("strahd", SQUARE["mercantile"]) not in dm.moves(stopped)


def test_many_figures_may_share_a_space() -> None:
    """"Multiple creatures may be in the same space with no penalty."""
    state = fresh(players=2)
    put(state, "hero-p2", "3,3")
    put(state, "zombie-1", "3,3")
    put(state, HERO, "3,2")
    act(state, {"action": "move", "to": "3,3"})
    assert len(state.at("3,3")) == 3


# -- hero actions -----------------------------------------------------------------------------------------

def test_hustle_moves_the_hero_one_additional_space() -> None:
    """"Hustle – The hero moves one additional space."""
    state = fresh()
    put(state, HERO, "3,3")
    act(state, {"action": "move", "to": "3,2"})
    act(state, {"action": "hustle", "to": "2,2"})
    assert state.figures[HERO].square == "2,2" and hero.turn_over(state)


def test_one_move_and_one_action_a_turn() -> None:
    """"he or she may move their hero 1 space and perform an action"."""
    state = fresh()
    put(state, HERO, "3,3")
    act(state, {"action": "move", "to": "3,2"})
    with pytest.raises(IllegalInput, match="already moved"):
        act(state, {"action": "move", "to": "3,1"})
    act(state, {"action": "fortify", "build": "N"})
    with pytest.raises(IllegalInput, match="already taken this turn's action"):
        act(state, {"action": "fortify", "build": "W"})


def test_by_our_reading_the_move_comes_before_the_action_and_the_other_reading_allows_either_order() -> None:
    """"may move their hero 1 space and perform an action": the ``hero_order`` reading."""
    ours, other = fresh(), fresh(readings={"hero_order": "any-order"})
    for state in (ours, other):
        put(state, HERO, "3,3")
        act(state, {"action": "fortify", "build": "N"})
    assert hero.turn_over(ours) and not hero.turn_over(other)
    act(other, {"action": "move", "to": "2,3"})
    assert hero.turn_over(other)


@pytest.mark.parametrize(("enemy", "misses", "hits"), [("zombie-1", 2, 3), ("ghoul-1", 3, 4)])
def test_attack_kills_a_zombie_on_3_and_a_ghoul_on_4(enemy: str, misses: int, hits: int) -> None:
    """"If the hero is attacking a zombie, a total die roll of 3 or higher hits and kills the zombie.
    If the hero is attacking a ghoul, a total die roll of 4 or higher hits and kills the ghoul."""
    for roll, killed in ((misses, False), (hits, True)):
        state = fresh()
        put(state, enemy, put(state, HERO, "3,3").square)
        effects = act(state, {"action": "attack", "target": enemy}, rolls=[roll])
        assert state.figures[enemy].on_board is not killed
        assert ("enemy-killed" in kinds(effects)) is killed and state.acted


def test_attack_only_an_enemy_in_the_heroes_space() -> None:
    """"A hero in a space with a zombie, a ghoul, or Count Strahd can attack one enemy in that space."""
    state = fresh()
    put(state, HERO, "3,3")
    put(state, "zombie-1", "3,2")
    with pytest.raises(IllegalInput, match="only an enemy in the same square"):
        act(state, {"action": "attack", "target": "zombie-1"})
    assert not state.acted


def test_upgraded_weapons_add_1_to_the_attack_roll() -> None:
    """"gaining a +1 bonus to their Attack die rolls": a zombie falls to a 2."""
    state = fresh()
    put(state, "zombie-1", put(state, HERO, "3,3").square)
    state.figures[HERO].upgraded = True
    act(state, {"action": "attack", "target": "zombie-1"}, rolls=[2])
    assert not state.figures["zombie-1"].on_board


def test_count_strahd_is_hurt_on_6_has_3_hit_points_and_flees_at_0() -> None:
    """"a total die roll of 6 or higher hits ... Count Strahd and deals 1 hit point of damage. Count Strahd
    starts the game with 3 hit points. If Count Strahd is reduced to 0 hit points, he flees back to his castle."""
    state = fresh()
    put(state, "strahd", put(state, HERO, "3,3").square)
    assert state.strahd.hp == STRAHD_HP == 3
    for roll, left in ((5, 3), (6, 2), (6, 1)):
        state.acted = False
        act(state, {"action": "attack", "target": "strahd"}, rolls=[roll])
        assert state.strahd.hp == left and state.strahd.on_board
    state.acted = False
    effects = act(state, {"action": "attack", "target": "strahd"}, rolls=[6])
    assert "strahd-fled" in kinds(effects) and not state.strahd.on_board


def test_the_upgrade_counts_against_strahd_by_our_reading_and_not_by_the_other() -> None:
    """"a total die roll of 6 or higher hits ... Count Strahd": a 5 with the +1 (``upgrade_vs_strahd``)."""
    for reading, hurt in (("counts", True), ("natural", False)):
        state = fresh(readings={"upgrade_vs_strahd": reading})
        put(state, "strahd", put(state, HERO, "3,3").square)
        state.figures[HERO].upgraded = True
        act(state, {"action": "attack", "target": "strahd"}, rolls=[5])
        assert (state.strahd.hp == STRAHD_HP - 1) is hurt


def test_fortify_builds_destroys_or_moves_barricades_to_lines_of_the_heroes_space() -> None:
    """"A hero either builds a barricade across one line in the space that the hero is in, destroys a
    barricade across one line in the space that hero is in, or moves any number of barricades to lines in
    the space that hero is in."""
    state = fresh()
    put(state, HERO, "3,3")
    act(state, {"action": "fortify", "build": "N"})
    assert ("3,2", "3,3") in state.barricades
    state.acted = False
    act(state, {"action": "fortify", "destroy": "N"})
    assert ("3,2", "3,3") not in state.barricades
    state.acted = False
    far = [list(line) for line in state.barricades[:2]]
    act(state, {"action": "fortify", "move": [{"from": far[0], "to": "E"}, {"from": far[1], "to": "S"}]})
    assert ("3,3", "4,3") in state.barricades and ("3,3", "3,4") in state.barricades
    assert all(tuple(line) not in state.barricades for line in far)


def test_fortify_refuses_the_boards_edge_a_second_barricade_and_a_missing_one() -> None:
    """A barricade stands "across one line" between two spaces: none on the board's edge, one a line."""
    state = fresh()
    put(state, HERO, "0,0")
    with pytest.raises(IllegalInput, match="the board's edge"):
        act(state, {"action": "fortify", "build": "N"})
    put(state, HERO, "4,2")
    with pytest.raises(IllegalInput, match="already stands"):
        act(state, {"action": "fortify", "build": "S"})
    with pytest.raises(IllegalInput, match="no barricade stands"):
        act(state, {"action": "fortify", "destroy": "N"})
    assert not state.acted and state.barricades == sorted(state.map.barricades)


def test_upgrade_weapons_once_at_the_mercantile_with_no_enemy_there() -> None:
    """"A hero in Bildrath's Mercantile (space E4) with no enemies in the space may upgrade their weapons
    ... A hero can only upgrade his or her weapons once."""
    state = fresh()
    put(state, HERO, SQUARE["mercantile"])
    put(state, "ghoul-1", SQUARE["mercantile"])
    with pytest.raises(IllegalInput, match="no enemy"):
        act(state, {"action": "upgrade"})
    put(state, "ghoul-1", None)
    act(state, {"action": "upgrade"})
    assert state.figures[HERO].upgraded
    state.acted = False
    with pytest.raises(IllegalInput, match="once only"):
        act(state, {"action": "upgrade"})


def test_upgrade_weapons_is_lost_with_the_mercantile_and_only_at_it() -> None:
    """"This action cannot be used if Bildrath's Mercantile has been destroyed."""
    state = fresh()
    put(state, HERO, SQUARE["tavern"])
    with pytest.raises(IllegalInput, match="only at Bildrath's Mercantile"):
        act(state, {"action": "upgrade"})
    put(state, HERO, SQUARE["mercantile"])
    state.destroyed.append("mercantile")
    with pytest.raises(IllegalInput, match="was destroyed"):
        act(state, {"action": "upgrade"})


def test_rest_at_the_tavern_regains_all_hit_points_unless_it_was_destroyed() -> None:
    """"A hero in the Blood on the Vine Tavern may rest to regain all of their hit points. A hero may not
    use this action if the Blood on the Vine Tavern has been destroyed."""
    state = fresh()
    put(state, HERO, SQUARE["tavern"]).hp = 1
    act(state, {"action": "rest"})
    assert state.figures[HERO].hp == HERO_HP
    state.acted, state.figures[HERO].hp = False, 1
    state.destroyed.append("tavern")
    with pytest.raises(IllegalInput, match="was destroyed"):
        act(state, {"action": "rest"})


def test_recruit_militia_for_a_player_with_no_figure_at_a_safe_house_with_one_hit_point() -> None:
    """"A player with no hero or peasant militia may spend their turn to create a peasant militia ... only
    has 1 hit point and cannot use Upgrade Weapons. The peasant militia begins ... at any of the three safe houses."""
    state = fresh()
    with pytest.raises(IllegalInput, match="already controls a figure"):
        act(state, {"action": "recruit-militia", "at": "tavern"})
    put(state, HERO, None)
    state.players[0].figure = None
    with pytest.raises(IllegalInput, match="begins at one of the three safe houses"):
        act(state, {"action": "recruit-militia", "at": "church"})
    act(state, {"action": "recruit-militia", "at": "mercantile"})
    militia = state.figure_of(state.players[0])
    assert militia is not None and (militia.kind, militia.hp, militia.square) == ("militia", 1, SQUARE["mercantile"])
    state.acted = False
    with pytest.raises(IllegalInput, match="cannot upgrade"):
        act(state, {"action": "upgrade"})


def test_a_militia_begins_at_a_standing_safe_house_by_our_reading() -> None:
    """"begins the game at any of the three safe houses": a destroyed one by the ``militia_start`` reading."""
    for reading, allowed in (("standing", False), ("any", True)):
        state = fresh(readings={"militia_start": reading})
        put(state, HERO, None)
        state.players[0].figure = None
        state.destroyed.append("tavern")
        assert ("tavern" in hero.militia_places(state)) is allowed


def test_recruit_ashlyn_or_ireena_at_the_town_square_or_the_estate_once_each() -> None:
    """"A hero in either the town square (space E3) or the Kolyana Estate (space E11) may recruit one of the
    local heroes of Barovia – Ashlyn or Ireena Kolyana ... may only be recruited once per game each."""
    state = fresh(players=2)
    state.players[1].figure = None
    put(state, "hero-p2", None)
    put(state, HERO, "3,3")
    with pytest.raises(IllegalInput, match="is recruited at"):
        act(state, {"action": "recruit", "hero": "ashlyn"})
    put(state, HERO, SQUARE["town-square"])
    act(state, {"action": "recruit", "hero": "ashlyn"})
    ashlyn = state.figure_of(state.players[1])
    assert ashlyn is not None and (ashlyn.name, ashlyn.hp, ashlyn.square) == ("Ashlyn", 3, SQUARE["town-square"])
    state.acted, state.players[1].figure = False, None
    with pytest.raises(IllegalInput, match="already been recruited"):
        act(state, {"action": "recruit", "hero": "ashlyn"})


def test_a_recruit_needs_a_player_with_no_figure_by_our_reading() -> None:
    """"a player may only control a single hero or peasant militia at a time"."""
    state = fresh()
    put(state, HERO, SQUARE["estate"])
    with pytest.raises(IllegalInput, match="nobody can take a new hero"):
        act(state, {"action": "recruit", "hero": "ireena"})
    other = fresh(readings={"recruit_for": "new-player"})
    put(other, HERO, SQUARE["estate"])
    act(other, {"action": "recruit", "hero": "ireena"})
    assert len(other.players) == 2 and other.figure_of(other.players[1]) is not None


def test_ireena_cannot_be_recruited_once_the_estate_is_destroyed() -> None:
    """"Ireena Kolyana cannot be recruited if the Kolyana Estate has been destroyed."""
    state = fresh(players=2)
    state.players[1].figure = None
    put(state, HERO, SQUARE["town-square"])
    state.destroyed.append("estate")
    with pytest.raises(IllegalInput, match="Kolyana Estate was destroyed"):
        act(state, {"action": "recruit", "hero": "ireena"})


def test_recruit_where_by_the_other_reading_ashlyn_at_the_square_ireena_at_home() -> None:
    """"either the town square (space E3) or the Kolyana Estate (space E11)": ``recruit_where``."""
    state = fresh(readings={"recruit_where": "own"})
    assert hero.recruit_squares(state, "ashlyn") == [SQUARE["town-square"]]
    assert hero.recruit_squares(state, "ireena") == [SQUARE["estate"]]


def test_stop_the_plague_in_the_church_with_no_enemy_wins() -> None:
    """"A hero in the Church (space E7) with no enemies in the space sanctifies the church and stops the
    undead plague, winning the game."""
    state = fresh()
    put(state, HERO, SQUARE["church"])
    with pytest.raises(IllegalInput, match="only with no enemy"):
        act(state, {"action": "stop-plague"})
    put(state, "zombie-1", None)
    with pytest.raises(hero.GameEnded):
        act(state, {"action": "stop-plague"})
    assert state.outcome == "won"


def test_the_menu_offers_only_what_the_rules_accept() -> None:
    """Every button of the hero turn is an answer the rules take (each is played on a copy)."""
    for square in (SQUARE["mercantile"], SQUARE["tavern"], SQUARE["town-square"], "3,3"):
        state = fresh(players=2)
        state.players[1].figure = None
        put(state, HERO, square).hp = 2
        put(state, "ghoul-1", square)
        for entry in hero_menu(state):
            copy = fresh(players=2)
            copy.players[1].figure = None
            put(copy, HERO, square).hp = 2
            put(copy, "ghoul-1", square)
            act(copy, {k: v for k, v in entry.items() if k != "label"}, rolls=[6] if entry["action"] == "attack" else [])


# -- the Dungeon Master ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("enemy", "misses", "hits"), [("zombie-1", 5, 6), ("ghoul-1", 4, 5), ("strahd", 3, 4)])
def test_dm_attack_hits_on_6_for_a_zombie_5_for_a_ghoul_4_for_strahd(enemy: str, misses: int, hits: int) -> None:
    """"If a zombie is attacking a hero, a die roll of 6 hits ... a ghoul ... 5 or 6 ... Count Strahd ...
    4, 5 or 6 hits and deals 1 hit point of damage."""
    for roll, hurt in ((misses, False), (hits, True)):
        state = fresh()
        put(state, enemy, put(state, HERO, "3,3").square)
        dm_does(state, DmTurn(None, DmAct(ATTACK, enemy, HERO)), rolls=[roll])
        assert state.figures[HERO].hp == (HERO_HP - 1 if hurt else HERO_HP)


def test_a_dm_attack_needs_a_hero_in_the_creatures_space() -> None:
    """"A zombie, ghoul, or Count Strahd in a space with a hero can attack one hero in that space."""
    state = fresh()
    put(state, HERO, "3,3")
    with pytest.raises(IllegalInput, match="attack only a hero in its own square"):
        dm.parse_turn(state, {"action": "dm", "act": {"kind": "attack", "by": "zombie-1", "target": HERO}})
    put(state, "zombie-1", "3,2")
    turn = dm.parse_turn(state, {"action": "dm", "move": {"figure": "zombie-1", "to": "3,3"},
                                 "act": {"kind": "attack", "by": "zombie-1", "target": HERO}})
    assert turn == DmTurn(DmMove("zombie-1", "3,3"), DmAct(ATTACK, "zombie-1", HERO))


def test_a_slain_hero_rises_as_a_zombie_in_their_space() -> None:
    """"If a hero is reduced to 0 hit points, it is slain and a new zombie is immediately placed in their space."""
    state = fresh()
    put(state, "strahd", put(state, HERO, "3,3").square)
    state.figures[HERO].hp = 1
    effects = dm_does(state, DmTurn(None, DmAct(ATTACK, "strahd", HERO)), rolls=[6])
    assert "hero-slain" in kinds(effects) and not state.figures[HERO].on_board
    assert state.players[0].figure is None and [z.id for z in state.at("3,3", "zombie")] == ["zombie-2"]


def test_the_dm_moves_one_creature_one_space() -> None:
    """"he or she may move one zombie, or one ghoul, or Count Strahd one space and then perform an action"."""
    state = fresh()
    with pytest.raises(IllegalInput, match="one square up, down, left or right"):
        dm.parse_turn(state, {"action": "dm", "move": {"figure": "ghoul-1", "to": "6,3"}})
    with pytest.raises(IllegalInput, match="a zombie, a ghoul or Count Strahd on the board"):
        dm.parse_turn(state, {"action": "dm", "move": {"figure": HERO, "to": "1,4"}})
    dm_does(state, dm.parse_turn(state, {"action": "dm", "move": {"figure": "ghoul-1", "to": "6,2"}}))
    assert state.figures["ghoul-1"].square == "6,2" and state.last_dm is not None
    assert state.last_dm.path == (SQUARE["graveyard"], "6,2")


def test_the_acting_creature_by_the_other_reading_must_be_the_moved_one() -> None:
    """"move one zombie, or one ghoul, or Count Strahd one space and then perform an action": ``dm_actor``."""
    for reading, allowed in (("any", True), ("moved", False)):
        state = fresh(readings={"dm_actor": reading})
        put(state, "zombie-1", put(state, HERO, "3,3").square)
        turn = DmTurn(DmMove("ghoul-1", "6,2"), DmAct(ATTACK, "zombie-1", HERO))
        assert (turn in dm.turns(state)) is allowed


@pytest.mark.parametrize(("roll", "result"), [(1, None), (2, None), (3, "zombie"), (4, "zombie"), (5, "ghoul")])
def test_the_summon_table(roll: int, result: str | None) -> None:
    """"1-2 Nothing happens. 3-4 Create a new zombie at the church (space E7). 5 Create a new ghoul at the
    graveyard"."""
    state = fresh()
    before = len(state.enemies())
    dm_does(state, DmTurn(None, DmAct(SUMMON)), rolls=[roll])
    new = state.enemies()[before:]
    where = {"zombie": SQUARE["church"], "ghoul": SQUARE["graveyard"]}
    assert [(f.kind, f.square) for f in new] == ([(result, where[result])] if result else [])


def test_a_summoned_ghoul_comes_to_e11_by_the_printed_reading() -> None:
    """"5 Create a new ghoul at the graveyard (space E11)" - E8 in setup: the ``ghoul_summon`` reading."""
    state = fresh(readings={"ghoul_summon": "printed-e11"})
    dm_does(state, DmTurn(None, DmAct(SUMMON)), rolls=[5])
    assert state.enemies()[-1].square == SQUARE["estate"] == state.map.places["estate"].square


def test_a_6_brings_strahd_to_the_edge_with_his_damage_removed_and_nothing_if_he_is_on_the_board() -> None:
    """"6 If Count Strahd is currently on the board, nothing happens. If Count Strahd is not on the board,
    place Count Strahd on any space at the edge of the board. Any previous damage Count Strahd has taken is removed."""
    state = fresh()
    state.strahd.hp = 1
    edge = state.map.edge[3]
    effects = dm_does(state, DmTurn(None, DmAct(SUMMON)), rolls=[6], edge=edge)
    assert "strahd-arrives" in kinds(effects) and state.strahd.square == edge and state.strahd.hp == STRAHD_HP
    effects = dm_does(state, DmTurn(None, DmAct(SUMMON)), rolls=[6])
    assert "summon-nothing" in kinds(effects) and state.strahd.square == edge


def test_the_person_dm_chooses_strahds_edge_square_on_their_own_phone() -> None:
    """"place Count Strahd on any space at the edge of the board": the DM's choice, the DM's eyes."""
    prompt = dm.edge_prompt(fresh())
    assert prompt.audience == ("dm",) and prompt.option_ids() == list(fresh().map.edge)


def test_destroy_a_safe_house_a_creature_stands_on_and_its_action_is_lost() -> None:
    """"If a zombie, ghoul, or Count Strahd is on one of the three safe houses ... it may destroy that
    location. Heroes cannot use the action associated with that location for the rest of the game."""
    state = fresh()
    assert DmAct(DESTROY, "zombie-1") not in dm.acts(state, None)  # the church is no safe house
    put(state, "zombie-1", SQUARE["tavern"])
    effects = dm_does(state, DmTurn(None, DmAct(DESTROY, "zombie-1")))
    assert "site-destroyed" in kinds(effects) and state.destroyed == ["tavern"]
    assert DmAct(DESTROY, "zombie-1") not in dm.acts(state, None)  # once destroyed, for good
    put(state, HERO, SQUARE["tavern"]).hp = 1
    assert all(e["action"] != "rest" for e in hero_menu(state))


def test_the_dm_wins_when_all_three_safe_houses_are_destroyed() -> None:
    """"If all three safe houses are destroyed, the Dungeon Master wins the game."""
    state = fresh()
    clear_enemies(state)
    state.destroyed += ["tavern", "mercantile"]
    put(state, "ghoul-1", SQUARE["estate"])
    with pytest.raises(hero.GameEnded):
        dm_does(state, DmTurn(None, DmAct(DESTROY, "ghoul-1")))
    assert state.outcome is not None and state.outcome.startswith("lost")


def test_the_dm_may_take_no_action_by_our_reading_and_must_act_by_the_other() -> None:
    """"he or she may move one zombie, or one ghoul, or Count Strahd one space and then perform an action":
    the ``dm_pass`` reading."""
    ours, other = fresh(), fresh(readings={"dm_pass": "must-act"})
    assert DmTurn(None, None) in dm.turns(ours) and dm.parse_turn(ours, {"action": "dm"}) == DmTurn()
    assert all(turn.act is not None for turn in dm.turns(other))
    with pytest.raises(IllegalInput, match="the DM must take an action"):
        dm.parse_turn(other, {"action": "dm", "move": {"figure": "ghoul-1", "to": "6,2"}})
