"""The kinds of dice the games roll, in one place: each kind's faces, what a
face is called and how it is checked, which face counts as 20, and how a kind
is rolled at random.

Why one registry: the rules check a roll against it, the seeded random source
rolls from it, the dice reader turns what it sees into the values the rules
take, and the calibration asks the owner for each face in turn. With the
faces written once, a new die kind (or a pack's own Monster die) is one entry,
not a change in four places.

Two things a kind knows about its faces:

* ``faces``: every face it can show, in the order they are asked for and
  listed (the d20's 1 to 20, the Monster die's HIT, POW and blank);
* ``sides``: the die's sides as they land, repeats allowed, which is what a
  random roll picks from (a Monster die of three HITs, a POW and two blanks).
  A pack gives its own: ``MONSTER.with_sides(pack.monster_die)``.

This module imports nothing but the standard library: the dice reader and the
calibration (``hardware.dice``, ``calibration.dice``) use it too, and they
stay below the games.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence

from .errors import IllegalInput

FaceValue = int | str  # what the rules are given: 7, 20, "hit"


@dataclass(frozen=True)
class Face:
    """One face: ``value`` is what the rules get; ``words`` are other answers taken for
    it (the d20's symbol face is sent as ``"symbol"`` or 20); ``shows`` says what is
    printed on it when that is not its value (``"the symbol"``)."""

    value: FaceValue
    words: tuple[str, ...] = ()
    shows: str = ""

    @property
    def label(self) -> str:
        """How calibration files, the reader and the tablet name it: ``"7"``, ``"hit"``."""
        return str(self.value)


@dataclass(frozen=True)
class DieKind:
    """A kind of die. ``id`` is what a roll prompt names (``die="d20"``); ``name`` and
    ``plural`` are how people say it ("Monster die", "Monster dice")."""

    id: str
    name: str
    plural: str
    faces: tuple[Face, ...]
    sides: tuple[FaceValue, ...] = ()
    _by_answer: dict[FaceValue, FaceValue] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.faces:
            raise ValueError(f"the die kind {self.id!r} has no faces")
        if not self.sides:
            object.__setattr__(self, "sides", tuple(face.value for face in self.faces))
        for face in self.faces:
            self._by_answer[face.value] = face.value
            self._by_answer.update((word, face.value) for word in face.words)
        unknown = [side for side in self.sides if isinstance(side, bool) or side not in self.values]
        if unknown:
            raise ValueError(f"{unknown[0]!r} is not a face of the {self.name} ({self.describe()})")

    @property
    def values(self) -> tuple[FaceValue, ...]:
        return tuple(face.value for face in self.faces)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(face.label for face in self.faces)

    @property
    def numbered(self) -> bool:
        """Faces 1, 2 ... n (a d6, a d20) rather than symbols."""
        return self.values == tuple(range(1, len(self.faces) + 1))

    @property
    def top(self) -> FaceValue:
        """The highest face: the one that "counts as 20" on a d20 (RL-D20-1)."""
        return self.faces[-1].value

    def face(self, value: FaceValue) -> Face:
        for face in self.faces:
            if face.value == value:
                return face
        raise KeyError(f"{value!r} is not a face of the {self.name}")

    def check(self, answer: object) -> FaceValue:
        """The face an answer names (a value or one of its words); IllegalInput if none.
        True is not 1, and "7" is not 7."""
        value = None if isinstance(answer, bool) or not isinstance(answer, (int, str)) else self._by_answer.get(answer)
        if value is None:
            raise IllegalInput(self._not_a_face(answer))
        return value

    def value_of(self, label: str) -> FaceValue:
        """The value of a face by its label ("20" -> 20, "hit" -> "hit"): what the reader saw."""
        for face in self.faces:
            if face.label == label:
                return face.value
        raise KeyError(f"{label!r} is not a face of the {self.name} ({self.describe()})")

    def roll(self, rng: random.Random) -> FaceValue:
        """One random side: each side of ``sides`` as likely as the others."""
        return rng.choice(self.sides)

    def with_sides(self, sides: Sequence[FaceValue]) -> "DieKind":
        """This kind with a pack's own sides (the pack's six Monster die faces)."""
        return DieKind(self.id, self.name, self.plural, self.faces, tuple(sides))

    def describe(self) -> str:
        """The faces in a few words: "1 to 20", "hit, pow or blank"."""
        if self.numbered:
            return f"1 to {len(self.faces)}"
        labels = self.labels
        return labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} or {labels[-1]}"

    def _not_a_face(self, answer: object) -> str:
        if self.numbered:
            return f"{answer!r} is not a face of a {self.name} ({self.describe()})"
        return f"{answer!r} is not a {self.name} face ({self.describe()})"


def numbered(kind_id: str, count: int, name: str | None = None, plural: str | None = None,
             top: Face | None = None) -> DieKind:
    """A die numbered 1 to ``count``; ``top`` replaces the last face (the d20's symbol)."""
    faces = [Face(n) for n in range(1, count + 1)]
    if top is not None:
        faces[-1] = top
    return DieKind(kind_id, name or kind_id, plural or f"{name or kind_id}s", tuple(faces))


D20 = numbered("d20", 20, top=Face(20, words=("symbol",), shows="the symbol"))
D6 = numbered("d6", 6)
#: The Monster die's faces. How many sides show each is the pack's data (``with_sides``).
MONSTER = DieKind("monster", "Monster die", "Monster dice", (Face("hit"), Face("pow"), Face("blank")))


#: What a dice set's id may be: it names the set's folder of face photos in a saved calibration.
SET_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


@dataclass(frozen=True)
class DiceSet:
    """One box's dice of one kind, as the camera is taught them: two boxes' Monster dice are
    the same kind (the same faces, the same rules) but not the same dice (another colour, other
    symbols), so each is calibrated on its own and a game reads with its own box's set.

    ``id`` names the set in the saved calibration; a kind's own id (``"d20"``) is the shared set
    of that kind, which every pack not naming a set of its own rolls. ``name`` is how the tablet
    says it ("the Ravenloft box's Monster dice"). ``older_calibration``: a calibration saved before
    there were sets was of these dice (the first box the camera learnt), so it is read as theirs."""

    id: str
    kind: str
    name: str
    older_calibration: bool = False

    def __post_init__(self) -> None:
        if not SET_ID.fullmatch(self.id):
            raise ValueError(f"dice set id {self.id!r}: use 1-40 lower-case letters, digits and dashes")
        if self.kind not in DICE:
            raise ValueError(f"dice set {self.id!r}: no die kind {self.kind!r} (known: {', '.join(DICE.ids())})")
        if self.id in DICE and self.id != self.kind:
            raise ValueError(f"dice set id {self.id!r} is the name of another die kind's shared set")

    @property
    def shared(self) -> bool:
        """The kind's shared set (no pack's own dice)."""
        return self.id == self.kind


def shared_set(kind: DieKind) -> DiceSet:
    """The set a kind's dice are when no pack names its own: ``d20`` for every d20."""
    return DiceSet(kind.id, kind.id, f"the {kind.plural}")


class DiceKinds:
    """The die kinds a game rolls, by id. Immutable: ``with_kind`` gives a new
    registry with a pack's kind added or put in place of the one of that id."""

    def __init__(self, kinds: Iterable[DieKind]) -> None:
        self._kinds = {kind.id: kind for kind in kinds}

    def __getitem__(self, kind_id: str) -> DieKind:
        try:
            return self._kinds[kind_id]
        except KeyError:
            raise KeyError(f"no die kind {kind_id!r} (known: {', '.join(self._kinds)})") from None

    def __contains__(self, kind_id: object) -> bool:
        return kind_id in self._kinds

    def __iter__(self) -> Iterator[str]:
        return iter(self._kinds)

    def __len__(self) -> int:
        return len(self._kinds)

    def ids(self) -> tuple[str, ...]:
        return tuple(self._kinds)

    def kinds(self) -> tuple[DieKind, ...]:
        return tuple(self._kinds.values())

    def with_kind(self, kind: DieKind) -> "DiceKinds":
        return DiceKinds([*(k for k in self._kinds.values() if k.id != kind.id), kind])

    def check(self, kind_id: str | None, answer: object) -> FaceValue:
        """One die of a roll: IllegalInput naming the die when the face is not one of its faces."""
        kind = self._kinds.get(kind_id) if kind_id is not None else None
        if kind is None:
            raise IllegalInput(f"{answer!r}: this roll names no die kind this game knows ({kind_id!r})")
        return kind.check(answer)


#: The die kinds every game can roll. A pack with its own die gives ``DICE.with_kind(...)``.
DICE = DiceKinds((D20, MONSTER, D6))


def with_monster_die(sides: Sequence[FaceValue], kinds: DiceKinds = DICE) -> DiceKinds:
    """``kinds`` with the Monster die's sides as a pack's data gives them (a kind set without one
    is left as it is)."""
    return kinds.with_kind(kinds[MONSTER.id].with_sides(tuple(sides))) if MONSTER.id in kinds else kinds


def sets_rolled(own: Iterable[DiceSet], kinds: DiceKinds = DICE) -> dict[str, DiceSet]:
    """Kind id -> the set a pack's games roll of it: the pack's own set where it names one, else
    the kind's shared set. Two sets of one kind in one pack are refused (which would a roll be?)."""
    chosen = {kind.id: shared_set(kind) for kind in kinds.kinds()}
    named: set[str] = set()
    for dice_set in own:
        if dice_set.kind in named:
            raise ValueError(f"two dice sets of the {kinds[dice_set.kind].plural} in one pack")
        named.add(dice_set.kind)
        chosen[dice_set.kind] = dice_set
    return chosen

__all__ = ["D20", "D6", "DICE", "DiceKinds", "DiceSet", "DieKind", "Face", "FaceValue", "MONSTER", "numbered",
           "sets_rolled", "shared_set"]
