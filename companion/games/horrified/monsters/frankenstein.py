"""Frankenstein and the Bride: two figures on one mat, each with a humanity track. Yellow
items at Frankenstein's space fill his, blue items at the Bride's space fill hers; after
each, the hero may move that monster up to the item's strength. Once both tracks are full
and the two meet, they are defeated together; if they meet earlier, the Terror rises and
both go back to their starts. The Bride acts on her own symbol but is never the frenzied
monster; the mat's Power draws her one space toward him.

They meet when both stand in one space after any figure is put down (a move ends there, an
Event or a Perk puts one there): a figure passing through the other's space does not stop.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.graph import Graph
from companion.engine.prompts import Option
from companion.games.datafiles import Node
from companion.games.horrified_core.challenge import check_items, items_named, spend
from companion.games.horrified_core.context import Character, Figure, GameContext
from companion.games.horrified_core.monsters import (Action, ActionDict, Actor, MonsterLook, View, defeat_monster, strike,
                                                   strike_text)
from companion.games.horrified_core.movement import move_toward_closest, move_toward_location
from companion.games.horrified_core.packdata import Known, item_type, location
from companion.games.horrified_core.pack_types import FRENZY, MAIN_BOARD
from companion.games.horrified_core.state import MATS, Mat
from companion.games.horrified_core.terror import raise_terror

from .base import OriginalMonster, strength_of
from .registry import REGISTRY

BRIDE = 0  # the Bride is the mat's one minion
STAY = "stay"


@dataclass(frozen=True)
class Track:
    type: str
    length: int


@dataclass(frozen=True)
class PairDetails:
    bride_start: str
    frankenstein_track: Track
    bride_track: Track
    meeting_terror: int
    power_steps: int


@MATS.member
@dataclass
class PairMat(Mat):
    kind: str = "frankenstein"
    bride: str | None = None  # where the Bride stands
    frankenstein_humanity: int = 0
    bride_humanity: int = 0
    meetings: int = 0  # how often they met too early


def _track(node: Node, known: Known) -> Track:
    node.fields("type", "length")
    return Track(item_type(node.child("type"), known), node.child("length").integer(1, 30))


def parse_details(node: Node, known: Known) -> PairDetails:
    node.fields("bride_start", "frankenstein_track", "bride_track", "meeting_terror", "power_steps")
    return PairDetails(location(node.child("bride_start"), known, MAIN_BOARD), _track(node.child("frankenstein_track"), known),
                       _track(node.child("bride_track"), known), node.child("meeting_terror").integer(0, 5),
                       node.child("power_steps").integer(1, 6))


@REGISTRY.register
class PairRules(OriginalMonster[PairDetails]):
    id = "frankenstein"
    details_type = PairDetails
    look = MonsterLook("bluish green", "double blink")
    parse_details = staticmethod(parse_details)

    def new_mat(self) -> PairMat:
        return PairMat()

    def mat(self, ctx: GameContext) -> PairMat:
        return self.mat_of(ctx, PairMat)

    def mat_problems(self, mat: Mat, graph: Graph) -> list[str]:
        assert isinstance(mat, PairMat)
        found = [] if mat.bride is None or mat.bride in graph else [f"the Bride stands nowhere on this board ({mat.bride!r})"]
        if not 0 <= mat.frankenstein_humanity <= self.details.frankenstein_track.length:
            found.append(f"Frankenstein's track runs from 0 to {self.details.frankenstein_track.length}")
        if not 0 <= mat.bride_humanity <= self.details.bride_track.length:
            found.append(f"the Bride's track runs from 0 to {self.details.bride_track.length}")
        return found

    def special_places(self) -> dict[str, str]:
        return {"bride-start": self.details.bride_start}

    @classmethod
    def moved_details(cls, details: PairDetails, places: Mapping[str, str], types: Mapping[str, str]) -> PairDetails:
        def moved(track: Track) -> Track:
            return replace(track, type=types.get(track.type, track.type))
        return replace(details, bride_start=places.get("bride-start", details.bride_start),
                       frankenstein_track=moved(details.frankenstein_track), bride_track=moved(details.bride_track))

    # -- two figures ---------------------------------------------------------------------------------------
    def setup(self, ctx: GameContext) -> Flow[None]:
        yield from super().setup(ctx)
        start = self.details.bride_start
        ctx.emit("monster-placed", f"Put the Bride at {ctx.place_name(start)}.", monster=self.id, location=start, blight=BRIDE)
        ctx.put(Figure(self.id, BRIDE), start)

    def minions_on_board(self, ctx: GameContext) -> list[int]:
        return [BRIDE] if self.mat(ctx).bride is not None else []

    def minion_location(self, ctx: GameContext, index: int) -> str | None:
        return self.mat(ctx).bride

    def put_minion(self, ctx: GameContext, index: int, location: str | None) -> None:
        self.mat(ctx).bride = location

    def minion_name(self, index: int) -> str:
        return "the Bride"

    def figure_name(self) -> str:
        """The mat names the pair; his own figure is Frankenstein."""
        return "Frankenstein"

    def figures_at(self, ctx: GameContext) -> list[str | None]:
        return [self.here(ctx), self.mat(ctx).bride]

    def actors(self, ctx: GameContext) -> list[Actor]:
        return [Actor(self.id, "frankenstein", "Frankenstein"), Actor(self.id, "bride", "the Bride")]

    def actors_on(self, ctx: GameContext, symbol: str) -> list[Actor]:
        """His symbol and the Frenzy symbol call him; hers calls her (she is never the frenzied one)."""
        him, her = self.actors(ctx)
        return [her] if symbol == "bride" else [him] if symbol in ("frankenstein", FRENZY) else []

    def activate(self, ctx: GameContext, actor: Actor, move: int, dice: int) -> Flow[None]:
        """Move, then attack; a move that ends in a meeting sends both home, and that figure's strike ends."""
        figure = Figure(self.id, BRIDE if actor.role == "bride" else None)
        ctx.emit("monster-activated", strike_text(actor.label, actor), monster=self.id, blight=figure.minion)
        meetings = self.mat(ctx).meetings
        yield from move_toward_closest(ctx, figure, ctx.edition.monster_steps(ctx, move))
        if self.mat(ctx).meetings == meetings:
            yield from strike(ctx, figure, dice, actor.attacks)

    def power(self, ctx: GameContext, figure: Figure, target: Character) -> Flow[None]:
        yield from self.bride_toward_him(ctx, self.details.power_steps)

    def bride_toward_him(self, ctx: GameContext, steps: int) -> Flow[None]:
        """The Bride walks up to ``steps`` spaces toward Frankenstein (the Power, and The Meeting)."""
        him = self.here(ctx)
        if him is None or self.mat(ctx).bride is None:
            return
        yield from move_toward_location(ctx, Figure(self.id, BRIDE), him, steps)

    # -- meeting ------------------------------------------------------------------------------------------------
    def placed(self, ctx: GameContext, figure: Figure) -> None:
        mat, here = self.mat(ctx), self.here(ctx)
        if here is None or mat.bride != here or ctx.state.monsters[self.id].defeated:
            return
        if self.task_done(ctx):
            ctx.emit("monsters-met", f"Frankenstein and the Bride meet at {ctx.place_name(here)}, both human at last.",
                     monster=self.id, location=here)
            defeat_monster(ctx, self.id)
            return
        self._too_early(ctx, here)

    def _too_early(self, ctx: GameContext, here: str) -> None:
        ctx.emit("monsters-met", f"Frankenstein and the Bride meet at {ctx.place_name(here)} too early: the village "
                 "takes fright, and both go back to their starts.", monster=self.id, location=here)
        starts = ((None, self.monster.start), (BRIDE, self.details.bride_start))
        for minion, start in starts:
            ctx.emit("monster-placed", f"Put {'the Bride' if minion == BRIDE else 'Frankenstein'} back at "
                     f"{ctx.place_name(start)}.", monster=self.id, location=start, blight=minion)
        mat = self.mat(ctx)
        mat.bride, mat.meetings = self.details.bride_start, mat.meetings + 1
        ctx.state.monsters[self.id].location = self.monster.start
        raise_terror(ctx, "Frankenstein and the Bride met too early", times=self.details.meeting_terror)

    # -- the task: humanity -----------------------------------------------------------------------------------------
    def advance_kinds(self) -> tuple[str, ...]:
        return ("frankenstein", "bride")

    def advance(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> Flow[None]:
        step = self.step_of(action)
        figure = Figure(self.id, BRIDE if step == "bride" else None)
        track = self.details.bride_track if step == "bride" else self.details.frankenstein_track
        if ctx.state.heroes[hero_id].location != ctx.where(figure):
            raise IllegalInput(f"teach {ctx.figure_name(figure)} in {'her' if step == 'bride' else 'his'} own space")
        items = check_items(ctx, hero_id, items_named(action), track.type, count=1)
        gained = strength_of(ctx, items)
        spend(ctx, items, f"spent to teach {ctx.figure_name(figure)}")
        level = self._raise(ctx, step, gained, track)
        ctx.emit("track", f"{ctx.figure_name(figure)[:1].upper()}{ctx.figure_name(figure)[1:]}'s humanity: {level} of "
                 f"{track.length}.", monster=self.id, track=step, level=level)
        yield from self._offer_move(ctx, figure, gained)

    def _raise(self, ctx: GameContext, step: str, gained: int, track: Track) -> int:
        mat = self.mat(ctx)
        if step == "bride":
            mat.bride_humanity = min(track.length, mat.bride_humanity + gained)
            return mat.bride_humanity
        mat.frankenstein_humanity = min(track.length, mat.frankenstein_humanity + gained)
        return mat.frankenstein_humanity

    def _offer_move(self, ctx: GameContext, figure: Figure, steps: int) -> Flow[None]:
        here = ctx.where(figure)
        if here is None:
            return
        dist = ctx.graph.distances(here, self.mover)
        options = [Option(STAY, f"Leave {ctx.figure_name(figure)} where {'she' if figure.minion == BRIDE else 'he'} is")]
        options += [Option(p, ctx.place_name(p), {"location": p}) for p in sorted(dist) if 0 < dist[p] <= steps]
        to = yield from ctx.choose("move-monster-to", f"You may move {ctx.figure_name(figure)} up to {steps} "
                                   f"space{'s' if steps != 1 else ''}: where to?", options)
        if to == STAY:
            return
        ctx.emit("monster-moved", f"Move {ctx.figure_name(figure)} from {ctx.place_name(here)} to {ctx.place_name(to)}.",
                 monster=self.id, blight=figure.minion, path=[here, to])
        ctx.put(figure, to)

    def advance_options(self, ctx: GameContext, hero_id: str, distanced: bool) -> list[ActionDict]:
        here = ctx.state.heroes[hero_id].location
        found: list[ActionDict] = []
        for step, track, where in (("frankenstein", self.details.frankenstein_track, self.here(ctx)),
                                   ("bride", self.details.bride_track, self.mat(ctx).bride)):
            if where != here or self._full(ctx, step):
                continue
            held = sorted((i for i in ctx.state.heroes[hero_id].items if ctx.pack.item(i).type == track.type),
                          key=lambda i: (-ctx.pack.item(i).strength, i))
            found += [self.advance_action(step, items=[held[0]])] if held else []
        return found

    def _full(self, ctx: GameContext, step: str) -> bool:
        mat = self.mat(ctx)
        if step == "bride":
            return mat.bride_humanity >= self.details.bride_track.length
        return mat.frankenstein_humanity >= self.details.frankenstein_track.length

    # -- the defeat: by meeting ------------------------------------------------------------------------------------
    def task_done(self, ctx: GameContext) -> bool:
        return self._full(ctx, "frankenstein") and self._full(ctx, "bride")

    def defeat_blocker(self, ctx: GameContext, hero_id: str) -> str | None:
        return "Frankenstein and the Bride are not defeated by an action: once both tracks are full, they are " \
               "defeated when they meet"

    def on_defeated(self, ctx: GameContext) -> None:
        self.mat(ctx).bride = None

    def mat_view(self, ctx: GameContext) -> View:
        mat = self.mat(ctx)
        lines = [f"Frankenstein's humanity: {mat.frankenstein_humanity} of {self.details.frankenstein_track.length}",
                 f"The Bride's humanity: {mat.bride_humanity} of {self.details.bride_track.length}"]
        if self.task_done(ctx):
            lines.append("Both tracks are full: bring them together.")
        return {"lines": lines, "bride": mat.bride, "frankenstein_humanity": mat.frankenstein_humanity,
                "bride_humanity": mat.bride_humanity}

    def board_figures(self, ctx: GameContext) -> list[View]:
        where = self.mat(ctx).bride
        return [] if where is None else [{"kind": "bride", "index": BRIDE, "location": where, "name": "the Bride"}]
