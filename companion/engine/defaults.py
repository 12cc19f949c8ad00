"""A prompt's default answer: what the box's NEXT button may answer by itself.

Why a rule of its own: NEXT lets the players keep their eyes on the board, but
a button that answered a dice roll or a card draw would invent a physical
random result, and one that answered a real decision would take it away from
the players. So a game says, prompt key by prompt key, which answers are
defaults (a tie the rules leave to the players, "end the Hero Phase", "keep
the roll"); everything else - every ``roll`` and ``draw``, and any key the
game does not list, including keys added later - has no default, and NEXT does
nothing but say why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .prompts import Prompt

PHYSICAL_KINDS = ("roll", "draw")


@dataclass(frozen=True)
class Suggestion:
    """``answer`` is what NEXT sends (None: no default); ``why`` says which or why not."""

    answer: object | None
    why: str

    @property
    def given(self) -> bool:
        return self.answer is not None


NextAnswer = Callable[["Prompt | None"], Suggestion]


def physical(prompt: Prompt) -> Suggestion | None:
    """No default for a roll or a draw: the table's dice and cards decide."""
    if prompt.kind == "roll":
        return Suggestion(None, f"{prompt.text} NEXT never guesses a roll: roll the dice, "
                                "then enter them on a tablet (or let the camera read them)")
    if prompt.kind == "draw":
        return Suggestion(None, f"{prompt.text} NEXT never guesses a draw: say on a tablet what came out")
    return None


def first_option(prompt: Prompt) -> Suggestion:
    option = prompt.options[0]
    return Suggestion(option.id, f"{prompt.text} → {option.text} (the first option)")


def no_default(prompt: Prompt | None, why: str = "") -> Suggestion:
    if prompt is None:
        return Suggestion(None, "the game is over")
    return Suggestion(None, why or f"{prompt.text} This is the players' decision: answer it on a tablet")
