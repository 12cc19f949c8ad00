"""The original Horrified's rules, played through the engine on the shipped board: each monster's
setup, Power, task and Defeat, and the rules where this box differs from Ravenloft. Each test
first asserts the distances it relies on, so a change of the board data shows up as what it is.
The quoted rules are the rules summary's words (docs/horrified.md, "Sources")."""

from __future__ import annotations

import pytest

from companion.engine.errors import IllegalInput
from companion.games.horrified.monsters.dracula import DraculaMat

from horrified_fixtures import act, context, hero, kinds, new_game, of_kind, pack_rules, play, position


def distance(game_or_none: object, a: str, b: str, mover: str | None = None) -> int:
    game = game_or_none if game_or_none is not None else new_game(position({"dracula": "crypt"}, [hero("mayor", "abbey")]))
    return context(game).graph.distances(a, mover)[b]  # type: ignore[arg-type]


# -- the board ----------------------------------------------------------------------------------------------

def test_the_board_has_the_named_places_the_streets_and_the_water() -> None:
    """"The board: the 19 named locations and the 4 unnamed street spaces ... and the water ways
    that only the Creature may use (Lagoon, River, Waterfront)"; "You cannot move to water spaces;
    cross the river only using one of the two bridge spaces"."""
    game = new_game(position({"creature": "lagoon"}, [hero("mayor", "abbey")]))
    graph = context(game).graph
    land = graph.distances("abbey")
    assert len(graph.places) == 26 and len(land) == 23
    assert not {"lagoon", "river", "waterfront"} & set(land)
    assert land["crypt"] == 1 and land["mansion"] == 1 and land["docks"] == 6
    swim = graph.distances("lagoon", "creature")
    assert swim["cave"] == 1 and swim["abbey"] == 1 and swim["river"] == 2 and swim["docks"] == 5
    with pytest.raises(IllegalInput):
        act(game, action="move", to="lagoon")


# -- Dracula ------------------------------------------------------------------------------------------------------

def test_dracula_is_set_up_in_the_crypt_with_four_coffins() -> None:
    """"Dracula: Smash Dracula's four coffins and overcome him." He starts in the Crypt."""
    game = new_game({"setup": {"monsters": ["dracula"], "heroes": ["mayor", "scientist"]}})
    assert game.state.monsters["dracula"].location == "crypt"
    view = context(game).monster_rules["dracula"].mat_view(context(game))
    assert view["coffins"] == ["cave", "crypt", "dungeon", "graveyard"] and view["smashed"] == []


def test_dracula_s_power_pulls_the_current_hero_into_his_space() -> None:
    """His Power (Dark Charm): the current hero is put in Dracula's space, before the hits are dealt."""
    game = new_game(position({"dracula": "crypt"}, [hero("mayor", "abbey"), hero("professor", "crypt")],
                             phase="monster"))
    assert distance(game, "crypt", "abbey") == 1
    seen = play(game, ("monster-card", "the-enthralled"), ("monster-dice", ["pow"]))
    assert [e.data["target"] for e in of_kind(seen, "target")] == ["professor"]
    assert game.state.heroes["mayor"].location == "crypt"
    assert of_kind(seen, "figure-moved")[0].data["path"] == ["abbey", "crypt"]


def test_a_coffin_is_smashed_with_red_items_of_strength_six_at_its_place() -> None:
    """Smash a coffin: red items of strength 6 or more, at the coffin's location (the Cave here)."""
    game = new_game(position({"dracula": "crypt"}, [hero("mayor", "cave", "dart-1", "fire-poker-1", "stake-1")]))
    with pytest.raises(IllegalInput, match="strength 6 or more; these add up to 5"):
        act(game, action="advance", monster="dracula", step="coffin", items=["dart-1", "fire-poker-1"])
    with pytest.raises(IllegalInput, match="only red items"):
        act(game, action="advance", monster="dracula", step="coffin", items=["stake-1"])
    assert game.state.heroes["mayor"].items == ["dart-1", "fire-poker-1", "stake-1"]
    game = new_game(position({"dracula": "crypt"}, [hero("mayor", "cave", "rifle-1", "dart-1")]))
    seen = act(game, action="advance", monster="dracula", step="coffin", items=["rifle-1"])
    assert "coffin-smashed" in kinds(seen)
    mat = game.state.mats["dracula"]
    assert isinstance(mat, DraculaMat) and mat.smashed == ["cave"] and "rifle-1" in game.state.item_discard
    with pytest.raises(IllegalInput, match="no coffin left to smash at Cave"):
        act(game, action="advance", monster="dracula", step="coffin", items=["dart-1"])


