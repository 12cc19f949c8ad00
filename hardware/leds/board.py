"""What the LED layer needs to know about a board: its shape, not its rules.

A ``BoardShape`` is the game pack's board reduced to ids and drawing
positions: locations with x, y (0..1 over the board picture), connections, the
Terror track's length, the monsters that have a mat and how many seats there
are. Layout validation, the default-layout generator, calibration and the
tablet overlay all work from it, so they stay independent of the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    from companion.games.ravenloft.pack_types import Pack

MAX_SEATS = 5  # Horrified: 1 to 5 players


@dataclass(frozen=True)
class BoardShape:
    name: str
    locations: Mapping[str, tuple[float, float]]
    connections: tuple[tuple[str, str], ...]
    terror_max: int
    monsters: tuple[str, ...]
    seats: int = MAX_SEATS
    _pairs: frozenset[frozenset[str]] = field(default=frozenset(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_pairs", frozenset(frozenset(pair) for pair in self.connections))

    def connected(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self._pairs

    @property
    def terror_steps(self) -> int:
        """Spaces on the track: 0 up to terror_max."""
        return self.terror_max + 1


def ravenloft_shape() -> BoardShape:
    """The shipped Ravenloft board (imported lazily: the engine never needs us)."""
    from companion.games.ravenloft.pack import load_pack

    return shape_from_pack(load_pack(), "ravenloft")


def shape_from_pack(pack: "Pack", name: str) -> BoardShape:
    """``name`` is the game kind's name (``view["game"]``), which layouts are filed under."""
    board = pack.board
    return BoardShape(
        name=name,
        locations={loc.id: (loc.x, loc.y) for loc in board.locations},
        connections=tuple((c.a, c.b) for c in board.connections),
        terror_max=board.terror_max,
        monsters=tuple(m.id for m in pack.monsters),
    )
