"""Straszydła's rules, each test named after the rule it holds (the rulebook's words in its
docstring), played on the small box of straszydla_fixtures (a 3 x 3 board) unless it says
otherwise. Where a test sets a position up by hand (a blockade, a pawn, cubes), it does so
on the live state between two answers, as the table would have it."""

from __future__ import annotations

import json

import pytest

from companion.engine.errors import IllegalInput, SetupError
from companion.engine.game import Game
from companion.games.straszydla.duels import successes
from companion.games.straszydla.feeding import fulfils
from companion.games.straszydla.geometry import Geometry, walk
from companion.games.straszydla.packdata import load_pack
from companion.games.straszydla.view import public_view, seat_view
from straszydla_fixtures import LAYOUT, act, answer, key, new_game, plan, setup, small_pack, small_rules, state


STARTERS = {"p1": "wargin", "p2": "strzyga", "p3": "dusiol"}


def geometry(game: Game, blockades: list[str] | None = None) -> Geometry:
    if blockades is not None:
        state(game).blockades = blockades
    return Geometry.of(small_pack(), state(game))


def everyone_plans(game: Game, plans: dict[str, list[str]]) -> None:
    for seat, moves in plans.items():
        plan(game, seat, *moves)


def finish_actions(game: Game) -> None:
    while key(game) == "actions":
        act(game, "done")


# -- setup --------------------------------------------------------------------------------------------------------

def test_setup_the_centre_is_surrounded_and_the_suburbs_lie_on_the_edges() -> None:
    """"Arrange the tiles so that the Centre district is surrounded on all sides by other districts ... taking
    care that the Suburb tiles are placed on the edges of the board." """
    rules = small_rules()
    swapped = {**LAYOUT, "1,1": "sad", "0,0": "centrum"}
    with pytest.raises(SetupError, match="Centre must be surrounded"):
        Game(rules, {"setup": setup(layout=swapped)})
    pack = load_pack()
    with pytest.raises(SetupError, match="every square of the 5 x 5 board holds one tile"):
        Game(rules.__class__(pack), {"setup": setup(layout={"0,0": "centrum"})})


def test_setup_each_player_takes_a_3_3_creature_with_3_energy_cubes_and_a_horror_cube() -> None:
    """"starting with the starting player, each player takes one 3/3 creature. Each creature that arrives with you
    brings 3 white energy cubes. Take one black horror cube from the bank." The stacks are topped with the 3/3s
    left ("On top of each stack place one 3/3 creature")."""
    game = new_game(3, starters=STARTERS)
    players = state(game).players
    assert [(p.creatures, p.energy, p.horror) for p in players.values()] == \
        [(["wargin"], 3, 1), (["strzyga"], 3, 1), (["dusiol"], 3, 1)]
    assert {e: s.top for e, s in state(game).stacks.items()} == {"water": None, "air": None, "fire": "latarnik",
                                                                 "earth": None}
    assert state(game).card == 3 and state(game).time == "day"  # the first round took its cube


def test_setup_each_player_chooses_a_3_3_creature_nobody_before_took_and_a_suburb_of_their_own() -> None:
    """"starting with the starting player, each player takes one 3/3 creature"; the suburbs "will be the
    starting tiles" (who picks which is our reading: each player, docs/straszydla.md "Setup"). A 3/3 the
    starting player took, or a suburb with a pawn while another is free, is refused with the seat."""
    game = new_game(2, starting="p2", starters={"p1": "latarnik", "p2": "wargin"}, at={"p1": "poludnie", "p2": "polnoc"})
    assert [(p.creatures, p.at) for p in state(game).players.values()] == [(["latarnik"], "poludnie"),
                                                                          (["wargin"], "polnoc")]
    with pytest.raises(SetupError, match=r"starters\.p1: 'wargin' is not a 3/3 creature still on a stack"):
        Game(small_rules(), {"setup": setup(2, starting="p2", starters={"p1": "wargin", "p2": "wargin"})})
    with pytest.raises(SetupError, match=r"at\.p2: each pawn starts on a suburb of its own"):
        Game(small_rules(), {"setup": setup(2, at={"p1": "polnoc", "p2": "polnoc"})})


def test_naming_a_pact_tells_nobody_anything_about_another_seats_pact() -> None:
    """"Shuffle the pact cards and deal one to each player. Do not show your pact card to the other players."
    Naming another player's card as one's own (a guess) must not come back any differently from
    naming a card nobody holds: p2's guess is answered the same whatever p1 holds (issue: a re-ask on a
    clash told who held which). Each seat gets its own card back, with its symbols, to check it."""
    def seen_by_p2(p1_pact: str) -> str:
        game = Game(small_rules(), {"setup": setup(2)})
        answer(game, p1_pact, "p1")
        step = answer(game, "pakt-b", "p2")
        seen = [e.to_plain() for e in step.effects if e.seen_by("p2")]
        return json.dumps([seen, game.prompt is not None and game.prompt.key, state(game).players["p2"].pact])
    assert seen_by_p2("pakt-b") == seen_by_p2("pakt-a")
    game = Game(small_rules(), {"setup": setup(2)})
    step = answer(game, "pakt-a", "p1")
    own = [e for e in step.effects if e.audience == ("p1",)]
    assert own and own[0].kind == "pact-named" and "pakt-a" == own[0].data["pact"]
    assert "pakt-a" not in json.dumps([e.to_plain() for e in step.effects if e.audience is None])


