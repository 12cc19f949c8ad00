"""How each question of a Monster Phase branches, for the forecast.

A question the table answers by chance (the Monster card turned up, the item pulled from
the bag, the dice) is a *chance* node: every answer with the chance it has on the table.
A question the active player answers is a *choice* node: every answer, each with the
chance a player choosing at random would give it (the random policy of
``companion.engine.randomsource``), so the forecast can give the best, the worst and the
random-choice value. Whether a hit hero discards items is neither: the forecast follows
both ways (``DEFEND``), so it can say how likely a defeat is with and without discarding.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from math import comb, factorial, prod
from typing import Literal

from companion.engine.dice import DiceKinds, FaceValue
from companion.engine.prompts import Option, Prompt

from ..monster_phase import ENTER_CARD

NodeKind = Literal["chance", "choice", "defend", "by-hand"]
#: The defend question's answer that spends items, and the one that takes the hits.
DISCARD, FALL = "discard", "fall"


@dataclass(frozen=True)
class Branch:
    """One answer and its chance (chance nodes) or its random-choice weight (choice nodes)."""

    answer: object
    weight: float


@dataclass(frozen=True)
class Node:
    kind: NodeKind
    branches: tuple[Branch, ...]


def node_for(prompt: Prompt, dice: DiceKinds) -> Node:
    """The node ``prompt`` is in the forecast's tree."""
    if prompt.kind == "roll":
        return Node("chance", roll_branches(prompt, dice))
    if prompt.kind == "draw":
        return Node("chance", draw_branches(prompt))
    if prompt.kind == "pick":
        return Node("choice", pick_branches(prompt))
    if prompt.kind == "choice" and prompt.key == "defend":
        return Node("defend", tuple(Branch(o.id, 1.0) for o in prompt.options if o.id in (DISCARD, FALL)))
    if prompt.kind == "choice":
        share = 1.0 / len(prompt.options)
        return Node("choice", tuple(Branch(o.id, share) for o in prompt.options))
    return Node("by-hand", (Branch({"action": "done", "changes": []}, 1.0),))


def copies(option: Option) -> int:
    """How many cards or tokens on the table one offered answer stands for."""
    found = option.data.get("copies", 1)
    return found if isinstance(found, int) and found > 0 else 1


def draw_branches(prompt: Prompt) -> tuple[Branch, ...]:
    """Each card or token left is as likely as the others; copies of one are one answer.
    "My card is not in the list" is not a card: the forecast plays the deck as listed."""
    drawn = [o for o in prompt.options if o.id != ENTER_CARD]
    total = sum(copies(o) for o in drawn)
    return tuple(Branch(o.id, copies(o) / total) for o in drawn)


def roll_branches(prompt: Prompt, dice: DiceKinds) -> tuple[Branch, ...]:
    """The faces rolled, as a multiset: each die's sides equally likely (repeats count)."""
    if prompt.die is None:
        raise ValueError(f"the roll {prompt.key!r} names no die")
    sides = Counter(dice[prompt.die].sides)
    total = len(dice[prompt.die].sides) ** prompt.count
    faces = sorted(sides, key=str)
    return tuple(Branch(tuple(rolled), float(_ways(rolled, sides)) / total)
                 for rolled in combinations_with_replacement(faces, prompt.count))


def _ways(rolled: tuple[FaceValue, ...], sides: Counter[FaceValue]) -> int:
    """In how many orders, over which sides, the dice show ``rolled``."""
    shown = Counter(rolled)
    orders = factorial(len(rolled)) // prod(factorial(n) for n in shown.values())
    over_sides = 1
    for face, times in shown.items():
        over_sides *= sides[face] ** times
    return orders * over_sides


def pick_branches(prompt: Prompt) -> tuple[Branch, ...]:
    """Every allowed set; at random, a size first (each as likely), then a set of that size."""
    ids = [o.id for o in prompt.options]
    sizes = range(prompt.min_picks, prompt.max_picks + 1)
    return tuple(Branch(chosen, 1.0 / len(sizes) / comb(len(ids), size))
                 for size in sizes for chosen in combinations(ids, size))
