"""Walking every way the coming Monster Phase can go, on the rules engine itself.

The rules are a coroutine, which cannot be copied half-way; so each way is played again
from the start of the phase with the answers that lead to it (a copy of the state, then
the answers). The walk is exact: at each question it follows every answer (``branches``).
A card whose ways are too many for the time the table can wait is played out at random
instead, many times, and its figures are marked as estimates (``sample``).

Which item comes out of the bag changes nothing in most phases but the bag: a draw is then
followed one way only, and every way is followed when anything after it looked at the
items lying on the board (the Invisible Man's Thief, say: ``WatchedItems``).
"""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass
from typing import Callable, Sequence

from companion.engine.dice import DiceKinds
from companion.engine.game import Flow
from companion.engine.prompts import Prompt, check_answer

from ..context import GameContext, GameEnded
from ..monster_phase import monster_phase
from ..play import finish
from ..rules import HorrifiedRules
from ..state import GameState
from .branches import DISCARD, FALL, Branch, Node, node_for
from .tally import Layout, LedgerSink, Value, chance, choice, defend

ITEM_DRAW = "item"


class TooManyWays(Exception):
    """The walk below one card needed more replays than it was given."""


class WatchedItems(dict[str, str]):
    """The items on the board, noting whether the rules looked at them once ``armed``."""

    armed = False
    read = False

    def _look(self) -> None:
        self.read = self.read or self.armed

    def __getitem__(self, key: str) -> str:
        self._look()
        return super().__getitem__(key)

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        self._look()
        return super().get(key, default)

    def items(self):  # type: ignore[no-untyped-def]
        self._look()
        return super().items()

    def values(self):  # type: ignore[no-untyped-def]
        self._look()
        return super().values()

    def keys(self):  # type: ignore[no-untyped-def]
        self._look()
        return super().keys()

    def __iter__(self):  # type: ignore[no-untyped-def]
        self._look()
        return super().__iter__()

    def __contains__(self, key: object) -> bool:
        self._look()
        return super().__contains__(key)


@dataclass
class Reached:
    """Where a replay stopped: the question asked (None: the phase is over) and the table."""

    prompt: Prompt | None
    ctx: GameContext
    sink: LedgerSink
    items: WatchedItems
    flow: Flow[None]
    asked_again: bool = False  # the rules said to roll again (a "reroll" effect) and ask the same roll


def phase(ctx: GameContext) -> Flow[None]:
    """The Monster Phase alone, ending the game as the rules do when it is lost."""
    try:
        yield from monster_phase(ctx)
    except GameEnded as end:
        finish(ctx, end)


class Stopped(Exception):
    """The forecast was called off (the game it was for has moved on): nothing of it is kept."""


class PhaseRunner:
    """Plays the phase again from its start with a list of answers. ``stop``: asked before each
    replay; True calls the forecast off (``Stopped``), so a forecast nobody waits for any more
    gives the box back within a replay."""

    def __init__(self, rules: HorrifiedRules, start: GameState, dice: DiceKinds,
                 stop: Callable[[], bool] | None = None) -> None:
        self.rules = rules
        self.dice = dice
        self.stop = stop
        self._start = pickle.dumps(start, protocol=pickle.HIGHEST_PROTOCOL)
        self.replays = 0

    def begin(self) -> Reached:
        if self.stop is not None and self.stop():
            raise Stopped()
        state: GameState = pickle.loads(self._start)
        items = WatchedItems(state.items_at)
        state.items_at = items
        sink = LedgerSink()
        ctx = self.rules.context(state, sink)
        flow = phase(ctx)
        self.replays += 1
        return Reached(_send(flow, None), ctx, sink, items, flow)

    def run(self, answers: Sequence[object], watch_from: int | None = None) -> Reached:
        reached = self.begin()
        for index, answer in enumerate(answers):
            self.answer(reached, answer, index == watch_from)
        return reached

    def answer(self, reached: Reached, answer: object, watch: bool = False) -> Reached:
        """Go on from ``reached`` (changing it) with one more answer."""
        assert reached.prompt is not None, "an answer was given after the phase ended"
        reached.items.armed = reached.items.armed or watch
        asked, rerolls = reached.prompt, reached.sink.rerolls
        reached.prompt = _send(reached.flow, check_answer(asked, answer, self.dice))
        reached.asked_again = (reached.sink.rerolls > rerolls and reached.prompt is not None
                               and reached.prompt.key == asked.key)
        return reached


def _send(flow: Flow[None], answer: object) -> Prompt | None:
    try:
        return flow.send(answer)
    except StopIteration:
        return None