# -- rounds and time -------------------------------------------------------------------------------------------

def play_round(game: Game, feed: bool = True) -> None:
    """Everyone lays the first plan of the menu, bids nothing, takes no action; the holder wins
    every duel. ``feed``: also feed nobody at the end of a time of day (else stop at feeding)."""
    from companion.games.straszydla.menu import menu
    from companion.games.straszydla.context import Ctx
    from companion.engine.effects import EffectSink

    keys = ("plan", "duel-roll", "duel-bid", "duel-withdraw", "actions", "blockade", "creature-top",
            "imp-top", "duel-change", "duel-withdraw-choose") + (("feed",) if feed else ())
    while key(game) in keys:
        prompt = game.prompt
        assert prompt is not None
        if prompt.key == "plan":
            seat = prompt.still_to_answer()[0]
            entries = menu(Ctx(small_pack(), state(game), EffectSink()), prompt, seat)
            game.apply({"key": "plan", "answer": {"action": "plan", "moves": entries[0]["moves"]}, "seat": seat})
        elif prompt.key == "duel-bid":
            game.apply({"key": "duel-bid", "answer": {"action": "bid", "energy": 0}, "seat": (prompt.audience or ())[0]})
        elif prompt.kind == "roll":
            holder = state(game).duel.holder  # type: ignore[union-attr]
            answer(game, [6] * prompt.count if prompt.player == holder else [1] * prompt.count)
        elif prompt.kind in ("choice", "draw"):
            answer(game, prompt.options[0].id)
        else:
            act(game, "keep" if prompt.key == "duel-change" else "done")
        if state(game).phase == "planning" and not state(game).planned:
            return


def test_four_rounds_a_time_of_day_then_the_card_turns_and_passes_and_the_blockades_go() -> None:
    """"Each time of day consists of 4 rounds ... If the next cube cannot be removed because the card is empty,
    the starting player turns the card over, places 4 horror cubes on it, and passes the card to the next player
    ... After the time of day changes, the starting player removes all blockade markers from the board." """
    game = new_game(3)
    seen = []
    for _ in range(4):
        seen.append((state(game).round, state(game).time, state(game).card, state(game).starting))
        play_round(game)
    assert seen == [(1, "day", 3, "p1"), (2, "day", 2, "p1"), (3, "day", 1, "p1"), (4, "day", 0, "p1")]
    assert (state(game).round, state(game).time, state(game).card, state(game).starting) == (5, "night", 3, "p2")
    assert state(game).blockades == []  # cleared when the night began
    assert state(game).round_in_time == 1


def test_districts_of_the_time_of_day_get_their_cubes_every_round_on_top_of_what_lies_there() -> None:
    """"New resources ... appear on all spaces ... matching the current time of day. The starting player places
    cubes ... on all districts, regardless of whether cubes are already on them." """
    game = new_game(3)
    assert state(game).cubes == {"sad": {"earth": 1}, "polnoc": {"earth": 1}, "kuznia": {"fire": 2},
                                 "laka": {"air": 1}}
    play_round(game)  # nobody collects
    assert state(game).cubes == {"sad": {"earth": 2}, "polnoc": {"earth": 2}, "kuznia": {"fire": 4},
                                 "laka": {"air": 2}}
    assert "bagna" not in state(game).cubes  # a night district, by day


def test_stop_markers_go_down_after_actions_and_come_off_at_the_next_round() -> None:
    """"Ending each of your actions in the chosen district, always place a STOP marker there"; the starting player
    "collects the STOP markers from all districts" as a round begins."""
    game = new_game(3)
    everyone_plans(game, {"p1": ["S", "W", "N"], "p2": ["E", "N", "N"], "p3": ["E", "S", "S"]})
    act(game, "done")
    assert state(game).stops == {"sad": ["p1"]}
    act(game, "done")
    step = act(game, "done")
    kinds = [e.kind for e in step.effects]
    assert kinds.index("stop") < kinds.index("blockade") < kinds.index("round") < kinds.index("stops-cleared")
    assert [e.data["place"] for e in step.effects if e.kind == "blockade"] == ["sad", "kuznia", "cmentarz"]
    assert key(game) == "plan" and state(game).round == 2 and state(game).stops == {}


