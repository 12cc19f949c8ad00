"""The cards' exact walks on the box's worker processes (``companion.workers``), one card per
task, so that on a box of four cores four cards are walked side by side.

The estimate stays here (it is quick, and the table sees it at once); then each card left is
a task: its walk with a limit on the replays, answered with its value, whether its Event is
done by hand, and the replays it took. Each answer is folded into the forecast as it comes, and
a better forecast given about every ``PUSH_SECONDS``. A card over its limit is tried again with
ten times as many, the cheapest first, as the walks in one process are, on the worker that
tried it if that one is free (its memo holds what the try found); a card that no other waits
behind gets all the time left. The time to exact is at least the longest card's walk: one
card is never split between workers.

A worker makes the rules again from plain inputs: the pack's own class (which the pack hands
over, so nothing here names a pack) and the Monster Phase's start, pickled. It keeps them, with
the memo of what its walks found below each boundary (its share of what one process would
keep), for the next card of the same forecast. What a walk adds to its worker's memo comes back
with its answer and goes out to the other workers with their next cards: one process's walks
share one memo (a card's walk meets the boundaries other cards crossed), and so do the
workers', a task late. A pack whose class a worker cannot make (a plug-in it cannot import) is walked here instead,
and the log says so.

With workers, ``seconds`` is the forecast's time on the clock (the cores work at once), not
one thread's processor time.
"""

from __future__ import annotations

import heapq
import logging
import math
import pickle
import random
import time
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, wait
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable, Iterator, Protocol, runtime_checkable

from companion.games.gamepack import GamePack
from companion.workers import Cancelled, Closed, Ticket, Workers, called_off

from ..rules import HorrifiedRules
from ..state import GameState
from .forecast import ESTIMATE_SECONDS, EXACT_SHARE, MIN_WAYS, PUSH_SECONDS, SAMPLED_RUNS, Forecast, _Deck, dice_of
from .tally import Value, layout_of
from .walk import MEMO_SIZE, PhaseRunner, Stopped, Walked

log = logging.getLogger(__name__)
#: The share of the estimate's time that is spent even when every card left is being walked (the
#: estimate of a card in the first forecast is then from fewer plays, its error larger and said).
ESTIMATE_SHARE_LEFT = 0.3  # of ESTIMATE_SECONDS
#: How often the stop callback is asked while the workers walk.
POLL_SECONDS = 0.05
#: The highest replay limit a card is tried with (as the walks in one process).
MOST_WAYS = MIN_WAYS * 10 ** 6
#: What a pack hands over to be made again in a worker: its class, made without arguments.
PackMaker = Callable[[], GamePack]


@runtime_checkable
class FamilyRules(Protocol):
    """What a worker needs of the forecaster of the pack it made again: the rules a game plays with."""

    def rules_for(self, state: GameState) -> HorrifiedRules: ...


@dataclass(frozen=True)
class Job:
    """What a worker needs to walk the cards of one forecast: the pack's maker and the table as
    the Monster Phase finds it (pickled)."""

    maker: PackMaker
    start: bytes
    memo_size: int = MEMO_SIZE  # each worker's share of what one process would keep


Memo = dict[bytes, Walked]


@dataclass(frozen=True)
class Walk:
    """One card's walk in a worker: its value (None: more ways than its limit), whether its
    Event is done by hand, the replays and the processor seconds it took, and what it added to
    the worker's memo (for the other workers: one process's walks share one memo)."""

    card: str
    value: Value | None
    by_hand: bool
    replays: int
    seconds: float
    memo: Memo


def walk_card(job: Job, card: str, limit: int, known: Memo) -> Walk:
    """In a worker: ``card`` walked with at most ``limit`` replays (``Stopped`` when called off),
    the way a forecast walks it in one process (``_Deck._walk``); ``known``: what the other
    workers' walks found since this one last heard, taken into its memo first."""
    deck = _prepared(job)
    memo = deck.memo
    assert isinstance(memo, _Memo)
    memo.take(known)
    began, replays = time.thread_time(), deck.runner.replays
    deck._walk(card, limit)
    return Walk(card, deck.walked.pop(card, None), card in deck.by_hand, deck.runner.replays - replays,
                time.thread_time() - began, memo.fresh())


