"""A game is its input log folded over its origin.

The rules are a coroutine: it yields a :class:`Prompt` and is sent the checked
answer. ``Game`` feeds it inputs one at a time, records the ones it accepts and
keeps nothing else, so the same origin and inputs always give the same state
(replay), undo is "replay all but the last inputs", and a refused input leaves
the game exactly as it was (if the rules refused it half-way, the game is
rebuilt from its log).

Rules that declare boundaries (``EffectSink.boundary``: a point from which the game
goes on from its state and a little plain data alone) and can ``resume`` from one
(:class:`Resumable`) let a game keep snapshots at some of them, one every
``SNAPSHOT_EVERY`` inputs or so: undo and a rebuild then replay only the inputs since
the last snapshot before the point they go back to, not the whole game; and a game
given snapshots of itself (``Game(..., snapshots=...)``: a box reopening a game after
a restart) goes on from the last one instead of replaying its whole log.
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable, Generator, Iterable, Protocol, Sequence, TypeVar, runtime_checkable

from .dice import DICE, DiceKinds
from .effects import Effect, EffectSink
from .errors import GameOver, IllegalInput, StaleInput
from .plain import to_plain
from .prompts import Prompt, SeatAnswer, check_answer

T = TypeVar("T")
Flow = Generator[Prompt, object, T]
Input = Mapping[str, object]
#: Inputs from one undo snapshot to the next, at least: an undo replays about this many at most.
SNAPSHOT_EVERY = 16


class Rules(Protocol):
    """A game's rules: build the starting state and the coroutine that plays it.
    Rules whose data the owner may correct mid-game also have
    ``change_data(state, data, sink)``, raising IllegalInput to refuse; rules
    with moves a player may make at any moment, whatever is being asked,
    have ``anytime(state, move, sink)`` (IllegalInput to refuse, changing nothing);
    rules that declare boundaries (``EffectSink.boundary``) are :class:`Resumable`."""

    def begin(self, origin: Mapping[str, object], sink: EffectSink) -> tuple[object, Flow[None]]:
        ...


@runtime_checkable
class Resumable(Rules, Protocol):
    """Rules that declare boundaries (``EffectSink.boundary``) and go on from one: ``resume`` is the
    game going on from that boundary as it would have gone on from there (the same prompts, the
    same state). Only such rules' games keep snapshots; other rules' games replay."""

    def resume(self, state: Any, point: Any, sink: EffectSink) -> tuple[object, Flow[None]]:
        ...


@dataclass(frozen=True)
class Snapshot:
    """A game at one boundary of its rules: ``played`` inputs taken (the boundary was reached while
    the last of them was played, or before the first question when 0), and the pickled state and
    point. It holds everything the game holds, hidden information too: it never leaves the box."""

    played: int
    data: bytes


@dataclass(frozen=True)
class Step:
    """What one accepted input produced."""

    effects: tuple[Effect, ...]
    prompt: Prompt | None
    version: int


class Game:
    """One game: origin + accepted inputs, with the state and prompt they give.
    ``dice``: the die kinds its rolls are checked against (a pack with a die of its own gives its registry)."""

    def __init__(self, rules: Rules, origin: Mapping[str, object], inputs: Iterable[Input] = (),
                 dice: DiceKinds = DICE, snapshots: Sequence[Snapshot] = ()) -> None:
        """``snapshots``: snapshots of this very game (same rules, origin and first inputs, each
        taken by a game that played them): it goes on from the last one at or before the end of
        ``inputs`` and plays only the inputs after it. Ignored for rules that do not resume."""
        self.rules = rules
        self.origin = origin
        self.dice = dice
        self._resumable: Resumable | None = rules if isinstance(rules, Resumable) else None
        self._opening: tuple[Effect, ...] | None = None
        self._snapshots: list[Snapshot] = []
        if snapshots and self._resumable is not None and any(s.played > 0 for s in snapshots):
            self._snapshots = sorted(snapshots, key=lambda s: s.played)
            self._rebuild([dict(entry) for entry in inputs])
            return
        self._begin()
        for entry in inputs:
            self.apply(entry)

    def _begin(self) -> None:
        self._snapshots = []
        self._feeding = 0  # the inputs played once the answer being sent is taken
        self._sink = self._watched(EffectSink())
        self.state, self._flow = self.rules.begin(self.origin, self._sink)
        self.inputs: list[dict[str, object]] = []
        self.prompt: Prompt | None = self._resume(None)
        self._opening = self._sink.take()

    @property
    def opening_effects(self) -> tuple[Effect, ...]:
        """What the game's start made happen. A game that went on from a snapshot never played its
        start: it is worked out once when asked (a start alone, no input)."""
        if self._opening is None:
            self._opening = Game(self.rules, self.origin, dice=self.dice).opening_effects
        return self._opening

    @property
    def snapshots(self) -> tuple[Snapshot, ...]:
        """The snapshots this game keeps, oldest first (each valid for its inputs as they are now)."""
        return tuple(self._snapshots)

    def _watched(self, sink: EffectSink) -> EffectSink:
        if self._resumable is not None:
            sink.on_boundary = self._snapshot
        return sink

    def _snapshot(self, state: object, point: object) -> None:
        """A boundary of the rules: kept if the last snapshot is ``SNAPSHOT_EVERY`` inputs back."""
        if not self._snapshots or self._feeding - self._snapshots[-1].played >= SNAPSHOT_EVERY:
            self._snapshots.append(Snapshot(self._feeding, pickle.dumps((state, point), pickle.HIGHEST_PROTOCOL)))

    def _resume(self, answer: object) -> Prompt | None:
        try:
            return self._flow.send(answer)
        except StopIteration:
            return None

    @property
    def version(self) -> int:
        """The number of accepted inputs; tablets send it back to prove they are current."""
        return len(self.inputs)

    @property
    def over(self) -> bool:
        return self.prompt is None

    def apply(self, entry: Input, version: int | None = None) -> Step:
        """Fold one input into the game, or refuse it and change nothing."""
        if version is not None and version != self.version:
            raise StaleInput(version, self.version)
        if isinstance(entry, Mapping) and "data" in entry:
            return self._change_data(entry["data"])
        if isinstance(entry, Mapping) and "anytime" in entry:
            return self._anytime(entry["anytime"])
        prompt = self._current()
        answer = check_answer(prompt, self._answer_of(prompt, entry), self.dice)
        seat = _answering_seat(prompt, entry)
        self._feeding = len(self.inputs) + 1
        try:
            following = self._resume(answer if seat is None else SeatAnswer(seat, answer))
        except BaseException:
            self._rebuild(self.inputs)
            raise
        record: dict[str, object] = {"key": prompt.key, "answer": to_plain(answer)}
        if seat is not None:
            record["seat"] = seat
        self.inputs.append(record)
        self.prompt = following
        return Step(self._sink.take(), following, self.version)

    def _change_data(self, data: object) -> Step:
        """A ``{"data": ...}`` input: the game's data corrected between two answers
        (the rules' ``change_data`` checks it and refuses it whole). The question
        being asked stays; the answers after it play with the new data. Kept in
        the log like any input, so replays and undo see it at the same place."""
        change = getattr(self.rules, "change_data", None)
        if change is None:
            raise IllegalInput("this game's data cannot be changed")
        self._current()
        change(self.state, data, self._sink)
        self.inputs.append({"data": to_plain(data)})
        return Step(self._sink.take(), self.prompt, self.version)

    def _anytime(self, move: object) -> Step:
        """An ``{"anytime": ...}`` input: a move the rules allow between any two answers (a Dark Gift
        accepted in the middle of a Monster Phase). The question being asked stays; what follows
        plays with the move made. Kept in the log, so replays and undo see it at the same place."""
        make = getattr(self.rules, "anytime", None)
        if make is None:
            raise IllegalInput("this game has no moves that can be made at any time")
        self._current()
        try:
            make(self.state, move, self._sink)
        except BaseException:
            self._rebuild(self.inputs)  # whatever the rules did before refusing is undone
            raise
        self.inputs.append({"anytime": to_plain(move)})
        return Step(self._sink.take(), self.prompt, self.version)

    def _current(self) -> Prompt:
        if self.prompt is None:
            raise GameOver("the game is over; nothing more can be played")
        return self.prompt

    @staticmethod
    def _answer_of(prompt: Prompt, entry: Input) -> object:
        if not isinstance(entry, Mapping) or "answer" not in entry:
            raise IllegalInput(f"an input must be an object with an 'answer', got {entry!r}")
        key = entry.get("key")
        if key is not None and key != prompt.key:
            raise IllegalInput(f"this input answers {key!r} but the game is asking {prompt.key!r}")
        return entry["answer"]

    def _rebuild(self, inputs: list[dict[str, object]]) -> None:
        """The game after ``inputs`` (a beginning of its log): from the last snapshot taken at or
        before their end, else from the origin, with the inputs since."""
        kept = list(inputs)
        snapshots = [s for s in self._snapshots if s.played <= len(kept)]
        if not snapshots or self._resumable is None:  # there are snapshots only of rules that resume
            self._begin()
        else:
            last = snapshots[-1]
            state, point = pickle.loads(last.data)
            self._snapshots, self._feeding = snapshots, last.played
            self._sink = self._watched(EffectSink())
            self.state, self._flow = self._resumable.resume(state, point, self._sink)
            self.inputs = kept[:last.played]
            self.prompt = self._resume(None)
        for entry in kept[len(self.inputs):]:
            self.apply(entry)
        self._sink.take()

    def undo(self, count: int = 1) -> list[dict[str, object]]:
        """Drop the last ``count`` inputs; returns them (for redo)."""
        if not 0 < count <= len(self.inputs):
            raise IllegalInput(f"cannot undo {count} input(s): the game has {len(self.inputs)}")
        dropped = self.inputs[-count:]
        self._rebuild(self.inputs[:-count])
        return dropped

    def answer_with(self, policy: Callable[[Prompt, object], object]) -> Step:
        """Answer the current prompt with ``policy(prompt, state)`` (scripts, simulation)."""
        prompt = self._current()
        return self.apply({"key": prompt.key, "answer": policy(prompt, self.state)})


def _answering_seat(prompt: Prompt, entry: Input) -> str | None:
    """The seat answering a question each seat answers for itself (``Prompt.each``): the entry's
    ``seat`` (the table puts the device's seat there), or, from a script or a terminal that names
    none, the first seat still asked. None for any other question, which takes no ``seat``."""
    seat = entry.get("seat") if isinstance(entry, Mapping) else None
    if not prompt.each:
        if seat is not None:
            raise IllegalInput(f"{prompt.key}: only a question each seat answers for itself takes a 'seat'")
        return None
    audience = prompt.audience or ()
    chosen = (prompt.still_to_answer() or audience)[0] if seat is None else seat
    if chosen not in audience:
        raise IllegalInput(f"{prompt.key}: {chosen!r} is not asked this question (still to answer: "
                           f"{', '.join(audience)})")
    return str(chosen)