def test_the_scientist_adds_one_to_each_item() -> None:
    """The Scientist's ability: each item used counts one more strength (a red 5 smashes a coffin)."""
    game = new_game(position({"dracula": "crypt"}, [hero("scientist", "cave", "rapier-1")]))
    assert "coffin-smashed" in kinds(act(game, action="advance", monster="dracula", step="coffin", items=["rapier-1"]))


def test_dracula_is_defeated_only_once_every_coffin_is_smashed() -> None:
    """"Smash Dracula's four coffins and overcome him": yellow items of strength 6 in his space."""
    held = hero("mayor", "crypt", "stake-1", "scroll-of-thoth-1")
    game = new_game(position({"dracula": "crypt"}, [held], mats={"dracula": {"smashed": ["cave", "crypt", "dungeon"]}}))
    with pytest.raises(IllegalInput, match="first smash the coffins at Graveyard"):
        act(game, action="defeat", monster="dracula", items=["stake-1", "scroll-of-thoth-1"])
    game = new_game(position({"dracula": "crypt", "creature": "lagoon"}, [held],
                             mats={"dracula": {"smashed": ["cave", "crypt", "dungeon", "graveyard"]}}))
    seen = act(game, action="defeat", monster="dracula", items=["stake-1", "scroll-of-thoth-1"])
    assert "monster-defeated" in kinds(seen) and game.state.monsters["dracula"].defeated
    assert game.state.frenzy == "creature"


# -- the Creature ------------------------------------------------------------------------------------------------

def test_the_creature_starts_in_the_lagoon_and_swims_where_no_one_else_goes() -> None:
    """The water ways are for the Creature alone: from the Lagoon it reaches the Cave in one step,
    which takes a hero three (the Cave, the Camp, the West bridge and back round by land)."""
    game = new_game({"setup": {"monsters": ["creature", "dracula"], "heroes": ["mayor", "scientist"]}})
    assert game.state.monsters["creature"].location == "lagoon"
    game = new_game(position({"creature": "lagoon"}, [hero("mayor", "cave")], phase="monster"))
    assert distance(game, "lagoon", "cave", "creature") == 1 and "lagoon" not in context(game).graph.distances("cave")
    seen = play(game, ("monster-card", "the-ichthyologist"), ("monster-dice", ["blank", "blank"]))
    assert of_kind(seen, "monster-moved")[0].data["path"] == ["lagoon", "cave"]
    assert [e.data["target"] for e in of_kind(seen, "target")] == ["mayor", "mayor"]


def test_items_spent_at_the_docks_move_the_boat_and_his_power_pushes_it_back() -> None:
    """"Creature from the Black Lagoon: Find the hidden lair": each item moves the boat along the
    lair path (our reading: one step per point of strength); his Power moves it back one step."""
    game = new_game(position({"creature": "lagoon"}, [hero("archaeologist", "docks", "knife-1", "flower-1")]))
    seen = act(game, action="advance", monster="creature", step="boat", items=["knife-1", "flower-1"])
    assert game.state.mats["creature"].boat == 5 and "boat-moved" in kinds(seen)  # type: ignore[attr-defined]
    with pytest.raises(IllegalInput, match="the boat sets out from Docks"):
        game2 = new_game(position({"creature": "lagoon"}, [hero("archaeologist", "tower", "knife-1")]))
        act(game2, action="advance", monster="creature", step="boat", items=["knife-1"])
    game = new_game(position({"creature": "docks"}, [hero("mayor", "docks")], phase="monster",
                             mats={"creature": {"boat": 4}}))
    play(game, ("monster-card", "the-ichthyologist"), ("monster-dice", ["pow", "blank"]), ("monster-dice", ["blank"] * 2))
    assert game.state.mats["creature"].boat == 3  # type: ignore[attr-defined]