@lru_cache(maxsize=1)  # the newest forecast's: the memo of an older one is let go
def _prepared(job: Job) -> _Deck:
    """The rules made again from the pack's maker; the phase's start, its layout and the memo,
    in a deck of no cards (the parent keeps the deck; this one only walks)."""
    state = pickle.loads(job.start)
    assert isinstance(state, GameState)
    forecaster = job.maker().forecaster()
    if not isinstance(forecaster, FamilyRules):
        raise TypeError(f"{job.maker!r} makes a pack whose forecaster does not give the rules of a game")
    rules = forecaster.rules_for(state)
    runner = PhaseRunner(rules, state, dice_of(rules, state), called_off)
    root = runner.begin()
    deck = _Deck(runner, layout_of(root.ctx, sorted(root.ctx.graph.places)), (), random.Random(0),
                 time.thread_time(), 0)
    deck.memo = _Memo(job.memo_size)
    return deck


class _Memo(dict[bytes, Walked]):
    """A worker's memo, kept to its share (``Job.memo_size``) so that the workers together keep
    no more than one process would: the box's memory does not grow with its cores."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most
        self._fresh: list[bytes] = []  # found here since ``fresh`` was last asked

    def __setitem__(self, key: bytes, value: Walked) -> None:
        if len(self) < self.most:
            super().__setitem__(key, value)
            self._fresh.append(key)

    def take(self, known: Memo) -> None:
        """What other workers found (not told back to them as fresh)."""
        for key, value in known.items():
            if len(self) >= self.most:
                return
            super().__setitem__(key, value)

    def fresh(self) -> Memo:
        """What this worker's walks found since the last time asked."""
        found = {key: self[key] for key in self._fresh}
        self._fresh = []
        return found


