"""The original Horrified under the LEDs: its board's shape (the water ways too, so the Creature's
swim lights up), the monsters' looks, the still scene of a public view and a cue per effect kind
(docs/leds.md). The LED layer (``hardware.leds``) knows no game; this is the pack's side of it.

What the board shows, from the public view (``monsters``, ``figures``, ``mats``, ``terror``,
``frenzy``, ``active``, ``phase``): each monster figure in its colour (the Bride in
Frankenstein's), the Terror track up to the level (the warning look from two below its end), the
mats of the monsters in play (the frenzied one full) and the active player's seat.

    python -m companion.games.horrified.leds     # rewrites the shipped default layout
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Mapping, Sequence

from hardware.leds.animations import Animation, Fade, Flash, Pulse, Sweep, Together, Trail
from hardware.leds.board import BoardShape
from hardware.leds.cues import CueBook, Data, Stage, View, trail_points
from hardware.leds.generate_layout import layout_json
from hardware.leds.layout import default_layout
from hardware.leds.looks import Looks
from hardware.leds.palette import (BLACK, BLUE, BLUISH_GREEN, NEUTRAL, ORANGE, REDDISH_PURPLE, SKY_BLUE, VERMILLION,
                                   WHITE, YELLOW, Look, breathe, chase, double_blink, shade, spare_look, steady)
from hardware.leds.scene import Marker, MatLight, Scene, TrackLevel

from .ownerdata import GAME
from .rules import OriginalRules

LAYOUT_FILE = Path(__file__).resolve().with_name("leds-layout.json")
SEATS = 5
TERROR = "terror"
WARN_WITHIN = 2

#: A colour and a rhythm of its own for each monster (colour is never the only signal).
MONSTER_LOOKS: dict[str, Look] = {
    "dracula": Look(REDDISH_PURPLE, breathe, "slow breathing"),
    "mummy": Look(YELLOW, steady, "steady"),
    "frankenstein": Look(BLUISH_GREEN, double_blink, "double blink"),
    "creature": Look(BLUE, chase, "marching chase"),
    "wolf-man": Look(ORANGE, chase, "marching chase"),
    "invisible-man": Look(SKY_BLUE, double_blink, "double blink"),
}


class HorrifiedLeds:
    """The pack's LED board (``PackLeds``), from the original board (or the owner's correction of it)."""

    def __init__(self, rules: OriginalRules) -> None:
        self.rules = rules

    def shape(self, data: Mapping[str, object] | None = None) -> BoardShape:
        pack = self.rules.pack if data is None else self.rules.owner_pack(data)
        board = pack.board
        return BoardShape(name=GAME, locations={loc.id: (loc.x, loc.y) for loc in board.locations},
                          connections=tuple((c.a, c.b) for c in board.connections), tracks={TERROR: board.terror_max + 1},
                          mats=tuple(m.id for m in pack.monsters), seats=SEATS, mat_noun="monster",
                          layout_file=LAYOUT_FILE)

    def looks(self) -> Looks:
        return Looks(cue_book(), scene)


def look_of(monster: object) -> Look:
    if not isinstance(monster, str):
        return NEUTRAL
    return MONSTER_LOOKS.get(monster) or spare_look(monster)


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _text(data: Data, key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


# -- the still scene ------------------------------------------------------------------------------------

def scene(view: Mapping[str, object], shape: BoardShape) -> Scene:
    return Scene(markers=_markers(view), tracks=_tracks(view, shape), mats=_mats(view), seat=_seat(view))


def _markers(view: View) -> tuple[Marker, ...]:
    found = [Marker(str(m["location"]), look_of(str(mid)).colour)
             for mid, m in ((k, _mapping(v)) for k, v in _mapping(view.get("monsters")).items())
             if not m.get("defeated") and isinstance(m.get("location"), str)]
    figures = view.get("figures")
    for figure in figures if isinstance(figures, list) else []:
        figure = _mapping(figure)
        if figure.get("kind") == "bride" and isinstance(figure.get("location"), str):
            found.append(Marker(str(figure["location"]), look_of("frankenstein").colour))
    return tuple(found)


def _tracks(view: View, shape: BoardShape) -> dict[str, TrackLevel]:
    level = view.get("terror")
    if isinstance(level, bool) or not isinstance(level, int):
        return {}
    return {TERROR: TrackLevel(level, _warning(shape, level))}


def _warning(shape: BoardShape, level: int) -> bool:
    return level >= shape.steps(TERROR) - 1 - WARN_WITHIN


def _mats(view: View) -> dict[str, MatLight]:
    frenzied = view.get("frenzy")
    return {str(m): MatLight(look_of(str(m)).colour, on=m == frenzied)
            for m, monster in _mapping(view.get("monsters")).items() if not _mapping(monster).get("defeated")}


def _seat(view: View) -> int | None:
    active = view.get("active")
    return active if isinstance(active, int) and not isinstance(active, bool) and view.get("phase") != "over" else None


# -- the cues ------------------------------------------------------------------------------------------------

def cue_book() -> CueBook:
    """This pack's effect kinds (docs/horrified.md, "Effects") and what each lights."""
    return CueBook({
        "monster-moved": _trail, "figure-moved": _trail, "hero-moved": _hero_trail, "target": _target,
        "monster-stays": _here, "monster-placed": _here, "monster-defeated": _defeated, "monsters-met": _met,
        "villager-rescued": _rescued, "hero-defeated": _fallen, "villager-defeated": _fallen,
        "coffin-smashed": _smashed, "terror": _terror, "frenzy": _frenzy, "turn": _turn,
        "game-won": _won, "game-lost": _lost,
    })


