"""Siege of Barovia's Dungeon Master, both ways: the box's policy (its decisions,
the same for the same seed, one sentence of why) and a person on their own
phone (the DM's seat alone may answer the DM's turn, through the real table)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.game import Game
from companion.games.siege_of_barovia import policy
from companion.games.siege_of_barovia.dm import ATTACK, DESTROY, SUMMON, DmTurn, turns
from companion.games.siege_of_barovia.gamepack import SiegePack
from companion.games.siege_of_barovia.simulate import play_out, scripted_heroes
from companion.store import Store
from companion.table import TableError, Tables
from siege_fixtures import SQUARE, clear_enemies, fresh, new_game_of, put

PACK_ID = "siege-of-barovia"


# -- the box's decisions ------------------------------------------------------------------------------------

@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_box_guards_the_church_when_the_next_hero_could_stop_the_plague(level: str) -> None:
    """The heroes win the moment one stands in the Church with no enemy there: with a hero one square away
    and the Church empty, the DM puts a creature in it."""
    state = fresh(players=2, level=level)
    clear_enemies(state)
    put(state, "hero-p2", "5,0")  # plays next, beside the Church
    put(state, "ghoul-1", SQUARE["graveyard"])  # beside the Church too
    choice = policy.choose(state)
    assert choice.turn.move is not None and choice.turn.move.to == SQUARE["church"]
    assert "Church" in choice.why and "1 square from stopping the plague" in choice.why


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_box_destroys_the_last_safe_house_when_it_can(level: str) -> None:
    """"If all three safe houses are destroyed, the Dungeon Master wins": normal and hard never pass it up."""
    for seed in range(6):
        state = fresh(level=level, seed=seed)
        state.destroyed += ["tavern", "mercantile"]
        put(state, "ghoul-1", SQUARE["estate"])
        choice = policy.choose(state)
        assert choice.turn.act is not None and choice.turn.act.kind == DESTROY and "the last safe house" in choice.why


def test_the_easy_box_plays_on_a_whim_now_and_then_and_says_so() -> None:
    """Easy gives the heroes a chance: some turns it plays any ordinary turn, even with a house to take."""
    whims = []
    for seed in range(12):
        state = fresh(level="easy", seed=seed)
        state.destroyed += ["tavern", "mercantile"]
        put(state, "ghoul-1", SQUARE["estate"])
        choice = policy.choose(state)
        whims.append(choice.turn.act is None or choice.turn.act.kind != DESTROY)
        assert whims[-1] == choice.why.endswith("(on a whim: the easy DM plays a turn at random 55% of the time).")
    assert 0 < sum(whims) < len(whims)


def test_the_hard_box_finishes_a_wounded_hero_standing_with_strahd() -> None:
    """With Count Strahd (hits on 4+) beside a hero on 1 hit point and no house in reach, he attacks."""
    state = fresh(level="hard")
    clear_enemies(state)
    put(state, "strahd", put(state, "hero-p1", "1,1").square)
    state.figures["hero-p1"].hp = 1
    choice = policy.choose(state)
    assert choice.turn.act is not None and choice.turn.act.kind == ATTACK
    assert choice.turn.act.target == "hero-p1" and "one more hit slays them" in choice.why


def test_every_choice_of_the_box_is_a_legal_turn_and_one_sentence() -> None:
    for seed in range(8):
        for level in policy.LEVELS:
            state = fresh(players=3, level=level, seed=seed)
            choice = policy.choose(state)
            assert choice.turn in turns(state)
            assert choice.why.endswith(".") and choice.why.count(". ") == 0 and choice.why[0].isupper()


def test_the_box_is_the_same_for_the_same_seed_and_differs_across_seeds() -> None:
    def game_log(seed: int) -> list[dict[str, object]]:
        game = new_game_of(players=3, level="normal", seed=seed)
        play_out(game, scripted_heroes(seed), 400)
        return game.inputs

    assert game_log(5) == game_log(5)
    assert len({str(game_log(seed)) for seed in (5, 6, 7)}) > 1


def test_strahd_lands_on_an_edge_square_near_a_standing_house_for_the_box() -> None:
    state = fresh(level="hard")
    square = policy.arrival(state)
    assert square in state.map.edge


def test_the_box_plays_each_dm_turn_by_itself_and_says_why() -> None:
    game = new_game_of(players=1, dm="box", level="hard", seed=2)
    game.apply({"key": "hero-turn", "answer": {"action": "end"}})
    assert game.prompt is not None and game.prompt.key in ("hero-turn", "dm-attack", "summon")
    state = game.state
    assert state.dm_turns == 1 and state.last_dm is not None and state.last_dm.by == "box" and state.last_dm.why


# -- a person as the DM -------------------------------------------------------------------------------------

def person_table(tmp_path: Path):  # type: ignore[no-untyped-def]
    tables = Tables(Store(tmp_path / "companion.sqlite"), {PACK_ID: SiegePack})
    game_id = tables.create(PACK_ID, "Siege", {"players": [{"name": "Ana"}, {"name": "Ben"}], "dm": "person"})
    return tables.get(game_id)


def test_a_person_dm_has_a_seat_of_their_own() -> None:
    game = new_game_of(players=2, dm="person")
    assert [s.id for s in SiegePack().seats(game)] == ["p1", "p2", "dm"]
    assert [s.id for s in SiegePack().seats(new_game_of(players=2))] == ["p1", "p2"]
    # only the DM's seat holds secrets a device must claim; against the box, no device is asked
    assert SiegePack().public_view(game)["secret_seats"] == ["dm"]
    assert SiegePack().public_view(new_game_of(players=2))["secret_seats"] == []


def test_the_heroes_tablets_cannot_act_for_the_dm(tmp_path: Path) -> None:
    table = person_table(tmp_path)
    table.act({"key": "hero-turn", "answer": {"action": "end"}}, table.version, "p1")
    dm_turn = {"key": "dm-turn", "answer": DmTurn().to_plain()}
    for seat in ("p1", "p2", None):
        with pytest.raises(TableError, match="this question is for dm"):
            table.act(dm_turn, table.version, seat)
        seen = table.view(seat)
        assert seen["prompt"]["kind"] == "waiting" and seen["actions"] == []
    assert table.view("dm")["actions"] and table.view("dm")["prompt"]["key"] == "dm-turn"
    table.act(dm_turn, table.version, "dm")
    assert table.view()["state"]["active"] == "p2" and table.view()["state"]["phase"] == "hero"


def test_a_person_dms_illegal_turn_is_refused_whole(tmp_path: Path) -> None:
    table = person_table(tmp_path)
    table.act({"key": "hero-turn", "answer": {"action": "end"}}, table.version, "p1")
    version = table.version
    bad = {"action": "dm", "move": {"figure": "ghoul-1", "to": SQUARE["graveyard"]},
           "act": {"kind": SUMMON}}
    with pytest.raises(TableError, match="cannot move"):
        table.act({"key": "dm-turn", "answer": bad}, version, "dm")
    assert table.version == version and table.view()["state"]["figures"]["ghoul-1"]["square"] == SQUARE["graveyard"]


def test_the_dm_menu_is_every_whole_turn_the_rules_take() -> None:
    game = new_game_of(players=1, dm="person")
    game.apply({"key": "hero-turn", "answer": {"action": "end"}})
    menu = SiegePack().action_menu(game, "dm")
    assert menu and SiegePack().action_menu(game, "p1") == []
    for entry in menu:
        copy = Game(game.rules, game.origin, game.inputs)
        copy.apply({"key": "dm-turn", "answer": {k: v for k, v in entry.items() if k != "label"}})