def test_the_creature_is_driven_away_with_one_red_one_yellow_and_one_blue_item_once_the_lair_is_found() -> None:
    """"... and drive the Creature away": one item of each colour, in his space, after the lair is found."""
    items = ("knife-1", "flower-1", "kite-1", "knife-2")
    game = new_game(position({"creature": "docks"}, [hero("mayor", "docks", *items)], mats={"creature": {"boat": 18}}))
    with pytest.raises(IllegalInput, match="find the lair"):
        act(game, action="defeat", monster="creature", items=["knife-1", "flower-1", "kite-1"])
    game = new_game(position({"creature": "docks"}, [hero("mayor", "docks", *items)], mats={"creature": {"boat": 19}}))
    with pytest.raises(IllegalInput, match="one item of each of red, yellow, blue"):
        act(game, action="defeat", monster="creature", items=["knife-1", "flower-1", "knife-2"])
    seen = act(game, action="defeat", monster="creature", items=["knife-1", "flower-1", "kite-1"])
    assert "monster-defeated" in kinds(seen) and game.state.outcome is not None and game.state.outcome.startswith("won")


# -- the Invisible Man -----------------------------------------------------------------------------------------------

def test_evidence_is_one_item_from_each_of_five_places_handed_in_at_the_precinct() -> None:
    """"The Invisible Man: Supply evidence of his existence to the police": an item from the Inn,
    the Barn, the Laboratory, the Institute and the Mansion, delivered at the Precinct."""
    game = new_game(position({"invisible-man": "inn"},
                             [hero("inspector", "precinct", "dart-1", "torch-1", "centrifuge-1", "knife-1", "dart-2")]))
    with pytest.raises(IllegalInput, match="Knife will not do"):
        act(game, action="advance", monster="invisible-man", step="evidence", items=["knife-1"])
    with pytest.raises(IllegalInput, match="two items from one place"):
        act(game, action="advance", monster="invisible-man", step="evidence", items=["dart-1", "dart-2"])
    act(game, action="advance", monster="invisible-man", step="evidence", items=["dart-1", "torch-1", "centrifuge-1"])
    assert game.state.mats["invisible-man"].evidence == {  # type: ignore[attr-defined]
        "inn": "dart-1", "barn": "torch-1", "laboratory": "centrifuge-1"}
    assert game.state.heroes["inspector"].items == ["knife-1", "dart-2"]
    with pytest.raises(IllegalInput, match="bring evidence from Institute, Mansion to Precinct"):
        game.apply({"key": "hero-action", "answer": {"action": "defeat", "monster": "invisible-man", "items": ["knife-1"]}})


def test_the_invisible_man_is_trapped_with_red_items_of_strength_nine() -> None:
    evidence = {"inn": "dart-1", "barn": "torch-1", "laboratory": "centrifuge-1", "institute": "analysis-1",
                "mansion": "telescope"}
    game = new_game(position({"invisible-man": "barn"}, [hero("mayor", "barn", "rifle-1", "fire-poker-1")],
                             mats={"invisible-man": {"evidence": evidence}}))
    seen = act(game, action="defeat", monster="invisible-man", items=["rifle-1", "fire-poker-1"])
    assert "monster-defeated" in kinds(seen)


def test_his_power_stalks_the_closest_villager() -> None:
    """His Power: he walks up to two spaces toward the closest villager (Maria at the Precinct, two away)."""
    game = new_game(position({"invisible-man": "inn"}, [hero("mayor", "inn")], phase="monster",
                             villagers={"maria": "precinct"}))
    assert distance(game, "inn", "precinct") == 2
    seen = play(game, ("monster-card", "former-employer"), ("monster-dice", ["pow", "blank"]),
                ("monster-dice", ["hit", "blank"]))
    assert of_kind(seen, "monster-moved")[0].data["path"] == ["inn", "fountain", "precinct"]
    assert [e.data["target"] for e in of_kind(seen, "target")] == ["mayor", "maria"]
    assert game.state.villagers["maria"].location is None and game.state.terror == 1


# -- the Wolf Man ------------------------------------------------------------------------------------------------------

def test_the_cure_takes_blue_items_of_the_strengths_its_slots_print_at_the_laboratory() -> None:
    """"The Wolf Man: Discover the cure for lycanthropy": blue items of strength 1, 1, 2, 2, 3, 3."""
    game = new_game(position({"wolf-man": "mansion"}, [hero("mayor", "laboratory", "kite-1", "centrifuge-1")],
                             mats={"wolf-man": {"cure": ["kite-2", "anatomy-text-1"]}}))
    with pytest.raises(IllegalInput, match="open slots take strengths 2, 2, 3, 3"):
        act(game, action="advance", monster="wolf-man", step="cure", items=["kite-1"])
    game = new_game(position({"wolf-man": "mansion"}, [hero("mayor", "laboratory", "experiment-1", "camera", "dart-1")]))
    act(game, action="advance", monster="wolf-man", step="cure", items=["experiment-1", "camera"])
    assert game.state.mats["wolf-man"].cure == ["experiment-1", "camera"]  # type: ignore[attr-defined]


