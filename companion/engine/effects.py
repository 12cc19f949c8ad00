"""What the outside world shows after an input: effects are plain data.

``kind`` says what happened (``monster-moved``, ``terror`` ...), ``text`` says
in plain words what to do with the physical pieces, ``data`` carries what a
tablet or the LED board needs (a path, a target, the new terror level).
The kinds a game emits are listed in docs/engine.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Final, Literal, Mapping

#: What kind of thing an effect is, declared once per effect kind by its pack (``effect_natures``):
#: a physical ``step`` a hand does on the table, a ``note`` that says what happens (a symbol, a
#: monster that stays), or a question's ``result`` (a die, a check, revealed bids). The shell's
#: guide ticks the steps and shows the rest as plain lines: it never lists effect names.
Nature = Literal["step", "note", "result"]
STEP: Final[Nature] = "step"
NOTE: Final[Nature] = "note"
RESULT: Final[Nature] = "result"
NATURES: Final = (STEP, NOTE, RESULT)


def natures_of(steps: tuple[str, ...] = (), notes: tuple[str, ...] = (),
               results: tuple[str, ...] = ()) -> Mapping[str, Nature]:
    """A pack's ``effect_natures``: its effect kinds by what they are."""
    found: dict[str, Nature] = {}
    groups: tuple[tuple[tuple[str, ...], Nature], ...] = ((steps, "step"), (notes, "note"), (results, "result"))
    for kinds, nature in groups:
        for kind in kinds:
            if kind in found:
                raise ValueError(f"effect kind {kind!r} is declared twice")
            found[kind] = nature
    return found


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

    def to_plain(self, natures: Mapping[str, Nature] | None = None) -> dict[str, object]:
        """As the protocol sends it; with the pack's ``natures``, with its ``nature`` too (a kind
        the pack did not declare is a ``step``: shown as something to do, never hidden)."""
        plain: dict[str, object] = {"kind": self.kind, "text": self.text, "data": dict(self.data)}
        if natures is not None:
            plain["nature"] = natures.get(self.kind, STEP)
        return plain

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

    def reveal(self, kind: str, text: str, /, **data: object) -> None:
        """An effect that shows everyone what was secret (the bids, the plans): final once shown."""
        self.effects.append(Effect(kind, text, data, reveals=True))

    def take(self) -> tuple[Effect, ...]:
        taken, self.effects = tuple(self.effects), []
        return taken
