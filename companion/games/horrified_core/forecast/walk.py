"""Walking every way the coming Monster Phase can go, on the rules engine itself.

The rules are a coroutine, which cannot be copied half-way; so each way is played again
from the start of the phase with the answers that lead to it (a copy of the state, then
the answers). The walk is exact: at each question it follows every answer (``branches``).
A card whose ways are too many for the time the table can wait is played out at random
instead, many times, and its figures are marked as estimates (``sample``).

Which item comes out of the bag changes nothing in most phases but the bag; what can differ
is what the rules read of it afterwards: its figures (the Carrionette's Silver Needle names
the drawn item's Strength, ``ReadItem``) or its place, through the items lying on the board
(the Invisible Man's Thief, ``WatchedItems``). So a draw is followed one way first, and then
once for each different value of what was read below it (items grouped by that, not by
name), until what was read is the same for every group walked.
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
from ..pack_types import Item, Pack
from ..state import GameState
from .branches import DISCARD, FALL, Branch, Node, node_for
from .tally import Layout, LedgerSink, Value, chance, choice, defend

ITEM_DRAW = "item"
#: What the rules may read of an item token's own figures; its place is read through the board.
FIGURES = ("strength", "type")
PLACE = "location"


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


class ReadLog:
    """The figures read of the items whose draw is being walked: while the walk below a drawn
    item is open (``watch``), each of its ``FIGURES`` the rules read is noted for it."""

    def __init__(self) -> None:
        self.open: dict[str, list[set[str]]] = {}

    def read(self, item_id: str, figure: str) -> None:
        for noted in self.open.get(item_id, ()):
            noted.add(figure)

    def watch(self, item_id: str) -> set[str]:
        """Start noting the reads of ``item_id``; the set they go in (``unwatch`` it when done)."""
        noted: set[str] = set()
        self.open.setdefault(item_id, []).append(noted)
        return noted

    def unwatch(self, item_id: str, noted: set[str]) -> None:
        self.open[item_id].remove(noted)


class ReadItem(Item):
    """An item record that notes in its ``ReadLog`` when the rules read one of its ``FIGURES``."""

    def __getattribute__(self, name: str) -> object:
        if name in FIGURES:
            log: ReadLog = object.__getattribute__(self, "__dict__")["_log"]
            log.read(object.__getattribute__(self, "id"), name)
        return object.__getattribute__(self, name)


def reading(item: Item, log: ReadLog) -> Item:
    """``item`` as a ``ReadItem`` noting its reads in ``log``."""
    watched = ReadItem.__new__(ReadItem)
    watched.__dict__.update(vars(item), _log=log)
    return watched


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
        self.reads = ReadLog()
        self._pack = rules.pack_for(start)
        self._viewed: dict[int, tuple[Pack, Pack]] = {}

    def pack_view(self, pack: Pack) -> Pack:
        """The pack whose item records note what the rules read of them (one copy per pack)."""
        found = self._viewed.get(id(pack))
        if found is None or found[0] is not pack:
            found = self._viewed[id(pack)] = (pack, pack.with_item_records(lambda i: reading(i, self.reads)))
        return found[1]

    def figures(self, item_id: str) -> Item:
        """What the rules may read of an item (without noting it as read)."""
        return self._pack.item(item_id)

    def begin(self) -> Reached:
        if self.stop is not None and self.stop():
            raise Stopped()
        state: GameState = pickle.loads(self._start)
        items = WatchedItems(state.items_at)
        state.items_at = items
        sink = LedgerSink()
        ctx = self.rules.context(state, sink, self.pack_view)
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
        """One item followed first; then one of each group of items alike in what was read below
        (its figures, its place if the board's items were looked at), until nothing more was read."""
        watch = len(answers) if watch_from is None else watch_from
        first = node.branches[0]
        walked = {str(first.answer): self._watched(first, lambda: self.value(
            [*answers, first.answer], self._go_on(reached, first, len(answers) == watch), watch))}
        read = walked[str(first.answer)][2]
        while True:
            groups = self._groups(node, read)
            for branch in (g[0] for g in groups if str(g[0].answer) not in walked):
                walked[str(branch.answer)] = self._watched(branch, lambda: self._follow(answers, branch, watch))
            more = read.union(*(found[2] for found in walked.values()))
            if more == read:
                break
            read = more
        looked = any(found[1] for found in walked.values())
        return chance([(sum(b.weight for b in g), walked[str(g[0].answer)][0]) for g in groups]), looked

    def _watched(self, branch: Branch, walk: Callable[[], tuple[Value, bool]]) -> tuple[Value, bool, set[str]]:
        """``walk()`` below the drawn item ``branch``, and what was read of it there."""
        log, item_id = self.runner.reads, str(branch.answer)
        noted = log.watch(item_id)
        try:
            value, looked = walk()
        finally:
            log.unwatch(item_id, noted)
        return value, looked, noted | {PLACE} if looked else noted

    def _groups(self, node: Node, read: set[str]) -> list[list[Branch]]:
        """The draw's answers grouped by the values of what was read (each group's first stands for it)."""
        groups: dict[tuple[object, ...], list[Branch]] = {}
        for branch in node.branches:
            item = self.runner.figures(str(branch.answer))
            groups.setdefault(tuple(getattr(item, figure) for figure in sorted(read)), []).append(branch)
        return list(groups.values())

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
