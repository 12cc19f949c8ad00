"""Dracula: smash his four coffins with red items, then overcome him with yellow ones; his
Power pulls the current hero into his space.

The coffins are tokens on the board (one at each coffin place); a smashed one leaves it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.games.datafiles import Node, unique
from companion.games.horrified_core.challenge import check_items, items_named, spend
from companion.games.horrified_core.context import Character, Figure, GameContext
from companion.games.horrified_core.monsters import Action, ActionDict, MonsterLook, View
from companion.games.horrified_core.movement import move_character
from companion.games.horrified_core.packdata import Known, location
from companion.games.horrified_core.pack_types import MAIN_BOARD
from companion.games.horrified_core.state import MATS, Mat

from .base import Challenge, OriginalMonster, enough, moved_challenge, parse_challenge, reach, say_check
from .registry import REGISTRY

COFFINS = 4


@dataclass(frozen=True)
class DraculaDetails:
    coffins: tuple[str, ...]
    coffin: Challenge  # red items of strength 6 at a coffin smash it
    defeat: Challenge  # yellow items of strength 6 in his space


@MATS.member
@dataclass
class DraculaMat(Mat):
    kind: str = "dracula"
    smashed: list[str] = field(default_factory=list)  # coffin places whose coffin is smashed


def parse_details(node: Node, known: Known) -> DraculaDetails:
    node.fields("coffins", "coffin", "defeat")
    listing = node.child("coffins")
    nodes = listing.elements()
    coffins = tuple(location(one, known, MAIN_BOARD) for one in nodes)
    unique(nodes, coffins, "coffin place")
    if isinstance(listing.value, list) and len(coffins) != COFFINS:
        listing.fail(f"Dracula has {COFFINS} coffins, found {len(coffins)}")
    return DraculaDetails(coffins, parse_challenge(node.child("coffin"), known), parse_challenge(node.child("defeat"), known))


@REGISTRY.register
class DraculaRules(OriginalMonster[DraculaDetails]):
    id = "dracula"
    details_type = DraculaDetails
    look = MonsterLook("reddish purple", "slow breathing")
    parse_details = staticmethod(parse_details)

    def new_mat(self) -> DraculaMat:
        return DraculaMat()

    def mat(self, ctx: GameContext) -> DraculaMat:
        return self.mat_of(ctx, DraculaMat)

    def standing(self, ctx: GameContext) -> list[str]:
        """The coffin places whose coffin is not smashed yet, in the mat's order."""
        smashed = set(self.mat(ctx).smashed)
        return [place for place in self.details.coffins if place not in smashed]

    # -- the mixed game's places -------------------------------------------------------------------
    def special_places(self) -> dict[str, str]:
        return {f"coffin-{n + 1}": place for n, place in enumerate(self.details.coffins)}

    @classmethod
    def moved_details(cls, details: DraculaDetails, places: Mapping[str, str],
                      types: Mapping[str, str]) -> DraculaDetails:
        coffins = tuple(places.get(f"coffin-{n + 1}", place) for n, place in enumerate(details.coffins))
        return replace(details, coffins=coffins, coffin=moved_challenge(details.coffin, types),
                       defeat=moved_challenge(details.defeat, types))

    # -- the Power: pulled to him ---------------------------------------------------------------------
    def power(self, ctx: GameContext, figure: Figure, target: Character) -> Flow[None]:
        """The current hero is put in Dracula's space (if on the board, and not there already)."""
        here, hero = self.here(ctx), ctx.state.active_hero
        if here is None or hero.location is None or hero.location == here:
            ctx.emit("note", f"Dracula's Power: {ctx.hero_name(hero.id)} is {'with him already' if hero.location else 'off the board'}.",
                     hero=hero.id)
            return
        ctx.emit("figure-moved", f"Dracula's Power: move {ctx.hero_name(hero.id)} from {ctx.place_name(hero.location)} "
                 f"to {ctx.place_name(here)}.", figure=ctx.hero_name(hero.id), path=[hero.location, here])
        yield from move_character(ctx, Character("hero", hero.id), here)

    # -- the task: the coffins ---------------------------------------------------------------------------
    def advance_kinds(self) -> tuple[str, ...]:
        return ("coffin",)

    def advance(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> Flow[None]:
        self.step_of(action)
        place = ctx.state.heroes[hero_id].location
        if place not in self.standing(ctx):
            raise IllegalInput(f"there is no coffin left to smash at {ctx.place_name(place)} (coffins stand at "
                               f"{', '.join(ctx.place_name(p) for p in self.standing(ctx)) or 'no place now'})")
        goal = self.details.coffin
        items = check_items(ctx, hero_id, items_named(action), goal.type)
        reach(ctx, items, goal, "Smashing a coffin")
        say_check(ctx, "advance", "smash the coffin", items, goal)
        spend(ctx, items, f"spent to smash the coffin at {ctx.place_name(place)}")
        self.mat(ctx).smashed.append(str(place))
        ctx.emit("coffin-smashed", f"The coffin at {ctx.place_name(place)} is smashed: take it off the board "
                 f"({len(self.mat(ctx).smashed)} of {COFFINS}).", monster=self.id, location=place)
        return
        yield

    def advance_options(self, ctx: GameContext, hero_id: str, distanced: bool) -> list[ActionDict]:
        if ctx.state.heroes[hero_id].location not in self.standing(ctx):
            return []
        sets = enough(ctx, ctx.state.heroes[hero_id].items, self.details.coffin)
        return [self.advance_action("coffin", items=s) for s in sets]

    # -- the Defeat ---------------------------------------------------------------------------------------
    def task_done(self, ctx: GameContext) -> bool:
        return not self.standing(ctx)

    def task_left(self, ctx: GameContext) -> str:
        return f"smash the coffins at {', '.join(ctx.place_name(p) for p in self.standing(ctx))}"

    def defeat_goal(self) -> Challenge:
        return self.details.defeat

    # -- what the table sees ---------------------------------------------------------------------------------
    def mat_view(self, ctx: GameContext) -> View:
        mat = self.mat(ctx)
        left = self.standing(ctx)
        line = (f"Coffins smashed: {len(mat.smashed)} of {COFFINS}; still standing at "
                f"{', '.join(ctx.place_name(p) for p in left)}" if left else "Every coffin is smashed: defeat him now.")
        return {"lines": [line], "smashed": list(mat.smashed), "coffins": list(self.details.coffins)}

    def board_figures(self, ctx: GameContext) -> list[View]:
        return [{"kind": "coffin", "id": place, "location": place, "name": "Coffin"} for place in self.standing(ctx)]

