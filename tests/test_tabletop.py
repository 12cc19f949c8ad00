"""The changes between two tabletops, in words a player acts on (companion/engine/tabletop.py)."""

from __future__ import annotations

from companion.engine.tabletop import EMPTY, Count, Piece, Tabletop, Track, apply_changes, changes, layout

PLACES = {"crypt": "the Crypt", "abbey": "the Abbey", "hand:ana": "Ana", "bag": "the item bag"}


def table(pieces: dict[str, Piece], counts: dict[str, Count] | None = None,
          tracks: dict[str, Track] | None = None) -> Tabletop:
    return Tabletop(PLACES, pieces, counts or {}, tracks or {})


def test_a_piece_moved_says_from_where_to_where() -> None:
    now = table({"dracula": Piece("Dracula", "abbey"), "garlic": Piece("the Garlic", "hand:ana")})
    then = table({"dracula": Piece("Dracula", "crypt"), "garlic": Piece("the Garlic", "bag")})
    assert [c.text for c in changes(now, then)] == ["Move Dracula from the Abbey to the Crypt.",
                                                    "Move the Garlic from Ana to the item bag."]


def test_on_and_off_the_table() -> None:
    on = table({"mummy": Piece("the Mummy", "crypt")})
    assert [c.text for c in changes(EMPTY, on)] == ["Bring the Mummy to the Crypt."]
    assert [c.text for c in changes(on, EMPTY)] == ["Take the Mummy off the table (from the Crypt)."]
    assert changes(on, table({"mummy": Piece("the Mummy")})) == changes(on, EMPTY)  # off the board and absent alike


def zombies(n: int) -> dict[str, Count]:
    return {"z": Count("zombie", "zombies", "crypt", n)}


def terror(value: int) -> dict[str, Track]:
    return {"t": Track("The Terror marker", value)}


def gift(value: bool) -> dict[str, Track]:
    return {"g": Track("The Sorcerer's Dark Gift", value)}


def test_counts_and_tracks() -> None:
    assert [c.text for c in changes(table({}, zombies(3)), table({}, zombies(1)))] == \
        ["Take 2 zombies from the Crypt (1 zombie there, not 3)."]
    assert [c.text for c in changes(table({}, zombies(0)), table({}, zombies(2)))] == ["Add 2 zombies to the Crypt."]
    assert [c.text for c in changes(table({}, zombies(1)), table({}))] == ["Take 1 zombie from the Crypt (none left there)."]
    assert [c.text for c in changes(table({}, None, terror(5)), table({}, None, terror(3)))] == \
        ["The Terror marker: 3 (not 5)."]
    assert [c.text for c in changes(table({}, None, gift(True)), table({}, None, gift(False)))] == \
        ["The Sorcerer's Dark Gift: no (not yes)."]
    assert changes(table({}, None, gift(False)), table({})) == []  # a mark not made and none are alike


def test_doing_the_changes_gives_the_other_table() -> None:
    now = table({"dracula": Piece("Dracula", "abbey")}, {"z": Count("zombie", "zombies", "crypt", 2)},
                {"t": Track("Terror", 4)})
    then = table({"mummy": Piece("the Mummy", "crypt")}, {}, {"t": Track("Terror", 1)})
    assert layout(apply_changes(now, changes(now, then), then)) == layout(then)
    assert changes(then, then) == []


def test_a_piece_at_a_place_with_no_name_is_a_problem() -> None:
    assert table({"x": Piece("X", "nowhere")}).problems() == ["piece 'x' is at 'nowhere', which is not among the places"]