def test_two_players_remove_the_blockades_after_two_rounds_and_the_time_change_does_not() -> None:
    """Variant: Two Players: "The starting player removes the district blockade markers after 2 rounds have passed
    (a full day and night)"; the reading "two-rounds" (ours) and "day-and-night"."""
    game = new_game(2)
    play_round(game)
    assert len(state(game).blockades) == 2 and state(game).round == 2  # blockades from round 1 stand
    play_round(game)
    assert state(game).blockades == [] and state(game).round == 3  # after 2 rounds: off
    other = new_game(2, readings={"two_player_clear": "day-and-night"})
    for _ in range(4):
        play_round(other)
    assert state(other).time == "night" and state(other).blockades  # the night began; they stay


# -- planning and moving -----------------------------------------------------------------------------------------

def test_moves_go_straight_or_diagonally_and_never_off_the_board() -> None:
    """"You may move in a straight line and diagonally." A plan is the 3 movement tokens."""
    game = new_game(3)
    board = geometry(game)
    assert walk(board, "poludnie", ["NE", "N", "W"]).path == ("poludnie", "wieza", "kuznia", "polnoc")
    with pytest.raises(IllegalInput, match="token 1: N from polnoc goes off the board"):
        walk(board, "polnoc", ["N", "S", "S"])
    with pytest.raises(IllegalInput, match="lay all 3 movement tokens"):
        walk(board, "polnoc", ["S", "S"])
    with pytest.raises(IllegalInput, match="they are all laid"):
        walk(board, "polnoc", ["S", "S", "N", "N"])


def test_a_blockade_may_not_be_entered_nor_passed_through() -> None:
    """"If a blockade marker lies on a district, you may not enter that district or pass through it." """
    game = new_game(3)
    board = geometry(game, ["centrum"])
    with pytest.raises(IllegalInput, match="token 1: S from polnoc goes into a blockade"):
        walk(board, "polnoc", ["S", "S", "N"])
    assert walk(board, "polnoc", ["E", "S", "SW"]).path == ("polnoc", "kuznia", "wieza", "poludnie")


def test_reaching_a_suburb_jumps_to_any_other_suburb_and_the_move_goes_on() -> None:
    """"If during your move you reach a suburb, you may automatically move to any other suburb and continue your
    move." The jump is free: it lays no arrow."""
    game = new_game(3)
    board = geometry(game)
    assert walk(board, "polnoc", ["S", "S", "jump:polnoc", "E"]).path == \
        ("polnoc", "centrum", "poludnie", "polnoc", "kuznia")
    with pytest.raises(IllegalInput, match="right after an arrow that reaches a suburb"):
        walk(board, "polnoc", ["jump:poludnie", "N", "S", "S"])  # standing on one is not reaching it
    assert walk(board, "laka", ["N", "N", "E"]).end == "polnoc"
    assert walk(board, "laka", ["N", "N", "E", "jump:poludnie"]).end == "poludnie"  # reading jump_last: yes
    with pytest.raises(IllegalInput, match="all 3 arrows are laid"):
        walk(board, "laka", ["N", "N", "E", "jump:poludnie"], jump_last=False)


def test_a_pawn_that_cannot_move_goes_to_any_suburb_for_one_arrow() -> None:
    """"If for some reason you cannot move (for example because of blockades), you may move to any suburb, at the
    cost of one arrow." """
    game = new_game(3)
    board = geometry(game, ["bagna", "centrum", "poludnie"])
    assert walk(board, "laka", ["suburb:polnoc", "E", "S"]).path == ("laka", "polnoc", "kuznia", "wieza")
    with pytest.raises(IllegalInput, match="blockaded"):
        walk(board, "laka", ["suburb:poludnie", "E", "S"])
    with pytest.raises(IllegalInput, match="can still move"):
        walk(geometry(game, []), "laka", ["suburb:polnoc", "E", "S"])


def test_plans_are_secret_until_the_last_then_revealed_together_and_moved_from_the_starting_player() -> None:
    """"Plan your move in secret ... When you are ready, reveal your tokens"; "Each player moves their pawn across
    the board, starting with the starting player." Pawns pass through others ("You may pass through districts
    occupied by other players")."""
    game = new_game(3)
    pack = small_pack()
    plan(game, "p3", "S", "SE", "N")
    plan(game, "p1", "S", "S", "N")
    for seat in ("p2", None):
        shown = json.dumps(public_view(pack, state(game))) + json.dumps(seat_view(pack, state(game), seat or "-"))
        assert '"S", "SE", "N"' not in shown and '"S", "S", "N"' not in shown
    assert seat_view(pack, state(game), "p3")["plan"] == ["S", "SE", "N"]
    assert public_view(pack, state(game))["planned"] == ["p3", "p1"]
    step = plan(game, "p2", "N", "N", "S")
    kinds = [e.kind for e in step.effects if e.audience is None]
    assert kinds[kinds.index("plans-revealed") + 1:kinds.index("plans-revealed") + 4] == ["pawn-moved"] * 3
    assert [e.data["seat"] for e in step.effects if e.kind == "pawn-moved"] == ["p1", "p2", "p3"]
    assert state(game).plans == {"p1": ["S", "S", "N"], "p2": ["N", "N", "S"], "p3": ["S", "SE", "N"]}
    assert state(game).entered == {"centrum": ["p1", "p2"], "wieza": ["p3"]}  # p1 moved first: there first


