"""Simultaneous secret answers: several seats answer the same question, each for itself,
in any order, and the rules go on once every one of them has answered.

Why: a game of secrets plans moves or bids "at once" (Straszydła's movement tokens under
the help card, its energy bids in a duel). Asked one seat after the other, the later
seats would wait for the earlier ones, and the order itself could leak (cardstock #45).
So the rules ask every seat with one question marked ``each`` (``Prompt.each``); any of
them may answer first; each answer is checked as it comes (a plan through a blockade is
refused at once, on that seat's phone) and kept from the others; the question is asked
again of the seats still to answer, until none is left. What each seat answered reaches
the rules as a mapping, to be revealed together.
"""

from __future__ import annotations

from typing import Callable, Sequence

from .errors import IllegalInput
from .game import Flow
from .prompts import Prompt, SeatAnswer

#: The question for the seats still to answer (in the order given).
Ask = Callable[[tuple[str, ...]], Prompt]
#: Checks one seat's answer and keeps it (raise IllegalInput to refuse it); returns what to collect.
Accept = Callable[[str, object], object]


def gather(seats: Sequence[str], ask: Ask, accept: Accept) -> Flow[dict[str, object]]:
    """Every seat's answer, seat by seat in the order the answers came (a coroutine to
    ``yield from``); ``ask(pending)`` must be a prompt with ``each`` and ``audience=pending``."""
    answers: dict[str, object] = {}
    while len(answers) < len(seats):
        pending = tuple(seat for seat in seats if seat not in answers)
        prompt = ask(pending)
        if not prompt.each or tuple(prompt.audience or ()) != pending:
            raise ValueError(f"{prompt.key}: gather asks each of {', '.join(pending)} with an 'each' prompt")
        got = yield prompt
        if not isinstance(got, SeatAnswer) or got.seat not in pending:
            raise IllegalInput(f"{prompt.key}: an answer must come from one of {', '.join(pending)}")
        answers[got.seat] = accept(got.seat, got.answer)
    return answers


__all__ = ["Accept", "Ask", "gather"]
