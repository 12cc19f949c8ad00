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
from collections.abc import Callable, Iterator, Mapping
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
from .tally import MODES, Layout, Value, chance, layout_of
from .walk import PhaseRunner, TooManyWays, Walked, Walker, play_once

#: How long a forecast may take on this machine, by default. Every time here is the processor
#: time of the thread working the forecast out (``time.thread_time``): on the box, which does
#: little else, about the time the table waits; on a busy machine the wait is longer, but the
#: forecast it gets is the same.
FORECAST_SECONDS = 3.0
#: The first estimate's time (at most this share of a shorter budget), and how often a better
#: forecast is given while the cards are walked.
ESTIMATE_SECONDS = 0.3
EXACT_SHARE = 0.3
PUSH_SECONDS = 0.5
#: The fewest replays a card's walk is given first; the random plays per answering mode of a
#: card over ``ways_per_card``.
MIN_WAYS = 20
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
             ways_per_card: int | None = None, seed: int = 0, stop: Callable[[], bool] | None = None,
             walks: DeckWalks | None = None) -> Forecast:
    """The best forecast for ``state`` (in a Hero Phase, or at the start of a Monster Phase) that
    ``seconds`` allow: the last of ``forecasts``."""
    found = None
    for found in forecasts(rules, state, seconds, ways_per_card, seed, stop, early=False, walks=walks):
        pass
    assert found is not None
    return found


def forecasts(rules: HorrifiedRules, state: GameState, seconds: float = FORECAST_SECONDS,
              ways_per_card: int | None = None, seed: int = 0,
              stop: Callable[[], bool] | None = None, early: bool = True,
              walks: DeckWalks | None = None) -> Iterator[Forecast]:
    """Forecasts of ``state``, each better than the one before, the time they took never over
    ``seconds`` by more than a replay: first an estimate, every card played out at random for
    ``ESTIMATE_SECONDS``; then the cards walked exactly, the cheapest first, a better forecast
    about every ``PUSH_SECONDS``, until every card is exact or the time is up (the cards not
    walked by then stay estimated).
    ``ways_per_card``: a fixed replay limit per card instead of the time (no time limit then; a
    card over it is estimated from ``SAMPLED_RUNS`` random plays).
    ``stop``: asked before each replay; True calls the forecast off (``Stopped`` is raised).
    ``early``: False for one who waits for the last forecast only (``forecast``): the walks come
    first then, and the cards left are estimated in the time kept for it.
    ``walks``: who walks the cards instead of this thread (``spread.OnWorkers``: the box's worker
    processes, one card each; ``seconds`` is then the time on the clock, not this thread's)."""
    began = time.thread_time()
    start = monster_phase_start(rules, state)
    if start is None:
        empty = layout_of(rules.context(state, EffectSink()), [])
        yield Forecast(empty, Value.leaf([0.0] * empty.size), len(state.deck), monster_phase=False)
        return
    runner = PhaseRunner(rules, start, dice_of(rules, start), stop)
    root = runner.begin()
    layout = layout_of(root.ctx, sorted(root.ctx.graph.places))
    if root.prompt is None or root.prompt.key != "monster-card":
        value = Walker(runner, layout, runner.replays + 10 ** 9).value(root)
        yield Forecast(layout, value, len(start.deck), replays=runner.replays, seconds=time.thread_time() - began)
        return
    deck = _Deck(runner, layout, draw_branches(root.prompt), random.Random(seed), began, len(start.deck))
    if walks is not None:
        yield from walks(deck, start, seconds, ways_per_card, early)
        return
    yield from deck.refined(seconds, ways_per_card, early)


#: Who walks a forecast's cards instead of its own thread: (deck, the phase's start, seconds,
#: ways_per_card, early) -> the forecasts, as ``_Deck.refined`` gives them.
DeckWalks = Callable[["_Deck", GameState, float, "int | None", bool], Iterator[Forecast]]


@dataclass
class _Sampled:
    """A card's random plays so far, per answering mode: how many, and their tallies' sum."""

    plays: int = 0
    sums: list[list[float]] = field(default_factory=list)

    def value(self) -> Value:
        means = [[x / self.plays for x in total] for total in self.sums]
        return Value(means, means, means)