def test_the_wolf_man_takes_the_cure_and_red_items_of_strength_six() -> None:
    """"... and administer it": once the cure is made, red items of strength 6 in his space."""
    cure = ["kite-1", "kite-2", "experiment-1", "experiment-2", "camera", "rotenone"]
    game = new_game(position({"wolf-man": "mansion"}, [hero("mayor", "mansion", "rifle-1")],
                             mats={"wolf-man": {"cure": cure[:5]}}))
    with pytest.raises(IllegalInput, match="still needed: strengths 3"):
        act(game, action="defeat", monster="wolf-man", items=["rifle-1"])
    game = new_game(position({"wolf-man": "mansion"}, [hero("mayor", "mansion", "rifle-1")], mats={"wolf-man": {"cure": cure}}))
    assert "monster-defeated" in kinds(act(game, action="defeat", monster="wolf-man", items=["rifle-1"]))


def test_the_wolf_man_s_power_strikes_everyone_in_his_space() -> None:
    """His Power: one hit on every hero and every villager with him."""
    game = new_game(position({"wolf-man": "mansion"}, [hero("mayor", "mansion")], phase="monster",
                             villagers={"lucy": "mansion"}))
    seen = play(game, ("monster-card", "fortune-teller"), ("monster-dice", ["pow", "blank"]))
    assert {e.kind for e in seen} >= {"hero-defeated", "villager-defeated"} and game.state.terror == 2


def test_the_hunt_is_on_marks_the_current_hero_and_draws_him_toward_them() -> None:
    """The Hunt Is On: the Wolf Man hunts the current hero and moves three spaces toward them; as
    the frenzied monster he then strikes on the Frenzy symbol although the Event is his."""
    game = new_game(position({"wolf-man": "mansion"}, [hero("mayor", "theatre")], phase="monster"))
    assert distance(game, "mansion", "theatre") == 3
    seen = play(game, ("monster-card", "the-hunt-is-on-1"), ("monster-dice", ["blank", "blank"]))
    assert game.state.mats["wolf-man"].hunted == "mayor"  # type: ignore[attr-defined]
    assert game.state.monsters["wolf-man"].location == "theatre"
    assert [e.data["target"] for e in of_kind(seen, "target")] == ["mayor"]


# -- the Mummy ---------------------------------------------------------------------------------------------------------

def test_the_tablet_is_worked_one_move_at_a_time_and_each_move_is_checked() -> None:
    """"The Mummy: Break the Mummy's curse": a yellow item at the Museum gives as many moves as its
    strength; a face-down scarab is turned up (the players say its number), a face-up one slides
    into the empty slot next to it; a move the scarabs do not allow is refused."""
    game = new_game(position({"mummy": "museum"}, [hero("mayor", "museum", "tablet-1")]))
    act(game, action="advance", monster="mummy", step="tablet", items=["tablet-1"])
    assert game.prompt is not None and game.prompt.key == "scarab" and game.prompt.context["moves_left"] == 3
    play(game, ("scarab", "flip:1"))
    assert [o.id for o in game.prompt.options] == ["4", "5", "6"]  # type: ignore[union-attr]
    play(game, ("scarab-number", "4"))
    with pytest.raises(IllegalInput):
        play(game, ("scarab", "slide:2"))
    play(game, ("scarab", "slide:1"), ("scarab", "stop"))
    mat = game.state.mats["mummy"]
    assert (mat.numbers, mat.up, mat.empty) == ([4, None, None, None, None, None, None],  # type: ignore[attr-defined]
                                                [True] + [False] * 6, 1)


def test_the_tablet_solved_breaks_the_curse_and_the_mummy_goes_back_with_red_items_of_nine() -> None:
    """Scarab n face up in slot n for every n breaks the curse; then red items of strength 9 in his space."""
    tablet = {"numbers": [6, 1, 2, 3, 4, 5, None], "up": [True] * 6 + [False], "empty": 6}
    game = new_game(position({"mummy": "museum"}, [hero("mayor", "museum", "flower-1", "rifle-1", "fire-poker-1")],
                             mats={"mummy": tablet}))
    with pytest.raises(IllegalInput, match="solve the scarab tablet"):
        act(game, action="defeat", monster="mummy", items=["rifle-1", "fire-poker-1"])
    seen = act(game, action="advance", monster="mummy", step="tablet", items=["flower-1"])
    seen += play(game, ("scarab", "slide:0"))
    assert "tablet-solved" in kinds(seen) and game.prompt is not None and game.prompt.key == "hero-action"
    assert "monster-defeated" in kinds(act(game, action="defeat", monster="mummy", items=["rifle-1", "fire-poker-1"]))


