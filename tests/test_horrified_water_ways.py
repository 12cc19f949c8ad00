"""The owner's water ways on the original Horrified's board: a way marked in the owner's data
as one only some movers take is checked like the shipped ones (unknown places, or a mover no
monster of the box moves as, are refused by name and nothing is saved), and a new game on the
corrected board lets the Creature swim it and nobody else walk it.

The places used are worked out from the shipped board, never typed in as facts about it."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.engine.errors import IllegalInput
from companion.games.horrified.ownerdata import FORMAT, OwnerDataError, owner_pack, parse_owner_data, shipped_files
from horrified_fixtures import act, context, hero, new_game, of_kind, pack_rules, play, position
from service_process import Service, call, connect, ok

GAME = "horrified"
SWIMMER = "creature"  # the box's one mover, as its data names it
LAIR = "lagoon"


def doc(*added: object, removed: list[list[str]] | None = None) -> dict[str, Any]:
    roads = {"add": list(added), **({"remove": removed} if removed else {})}
    return {"format": FORMAT, "version": 1, "game": GAME, "changes": {"board": {"connections": roads}}, "confirmed": []}


def water(a: str, b: str, *movers: str) -> dict[str, Any]:
    return {"between": [a, b], "kind": "water", "only": list(movers or (SWIMMER,))}


def far_shore() -> str:
    """A place on land the Creature cannot reach from the Lagoon in one step on the shipped board."""
    game = new_game(position({SWIMMER: LAIR}, [hero("mayor", "inn")]))
    graph = context(game).graph
    walkable = graph.distances("inn")
    swim = graph.distances(LAIR, SWIMMER)
    return next(p for p in sorted(walkable) if swim.get(p, 0) >= 2)


def shipped_water() -> list[str]:
    board = shipped_files()["board.json"]
    assert isinstance(board, dict)
    return next(sorted(c["between"]) for c in board["connections"] if c.get("only"))


@pytest.mark.parametrize("way, named", [
    (water(LAIR, "atlantis"), "connection lagoon – atlantis.between[1]: no location called 'atlantis'"),
    (water(LAIR, "inn", "ghost"), "connection lagoon – inn.only[0]: no monster moves as 'ghost'"),
    ({"between": [LAIR, "inn"], "only": "creature", "depth": 3}, "changes.board.connections.add[0].depth: not a part"),
    ({"between": [LAIR, "inn"], "only": "creature"}, "changes.board.connections.add[0].only: must be a list of movers"),
])
def test_a_water_way_the_box_cannot_have_is_refused_by_name(way: dict[str, Any], named: str) -> None:
    with pytest.raises(OwnerDataError) as refused:
        owner_pack(parse_owner_data(doc(way)))
    assert any(named in problem for problem in refused.value.problems), refused.value.problems


def test_a_new_game_on_the_corrected_board_lets_the_creature_alone_take_the_new_water_way() -> None:
    shore = far_shore()
    data = doc(water(LAIR, shore))
    shipped = new_game(position({SWIMMER: LAIR}, [hero("mayor", shore)], phase="monster"))
    corrected = new_game({**position({SWIMMER: LAIR}, [hero("mayor", shore)], phase="monster"), "data": data})
    graph = pack_rules().for_state(corrected.state).data_for(corrected.state).graph  # the owner's board
    assert graph.distances(LAIR, SWIMMER)[shore] == 1
    assert LAIR not in graph.distances(shore)  # no one else walks into the water
    card = ("monster-card", "the-ichthyologist")
    assert of_kind(play(corrected, card), "monster-moved")[0].data["path"] == [LAIR, shore]
    assert of_kind(play(shipped, card), "monster-moved")[0].data["path"][-1] != shore  # too far on the shipped board
    hiker = new_game({**position({SWIMMER: "docks"}, [hero("mayor", shore)]), "data": data})
    with pytest.raises(IllegalInput):
        act(hiker, action="move", to=LAIR)


def test_a_shipped_water_way_unmarked_is_a_road_for_everyone() -> None:
    a, b = shipped_water()
    pack = owner_pack(parse_owner_data(doc([a, b], removed=[[a, b]])))
    way = next(c for c in pack.board.connections if {c.a, c.b} == {a, b})
    assert way.only is None and way.kind == "road"


# -- through the service ------------------------------------------------------------------------------------

@pytest.fixture
def box(tmp_path: Path) -> Iterator[Service]:
    service = Service(tmp_path / "box").start()
    yield service
    service.stop()


def test_the_service_refuses_a_bad_water_way_and_new_games_get_a_good_one(box: Service) -> None:
    shore = far_shore()
    setup = {"game": GAME, "setup": {"monsters": [SWIMMER, "dracula"], "heroes": ["mayor", "scientist"]}}
    with connect(box.url) as tablet:
        before = ok(tablet, "data_get", {"game": GAME})["data"]
        for way, named in ((water(LAIR, "atlantis"), "no location called 'atlantis'"),
                           (water(LAIR, shore, "ghost"), "no monster moves as 'ghost'")):
            refused = call(tablet, "data_save", {"game": GAME, "data": doc(way)})
            assert refused["error"]["code"] == "illegal" and any(named in p for p in refused["error"]["problems"])
            assert ok(tablet, "data_get", {"game": GAME})["data"] == before  # nothing changed
        ok(tablet, "data_save", {"game": GAME, "data": doc(water(LAIR, shore))})
        game_id = ok(tablet, "new_game", setup)["game_id"]
        board = ok(tablet, "join", {"game_id": game_id})["pack"]["board"]
    assert sorted([LAIR, shore]) in [sorted(pair) for pair in board["water"]]
