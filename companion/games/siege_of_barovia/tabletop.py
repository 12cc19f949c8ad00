"""Siege of Barovia's table as a tabletop (companion/engine/tabletop.py): every figure on the
village map and the square it stands on (a keyed place by its name and its column and row,
counted as the grid's labels count them), the barricades on their lines, hit points, upgraded
weapons and the destroyed safe houses."""

from __future__ import annotations

from companion.engine.tabletop import OFF, Count, Piece, Tabletop, Track

from .state import SiegeState
from .words import line_words, square_words, the_place


def tabletop(state: SiegeState) -> Tabletop:
    places: dict[str, str] = {}
    pieces: dict[str, Piece] = {}
    tracks: dict[str, Track] = {}
    for figure in state.figures.values():
        at = OFF
        if figure.square is not None:
            at = figure.square
            places.setdefault(at, square_name(state, at))
        pieces[figure.id] = Piece(figure.name, at)
        if figure.max_hp > 1 and figure.on_board:
            tracks[f"hp:{figure.id}"] = Track(f"{figure.name}'s hit points", figure.hp)
        if figure.upgraded:
            tracks[f"upgraded:{figure.id}"] = Track(f"{figure.name}'s weapons upgraded", True)
    counts: dict[str, Count] = {}
    for a, b in state.barricades:
        key = f"line:{a}|{b}"
        places[key] = line_words(state, a, b)
        counts[f"barricade:{a}|{b}"] = Count("barricade", "barricades", key, 1)
    for place in state.destroyed:
        tracks[f"destroyed:{place}"] = Track(f"{_sentence(the_place(state, place))} destroyed", True)
    return Tabletop(places, pieces, counts, tracks)


def square_name(state: SiegeState, square: str) -> str:
    """A keyed place by its name and square, any other square by its column and row."""
    place = state.map.place_at(square)
    words = square_words(square)
    if place is None:
        return words
    return f"{the_place(state, place.id)} ({words.removeprefix('the square in ')})"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]
