"""A seeded random source that answers any prompt: for simulation, tests and
a fully digital game. The physical table's randomness (cards, Haversack,
dice) becomes random answers; choices are made at random too, unless a game
supplies a smarter chooser for its actions."""

from __future__ import annotations

import random
from typing import Callable, Sequence

from .prompts import Prompt

ActionChooser = Callable[[Prompt, object, random.Random], object]


class RandomSource:
    def __init__(self, seed: int, monster_die: Sequence[str] = ("hit", "hit", "hit", "pow", "blank", "blank"),
                 choose_action: ActionChooser | None = None) -> None:
        self.rng = random.Random(seed)
        self.monster_die = tuple(monster_die)
        self.choose_action = choose_action

    def __call__(self, prompt: Prompt, state: object) -> object:
        """A legal answer to ``prompt``: the policy signature of ``Game.answer_with``."""
        if prompt.kind in ("choice", "draw"):
            return self.rng.choice(prompt.option_ids())
        if prompt.kind == "pick":
            count = self.rng.randint(prompt.min_picks, prompt.max_picks)
            return self.rng.sample(prompt.option_ids(), count)
        if prompt.kind == "roll":
            return [self.roll(prompt) for _ in range(prompt.count)]
        if self.choose_action is None:
            raise ValueError(f"no chooser for action prompt {prompt.key!r}")
        return self.choose_action(prompt, state, self.rng)

    def roll(self, prompt: Prompt) -> object:
        if prompt.die == "monster":
            return self.rng.choice(self.monster_die)
        return self.rng.randint(1, 20 if prompt.die == "d20" else 6)
