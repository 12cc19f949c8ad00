"""The threat forecast of the coming Monster Phase (issue: "see the next Monster Phase
coming"), for any game of the Horrified family: what the box can work out from the cards
left in the deck, the dice faces and the rules of the monsters in play.

It is asked during a Hero Phase and plays nothing: the game is copied, its Hero Phase is
ended on the copy, and the Monster Phase that would follow is walked (``walk``). A card
with more ways than ``ways_per_card`` replays is estimated from random plays instead, and
the forecast says which.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.engine.dice import DICE, MONSTER, DiceKinds
from companion.engine.effects import EffectSink
from companion.engine.errors import IllegalInput
from companion.engine.game import Game
from companion.engine.plain import to_plain

from ..monster_phase import ENTER_CARD
from ..rules import HorrifiedRules
from ..state import GameState
from .branches import draw_branches
from .tally import Layout, Value, chance, layout_of
from .walk import PhaseRunner, Walker, TooManyWays, sample

#: Replays an exact walk may take below one card before the card is estimated instead.
WAYS_PER_CARD = 4000
#: Random plays per answering mode for an estimated card.
SAMPLED_RUNS = 400
END_HERO_PHASE = {"key": "hero-action", "answer": {"action": "end", "changes": []}}


@dataclass
class Forecast:
    """The numbers, with how they were found."""

    layout: Layout
    value: Value
    cards_left: int
    estimated: list[str] = field(default_factory=list)  # cards played out at random, not walked
    by_hand: list[str] = field(default_factory=list)  # cards whose Event the players do by hand
    replays: int = 0
    seconds: float = 0.0
    monster_phase: bool = True  # False: this turn has no Monster Phase, or the game is over


def dice_of(rules: HorrifiedRules) -> DiceKinds:
    return DICE.with_kind(DICE[MONSTER.id].with_sides(rules.pack.monster_die))


def monster_phase_start(rules: HorrifiedRules, state: GameState) -> GameState | None:
    """The table as the Monster Phase finds it: a copy of ``state`` with its Hero Phase ended.
    None when no Monster Phase comes (the turn skips it, or the game is over)."""
    game = Game(rules, {"state": to_plain(state)}, dice=dice_of(rules))
    if game.prompt is not None and game.prompt.key == "hero-action":
        game.apply(END_HERO_PHASE)
    begun = game.state
    assert isinstance(begun, GameState)
    return None if game.prompt is None or begun.phase != "monster" else begun


def forecast(rules: HorrifiedRules, state: GameState, ways_per_card: int = WAYS_PER_CARD,
             seed: int = 0) -> Forecast:
    """The forecast for ``state`` (in a Hero Phase, or at the start of a Monster Phase)."""
    began = time.perf_counter()
    start = monster_phase_start(rules, state)
    if start is None:
        empty = layout_of(rules.context(state, EffectSink()), [])
        return Forecast(empty, Value.leaf([0.0] * empty.size), len(state.deck), monster_phase=False)
    runner = PhaseRunner(rules, start, dice_of(rules))
    root = runner.run([])
    layout = layout_of(root.ctx, sorted(root.ctx.graph.places))
    result = Forecast(layout, Value.leaf([0.0] * layout.size), len(start.deck))
    if root.prompt is None or root.prompt.key != "monster-card":
        result.value = Walker(runner, layout, runner.replays + ways_per_card).value([], root, None)[0]
    else:
        parts = [(b.weight, _card_value(runner, layout, b.answer, ways_per_card, seed, result))
                 for b in draw_branches(root.prompt)]
        result.value = chance(parts)
    result.replays, result.seconds = runner.replays, time.perf_counter() - began
    return result


def _card_value(runner: PhaseRunner, layout: Layout, card: object, ways: int, seed: int,
                result: Forecast) -> Value:
    walker = Walker(runner, layout, runner.replays + ways)
    try:
        value = walker.value([card], runner.run([card]), None)[0]
    except TooManyWays:
        result.estimated.append(str(card))
        value = sample(runner, layout, card, SAMPLED_RUNS, random.Random(f"{seed}/{card}"))
    if walker.by_hand:
        result.by_hand.append(str(card))
    return value


def what_if(rules: HorrifiedRules, state: GameState, action: Mapping[str, object],
            ways_per_card: int = WAYS_PER_CARD) -> Forecast:
    """The forecast after the active hero's ``action``, played on a copy (the game is untouched).
    IllegalInput when the rules refuse the action, or when it asks more than it says."""
    game = Game(rules, {"state": to_plain(state)}, dice=dice_of(rules))
    if game.prompt is None or game.prompt.key != "hero-action":
        raise IllegalInput("a what-if is asked during a Hero Phase, before the hero's next action")
    game.apply({"key": "hero-action", "answer": dict(action)})
    if game.prompt is not None and game.prompt.key != "hero-action":
        raise IllegalInput(f"this action asks more ({game.prompt.key}): the what-if needs it whole")
    after = game.state
    assert isinstance(after, GameState)
    return forecast(rules, after, ways_per_card)


__all__ = ["Forecast", "forecast", "what_if", "monster_phase_start", "ENTER_CARD"]
