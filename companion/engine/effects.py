"""What the outside world shows after an input: effects are plain data.

``kind`` says what happened (``monster-moved``, ``terror`` ...), ``text`` says
in plain words what to do with the physical pieces, ``data`` carries what a
tablet or the LED board needs (a path, a target, the new terror level).
The kinds a game emits are listed in docs/engine.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping


@dataclass(frozen=True)
class Effect:
    """``audience``: the seats that may see it (None: everyone); a seat's secret is told to it alone.
    ``reveals``: it shows the table what was secret until now (sealed bids, planned moves): once
    shown it is final, so the table does not take it back without the seats' consent."""

    kind: str
    text: str
    data: Mapping[str, object] = field(default_factory=dict)
    audience: tuple[str, ...] | None = None
    reveals: bool = False

    def to_plain(self) -> dict[str, object]:
        return {"kind": self.kind, "text": self.text, "data": dict(self.data)}

    def seen_by(self, seat: str | None) -> bool:
        return self.audience is None or seat in self.audience


class EffectSink:
    """Collects the effects of one input, in order."""

    def __init__(self) -> None:
        self.effects: list[Effect] = []

    def emit(self, kind: str, text: str, /, **data: object) -> None:
        self.effects.append(Effect(kind, text, data))

    def tell(self, seats: tuple[str, ...], kind: str, text: str, /, **data: object) -> None:
        """An effect for those seats' eyes only (their own secret card, their own plan)."""
        self.effects.append(Effect(kind, text, data, audience=seats))

    def reveal(self, kind: str, text: str, /, **data: object) -> None:
        """An effect that shows everyone what was secret (the bids, the plans): final once shown."""
        self.effects.append(Effect(kind, text, data, reveals=True))

    def take(self) -> tuple[Effect, ...]:
        taken, self.effects = tuple(self.effects), []
        return taken