def test_a_plan_may_be_changed_until_the_last_player_has_planned_and_stays_secret() -> None:
    """"When you are ready, reveal your tokens. From that moment you may not change your plan": until then a player
    who has planned lays another plan on their phone; the others' plans stay as they were and never show, and the
    log replays to the same game."""
    game = new_game(3)
    pack = small_pack()
    plan(game, "p3", "S", "SE", "N")
    plan(game, "p1", "S", "S", "N")
    step = plan(game, "p3", "SW", "N", "E")  # p3 changes their mind before p2 has planned
    assert [e.text for e in step.effects if e.audience is None] == []  # nothing for the others' eyes
    assert seat_view(pack, state(game), "p3")["plan"] == ["SW", "N", "E"]
    assert seat_view(pack, state(game), "p1")["plan"] == ["S", "S", "N"]
    assert public_view(pack, state(game))["planned"] == ["p3", "p1"] and key(game) == "plan"
    assert '"SW", "N", "E"' not in json.dumps(public_view(pack, state(game))) + json.dumps(seat_view(pack, state(game), "p2"))
    prompt = game.prompt
    assert prompt is not None and prompt.answered == ("p1", "p3") and prompt.still_to_answer() == ("p2",)
    plan(game, "p2", "N", "N", "S")
    assert state(game).plans == {"p1": ["S", "S", "N"], "p2": ["N", "N", "S"], "p3": ["SW", "N", "E"]}
    assert key(game) != "plan"
    with pytest.raises(IllegalInput):  # revealed: no plan is taken any more
        plan(game, "p3", "S", "SE", "N")
    assert state(Game(game.rules, game.origin, game.inputs)) == state(game)


# -- duels ----------------------------------------------------------------------------------------------------------

def test_pairs_are_compared_highest_first_and_a_missing_die_loses_its_pair() -> None:
    """Przemo rolls 3, 5, 3 and Syla 6 and 5: "In the first column Syla wins (6:5), in the second column she also
    wins (5:3). In the third Syla has no die, so Przemo wins automatically (3:0). The whole duel is won by Syla
    (2:1)." Two equal dice in a pair: nobody succeeds (the bid example leaves no other reading)."""
    assert successes([3, 5, 3], [6, 5]) == (1, 2)
    assert successes([4, 2], [4, 1]) == (1, 0)
    assert successes([4, 2], [4, 2]) == (0, 0)


def duel_game(readings: dict[str, str] | None = None, blockades: list[str] | None = None) -> Game:
    """Przemo (p1) and Syla (p2) both end in the Centre, Przemo first; Witek goes elsewhere."""
    game = new_game(3, readings=readings or {}, blockades=blockades)
    everyone_plans(game, {"p1": ["S", "S", "N"], "p2": ["N", "N", "S"], "p3": ["E", "S", "S"]})
    return game


def test_a_duel_gives_the_stronger_side_a_third_die() -> None:
    """"take 2 dice each. Then add together the strength of all your creatures ... The player whose total is higher
    receives a third die in addition. If the strength totals are equal, both players roll only two dice." """
    game = duel_game()
    assert key(game) == "duel-roll" and game.prompt is not None and (game.prompt.player, game.prompt.count) == ("p1", 2)
    answer(game, [3, 3])
    assert game.prompt is not None and (game.prompt.player, game.prompt.count) == ("p2", 2)  # 3/3 against 3/3
    other = new_game(3, hands={"p2": {"creatures": ["latarnik", "borowy"]}})  # Syla stronger by day: 6 against 3
    everyone_plans(other, {"p1": ["S", "S", "N"], "p2": ["N", "N", "S"], "p3": ["E", "S", "S"]})
    answer(other, [3, 3])
    assert other.prompt is not None and other.prompt.count == 3


def test_sealed_bids_are_shown_together_paid_and_the_difference_changes_dice() -> None:
    """"each player decides in secret how many energy cubes they want to spend ... The players then simultaneously
    reveal the energy cubes ... only the absolute difference ... counts ... The player who declared more may change
    the value of the rolled dice by the difference." ("Syla has declared 2 cubes and Przemo 3. Because only the
    difference counts, Przemo can change the result by only 1.") "All cubes used in the duel are discarded." """
    game = duel_game()
    answer(game, [5, 3])
    answer(game, [6, 5])
    assert key(game) == "duel-bid"
    step = answer(game, {"action": "bid", "energy": 3}, "p1")
    assert [e.kind for e in step.effects] == ["bid-sealed", "bid-in"] and step.effects[0].audience == ("p1",)
    assert state(game).duel.bids == {} and public_view(small_pack(), state(game))["duel"]["bids_in"] == ["p1"]  # type: ignore[union-attr,index]
    with pytest.raises(IllegalInput, match="from 0 to 3"):
        answer(game, {"action": "bid", "energy": 4}, "p2")
    answer(game, {"action": "bid", "energy": 2}, "p2")
    assert state(game).duel.bids == {"p1": 3, "p2": 2}  # type: ignore[union-attr]
    assert (state(game).players["p1"].energy, state(game).players["p2"].energy) == (0, 1)
    assert game.prompt is not None and (game.prompt.key, game.prompt.player) == ("duel-change", "p1")
    with pytest.raises(IllegalInput, match="allows 1"):
        act(game, "change", dice={"p1": [6, 4], "p2": [6, 5]})
    act(game, "change", dice={"p1": [5, 3], "p2": [5, 5]})  # Syla's 6 down to 5: one point
    assert state(game).duel.dice == {"p1": [5, 3], "p2": [5, 5]}  # type: ignore[union-attr]
    assert key(game) == "duel-withdraw" and game.prompt is not None and game.prompt.player == "p2"  # Syla won 1:0


