"""Siege of Barovia against its rulebook, played through the engine (a ``Game`` answered as the
table answers it): Hustle whatever the order of taps, Fortify moving any number of barricades
(one of the hero's own square's included), a militia at a destroyed safe house, squares counted
from 1 in every sentence, and the box DM's reasons built from the turn they explain."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine.effects import Effect
from companion.engine.errors import IllegalInput
from companion.engine.game import Game
from companion.games.siege_of_barovia import policy
from companion.games.siege_of_barovia.dm import DESTROY, turns
from companion.games.siege_of_barovia.menu import hero_menu
from companion.games.siege_of_barovia.simulate import play_out, scripted_heroes
from companion.games.siege_of_barovia.state import SiegeState
from companion.games.siege_of_barovia.words import the, where
from siege_fixtures import MAP, SQUARE, new_game_of

HERO = "hero-p1"


def state_of(game: Game) -> SiegeState:
    assert isinstance(game.state, SiegeState)
    return game.state


def hero_does(game: Game, answer: dict[str, Any]) -> list[Effect]:
    """One answer of the hero turn, through the engine; the effects it made."""
    assert game.prompt is not None and game.prompt.key == "hero-turn", game.prompt
    return list(game.apply({"key": "hero-turn", "answer": answer}).effects)


def person_dm_game(players: int = 1, **setup: Any) -> Game:
    """A game whose DM is a person: the heroes' turns stay put until the test answers the DM."""
    return new_game_of(players=players, dm="person", **setup)


# -- 8: Hustle, one additional space whatever the order --------------------------------------------------

@pytest.mark.parametrize("order", ["move-first", "any-order"])
def test_hustle_tapped_before_the_move_still_leaves_the_heros_own_move(order: str) -> None:
    """"Hustle – The hero moves one additional space": tapped first, the hero still has their move."""
    game = person_dm_game(readings={"hero_order": order})
    state = state_of(game)
    hero_does(game, {"action": "hustle", "to": "1,4"})
    assert game.prompt is not None and game.prompt.key == "hero-turn", "the turn ended after one square"
    assert any(entry["action"] == "move" for entry in hero_menu(state))
    hero_does(game, {"action": "move", "to": "2,4"})
    assert state.figures[HERO].square == "2,4"
    assert game.prompt is not None and game.prompt.key == "dm-turn"  # two squares, and the turn is over


def test_a_hustle_after_the_move_is_the_second_square_and_ends_the_turn() -> None:
    game = person_dm_game()
    hero_does(game, {"action": "move", "to": "1,4"})
    hero_does(game, {"action": "hustle", "to": "2,4"})
    assert state_of(game).figures[HERO].square == "2,4" and game.prompt is not None and game.prompt.key == "dm-turn"


def test_another_action_than_hustle_before_the_move_still_ends_the_turn_by_our_reading() -> None:
    """Only Hustle is a move: moving first (our ``hero_order``), any other action ends the turn."""
    game = person_dm_game()
    hero_does(game, {"action": "fortify", "build": "N"})
    assert game.prompt is not None and game.prompt.key == "dm-turn"


# -- 9: Fortify moves any number of barricades onto the hero's square's lines --------------------------

def test_fortify_moves_a_barricade_to_another_side_of_the_heros_own_square_and_others_at_once() -> None:
    """"... or moves any number of barricades to lines in the space that hero is in": one of the square's
    own barricades to another of its sides, and a far one, in one action; the menu offers both moves."""
    game = person_dm_game()
    state = state_of(game)
    put_hero(state, "1,4")  # one square from the Tavern's west neighbour
    hero_does(game, {"action": "move", "to": "1,5"})
    own, far = ["1,5", "2,5"], ["6,4", "6,5"]
    offered = [e["move"] for e in hero_menu(state) if e["action"] == "fortify" and "move" in e]
    assert [{"from": own, "to": "S"}] in offered and [{"from": far, "to": "N"}] in offered
    hero_does(game, {"action": "fortify", "move": [{"from": own, "to": "S"}, {"from": far, "to": "E"}]})
    assert ("1,5", "1,6") in state.barricades and ("1,5", "2,5") in state.barricades
    assert ("6,4", "6,5") not in state.barricades


def test_fortify_refuses_a_barricade_moved_onto_its_own_line_and_changes_nothing() -> None:
    game = person_dm_game()
    state = state_of(game)
    put_hero(state, "1,5")
    before = list(state.barricades)
    with pytest.raises(IllegalInput, match="already stands there"):
        hero_does(game, {"action": "fortify", "move": [{"from": ["1,5", "2,5"], "to": "E"}]})
    assert state.barricades == before and not state.acted


def put_hero(state: SiegeState, square: str) -> None:
    state.figures[HERO].square = square


# -- 13: a militia at a destroyed safe house ----------------------------------------------------------------

def slain(game: Game) -> SiegeState:
    state = state_of(game)
    state.figures[HERO].square, state.players[0].figure = None, None
    state.destroyed.append("tavern")
    return state


def test_a_militia_may_begin_at_a_destroyed_safe_house_by_default() -> None:
    """"The peasant militia begins the game at any of the three safe houses": a destroyed house loses only
    its action ("Heroes cannot use the action associated with that location"), so it is offered."""
    game = person_dm_game()
    state = slain(game)
    offered = {e["at"]: e["label"] for e in hero_menu(state) if e["action"] == "recruit-militia"}
    assert set(offered) == {"tavern", "mercantile", "estate"} and "destroyed" in str(offered["tavern"])
    hero_does(game, {"action": "recruit-militia", "at": "tavern"})
    militia = state.figure_of(state.players[0])
    assert militia is not None and militia.square == SQUARE["tavern"]


