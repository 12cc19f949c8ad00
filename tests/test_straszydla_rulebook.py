"""Straszydła held to its rulebook's words where the box once read them otherwise (each test quotes
them): cubes, horror cubes and imps exchanged at any moment, even at a duel's sealed bid; one colour
of fear cubes per district; the bid example, which no offered reading may contradict; a stuck
loser who stays while the winner takes the district; guesses marked where they are played; a
horror-cube action on an empty imp stack refused. Played through the engine, on the small box of
straszydla_fixtures unless the test says otherwise."""

from __future__ import annotations

import copy
import json

import pytest

from companion.engine.effects import EffectSink
from companion.engine.errors import IllegalInput, SetupError
from companion.engine.game import Game
from companion.games.datafiles import PackError
from companion.games.straszydla.context import Ctx
from companion.games.straszydla.menu import menu
from companion.games.straszydla.packdata import DATA_DIR, load_pack, pack_from_files
from companion.games.straszydla.actions import why_not
from companion.games.straszydla.ownerdata import FORMAT
from companion.games.straszydla.readings import READINGS
from companion.games.straszydla.rules import StraszydlaRules
from straszydla_fixtures import FILES, PreparedRules, act, answer, key, new_game, plan, setup, small_pack, state


def meet_in_the_centre(game: Game) -> None:
    """Przemo (p1) and Syla (p2) both end in the Centre, Przemo first; Witek (p3) goes elsewhere."""
    for seat, moves in {"p1": ["S", "S", "N"], "p2": ["N", "N", "S"], "p3": ["E", "S", "S"]}.items():
        plan(game, seat, *moves)
    assert key(game) == "duel-roll"


def anytime(game: Game, **move: object) -> None:
    game.apply({"anytime": move})


# -- exchanging at any moment ------------------------------------------------------------------------------------

def test_cubes_horror_cubes_and_imps_are_exchanged_at_any_moment_even_at_a_duels_sealed_bid() -> None:
    """"At any moment of the game you may exchange your cubes at the bank for other resources"; horror cubes: "You
    may use them at any moment of the game"; imps: "You may use the help offered by imps at any moment of the
    game." At a duel's bid Syla trades three blue cubes for a white one and bids it; Przemo takes a fear cube for
    horror cubes and exchanges his imp; the question asked stays the bid."""
    game = new_game(3, hands={"p2": {"cubes": {"water": 3}}, "p1": {"horror": 2, "cubes": {"fire": 3}}})
    meet_in_the_centre(game)
    anytime(game, action="trade-imp", seat="p1", pay={"fire": 3}, element="fire", imp="imp-fire-1")
    answer(game, [5, 3])
    answer(game, [6, 5])
    assert key(game) == "duel-bid"
    with pytest.raises(IllegalInput, match="from 0 to 3"):
        answer(game, {"action": "bid", "energy": 4}, "p2")
    anytime(game, action="trade", seat="p2", pay={"water": 3}, take="energy")
    anytime(game, action="horror", seat="p1", id="fear-cube", element="air")
    anytime(game, action="exchange-imp", seat="p1", imp="imp-fire-1")
    assert key(game) == "duel-bid"
    p1, p2 = state(game).players["p1"], state(game).players["p2"]
    assert (p2.energy, p2.fear("water")) == (4, 0)
    assert (p1.horror, p1.fear("air"), p1.fear("fire"), p1.imps) == (0, 1, 1, [])
    assert state(game).imp_stacks["fire"] == ["imp-fire-2", "imp-fire-1"]  # the imp under its stack
    answer(game, {"action": "bid", "energy": 4}, "p2")
    answer(game, {"action": "bid", "energy": 0}, "p1")
    assert state(game).duel is not None and state(game).duel.bids == {"p1": 0, "p2": 4}  # type: ignore[union-attr]


def test_a_move_at_any_moment_names_its_player_and_never_spends_the_cubes_of_a_sealed_bid() -> None:
    """The cubes of a sealed bid are in the player's hand, out of play until the reveal: they cannot pay a trade
    meanwhile (and the refusal says nothing of the bid's size). A move names whose it is; buying a creature is
    not such a move ("At any moment of your turn ... you may buy"); a refused move changes nothing."""
    game = new_game(3, hands={"p1": {"cubes": {"fire": 2}}})
    meet_in_the_centre(game)
    answer(game, [5, 3])
    answer(game, [6, 5])
    answer(game, {"action": "bid", "energy": 1}, "p1")
    before = json.dumps(state(game).players["p1"].__dict__, sort_keys=True)
    with pytest.raises(IllegalInput, match="sealed bid"):
        anytime(game, action="trade", seat="p1", pay={"fire": 2, "energy": 1}, take="air")
    with pytest.raises(IllegalInput, match="name the player"):
        anytime(game, action="trade", pay={"fire": 2, "energy": 1}, take="air")
    with pytest.raises(IllegalInput, match="your turn"):
        anytime(game, action="buy", seat="p2", creature="latarnik", pay={"energy": 3})
    assert json.dumps(state(game).players["p1"].__dict__, sort_keys=True) == before
    anytime(game, action="trade", seat="p3", pay={"energy": 3}, take="fire")  # Witek, not in the duel
    assert state(game).players["p3"].fear("fire") == 1 and key(game) == "duel-bid"