class Walker:
    """The exact walk: every answer of every question, with a limit on the replays."""

    def __init__(self, runner: PhaseRunner, layout: Layout, limit: int) -> None:
        self.runner = runner
        self.layout = layout
        self.limit = limit
        self.by_hand = False  # a card's Event is done by hand: the forecast took it to change nothing

    def value(self, answers: list[object], reached: Reached, watch_from: int | None) -> tuple[Value, bool]:
        """The value below ``reached``, and whether the items on the board were looked at there."""
        if reached.prompt is None:
            return Value.leaf(self.layout.tally(reached.ctx, reached.sink)), reached.items.read
        node = node_for(reached.prompt, self.runner.dice)
        self.by_hand = self.by_hand or node.kind == "by-hand"
        if reached.prompt.key == ITEM_DRAW and node.kind == "chance":
            return self._item_draw(answers, reached, node, watch_from)
        children, looked = self._children(answers, reached, node, watch_from)
        return _combine(node, children), looked

    def _item_draw(self, answers: list[object], reached: Reached, node: Node,
                   watch_from: int | None) -> tuple[Value, bool]:
        """One item followed; all of them only if the board's items were looked at after it."""
        watch = len(answers) if watch_from is None else watch_from
        first = node.branches[0]
        went_on = self._go_on(reached, first, len(answers) == watch)
        value, looked = self.value([*answers, first.answer], went_on, watch)
        if not looked:
            return value, False
        rest = [(b.weight, self._follow(answers, b, watch)[0]) for b in node.branches[1:]]
        return chance([(first.weight, value), *rest]), True

    def _children(self, answers: list[object], reached: Reached, node: Node,
                  watch_from: int | None) -> tuple[list[tuple[Branch, Value]], bool]:
        children: list[tuple[Branch, Value]] = []
        looked = False
        rolled = reached.prompt is not None and reached.prompt.kind == "roll"
        for index, branch in enumerate(node.branches):
            # the last answer goes on with the phase as it stands (nothing replayed); a roll
            # keeps its table to see whether it is asked again
            last = index == len(node.branches) - 1 and not rolled
            nxt = self._go_on(reached, branch, len(answers) == watch_from) if last else \
                self._replay(answers, branch, watch_from)
            if rolled and _rolls_again(reached, nxt):
                continue  # the rules ask for the roll again: that face is as if never rolled
            value, seen = self.value([*answers, branch.answer], nxt, watch_from)
            children.append((branch, value))
            looked = looked or seen
        return children, looked

    def _go_on(self, reached: Reached, branch: Branch, watch: bool) -> Reached:
        return self.runner.answer(reached, branch.answer, watch)

    def _follow(self, answers: list[object], branch: Branch, watch_from: int | None) -> tuple[Value, bool]:
        return self.value([*answers, branch.answer], self._replay(answers, branch, watch_from), watch_from)

    def _replay(self, answers: list[object], branch: Branch, watch_from: int | None) -> Reached:
        if self.runner.replays >= self.limit:
            raise TooManyWays()
        return self.runner.run([*answers, branch.answer], watch_from)


def _rolls_again(before: Reached, after: Reached) -> bool:
    """A roll the rules ask for again, having changed nothing (a d20 landing on a taken number:
    the rules say so with a "reroll" effect): that face counts as never rolled."""
    return after.asked_again and after.ctx.state == before.ctx.state


def _combine(node: Node, children: list[tuple[Branch, Value]]) -> Value:
    if node.kind == "defend":
        found = {b.answer: v for b, v in children}
        return defend(found.get(DISCARD), found[FALL])
    total = sum(b.weight for b, _ in children)
    weighted = [(b.weight / total, v) for b, v in children]
    return chance(weighted) if node.kind == "chance" else choice(weighted)


# -- estimates for a card with too many ways -----------------------------------------------------

Chooser = Callable[[Node, random.Random], Branch]


def sample(runner: PhaseRunner, layout: Layout, card: object, runs: int, rng: random.Random) -> Value:
    """The card played out ``runs`` times per answering mode, every answer at random."""
    means = [_mean([_play_once(runner, layout, card, rng, mode) for _ in range(runs)]) for mode in (0, 1)]
    return Value(list(means), list(means), list(means))


def _play_once(runner: PhaseRunner, layout: Layout, card: object, rng: random.Random, mode: int) -> list[float]:
    reached = runner.answer(runner.begin(), card)
    while reached.prompt is not None:
        runner.answer(reached, _at_random(node_for(reached.prompt, runner.dice), rng, mode).answer)
    return layout.tally(reached.ctx, reached.sink)


def _at_random(node: Node, rng: random.Random, mode: int) -> Branch:
    if node.kind == "defend":
        wanted = DISCARD if mode == 0 else FALL
        return next((b for b in node.branches if b.answer == wanted), node.branches[-1])
    return rng.choices(node.branches, [b.weight for b in node.branches])[0]


def _mean(tallies: list[list[float]]) -> list[float]:
    return [sum(column) / len(tallies) for column in zip(*tallies)]