def test_the_other_reading_refuses_a_destroyed_house_and_says_why() -> None:
    game = person_dm_game(readings={"militia_start": "standing"})
    state = slain(game)
    assert "tavern" not in {e.get("at") for e in hero_menu(state)}
    with pytest.raises(IllegalInput, match=r"the Blood on the Vine Tavern was destroyed, and by this game's "
                                           r"reading a militia begins only at a safe house still standing"):
        hero_does(game, {"action": "recruit-militia", "at": "tavern"})
    assert state.figure_of(state.players[0]) is None


# -- 12: squares counted from 1 in every sentence -----------------------------------------------------------

def test_a_refused_move_names_the_square_as_a_player_counts_it() -> None:
    game = person_dm_game()
    with pytest.raises(IllegalInput) as refused:
        hero_does(game, {"action": "move", "to": "3,3"})
    assert "the square in column 4, row 4" in str(refused.value) and "3,3" not in str(refused.value)
    state_of(game).figures[HERO].square = "1,5"
    with pytest.raises(IllegalInput) as refused:
        hero_does(game, {"action": "fortify", "move": [{"from": ["0,0", "1,0"], "to": "N"}]})
    assert "between the square in column 1, row 1 and the square in column 2, row 1" in str(refused.value)


def test_the_box_dms_reason_is_one_sentence_of_its_own_not_the_dm_twice() -> None:
    game = new_game_of(players=1, dm="box", level="normal", seed=3)
    effects = hero_does(game, {"action": "end"})
    why = next(e for e in effects if e.kind == "dm-why")
    assert not why.text.startswith("The DM: ") and why.text == why.data["why"]
    assert state_of(game).last_dm is not None and state_of(game).last_dm.why == why.text  # type: ignore[union-attr]


# -- 11: the box DM's reasons, built from the turn they explain ---------------------------------------------

GAMES_PER_LEVEL = 16
MOST_INPUTS = 1500


def check_reason(state: SiegeState, choice: policy.Choice) -> None:
    """The reason names the moved figure and the square it went to, and the action with its figure and
    square (or the summon); no pass while an action is open; whim words only at a level that wanders."""
    turn, why = choice.turn, choice.why.lower()
    if turn.move is not None:
        assert the(state.figures[turn.move.figure]).lower() in why, (turn, why)
        assert where(state, turn.move.to).lower() in why, (turn, why)
    assert turn.act is not None, f"the box passed while Summon was open: {why}"
    if turn.act.kind == "summon":
        assert "the dm summons" in why, (turn, why)
    else:
        actor = state.figures[turn.act.by or ""]
        square = turn.move.to if turn.move and turn.move.figure == actor.id else actor.square or ""
        assert where(state, square).lower() in why, (turn, why)
        verb = "destroys" if turn.act.kind == DESTROY else f"attacks {state.figures[turn.act.target or ''].name}"
        assert verb.lower() in why, (turn, why)
        assert turn.move is not None and turn.move.figure == actor.id or the(actor).lower() in why, (turn, why)
    assert ("whim" in why) <= (policy.LEVELS[state.level].wander > 0), why
    assert f"the {state.level} dm" in why or "whim" not in why, why
    if policy.LEVELS[state.level].takes_house and any(t.act and t.act.kind == DESTROY for t in turns(state)):
        assert turn.act.kind == DESTROY, f"a {state.level} DM passed up a house it could destroy: {why}"


def test_every_reason_of_the_box_dm_names_the_figure_the_square_and_the_action_played(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Over many box-DM games at every level, each reason is checked against the turn it explains."""
    checked = {level: 0 for level in policy.LEVELS}
    choose = policy.choose

    def checked_choose(state: SiegeState) -> policy.Choice:
        choice = choose(state)
        check_reason(state, choice)
        checked[state.level] += 1
        return choice

    monkeypatch.setattr(policy, "choose", checked_choose)
    for level in policy.LEVELS:
        for seed in range(GAMES_PER_LEVEL):
            game = new_game_of(players=3, dm="box", level=level, seed=seed)
            play_out(game, scripted_heroes(seed), MOST_INPUTS)
    assert all(count > 100 for count in checked.values()), checked


def test_the_normal_dm_destroys_a_house_it_stands_on_rather_than_wander() -> None:
    """A normal DM never passes up a house it can destroy this turn (the whim and the noise included)."""
    for seed in range(20):
        game = new_game_of(players=1, dm="box", level="normal", seed=seed)
        state = state_of(game)
        state.figures["ghoul-1"].square = SQUARE["tavern"]
        choice = policy.choose(state)
        assert choice.turn.act is not None and choice.turn.act.kind == DESTROY, choice.why
        assert MAP.places["tavern"].name in choice.why


def test_a_reason_never_names_a_place_the_creature_did_not_step_onto() -> None:
    """"goes for the Tavern ... then destroys the Kolyana Estate" is gone: a ghoul beside the Estate steps
    onto it and destroys it, and the reason names the Estate, not another house."""
    game = new_game_of(players=1, dm="box", level="hard", seed=1)
    state = state_of(game)
    state.figures["ghoul-1"].square = "6,6"
    choice = policy.choose(state)
    assert choice.turn.move is not None and choice.turn.move.to == SQUARE["estate"]
    assert "steps onto the Kolyana Estate" in choice.why and "Tavern" not in choice.why