def test_the_winner_sends_the_loser_next_door_or_lets_them_choose_for_a_horror_cube() -> None:
    """"The loser must withdraw to one of the adjacent spaces (of course, one onto which movement is allowed). ...
    the winner may indicate such a space, or may allow the loser to choose." The horror cube: the example's winner
    (ours: "Since Syla cares about horror cubes, she gives Przemo the choice, and in return receives a horror cube")
    or the rule sentence's loser (the reading "loser")."""
    for reading, taker in (("winner", "p2"), ("loser", "p1")):
        game = duel_game({"retreat_cube": reading}, blockades=["bagna"])
        answer(game, [1, 1])
        answer(game, [6, 5])
        answer(game, {"action": "bid", "energy": 0}, "p1")
        answer(game, {"action": "bid", "energy": 0}, "p2")
        assert game.prompt is not None and "bagna" not in game.prompt.option_ids()  # no withdrawing into a blockade
        assert set(game.prompt.option_ids()) == {"sad", "polnoc", "kuznia", "wieza", "laka", "poludnie", "cmentarz",
                                                 "loser-chooses"}
        before = state(game).players[taker].horror
        answer(game, "loser-chooses")
        assert state(game).players[taker].horror == before + 1
        assert game.prompt is not None and (game.prompt.key, game.prompt.player) == ("duel-withdraw-choose", "p1")
        answer(game, "laka")
        assert state(game).players["p1"].at == "laka" and key(game) == "actions"


def test_a_tied_duel_is_fought_again() -> None:
    """Equal successes: the rulebook names no winner, and its bid example ("He therefore cannot reverse the outcome
    of the duel") rules out the player there first staying: both roll again (and bid again)."""
    game = duel_game()
    answer(game, [4, 2])
    answer(game, [4, 2])
    answer(game, {"action": "bid", "energy": 0}, "p1")
    step = answer(game, {"action": "bid", "energy": 0}, "p2")
    assert "duel-tied" in [e.kind for e in step.effects] and key(game) == "duel-roll"
    answer(game, [4, 2])
    assert game.prompt is not None and game.prompt.player == "p2" and key(game) == "duel-roll"


def test_three_in_a_district_fight_in_the_order_they_came_and_a_loser_withdrawing_into_another_fights_again() -> None:
    """"a duel is always a fight between two players. The loser is forced to withdraw, and the winner will fight the
    next challenger"; "If the loser withdraws into a district where another player is, they will have to fight a
    further duel." """
    game = new_game(3)
    everyone_plans(game, {"p1": ["S", "S", "N"], "p2": ["N", "N", "S"], "p3": ["S", "N", "S"]})
    assert state(game).entered["centrum"] == ["p1", "p2", "p3"]
    win = {"p1": [6, 6], "p2": [1, 1], "p3": [1, 1]}
    answer(game, win["p1"])
    answer(game, win["p2"])
    for seat in ("p1", "p2"):
        answer(game, {"action": "bid", "energy": 0}, seat)
    answer(game, "kuznia")  # Przemo sends Syla to the forge
    assert game.prompt is not None and game.prompt.player == "p1" and key(game) == "duel-roll"  # Przemo vs Witek
    answer(game, win["p1"])
    answer(game, win["p3"])
    for seat in ("p1", "p3"):
        answer(game, {"action": "bid", "energy": 0}, seat)
    answer(game, "kuznia")  # Witek too: Syla is there
    assert state(game).duel is not None and state(game).duel.sides == ("p2", "p3")
    assert state(game).duel.place == "kuznia"


# -- scaring --------------------------------------------------------------------------------------------------------

