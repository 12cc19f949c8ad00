"""The owner's game data: an overlay on the shipped pack, checked like the pack,
given to a game mid-way as an input of its log (issue: make the game data the owner's).

The board facts used here are computed from the pack, never typed in: which
location is far from Vallaki, and where the Carrionette goes."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.engine.errors import IllegalInput, SetupError
from companion.engine.game import Game
from companion.engine.plain import to_plain
from companion.games.ravenloft.datastatus import data_status
from companion.games.ravenloft.ownerdata import (FORMAT, OwnerDataError, apply_owner_data, owner_pack,
                                                 parse_owner_data, shipped_files)
from companion.games.ravenloft.rules import RavenloftRules

RULES = RavenloftRules()
START = "vallaki"
CARD = {"name": "Strings in the Dark", "items": 0, "event": {"kind": "none", "params": {}, "text": "Nothing."},
        "attack": {"symbols": ["potion"], "move": 1, "dice": 1}}


def doc(board: dict[str, Any] | None = None, confirmed: list[str] | None = None, **files: Any) -> dict[str, Any]:
    changes = {**({"board": board} if board else {}), **files}
    return {"format": FORMAT, "version": 1, "game": "ravenloft", "changes": changes, "confirmed": confirmed or []}


def far_from_start() -> str:
    """A main-board location three or more steps from Vallaki (so one new road changes everything)."""
    graph = RULES.graph_for(RULES.new_game({"position": position("krezk")}).state)
    return next(loc.id for loc in RULES.pack.board.locations
                if loc.area == "board" and graph.distances(START)[loc.id] >= 3)


def position(hero_at: str) -> dict[str, Any]:
    return {"phase": "monster", "monsters": {"carrionette": START},
            "heroes": [{"hero": "sorcerer", "player": "Sam", "at": hero_at}]}


def draw_entered_card(game: Game) -> None:
    game.apply({"key": "monster-card", "answer": "enter-card"})
    game.apply({"key": "card-builder", "answer": {"action": "card", "card": CARD}})


def test_a_new_road_changes_the_next_monster_phase_of_a_game_in_play() -> None:
    target = far_from_start()
    shipped = RULES.new_game({"position": position(target)})
    draw_entered_card(shipped)
    assert shipped.state.monsters["carrionette"].location != target  # one step is not enough on the shipped board

    game = RULES.new_game({"position": position(target)})
    step = game.apply({"data": doc({"connections": {"add": [[START, target]]}})})
    assert game.state.data_id and "game data changed" in step.effects[0].text and game.prompt is step.prompt
    draw_entered_card(game)
    assert game.state.monsters["carrionette"].location == target  # the new road is the shortest path
    assert to_plain(Game(RULES, game.origin, game.inputs).state) == to_plain(game.state)  # the log replays it


def test_undoing_the_data_change_brings_the_shipped_board_back() -> None:
    target = far_from_start()
    game = RULES.new_game({"position": position(target)})
    game.apply({"data": doc({"connections": {"add": [[START, target]]}})})
    game.undo(1)
    assert game.state.data_id == "" and game.state.data is None
    draw_entered_card(game)
    assert game.state.monsters["carrionette"].location != target


def test_a_new_game_starts_with_the_owner_s_numbers() -> None:
    """RL-SU-7: the numbers on the owner's board decide where items go; here two locations swap numbers."""
    locations = {loc.number: loc.id for loc in RULES.pack.board.locations if loc.number is not None}
    swap = {"locations": {locations[1]: {"number": 2}, locations[2]: {"number": 1}}}
    pack = owner_pack(parse_owner_data(doc(swap)))
    assert pack.location(locations[1]).number == 2 and pack.location(locations[2]).number == 1
    game = RULES.new_game({"setup": {"monsters": ["carrionette"], "heroes": [{"hero": "sorcerer", "player": "Sam"}]},
                           "data": doc(swap)})
    assert RULES.pack_for(game.state).location(locations[1]).number == 2
    assert RULES.pack.location(locations[1]).number == 1  # the shipped pack is untouched


@pytest.mark.parametrize("board, named", [
    ({"connections": {"add": [["krezk", "nowhere"]]}}, "no location called 'nowhere'"),
    ({"locations": {"krezk": {"number": 3}}}, "number 3 is also used by 'krezk'"),
    ({"connections": {"remove": [["krezk", "no-such-place"]]}}, "connection krezk – no-such-place: there is none"),
    ({"locations": {"ghost-town": None}}, "location 'ghost-town': there is none to remove"),
])
def test_broken_owner_data_is_refused_naming_each_problem(board: dict[str, Any], named: str) -> None:
    with pytest.raises(OwnerDataError) as refused:
        owner_pack(parse_owner_data(doc(board)))
    assert any(named in problem for problem in refused.value.problems), refused.value.problems


