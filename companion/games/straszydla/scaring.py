"""The scaring test's arithmetic and the helper that shows its cheapest energy spends.

The test (rulebook, "Scaring"): roll as many dice as you have creatures, total them and
compare with the creatures' summed strength for this time of day; the help card's table
gives fear cubes for how far the total is from the strength. Each energy cube discarded
changes one die by 1 ("You may change a chosen die several times, paying the full cost
each time"), and whatever the result, each final 6 brings a horror cube and each final 1
returns one ("only the final number of sixes and ones counts").

So what a player wants to know, looking at the dice, is: for each row of the table, the
fewest energy cubes that reach it, and what that does to the horror cubes (Syla's
example pays one cube more to lift a 1 and keep a horror cube). ``spends`` answers that
for every row at once, exactly: a search over the final faces, die by die, keeping for
each (total, sixes - ones) the cheapest way there. The tests hold it equal to trying every
final face of every die.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .packdata import ScareRow

FACES = range(1, 7)


@dataclass(frozen=True)
class Spend:
    """One way to finish the test: the final dice, the energy they cost, the fear cubes the
    table gives for them and the horror cubes they gain (negative: return)."""

    dice: tuple[int, ...]
    cost: int
    total: int
    cubes: int
    horror: int

    def to_plain(self) -> dict[str, object]:
        return {"dice": list(self.dice), "cost": self.cost, "total": self.total, "cubes": self.cubes,
                "horror": self.horror}


def horror_of(dice: Sequence[int]) -> int:
    return sum(1 for d in dice if d == 6) - sum(1 for d in dice if d == 1)


def cost_of(rolled: Sequence[int], final: Sequence[int]) -> int:
    return sum(abs(a - b) for a, b in zip(rolled, final))


def cubes_for(rows: Sequence[ScareRow], total: int, strength: int) -> int:
    difference = total - strength
    return next((row.cubes for row in rows if row.holds(difference)), 0)


def _reachable(rolled: Sequence[int]) -> dict[tuple[int, int], tuple[int, tuple[int, ...]]]:
    """(total, horror) -> the cheapest final dice reaching it (cost, dice); ties: the dice
    closest to the roll die by die, then the lowest faces, so the answer never depends on chance."""
    best: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {(0, 0): (0, ())}
    for die in rolled:
        grown: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        for (total, horror), (cost, faces) in best.items():
            for face in FACES:
                key = (total + face, horror + (face == 6) - (face == 1))
                value = (cost + abs(face - die), faces + (face,))
                if key not in grown or value < grown[key]:
                    grown[key] = value
        best = grown
    return best


def spends(rolled: Sequence[int], strength: int, rows: Sequence[ScareRow]) -> dict[str, list[Spend]]:
    """For each row of the table (by id, in the table's order, and ``"none"`` for a total the
    table gives nothing for): the ways to reach it worth taking, cheapest first. A dearer way
    is listed only when it ends with more horror cubes than every cheaper one."""
    reachable = _reachable(rolled)
    found: dict[str, list[Spend]] = {}
    for key in [row.id for row in rows] + ["none"]:
        options = sorted(_ways(reachable, strength, rows, key), key=lambda s: (s.cost, -s.horror, s.dice))
        found[key] = _worth_taking(options)
    return found


def _ways(reachable: dict[tuple[int, int], tuple[int, tuple[int, ...]]], strength: int, rows: Sequence[ScareRow],
          key: str) -> list[Spend]:
    ways = []
    for (total, horror), (cost, dice) in reachable.items():
        row = next((r for r in rows if r.holds(total - strength)), None)
        if (row.id if row else "none") == key:
            ways.append(Spend(dice, cost, total, row.cubes if row else 0, horror))
    return ways


def _worth_taking(options: list[Spend]) -> list[Spend]:
    kept: list[Spend] = []
    for option in options:
        if not kept or option.horror > max(k.horror for k in kept):
            kept.append(option)
    return kept


def cheapest(rolled: Sequence[int], strength: int, rows: Sequence[ScareRow]) -> dict[str, int | None]:
    """The fewest energy cubes that reach each row (None: no final dice reach it)."""
    return {key: (ways[0].cost if ways else None) for key, ways in spends(rolled, strength, rows).items()}


__all__ = ["Spend", "cheapest", "cost_of", "cubes_for", "horror_of", "spends"]