def test_scaring_rolls_a_die_per_creature_against_their_strength_and_sixes_and_ones_move_horror_cubes() -> None:
    """"Take as many dice as you have creatures and sum their strength ... Check the effect of the scaring on your help
    card ... take one horror cube for every 6 rolled, and return one horror cube to the bank for every 1 rolled ...
    only the final number of sixes and ones counts." Spending: "For each energy cube you discard, change the result
    on a chosen die by 1." """
    game = new_game(3, hands={"p1": {"creatures": ["strzyga", "bies"]}})  # by day: 3 + 2 = 5
    everyone_plans(game, {"p1": ["E", "S", "N"], "p2": ["W", "N", "SE"], "p3": ["SW", "N", "E"]})
    assert state(game).players["p1"].at == "kuznia" and key(game) == "actions"
    act(game, "scare", element="fire")
    assert game.prompt is not None and (game.prompt.key, game.prompt.count) == ("scare-roll", 2)
    answer(game, [6, 1])
    assert game.prompt is not None and game.prompt.context["strength"] == 5
    with pytest.raises(IllegalInput, match="cost 4 energy cubes"):
        act(game, "spend", dice=[6, 5])
    act(game, "spend", dice=[6, 2])  # 1 energy: a 1 lifted, the total 8 against 5 gives nothing
    p1 = state(game).players["p1"]
    assert (p1.energy, p1.horror, p1.fear("fire")) == (2, 2, 0)
    with pytest.raises(IllegalInput, match="already done that this round"):
        act(game, "scare", element="fire")


def test_scaring_only_where_its_icon_is_and_an_imp_from_the_districts_element() -> None:
    """"Actions allowed only on marked districts: Summoning an imp, Scaring"; "Take an imp from the stack matching the
    element of the fear cubes produced in the district." """
    game = new_game(3)
    everyone_plans(game, {"p1": ["W", "S", "N"], "p2": ["W", "N", "SE"], "p3": ["SW", "N", "E"]})
    assert state(game).players["p1"].at == "sad"
    with pytest.raises(IllegalInput, match="no scaring icon"):
        act(game, "scare")
    act(game, "summon-imp")
    assert game.prompt is not None and key(game) == "imp-top" and game.prompt.option_ids() == ["imp-earth-1", "imp-earth-2"]
    answer(game, "imp-earth-2")
    assert state(game).players["p1"].imps == ["imp-earth-2"] and state(game).imp_stacks["earth"] == ["imp-earth-1"]


# -- collecting, trading, buying -------------------------------------------------------------------------------------

def test_collecting_takes_everything_on_a_district_for_a_player_alone_in_it() -> None:
    """"If you are the only player in a district, take all the resources available there." """
    game = new_game(3)
    everyone_plans(game, {"p1": ["E", "S", "N"], "p2": ["W", "N", "SE"], "p3": ["SW", "N", "E"]})
    act(game, "collect")
    assert state(game).players["p1"].cubes == {"fire": 2} and "kuznia" not in state(game).cubes
    with pytest.raises(IllegalInput, match="already done"):
        act(game, "collect")


def test_three_cubes_buy_a_cube_of_any_colour_or_an_imp_never_with_horror_cubes() -> None:
    """"You may exchange all cubes except horror cubes ... discard 3 cubes of your choice to the bank and take one
    cube of a colour of your choice ... discard 3 cubes ... and take an imp from the top of any stack." """
    game = new_game(3)
    everyone_plans(game, {"p1": ["E", "S", "N"], "p2": ["W", "N", "SE"], "p3": ["SW", "N", "E"]})
    act(game, "collect")
    act(game, "trade", pay={"fire": 2, "energy": 1}, take="air")
    p1 = state(game).players["p1"]
    assert (p1.cubes, p1.energy) == ({"fire": 0, "air": 1}, 2)
    with pytest.raises(IllegalInput, match="never horror"):
        act(game, "trade", pay={"horror": 1, "energy": 2}, take="air")
    with pytest.raises(IllegalInput, match="costs 3 cubes"):
        act(game, "trade", pay={"energy": 2}, take="air")
    act(game, "trade-imp", pay={"energy": 2, "air": 1}, element="water")
    assert key(game) == "imp-top"


def test_buying_a_creature_costs_its_day_and_night_strength_and_brings_its_strength_in_energy() -> None:
    """"Pay the bank the sum of its day and night strength using any cubes except horror cubes. The new creature
    brings with it a number of energy cubes equal to its strength in the current time of day." """
    game = new_game(3, starters=STARTERS, hands={"p1": {"cubes": {"fire": 4}}})
    everyone_plans(game, {"p1": ["E", "S", "N"], "p2": ["W", "N", "SE"], "p3": ["SW", "N", "E"]})
    act(game, "buy", creature="latarnik", pay={"fire": 3, "energy": 3})  # the 3/3 on top of the fire stack
    p1 = state(game).players["p1"]
    assert p1.creatures == ["wargin", "latarnik"] and (p1.energy, p1.fear("fire")) == (3, 1)
    assert state(game).stacks["fire"].top is None
    with pytest.raises(IllegalInput, match="not on top of a creature stack"):
        act(game, "buy", creature="latarnik", pay={"fire": 1, "energy": 3})


# -- the end of a time of day ------------------------------------------------------------------------------------------

def to_feeding(game: Game) -> None:
    while key(game) != "feed":
        play_round(game)
        if key(game) != "plan":
            return


