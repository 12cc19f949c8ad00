"""The threat forecast of the coming Monster Phase (issue: "see the next Monster Phase
coming"), for any game of the Horrified family: what the box can work out from the cards
left in the deck, the dice faces and the rules of the monsters in play.

It is asked during a Hero Phase and plays nothing: the game is copied, its Hero Phase is
ended on the copy, and the Monster Phase that would follow is walked (``walk``). A card
with more ways than ``ways_per_card`` replays is estimated from random plays instead, and
the forecast says which.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from companion.engine.dice import DiceKinds, with_monster_die
from companion.engine.effects import EffectSink
from companion.engine.errors import IllegalInput
from companion.engine.game import Game
from companion.engine.plain import to_plain

from ..monster_phase import ENTER_CARD
from ..rules import HorrifiedRules
from ..state import GameState
from .branches import Branch, draw_branches
from .tally import Layout, Value, chance, layout_of
from .walk import PhaseRunner, TooManyWays, Walker, sample

#: How long a forecast may take on this machine, by default; half of it goes to exact walks.
FORECAST_SECONDS = 3.0
EXACT_SHARE = 0.5
#: The fewest replays a card's walk is given, and the random plays per answering mode of an
#: estimated card (at most, and at least).
MIN_WAYS = 20
SAMPLED_RUNS = 400
MIN_RUNS = 30
END_HERO_PHASE = {"key": "hero-action", "answer": {"action": "end", "changes": []}}


@dataclass
class Forecast:
    """The numbers, with how they were found."""

    layout: Layout
    value: Value
    cards_left: int
    estimated: list[str] = field(default_factory=list)  # cards played out at random, not walked
    by_hand: list[str] = field(default_factory=list)  # cards whose Event the players do by hand
    estimate_error: float = 0.0  # about twice the standard error of a chance, from the estimates
    replays: int = 0
    seconds: float = 0.0
    monster_phase: bool = True  # False: this turn has no Monster Phase, or the game is over


def dice_of(rules: HorrifiedRules, state: GameState) -> DiceKinds:
    """The dice a game rolls: its Monster die's sides are the game's data (the owner's, if any)."""
    return with_monster_die(rules.pack_for(state).monster_die)


def monster_phase_start(rules: HorrifiedRules, state: GameState) -> GameState | None:
    """The table as the Monster Phase finds it: a copy of ``state`` with its Hero Phase ended.
    None when no Monster Phase comes (the turn skips it, or the game is over)."""
    game = Game(rules, {"state": to_plain(state)}, dice=dice_of(rules, state))
    if game.prompt is not None and game.prompt.key == "hero-action":
        game.apply(END_HERO_PHASE)
    begun = game.state
    assert isinstance(begun, GameState)
    return None if game.prompt is None or begun.phase != "monster" else begun


def forecast(rules: HorrifiedRules, state: GameState, seconds: float = FORECAST_SECONDS,
             ways_per_card: int | None = None, seed: int = 0, stop: Callable[[], bool] | None = None) -> Forecast:
    """The forecast for ``state`` (in a Hero Phase, or at the start of a Monster Phase), in about
    ``seconds``: each card walked exactly if its ways fit its share of the time, else estimated.
    ``ways_per_card``: a fixed replay limit per card instead of the time (no time limit then).
    ``stop``: asked before each replay; True calls the forecast off (``Stopped`` is raised)."""
    clock = _Clock(time.perf_counter(), seconds, ways_per_card)
    start = monster_phase_start(rules, state)
    if start is None:
        empty = layout_of(rules.context(state, EffectSink()), [])
        return Forecast(empty, Value.leaf([0.0] * empty.size), len(state.deck), monster_phase=False)
    runner = PhaseRunner(rules, start, dice_of(rules, start), stop)
    root = runner.run([])
    layout = layout_of(root.ctx, sorted(root.ctx.graph.places))
    result = Forecast(layout, Value.leaf([0.0] * layout.size), len(start.deck))
    if root.prompt is None or root.prompt.key != "monster-card":
        result.value = Walker(runner, layout, runner.replays + 10 ** 9).value([], root, None)[0]
    else:
        result.value = _deck_value(runner, layout, draw_branches(root.prompt), clock, seed, result)
    result.replays, result.seconds = runner.replays, time.perf_counter() - clock.began
    return result


@dataclass
class _Clock:
    """The time the forecast may take, and what a replay has cost so far."""

    began: float
    seconds: float
    ways_per_card: int | None
    walked: float = 0.0  # seconds spent walking
    replays: int = 0  # replays they took

    @property
    def cost(self) -> float:
        """Seconds per replay so far (a guess before the first walk)."""
        return self.walked / self.replays if self.replays else 0.001

    def caps(self) -> list[int]:
        """The replay limits of the walks' rounds: each round walks the cards not yet walked with
        a ten times larger limit, while half the time lasts (the cheap cards come out exact first,
        and a card given up wastes at most a tenth of the next round)."""
        if self.ways_per_card is not None:
            return [self.ways_per_card]
        return [MIN_WAYS * 10 ** n for n in range(6)]

    def exact_time_left(self) -> bool:
        return self.ways_per_card is not None or self.walked < self.seconds * EXACT_SHARE

    def affordable(self, cap: int) -> int:
        """``cap``, or fewer replays if the walks' half of the time would not last that long."""
        if self.ways_per_card is not None:
            return cap
        return max(1, min(cap, int((self.seconds * EXACT_SHARE - self.walked) / self.cost)))

    def runs_for(self, cards: int) -> int:
        """Random plays per answering mode for each of ``cards`` estimated cards, in the time left."""
        if self.ways_per_card is not None or cards == 0:
            return SAMPLED_RUNS
        left = self.seconds - (time.perf_counter() - self.began)
        return min(SAMPLED_RUNS, max(MIN_RUNS, int(left / (2 * cards * self.cost))))


def _deck_value(runner: PhaseRunner, layout: Layout, cards: tuple[Branch, ...], clock: _Clock, seed: int,
                result: Forecast) -> Value:
    walked: dict[str, Value] = {}
    for cap in clock.caps():
        for card in [str(c.answer) for c in cards if str(c.answer) not in walked]:
            if not clock.exact_time_left():
                break
            found = _walk_card(runner, layout, card, clock.affordable(cap), clock, result)
            if found is not None:
                walked[card] = found
    result.estimated = [str(c.answer) for c in cards if str(c.answer) not in walked]
    runs = clock.runs_for(len(result.estimated))
    for card_id in result.estimated:
        walked[card_id] = sample(runner, layout, card_id, runs, random.Random(f"{seed}/{card_id}"))
    result.estimate_error = _error(cards, result.estimated, runs)
    result.by_hand = sorted(set(result.by_hand))
    return chance([(c.weight, walked[str(c.answer)]) for c in cards])


def _walk_card(runner: PhaseRunner, layout: Layout, card: str, ways: int, clock: _Clock,
               result: Forecast) -> Value | None:
    """The card's exact value, or None when its ways are more than ``ways``."""
    began, replays = time.perf_counter(), runner.replays
    walker = Walker(runner, layout, runner.replays + ways)
    try:
        return walker.value([card], runner.run([card]), None)[0]
    except TooManyWays:
        return None
    finally:
        clock.walked += time.perf_counter() - began
        clock.replays += runner.replays - replays
        if walker.by_hand:
            result.by_hand.append(card)


def _error(cards: tuple[Branch, ...], estimated: list[str], runs: int) -> float:
    """About twice the standard error, at worst, of a chance the estimated cards are part of."""
    weights = [c.weight for c in cards if str(c.answer) in estimated]
    return 2.0 * math.sqrt(sum(w * w for w in weights) * 0.25 / runs) if weights else 0.0


def after_action(rules: HorrifiedRules, state: GameState, action: Mapping[str, object]) -> GameState:
    """The table after the active hero's ``action``, played on a copy (the game is untouched).
    IllegalInput when the rules refuse the action, or when it asks more than it says."""
    game = Game(rules, {"state": to_plain(state)}, dice=dice_of(rules, state))
    if game.prompt is None or game.prompt.key != "hero-action":
        raise IllegalInput("a what-if is asked during a Hero Phase, before the hero's next action")
    game.apply({"key": "hero-action", "answer": dict(action)})
    if game.prompt is not None and game.prompt.key != "hero-action":
        raise IllegalInput(f"this action asks more ({game.prompt.key}): the what-if needs it whole")
    after = game.state
    assert isinstance(after, GameState)
    return after


def what_if(rules: HorrifiedRules, state: GameState, action: Mapping[str, object],
            seconds: float = FORECAST_SECONDS, ways_per_card: int | None = None) -> Forecast:
    """The forecast after the active hero's ``action`` (``after_action``)."""
    return forecast(rules, after_action(rules, state, action), seconds, ways_per_card)


__all__ = ["Forecast", "after_action", "forecast", "what_if", "monster_phase_start", "ENTER_CARD"]
