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


@dataclass(frozen=True)
class ListedDefaults:
    """A game's NEXT as lists: ``first_option`` keys answered by their first option, ``declines``
    (key -> the option that leaves things as they are) and ``actions`` (key -> the action sent);
    a roll, a draw and every other key have no default."""

    first_option: frozenset[str]
    declines: dict[str, str]
    actions: dict[str, dict[str, object]]

    def __call__(self, prompt: Prompt | None) -> Suggestion:
        if prompt is None:
            return no_default(None)
        found = physical(prompt)
        if found is not None:
            return found
        if prompt.kind == "choice" and prompt.key in self.first_option and prompt.options:
            return first_option(prompt)
        if prompt.kind == "choice" and self.declines.get(prompt.key) in prompt.option_ids():
            chosen = self.declines[prompt.key]
            return Suggestion(chosen, f"{prompt.text} → {prompt.option(chosen).text}")
        if prompt.kind == "action" and prompt.key in self.actions:
            return Suggestion(self.actions[prompt.key], f"{prompt.text} → {self.actions[prompt.key]['action']}")
        return no_default(prompt)
