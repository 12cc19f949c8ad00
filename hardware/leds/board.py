"""What the LED layer needs to know about a board: its shape, not its rules.

A ``BoardShape`` is a game pack's board reduced to ids and drawing positions:
locations with x, y (0..1 over the board picture), connections, the board's
*tracks* by name and how many steps each has (a Terror track of steps 0 to
7: ``{"terror": 8}``), its *mats* (named spots off the picture: monster
mats), and how many seats the table has. The pack builds it (its ``leds()``
gives ``shape(data)``); layout validation, the default-layout generator,
calibration and the tablet overlay all work from it, so they stay independent
of the engine and of every game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping

if TYPE_CHECKING:
    from .layout import Layout

#: Names a track cannot have: they are other parts of a layout file, or of a calibration answer.
RESERVED = frozenset({"format", "version", "board", "count", "locations", "connections", "mats", "seats", "note",
                      "location", "connection", "mat", "seat"})


class ShapeError(ValueError):
    """A board shape a pack gave that the LEDs cannot use (a programming error in the pack)."""


@dataclass(frozen=True)
class BoardShape:
    """``name``: the game's id, which views carry as ``game`` and layouts are filed under.
    ``mat_noun`` is what a mat stands for, in messages ("no such monster in this game").
    ``layout_file``: the pack's shipped default layout (None: one is generated: by ``generated`` when
    the pack gives it, e.g. from the LED matrix the board lies on (hardware.leds.matrix), else the
    default generator)."""

    name: str
    locations: Mapping[str, tuple[float, float]]
    connections: tuple[tuple[str, str], ...]
    tracks: Mapping[str, int] = field(default_factory=dict)
    mats: tuple[str, ...] = ()
    seats: int = 0
    mat_noun: str = "mat"
    layout_file: Path | None = None
    generated: "Callable[[BoardShape], Layout] | None" = field(default=None, compare=False)
    _pairs: frozenset[frozenset[str]] = field(default=frozenset(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_pairs", frozenset(frozenset(pair) for pair in self.connections))
        clash = sorted(RESERVED & set(self.tracks))
        if clash:
            raise ShapeError(f"a track cannot be called {clash[0]!r}: that name is part of every layout")
        if any(steps < 1 for steps in self.tracks.values()) or self.seats < 0:
            raise ShapeError("a track needs at least one step and a table at least no seats")

    def connected(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self._pairs

    def steps(self, track: str) -> int:
        """How many steps a track has (0 for a track this board does not have)."""
        return self.tracks.get(track, 0)
