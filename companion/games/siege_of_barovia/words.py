"""How the pack names squares, figures and sides in the sentences it shows.

Why a module: prompts, effects, the box DM's reasons and the terminal all say
"the ghoul goes for the Tavern", and they must say it the same way."""

from __future__ import annotations

import re

from companion.engine.grid import Direction

from .mapdata import square_words
from .state import Figure, SiegeState

SIDE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def where(state: SiegeState, square: str | None) -> str:
    """A keyed place by its name, any other square by its column and row."""
    if square is None:
        return "off the board"
    place = state.map.place_at(square)
    return the_place(state, place.id) if place else square_words(square)


def said(state: SiegeState, value: object) -> str:
    """A square given in an answer, in a refusal's words: as a player counts it when it is a square of the
    map (never the protocol's key, which counts from 0), else quoted as it came."""
    if isinstance(value, str) and value in state.map.grid.places:
        return where(state, value)
    return repr(value)


def place_name(state: SiegeState, place: str) -> str:
    return state.map.places[place].name


def the_place(state: SiegeState, place: str) -> str:
    """``the Church``, but ``Bildrath's Mercantile``: a name that starts with an owner's name takes no article."""
    name = place_name(state, place)
    return name if re.match(r"[A-Z][\w-]*'s ", name) else f"the {name}"


def who(figure: Figure) -> str:
    """``Ana's hero``, ``Zombie 2``, ``Count Strahd``."""
    return figure.name


def the(figure: Figure) -> str:
    """A figure in the middle of a sentence: ``the ghoul`` when it is the only one of its kind
    that has ever been, else its name."""
    return figure.name if figure.kind not in ("zombie", "ghoul") else f"{figure.name[0].lower()}{figure.name[1:]}"


def side_of(state: SiegeState, square: str, other: str) -> str:
    direction = state.map.grid.direction(square, other)
    return SIDE_WORDS.get(direction.name, "") if isinstance(direction, Direction) else ""


def line_words(state: SiegeState, a: str, b: str) -> str:
    return f"the line between {where(state, a)} and {where(state, b)}"


__all__ = ["SIDE_WORDS", "line_words", "place_name", "said", "the_place", "side_of", "square_words", "the", "where", "who"]