def test_the_mummy_s_power_turns_a_face_up_scarab_down() -> None:
    tablet = {"numbers": [None, 4, None, None, None, None, 6], "up": [False, True] + [False] * 4 + [True], "empty": 0}
    game = new_game(position({"mummy": "museum"}, [hero("mayor", "museum")], phase="monster", mats={"mummy": tablet}))
    play(game, ("monster-card", "egyptian-expert"), ("monster-dice", ["pow", "blank"]), ("scarab-down", "6"))
    assert game.state.mats["mummy"].up == [False, True] + [False] * 5  # type: ignore[attr-defined]


def test_reincarnated_soul_gives_the_current_hero_the_soul_token_and_draws_them_to_him() -> None:
    """Reincarnated Soul: the current hero takes the Soul token and moves up to three spaces toward the Mummy."""
    game = new_game(position({"mummy": "museum", "dracula": "dungeon"}, [hero("mayor", "mansion")], phase="monster",
                             frenzy="dracula"))
    assert distance(game, "mansion", "museum") == 2
    play(game, ("monster-card", "reincarnated-soul-1"))
    assert game.state.mats["mummy"].soul == "mayor" and game.state.heroes["mayor"].location == "museum"  # type: ignore[attr-defined]


# -- Frankenstein and the Bride ---------------------------------------------------------------------------------------------

def test_frankenstein_and_the_bride_are_set_up_on_two_spaces() -> None:
    game = new_game({"setup": {"monsters": ["frankenstein", "dracula"], "heroes": ["mayor", "scientist"]}})
    assert game.state.monsters["frankenstein"].location == "graveyard"
    assert game.state.mats["frankenstein"].bride == "dungeon"  # type: ignore[attr-defined]


def test_teaching_fills_a_track_and_lets_the_hero_move_that_figure() -> None:
    """"Frankenstein and the Bride: Teach them humanity": a yellow item in his space fills his track
    by its strength, and the hero may move him as many spaces."""
    game = new_game(position({"frankenstein": "graveyard"}, [hero("mayor", "graveyard", "tablet-1", "kite-1")],
                             mats={"frankenstein": {"bride": "dungeon"}}))
    with pytest.raises(IllegalInput, match="only yellow items"):
        act(game, action="advance", monster="frankenstein", step="frankenstein", items=["kite-1"])
    seen = act(game, action="advance", monster="frankenstein", step="frankenstein", items=["tablet-1"])
    assert game.state.mats["frankenstein"].frankenstein_humanity == 3  # type: ignore[attr-defined]
    assert of_kind(seen, "track")[0].text == "Frankenstein's humanity: 3 of 11."
    play(game, ("move-monster-to", "church"))
    assert game.state.monsters["frankenstein"].location == "church"


def test_an_early_meeting_raises_the_terror_and_sends_both_home() -> None:
    game = new_game(position({"frankenstein": "graveyard"}, [hero("mayor", "graveyard", "tablet-1")],
                             mats={"frankenstein": {"bride": "church"}}))
    seen = act(game, action="advance", monster="frankenstein", step="frankenstein", items=["tablet-1"])
    seen += play(game, ("move-monster-to", "church"))
    assert "monsters-met" in kinds(seen) and game.state.terror == 1
    assert game.state.monsters["frankenstein"].location == "graveyard"
    assert game.state.mats["frankenstein"].bride == "dungeon"  # type: ignore[attr-defined]


def test_with_both_tracks_full_they_are_defeated_when_they_meet() -> None:
    mats = {"frankenstein": {"bride": "church", "frankenstein_humanity": 10, "bride_humanity": 8}}
    game = new_game(position({"frankenstein": "graveyard", "dracula": "crypt"}, [hero("mayor", "graveyard", "tablet-1")],
                             mats=mats))
    with pytest.raises(IllegalInput, match="defeated when they meet"):
        act(game, action="defeat", monster="frankenstein", items=["tablet-1"])
    seen = act(game, action="advance", monster="frankenstein", step="frankenstein", items=["tablet-1"])
    seen += play(game, ("move-monster-to", "church"))
    assert "monster-defeated" in kinds(seen) and game.state.monsters["frankenstein"].defeated
    assert game.state.mats["frankenstein"].bride is None  # type: ignore[attr-defined]


