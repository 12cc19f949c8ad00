"""What every Horrified edition lights the same way (docs/leds.md): the Terror track, the mats of
the monsters in play, the active player's seat, and the cues of the effect kinds the core emits
(a monster's trail, its target, a defeat, a rescue, a fallen character, Terror, frenzy, a turn,
the game's end). An edition passes its monsters' looks and adds the cues of its own effects; the
figures on the board (which minions, which extra figures) stay the edition's own.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from hardware.leds.animations import Animation, Fade, Flash, Pulse, Together, Trail
from hardware.leds.board import BoardShape
from hardware.leds.cues import Data, Handler, Stage, View, finale_pulse, finale_sweep, trail_points
from hardware.leds.generate_layout import layout_json
from hardware.leds.palette import BLACK, NEUTRAL, SKY_BLUE, VERMILLION, WHITE, YELLOW, Look, shade, spare_look
from hardware.leds.layout import Leds, default_layout
from hardware.leds.scene import MatLight, TrackLevel

from .pack_types import Pack

TERROR = "terror"
WARN_WITHIN = 2  # the Terror track warns from its end minus this
SEATS = 5  # 1 to 5 players in every edition


def board_shape(game: str, pack: Pack, layout_file: Path) -> BoardShape:
    """An edition's board for the LEDs: its locations and roads (water ways too), the Terror track
    (spaces 0 up to its end), a mat per monster and a seat per player."""
    board = pack.board
    return BoardShape(name=game, locations={loc.id: (loc.x, loc.y) for loc in board.locations},
                      connections=tuple((c.a, c.b) for c in board.connections), tracks={TERROR: board.terror_max + 1},
                      mats=tuple(m.id for m in pack.monsters), seats=SEATS, mat_noun="monster",
                      layout_file=layout_file)


def looks_of(looks: Mapping[str, Look]) -> Callable[[object], Look]:
    """A monster's look from an edition's table; one with none of its own gets a spare colour."""
    def look(monster: object) -> Look:
        if not isinstance(monster, str):
            return NEUTRAL
        return looks.get(monster) or spare_look(monster)
    return look


def write_default_layout(title: str, shape: BoardShape, layout_file: Path, argv: list[str] | None = None) -> None:
    """``python -m <edition>.leds``: the edition's default layout generated from its board, written
    over the shipped file (or printed)."""
    parser = argparse.ArgumentParser(description=f"Write {title}'s default LED layout, generated from its board.")
    parser.add_argument("--per-connection", type=int, default=2)
    parser.add_argument("--stdout", action="store_true", help="print instead of writing the shipped file")
    args = parser.parse_args(argv)
    written = layout_json(default_layout(shape, args.per_connection))
    if args.stdout:
        print(written, end="")
    else:
        layout_file.write_text(written, encoding="utf-8")


def mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def text(data: Data, key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def path_of(data: Data) -> list[str]:
    path = data.get("path")
    return [p for p in path if isinstance(p, str)] if isinstance(path, list) else []


def warning(shape: BoardShape, level: int) -> bool:
    return level >= shape.steps(TERROR) - 1 - WARN_WITHIN


def terror_tracks(view: View, shape: BoardShape) -> dict[str, TrackLevel]:
    level = view.get("terror")
    if isinstance(level, bool) or not isinstance(level, int):
        return {}
    return {TERROR: TrackLevel(level, warning(shape, level))}


def active_seat(view: View) -> int | None:
    active = view.get("active")
    return active if isinstance(active, int) and not isinstance(active, bool) and view.get("phase") != "over" else None


def walk(stage: Stage, path: list[str], look: Look) -> Animation | None:
    """A trail along ``path`` ending on its last place (nothing for a path of one place)."""
    points = trail_points(stage.layout, path, stage.timing.step) if len(path) > 1 else []
    return Trail(points, stage.layout.location(path[-1]), look, stage.timing.dwell,
                 shade(WHITE, stage.style.idle_glow)) if points else None


@dataclass(frozen=True)
class FamilyLights:
    """The shared scene parts and cues, in an edition's monster looks."""

    look_of: Callable[[object], Look]

    def mats(self, view: View) -> dict[str, MatLight]:
        frenzied = view.get("frenzy")
        return {str(m): MatLight(self.look_of(str(m)).colour, on=m == frenzied)
                for m, monster in mapping(view.get("monsters")).items() if not mapping(monster).get("defeated")}

    def cues(self) -> dict[str, Handler]:
        """The core's effect kinds and what each lights; an edition adds (or replaces) its own."""
        return {
            "monster-moved": self._trail, "figure-moved": self._trail, "target": self._target,
            "monster-stays": self._here, "monster-placed": self._here, "monster-defeated": self._defeated,
            "villager-rescued": _rescued, "hero-defeated": _fallen, "villager-defeated": _fallen,
            "terror": _terror, "frenzy": self._frenzy, "turn": _turn, "game-won": _won, "game-lost": _lost,
        }

    def _trail(self, stage: Stage, data: Data, view: View) -> Animation | None:
        return walk(stage, path_of(data), self.look_of(data["monster"]) if "monster" in data else NEUTRAL)

    def _target(self, stage: Stage, data: Data, view: View) -> Animation | None:
        leds = _at(stage, data)
        return Pulse(leds, self.look_of(data.get("monster")), stage.timing.pulse, hold_level=0.8) if leds else None

    def _here(self, stage: Stage, data: Data, view: View) -> Animation | None:
        leds = _at(stage, data)
        return Pulse(leds, self.look_of(data.get("monster")), stage.timing.flash) if leds else None

    def _defeated(self, stage: Stage, data: Data, view: View) -> Animation | None:
        monster = text(data, "monster") or ""
        colour = self.look_of(monster).colour
        return Together((Flash(_at(stage, data), (WHITE, colour), 0.15, stage.timing.flash * 2),
                         Fade(stage.layout.mat(monster), colour, stage.timing.flash * 2)))

    def _frenzy(self, stage: Stage, data: Data, view: View) -> Animation | None:
        monster = text(data, "monster")
        return Pulse(stage.layout.mat(monster), self.look_of(monster), stage.timing.flash) if monster else None


def _at(stage: Stage, data: Data) -> Leds:
    return stage.layout.location(text(data, "location") or "")


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
    colour = VERMILLION if warning(stage.shape, level) else YELLOW
    return Flash(stage.layout.step(TERROR, level), (colour, BLACK), 0.2, stage.timing.flash)


def _turn(stage: Stage, data: Data, view: View) -> Animation | None:
    seats, hero = view.get("seats"), data.get("hero")
    if not isinstance(seats, list) or hero not in seats:
        return None
    return Flash(stage.layout.seat(seats.index(hero)), (WHITE, BLACK), 0.2, stage.timing.flash)


def _won(stage: Stage, data: Data, view: View) -> Animation | None:
    return finale_sweep(stage, SKY_BLUE)


def _lost(stage: Stage, data: Data, view: View) -> Animation | None:
    return finale_pulse(stage)
