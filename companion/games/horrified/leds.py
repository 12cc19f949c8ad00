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

from pathlib import Path
from typing import Mapping, Sequence

from companion.games.horrified_core.lights import (FamilyLights, active_seat, board_shape, looks_of, mapping, path_of,
                                                    terror_tracks, text, walk, write_default_layout)
from hardware.leds.animations import Animation, Flash
from hardware.leds.board import BoardShape
from hardware.leds.cues import CueBook, Data, Stage, View
from hardware.leds.looks import Looks
from hardware.leds.palette import (BLACK, BLUE, BLUISH_GREEN, ORANGE, REDDISH_PURPLE, SKY_BLUE, VERMILLION,
                                   WHITE, YELLOW, Look, breathe, chase, double_blink, steady)
from hardware.leds.scene import Marker, Scene

from .ownerdata import GAME
from .rules import OriginalRules

LAYOUT_FILE = Path(__file__).resolve().with_name("leds-layout.json")

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
        return board_shape(GAME, self.rules.pack if data is None else self.rules.owner_pack(data), LAYOUT_FILE)

    def looks(self) -> Looks:
        return Looks(cue_book(), scene)


look_of = looks_of(MONSTER_LOOKS)


LIGHTS = FamilyLights(look_of)


# -- the still scene ------------------------------------------------------------------------------------

def scene(view: Mapping[str, object], shape: BoardShape) -> Scene:
    return Scene(markers=_markers(view), tracks=terror_tracks(view, shape), mats=LIGHTS.mats(view),
                 seat=active_seat(view))


def _markers(view: View) -> tuple[Marker, ...]:
    found = [Marker(str(m["location"]), look_of(str(mid)).colour)
             for mid, m in ((k, mapping(v)) for k, v in mapping(view.get("monsters")).items())
             if not m.get("defeated") and isinstance(m.get("location"), str)]
    figures = view.get("figures")
    for figure in figures if isinstance(figures, list) else []:
        figure = mapping(figure)
        if figure.get("kind") == "bride" and isinstance(figure.get("location"), str):
            found.append(Marker(str(figure["location"]), look_of("frankenstein").colour))
    return tuple(found)


# -- the cues ------------------------------------------------------------------------------------------------

def cue_book() -> CueBook:
    """This pack's effect kinds (docs/horrified.md, "Effects") and what each lights: the core's,
    a hero's own walk, the Frankenstein and the Bride meeting and a coffin smashed."""
    return CueBook({**LIGHTS.cues(), "hero-moved": _hero_trail, "monsters-met": _met, "coffin-smashed": _smashed})


def _hero_trail(stage: Stage, data: Data, view: View) -> Animation | None:
    return walk(stage, path_of(data), Look(WHITE, steady, "steady"))


def _at(stage: Stage, data: Data) -> Sequence[int]:
    return stage.layout.location(text(data, "location") or "")


def _met(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = _at(stage, data)
    return Flash(leds, (BLUISH_GREEN, VERMILLION), 0.2, stage.timing.flash * 2) if leds else None


def _smashed(stage: Stage, data: Data, view: View) -> Animation | None:
    leds = _at(stage, data)
    return Flash(leds, (WHITE, REDDISH_PURPLE, BLACK), 0.12, stage.timing.flash) if leds else None


# -- the shipped default layout ----------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> None:
    write_default_layout("the original Horrified", HorrifiedLeds(OriginalRules()).shape(), LAYOUT_FILE, argv)


if __name__ == "__main__":
    main()