def test_the_bride_strikes_on_her_own_symbol_and_is_never_the_frenzied_one() -> None:
    """The Bride acts on her symbol; the Frenzy symbol calls Frankenstein, never her."""
    mats = {"frankenstein": {"bride": "dungeon"}}
    game = new_game(position({"frankenstein": "graveyard"}, [hero("mayor", "dungeon")], phase="monster", mats=mats))
    seen = play(game, ("monster-card", "retreat-lagoon"), ("monster-dice", ["blank"] * 3))
    acted = [(e.data["monster"], e.data.get("blight")) for e in of_kind(seen, "monster-activated")]
    assert acted == [("frankenstein", 0), ("frankenstein", None)]
    assert [e.data["target"] for e in of_kind(seen, "target")] == ["mayor"]


# -- the original's own rules ---------------------------------------------------------------------------------------

def owner_data(**changes: object) -> dict[str, object]:
    return {"format": "table-companion.owner-data", "version": 1, "game": "horrified", "changes": changes}


def test_a_defeated_hero_comes_back_at_the_hospital_at_the_start_of_their_next_turn() -> None:
    """"When defeated, increase the Terror Level by one, remove the Hero from the board, and place
    them at the Hospital at the start of their next turn with all actions available." """
    game = new_game(position({"dracula": "abbey"}, [hero("mayor", "abbey"), hero("professor", "church")],
                             phase="monster"))
    seen = play(game, ("monster-card", "the-enthralled"), ("monster-dice", ["hit"]))
    assert "hero-defeated" in kinds(seen) and game.state.terror == 1
    assert distance(game, "abbey", "church") == 3  # the Frenzy symbol: Dracula again, two steps toward the Professor
    assert game.state.active_hero.id == "professor" and game.state.heroes["mayor"].location is None
    play(game, ("hero-action", {"action": "end"}), ("monster-card", "sunrise"))
    assert game.state.active_hero.id == "mayor" and game.state.heroes["mayor"].location == "hospital"
    assert game.state.actions_left == 5 and game.state.heroes["mayor"].items == []


def test_a_defeated_hero_cannot_be_targeted_again_in_the_same_turn() -> None:
    """"A defeated Hero cannot be targeted again in the same turn": the Creature defeats the Mayor,
    so Dracula, in the same space, attacks the villager there instead."""
    game = new_game(position({"creature": "cave", "dracula": "cave"}, [hero("mayor", "cave")], phase="monster",
                             villagers={"maria": "cave"}))
    seen = play(game, ("monster-card", "the-hunt-is-on-1"), ("monster-dice", ["hit", "blank"]),
                ("monster-dice", ["hit", "blank"]))
    assert [e.data["target"] for e in of_kind(seen, "target")] == ["mayor", "maria"]
    assert game.state.terror == 2 and game.state.villagers["maria"].location is None


def test_the_attack_target_is_declared_before_the_roll() -> None:
    """"The attack target must be declared before rolling": with two heroes there, the players choose
    whom Dracula attacks, then roll; a villager is not offered while a hero is there, and "Heroes
    cannot discard Items to save Villagers"."""
    game = new_game(position({"dracula": "crypt"}, [hero("mayor", "crypt", "dart-1"), hero("professor", "crypt")],
                             phase="monster", villagers={"maria": "crypt"}))
    seen = play(game, ("monster-card", "the-enthralled"))
    assert game.prompt is not None and game.prompt.key == "attack-target"
    assert [o.id for o in game.prompt.options] == ["hero:mayor", "hero:professor"] and not of_kind(seen, "dice")
    seen = play(game, ("attack-target", "hero:professor"))
    assert of_kind(seen, "target")[0].data["target"] == "professor" and game.prompt.key == "monster-dice"
    seen = play(game, ("monster-dice", ["hit"]))
    assert game.state.heroes["professor"].location is None and of_kind(seen, "target")[-1].data["target"] == "mayor"
    play(game, ("monster-dice", ["hit"]), ("defend", "discard"))
    assert game.state.villagers["maria"].location == "crypt"