def test_a_location_cut_off_is_named() -> None:
    lonely = far_from_start()
    roads = [c["between"] for c in shipped_files()["board.json"]["connections"]  # type: ignore[index]
             if lonely in c["between"]]
    with pytest.raises(OwnerDataError) as refused:
        owner_pack(parse_owner_data(doc({"connections": {"remove": roads}})))
    assert any(f"'{lonely}' cannot be reached" in p for p in refused.value.problems), refused.value.problems


@pytest.mark.parametrize("broken, named", [
    ({"format": "something"}, "format"), ({"changes": {"boards": {}}}, "changes.boards: no such pack file"),
    ({"changes": {"board": {"paths": {}}}}, "changes.board.paths: cannot be changed"),
    ({"confirmed": "all of it"}, "confirmed"), ({"colour": "red"}, "colour: not a part of owner data"),
])
def test_a_malformed_document_is_refused_with_where(broken: dict[str, Any], named: str) -> None:
    with pytest.raises(OwnerDataError) as refused:
        parse_owner_data({**doc(), **broken})
    assert any(named in problem for problem in refused.value.problems), refused.value.problems


def test_a_refused_change_leaves_the_game_as_it_was() -> None:
    """The hero stands on a location the owner added; data without it is refused by this game."""
    camp = {"locations": {"camp": {"name": "Camp", "number": None, "x": 0.5, "y": 0.5, "area": "board"}},
            "connections": {"add": [["camp", START]]}}
    first = RULES.new_game({"position": position(START)})
    first.apply({"data": doc(camp)})
    saved = to_plain(first.state)
    saved["heroes"]["sorcerer"]["location"] = "camp"  # type: ignore[index]
    game = RULES.new_game({"state": saved})
    before, version = to_plain(game.state), game.version
    with pytest.raises(IllegalInput, match="hero sorcerer is at 'camp', which the new data does not have"):
        game.apply({"data": doc()})
    with pytest.raises(IllegalInput, match="nowhere"):
        game.apply({"data": doc({"connections": {"add": [[START, "nowhere"]]}})})
    assert to_plain(game.state) == before and game.version == version


def test_broken_data_in_a_new_game_s_origin_refuses_the_game() -> None:
    with pytest.raises(SetupError, match="nowhere"):
        RULES.new_game({"setup": {"monsters": ["carrionette"], "heroes": [{"hero": "sorcerer", "player": "Sam"}]},
                        "data": doc({"connections": {"add": [["krezk", "nowhere"]]}})})


def test_the_overlay_survives_a_pack_update() -> None:
    """Changes are keyed by id: a shipped pack that gains a field or fixes a name keeps the owner's numbers."""
    updated = copy.deepcopy(shipped_files())
    board = updated["board.json"]
    assert isinstance(board, dict)
    first = board["locations"][0]
    first["note"] = "a note added by a later version of the pack"
    mine = parse_owner_data(doc({"locations": {first["id"]: {"x": 0.5, "y": 0.25}}}))
    files = apply_owner_data(updated, mine)
    moved = next(loc for loc in files["board.json"]["locations"] if loc["id"] == first["id"])  # type: ignore[index]
    assert (moved["x"], moved["y"], moved["note"]) == (0.5, 0.25, "a note added by a later version of the pack")


def test_the_data_status_tells_rulebook_facts_from_guesses_and_confirmations() -> None:
    shipped = shipped_files()
    card = RULES.pack.cards[0].id
    mine = parse_owner_data(doc({"locations": {"krezk": {"x": 0.3}}}, confirmed=[f"cards.cards.{card}"]))
    status = data_status(shipped, apply_owner_data(shipped, mine), mine)
    elements = {e["key"]: e for e in status["elements"]}  # type: ignore[attr-defined]
    assert elements[f"cards.cards.{card}"]["state"] == "confirmed"
    assert elements["board.locations.krezk"]["changed"] is True and elements["board.locations.krezk"]["state"] == "guess"
    assert elements["board.connections.gates-of-barovia+tser-falls"]["state"] == "rulebook"
    assert all(e["state"] != "rulebook" for key, e in elements.items()
               if key.startswith("board.locations."))  # no location is the rulebook's as a whole
    counts = status["summary"]["card"]  # type: ignore[index]
    assert counts["confirmed"] == 1 and sum(counts.values()) == len(RULES.pack.cards)
    with pytest.raises(OwnerDataError, match="names nothing"):
        apply_owner_data(shipped, parse_owner_data(doc(confirmed=["cards.cards.not-a-card"])))


def test_packs_built_from_owner_data_are_kept_only_a_few_at_once() -> None:
    """An owner who saves a correction many times in an evening does not fill the box's memory."""
    from companion.games.horrified_core.rules import OWNED_KEPT

    rules = RavenloftRules()
    for n in range(OWNED_KEPT + 5):
        rules.owner_pack(doc({"locations": {"krezk": {"x": round(0.01 * (n + 1), 2)}}}))
    assert len(rules._owned) == OWNED_KEPT
    again = doc({"locations": {"krezk": {"x": round(0.01 * (OWNED_KEPT + 5), 2)}}})
    assert rules.owner_pack(again) is rules.owner_pack(again)  # the newest is still the one built