def _path(data: Data) -> list[str]:
    path = data.get("path")
    return [p for p in path if isinstance(p, str)] if isinstance(path, list) else []


def _walk(stage: Stage, path: list[str], look: Look) -> Animation | None:
    points = trail_points(stage.layout, path, stage.timing.step) if len(path) > 1 else []
    return Trail(points, stage.layout.location(path[-1]), look, stage.timing.dwell,
                 shade(WHITE, stage.style.idle_glow)) if points else None


def _trail(stage: Stage, data: Data, view: View) -> Animation | None:
    return _walk(stage, _path(data), look_of(data.get("monster")) if "monster" in data else NEUTRAL)


def _hero_trail(stage: Stage, data: Data, view: View) -> Animation | None:
    return _walk(stage, _path(data), Look(WHITE, steady, "steady"))


def _at(stage: Stage, data: Data) -> Sequence[int]:
    return stage.layout.location(_text(data, "location") or "")


def _target(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = _at(stage, data)
    return Pulse(leds, look_of(data.get("monster")), stage.timing.pulse, hold_level=0.8) if leds else None


def _here(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = _at(stage, data)
    return Pulse(leds, look_of(data.get("monster")), stage.timing.flash) if leds else None


def _defeated(stage: Stage, data: Data, view: View) -> Animation | None:
    monster = _text(data, "monster") or ""
    colour = look_of(monster).colour
    return Together((Flash(_at(stage, data), (WHITE, colour), 0.15, stage.timing.flash * 2),
                     Fade(stage.layout.mat(monster), colour, stage.timing.flash * 2)))


def _met(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = _at(stage, data)
    return Flash(leds, (BLUISH_GREEN, VERMILLION), 0.2, stage.timing.flash * 2) if leds else None


def _smashed(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = _at(stage, data)
    return Flash(leds, (WHITE, REDDISH_PURPLE, BLACK), 0.12, stage.timing.flash) if leds else None


def _rescued(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = _at(stage, data)
    return Flash(leds, (SKY_BLUE, WHITE, BLACK), 0.12, stage.timing.flash * 1.5, stagger=True) if leds else None


def _fallen(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = _at(stage, data)
    return Flash(leds, (VERMILLION, BLACK, VERMILLION, BLACK, BLACK, BLACK), 0.12, stage.timing.flash) if leds else None


def _terror(stage: Stage, data: Data, view: View) -> Animation | None:
    level, change = data.get("level"), data.get("change")
    if not isinstance(level, int) or not isinstance(change, int):
        return None
    if change < 0:
        return Fade(stage.layout.step(TERROR, level + 1), YELLOW, stage.timing.flash)
    return Flash(stage.layout.step(TERROR, level), (VERMILLION if _warning(stage.shape, level) else YELLOW, BLACK), 0.2,
                 stage.timing.flash)


def _frenzy(stage: Stage, data: Data, view: View) -> Animation | None:
    monster = _text(data, "monster")
    return Pulse(stage.layout.mat(monster), look_of(monster), stage.timing.flash) if monster else None


def _turn(stage: Stage, data: Data, view: View) -> Animation | None:
    seats, hero = view.get("seats"), data.get("hero")
    if not isinstance(seats, list) or hero not in seats:
        return None
    return Flash(stage.layout.seat(seats.index(hero)), (WHITE, BLACK), 0.2, stage.timing.flash)


def _won(stage: Stage, data: Data, view: View) -> Animation | None:
    leds, xs = stage.board_leds()
    return Sweep(leds, xs, SKY_BLUE, stage.timing.finale, passes=2, hold_level=0.25)


def _lost(stage: Stage, data: Data, view: View) -> Animation | None:
    leds, _ = stage.board_leds()
    return Pulse(leds, Look(VERMILLION, breathe, "slow breathing"), stage.timing.finale, hold_level=0.12)


# -- the shipped default layout ----------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write the original Horrified's default LED layout, from its board.")
    parser.add_argument("--per-connection", type=int, default=2)
    parser.add_argument("--stdout", action="store_true", help="print instead of writing the shipped file")
    args = parser.parse_args(argv)
    text = layout_json(default_layout(HorrifiedLeds(OriginalRules()).shape(), args.per_connection))
    if args.stdout:
        print(text, end="")
    else:
        LAYOUT_FILE.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