class _Deck:
    """The cards that may come next, each walked exactly or, until then, estimated."""

    def __init__(self, runner: PhaseRunner, layout: Layout, cards: tuple[Branch, ...], rng: random.Random,
                 began: float, size: int) -> None:
        self.runner, self.layout, self.cards, self.rng, self.began = runner, layout, cards, rng, began
        self.size = size
        self.walked: dict[str, Value] = {}
        self.memo: dict[bytes, Walked] = {}  # what every card's walk found below the boundaries it crossed
        self.sampled: dict[str, _Sampled] = {}
        self.by_hand: set[str] = set()
        self.cost = 0.0005  # seconds a replay takes, a first guess until some are measured

    def refined(self, seconds: float, ways_per_card: int | None, early: bool) -> Iterator[Forecast]:
        """``early``: an estimate first (for one who shows each step); else the walks first, and the
        cards they leave estimated in the time kept for it."""
        deadline = self.began + seconds
        estimate = min(ESTIMATE_SECONDS, seconds * EXACT_SHARE)
        if ways_per_card is None and early:
            self._sample_until(min(deadline, self.began + estimate))
            yield self.forecast()
        told = time.thread_time()
        walks_end = deadline if early else deadline - estimate
        for cap in [ways_per_card] if ways_per_card is not None else [MIN_WAYS * 10 ** n for n in range(7)]:
            for card in self._left():
                ways = cap if ways_per_card is not None else min(cap, int((walks_end - time.thread_time()) / self.cost))
                if ways < 1:
                    break
                self._walk(card, ways)
                if early and time.thread_time() - told >= PUSH_SECONDS and self._left():
                    yield self.forecast()
                    told = time.thread_time()
        if ways_per_card is not None:
            for card in self._left():
                self._sample(card, SAMPLED_RUNS)
        elif not early and self._left():
            self._sample_until(deadline)
        yield self.forecast()

    def _left(self) -> list[str]:
        return [str(c.answer) for c in self.cards if str(c.answer) not in self.walked]

    def _walk(self, card: str, ways: int) -> None:
        """The card's exact value, if its ways are no more than ``ways``."""
        began, replays = time.thread_time(), self.runner.replays
        walker = Walker(self.runner, self.layout, self.runner.replays + ways, self.memo)
        try:
            self.walked[card] = walker.value(self.runner.run(self.runner.start, [card]))
        except TooManyWays:
            pass
        finally:
            self._measured(time.thread_time() - began, self.runner.replays - replays)
            if walker.by_hand:
                self.by_hand.add(card)

    def _measured(self, seconds: float, replays: int) -> None:
        if replays:
            self.cost = 0.5 * self.cost + 0.5 * seconds / replays

    def _sample_until(self, deadline: float) -> None:
        """Every card played out at random once per answering mode, round after round, until
        ``deadline`` (one round at least)."""
        while True:
            for card in self._left():
                self._sample(card, 1)
            if time.thread_time() >= deadline:
                return

    def _sample(self, card: str, runs: int) -> None:
        began, replays = time.thread_time(), self.runner.replays
        found = self.sampled.setdefault(card, _Sampled(0, [[0.0] * self.layout.size for _ in MODES]))
        for _ in range(runs):
            for mode in range(len(MODES)):
                for index, number in enumerate(play_once(self.runner, self.layout, card, self.rng, mode)):
                    found.sums[mode][index] += number
            found.plays += 1
        self._measured(time.thread_time() - began, self.runner.replays - replays)

    def forecast(self) -> Forecast:
        """The forecast as it stands: the walked cards exact, the others estimated."""
        left = self._left()
        value = chance([(c.weight, self.walked.get(str(c.answer)) or self.sampled[str(c.answer)].value())
                        for c in self.cards])
        return Forecast(self.layout, value, self.size, estimated=left,
                        by_hand=sorted(self.by_hand), estimate_error=self._error(left),
                        replays=self.runner.replays, seconds=time.thread_time() - self.began)

    def _error(self, estimated: list[str]) -> float:
        """About twice the standard error, at worst, of a chance the estimated cards are part of."""
        parts = [c.weight ** 2 * 0.25 / self.sampled[str(c.answer)].plays for c in self.cards
                 if str(c.answer) in estimated]
        return 2.0 * math.sqrt(sum(parts)) if parts else 0.0


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
