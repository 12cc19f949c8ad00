"""Ravenloft under the LEDs: the board's shape, the monsters' looks, the still
scene of a public view and a cue per effect kind (docs/leds.md).

Why here: what is worth lighting and how is the game's. The LED layer
(``hardware.leds``) draws a ``Scene`` and plays a ``CueBook``'s animations and
knows no game; this module is the Ravenloft side of that seam, the pack's
``leds()`` (``PackLeds``: ``shape(data)`` and ``looks()``).

What the board shows, from the public view (the keys of the view module's
``public_view``: ``monsters``, ``mats``, ``terror``, ``frenzy``, ``seats``,
``active``, ``phase``):

* each monster's location in its colour, and each Twig Blight's in the Tree's;
* the Terror track lit up to the level, vermillion and hatched from two below
  its end;
* the mats of the monsters in play, the frenzied one bright;
* the active player's seat.

    python -m companion.games.ravenloft.leds     # rewrites the shipped default layout
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Mapping

from companion.engine.game import Rules
from hardware.leds.animations import Animation, Fade, Flash, Pulse, Sweep, Together, Trail
from hardware.leds.board import BoardShape
from hardware.leds.cues import CueBook, Data, Stage, View, trail_points
from hardware.leds.generate_layout import layout_json
from hardware.leds.layout import default_layout
from hardware.leds.looks import Looks
from hardware.leds.palette import (BLACK, BLUE, BLUISH_GREEN, NEUTRAL, ORANGE, REDDISH_PURPLE, SKY_BLUE,
                                   VERMILLION, WHITE, YELLOW, Look, breathe, chase, double_blink, shade, spare_look,
                                   steady)
from hardware.leds.scene import Marker, MatLight, Scene, TrackLevel

from .rules import RavenloftRules

BOARD = "ravenloft"  # the game's id: what views carry as ``game``, what layouts are filed under
LAYOUT_FILE = Path(__file__).resolve().with_name("leds-layout.json")
SEATS = 5  # 1 to 5 players
TERROR = "terror"
WARN_WITHIN = 2  # the Terror track warns from its end minus this

#: Each monster's look: a colour and a rhythm of its own (colour is never the only signal).
MONSTER_LOOKS: dict[str, Look] = {
    "carrionette": Look(ORANGE, steady, "steady"),
    "baba-lysaga": Look(REDDISH_PURPLE, double_blink, "double blink"),
    "strahd": Look(BLUE, breathe, "slow breathing"),
    "gulthias-tree": Look(BLUISH_GREEN, chase, "marching chase"),
}


class RavenloftLeds:
    """The pack's LED board (``PackLeds``). ``rules``: the game's rules, whose pack (or
    the owner's correction of it) gives the board."""

    def __init__(self, rules: Rules | None = None) -> None:
        chosen = rules if rules is not None else RavenloftRules()
        assert isinstance(chosen, RavenloftRules), "Ravenloft's LEDs light Ravenloft's rules"
        self.rules = chosen

    def shape(self, data: Mapping[str, object] | None = None) -> BoardShape:
        """The board as shipped, or as the owner's data corrected it (OwnerDataError if it does not hold)."""
        pack = self.rules.pack if data is None else self.rules.owner_pack(data)
        board = pack.board
        return BoardShape(
            name=BOARD,
            locations={loc.id: (loc.x, loc.y) for loc in board.locations},
            connections=tuple((c.a, c.b) for c in board.connections),
            tracks={TERROR: board.terror_max + 1},  # spaces 0 up to terror_max
            mats=tuple(m.id for m in pack.monsters),
            seats=SEATS,
            mat_noun="monster",
            layout_file=LAYOUT_FILE,
        )

    def looks(self) -> Looks:
        return Looks(cue_book(), scene)


def monster_look(monster: object) -> Look:
    """A monster's look; one with none of its own gets a spare colour, steady."""
    if not isinstance(monster, str):
        return NEUTRAL
    return MONSTER_LOOKS.get(monster) or spare_look(monster)


# -- the still scene ------------------------------------------------------------------------

def scene(view: Mapping[str, object], shape: BoardShape) -> Scene:
    return Scene(markers=_markers(view), tracks=_tracks(view, shape), mats=_mats(view), seat=_seat(view))


def _markers(view: View) -> tuple[Marker, ...]:
    """Every monster figure on the board, then every Twig Blight (in its Tree's colour)."""
    found = []
    for monster_id, monster in _mapping(view.get("monsters")).items():
        monster = _mapping(monster)
        if not monster.get("defeated") and isinstance(monster.get("location"), str):
            found.append(Marker(str(monster["location"]), monster_look(str(monster_id)).colour))
    for mat_id, mat in _mapping(view.get("mats")).items():
        blights = _mapping(mat).get("blights")
        found.extend(Marker(b, monster_look(str(mat_id)).colour)
                     for b in (blights if isinstance(blights, list) else []) if isinstance(b, str))
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
    return {str(m): MatLight(monster_look(str(m)).colour, on=m == frenzied)
            for m, monster in _mapping(view.get("monsters")).items() if not _mapping(monster).get("defeated")}


def _seat(view: View) -> int | None:
    active = view.get("active")
    if isinstance(active, int) and not isinstance(active, bool) and view.get("phase") != "over":
        return active
    return None


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


# -- the cues --------------------------------------------------------------------------------

def cue_book() -> CueBook:
    """Ravenloft's effect kinds (docs/engine.md, "Effect kinds") and what each lights."""
    return CueBook({
        "monster-moved": _moved, "figure-moved": _moved, "target": _target,
        "monster-stays": _here, "monster-placed": _here, "blight-placed": _here,
        "monster-defeated": _defeated, "villager-rescued": _rescued,
        "hero-defeated": _fallen, "villager-defeated": _fallen,
        "terror": _terror_moved, "frenzy": _frenzy, "turn": _turn, "game-won": _won, "game-lost": _lost,
    })


def _text(data: Data, key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _path(data: Data) -> list[str]:
    path = data.get("path")
    return [p for p in path if isinstance(p, str)] if isinstance(path, list) else []


def _moved(stage: Stage, data: Data, view: View) -> Animation | None:
    path = _path(data)
    if len(path) < 2:
        return None
    look = monster_look(data["monster"]) if "monster" in data else NEUTRAL
    points = trail_points(stage.layout, path, stage.timing.step)
    glow = shade(WHITE, stage.style.idle_glow)
    return Trail(points, stage.layout.location(path[-1]), look, stage.timing.dwell, glow) if points else None


def _target(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = stage.layout.location(_text(data, "location") or "")
    return Pulse(leds, monster_look(data.get("monster")), stage.timing.pulse, hold_level=0.8) if leds else None


def _here(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = stage.layout.location(_text(data, "location") or "")
    return Pulse(leds, monster_look(data.get("monster")), stage.timing.flash) if leds else None


def _defeated(stage: Stage, data: Data, view: View) -> Animation | None:
    monster = _text(data, "monster") or ""
    look = monster_look(monster)
    flash = Flash(stage.layout.location(_text(data, "location") or ""), (WHITE, look.colour), 0.15,
                  stage.timing.flash * 2)
    return Together((flash, Fade(stage.layout.mat(monster), look.colour, stage.timing.flash * 2)))


def _rescued(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = stage.layout.location(_text(data, "location") or "")
    return Flash(leds, (SKY_BLUE, WHITE, BLACK), 0.12, stage.timing.flash * 1.5, stagger=True) if leds else None


def _fallen(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = stage.layout.location(_text(data, "location") or "")
    return Flash(leds, (VERMILLION, BLACK, VERMILLION, BLACK, BLACK, BLACK), 0.12, stage.timing.flash) if leds else None


def _terror_moved(stage: Stage, data: Data, view: View) -> Animation | None:
    level, change = data.get("level"), data.get("change")
    if not isinstance(level, int) or not isinstance(change, int):
        return None
    if change < 0:
        return Fade(stage.layout.step(TERROR, level + 1), YELLOW, stage.timing.flash)
    colour = VERMILLION if _warning(stage.shape, level) else YELLOW
    return Flash(stage.layout.step(TERROR, level), (colour, BLACK), 0.2, stage.timing.flash)


def _frenzy(stage: Stage, data: Data, view: View) -> Animation | None:
    monster = _text(data, "monster")
    return Pulse(stage.layout.mat(monster), monster_look(monster), stage.timing.flash) if monster else None


def _turn(stage: Stage, data: Data, view: View) -> Animation | None:
    seats = view.get("seats")
    hero = data.get("hero")
    if not isinstance(seats, list) or hero not in seats:
        return None
    return Flash(stage.layout.seat(seats.index(hero)), (WHITE, BLACK), 0.2, stage.timing.flash)


def _won(stage: Stage, data: Data, view: View) -> Animation | None:
    leds, xs = stage.board_leds()
    return Sweep(leds, xs, SKY_BLUE, stage.timing.finale, passes=2, hold_level=0.25)


def _lost(stage: Stage, data: Data, view: View) -> Animation | None:
    leds, _ = stage.board_leds()
    return Pulse(leds, Look(VERMILLION, breathe, "slow breathing"), stage.timing.finale, hold_level=0.12)


# -- the shipped default layout ---------------------------------------------------------------

def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write Ravenloft's default LED layout, generated from the board.")
    parser.add_argument("--per-connection", type=int, default=2)
    parser.add_argument("--stdout", action="store_true", help="print instead of writing the shipped file")
    args = parser.parse_args(argv)
    text = layout_json(default_layout(RavenloftLeds().shape(), args.per_connection))
    if args.stdout:
        print(text, end="")
    else:
        LAYOUT_FILE.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
