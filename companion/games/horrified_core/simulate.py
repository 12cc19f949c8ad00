"""Playing by policy: the seeded random table (simulation, property tests,
a fully digital game) and the "first option" policy for scripts."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Callable

from companion.engine.effects import EffectSink
from companion.engine.errors import IllegalInput
from companion.engine.game import Game, Step
from companion.engine.prompts import Prompt
from companion.engine.randomsource import RandomSource

from .choices import action_options, pick_weighted
from .context import GameContext
from .monster_phase import ENTER_CARD
from .rules import HorrifiedRules
from .state import GameState

Policy = Callable[[Prompt, object], object]


def context_for(rules: HorrifiedRules, state: GameState) -> GameContext:
    """A read-only view of ``state`` for choosing (effects go nowhere)."""
    return rules.context(state, EffectSink())


class RandomTable(RandomSource):
    """Random answers, except that heroes usually defend themselves when they can
    (random games would otherwise end in a few turns and test little)."""

    def __call__(self, prompt: Prompt, state: object) -> object:
        if prompt.key == "defend" and "discard" in prompt.option_ids() and self.rng.random() < 0.85:
            return "discard"
        if prompt.key == "monster-card":  # a random deck only holds the listed cards
            return self.draw(replace(prompt, options=tuple(o for o in prompt.options if o.id != ENTER_CARD)))
        return super().__call__(prompt, state)


def random_policy(rules: HorrifiedRules, seed: int) -> RandomSource:
    def choose_action(prompt: Prompt, state: object, rng: random.Random) -> object:
        assert isinstance(state, GameState)
        return pick_weighted(action_options(context_for(rules, state), prompt), rng)

    return RandomTable(seed, rules.pack.monster_die, choose_action)


class FirstOption:
    """Always the first offered option, blank Monster dice, the last menu action
    ("end"), and d20s that vary: the dice of one roll all differ (20, 19, ...)
    and single rolls count 10, 11 ... 20, 10, so a roll the rules repeat until
    something changes (a tied first-player roll, a minion landing on a taken
    number) cannot be asked forever."""

    def __init__(self, rules: HorrifiedRules) -> None:
        self.rules = rules
        self.rolled = 0

    def __call__(self, prompt: Prompt, state: object) -> object:
        if prompt.kind in ("choice", "draw"):
            return prompt.options[0].id
        if prompt.kind == "pick":
            return [o.id for o in prompt.options[: prompt.min_picks]]
        if prompt.kind == "roll":
            return self._roll(prompt)
        assert isinstance(state, GameState)
        return action_options(context_for(self.rules, state), prompt)[-1]

    def _roll(self, prompt: Prompt) -> list[object]:
        if prompt.die == "monster":
            return ["blank"] * prompt.count
        top = 20 if prompt.die == "d20" else 6
        if prompt.count > 1:
            return [top - n % top for n in range(prompt.count)]
        self.rolled += 1
        return [min(top, 10) + (self.rolled - 1) % (top - min(top, 10) + 1)]


def first_policy(rules: HorrifiedRules) -> Policy:
    return FirstOption(rules)


def play_out(game: Game, policy: Policy, max_inputs: int, retries: int = 5) -> list[Step]:
    """Answer prompts with ``policy`` until the game ends or ``max_inputs`` are in.

    An action the rules refuse is retried with a new draw from the policy; after
    ``retries`` refusals the Hero Phase is ended instead.
    """
    steps: list[Step] = []
    while not game.over and game.version < max_inputs:
        steps.append(_answer_once(game, policy, retries))
    return steps


def _answer_once(game: Game, policy: Policy, retries: int) -> Step:
    assert game.prompt is not None
    for _ in range(retries):
        try:
            return game.apply({"key": game.prompt.key, "answer": policy(game.prompt, game.state)})
        except IllegalInput:
            if game.prompt.kind != "action":
                raise
    fallback = "end" if game.prompt.key == "hero-action" else "skip"
    return game.apply({"key": game.prompt.key, "answer": {"action": fallback, "changes": []}})
