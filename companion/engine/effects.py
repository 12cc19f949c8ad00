"""What the outside world shows after an input: effects are plain data.

``kind`` says what happened (``monster-moved``, ``terror`` ...), ``text`` says
in plain words what to do with the physical pieces, ``data`` carries what a
tablet or the LED board needs (a path, a target, the new terror level).
The kinds a game emits are listed in docs/engine.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping


@dataclass(frozen=True)
class Effect:
    """``audience``: the seats that may see it (None: everyone); a seat's secret is told to it alone."""

    kind: str
    text: str
    data: Mapping[str, object] = field(default_factory=dict)
    audience: tuple[str, ...] | None = None

    def to_plain(self) -> dict[str, object]:
        return {"kind": self.kind, "text": self.text, "data": dict(self.data)}

    def seen_by(self, seat: str | None) -> bool:
        return self.audience is None or seat in self.audience


#: Told of each boundary the rules reach: (the state, the point; see ``EffectSink.boundary``).
BoundaryListener = Callable[[object, object], None]


class EffectSink:
    """Collects the effects of one input, in order; ``on_boundary``: told of each boundary."""

    def __init__(self) -> None:
        self.effects: list[Effect] = []
        self.on_boundary: BoundaryListener | None = None

    def boundary(self, state: object, point: object) -> None:
        """The rules reached a boundary they declare: from here the game goes on from ``state`` and
        ``point`` (plain, picklable data: what is left to do) alone, with nothing else of the
        running rules, so it can be continued from a copy of them (``Rules.resume``) instead of
        being replayed from its start. Whoever listens takes its copy now (the state changes as
        the rules go on); nobody listening costs nothing."""
        if self.on_boundary is not None:
            self.on_boundary(state, point)

    def emit(self, kind: str, text: str, /, **data: object) -> None:
        self.effects.append(Effect(kind, text, data))

    def tell(self, seats: tuple[str, ...], kind: str, text: str, /, **data: object) -> None:
        """An effect for those seats' eyes only (their own secret card, their own plan)."""
        self.effects.append(Effect(kind, text, data, audience=seats))

    def take(self) -> tuple[Effect, ...]:
        taken, self.effects = tuple(self.effects), []
        return taken