def test_an_imp_taken_at_any_moment_is_named_when_its_stack_holds_several() -> None:
    """"discard 3 cubes of your choice to the bank and take an imp from the top of any stack": imps lie face up,
    so the move names the one on top (no question can be asked in the middle of another); while the box asks
    which imp is on top of a stack, no imp is taken meanwhile."""
    game = new_game(3)
    meet_in_the_centre(game)
    with pytest.raises(IllegalInput, match="which imp is on top"):
        anytime(game, action="trade-imp", seat="p3", pay={"energy": 3}, element="water")
    anytime(game, action="trade-imp", seat="p3", pay={"energy": 3}, element="water", imp="imp-water-2")
    assert state(game).players["p3"].imps == ["imp-water-2"] and state(game).imp_stacks["water"] == ["imp-water-1"]
    drawing = new_game(3)
    for seat, moves in {"p1": ["W", "S", "N"], "p2": ["W", "N", "SE"], "p3": ["SW", "N", "E"]}.items():
        plan(drawing, seat, *moves)
    act(drawing, "summon-imp")  # Przemo at the orchard: which earth imp is on top?
    assert key(drawing) == "imp-top"
    with pytest.raises(IllegalInput, match="asking which imp is on top of the Earth stack"):
        anytime(drawing, action="trade-imp", seat="p2", pay={"energy": 3}, element="earth", imp="imp-earth-1")
    answer(drawing, "imp-earth-1")
    anytime(drawing, action="trade-imp", seat="p2", pay={"energy": 3}, element="earth")  # one left: no need to name it
    assert state(drawing).players["p2"].imps == ["imp-earth-2"] and state(drawing).imp_stacks["earth"] == []


# -- one colour per district -------------------------------------------------------------------------------------

def test_each_district_produces_fear_cubes_of_one_colour() -> None:
    """"Each district produces fear cubes (in one of four colours)": every shipped tile has one colour, and data
    that gives a tile two is refused, naming the tile, before a game starts."""
    pack = load_pack()
    assert [t.id for t in pack.tiles if len(t.produces) != 1] == []
    files = copy.deepcopy(FILES)
    files["tiles.json"]["tiles"][0]["produces"] = {"air": 1, "fire": 1}
    with pytest.raises(PackError, match=r"tiles\[0\]\.produces: .*one colour"):
        pack_from_files(files)
    two = {"tiles": {"tiles": {"centrum": {"produces": {"air": 1, "fire": 1}}}}}
    with pytest.raises(SetupError, match="one colour"):
        Game(StraszydlaRules(), {"setup": {"players": [{"name": "A"}, {"name": "B"}], "layout": {}},
                                 "data": {"format": FORMAT, "version": 1, "game": "straszydla", "changes": two}})


def test_scaring_and_summoning_ask_no_colour_nor_stack() -> None:
    """Scaring gives cubes "in the colour of the district you are in"; summoning takes "the first creature card from
    the stack with the matching element": with one colour a district, neither is a question, and the menu offers
    one scaring."""
    game = new_game(3, time="night", hands={"p1": {"creatures": ["strzyga"]}})
    for seat, moves in {"p1": ["S", "S", "N"], "p2": ["W", "N", "SE"], "p3": ["SW", "N", "E"]}.items():
        plan(game, seat, *moves)
    assert state(game).players["p1"].at == "centrum" and key(game) == "actions"
    entries = menu(Ctx(small_pack(), state(game), EffectSink()), game.prompt, "p1")  # type: ignore[arg-type]
    assert [e for e in entries if e["action"] == "scare"] == [{"action": "scare", "label": "Scare for orange cubes"}]
    act(game, "scare")
    assert key(game) == "scare-roll"
    late = new_game(3, time="night", round=4)
    for seat, moves in {"p1": ["S", "S", "N"], "p2": ["W", "N", "SE"], "p3": ["SW", "N", "E"]}.items():
        plan(late, seat, *moves)
    asked = []
    while key(late) in ("actions", "blockade", "feed", "creature-top", "summon-stack"):
        asked.append(key(late))
        done = key(late) in ("actions", "feed")
        answer(late, {"action": "done"} if done else late.prompt.option_ids()[0])  # type: ignore[union-attr]
    assert "feed" in asked and "summon-stack" not in asked and key(late) == "plan"
    assert "centrum" in [state(late).players[s].at for s in ("p1",)]


