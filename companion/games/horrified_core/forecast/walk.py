"""Walking every way the coming Monster Phase can go, on the rules engine itself.

The rules are a coroutine, which cannot be copied half-way; but they declare boundaries
(``EffectSink.boundary``: each symbol of the attack line, each monster about to act) where the
rest of the phase needs nothing but the state and a little plain data (``PhasePoint``). The
walk keeps a snapshot of the last boundary it crossed (``Reached.base``) and the answers given
since, and plays each other way again from that snapshot (``Rules.resume``'s way: the same
Monster Phase coroutine told where to go on), not from the phase's start. Two ways that reach
the same snapshot (the same table, the same rest of the phase, the same attacks and defeats so
far) have the same future: it is walked once (``Walker.memo``).

The walk is exact: at each question it follows every answer (``branches``). A card whose ways
are too many for the time the table can wait is played out at random instead (``play_once``),
and its figures are marked as estimates.

Which item comes out of the bag changes nothing in most phases but the bag; what can differ
is what the rules read of it afterwards: its figures (the Carrionette's Silver Needle names
the drawn item's Strength, ``ReadItem``) or its place, through the items lying on the board
(the Invisible Man's Thief, ``WatchedItems``). So a draw is followed one way first, and then
once for each different value of what was read below it (items grouped by that, not by
name), until what was read is the same for every group walked.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field, replace
from typing import Callable

from companion.engine.dice import DiceKinds
from companion.engine.game import Flow
from companion.engine.prompts import Prompt, check_answer

from ..context import GameContext, GameEnded
from ..monster_phase import PhasePoint, monster_phase
from ..pack_types import Item, Pack
from ..play import finish
from ..rules import HorrifiedRules
from ..state import GameState
from .branches import DISCARD, FALL, Branch, Node, node_for
from .reads import TABLE, ReadLog, Snapshot, projection, reading, restored, snapshot
from .tally import Layout, LedgerSink, Value, chance, choice, defend

ITEM_DRAW = "item"


class TooManyWays(Exception):
    """The walk below one card needed more replays than it was given."""


@dataclass
class Reached:
    """Where a replay stopped: the question asked (None: the phase is over) and the table; the
    snapshot it went on from (the phase's start or its last boundary) and the answers since."""

    prompt: Prompt | None
    ctx: GameContext
    sink: SnapshotSink
    flow: Flow[None]
    base: Snapshot
    since: list[object] = field(default_factory=list)
    asked_again: bool = False  # the rules said to roll again (a "reroll" effect) and ask the same roll


class SnapshotSink(LedgerSink):
    """The ledger of a walk, which takes a snapshot at each boundary the rules declare: the table,
    the point of the phase, and who was attacked and defeated so far (``keep``: False when
    nothing will go on from one, as in random plays)."""

    def __init__(self, attacked: list[str], defeated: list[str], keep: bool, resumed: object = None,
                 log: ReadLog | None = None) -> None:
        super().__init__(attacked, defeated)
        self.log = log
        self.taken: Snapshot | None = None
        self.resumed = resumed  # the point the phase went on from: its snapshot is the one it went on from
        if keep:
            self.on_boundary = self._take

    def _take(self, state: object, point: object) -> None:
        resumed, self.resumed = self.resumed, None
        if resumed is not None and point == resumed:
            return  # the boundary it went on from, told again: nothing new to keep
        assert isinstance(state, GameState)
        self.taken = snapshot(state, (point, sorted(self.attacked), sorted(self.defeated)))
        if self.log is not None:
            self.log.segment = set()  # what is read from here on


def phase(ctx: GameContext, at: PhasePoint | None = None) -> Flow[None]:
    """The Monster Phase alone (from ``at``, a boundary of it), ending the game as the rules do
    when it is lost."""
    try:
        yield from monster_phase(ctx, at)
    except GameEnded as end:
        finish(ctx, end)


class Stopped(Exception):
    """The forecast was called off (the game it was for has moved on): nothing of it is kept."""


class PhaseRunner:
    """Plays the phase again from a snapshot with a list of answers. ``stop``: asked before each
    replay; True calls the forecast off (``Stopped``), so a forecast nobody waits for any more
    gives the box back within a replay."""

    def __init__(self, rules: HorrifiedRules, start: GameState, dice: DiceKinds,
                 stop: Callable[[], bool] | None = None) -> None:
        self.rules = rules
        self.dice = dice
        self.stop = stop
        self.start = snapshot(start, (None, [], []))
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

    def begin(self, base: Snapshot | None = None, keep: bool = True) -> Reached:
        """The phase going on from the snapshot ``base`` (its start without), up to its first question."""
        if self.stop is not None and self.stop():
            raise Stopped()
        taken = base or self.start
        self.reads.segment = set()
        state, point, attacked, defeated = restored(taken, self.reads)
        assert point is None or isinstance(point, PhasePoint)
        sink = SnapshotSink(attacked, defeated, keep, point, self.reads)
        ctx = self.rules.context(state, sink, self.pack_view, quiet=True)
        flow = phase(ctx, point)
        self.replays += 1
        reached = Reached(None, ctx, sink, flow, taken)
        reached.prompt = self._send(reached, None)
        return reached

    def run(self, base: Snapshot, answers: list[object]) -> Reached:
        reached = self.begin(base)
        for answer in answers:
            self.answer(reached, answer)
        return reached

    def answer(self, reached: Reached, answer: object) -> Reached:
        """Go on from ``reached`` (changing it) with one more answer."""
        assert reached.prompt is not None, "an answer was given after the phase ended"
        asked, rerolls = reached.prompt, reached.sink.rerolls
        reached.since.append(answer)
        reached.prompt = self._send(reached, check_answer(asked, answer, self.dice))
        reached.asked_again = (reached.sink.rerolls > rerolls and reached.prompt is not None
                               and reached.prompt.key == asked.key)
        return reached

    @staticmethod
    def _send(reached: Reached, answer: object) -> Prompt | None:
        reached.sink.taken = None
        try:
            prompt = reached.flow.send(answer)
        except StopIteration:
            prompt = None
        if reached.sink.taken is not None:  # a boundary was crossed: go on from it from now on
            reached.base, reached.since = reached.sink.taken, []
        return prompt


@dataclass(frozen=True)
class Walked:
    """A memoized question's value, what was read from its boundary on (items' figures, the board,
    the table's loose fields), and whether a card's Event was done by hand there."""

    value: Value
    reads: frozenset[tuple[str, str]]
    by_hand: bool
    shapes: tuple[frozenset[str], ...] = ()  # kept under a boundary's core: the sets of loose fields read below it

    @property
    def fields(self) -> frozenset[str]:
        """The loose fields of the table read from the boundary on: the value holds for any table
        at that boundary alike in everything else and in these."""
        return frozenset(name for who, name in self.reads if who == TABLE)


def _keyed(core: bytes, taken: Snapshot, fields: frozenset[str]) -> bytes:
    """The memo's key of a boundary: its core and the loose fields ``fields`` of its table."""
    return hashlib.blake2b(core + projection(taken, fields), digest_size=20).digest()


#: Memoized questions kept at most per forecast (each a value per number of the tally).
MEMO_SIZE = 200_000


class Walker:
    """The exact walk: every answer of every question, with a limit on the replays. ``memo``: the
    values below boundaries already walked, by snapshot (shared by the walks of one forecast)."""

    def __init__(self, runner: PhaseRunner, layout: Layout, limit: int, memo: dict[bytes, Walked] | None = None) -> None:
        self.runner = runner
        self.layout = layout
        self.limit = limit
        self.memo: dict[bytes, Walked] = {} if memo is None else memo
        self.by_hand = False  # a card's Event is done by hand: the forecast took it to change nothing
        # the answering mode walked (an index of ``MODES``), None for both: below a hit hero's
        # discard only the first mode's numbers are read, below the fall only the second's
        self.mode: int | None = None
        self._grouped: dict[tuple[tuple[Branch, ...], frozenset[str]], list[list[Branch]]] = {}

    def value(self, reached: Reached) -> Value:
        """The value below ``reached``, both answering modes."""
        self.mode = None
        return self._below(reached)

    def _below(self, reached: Reached) -> Value:
        """The value below ``reached`` in the mode walked; taken from the memo when it stands just
        past a boundary."""
        if reached.prompt is None:
            return Value.leaf(self.layout.tally(reached.ctx, reached.sink))
        if reached.since:
            return self._value(reached)
        taken = reached.base  # the walk below goes on from ``reached``, changing it
        core = hashlib.blake2b(taken.core, digest_size=20, salt=bytes([3 if self.mode is None else self.mode])).digest()
        index = self.memo.get(core)
        shapes = () if index is None else index.shapes
        found = next((w for w in (self.memo.get(_keyed(core, taken, f)) for f in shapes) if w is not None), None)
        if found is None:
            found = self._recorded(reached)
            if len(self.memo) < MEMO_SIZE:
                if found.fields not in shapes:  # which sets of loose fields to look at for this core
                    self.memo[core] = replace(found, shapes=(*shapes, found.fields))
                self.memo[_keyed(core, taken, found.fields)] = found
        else:
            for read in found.reads:
                self.runner.reads.read(*read)
        self.by_hand = self.by_hand or found.by_hand
        return found.value

    def _recorded(self, reached: Reached) -> Walked:
        """The value below ``reached``, with what was read there."""
        log, by_hand = self.runner.reads, self.by_hand
        record = {(TABLE, name) for name in log.segment}  # read since the boundary, before this question
        log.records.append(record)
        self.by_hand = False
        try:
            value = self._value(reached)
        finally:
            log.records.pop()  # its own: the records below it were taken off before
        found = Walked(value, frozenset(record), self.by_hand)
        self.by_hand = by_hand or self.by_hand
        return found

    def _value(self, reached: Reached) -> Value:
        assert reached.prompt is not None
        node = node_for(reached.prompt, self.runner.dice)
        self.by_hand = self.by_hand or node.kind == "by-hand"
        if node.kind == "defend":
            return self._defend(reached, node)
        if reached.prompt.key == ITEM_DRAW and node.kind == "chance":
            return self._item_draw(reached, node)
        return _combine(node, self._children(reached, node))

    def _defend(self, reached: Reached, node: Node) -> Value:
        """A hit hero's question: in one mode its one answer (nothing replayed); in both, the
        discard walked for the first mode and the fall for the second, so that hits further on
        below either answer do not branch again."""
        if self.mode is not None or len(node.branches) == 1:
            return self._below(self._go_on(reached, answered(node, self.mode or 0)))
        base, since, walked = reached.base, list(reached.since), self.mode
        try:
            self.mode = 0
            spent = self._below(self._replay(base, since, answered(node, 0)))
            self.mode = 1
            fell = self._below(self._go_on(reached, answered(node, 1)))
        finally:
            self.mode = walked
        return defend(spent, fell)

    def _item_draw(self, reached: Reached, node: Node) -> Value:
        """One item followed first; then one of each group of items alike in what was read below
        (its figures, its place if the board's items were looked at), until nothing more was read."""
        base, since = reached.base, list(reached.since)
        first = node.branches[0]
        walked = {str(first.answer): self._watched(first, lambda: self._below(self._go_on(reached, first)))}
        read = set(walked[str(first.answer)][1])
        while True:
            groups = self._groups(node, read)
            for branch in (g[0] for g in groups if str(g[0].answer) not in walked):
                walked[str(branch.answer)] = self._watched(
                    branch, lambda: self._below(self._replay(base, since, branch)))
            more = read.union(*(found[1] for found in walked.values()))
            if more == read:
                break
            read = more
        return chance([(sum(b.weight for b in g), walked[str(g[0].answer)][0]) for g in groups])

    def _watched(self, branch: Branch, walk: Callable[[], Value]) -> tuple[Value, set[str]]:
        """``walk()`` below the drawn item ``branch``, and what was read of it there."""
        log, item_id = self.runner.reads, str(branch.answer)
        noted = log.watch(item_id)
        try:
            value = walk()
        finally:
            log.unwatch(item_id, noted)
        return value, noted

    def _groups(self, node: Node, read: set[str]) -> list[list[Branch]]:
        """The draw's answers grouped by the values of what was read (each group's first stands for it)."""
        key = (node.branches, frozenset(read))
        found = self._grouped.get(key)
        if found is None:
            groups: dict[tuple[object, ...], list[Branch]] = {}
            for branch in node.branches:
                item = self.runner.figures(str(branch.answer))
                groups.setdefault(tuple(getattr(item, figure) for figure in sorted(read)), []).append(branch)
            found = self._grouped[key] = list(groups.values())
        return found

    def _children(self, reached: Reached, node: Node) -> list[tuple[Branch, Value]]:
        children: list[tuple[Branch, Value]] = []
        rolled = reached.prompt is not None and reached.prompt.kind == "roll"
        base, since = reached.base, list(reached.since)
        for index, branch in enumerate(node.branches):
            # the last answer goes on with the phase as it stands (nothing replayed); a roll
            # keeps its table to see whether it is asked again
            last = index == len(node.branches) - 1 and not rolled
            nxt = self._go_on(reached, branch) if last else self._replay(base, since, branch)
            if rolled and _rolls_again(reached, nxt):
                continue  # the rules ask for the roll again: that face is as if never rolled
            children.append((branch, self._below(nxt)))
        return children

    def _go_on(self, reached: Reached, branch: Branch) -> Reached:
        return self.runner.answer(reached, branch.answer)

    def _replay(self, base: Snapshot, since: list[object], branch: Branch) -> Reached:
        if self.runner.replays >= self.limit:
            raise TooManyWays()
        return self.runner.run(base, [*since, branch.answer])


def _rolls_again(before: Reached, after: Reached) -> bool:
    """A roll the rules ask for again, having changed nothing (a d20 landing on a taken number:
    the rules say so with a "reroll" effect): that face counts as never rolled."""
    return after.asked_again and after.ctx.state == before.ctx.state


def answered(node: Node, mode: int) -> Branch:
    """A hit hero's answer in answering mode ``mode``: discard items when they can (the first
    mode), or never (the second)."""
    wanted = DISCARD if mode == 0 else FALL
    return next((b for b in node.branches if b.answer == wanted), node.branches[-1])


def _combine(node: Node, children: list[tuple[Branch, Value]]) -> Value:
    total = sum(b.weight for b, _ in children)
    weighted = [(b.weight / total, v) for b, v in children]
    return chance(weighted) if node.kind == "chance" else choice(weighted)


# -- estimates for a card with too many ways -----------------------------------------------------

Chooser = Callable[[Node, random.Random], Branch]


def play_once(runner: PhaseRunner, layout: Layout, card: object, rng: random.Random, mode: int) -> list[float]:
    """The card played out once, every answer at random (a hit hero discarding in mode 0, never in 1)."""
    reached = runner.answer(runner.begin(keep=False), card)
    while reached.prompt is not None:
        runner.answer(reached, _at_random(node_for(reached.prompt, runner.dice), rng, mode).answer)
    return layout.tally(reached.ctx, reached.sink)


def _at_random(node: Node, rng: random.Random, mode: int) -> Branch:
    if node.kind == "defend":
        return answered(node, mode)
    return rng.choices(node.branches, [b.weight for b in node.branches])[0]
