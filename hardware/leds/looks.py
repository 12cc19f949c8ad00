"""A pack's looks under the board: how its views and effects light the LEDs.

The pack gives one ``Looks`` (``GamePack.leds().looks()``): its ``CueBook``,
which animation each effect kind plays, and its ``scene``, the still picture
from its public view. The LED board draws what they say and knows no game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from .board import BoardShape
from .cues import CueBook
from .scene import EMPTY, Scene

#: The still picture of a public view on a board of this shape.
SceneOf = Callable[[Mapping[str, object], BoardShape], Scene]


def _nothing(view: Mapping[str, object], shape: BoardShape) -> Scene:
    return EMPTY


@dataclass(frozen=True)
class Looks:
    cues: CueBook = field(default_factory=CueBook)
    scene: SceneOf = _nothing


#: A board that only glows: no cues, no scene (a game whose pack gives no looks).
PLAIN = Looks()

__all__ = ["Looks", "PLAIN", "SceneOf"]