# -- the bid example ---------------------------------------------------------------------------------------------

def test_no_offered_reading_lets_przemo_reverse_the_bid_example() -> None:
    """"Przemo rolls 3, 5, 3, and Syla rolls 6 and 5 ... The whole duel is won by Syla (2:1)"; "Syla has declared 2
    cubes and Przemo 3. Because only the difference counts, Przemo can change the result by only 1. He therefore
    cannot reverse the outcome of the duel." Under every answer of every reading offered, no change of one point
    makes Przemo the winner."""
    hands = {"p1": {"creatures": ["wargin", "borowy"]}, "p2": {"creatures": ["strzyga", "bies"]}}  # 6 against 5
    for reading in READINGS:
        for value, _ in reading.answers:
            game = new_game(3, hands=hands, readings={reading.id: value})
            meet_in_the_centre(game)
            answer(game, [3, 5, 3])
            answer(game, [6, 5])
            answer(game, {"action": "bid", "energy": 3}, "p1")
            answer(game, {"action": "bid", "energy": 2}, "p2")
            assert key(game) == "duel-change"
            for change in one_point_changes({"p1": [5, 3, 3], "p2": [6, 5]}):
                try:
                    act(game, "change", dice=change)
                except IllegalInput:  # bid_dice "own": Syla's dice are not Przemo's to change
                    assert reading.id == "bid_dice" and change["p2"] != [6, 5]
                    continue
                assert game.prompt is not None
                assert not (key(game) == "duel-withdraw" and game.prompt.player == "p1"), (reading.id, value, change)
                game.undo(1)


def one_point_changes(dice: dict[str, list[int]]) -> list[dict[str, list[int]]]:
    found = []
    for seat, faces in dice.items():
        for n, face in enumerate(faces):
            for moved in (face - 1, face + 1):
                if 1 <= moved <= 6:
                    found.append({**copy.deepcopy(dice), seat: faces[:n] + [moved] + faces[n + 1:]})
    return found


def test_a_setup_with_a_tie_to_the_holder_is_refused_saying_why() -> None:
    """The readings that gave equal dice or equal successes to the player there first let Przemo reverse the
    example by one point; they are not offered, and a setup asking for one is refused with the reason."""
    for reading_id in ("pair_tie", "duel_tie"):
        with pytest.raises(SetupError, match="bid example"):
            Game(PreparedRules(small_pack()), {"setup": setup(3, readings={reading_id: "holder"})})


# -- a stuck loser stays -----------------------------------------------------------------------------------------

def test_a_stuck_loser_stays_and_takes_nothing_and_the_winner_takes_the_district() -> None:
    """The reading stuck_retreat "stay": a loser with no space to withdraw to "stays and takes nothing"; the winner
    "stays in the district" and, the duels over, takes its resources ("The winner stays in the district ... the
    resources of that space may only be taken after all duels are finished")."""
    game = new_game(3, time="night", readings={"stuck_retreat": "stay"})
    meet_in_the_centre(game)
    state(game).blockades = ["sad", "polnoc", "kuznia", "bagna", "wieza", "laka", "poludnie", "cmentarz"]
    answer(game, [6, 6])
    answer(game, [1, 1])
    answer(game, {"action": "bid", "energy": 0}, "p1")
    step = answer(game, {"action": "bid", "energy": 0}, "p2")
    assert "stuck" in [e.kind for e in step.effects] and state(game).players["p2"].at == "centrum"
    assert key(game) == "actions" and game.prompt is not None and game.prompt.player == "p1"
    on_it = dict(state(game).cubes["centrum"])
    act(game, "collect")
    assert state(game).players["p1"].cubes == on_it and on_it
    act(game, "done")
    assert game.prompt is not None and game.prompt.player == "p2"
    ctx = Ctx(small_pack(), state(game), EffectSink())
    assert "take nothing" in why_not(ctx, "p2", "scare") and "take nothing" in why_not(ctx, "p2", "collect")
    assert not [e for e in menu(ctx, game.prompt, "p2") if e["action"] in ("collect", "scare", "summon-imp")]


# -- guesses marked where they are played ------------------------------------------------------------------------