def test_creatures_eat_their_strength_in_their_colour_the_3_3_any_one_colour_and_the_unfed_flee() -> None:
    """"A creature feeds on fear cubes of its matching colour. How many fear cubes you must provide depends on its
    strength"; "Starting creatures may feed on different cubes ... as long as they are of the same colour"; "If you do
    not have enough cubes to feed a creature, discard that creature from the game"; "for 4 horror cubes she can feed
    one creature for free". """
    game = new_game(3, starters=STARTERS, hands={"p1": {"creatures": ["wargin", "bies", "borowy"],
                                                        "cubes": {"fire": 2, "air": 3}, "horror": 4}})
    for _ in range(4):
        play_round(game, feed=False)
    p1 = state(game).players["p1"]
    assert key(game) == "feed" and game.prompt is not None and game.prompt.player == "p1"
    with pytest.raises(IllegalInput, match="eats cubes of fire, not 'air'"):
        act(game, "feed", creature="bies", element="air")
    act(game, "feed", creature="bies", element="fire")  # 2 by day
    act(game, "feed", creature="wargin", element="air")  # the 3/3: any three of one colour
    with pytest.raises(IllegalInput, match="needs 3 green cubes"):
        act(game, "feed", creature="borowy", element="earth")
    act(game, "feed-free", creature="borowy", id="feed-free")
    act(game, "done")
    p1 = state(game).players["p1"]  # the state as rebuilt after the refusals
    assert p1.creatures == ["wargin", "bies", "borowy"] and (p1.horror, p1.cubes) == (0, {"fire": 0, "air": 0})
    assert game.prompt is not None and game.prompt.player == "p2"
    act(game, "done")  # Syla feeds nothing: her 3/3 flees
    assert state(game).players["p2"].creatures == []


def test_summoning_takes_the_top_creature_of_the_districts_stack_after_feeding() -> None:
    """"At the end of the fourth round of each time of day ... you must summon creatures from the districts where you
    finished. The starting player goes first ... Then draw energy cubes equal to the strength of the creature in the
    current time of day." Ours: feeding first ("you have 4 full moves to feed it")."""
    game = new_game(3)
    for _ in range(4):
        play_round(game, feed=False)
    before = {seat: (p.at, p.energy) for seat, p in state(game).players.items()}
    effects, asked = [], []
    while key(game) == "feed":
        effects += act(game, "done").effects  # nobody feeds: every starter flees
    while key(game) == "creature-top":
        asked.append(game.prompt.player)  # type: ignore[union-attr]
        effects += answer(game, game.prompt.option_ids()[-1]).effects  # type: ignore[union-attr]
    arrived = [e.data for e in effects if e.kind == "creature-arrived"]
    assert [d["seat"] for d in arrived] == ["p1", "p2", "p3"] and asked == sorted(asked)  # the starting player first
    pack = small_pack()
    for seat, player in state(game).players.items():
        assert len(player.creatures) == 1
        creature = pack.creature(player.creatures[0])
        assert creature.stack == pack.tile(before[seat][0]).element  # the stack of the district's element
        assert player.energy == before[seat][1] + creature.strength("day")  # its strength in the time that ends
    assert key(game) == "plan" and state(game).time == "night"


def test_the_pact_is_fulfilled_by_five_fed_creatures_each_matching_one_symbol() -> None:
    """"gathered and fed 5 creatures (of elements matching the symbols on your pact card)": each creature stands for
    one symbol; a 3/3 (all four elements) for any one of them, not for several."""
    pact = ["water", "water", "air", "fire", "earth"]
    assert fulfils(pact, [["water"], ["water"], ["air"], ["fire"], ["earth"]])
    assert fulfils(pact, [["water"], ["water", "air", "fire", "earth"], ["air"], ["fire"], ["earth"]])
    assert not fulfils(pact, [["water"], ["water", "air", "fire", "earth"], ["air"], ["fire"]])
    assert not fulfils(pact, [["water"], ["air"], ["air"], ["fire"], ["earth"]])


def test_the_box_announces_only_the_winner() -> None:
    """"The game ends with the victory of the player who first fulfils the condition they drew, namely feeding, at the
    end of a time of day or night, the creatures needed." Nobody's pact is said but the winner's."""
    game = new_game(3, starters=STARTERS, hands={"p1": {"creatures": ["utopiec", "syrena", "zmora", "bies", "wargin"],
                                                        "cubes": {"water": 4, "air": 2, "fire": 2, "earth": 3}}})
    for _ in range(4):
        play_round(game, feed=False)
    for creature, element in (("utopiec", "water"), ("syrena", "water"), ("zmora", "air"), ("bies", "fire"),
                              ("wargin", "earth")):
        act(game, "feed", creature=creature, element=element)
    act(game, "done")
    act(game, "done")
    step = act(game, "done")
    assert game.over and state(game).outcome == "Przemo wins"
    said = json.dumps([e.to_plain() for e in step.effects])
    assert "Pact A" in said and "Pact B" not in said and "Pact C" not in said
    assert "pakt-b" not in json.dumps(public_view(small_pack(), state(game)))


