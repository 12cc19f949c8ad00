"""The Mummy's tablet: six scarabs on a ring of six slots round a centre slot, as four sources
draw it. Slot 0 is the centre, slots 1 to 6 go round the ring; a ring slot touches the two
beside it and the centre, the centre touches every ring slot. One slot is empty (the centre
at the start). A move turns a face-down scarab face up, or slides a face-up scarab into the
empty slot next to it. The tablet is solved with scarab n face up in slot n for every n
(so the centre is empty again).

Plain functions over :class:`Tablet`, the mat's record of it, so that every move a tablet
sends is checked here, one at a time, against the scarabs as they lie.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.engine.errors import IllegalInput

RING = 6
CENTRE = 0
SLOTS = tuple(range(RING + 1))


@dataclass
class Tablet:
    """``numbers[slot]``: the scarab's number where it is known (None: face down and never seen, or
    the empty slot); ``up[slot]``: face up; ``empty``: the empty slot."""

    numbers: list[int | None] = field(default_factory=lambda: [None] * (RING + 1))
    up: list[bool] = field(default_factory=lambda: [False] * (RING + 1))
    empty: int = CENTRE


def touching(a: int, b: int) -> bool:
    """Whether two slots are joined by a line of the tablet."""
    if a == b:
        return False
    if CENTRE in (a, b):
        return True
    return (a - b) % RING in (1, RING - 1)


def problems(tablet: Tablet) -> list[str]:
    """What is wrong with a tablet given in a position (empty when it holds)."""
    found = []
    if len(tablet.numbers) != RING + 1 or len(tablet.up) != RING + 1:
        return [f"'numbers' and 'up' need {RING + 1} entries (the centre, then slots 1 to {RING})"]
    if tablet.empty not in SLOTS:
        found.append(f"'empty' must be a slot from 0 to {RING}, got {tablet.empty}")
    known = [n for n in tablet.numbers if n is not None]
    if len(set(known)) != len(known) or not all(1 <= n <= RING for n in known):
        found.append(f"each scarab 1 to {RING} lies in one slot only")
    if tablet.empty in SLOTS and (tablet.numbers[tablet.empty] is not None or tablet.up[tablet.empty]):
        found.append("the empty slot holds no scarab")
    if any(tablet.up[s] and tablet.numbers[s] is None for s in SLOTS if s != tablet.empty):
        found.append("a face-up scarab shows its number")
    return found


def solved(tablet: Tablet) -> bool:
    return all(tablet.numbers[s] == s and tablet.up[s] for s in range(1, RING + 1))


def in_place(tablet: Tablet) -> int:
    return sum(1 for s in range(1, RING + 1) if tablet.numbers[s] == s and tablet.up[s])


def moves(tablet: Tablet) -> list[str]:
    """Every legal move: ``flip:S`` (turn the scarab in slot S face up), ``slide:S`` (slide it into
    the empty slot), in slot order."""
    flips = [f"flip:{s}" for s in SLOTS if s != tablet.empty and not tablet.up[s]]
    slides = [f"slide:{s}" for s in SLOTS if s != tablet.empty and tablet.up[s] and touching(s, tablet.empty)]
    return flips + slides


def parse_move(move: str) -> tuple[str, int]:
    kind, _, slot = move.partition(":")
    if kind not in ("flip", "slide") or not slot.isdigit() or int(slot) not in SLOTS:
        raise IllegalInput(f"a tablet move is 'flip:SLOT' or 'slide:SLOT' (slots 0 to {RING}), not {move!r}")
    return kind, int(slot)


def check(tablet: Tablet, move: str) -> tuple[str, int]:
    """The move, refused with the reason when the scarabs do not allow it."""
    kind, slot = parse_move(move)
    if slot == tablet.empty:
        raise IllegalInput(f"slot {slot} is empty: there is no scarab to move")
    if kind == "flip" and tablet.up[slot]:
        raise IllegalInput(f"the scarab in slot {slot} is face up already")
    if kind == "slide" and not tablet.up[slot]:
        raise IllegalInput(f"the scarab in slot {slot} is face down: turn it face up before it slides")
    if kind == "slide" and not touching(slot, tablet.empty):
        raise IllegalInput(f"slot {slot} is not next to the empty slot {tablet.empty}: only a scarab next to it slides")
    return kind, slot


def slide(tablet: Tablet, slot: int) -> int:
    """Slide the scarab of ``slot`` into the empty slot; returns where it went."""
    to = tablet.empty
    tablet.numbers[to], tablet.up[to] = tablet.numbers[slot], True
    tablet.numbers[slot], tablet.up[slot] = None, False
    tablet.empty = slot
    return to


def slot_name(slot: int) -> str:
    return "the centre" if slot == CENTRE else f"slot {slot}"