def test_a_guessed_row_of_the_scaring_table_is_marked_where_it_is_played() -> None:
    """"Game data honesty": a guess is never presented as fact. The small box's scaring rows but the two of the
    rulebook's example are our guess: a spend that lands on one says so, on its button and in what it gave."""
    files = copy.deepcopy(FILES)
    for row in files["helpcard.json"]["scaring"]:
        row["verified"] = row["id"] in ("exact", "two-over")
    rules = PreparedRules(pack_from_files(files))
    game = Game(rules, {"setup": setup(3, time="night"), "hands": {"p1": {"creatures": ["strzyga"]}}})
    for seat, pact in (("p1", "pakt-a"), ("p2", "pakt-b"), ("p3", "pakt-c")):
        game.apply({"key": "pact", "answer": pact, "seat": seat})
    for seat, moves in {"p1": ["S", "S", "N"], "p2": ["W", "N", "SE"], "p3": ["SW", "N", "E"]}.items():
        plan(game, seat, *moves)
    act(game, "scare")
    answer(game, [2])  # strength 3: one under
    entries = menu(Ctx(rules.pack, state(game), EffectSink()), game.prompt, "p1")  # type: ignore[arg-type]
    labels = {tuple(e["dice"]): str(e["label"]) for e in entries if e["action"] == "spend"}  # type: ignore[arg-type]
    assert "our guess" in labels[(4,)] and "our guess" not in labels[(3,)]  # one over: guessed; exact: the rulebook's
    step = act(game, "keep")
    scared = next(e for e in step.effects if e.kind == "scared")
    assert "our guess" in scared.text and scared.data["guess"] is True


def test_a_guess_the_owner_confirmed_or_corrected_is_no_longer_marked() -> None:
    """The mark follows the game-data page: a record the owner confirmed against their box, or corrected from it,
    is theirs now, not our guess; the rulebook's own rows never were."""
    from companion.games.straszydla.ownerdata import owner_pack

    shipped = load_pack()
    assert [(r.id, r.guess) for r in shipped.scaring if r.id in ("exact", "one-over")] == [("exact", False),
                                                                                          ("one-over", True)]
    theirs = owner_pack({"format": FORMAT, "version": 1, "game": "straszydla",
                         "changes": {"creatures": {"creatures": {"wroniec": {"night": 5}}}},
                         "confirmed": ["helpcard.scaring.one-over", "creatures.creatures.wroniec"]})
    assert not next(r for r in theirs.scaring if r.id == "one-over").guess
    assert not theirs.creature("wroniec").guess and theirs.creature("borowy").guess


def test_wargin_and_dusiol_claim_nothing_from_the_rulebook() -> None:
    """The rulebook never names Wargin nor Dusioł (a review does): no field of theirs is marked as checked against
    it, and their notes say where the names come from."""
    creatures = json.loads((DATA_DIR / "creatures.json").read_text(encoding="utf-8"))["creatures"]
    for record in (r for r in creatures if r["id"] in ("wargin", "dusiol")):
        assert not record.get("verified") and not record.get("verified_fields"), record["id"]
        assert "review" in record["note"] and "not in the rulebook" in record["note"]


# -- an imp action on an empty stack -----------------------------------------------------------------------------

def test_a_horror_cube_action_taking_an_imp_from_an_empty_stack_is_refused() -> None:
    """A help card's horror-cube action of kind imp (possible in the owner's data) on a stack with no imp left is
    refused, saying which stack is empty, and takes no horror cube."""
    files = copy.deepcopy(FILES)
    files["helpcard.json"]["horror"].append({"id": "imp", "name": "Take an imp", "cost": 1, "kind": "imp",
                                             "amount": 1})
    files["creatures.json"]["imps"] = [i for i in files["creatures.json"]["imps"] if i["element"] != "water"]
    game = Game(PreparedRules(pack_from_files(files)), {"setup": setup(3), "hands": {"p1": {"horror": 2}}})
    for seat, pact in (("p1", "pakt-a"), ("p2", "pakt-b"), ("p3", "pakt-c")):
        game.apply({"key": "pact", "answer": pact, "seat": seat})
    for seat, moves in {"p1": ["E", "S", "N"], "p2": ["W", "N", "SE"], "p3": ["SW", "N", "E"]}.items():
        plan(game, seat, *moves)
    with pytest.raises(IllegalInput, match="the Water imp stack is empty"):
        act(game, "horror", id="imp", element="water")
    with pytest.raises(IllegalInput, match="the Water imp stack is empty"):
        anytime(game, action="horror", seat="p1", id="imp", element="water")
    assert state(game).players["p1"].horror == 2 and key(game) == "actions"
    act(game, "horror", id="imp", element="fire")
    assert key(game) == "imp-top" and state(game).players["p1"].horror == 1
