"""The Wolf Man: make the cure at the Laboratory (blue items of the strengths its slots print,
laid on his mat), then give it to him with red items; his Power strikes everyone with him.
His Event, The Hunt Is On, marks a hero he hunts from then on.

A cure slot takes an item of exactly its strength, as printed (the Scientist's ability adds to
sums, not to what a token shows).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.games.datafiles import Node
from companion.games.horrified_core.attack import land_hits, spared
from companion.games.horrified_core.challenge import check_items, items_named
from companion.games.horrified_core.context import Character, Figure, GameContext
from companion.games.horrified_core.monsters import Action, ActionDict, MonsterLook, View
from companion.games.horrified_core.movement import move_toward_location
from companion.games.horrified_core.packdata import Known, item_type, location
from companion.games.horrified_core.pack_types import MAIN_BOARD
from companion.games.horrified_core.state import MATS, Mat

from .base import Challenge, OriginalMonster, moved_challenge, parse_challenge
from .registry import REGISTRY


@dataclass(frozen=True)
class WolfDetails:
    cure_at: str
    cure_type: str
    cure: tuple[int, ...]  # the strength each slot of the cure takes
    defeat: Challenge
    hunt_steps: int


@MATS.member
@dataclass
class WolfMat(Mat):
    kind: str = "wolf-man"
    cure: list[str] = field(default_factory=list)  # items laid on the cure
    hunted: str | None = None  # the hero The Hunt Is On marked


def parse_details(node: Node, known: Known) -> WolfDetails:
    node.fields("cure_at", "cure_type", "cure", "defeat", "hunt_steps")
    listing = node.child("cure")
    slots = tuple(one.integer(1, 6) for one in listing.elements())
    if isinstance(listing.value, list) and not slots:
        listing.fail("the cure needs at least one slot")
    return WolfDetails(location(node.child("cure_at"), known, MAIN_BOARD), item_type(node.child("cure_type"), known), slots,
                       parse_challenge(node.child("defeat"), known), node.child("hunt_steps").integer(1, 6))


@REGISTRY.register
class WolfManRules(OriginalMonster[WolfDetails]):
    id = "wolf-man"
    details_type = WolfDetails
    look = MonsterLook("orange", "marching chase")
    parse_details = staticmethod(parse_details)

    def new_mat(self) -> WolfMat:
        return WolfMat()

    def mat(self, ctx: GameContext) -> WolfMat:
        return self.mat_of(ctx, WolfMat)

    def mat_items(self, mat: Mat) -> list[str]:
        assert isinstance(mat, WolfMat)
        return list(mat.cure)

    def on_defeated(self, ctx: GameContext) -> None:
        """The cure's items were discarded by ``defeat_monster``: the mat holds none now."""
        self.mat(ctx).cure.clear()

    def open_slots(self, ctx: GameContext) -> Counter[int]:
        laid = Counter(ctx.pack.item(i).strength for i in self.mat(ctx).cure)
        return Counter(self.details.cure) - laid

    def special_places(self) -> dict[str, str]:
        return {"cure": self.details.cure_at}

    @classmethod
    def moved_details(cls, details: WolfDetails, places: Mapping[str, str], types: Mapping[str, str]) -> WolfDetails:
        return replace(details, cure_at=places.get("cure", details.cure_at),
                       cure_type=types.get(details.cure_type, details.cure_type), defeat=moved_challenge(details.defeat, types))

    # -- the Power: everyone with him is hit ---------------------------------------------------------------
    def power(self, ctx: GameContext, figure: Figure, target: Character) -> Flow[None]:
        """One hit on every hero (each answers it) and every villager in his space; a hero no monster
        may attack this turn is passed over."""
        here = self.here(ctx)
        if here is None:
            return
        ctx.emit("power", f"The Wolf Man's Power: everyone at {ctx.place_name(here)} is hit once.", monster=self.id,
                 location=here)
        for who in ctx.characters_at(here):
            if not spared(ctx, who) and ctx.character_location(who) == here:
                yield from land_hits(ctx, who, 1)

    # -- his Event: the hunt --------------------------------------------------------------------------------
    def hunt(self, ctx: GameContext, steps: int) -> Flow[None]:
        mat = self.mat(ctx)
        if mat.hunted is None:
            mat.hunted = ctx.active_player
            ctx.emit("hunted", f"The Wolf Man hunts {ctx.hero_name(mat.hunted)} from now on.", monster=self.id,
                     hero=mat.hunted)
        prey = ctx.state.heroes[mat.hunted].location
        if prey is None:
            ctx.emit("note", f"{ctx.hero_name(mat.hunted)} is off the board: the Wolf Man stays.", monster=self.id)
            return
        yield from move_toward_location(ctx, Figure(self.id), prey, steps)

    # -- the task: the cure ---------------------------------------------------------------------------------------
    def advance_kinds(self) -> tuple[str, ...]:
        return ("cure",)

    def advance(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> Flow[None]:
        self.step_of(action)
        if ctx.state.heroes[hero_id].location != self.details.cure_at:
            raise IllegalInput(f"the cure is made at {ctx.place_name(self.details.cure_at)}")
        items = check_items(ctx, hero_id, items_named(action), self.details.cure_type)
        wanted = Counter(ctx.pack.item(i).strength for i in items)
        if wanted - self.open_slots(ctx):
            open_ones = ", ".join(map(str, sorted(self.open_slots(ctx).elements()))) or "none"
            raise IllegalInput(f"the cure's open slots take strengths {open_ones}; these items do not fit them")
        for item in items:
            ctx.state.heroes[hero_id].items.remove(item)
            self.mat(ctx).cure.append(item)
            ctx.emit("item-on-mat", f"Put the {ctx.pack.item(item).name} on the Wolf Man's cure.", monster=self.id,
                     item=item, part=ctx.pack.item(item).strength, bonus=0)
        return
        yield

    def advance_options(self, ctx: GameContext, hero_id: str, distanced: bool) -> list[ActionDict]:
        if ctx.state.heroes[hero_id].location != self.details.cure_at:
            return []
        room, fitting = self.open_slots(ctx), []
        for item in ctx.state.heroes[hero_id].items:
            strength = ctx.pack.item(item).strength
            if ctx.pack.item(item).type == self.details.cure_type and room[strength] > 0:
                room[strength] -= 1
                fitting.append(item)
        return [self.advance_action("cure", items=fitting)] if fitting else []

    # -- the Defeat -------------------------------------------------------------------------------------------------------
    def task_done(self, ctx: GameContext) -> bool:
        return not self.open_slots(ctx)

    def task_left(self, ctx: GameContext) -> str:
        left = ", ".join(map(str, sorted(self.open_slots(ctx).elements())))
        return f"make the cure at {ctx.place_name(self.details.cure_at)} (still needed: strengths {left})"

    def defeat_goal(self) -> Challenge:
        return self.details.defeat

    def mat_view(self, ctx: GameContext) -> View:
        mat = self.mat(ctx)
        left = sorted(self.open_slots(ctx).elements())
        lines = [f"Cure: {len(mat.cure)} of {len(self.details.cure)} slots"
                 + (f" (still strengths {', '.join(map(str, left))})" if left else ": ready to give him")]
        if mat.hunted:
            lines.append(f"Hunting {ctx.hero_name(mat.hunted)}")
        return {"lines": lines, "cure": list(mat.cure), "hunted": mat.hunted}
