"""Siege of Barovia under the LEDs: the village grid over a WS281x matrix
(docs/siege-of-barovia.md, "LEDs").

The board's shape for the LED layer is the grid itself: every square is a
location (at its middle on the board picture), every line between two
squares a connection. Its default layout is generated from the LED matrix
the grid lies on (``hardware.leds.matrix``: serpentine panels as sold; ours is
four 16 x 16 panels, 32 x 32 LEDs, under the whole grid), so the LEDs inside a
square light the square and those on a line light the line; LED calibration
corrects the rest, as for any board.

What it shows, from the public view: each zombie, ghoul and Count Strahd in
its colour, the heroes in white, the safe houses still standing in sky blue
(vermillion when a creature stands on one or can step onto it), barricades
in yellow on their lines, and the DM's last move: its path as a trail in the
creature's colour when it happens, and afterwards the line it crossed.

    companion siege-leds --panel 16x16 --panels 2x2     # a layout for your matrix
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Final, Mapping

from hardware.leds.animations import Animation, Fade, Flash, Pulse, Trail
from hardware.leds.board import BoardShape
from hardware.leds.cues import CueBook, Data, Stage, View, finale_pulse, finale_sweep, trail_points
from hardware.leds.generate_layout import layout_json
from hardware.leds.looks import Looks
from hardware.leds.matrix import CORNERS, Matrix, MatrixError, Wiring, generator, matrix_layout
from hardware.leds.palette import (BLACK, BLUISH_GREEN, NEUTRAL, ORANGE, REDDISH_PURPLE, SKY_BLUE, VERMILLION, WHITE,
                                   YELLOW, Look, blink, breathe, double_blink, shade, steady)
from hardware.leds.scene import LineLight, Marker, Scene

from .mapdata import SiegeMap, square_cell
from .ownerdata import GAME, Maps

#: Each figure kind's look: a colour and a rhythm of its own (colour is never the only signal).
LOOKS: Final[dict[str, Look]] = {
    "zombie": Look(BLUISH_GREEN, steady, "steady"),
    "ghoul": Look(ORANGE, double_blink, "double blink"),
    "strahd": Look(REDDISH_PURPLE, breathe, "slow breathing"),
    "hero": Look(WHITE, steady, "steady"),
    "militia": Look(WHITE, steady, "steady"),
}
HOUSE: Final = Look(SKY_BLUE, steady, "steady")
THREAT: Final = Look(VERMILLION, blink, "blink")
BARRICADE: Final = YELLOW
#: Ours: four 16 x 16 panels (as sold, wired in serpentine rows), joined row by row, under the whole grid.
DEFAULT_MATRIX: Final = Matrix(16, 16, 2, 2)


def shape_of(siege_map: SiegeMap, matrix: Matrix = DEFAULT_MATRIX) -> BoardShape:
    """Squares at their middles on the grid's picture, every line between two squares a connection."""
    columns, rows = siege_map.columns, siege_map.rows
    squares = {name: ((c + 0.5) / columns, (r + 0.5) / rows)
               for name in siege_map.grid.places for c, r in [square_cell(name)]}
    return BoardShape(GAME, squares, tuple(siege_map.lines()), mat_noun="spot", generated=generator(matrix))


class SiegeLeds:
    """The pack's LED board (``PackLeds``)."""

    def __init__(self, maps: Maps) -> None:
        self.maps = maps

    def shape(self, data: Mapping[str, object] | None = None) -> BoardShape:
        return shape_of(self.maps.for_data(data))

    def looks(self) -> Looks:
        return Looks(cue_book(), scene)


# -- the still scene ---------------------------------------------------------------------------------

def scene(view: Mapping[str, object], shape: BoardShape) -> Scene:
    return Scene(markers=(*_houses(view), *_figures(view, ("hero", "militia")),
                          *_figures(view, ("zombie", "ghoul", "strahd"))),
                 lines=(*_barricades(view), *_last_move(view)))


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _houses(view: View) -> list[Marker]:
    squares = _mapping(view.get("places"))
    threatened = _list(view.get("threatened"))
    standing = [str(h) for h in _list(view.get("standing"))]
    return [Marker(str(squares[h]), (THREAT if h in threatened else HOUSE).colour) for h in standing if h in squares]


def _figures(view: View, kinds: tuple[str, ...]) -> list[Marker]:
    found = []
    for figure in _mapping(view.get("figures")).values():
        figure = _mapping(figure)
        if figure.get("kind") in kinds and isinstance(figure.get("square"), str):
            found.append(Marker(str(figure["square"]), LOOKS[str(figure["kind"])].colour))
    return found


def _barricades(view: View) -> list[LineLight]:
    return [LineLight(str(line[0]), str(line[1]), BARRICADE) for line in _list(view.get("barricades"))
            if isinstance(line, list) and len(line) == 2]


def _last_move(view: View) -> list[LineLight]:
    did = _mapping(view.get("last_dm"))
    path = [p for p in _list(did.get("path")) if isinstance(p, str)]
    figure = _mapping(_mapping(view.get("figures")).get(str(did.get("figure"))))
    look = LOOKS.get(str(figure.get("kind")), HOUSE)
    return [LineLight(a, b, look.colour) for a, b in zip(path, path[1:])]


# -- the cues ------------------------------------------------------------------------------------------

