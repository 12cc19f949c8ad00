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

A question may be ``revisable``: where a rulebook lets a player change a secret choice
until everything is revealed (Straszydła: "When you are ready, reveal your tokens. From
that moment you may not change your plan"), every seat is asked until the last one has
answered, so a seat that answered may answer again; its new answer replaces the old one
(``accept`` is called again and must let go of what the old answer kept). Each answer is
one input of the log, so the change stays that seat's secret, leaves the others' answers
as they were, and a replay gives the same game. Going back across the reveal still needs
everyone's consent (the table's undo).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from .errors import IllegalInput
from .game import Flow
from .prompts import Prompt, SeatAnswer

#: The question for the seats still to answer (in the order given).
Ask = Callable[[tuple[str, ...]], Prompt]
#: Checks one seat's answer and keeps it (raise IllegalInput to refuse it); returns what to collect.
Accept = Callable[[str, object], object]


def gather(seats: Sequence[str], ask: Ask, accept: Accept, *, revisable: bool = False) -> Flow[dict[str, object]]:
    """Every seat's answer, seat by seat in the order the answers came (a coroutine to
    ``yield from``); ``ask(pending)`` must be a prompt with ``each`` and ``audience=pending``
    (``revisable``: ``audience`` every seat, a seat that answered answering again to change it)."""
    answers: dict[str, object] = {}
    while len(answers) < len(seats):
        pending = tuple(seat for seat in seats if seat not in answers)
        asked = tuple(seats) if revisable else pending
        prompt = ask(pending)
        if revisable:
            prompt = replace(prompt, answered=tuple(seat for seat in seats if seat in answers))
        if not prompt.each or tuple(prompt.audience or ()) != asked:
            raise ValueError(f"{prompt.key}: gather asks each of {', '.join(asked)} with an 'each' prompt")
        got = yield prompt
        if not isinstance(got, SeatAnswer) or got.seat not in asked:
            raise IllegalInput(f"{prompt.key}: an answer must come from one of {', '.join(asked)}")
        answers[got.seat] = accept(got.seat, got.answer)
    return answers


__all__ = ["Accept", "Ask", "gather"]
