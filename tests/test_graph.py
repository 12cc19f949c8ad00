"""The board graph: distances, every tied shortest path, every tied closest
target (RL-MP-8, RL-MP-12, RL-MP-14 need all ties to turn them into prompts)."""

from hypothesis import given, strategies as st

from companion.engine.graph import Graph, distinct_prefixes

# A - B - D
# |       |
# C ----- E - F
SQUARE = Graph.from_edges("ABCDEF", [("A", "B"), ("B", "D"), ("A", "C"), ("C", "E"), ("D", "E"), ("E", "F")])


def test_distances_are_breadth_first() -> None:
    assert SQUARE.distances("A") == {"A": 0, "B": 1, "C": 1, "D": 2, "E": 2, "F": 3}


def test_rl_mp_12_every_tied_shortest_path_is_returned() -> None:
    # S fans out to three middles that all reach G: three tied shortest paths, plus a longer one.
    """RL-MP-12."""
    fan = Graph.from_edges("SMNOGX", [("S", "M"), ("S", "N"), ("S", "O"), ("M", "G"), ("N", "G"), ("O", "G"),
                                      ("S", "X"), ("X", "M")])
    assert fan.shortest_paths("S", "G") == [("S", "M", "G"), ("S", "N", "G"), ("S", "O", "G")]
    assert SQUARE.shortest_paths("A", "E") == [("A", "C", "E")]
    assert SQUARE.shortest_paths("A", "A") == [("A",)]


def test_two_equal_routes_are_both_given() -> None:
    ring = Graph.from_edges("ABCD", [("A", "B"), ("B", "C"), ("C", "D"), ("D", "A")])
    assert ring.shortest_paths("A", "C") == [("A", "B", "C"), ("A", "D", "C")]


def test_rl_mp_8_closest_returns_all_tied_candidates() -> None:
    """RL-MP-8."""
    assert SQUARE.closest("A", ["D", "E", "F"]) == (2, ["D", "E"])
    assert SQUARE.closest("A", []) == (-1, [])


def test_walked_part_decides_whether_paths_differ() -> None:
    ring = Graph.from_edges("ABCDEF", [("A", "B"), ("B", "C"), ("C", "D"), ("A", "E"), ("E", "F"), ("F", "D")])
    paths = ring.shortest_paths("A", "D")
    assert len(paths) == 2
    assert distinct_prefixes(paths, 1) == [("A", "B"), ("A", "E")]
    same_start = [("A", "B", "C"), ("A", "B", "D")]
    assert distinct_prefixes(same_start, 1) == [("A", "B")]


def test_unknown_location_is_refused() -> None:
    try:
        SQUARE.distances("Z")
    except ValueError as problem:
        assert "'Z' is not a location" in str(problem)
    else:
        raise AssertionError("an unknown location was accepted")


@st.composite
def graphs(draw: st.DrawFn) -> Graph:
    n = draw(st.integers(2, 9))
    nodes = [str(i) for i in range(n)]
    edges = draw(st.lists(st.tuples(st.sampled_from(nodes), st.sampled_from(nodes)), max_size=20))
    return Graph.from_edges(nodes, [(a, b) for a, b in edges if a != b])


@given(graphs(), st.data())
def test_every_returned_path_is_shortest_and_walkable(graph: Graph, data: st.DataObject) -> None:
    nodes = list(graph.neighbours)
    a, b = data.draw(st.sampled_from(nodes)), data.draw(st.sampled_from(nodes))
    dist = graph.distances(a)
    paths = graph.shortest_paths(a, b)
    if b not in dist:
        assert paths == []
        return
    assert paths and len(set(paths)) == len(paths)
    for path in paths:
        assert path[0] == a and path[-1] == b and len(path) == dist[b] + 1
        assert all(graph.adjacent(x, y) for x, y in zip(path, path[1:]))