class OnWorkers:
    """The walks of a forecast's cards on ``workers`` (given to ``forecasts`` as its ``walks``)."""

    def __init__(self, workers: Workers, maker: PackMaker) -> None:
        self.workers, self.maker = workers, maker

    def __call__(self, deck: _Deck, start: GameState, seconds: float, ways_per_card: int | None,
                 early: bool) -> Iterator[Forecast]:
        try:
            job = Job(self.maker, pickle.dumps(start, pickle.HIGHEST_PROTOCOL), MEMO_SIZE // self.workers.size)
            pickle.dumps(job, pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, AttributeError, TypeError) as problem:
            log.warning("the forecast's cards are walked in this process, not on the workers: %s", problem)
            yield from deck.refined(seconds, ways_per_card, early)
            return
        yield from _Spread(deck, self.workers, job, seconds, ways_per_card).refined(early)


class WorkersFailed(Exception):
    """A worker could not walk a card (it could not make the pack, or the pool broke)."""


class _Spread:
    """One forecast's walks on the workers, folded into its ``_Deck`` as they come."""

    def __init__(self, deck: _Deck, workers: Workers, job: Job, seconds: float, ways_per_card: int | None) -> None:
        self.deck, self.workers, self.job, self.ways_per_card = deck, workers, job, ways_per_card
        self.seconds = seconds
        self.began = time.monotonic() - (time.thread_time() - deck.began)  # the time before counts too
        self.deadline = self.began + seconds if ways_per_card is None else math.inf  # a fixed limit: no time limit
        self.replays = 0  # the workers'
        self.told: int | None = None  # the cards exact in the last forecast given (None: none given yet)
        self.queue: list[tuple[int, int, str]] = []  # (limit, place in the deck, card): the cheapest first
        self.running: dict[Future[Walk], tuple[int, int, str]] = {}
        self.home: dict[str, int] = {}  # the worker that last walked each card
        self.found: list[tuple[int, Memo]] = []  # what each walk added to its worker's memo, by worker
        self.heard = [0] * workers.size  # how much of ``found`` each worker has been sent

    def refined(self, early: bool) -> Iterator[Forecast]:
        """The walks begun on the workers, and meanwhile an estimate here (the table sees it at
        once; a card walked by then counts exact in it); then each walk folded in as it comes; in
        this process instead if a worker cannot walk a card (the log says why)."""
        deck = self.deck
        try:
            ticket = self.workers.ticket()
        except Closed:
            raise Stopped() from None
        try:
            yield from self._estimated_and_walked(ticket, early)
        except WorkersFailed as problem:
            log.warning("the forecast's cards are walked in this process, not on the workers: %s", problem)
            left = self.deadline - time.monotonic()
            yield from deck.refined(time.thread_time() - deck.began + max(0.0, left), self.ways_per_card, early)
            return
        finally:
            ticket.cancel()
            for future in self.running:
                future.cancel()
        if self.ways_per_card is not None:
            for card in deck._left():
                deck._sample(card, SAMPLED_RUNS)
        if self.told != len(deck.walked) or self.ways_per_card is not None:  # not the same forecast twice
            yield self.forecast()

    def _estimated_and_walked(self, ticket: Ticket, early: bool) -> Iterator[Forecast]:
        first = self.ways_per_card or MIN_WAYS
        self.queue = [(first, n, card) for n, card in enumerate(self.deck._left())]
        self._fill(ticket)
        if self.ways_per_card is None:
            self._estimate(ticket, self.deck.began + min(ESTIMATE_SECONDS, self.seconds * EXACT_SHARE))
            if early:
                yield self.forecast()
        yield from self._walked(ticket, early)

    def _estimate(self, ticket: Ticket, until: float) -> None:
        """Random plays here, round after round, until ``until`` (this thread's processor time),
        while the workers walk: between rounds, each walk done is folded in and its worker given
        the next card."""
        least = self.deck.began + ESTIMATE_SECONDS * ESTIMATE_SHARE_LEFT
        while True:
            self.deck._sample_until(0.0)  # one round: every card left played once per answering mode
            self._fold_done(timeout=0)
            self._fill(ticket)
            now = time.thread_time()
            if now >= until or (now >= least and len(self.deck._left()) <= len(self.running)):
                return  # the cards left are all being walked: the cores are better left to them

    def _walked(self, ticket: Ticket, early: bool) -> Iterator[Forecast]:
        """The walks, until every card is exact or the time is up; ``Stopped`` when called off
        (or when the workers close: the service is stopping)."""
        told, news = time.monotonic(), False
        while self._fill(ticket):
            news = self._fold_done(POLL_SECONDS) or news
            if time.monotonic() >= self.deadline:
                return
            if early and news and time.monotonic() - told >= PUSH_SECONDS and self.deck._left():
                yield self.forecast()
                told, news = time.monotonic(), False

    def _fold_done(self, timeout: float) -> bool:
        """The walks done within ``timeout`` folded in; True if one made a card exact."""
        done, _ = wait(self.running, timeout=timeout, return_when=FIRST_COMPLETED)
        self._check_stop()
        news = False
        for future in done:
            news = self._fold(future, self.running.pop(future)) or news
        return news

    def _fill(self, ticket: Ticket) -> bool:
        """Give each idle worker the cheapest card left: a card tried before goes back to the
        worker that tried it, if it is idle (its memo holds what that walk found). A card that no
        other waits behind (the cards left fit on the workers at once) gets all the time left:
        a limit would only make it start again. False when nothing is left to walk or wait for."""
        idle = self.workers.idle()
        while self.queue and idle:
            cap, place, card = heapq.heappop(self.queue)
            alone = len(self.queue) + len(self.running) < self.workers.size
            ways = cap if self.ways_per_card is not None else (
                self._ways_in_time() if alone else min(cap, self._ways_in_time()))
            if ways < 1:
                continue
            on = self.home[card] if self.home.get(card) in idle else idle[0]
            idle.remove(on)
            try:
                future = self.workers.submit(ticket, walk_card, self.job, card, ways, self._news(on), on=on)
            except Closed:
                raise Stopped() from None
            self.running[future] = (cap, place, card)
            self.home[card] = on
        return bool(self.running)

    def _news(self, worker: int) -> Memo:
        """What the other workers' walks found since ``worker`` last heard (the memo one process
        would share between its cards: a card's walk meets the boundaries another card's crossed)."""
        news = {key: value for origin, found in self.found[self.heard[worker]:] if origin != worker
                for key, value in found.items()}
        self.heard[worker] = len(self.found)
        return news

    def _ways_in_time(self) -> int:
        return int((self.deadline - time.monotonic()) / self.deck.cost)

    def _check_stop(self) -> None:
        stop = self.deck.runner.stop
        if stop is not None and stop():
            raise Stopped()

    def _fold(self, future: Future[Walk], asked: tuple[int, int, str]) -> bool:
        """A card's walk into the forecast (True), or the card tried again with more replays."""
        try:
            walk = future.result()
        except (Stopped, Cancelled, CancelledError):
            raise Stopped() from None  # the job was called off from elsewhere: the workers are closing
        except Exception as problem:  # noqa: BLE001 - any other fault of a worker: the walks go on in this process
            raise WorkersFailed(f"{type(problem).__name__}: {problem}") from problem
        self.replays += walk.replays
        self.found.append((self.home[walk.card], walk.memo))
        self.deck._measured(walk.seconds, walk.replays)
        if walk.by_hand:
            self.deck.by_hand.add(walk.card)
        if walk.value is not None:
            self.deck.walked[walk.card] = walk.value
            return True
        cap, place, card = asked
        if self.ways_per_card is None and cap * 10 <= MOST_WAYS:
            heapq.heappush(self.queue, (cap * 10, place, card))
        return False

    def forecast(self) -> Forecast:
        """The forecast as it stands, with the workers' replays and the time on the clock."""
        self.told = len(self.deck.walked)
        found = self.deck.forecast()
        return replace(found, replays=found.replays + self.replays, seconds=time.monotonic() - self.began)