def test_two_at_once_share_the_win_or_the_first_from_the_starting_player_takes_it() -> None:
    """"the player who first fulfils": two at the same end of a time of day. Ours: they share it; the reading
    "order": the first from the starting player."""
    for reading, outcome in (("shared", "Przemo and Syla win"), ("order", "Przemo wins")):
        hand = {"p1": (["utopiec", "syrena", "zmora", "bies", "wargin"], {"water": 4, "air": 2, "fire": 2, "earth": 3}),
                "p2": (["wroniec", "dusiol", "ognik", "latarnik", "bebok"], {"air": 5, "fire": 4, "earth": 6})}
        game = new_game(3, readings={"win_tie": reading}, starters={"p1": "wargin", "p2": "dusiol", "p3": "strzyga"},
                         hands={seat: {"creatures": c, "cubes": cubes} for seat, (c, cubes) in hand.items()})
        for _ in range(4):
            play_round(game, feed=False)
        for creature, element in zip(hand["p1"][0], ["water", "water", "air", "fire", "earth"]):
            act(game, "feed", creature=creature, element=element)
        act(game, "done")
        for creature, element in zip(hand["p2"][0], ["air", "air", "fire", "fire", "earth"]):
            act(game, "feed", creature=creature, element=element)
        act(game, "done")
        act(game, "done")
        assert state(game).outcome == outcome


# -- imps and horror cubes ---------------------------------------------------------------------------------------------

def test_an_imp_is_exchanged_for_a_fear_cube_and_goes_to_the_bottom_of_its_stack() -> None:
    """"You may exchange each imp for one fear cube"; "After using an imp, place it at the bottom of the appropriate
    stack." Which colour: the imp's own element (ours) or any (the reading imp_exchange "any-colour")."""
    for reading, asked, got in (("imp-element", "fire", "earth"), ("any-colour", "fire", "fire")):
        game = new_game(3, readings={"imp_exchange": reading})
        everyone_plans(game, {"p1": ["W", "S", "N"], "p2": ["W", "N", "SE"], "p3": ["SW", "N", "E"]})
        act(game, "summon-imp")
        answer(game, "imp-earth-1")
        act(game, "exchange-imp", imp="imp-earth-1", element=asked)
        p1 = state(game).players["p1"]
        assert p1.imps == [] and p1.fear(got) == 1 and sum(p1.cubes.values()) == 1
        assert state(game).imp_stacks["earth"] == ["imp-earth-2", "imp-earth-1"]
        with pytest.raises(IllegalInput, match="holds no imp"):
            act(game, "exchange-imp", imp="imp-earth-1")


def test_horror_cubes_are_discarded_to_the_bank_for_an_action_of_the_help_card() -> None:
    """"During the game you gather horror cubes. You may use them at any moment of the game. Discard horror cubes to
    the resource bank and perform an action." (The small box's help card: a fear cube for 2; the free feeding for 4,
    which is for feeding time.)"""
    game = new_game(3, hands={"p1": {"horror": 3}})
    everyone_plans(game, {"p1": ["E", "S", "N"], "p2": ["W", "N", "SE"], "p3": ["SW", "N", "E"]})
    act(game, "horror", id="fear-cube", element="water")
    p1 = state(game).players["p1"]
    assert (p1.horror, p1.fear("water")) == (1, 1)
    with pytest.raises(IllegalInput, match="costs 2 horror cubes; Przemo has 1"):
        act(game, "horror", id="fear-cube", element="water")
    with pytest.raises(IllegalInput, match="only while feeding"):
        act(game, "horror", id="feed-free")


def test_a_creature_may_be_bought_while_feeding_and_fed_at_once() -> None:
    """"At any moment of your turn (including during feeding) you may buy one of the creatures." """
    game = new_game(3, starters=STARTERS, hands={"p1": {"cubes": {"fire": 9}}})
    for _ in range(4):
        play_round(game, feed=False)
    assert key(game) == "feed" and game.prompt is not None and game.prompt.player == "p1"
    act(game, "buy", creature="latarnik", pay={"fire": 6})
    act(game, "feed", creature="latarnik", element="fire")  # a 3/3: three cubes of one colour
    act(game, "done")
    p1 = state(game).players["p1"]
    assert p1.creatures == ["latarnik"] and p1.fear("fire") == 0  # the unfed starter fled


def test_every_reading_is_in_the_pack_doc_with_its_answers_and_our_default() -> None:
    """Readings are documented choices, never silent ones: docs/straszydla.md lists each with its answers and ours."""
    from companion.games.straszydla.readings import READINGS
    from service_process import ROOT

    doc = (ROOT / "docs" / "straszydla.md").read_text(encoding="utf-8")
    for reading in READINGS:
        row = next((line for line in doc.splitlines() if line.startswith(f"| `{reading.id}` |")), "")
        assert row, f"docs/straszydla.md has no row for the reading {reading.id}"
        assert all(f"`{value}`" in row for value, _ in reading.answers) and row.split("|")[4].strip() == \
            f"`{reading.default}`", row