def test_the_event_monster_does_not_attack_unless_frenzied() -> None:
    """"The Event Monster does not attack unless Frenzied": Sunrise is Dracula's Event, so on his
    symbol on its attack line he only moves (here he stays: the Mayor is with him) while the Creature
    has the Frenzy marker, and Dracula strikes on the Frenzy symbol once he has it (a card variant
    with his symbol on the line; tests/test_horrified_as_written.py has the setting's other reading)."""
    from companion.games.horrified.pack import pack_from_files, read_pack_files
    from companion.games.horrified.rules import OriginalRules

    files = read_pack_files()
    card = next(c for c in files["cards.json"]["cards"] if c["id"] == "sunrise")  # type: ignore[index]
    card["attack"]["symbols"] = ["dracula", "creature", "frenzy"]
    rules = OriginalRules(pack_from_files(files))
    heroes = [hero("mayor", "crypt")]
    game = new_game(position({"dracula": "abbey", "creature": "cave"}, heroes, phase="monster", frenzy="creature"), rules)
    seen = play(game, ("monster-card", "sunrise"))
    acted = of_kind(seen, "monster-activated")
    assert [e.data["monster"] for e in acted[:2]] == ["dracula", "creature"] and "not attack" in acted[0].text
    assert "dracula" not in [e.data["monster"] for e in of_kind(seen, "target")] and not of_kind(seen, "symbol-ignored")
    game = new_game(position({"dracula": "abbey", "creature": "cave"}, heroes, phase="monster", frenzy="dracula"), rules)
    seen = play(game, ("monster-card", "sunrise"))
    assert of_kind(seen, "monster-activated")[0].data["monster"] == "dracula" and not of_kind(seen, "symbol-ignored")


def test_solo_the_terror_starts_at_three_without_the_courier_and_two_perk_cards() -> None:
    """"Start with the Terror Marker on the '3' ... Do not play as the Courier ... Remove ... 'Special
    Delivery' and 'Conduct An Investigation' Perk cards"."""
    from companion.engine.errors import SetupError

    game = new_game({"setup": {"monsters": ["creature", "dracula"], "heroes": ["mayor"]}})
    assert game.state.terror == 3
    assert not {"special-delivery", "conduct-an-investigation"} & set(game.state.perk_deck)
    assert len(game.state.perk_deck) == 18
    with pytest.raises(SetupError, match="the Courier is not played alone"):
        new_game({"setup": {"monsters": ["creature", "dracula"], "heroes": ["courier"]}})
    two = new_game({"setup": {"monsters": ["creature", "dracula"], "heroes": ["mayor", "courier"]}})
    assert two.state.terror == 0 and len(two.state.perk_deck) == 20


