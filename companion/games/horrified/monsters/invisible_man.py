"""The Invisible Man: bring the police evidence of him (an item from each of five places,
delivered at the Precinct onto his mat), then trap him with red items; his Power stalks
the closest villager.

An evidence item is any item whose printed place is one of the five still missing; one
Advance may deliver several, one per place. They lie on his mat until he is defeated.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.prompts import Option
from companion.games.datafiles import Node, unique
from companion.games.horrified_core.attack import defeat_villager
from companion.games.horrified_core.challenge import check_items, items_named
from companion.games.horrified_core.context import Character, Figure, GameContext
from companion.games.horrified_core.monsters import Action, ActionDict, MonsterLook, View
from companion.games.horrified_core.movement import choose_path, walk_monster
from companion.games.horrified_core.packdata import Known, location
from companion.games.horrified_core.pack_types import MAIN_BOARD
from companion.games.horrified_core.state import MATS, Mat

from .base import Challenge, OriginalMonster, moved_challenge, parse_challenge
from .registry import REGISTRY


@dataclass(frozen=True)
class InvisibleDetails:
    evidence: tuple[str, ...]  # the places an item of each must come from
    delivery: str  # where the evidence is handed in (the Precinct)
    defeat: Challenge
    power_steps: int
    kills_first: bool  # his Power first kills a villager already with him (a course's version)


@MATS.member
@dataclass
class InvisibleMat(Mat):
    kind: str = "invisible-man"
    evidence: dict[str, str] = field(default_factory=dict)  # place -> the item from there on his mat


def parse_details(node: Node, known: Known) -> InvisibleDetails:
    node.fields("evidence", "delivery", "defeat", "power_steps", "kills_first")
    listing = node.child("evidence")
    nodes = listing.elements()
    places = tuple(location(one, known, MAIN_BOARD) for one in nodes)
    unique(nodes, places, "evidence place")
    if isinstance(listing.value, list) and not places:
        listing.fail("name at least one place the evidence comes from")
    return InvisibleDetails(places, location(node.child("delivery"), known, MAIN_BOARD),
                            parse_challenge(node.child("defeat"), known), node.child("power_steps").integer(1, 6),
                            node.child("kills_first").flag())


@REGISTRY.register
class InvisibleManRules(OriginalMonster[InvisibleDetails]):
    id = "invisible-man"
    details_type = InvisibleDetails
    look = MonsterLook("sky blue", "double blink")
    parse_details = staticmethod(parse_details)

    def new_mat(self) -> InvisibleMat:
        return InvisibleMat()

    def mat(self, ctx: GameContext) -> InvisibleMat:
        return self.mat_of(ctx, InvisibleMat)

    def mat_items(self, mat: Mat) -> list[str]:
        assert isinstance(mat, InvisibleMat)
        return list(mat.evidence.values())

    def on_defeated(self, ctx: GameContext) -> None:
        """The evidence was discarded by ``defeat_monster``: the mat holds none now."""
        self.mat(ctx).evidence.clear()

    def missing(self, ctx: GameContext) -> list[str]:
        found = self.mat(ctx).evidence
        return [place for place in self.details.evidence if place not in found]

    # -- the mixed game's places -------------------------------------------------------------------------
    def special_places(self) -> dict[str, str]:
        places = {f"evidence-{n + 1}": place for n, place in enumerate(self.details.evidence)}
        return {**places, "delivery": self.details.delivery}

    @classmethod
    def moved_details(cls, details: InvisibleDetails, places: Mapping[str, str],
                      types: Mapping[str, str]) -> InvisibleDetails:
        evidence = tuple(places.get(f"evidence-{n + 1}", p) for n, p in enumerate(details.evidence))
        return replace(details, evidence=evidence, delivery=places.get("delivery", details.delivery),
                       defeat=moved_challenge(details.defeat, types))

    # -- the Power: stalking a villager ----------------------------------------------------------------------
    def power(self, ctx: GameContext, figure: Figure, target: Character) -> Flow[None]:
        here = self.here(ctx)
        if here is None:
            return
        if self.details.kills_first and ctx.state.villagers_at(here):
            yield from self._kill_one(ctx, here)
            return
        yield from self._stalk(ctx, here)

    def _kill_one(self, ctx: GameContext, here: str) -> Flow[None]:
        options = [Option(v.id, ctx.pack.villager(v.id).name) for v in ctx.state.villagers_at(here)]
        chosen = yield from ctx.choose("power-victim", "The Invisible Man's Power: which villager falls?", options)
        defeat_villager(ctx, chosen)

    def _stalk(self, ctx: GameContext, here: str) -> Flow[None]:
        """Up to ``power_steps`` spaces toward the closest villager, stopping when he reaches one."""
        dist = ctx.graph.distances(here, self.mover)
        places = sorted({str(v.location) for v in ctx.villagers_on_board() if v.location in dist},
                        key=lambda p: (dist[p], p))
        if not places:
            ctx.emit("monster-stays", "The Invisible Man's Power: no villager is on the board.", monster=self.id, location=here)
            return
        tied = [Option(p, ctx.place_name(p), {"location": p}) for p in places if dist[p] == dist[places[0]]]
        goal = yield from ctx.choose("move-toward", "Equally close villagers: which one does he stalk?", tied)
        path = yield from choose_path(ctx, Figure(self.id), here, goal, self.details.power_steps, self.mover)
        walk_monster(ctx, Figure(self.id), path, stop_at_characters=False)

    # -- the task: the evidence ------------------------------------------------------------------------------------
    def advance_kinds(self) -> tuple[str, ...]:
        return ("evidence",)

    def advance(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> Flow[None]:
        self.step_of(action)
        if ctx.state.heroes[hero_id].location != self.details.delivery:
            raise IllegalInput(f"evidence is handed in at {ctx.place_name(self.details.delivery)}")
        items = check_items(ctx, hero_id, items_named(action))
        places = [ctx.pack.item(i).location for i in items]
        wrong = [i for i, p in zip(items, places) if p not in self.missing(ctx)]
        if wrong or len(set(places)) != len(places):
            raise IllegalInput(f"evidence is one item from each of {', '.join(ctx.place_name(p) for p in self.missing(ctx))}"
                               f"; {', '.join(ctx.pack.item(i).name for i in wrong) or 'two items from one place'} will not do")
        for item, place in zip(items, places):
            ctx.state.heroes[hero_id].items.remove(item)
            self.mat(ctx).evidence[place] = item
            ctx.emit("item-on-mat", f"Put the {ctx.pack.item(item).name} on the Invisible Man's mat: evidence from "
                     f"{ctx.place_name(place)}.", monster=self.id, item=item, part=place, bonus=0)
        return
        yield

    def advance_options(self, ctx: GameContext, hero_id: str, distanced: bool) -> list[ActionDict]:
        if ctx.state.heroes[hero_id].location != self.details.delivery:
            return []
        chosen: dict[str, str] = {}
        for item in ctx.state.heroes[hero_id].items:
            where = ctx.pack.item(item).location
            if where in self.missing(ctx):
                chosen.setdefault(where, item)
        return [self.advance_action("evidence", items=list(chosen.values()))] if chosen else []

    # -- the Defeat -------------------------------------------------------------------------------------------------------
    def task_done(self, ctx: GameContext) -> bool:
        return not self.missing(ctx)

    def task_left(self, ctx: GameContext) -> str:
        return ("bring evidence from " + ", ".join(ctx.place_name(p) for p in self.missing(ctx))
                + f" to {ctx.place_name(self.details.delivery)}")

    def defeat_goal(self) -> Challenge:
        return self.details.defeat

    def mat_view(self, ctx: GameContext) -> View:
        found = self.mat(ctx).evidence
        line = f"Evidence: {len(found)} of {len(self.details.evidence)}" + (
            f"; still wanted from {', '.join(ctx.place_name(p) for p in self.missing(ctx))}" if self.missing(ctx) else
            ": trap him now")
        return {"lines": [line], "evidence": dict(found)}
