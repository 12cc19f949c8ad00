"""Straszydła under the LEDs (docs/leds.md): the board's shape and the pack's looks.

The LEDs lie under the board's squares, not under tiles: the tiles are laid out afresh for
each game, so the picture reads the public view's layout to know which district lies where.
Each square has three spots: its middle, lit in the colour of the cubes its district
produces (full while cubes lie there, faint once collected); a STOP spot (white while a
STOP marker is on it) and a blockade spot (vermillion while blockaded; it flashes as the
marker goes down). A track of 5 steps is the day/night card (the rounds of this time of day left: its horror cubes
and the round under way; the last round's one step in the warning look); the seats
light the player whose turn it is. Cues: a pawn's path as a trail, a district replenished,
a blockade put down, a duel pulsing in yellow, its winner, a new time of day, the end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from hardware.leds.animations import Animation, Flash, Pulse, Sweep, Trail
from hardware.leds.board import BoardShape
from hardware.leds.cues import CueBook, Data, Stage, View, finale_sweep, trail_points
from hardware.leds.looks import Looks
from hardware.leds.palette import (BLACK, BLUE, BLUISH_GREEN, ORANGE, REDDISH_PURPLE, VERMILLION, WHITE, YELLOW,
                                   Look, Colour, blink, scaled, steady)
from hardware.leds.scene import Marker, Scene, TrackLevel

from .geometry import square_key
from .packdata import Pack
from .setup import PLAYERS

BOARD: Final = "straszydla"
CARD: Final = "card"  # the day/night card's horror cubes, 0 to 4
STOP, BLOCK = ":stop", ":block"
#: The LED colour of each fear-cube colour the rulebook names.
CUBE_LEDS: Final[dict[str, Colour]] = {"green": BLUISH_GREEN, "orange": ORANGE, "purple": REDDISH_PURPLE,
                                       "blue": BLUE}
EMPTY_LEVEL = 0.25  # a district whose cubes were taken


class StraszydlaLeds:
    """The pack's LED board (``PackLeds``); ``pack``: the shipped data, whose board size is used
    unless the owner's data gives another."""

    def __init__(self, pack: Pack, owner_pack: Callable[[Mapping[str, object]], Pack]) -> None:
        self.pack = pack
        self.owner_pack = owner_pack

    def shape(self, data: Mapping[str, object] | None = None) -> BoardShape:
        pack = self.pack if data is None else self.owner_pack(data)
        return board_shape(pack.columns, pack.rows)

    def looks(self) -> Looks:
        return Looks(cue_book(), scene)


def board_shape(columns: int, rows: int) -> BoardShape:
    locations: dict[str, tuple[float, float]] = {}
    for c in range(columns):
        for r in range(rows):
            x, y = (c + 0.5) / columns, (r + 0.5) / rows
            key = square_key(c, r)
            locations[key] = (x, y)
            locations[key + STOP] = (x - 0.3 / columns, y + 0.3 / rows)
            locations[key + BLOCK] = (x + 0.3 / columns, y + 0.3 / rows)
    sides = [(square_key(c, r), square_key(c + dc, r + dr)) for c in range(columns) for r in range(rows)
             for dc, dr in ((1, 0), (0, 1)) if c + dc < columns and r + dr < rows]
    return BoardShape(name=BOARD, locations=locations, connections=tuple(sides), tracks={CARD: 5},
                      seats=max(PLAYERS), mat_noun="mat")


# -- the still picture -------------------------------------------------------------------------------------

def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def squares_of(view: View) -> dict[str, str]:
    """District (tile id) -> the square it lies on."""
    layout = _mapping(_mapping(view.get("board")).get("layout"))
    return {str(tile): str(square) for square, tile in layout.items()}


def scene(view: Mapping[str, object], shape: BoardShape) -> Scene:
    board = _mapping(view.get("board"))
    squares = squares_of(view)
    colours = _mapping(view.get("colours"))
    cubes = _mapping(board.get("cubes"))
    markers = [Marker(square, _district_colour(colours.get(tile), bool(cubes.get(tile))))
               for tile, square in squares.items()]
    markers += [Marker(squares[str(t)] + STOP, WHITE) for t in _mapping(board.get("stops")) if str(t) in squares]
    markers += [Marker(squares[str(t)] + BLOCK, VERMILLION) for t in _list(board.get("blockades"))
                if str(t) in squares]
    card = view.get("card")
    tracks = {CARD: _rounds_left(card)} if isinstance(card, int) else {}
    return Scene(markers=tuple(markers), tracks=tracks, seat=_seat(view))


def _rounds_left(card: int) -> TrackLevel:
    """The rounds of this time of day still to play, this one too: the card's horror cubes and one.
    On the last round the card is empty, so the cubes alone would light nothing and hide the warning."""
    return TrackLevel(card + 1, warning=card == 0)


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _district_colour(colour: object, full: bool) -> Colour:
    base = CUBE_LEDS.get(str(colour), WHITE)
    return base if full else scaled(base, EMPTY_LEVEL)


def _seat(view: View) -> int | None:
    seats, who = _list(view.get("seats")), view.get("acting") or view.get("starting")
    return seats.index(who) if who in seats and view.get("phase") != "over" else None


# -- the cues ----------------------------------------------------------------------------------------------

def cue_book() -> CueBook:
    return CueBook({"pawn-moved": _moved, "withdrew": _moved, "replenish": _replenished, "blockade": _blockade,
                    "duel": _duel, "duel-won": _duel_won, "time-changed": _time, "game-won": _end,
                    "game-over": _end})


def _square(view: View, tile: object) -> str:
    return squares_of(view).get(str(tile), "")


def _moved(stage: Stage, data: Data, view: View) -> Animation | None:
    path = [_square(view, p) for p in _list(data.get("path"))]
    if len(path) < 2 or not all(path):
        return None
    points = trail_points(stage.layout, path, stage.timing.step)
    return Trail(points, stage.layout.location(path[-1]), Look(WHITE, steady, "steady"), stage.timing.dwell) \
        if points else None


def _replenished(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = stage.layout.location(_square(view, data.get("place")))
    colour = _district_colour(_mapping(view.get("colours")).get(str(data.get("place"))), True)
    return Pulse(leds, Look(colour, steady, "steady"), stage.timing.flash / 2) if leds else None


def _blockade(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = stage.layout.location(_square(view, data.get("place")) + BLOCK)
    return Flash(leds, (VERMILLION, BLACK), 0.2, stage.timing.flash) if leds else None


def _duel(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = stage.layout.location(_square(view, data.get("place")))
    return Pulse(leds, Look(YELLOW, blink, "blink"), stage.timing.pulse, hold_level=0.6) if leds else None


def _duel_won(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = stage.layout.location(_square(view, data.get("place")))
    return Flash(leds, (YELLOW, WHITE, BLACK), 0.15, stage.timing.flash) if leds else None


def _time(stage: Stage, data: Data, view: View) -> Animation | None:
    leds, xs = stage.board_leds()
    colour = WHITE if data.get("time") == "day" else BLUE
    return Sweep(leds, xs, colour, stage.timing.flash * 2, passes=1, hold_level=0.0)


def _end(stage: Stage, data: Data, view: View) -> Animation | None:
    return finale_sweep(stage, YELLOW)


__all__ = ["BOARD", "CARD", "StraszydlaLeds", "board_shape", "cue_book", "scene"]
