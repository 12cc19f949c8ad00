"""What the six monsters of the original box share: a task checked by the items' strength
alone (no die), a Defeat of one colour at the monster's space, and the places and item
colours their mats name, which a mixed game maps onto another board (mixed.py).

Why the check is their own and not their edition's: these mats print a strength to
reach, not a roll to make. On their own board the edition checks it the same way; on
another edition's board (a mixed game) the monster keeps its own check, so Dracula's
coffins still need red items of strength 6 however that board rolls its dice
(docs/horrified.md, "Mixed games").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Generic, Mapping, TypeVar

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.games.datafiles import Node
from companion.games.horrified_core.challenge import away_from, by_strength, check_items, items_named, spend
from companion.games.horrified_core.context import GameContext
from companion.games.horrified_core.monsters import Action, ActionDict, MonsterRules, defeat_monster
from companion.games.horrified_core.packdata import Known, item_type, target

from ..pack_types import board_of, item_bonus
from ..pack_types import BoardData as OriginalBoard

D = TypeVar("D")


@dataclass(frozen=True)
class Challenge:
    """Items of one colour (``type``) whose strengths add up to ``target`` at least."""

    type: str
    target: int


def parse_challenge(node: Node, known: Known) -> Challenge:
    node.fields("type", "target")
    return Challenge(item_type(node.child("type"), known), target(node, "target"))


def item_bonus_of(ctx: GameContext) -> int:
    """What the active hero's ability adds to each item they use (the Scientist: one)."""
    return item_bonus(ctx.pack, ctx.active_player)


def strength_of(ctx: GameContext, items: list[str]) -> int:
    """The items' printed strengths, each one more for a hero whose ability says so (the Scientist)."""
    bonus = item_bonus_of(ctx)
    return sum(ctx.pack.item(i).strength + bonus for i in items)


def reach(ctx: GameContext, items: list[str], goal: Challenge, what: str) -> None:
    """Refuse a set that falls short: with no die to roll, items that cannot reach the target are
    never spent (the action is simply not possible)."""
    total = strength_of(ctx, items)
    if total < goal.target:
        raise IllegalInput(f"{what} takes {goal.type} items of strength {goal.target} or more; "
                           f"these add up to {total}")


def say_check(ctx: GameContext, key: str, what: str, items: list[str], goal: Challenge) -> None:
    total = strength_of(ctx, items)
    ctx.emit("check", f"Strength {total} of the {goal.target} needed to {what}: done.", key=key, value=total,
             total=total, target=goal.target, success=True)


def enough(ctx: GameContext, held: list[str], goal: Challenge) -> list[list[str]]:
    """A few sets of ``held`` that reach the goal: the fewest strongest items, and every item."""
    ranked = by_strength(ctx, [i for i in held if ctx.pack.item(i).type == goal.type], strongest_first=True)
    sets: list[list[str]] = []
    for count in range(1, len(ranked) + 1):
        if strength_of(ctx, ranked[:count]) >= goal.target:
            sets.append(ranked[:count])
            break
    if sets and len(sets[0]) < len(ranked):
        sets.append(ranked)
    return sets


class OriginalMonster(MonsterRules, Generic[D]):
    """A monster of the original box. ``details_type`` is its mat's record (``details``)."""

    details_type: ClassVar[type]

    @property
    def details(self) -> D:
        details = self.monster.details
        assert isinstance(details, self.details_type), f"{self.monster.name}'s pack entry needs its mat"
        return details  # type: ignore[return-value]

    # -- its mat's places and colours, for a mixed game ------------------------------------------
    def special_places(self) -> dict[str, str]:
        """The places its mat names, by role (``coffin-1``, ``delivery``): the start is the record's."""
        return {}

    @classmethod
    def moved_details(cls, details: D, places: Mapping[str, str], types: Mapping[str, str]) -> D:
        """Its mat's record with its places (by role) and item colours put on another board."""
        return details

    # -- the Power's order, the Defeat --------------------------------------------------------------
    def pow_first(self, ctx: GameContext) -> bool:
        """The owner's setting on this box's board; on another box's board, that edition's order."""
        board = ctx.pack.board
        return board.pow_first.value if isinstance(board, OriginalBoard) else True

    def defeat_goal(self) -> Challenge:
        raise NotImplementedError(f"{self.monster.name} has no Defeat of items")

    def task_done(self, ctx: GameContext) -> bool:
        return False

    def task_left(self, ctx: GameContext) -> str:
        """What of its task is still to do, in words (for the refusal of an early Defeat)."""
        return "its task"

    def defeat_roll(self) -> int | None:
        """The original's Defeat is items of enough strength, never a roll."""
        return None

    def defeat_blocker(self, ctx: GameContext, hero_id: str) -> str | None:
        if not self.task_done(ctx):
            return f"{self.monster.name} cannot be defeated yet: first {self.task_left(ctx)}"
        return away_from(ctx, hero_id, self.here(ctx), f"defeat {self.monster.name}")

    def defeat_options(self, ctx: GameContext, hero_id: str) -> list[ActionDict]:
        if self.defeat_blocker(ctx, hero_id):
            return []
        return [self.defeat_action(s) for s in enough(ctx, ctx.state.heroes[hero_id].items, self.defeat_goal())]

    def defeat(self, ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
        blocker = self.defeat_blocker(ctx, hero_id)
        if blocker:
            raise IllegalInput(blocker)
        goal = self.defeat_goal()
        items = check_items(ctx, hero_id, items_named(action), goal.type)
        what = f"defeat {self.monster.name}"
        reach(ctx, items, goal, what)
        say_check(ctx, "defeat", what, items, goal)
        spend(ctx, items, f"spent to {what}")
        defeat_monster(ctx, self.id)
        return
        yield


def moved_challenge(goal: Challenge, types: Mapping[str, str]) -> Challenge:
    return replace(goal, type=types.get(goal.type, goal.type))


def board_is_original(ctx: GameContext) -> bool:
    return isinstance(ctx.pack.board, OriginalBoard)


__all__ = ["Challenge", "OriginalMonster", "board_is_original", "board_of", "enough", "item_bonus_of", "moved_challenge",
           "parse_challenge", "reach", "say_check", "strength_of"]
