"""A seeded random source that answers any prompt: for simulation, tests and
a fully digital game. The physical table's randomness (cards, Haversack,
dice) becomes random answers; choices are made at random too, unless a game
supplies a smarter chooser for its actions. Dice are rolled from the die-kind
registry, each side as likely as the others."""

from __future__ import annotations

import random
from typing import Callable, Mapping, Sequence

from .dice import DICE, DiceKinds, FaceValue, with_monster_die
from .prompts import Prompt

ActionChooser = Callable[[Prompt, object, random.Random], object]
#: The Monster die rolled when a game gives none: three HITs, a POW and two blanks.
DEFAULT_MONSTER_DIE = ("hit", "hit", "hit", "pow", "blank", "blank")


class RandomSource:
    """``monster_die``: the sides of the game's Monster die (a pack's data); ``dice``:
    the die kinds it rolls, for a game with kinds of its own."""

    def __init__(self, seed: int, monster_die: Sequence[str] = DEFAULT_MONSTER_DIE,
                 choose_action: ActionChooser | None = None, dice: DiceKinds = DICE) -> None:
        self.rng = random.Random(seed)
        self.monster_die = tuple(monster_die)
        self.dice = with_monster_die(self.monster_die, dice)
        self.choose_action = choose_action

    def __call__(self, prompt: Prompt, state: object) -> object:
        """A legal answer to ``prompt``: the policy signature of ``Game.answer_with``."""
        if prompt.kind == "draw":
            return self.draw(prompt)
        if prompt.kind == "choice":
            return self.rng.choice(prompt.option_ids())
        if prompt.kind == "pick":
            count = self.rng.randint(prompt.min_picks, prompt.max_picks)
            return self.rng.sample(prompt.option_ids(), count)
        if prompt.kind == "roll":
            return [self.roll(prompt) for _ in range(prompt.count)]
        if self.choose_action is None:
            raise ValueError(f"no chooser for action prompt {prompt.key!r}")
        return self.choose_action(prompt, state, self.rng)

    def draw(self, prompt: Prompt) -> str:
        """A card or token off the table: each one as likely, so an option standing for several
        identical ones (its ``copies``) is as likely as all of them together."""
        weights = [_copies(option.data) for option in prompt.options]
        if all(weight == 1 for weight in weights):
            return self.rng.choice(prompt.option_ids())
        return self.rng.choices(prompt.option_ids(), weights)[0]

    def roll(self, prompt: Prompt) -> FaceValue:
        if prompt.die is None:
            raise ValueError(f"the roll prompt {prompt.key!r} names no die")
        return self.dice[prompt.die].roll(self.rng)


def _copies(data: Mapping[str, object]) -> int:
    found = data.get("copies", 1)
    return found if isinstance(found, int) and found > 0 else 1
