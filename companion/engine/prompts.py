"""What the engine asks for next, and the shape checks every answer passes.

A prompt is plain data a tablet, a button, the dice camera or a script can
answer. The checks here are the generic ones (was this option offered, is this
a die face); the rules check the rest when they receive the answer. What a
die face is comes from the die-kind registry (``dice.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, Sequence

from .dice import D20, DICE, MONSTER, DiceKinds
from .errors import IllegalInput, NotOffered

PromptKind = Literal["choice", "pick", "roll", "draw", "action"]

MONSTER_FACES = tuple(str(value) for value in MONSTER.values)
#: The d20's symbol face counts as 20 (RL-D20-1); tablets may send either.
D20_SYMBOL = D20.face(20).words[0]


@dataclass(frozen=True)
class Option:
    """One offered answer: ``id`` is sent back, ``text`` is shown on the button."""

    id: str
    text: str
    data: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Prompt:
    """A question for the table.

    ``key`` names the kind of question (stable across versions, e.g.
    ``monster-order``); ``text`` is the plain words shown on the tablet.
    ``player`` is the seat that answers; ``audience`` the seats that may see
    the question and its answer (None: everyone, the shared screen too). A
    question for one seat's eyes (a secret plan, a secret bid) is shown to
    the others only as "waiting for ...", and only that seat may answer it.

    ``each``: every seat of ``audience`` answers this same question for itself,
    in secret and in any order (moves planned at once, bids revealed together).
    The rules are sent a :class:`SeatAnswer` naming the seat that answered, and
    ask again with the seats still to answer (``simultaneous.gather``); an
    answer shows to the seat that gave it alone, never to the others asked.
    ``answered``: of those seats, the ones that have answered a question they
    may still change (a ``revisable`` gather asks them all until the last one
    has answered); the seats still to answer are :meth:`still_to_answer`.
    """

    kind: PromptKind
    key: str
    text: str
    player: str | None = None
    options: tuple[Option, ...] = ()
    min_picks: int = 0
    max_picks: int = 0
    die: str | None = None  # a roll's die: the id of a kind in the registry ("d20", "monster", "d6")
    count: int = 0
    context: Mapping[str, object] = field(default_factory=dict)
    audience: tuple[str, ...] | None = None
    each: bool = False
    answered: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.each and not self.audience:
            raise ValueError(f"{self.key}: a question each seat answers for itself needs the seats (audience)")

    def seen_by(self, seat: str | None) -> bool:
        """Whether ``seat`` (None: the shared screen) may see this question."""
        return self.audience is None or seat in self.audience

    def still_to_answer(self) -> tuple[str, ...]:
        """The seats of ``audience`` that have not answered yet (a script answers for the first)."""
        return tuple(seat for seat in self.audience or () if seat not in self.answered)

    def answered_by(self) -> tuple[str, ...] | None:
        """The seats that may answer, as the question declares them: its ``audience`` (each of them
        for itself when ``each``), else its ``player`` alone, else None: the table (whoever is at it).
        The table enforces it for every game, before the rules see the answer (docs/engine.md)."""
        if self.audience is not None:
            return self.audience
        return (self.player,) if self.player is not None else None

    def option_ids(self) -> list[str]:
        return [option.id for option in self.options]

    def option(self, option_id: str) -> Option:
        for option in self.options:
            if option.id == option_id:
                return option
        raise NotOffered(f"{option_id!r} was not one of the choices offered ({self._offered()})")

    def _offered(self) -> str:
        return ", ".join(self.option_ids()) or "none"


@dataclass(frozen=True)
class SeatAnswer:
    """What the rules receive for a question each seat answers for itself (``Prompt.each``):
    which seat answered, and its checked answer."""

    seat: str
    answer: object


Answer = object  # what a prompt's check returns: str, tuple of str, tuple of faces/ints, or a mapping


def check_answer(prompt: Prompt, answer: object, dice: DiceKinds = DICE) -> Answer:
    """Refuse an answer of the wrong shape for ``prompt``; return it normalised.
    ``dice``: the die kinds the game rolls (a pack with a die of its own gives its registry)."""
    if prompt.kind == "roll":
        return _check_roll(prompt, answer, dice)
    return _CHECKS[prompt.kind](prompt, answer)


def _check_choice(prompt: Prompt, answer: object) -> str:
    if not isinstance(answer, str):
        raise IllegalInput(f"{prompt.key}: expected one choice as text, got {answer!r}")
    return prompt.option(answer).id


def _check_pick(prompt: Prompt, answer: object) -> tuple[str, ...]:
    if not isinstance(answer, (list, tuple)) or not all(isinstance(a, str) for a in answer):
        raise IllegalInput(f"{prompt.key}: expected a list of choices, got {answer!r}")
    if len(set(answer)) != len(answer):
        raise IllegalInput(f"{prompt.key}: the same choice was picked twice")
    if not prompt.min_picks <= len(answer) <= prompt.max_picks:
        raise IllegalInput(
            f"{prompt.key}: pick between {prompt.min_picks} and {prompt.max_picks}, not {len(answer)}"
        )
    return tuple(prompt.option(a).id for a in answer)


def _check_roll(prompt: Prompt, answer: object, dice: DiceKinds) -> tuple[object, ...]:
    if not isinstance(answer, (list, tuple)) or len(answer) != prompt.count:
        raise IllegalInput(f"{prompt.key}: expected {prompt.count} dice, got {answer!r}")
    return tuple(dice.check(prompt.die, face) for face in answer)


def _check_action(prompt: Prompt, answer: object) -> Mapping[str, object]:
    if not isinstance(answer, Mapping) or not isinstance(answer.get("action"), str):
        raise IllegalInput(f"{prompt.key}: expected an action like {{'action': 'move', ...}}, got {answer!r}")
    return answer


_CHECKS = {
    "choice": _check_choice,
    "draw": _check_choice,
    "pick": _check_pick,
    "action": _check_action,
}


def faces(answer: object) -> Sequence[object]:
    """The dice of a checked roll answer."""
    assert isinstance(answer, tuple)
    return answer


def confirmation(title: str, text: str, yes: str, no: str) -> dict[str, str]:
    """What an answer that is hard to take back at the table asks first, declared by the pack on the
    answer itself (an action menu entry's ``confirm``): the shell draws the question, no pack code
    on the tablet (docs/protocol.md, "Confirmations")."""
    return {"title": title, "text": text, "yes": yes, "no": no}
