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

from pathlib import Path
from typing import Mapping

from companion.engine.game import Rules
from companion.games.horrified_core.lights import (FamilyLights, active_seat, board_shape, looks_of, mapping, terror_tracks,
                                                    write_default_layout)
from hardware.leds.board import BoardShape
from hardware.leds.cues import CueBook, View
from hardware.leds.looks import Looks
from hardware.leds.palette import (BLUE, BLUISH_GREEN, ORANGE, REDDISH_PURPLE, Look, breathe, chase,
                                   double_blink, steady)
from hardware.leds.scene import Marker, Scene

from .rules import RavenloftRules

BOARD = "ravenloft"  # the game's id: what views carry as ``game``, what layouts are filed under
LAYOUT_FILE = Path(__file__).resolve().with_name("leds-layout.json")

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
        return board_shape(BOARD, self.rules.pack if data is None else self.rules.owner_pack(data), LAYOUT_FILE)

    def looks(self) -> Looks:
        return Looks(cue_book(), scene)


#: A monster's look; one with none of its own gets a spare colour, steady.
monster_look = looks_of(MONSTER_LOOKS)


LIGHTS = FamilyLights(monster_look)


# -- the still scene ------------------------------------------------------------------------

def scene(view: Mapping[str, object], shape: BoardShape) -> Scene:
    return Scene(markers=_markers(view), tracks=terror_tracks(view, shape), mats=LIGHTS.mats(view),
                 seat=active_seat(view))


def _markers(view: View) -> tuple[Marker, ...]:
    """Every monster figure on the board, then every Twig Blight (in its Tree's colour)."""
    found = []
    for monster_id, monster in mapping(view.get("monsters")).items():
        monster = mapping(monster)
        if not monster.get("defeated") and isinstance(monster.get("location"), str):
            found.append(Marker(str(monster["location"]), monster_look(str(monster_id)).colour))
    for mat_id, mat in mapping(view.get("mats")).items():
        blights = mapping(mat).get("blights")
        found.extend(Marker(b, monster_look(str(mat_id)).colour)
                     for b in (blights if isinstance(blights, list) else []) if isinstance(b, str))
    return tuple(found)


# -- the cues --------------------------------------------------------------------------------

def cue_book() -> CueBook:
    """Ravenloft's effect kinds (docs/engine.md, "Effect kinds") and what each lights: the core's,
    and a Twig Blight placed as a monster is."""
    cues = LIGHTS.cues()
    return CueBook({**cues, "blight-placed": cues["monster-placed"]})


# -- the shipped default layout ---------------------------------------------------------------

def main(argv: list[str] | None = None) -> None:
    write_default_layout("Ravenloft", RavenloftLeds().shape(), LAYOUT_FILE, argv)


if __name__ == "__main__":
    main()