def test_the_difficulty_presets_check_the_monsters(capsys: pytest.CaptureFixture[str]) -> None:
    """"First Game: Creature from the Black Lagoon & Dracula. Novice Game: Any two Monsters.
    Standard Game: Any three Monsters. Challenging Game: Any four Monsters"."""
    from companion.cli import main

    play_it = ["play", "--game", "horrified", "--policy", "first", "--seed", "1"]
    assert main([*play_it, "--difficulty", "first", "--monsters", "dracula,mummy"]) == 2
    assert "the first game the rules suggest is the Creature and Dracula" in capsys.readouterr().err
    assert main([*play_it, "--difficulty", "standard", "--monsters", "dracula,mummy"]) == 2
    assert "a standard game has 3 monsters, not 2" in capsys.readouterr().err
    assert main([*play_it, "--difficulty", "challenging", "--monsters", "dracula,mummy,creature,wolf-man"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith("Outcome: ")


@pytest.mark.parametrize("pow_first, outcome", [(True, "hits-miss"), (False, "hero-defeated")])
def test_pow_before_hit_is_a_setting_of_the_owner(pow_first: bool, outcome: str) -> None:
    """No source says whether a POW resolves before the HITs rolled with it: the owner's setting
    (``board.pow_first``, ours: POW first) decides whether the Invisible Man stalks away before
    the hit lands or after."""
    data = owner_data(board={"set": {"pow_first": {"value": pow_first, "verified": True}}})
    game = new_game({**position({"invisible-man": "inn"}, [hero("mayor", "inn")], phase="monster",
                                villagers={"maria": "precinct"}), "data": data})
    seen = play(game, ("monster-card", "former-employer"), ("monster-dice", ["pow", "hit"]))
    assert outcome in kinds(seen) and game.state.monsters["invisible-man"].location == "precinct"


def test_the_frenzy_order_is_the_owner_s_to_correct() -> None:
    """The sources give two Frenzy Orders (the Wolf Man 5 and the Invisible Man 6, or the other way
    round): ours is the first; the owner's data swaps it, and On the Move follows it."""
    swapped = owner_data(monsters={"monsters": {"wolf-man": {"frenzy_order": 6}, "invisible-man": {"frenzy_order": 5}}})
    for data, first, then in ((None, "wolf-man", "invisible-man"), (swapped, "invisible-man", "wolf-man")):
        origin: dict[str, object] = {"setup": {"monsters": ["invisible-man", "wolf-man"], "heroes": ["mayor", "courier"]}}
        game = new_game({**origin, **({"data": data} if data else {})})
        assert game.state.frenzy == first
        game = new_game({**position({"invisible-man": "inn", "wolf-man": "mansion"}, [hero("mayor", "docks")],
                                    phase="monster", frenzy=first), **({"data": data} if data else {})})
        play(game, ("monster-card", "on-the-move-1"))
        assert game.state.frenzy == then


def test_an_offered_boat_move_is_logged_with_its_items() -> None:
    """The menu's answer is the players' input: spending the items must not empty the logged answer
    (it once named the hero's own list, so the log replayed as a move with no items)."""
    from companion.games.horrified.gamepack import HorrifiedPack
    from companion.engine.plain import to_plain

    game = new_game(position({"creature": "lagoon"}, [hero("archaeologist", "docks", "knife-1")]))
    offered = [a for a in HorrifiedPack().action_menu(game, None) if a.get("step") == "boat"]
    assert [a["items"] for a in offered] == [["knife-1"]]
    act(game, **{k: v for k, v in offered[0].items() if k != "label"})
    assert game.inputs[-1]["answer"]["items"] == ["knife-1"]  # type: ignore[index]
    assert to_plain(pack_rules().new_game(game.origin, list(game.inputs)).state) == to_plain(game.state)


# -- a mixed game --------------------------------------------------------------------------------------------------

def answer_plainly(game: object) -> list[object]:
    """First options, blank Monster dice, distinct d20s, until the next Hero Phase question."""
    from companion.engine.game import Game

    assert isinstance(game, Game)
    seen: list[object] = []
    while game.prompt is not None and game.prompt.key != "hero-action":
        p = game.prompt
        answer: object = (p.options[0].id if p.options else ["blank"] * p.count if p.die == "monster"
                          else list(range(20, 20 - p.count, -1)))
        seen += game.apply({"key": p.key, "answer": answer}).effects
    return seen


def test_dracula_on_the_ravenloft_board_resolves_a_monster_phase() -> None:
    """A mixed game (ours, not the publisher's): Dracula's coffins and start land on the host's
    places nearest to where they are drawn on his board, he answers the symbols of a host monster
    left out (Baba Lysaga's), and the host's Monster card moves him."""
    game = new_game({"setup": {"board": "ravenloft", "monsters": ["dracula", "carrionette"], "heroes": ["sorcerer", "druid"]}})
    answer_plainly(game)
    ctx = context(game)
    coffins = ctx.monster_rules["dracula"].details.coffins  # type: ignore[attr-defined]
    assert len(coffins) == 4 and all(c in ctx.graph for c in coffins)
    assert game.state.mix["guests"]["dracula"]["symbols"] == ["sword", "hat", "spellbook"]  # type: ignore[attr-defined]
    assert set(game.state.monsters) == {"dracula", "carrionette"}
    play(game, ("hero-action", {"action": "end"}), ("monster-card", "supplies-on-the-road"))
    seen = answer_plainly(game)
    assert "dracula" in [e.data.get("monster") for e in of_kind(seen, "monster-activated")]  # type: ignore[attr-defined]
    assert game.state.turn == 2 and game.prompt is not None and game.prompt.key == "hero-action"


def test_a_mixed_game_is_told_apart_from_an_original_one_by_its_data_id() -> None:
    """The service keeps one pack view per kind and data id: a mixed game's (the host's board
    with the guests) must not be served to an original game, nor the other way round."""
    from companion.games.horrified.gamepack import HorrifiedPack

    pack = HorrifiedPack(pack_rules())
    original = new_game({"setup": {"monsters": ["dracula", "creature"], "heroes": ["mayor", "courier"]}})
    mixed = new_game({"setup": {"board": "ravenloft", "monsters": ["dracula", "carrionette"], "heroes": ["sorcerer"]}})
    assert pack.data_id(original) == "" and pack.data_id(mixed).startswith("+mix-")
    assert "mixed" in pack.pack_view(mixed) and "mixed" not in pack.pack_view(original)