def cue_book() -> CueBook:
    return CueBook({
        "dm-move": _dm_move, "dm-attack": _at_figure, "summoned": _at_figure, "strahd-arrives": _at_figure,
        "enemy-placed": _at_figure, "hero-slain": _fallen, "enemy-killed": _killed, "strahd-fled": _killed,
        "site-destroyed": _destroyed, "barricade-built": _barricade, "barricade-moved": _barricade,
        "barricade-removed": _barricade_gone, "game-won": _won, "game-lost": _lost,
    })


def _look(data: Data) -> Look:
    return LOOKS.get(str(data.get("kind")), NEUTRAL)


def _square(stage: Stage, data: Data) -> tuple[int, ...]:
    square = data.get("square")
    return stage.layout.location(square) if isinstance(square, str) else ()


def _dm_move(stage: Stage, data: Data, view: View) -> Animation | None:
    path = [p for p in _list(data.get("path")) if isinstance(p, str)]
    points = trail_points(stage.layout, path, stage.timing.step) if len(path) > 1 else []
    glow = shade(WHITE, stage.style.idle_glow)
    return Trail(points, stage.layout.location(path[-1]), _look(data), stage.timing.dwell, glow) if points else None


def _at_figure(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = _square(stage, data)
    kind = "strahd" if data.get("figure") == "strahd" else data.get("kind")
    return Pulse(leds, LOOKS.get(str(kind), NEUTRAL), stage.timing.pulse) if leds else None


def _fallen(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = _square(stage, data)
    return Flash(leds, (VERMILLION, BLACK, VERMILLION, BLACK, BLACK, BLACK), 0.12, stage.timing.flash) if leds else None


def _killed(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = _square(stage, data)
    return Flash(leds, (WHITE, BLACK), 0.15, stage.timing.flash) if leds else None


def _destroyed(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = _square(stage, data)
    return Flash(leds, (VERMILLION, BLACK), 0.2, stage.timing.flash * 2) if leds else None


def _line(stage: Stage, data: Data) -> tuple[int, ...]:
    line = _list(data.get("line"))
    return stage.layout.segment(str(line[0]), str(line[1])) if len(line) == 2 else ()


def _barricade(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = _line(stage, data)
    return Flash(leds, (BARRICADE, BLACK), 0.2, stage.timing.flash) if leds else None


def _barricade_gone(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = _line(stage, data)
    return Fade(leds, BARRICADE, stage.timing.flash) if leds else None


def _won(stage: Stage, data: Data, view: View) -> Animation | None:
    return finale_sweep(stage, SKY_BLUE)


def _lost(stage: Stage, data: Data, view: View) -> Animation | None:
    return finale_pulse(stage)


# -- a layout for the owner's matrix ----------------------------------------------------------------------

def _size(text: str, what: str) -> tuple[int, int]:
    across, _, down = text.lower().partition("x")
    if not (across.isdigit() and down.isdigit()):
        raise argparse.ArgumentTypeError(f"{what} is COLUMNSxROWS, e.g. 16x16, not {text!r}")
    return int(across), int(down)


def add_layout_command(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    sub = commands.add_parser("siege-leds", help="Siege of Barovia: an LED layout for the matrix under your grid")
    sub.add_argument("--panel", default="16x16", help="LEDs of one panel, COLUMNSxROWS (default: 16x16)")
    sub.add_argument("--panels", default="2x2", help="panels across x down (default: 2x2)")
    sub.add_argument("--start", choices=CORNERS, default="top-left", help="where the data comes into each panel")
    sub.add_argument("--along", choices=("rows", "columns"), default="rows", help="which way each panel's strip runs")
    sub.add_argument("--progressive", action="store_true", help="each row starts from the same side (not serpentine)")
    sub.add_argument("--data", type=Path, metavar="OWNER.json", help="your map (the owner data file), else ours")
    sub.add_argument("--out", type=Path, metavar="LAYOUT.json", help="write the layout here (default: print it)")
    sub.set_defaults(run=_write_layout)


def _write_layout(args: argparse.Namespace) -> int:
    from companion.terminal import CliError, read_file

    try:
        (pc, pr), (across, down) = _size(args.panel, "--panel"), _size(args.panels, "--panels")
        matrix = Matrix(pc, pr, across, down, Wiring(args.start, args.along, not args.progressive))
        data = read_file(args.data) if args.data else None
        shape = shape_of(Maps().for_data(data), matrix)
        layout = matrix_layout(shape, matrix)
    except (argparse.ArgumentTypeError, MatrixError, ValueError) as problem:
        raise CliError("siege-leds", str(problem)) from None
    write_text(args.out, layout_json(layout, f"A {matrix.columns} x {matrix.rows} matrix under the village grid "
                                             f"({len(layout.locations)} squares, {len(layout.connections)} lines lit). "
                                             "Run the LED calibration to correct it."))
    return 0


def write_text(path: Path | None, text: str) -> None:
    """The layout to the file named, or printed."""
    from companion.terminal import CliError, say

    if path is None:
        say(text.rstrip("\n"))
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as problem:
        raise CliError(str(path), f"cannot write the layout: {problem}") from None
    say(f"Wrote {path}.")


__all__ = ["DEFAULT_MATRIX", "LOOKS", "SiegeLeds", "add_layout_command", "cue_book", "scene", "shape_of", "write_text"]
