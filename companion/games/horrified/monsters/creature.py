"""The Creature from the Black Lagoon: find its lair (a boat moved along a path of steps on its
mat), then drive it away with one red, one yellow and one blue item. It swims: the water ways
are open to it alone (its ``mover``). Its Power pushes the boat back one step.

How items move the boat is in no source we have, so this is our reading, in the data where
the owner can change it: at the task's place (the Docks), each item spent moves the boat one
step per point of strength, stopping early at a step printed in another colour (steps the
data leaves without a colour take any item).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.games.datafiles import Node
from companion.games.horrified_core.challenge import check_items, items_named, spend
from companion.games.horrified_core.context import Character, Figure, GameContext
from companion.games.horrified_core.monsters import Action, ActionDict, MonsterLook, View, defeat_monster
from companion.games.horrified_core.packdata import Known, item_type, location
from companion.games.horrified_core.pack_types import MAIN_BOARD
from companion.games.horrified_core.state import MATS, Mat

from .base import OriginalMonster, item_bonus_of
from .registry import REGISTRY

SWIMMER = "creature"


@dataclass(frozen=True)
class CreatureDetails:
    task_at: str
    path: tuple[str | None, ...]  # each step's colour (None: any item)
    defeat: tuple[str, ...]  # one item of each of these colours


@MATS.member
@dataclass
class CreatureMat(Mat):
    kind: str = "creature"
    boat: int = 0  # steps the boat has gone along the path


def _step(node: Node, known: Known) -> str | None:
    return None if node.value is None else item_type(node, known)


def parse_details(node: Node, known: Known) -> CreatureDetails:
    node.fields("task_at", "path", "defeat")
    listing, defeat = node.child("path"), node.child("defeat")
    path = tuple(_step(one, known) for one in listing.elements())
    if isinstance(listing.value, list) and not path:
        listing.fail("the lair path needs at least one step")
    colours = tuple(item_type(one, known) for one in defeat.elements())
    if isinstance(defeat.value, list) and not colours:
        defeat.fail("name the item colours its Defeat takes")
    return CreatureDetails(location(node.child("task_at"), known, MAIN_BOARD), path, colours)


@REGISTRY.register
class CreatureRules(OriginalMonster[CreatureDetails]):
    id = "creature"
    mover = SWIMMER
    details_type = CreatureDetails
    look = MonsterLook("blue", "slow breathing")
    parse_details = staticmethod(parse_details)

    def new_mat(self) -> CreatureMat:
        return CreatureMat()

    def mat(self, ctx: GameContext) -> CreatureMat:
        return self.mat_of(ctx, CreatureMat)

    def special_places(self) -> dict[str, str]:
        return {"boat": self.details.task_at}

    @classmethod
    def moved_details(cls, details: CreatureDetails, places: Mapping[str, str],
                      types: Mapping[str, str]) -> CreatureDetails:
        path = tuple(None if step is None else types.get(step, step) for step in details.path)
        return replace(details, task_at=places.get("boat", details.task_at), path=path,
                       defeat=tuple(types.get(c, c) for c in details.defeat))

    def power(self, ctx: GameContext, figure: Figure, target: Character) -> Flow[None]:
        """The boat drifts one step back (not before the start; a found lair stays found)."""
        mat = self.mat(ctx)
        if mat.boat == 0 or self.task_done(ctx):
            ctx.emit("note", "The Creature's Power: the boat does not move.", monster=self.id)
            return
        mat.boat -= 1
        ctx.emit("boat-moved", f"The Creature's Power: move the boat back to step {mat.boat} of {len(self.details.path)}.",
                 monster=self.id, step=mat.boat)
        return
        yield

    # -- the task: the boat ----------------------------------------------------------------------------------
    def advance_kinds(self) -> tuple[str, ...]:
        return ("boat",)

    def advance(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> Flow[None]:
        self.step_of(action)
        if self.task_done(ctx):
            raise IllegalInput("the lair is found already: drive the Creature away now")
        if ctx.state.heroes[hero_id].location != self.details.task_at:
            raise IllegalInput(f"the boat sets out from {ctx.place_name(self.details.task_at)}")
        items = check_items(ctx, hero_id, items_named(action))
        start = self.mat(ctx).boat
        end = self._sail(ctx, items, start)
        if end == start:
            raise IllegalInput(f"the boat's next step is {self.details.path[start]}: these items cannot move it")
        spend(ctx, items, "spent to move the boat")
        self.mat(ctx).boat = end
        found = " The lair is found!" if self.task_done(ctx) else ""
        ctx.emit("boat-moved", f"Move the boat from step {start} to step {end} of {len(self.details.path)}.{found}",
                 monster=self.id, step=end)
        return
        yield

    def _sail(self, ctx: GameContext, items: list[str], boat: int) -> int:
        """Where the items take the boat: each one a step per point of strength, while the steps take its colour."""
        bonus = item_bonus_of(ctx)
        for item in items:
            token = ctx.pack.item(item)
            for _ in range(token.strength + bonus):
                if boat >= len(self.details.path) or self.details.path[boat] not in (None, token.type):
                    break
                boat += 1
        return boat

    def advance_options(self, ctx: GameContext, hero_id: str, distanced: bool) -> list[ActionDict]:
        if self.task_done(ctx) or ctx.state.heroes[hero_id].location != self.details.task_at:
            return []
        held = ctx.state.heroes[hero_id].items
        moving = [i for i in held if self._sail(ctx, [i], self.mat(ctx).boat) > self.mat(ctx).boat]
        return [self.advance_action("boat", items=list(held))] if moving else []

    # -- the Defeat: one item of each colour --------------------------------------------------------------------
    def task_done(self, ctx: GameContext) -> bool:
        return self.mat(ctx).boat >= len(self.details.path)

    def task_left(self, ctx: GameContext) -> str:
        return f"find the lair (the boat is at step {self.mat(ctx).boat} of {len(self.details.path)})"

    def defeat_options(self, ctx: GameContext, hero_id: str) -> list[ActionDict]:
        if self.defeat_blocker(ctx, hero_id):
            return []
        chosen: dict[str, str] = {}
        for item in sorted(ctx.state.heroes[hero_id].items):
            chosen.setdefault(ctx.pack.item(item).type, item)
        wanted = [chosen.get(colour) for colour in self.details.defeat]
        return [self.defeat_action([w for w in wanted if w])] if all(wanted) else []

    def defeat(self, ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
        blocker = self.defeat_blocker(ctx, hero_id)
        if blocker:
            raise IllegalInput(blocker)
        items = check_items(ctx, hero_id, items_named(action))
        if Counter(ctx.pack.item(i).type for i in items) != Counter(self.details.defeat):
            raise IllegalInput(f"driving the Creature away takes one item of each of {', '.join(self.details.defeat)}")
        spend(ctx, items, "spent to drive the Creature away")
        defeat_monster(ctx, self.id)
        return
        yield

    def mat_view(self, ctx: GameContext) -> View:
        mat, steps = self.mat(ctx), len(self.details.path)
        line = "The lair is found: drive the Creature away." if self.task_done(ctx) else f"The boat: step {mat.boat} of {steps}"
        return {"lines": [line], "boat": mat.boat, "path": list(self.details.path)}
