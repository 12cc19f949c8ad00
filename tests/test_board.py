"""Boards beyond Ravenloft's: ways only some figures may take (the original
Horrified's water, which only the Creature swims), changes during a game (Siege
of Barovia's barricades, which stop everyone but Strahd; Straszydła's
blockades), grids with directions and edges, free jumps (Straszydła's suburbs)
and one-way ways. Every query still gives every tied path and target, for
every mover, and never an answer about the board as it was."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings, strategies as st

from companion.engine.board import DERIVED_KEPT, Block, Board, UnknownLocation, UnknownWay, Wall, Way, jumps
from companion.engine.grid import Direction, Grid

WATER = frozenset({"creature"})


def riverside() -> Board:
    """A little of the original Horrified's town (the water ways as SPHornsby's board has them):
    the Lagoon, the River and the Waterfront are water; streets join Cave, Abbey, the two
    bridge ends, Institute and Docks."""
    streets = [("cave", "abbey"), ("abbey", "bridge-west"), ("bridge-west", "bridge-east"),
               ("bridge-east", "institute"), ("institute", "docks")]
    water = [("lagoon", "cave"), ("lagoon", "abbey"), ("lagoon", "bridge-west"), ("river", "bridge-west"),
             ("river", "bridge-east"), ("waterfront", "institute"), ("waterfront", "bridge-east"),
             ("waterfront", "docks")]
    places = {p for pair in streets + water for p in pair}
    return Board(sorted(places), [Way(a, b, "street") for a, b in streets] +
                 [Way(a, b, "water", only=WATER) for a, b in water])


# -- who may go where ---------------------------------------------------------------------------

def test_only_the_creature_takes_the_water() -> None:
    town = riverside()
    assert "lagoon" not in town.distances("cave")  # a hero never reaches the water
    assert town.distances("cave")["docks"] == 5
    assert town.distances("cave", "creature")["docks"] == 5 and town.distances("cave", "creature")["river"] == 3
    assert town.shortest_paths("bridge-east", "docks") == [("bridge-east", "institute", "docks")]
    assert town.shortest_paths("bridge-east", "docks", "creature") == [
        ("bridge-east", "institute", "docks"), ("bridge-east", "waterfront", "docks")]
    assert town.steps("bridge-west") == ("abbey", "bridge-east")
    assert town.steps("bridge-west", "creature") == ("abbey", "bridge-east", "lagoon", "river")
    assert not town.adjacent("cave", "lagoon") and town.adjacent("cave", "lagoon", "creature")


def test_every_tied_path_and_target_for_each_mover() -> None:
    town = riverside()
    assert town.shortest_paths("lagoon", "bridge-east", "creature") == [("lagoon", "bridge-west", "bridge-east")]
    assert town.shortest_paths("river", "docks", "creature") == [
        ("river", "bridge-east", "institute", "docks"), ("river", "bridge-east", "waterfront", "docks")]
    assert town.shortest_paths("river", "docks") == []  # an ordinary figure cannot leave the river
    assert town.closest("abbey", ["docks", "cave", "river"], "creature") == (1, ["cave"])
    assert town.closest("bridge-west", ["cave", "bridge-east", "lagoon"], "creature") == (1, ["bridge-east", "lagoon"])
    assert town.closest("bridge-west", ["lagoon"]) == (-1, [])


# -- barricades: a board that changes during the game ------------------------------------------------

def village() -> Grid:
    """Siege of Barovia's kind of board: squares, up, down, left or right (the map itself is the owner's)."""
    return Grid(4, 3, names={(3, 2): "E7"})


def test_a_barricade_stops_zombies_but_not_strahd() -> None:
    board = village()
    barricade = board.wall("E7", Direction.W, passes=["strahd"])
    closed = board.with_changes(barricade, board.wall("E7", Direction.N, passes=["strahd"]))
    assert board.distances("2,2")["E7"] == 1 and board.adjacent("2,2", "E7", "zombie")
    assert "E7" not in closed.distances("0,0", "zombie") and "E7" not in closed.distances("0,0")
    assert closed.distances("2,2", "strahd")["E7"] == 1
    assert closed.shortest_paths("3,0", "E7", "strahd") == [("3,0", "3,1", "E7")]
    assert closed.steps("E7", "ghoul") == ()  # walled in: the zombie at the church stays there


def test_building_and_destroying_barricades_never_gives_a_stale_answer() -> None:
    board = village()
    assert board.shortest_paths("2,1", "E7") == [("2,1", "2,2", "E7"), ("2,1", "3,1", "E7")]
    west = board.wall("E7", Direction.W)
    built = board.with_changes(west)
    assert built.shortest_paths("2,1", "E7") == [("2,1", "3,1", "E7")]
    assert board.shortest_paths("2,1", "E7") == [("2,1", "2,2", "E7"), ("2,1", "3,1", "E7")]
    both = built.with_changes(board.wall("E7", Direction.N))
    assert both.shortest_paths("2,1", "E7") == [] and both.closest("0,0", ["E7", "1,1"]) == (2, ["1,1"])
    destroyed = both.without(west)
    assert destroyed.shortest_paths("2,1", "E7") == [("2,1", "2,2", "E7")]
    assert both.without(*both.changes) is board and destroyed.changed([west]) is built  # kept, not rebuilt
    assert destroyed == board.changed({board.wall("3,1", Direction.S)}) and destroyed.changes != built.changes


def test_changed_boards_are_kept_but_not_without_end() -> None:
    board = Grid(DERIVED_KEPT + 2, 2)
    walls = [Wall(f"{c},0", f"{c},1") for c in range(DERIVED_KEPT + 2)]
    first = board.changed([walls[0]])
    for wall in walls[1:]:
        board.changed([wall])
    assert len(board._derived) == DERIVED_KEPT and board.changed([walls[0]]) is not first
    assert board.changed([walls[0]]) == first and board.changed([walls[-1]]) is board.changed([walls[-1]])


def test_walls_and_blocks_are_checked_against_the_board() -> None:
    board = village()
    with pytest.raises(ValueError, match="the board's edge"):
        board.wall("0,0", Direction.N)
    with pytest.raises(ValueError, match="sides"):
        board.wall("1,1", Direction.NE)
    with pytest.raises(UnknownWay, match="no way between '0,0' and '3,0'"):
        board.changed([Wall("0,0", "3,0")])
    with pytest.raises(UnknownLocation, match="'atlantis' is not a location"):
        board.changed([Block("atlantis")])


def test_a_blocked_square_is_neither_entered_nor_crossed_but_can_be_left() -> None:
    board = Grid(3, 1)
    blocked = board.with_changes(Block("1,0"))
    assert "2,0" not in blocked.distances("0,0") and blocked.distances("1,0") == {"1,0": 0, "0,0": 1, "2,0": 1}
    assert blocked.shortest_paths("1,0", "2,0") == [("1,0", "2,0")] and blocked.shortest_paths("0,0", "2,0") == []
    assert blocked.with_changes(Block("1,0", frozenset({"imp"}))).distances("0,0", "imp") == {"0,0": 0}  # both hold
    imps = board.with_changes(Block("1,0", frozenset({"imp"})))
    assert imps.distances("0,0", "imp")["2,0"] == 2 and "2,0" not in imps.distances("0,0")


# -- grids ------------------------------------------------------------------------------------------

def test_a_grid_knows_its_squares_directions_and_edge() -> None:
    grid = Grid(3, 3)
    assert grid.square(1, 2) == "1,2" and grid.square(3, 0) is None and grid.coordinates_of("2,1") == (2, 1)
    assert grid.toward("1,1", Direction.N) == "1,0" and grid.toward("0,0", Direction.W) is None
    assert grid.direction("1,1", "2,2") is Direction.SE and grid.direction("0,0", "2,2") is None
    assert grid.off_board("0,0") == (Direction.N, Direction.W) and grid.off_board("1,1") == ()
    assert grid.edge() == [p for p in grid.places if p != "1,1"]
    assert grid.lines("0,1") == {Direction.N: "0,0", Direction.E: "1,1", Direction.S: "0,2"}
    assert grid.steps("1,1") == ("0,1", "1,0", "1,2", "2,1")  # 4 neighbours: never diagonally
    with pytest.raises(UnknownLocation):
        grid.coordinates_of("9,9")


def test_directions_turn_for_a_player_at_another_side() -> None:
    assert Direction.N.turned(2) is Direction.E and Direction.N.turned(-2) is Direction.W
    assert Direction.NW.turned(1) is Direction.N and Direction.S.turned(4) is Direction.N
    assert Direction.NE.diagonal and not Direction.E.diagonal and Direction.SW.step == (-1, 1)


def test_eight_neighbours_make_diagonal_paths_with_their_ties() -> None:
    grid = Grid(3, 3, diagonals=True)
    assert grid.steps("1,1") == tuple(sorted(p for p in grid.places if p != "1,1"))
    assert grid.distances("0,0")["2,2"] == 2
    assert grid.shortest_paths("0,0", "2,0") == [("0,0", "1,0", "2,0"), ("0,0", "1,1", "2,0")]
    assert {w.kind for w in grid.ways_between("0,0", "1,1")} == {"corner"}


def test_a_grid_with_holes() -> None:
    grid = Grid(3, 2, squares=[(0, 0), (1, 0), (2, 0), (2, 1)])
    assert grid.square(0, 1) is None and grid.distances("0,0")["2,1"] == 3 and "0,1" not in grid
    assert grid.off_board("1,0") == (Direction.N, Direction.S)
    with pytest.raises(ValueError, match="outside"):
        Grid(2, 2, squares=[(2, 0)])


# -- free jumps and one-way ways ----------------------------------------------------------------------

def city() -> Grid:
    """Straszydła's kind of board: districts, moves straight or diagonal, and from one
    suburb (the edge) on to any other suburb at no cost."""
    grid = Grid(4, 4, diagonals=True)
    return grid.with_ways(jumps(grid.edge()))


def test_a_suburb_jump_is_free_and_taken_once() -> None:
    board = city()
    assert isinstance(board, Grid) and board.distances("0,0")["3,3"] == 0 and board.distances("1,1")["3,3"] == 1
    assert board.shortest_paths("0,0", "3,3") == [("0,0", "3,3")]  # one jump, never a chain of them
    assert board.shortest_paths("1,1", "2,2") == [("1,1", "2,2")]
    assert ("1,1", "0,0", "3,3") in board.shortest_paths("1,1", "3,3") and len(board.shortest_paths("1,1", "3,3")) == 5
    assert board.closest("1,1", ["3,3", "2,2"]) == (1, ["2,2", "3,3"])
    blocked = board.with_changes(Block("3,3"))
    assert "3,3" not in blocked.distances("0,0") and blocked.distances("0,0")["3,2"] == 0
    plain = Grid(4, 4, diagonals=True).with_changes(Block("3,3"))
    joined = plain.with_ways(jumps(plain.edge()))  # ways added to a changed board keep its changes
    assert joined == blocked and joined.changed([]).distances("0,0")["3,3"] == 0

def test_a_one_way_way_is_walked_one_way() -> None:
    board = Board("ABC", [Way("A", "B", one_way=True), Way("B", "C")])
    assert board.distances("A") == {"A": 0, "B": 1, "C": 2} and board.distances("C") == {"C": 0, "B": 1}
    assert board.shortest_paths("A", "C") == [("A", "B", "C")] and board.shortest_paths("C", "A") == []
    assert board.steps("B") == ("C",) and not board.adjacent("B", "A")


# -- every answer, for every mover, on random boards --------------------------------------------------

MOVERS = [None, "creature", "strahd"]


@st.composite
def boards(draw: st.DrawFn) -> Board:
    places = [str(n) for n in range(draw(st.integers(2, 6)))]
    ways = draw(st.lists(st.builds(
        Way, st.sampled_from(places), st.sampled_from(places), st.just(""),
        st.one_of(st.none(), st.frozensets(st.sampled_from(["creature", "strahd"]))),
        st.booleans(), st.sampled_from([0, 1, 1, 1, 2])), max_size=12))
    board = Board(places, [w for w in ways if w.a != w.b])
    pairs = sorted({(w.a, w.b) for w in board.ways})
    walls = draw(st.lists(st.sampled_from(pairs), max_size=2)) if pairs else []
    blocks = draw(st.lists(st.sampled_from(places), max_size=1))
    return board.changed([Wall(a, b, frozenset({"strahd"})) for a, b in walls] +
                         [Block(p, frozenset({"creature"})) for p in blocks])


def every_simple_path(board: Board, source: str, goal: str, mover: str | None) -> list[tuple[int, tuple[str, ...]]]:
    """By brute force: (moves, path) of every path without a place twice."""
    found = []
    for length in range(len(board.places)):
        for middle in itertools.permutations([p for p in board.places if p not in (source, goal)], length):
            path = (source, *middle, goal) if source != goal else (source,)
            cost = path_cost(board, path, mover)
            if cost is not None and (source != goal or length == 0):
                found.append((cost, path))
    return found


def path_cost(board: Board, path: tuple[str, ...], mover: str | None) -> int | None:
    total = 0
    for a, b in zip(path, path[1:]):
        costs = [w.cost for w in board.ways if board.passes(w, mover) and board.enters(b, mover)
                 and ((w.a, w.b) == (a, b) or (not w.one_way and (w.b, w.a) == (a, b)))]
        if not costs:
            return None
        total += min(costs)
    return total


@settings(max_examples=150, deadline=None)
@given(boards(), st.data())
def test_every_returned_path_is_shortest_walkable_and_none_is_missing(board: Board, data: st.DataObject) -> None:
    source, goal = data.draw(st.sampled_from(board.places)), data.draw(st.sampled_from(board.places))
    mover = data.draw(st.sampled_from(MOVERS))
    every = every_simple_path(board, source, goal, mover)
    paths = board.shortest_paths(source, goal, mover)
    if not every:
        assert paths == [] and goal not in board.distances(source, mover)
        return
    fewest = min(cost for cost, _ in every)
    best = min(len(path) for cost, path in every if cost == fewest)
    assert board.distances(source, mover)[goal] == fewest
    assert paths == sorted(path for cost, path in every if cost == fewest and len(path) == best)
