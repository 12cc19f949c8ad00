"""The Mummy: break the curse by solving the scarab tablet at the Museum (each yellow item spent
gives as many moves as its strength, each move asked and checked on its own), then return
him to his tomb with red items. His Power turns a face-up scarab face down; his Event,
Reincarnated Soul, gives a hero the Soul token and draws them toward him.

The scarabs lie face down at setup, so which one lies where is learnt only when it is turned
up: the players say which number it shows (among those its slot may hold at setup).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.graph import Graph
from companion.engine.prompts import Option, Prompt
from companion.games.datafiles import Node
from companion.games.horrified_core.arrivals import hero_arrives
from companion.games.horrified_core.challenge import check_items, items_named, spend
from companion.games.horrified_core.context import Character, Figure, GameContext
from companion.games.horrified_core.monsters import Action, ActionDict, MonsterLook, View
from companion.games.horrified_core.movement import choose_path
from companion.games.horrified_core.packdata import Known, item_type, location
from companion.games.horrified_core.pack_types import MAIN_BOARD
from companion.games.horrified_core.state import MATS, Mat

from . import scarabs
from .base import Challenge, OriginalMonster, moved_challenge, parse_challenge, strength_of
from .registry import REGISTRY
from .scarabs import RING, Tablet, slot_name

STOP = "stop"


@dataclass(frozen=True)
class MummyDetails:
    tablet_at: str
    tablet_type: str
    sides: tuple[tuple[int, ...], ...]  # for ring slots 1..6: the scarab numbers that may lie there at setup
    defeat: Challenge
    soul_steps: int


@MATS.member
@dataclass
class MummyMat(Mat, Tablet):
    kind: str = "mummy"
    soul: str | None = None  # the hero holding the Soul token
    broken: bool = False  # the tablet was solved: the curse is broken for good


def _side(node: Node) -> tuple[int, ...]:
    numbers = tuple(one.integer(1, RING) for one in node.elements())
    if isinstance(node.value, list) and not numbers:
        node.fail("a slot may hold at least one scarab number")
    return numbers


def parse_details(node: Node, known: Known) -> MummyDetails:
    node.fields("tablet_at", "tablet_type", "sides", "defeat", "soul_steps")
    listing = node.child("sides")
    sides = tuple(_side(one) for one in listing.elements())
    if isinstance(listing.value, list) and len(sides) != RING:
        listing.fail(f"the tablet has {RING} ring slots, found {len(sides)}")
    return MummyDetails(location(node.child("tablet_at"), known, MAIN_BOARD), item_type(node.child("tablet_type"), known),
                        sides, parse_challenge(node.child("defeat"), known), node.child("soul_steps").integer(1, 6))


@REGISTRY.register
class MummyRules(OriginalMonster[MummyDetails]):
    id = "mummy"
    details_type = MummyDetails
    look = MonsterLook("yellow", "steady")
    parse_details = staticmethod(parse_details)

    def new_mat(self) -> MummyMat:
        return MummyMat()

    def mat(self, ctx: GameContext) -> MummyMat:
        return self.mat_of(ctx, MummyMat)

    def mat_problems(self, mat: Mat, graph: Graph) -> list[str]:
        assert isinstance(mat, MummyMat)
        return scarabs.problems(mat)

    def special_places(self) -> dict[str, str]:
        return {"tablet": self.details.tablet_at}

    @classmethod
    def moved_details(cls, details: MummyDetails, places: Mapping[str, str], types: Mapping[str, str]) -> MummyDetails:
        return replace(details, tablet_at=places.get("tablet", details.tablet_at),
                       tablet_type=types.get(details.tablet_type, details.tablet_type),
                       defeat=moved_challenge(details.defeat, types))

    def setup(self, ctx: GameContext) -> Flow[None]:
        yield from super().setup(ctx)
        ctx.emit("mat-setup", "Lay the six scarabs face down on the tablet's ring, the centre empty "
                 f"({self._sides_text()}).", monster=self.id)

    def _sides_text(self) -> str:
        groups: dict[tuple[int, ...], list[int]] = {}
        for slot, numbers in enumerate(self.details.sides, start=1):
            groups.setdefault(numbers, []).append(slot)
        return "; ".join(f"scarabs {', '.join(map(str, numbers))} on slots {', '.join(map(str, slots))}"
                         for numbers, slots in groups.items())

    # -- the Power: a scarab turns face down -----------------------------------------------------------
    def power(self, ctx: GameContext, figure: Figure, target: Character) -> Flow[None]:
        """The active player picks which face-up scarab turns down; a solved tablet stays solved."""
        mat = self.mat(ctx)
        up = [s for s in scarabs.SLOTS if mat.up[s]]
        if self.task_done(ctx) or not up:
            ctx.emit("note", "The Mummy's Power: no scarab to turn face down" + (" (the curse is broken)." if self.task_done(ctx) else "."),
                     monster=self.id)
            return
        options = [Option(str(s), f"Scarab {mat.numbers[s]} in {slot_name(s)}") for s in up]
        chosen = int((yield from ctx.choose("scarab-down", "The Mummy's Power: which face-up scarab turns face down?",
                                            options)))
        mat.up[chosen] = False
        ctx.emit("scarab-down", f"Turn scarab {mat.numbers[chosen]} in {slot_name(chosen)} face down.", monster=self.id,
                 slot=chosen)

    # -- his Event: the Soul token ----------------------------------------------------------------------
    def soul(self, ctx: GameContext, steps: int) -> Flow[None]:
        mat = self.mat(ctx)
        if mat.soul is None:
            mat.soul = ctx.active_player
            ctx.emit("soul-token", f"{ctx.hero_name(mat.soul)} takes the Soul token.", monster=self.id, hero=mat.soul)
        hero, here = ctx.state.heroes[mat.soul], self.here(ctx)
        if hero.location is None or here is None or hero.location == here:
            return
        path = yield from choose_path(ctx, hero.location, here, steps)
        if len(path) < 2:
            return
        ctx.emit("hero-moved", f"Move {ctx.hero_name(hero.id)} from {ctx.place_name(path[0])} to "
                 f"{ctx.place_name(path[-1])}, toward the Mummy.", hero=hero.id, path=list(path), villagers=[])
        hero.location = path[-1]
        yield from hero_arrives(ctx, hero.id)

    # -- the task: the tablet -----------------------------------------------------------------------------
    def advance_kinds(self) -> tuple[str, ...]:
        return ("tablet",)

    def advance(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> Flow[None]:
        self.step_of(action)
        if self.task_done(ctx):
            raise IllegalInput("the tablet is solved already: the Mummy can be defeated now")
        if ctx.state.heroes[hero_id].location != self.details.tablet_at:
            raise IllegalInput(f"the tablet is worked at {ctx.place_name(self.details.tablet_at)}")
        items = check_items(ctx, hero_id, items_named(action), self.details.tablet_type)
        moves = strength_of(ctx, items)
        spend(ctx, items, "spent on the scarab tablet")
        ctx.emit("tablet-moves", f"{moves} move{'s' if moves != 1 else ''} on the scarab tablet.", monster=self.id,
                 moves=moves)
        yield from self._work(ctx, moves)

    def _work(self, ctx: GameContext, moves: int) -> Flow[None]:
        mat = self.mat(ctx)
        while moves > 0 and not scarabs.solved(mat):
            answer = yield self._move_prompt(ctx, moves)
            assert isinstance(answer, str)
            if answer == STOP:
                ctx.emit("note", f"The {moves} move{'s' if moves != 1 else ''} left on the tablet are lost.", monster=self.id)
                return
            yield from self._make(ctx, answer)
            moves -= 1
        if scarabs.solved(mat):
            mat.broken = True
            ctx.emit("tablet-solved", "The scarab tablet is solved: the Mummy's curse is broken.", monster=self.id)

    def _move_prompt(self, ctx: GameContext, moves: int) -> Prompt:
        mat = self.mat(ctx)
        options = [Option(m, self._move_text(mat, m)) for m in scarabs.moves(mat)]
        options.append(Option(STOP, f"Stop: lose the {moves} move{'s' if moves != 1 else ''} left"))
        return Prompt("choice", "scarab", f"The scarab tablet: {moves} move{'s' if moves != 1 else ''} left. "
                      "Turn a scarab face up, or slide a face-up scarab into the empty slot.", ctx.active_player,
                      tuple(options), context={"moves_left": moves, "tablet": self._tablet_view(mat)})

    @staticmethod
    def _move_text(mat: MummyMat, move: str) -> str:
        kind, slot = scarabs.parse_move(move)
        if kind == "flip":
            return f"Turn the scarab in {slot_name(slot)} face up"
        return f"Slide scarab {mat.numbers[slot]} from {slot_name(slot)} into {slot_name(mat.empty)}"

    def _make(self, ctx: GameContext, move: str) -> Flow[None]:
        mat = self.mat(ctx)
        kind, slot = scarabs.check(mat, move)
        if kind == "slide":
            number, to = mat.numbers[slot], scarabs.slide(mat, slot)
            ctx.emit("scarab-slid", f"Slide scarab {number} from {slot_name(slot)} into {slot_name(to)}.",
                     monster=self.id, slot=slot, to=to)
            return
        if mat.numbers[slot] is None:
            mat.numbers[slot] = yield from self._reveal(ctx, slot)
        mat.up[slot] = True
        ctx.emit("scarab-up", f"The scarab in {slot_name(slot)} is turned face up: it is scarab {mat.numbers[slot]}.",
                 monster=self.id, slot=slot, number=mat.numbers[slot])

    def _reveal(self, ctx: GameContext, slot: int) -> Flow[int]:
        """Which number the scarab shows: one of its slot's setup numbers not seen elsewhere yet."""
        seen = {n for n in self.mat(ctx).numbers if n is not None}
        free = [n for n in self.details.sides[slot - 1] if n not in seen] if slot else []
        free = free or [n for n in range(1, RING + 1) if n not in seen]
        options = [Option(str(n), f"Scarab {n}") for n in free]
        return int((yield from ctx.ask_draw("scarab-number", f"Turn the scarab in {slot_name(slot)} face up: "
                                             "which number does it show?", options)))

    def advance_options(self, ctx: GameContext, hero_id: str, distanced: bool) -> list[ActionDict]:
        if self.task_done(ctx) or ctx.state.heroes[hero_id].location != self.details.tablet_at:
            return []
        yellow = [i for i in ctx.state.heroes[hero_id].items if ctx.pack.item(i).type == self.details.tablet_type]
        return [self.advance_action("tablet", items=yellow)] if yellow else []

    # -- the Defeat ------------------------------------------------------------------------------------------
    def task_done(self, ctx: GameContext) -> bool:
        mat = self.mat(ctx)
        return mat.broken or scarabs.solved(mat)

    def task_left(self, ctx: GameContext) -> str:
        return f"solve the scarab tablet at {ctx.place_name(self.details.tablet_at)}"

    def defeat_goal(self) -> Challenge:
        return self.details.defeat

    @staticmethod
    def _tablet_view(mat: MummyMat) -> View:
        return {"numbers": list(mat.numbers), "up": list(mat.up), "empty": mat.empty, "solved": mat.broken or scarabs.solved(mat)}

    def mat_view(self, ctx: GameContext) -> View:
        mat = self.mat(ctx)
        lines = ["The curse is broken: defeat the Mummy now." if self.task_done(ctx) else
                 f"Scarab tablet: {scarabs.in_place(mat)} of {RING} scarabs face up in their own slot"]
        if mat.soul:
            lines.append(f"Soul token: {ctx.hero_name(mat.soul)}")
        return {"lines": lines, "tablet": self._tablet_view(mat), "soul": mat.soul}
