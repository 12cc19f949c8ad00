"""The Gulthias Tree and its Twig Blights (RL-GT-1 .. RL-GT-8, RL-SU-7).

The Tree never moves; its symbols send one Twig Blight at a time out to
fight (the active player picks which, never the same one twice in a turn).
Blights come back by d20 rolls. The challenge is digging up the Roots with
Magical items, a push-your-luck loop inside one action, then chopping the Tree.
"""

from __future__ import annotations

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.graph import Graph
from companion.engine.prompts import Option
from companion.games.horrified_core.attack import attack
from companion.games.horrified_core.challenge import (away_from, check_items, held_of_type, item_sets, items_named,
                                                      one_per_strength, require_at, spend_and_check)
from companion.games.horrified_core.context import Character, Figure, GameContext
from companion.games.horrified_core.fields import action_index, action_text
from companion.games.horrified_core.items import discard_item
from companion.games.horrified_core.monsters import (MAX_OPTIONS, Action, ActionDict, Actor, MonsterLook,
                                                     MonsterRules, View)
from companion.games.horrified_core.state import Mat

from ..d20 import roll_d20
from .gulthias_tree_mat import GulthiasTreeDetails, TreeMat, parse_details
from .registry import REGISTRY


@REGISTRY.register
class GulthiasTreeRules(MonsterRules):
    id = "gulthias-tree"
    defeat_type = "weapon"
    rooted = True
    look = MonsterLook("bluish green", "marching chase")
    parse_details = staticmethod(parse_details)

    @property
    def details(self) -> GulthiasTreeDetails:
        details = self.monster.details
        assert isinstance(details, GulthiasTreeDetails), "the Gulthias Tree's pack entry needs Roots and Blights"
        return details

    def defeat_target(self) -> int:
        return self.details.defeat_target

    def mat(self, ctx: GameContext) -> TreeMat:
        return self.mat_of(ctx, TreeMat)

    # -- its minions: the Twig Blights ----------------------------------------------------------
    def minions_on_board(self, ctx: GameContext) -> list[int]:
        return [index for index, where in enumerate(self.mat(ctx).blights) if where is not None]

    def minion_location(self, ctx: GameContext, index: int) -> str | None:
        return self.mat(ctx).blights[index]

    def put_minion(self, ctx: GameContext, index: int, location: str | None) -> None:
        self.mat(ctx).blights[index] = location

    def minion_name(self, index: int) -> str:
        return f"Twig Blight {index + 1}"

    def figures_at(self, ctx: GameContext) -> list[str | None]:
        return [self.here(ctx), *self.mat(ctx).blights]

    def mat_view(self, ctx: GameContext) -> View:
        mat = self.mat(ctx)
        roots = ", ".join(f"{group} {left}" for group, left in mat.roots.items()) or "none"
        blights = " · ".join(f"{n + 1} {f'at {ctx.place_name(where)}' if where else 'off the board'}"
                             for n, where in enumerate(mat.blights))
        return {"lines": [f"Roots face down: {roots}", f"Twig Blights: {blights}"], "roots": dict(mat.roots),
                "blights": list(mat.blights), "blights_used": list(mat.blights_used)}

    def board_figures(self, ctx: GameContext) -> list[View]:
        return [{"kind": "twig-blight", "index": n, "location": where, "name": self.minion_name(n)}
                for n, where in enumerate(self.mat(ctx).blights) if where is not None]

    def new_mat(self) -> TreeMat:
        details = self.details
        return TreeMat(roots={g.id: g.count for g in details.roots}, blights=[None] * details.blights)

    def mat_problems(self, mat: Mat, graph: Graph) -> list[str]:
        assert isinstance(mat, TreeMat)
        groups = {g.id: g.count for g in self.details.roots}
        problems = [f"'blights' needs {self.details.blights} entries (location or null), not {len(mat.blights)}"
                    ] if len(mat.blights) != self.details.blights else []
        problems += [f"Twig Blight {n + 1} is at {where!r}, not a location on this board"
                     for n, where in enumerate(mat.blights) if where is not None and where not in graph]
        problems += [f"roots.{group}: no Root group of that name, or not 0..{groups.get(group)}"
                     for group, left in mat.roots.items() if not 0 <= left <= groups.get(group, -1)]
        return problems

    def group_size(self, group: str) -> int:
        """A Root showing k symbols belongs to a group of k Roots (RL-GT-6)."""
        return next(g.count for g in self.details.roots if g.id == group)

    # -- setup (RL-SU-7) and Necrosynthesis (RL-GT-4) -----------------------------------------
    def setup(self, ctx: GameContext) -> Flow[None]:
        """Roots start face down on the mat; each Blight is placed by a d20 roll."""
        yield from super().setup(ctx)
        ctx.emit("mat-setup", f"Shuffle the {sum(self.mat(ctx).roots.values())} Root tokens and lay them face down "
                 "on the Gulthias Tree's mat.", monster=self.id)
        for index in range(self.details.blights):
            yield from self.place_blight(ctx, index, at_setup=True)

    def place_blight(self, ctx: GameContext, index: int, at_setup: bool) -> Flow[None]:
        """Roll until the number names a free location.

        At setup a 1 is simply location 1: the Blight must be placed, so it is not
        a critical failure there. In the Monster Phase (Necrosynthesis) a 1 is a
        critical failure (RL-D20-3) and that Blight stays off the board.
        """
        name = f"Twig Blight {index + 1}"
        if not self._free_numbers(ctx):
            ctx.emit("note", f"No numbered location is free: {name} stays off the board.",
                     monster=self.id, blight=index)
            return
        while True:
            roll = yield from roll_d20(ctx, "blight-setup" if at_setup else "necrosynthesis",
                                       f"Roll the d20 to place {name}.", ctx.about(Figure(self.id, index)))
            if roll == 1 and not at_setup:
                ctx.emit("critical-failure", f"A 1: critical failure, {name} stays off the board.", blight=index)
                return
            spot, why = self._spot(ctx, roll)
            if spot is not None:
                ctx.put(Figure(self.id, index), spot)
                ctx.emit("blight-placed", f"Put {name} at {ctx.place_name(spot)} (number {roll}).",
                         monster=self.id, blight=index, location=spot)
                return
            ctx.emit("reroll", f"{why[:1].upper()}{why[1:]}: roll the d20 again for {name}.",
                     monster=self.id, blight=index, value=roll)

    def _numbered(self, ctx: GameContext) -> dict[int, str]:
        places = ctx.pack.board.locations
        return {loc.number: loc.id for loc in places if loc.number is not None and loc.id in ctx.graph}

    def _free_numbers(self, ctx: GameContext) -> list[int]:
        taken = self._occupied(ctx)
        return [n for n, loc in self._numbered(ctx).items() if loc not in taken]

    def _spot(self, ctx: GameContext, roll: int) -> tuple[str | None, str]:
        location = self._numbered(ctx).get(roll)
        if location is None:
            return None, f"No location has the number {roll}"
        taken = self._taken_by(ctx, location)
        if taken is not None:
            return None, f"{taken} is already at {ctx.place_name(location)}"
        return location, ""

    def _taken_by(self, ctx: GameContext, location: str) -> str | None:
        """Who stops a Blight landing here: any character or any monster figure (Blights included)."""
        return self._occupied(ctx).get(location)

    def _occupied(self, ctx: GameContext) -> dict[str, str]:
        """Every taken location with the name of one figure there (characters named first)."""
        taken: dict[str, str] = {}
        for hero in ctx.heroes_on_board():
            taken.setdefault(str(hero.location), ctx.hero_name(hero.id))
        for villager in ctx.villagers_on_board():
            taken.setdefault(str(villager.location), ctx.pack.villager(villager.id).name)
        for figure in ctx.monster_figures():
            where = ctx.where(figure)
            if where is not None:
                taken.setdefault(where, ctx.figure_name(figure))
        return taken

    def power(self, ctx: GameContext, figure: Figure, target: Character) -> Flow[None]:
        """Necrosynthesis: every cut-down Blight tries to come back."""
        fallen = [i for i, where in enumerate(self.mat(ctx).blights) if where is None]
        if not fallen:
            ctx.emit("note", "Necrosynthesis: every Twig Blight is already on the board.", monster=self.id)
        for index in fallen:
            yield from self.place_blight(ctx, index, at_setup=False)

    # -- Monster Phase (RL-GT-1, RL-GT-2) -------------------------------------------------------
    def actors(self, ctx: GameContext) -> list[Actor]:
        return [Actor(self.id, "tree", "Gulthias Tree"), Actor(self.id, "blight", "a Twig Blight")]

    def preview(self, ctx: GameContext, actor: Actor, move: int, dice: int) -> str:
        """The Tree stays and strikes where it stands; a ready Blight moves, then attacks."""
        if actor.role == "tree":
            here = self.here(ctx)
            where = ctx.place_name(here) if here else "off the board"
            return f"Gulthias Tree at {where}: never moves, attacks only someone at {where}"
        mat = self.mat(ctx)
        ready = [f"{i + 1} at {ctx.place_name(str(mat.blights[i]))}" for i in self._ready(ctx)]
        if not ready:
            return "a Twig Blight: none is ready (cut down, or it has acted)"
        return f"a Twig Blight ({', '.join(ready)}): one of them moves up to {move} and attacks"

    def could_act(self, ctx: GameContext, actor: Actor, carriers: bool) -> bool:
        """The Tree attacks only someone at its own location (RL-GT-1), and only a carrier can bring
        someone there during the attack line. A Blight acts if one is ready, or if the Tree may
        attack first and bring cut-down Blights back (Necrosynthesis): only then does the order
        between the Tree and a Blight change anything."""
        tree_able = self._tree_could_attack(ctx, carriers)
        if actor.role == "tree":
            return tree_able
        fallen = None in self.mat(ctx).blights
        able = bool(self._ready(ctx)) or (fallen and tree_able)
        return able and super().could_act(ctx, actor, carriers)

    def _tree_could_attack(self, ctx: GameContext, carriers: bool) -> bool:
        here = self.here(ctx)
        return here is not None and (bool(ctx.characters_at(here)) or carriers)

    def _ready(self, ctx: GameContext) -> list[int]:
        mat = self.mat(ctx)
        return [i for i, where in enumerate(mat.blights) if where is not None and i not in mat.blights_used]

    def start_of_turn(self, ctx: GameContext) -> None:
        """A Blight may act again in a new turn (RL-GT-2)."""
        self.mat(ctx).blights_used.clear()

    def activate(self, ctx: GameContext, actor: Actor, move: int, dice: int) -> Flow[None]:
        if actor.role == "tree":
            ctx.emit("monster-activated", "The Gulthias Tree never moves; it attacks only someone at its own location.",
                     monster=self.id)
            yield from attack(ctx, Figure(self.id), dice)
            return
        yield from self._blight_acts(ctx, move, dice)

    def _blight_acts(self, ctx: GameContext, move: int, dice: int) -> Flow[None]:
        mat, ready = self.mat(ctx), self._ready(ctx)
        if not ready:
            ctx.emit("note", "No Twig Blight can act: each is off the board or has already acted this turn.",
                     monster=self.id)
            return
        options = [Option(str(i), f"Twig Blight {i + 1} at {ctx.place_name(mat.blights[i])}") for i in ready]
        text = "Several of the Gulthias Tree's Twig Blights are ready: which Twig Blight moves and attacks?"
        index = int((yield from ctx.choose("which-blight", text, options, ctx.about(Figure(self.id)))))
        mat.blights_used.append(index)
        figure = Figure(self.id, index)
        yield from self.move_and_attack(ctx, figure, f"Twig Blight {index + 1} moves and attacks.", move, dice)

    # -- Advance: prune (RL-GT-5) and dig (RL-GT-6) -------------------------------------------------
    def advance_kinds(self) -> tuple[str, ...]:
        return ("prune", "dig")

    def advance_target(self, step: str) -> int | None:
        return self.details.prune_target if step == "prune" else None

    def advance(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> Flow[None]:
        if self.step_of(action) == "prune":
            yield from self._prune(ctx, hero_id, action, distanced)
        else:
            yield from self._dig(ctx, hero_id, action, distanced)

    def _prune(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> Flow[None]:
        blights = self.mat(ctx).blights
        index = action_index(action, "blight", len(blights), "Twig Blights")
        name, where = f"Twig Blight {index + 1}", blights[index]
        if where is None:
            raise IllegalInput(f"{name} is not on the board, so there is nothing to prune")
        require_at(ctx, hero_id, where, f"prune {name}", distanced)
        items = check_items(ctx, hero_id, items_named(action), "mundane")
        if (yield from spend_and_check(ctx, items, "prune", f"prune {name}", self.details.prune_target)):
            ctx.put(Figure(self.id, index), None)
            ctx.emit("blight-removed", f"{name} is cut down: take it off {ctx.place_name(where)}.",
                     monster=self.id, blight=index, location=where)
        else:
            ctx.emit("note", f"{name} shrugs off the pruning; the spent items stay discarded.", blight=index)

    def _dig(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> Flow[None]:
        """Discard a Magical item per Root turned; stop to keep them, or bust on a repeated group."""
        require_at(ctx, hero_id, self.here(ctx), "dig up the Gulthias Tree's Roots", distanced)
        first = action_text(action, "item", "Magical item")
        item: str | None = check_items(ctx, hero_id, [first], "magical", count=1)[0]
        if not sum(self.mat(ctx).roots.values()):
            raise IllegalInput("every Root is already dug up: the Gulthias Tree can be chopped down now")
        revealed: list[str] = []
        while item is not None:
            discard_item(ctx, item, "spent to dig up a Root")
            group = yield from self._turn_root(ctx, revealed)
            if group in revealed:
                self._bust(ctx, group, len(revealed) + 1)
                return
            revealed.append(group)
            item = yield from self._dig_more(ctx, hero_id, revealed)
        self._remove_roots(ctx, revealed)

    def _turn_root(self, ctx: GameContext, revealed: list[str]) -> Flow[str]:
        roots = self.mat(ctx).roots
        down = {g: n - revealed.count(g) for g, n in roots.items() if n - revealed.count(g) > 0}
        options = [Option(g, self._root_text(g), {"symbols": self.group_size(g), "face_down": n})
                   for g, n in down.items()]
        group = yield from ctx.ask_draw("root", "Turn a face-down Root face up. Which Root is it?", options)
        if group not in revealed:
            ctx.emit("root-revealed", f"The Root shows {self._root_text(group)}; {roots[group] - 1} more of that group "
                     "still lie face down, and turning one of them now would spoil this dig.",
                     monster=self.id, group=group, face_down=roots[group] - 1)
        return group

    def _root_text(self, group: str) -> str:
        size = self.group_size(group)
        return f"{size} symbol{'s' if size > 1 else ''} ({group})"

    def _dig_more(self, ctx: GameContext, hero_id: str, revealed: list[str]) -> Flow[str | None]:
        left = sum(self.mat(ctx).roots.values()) - len(revealed)
        options = [Option("stop", f"Stop and remove the {len(revealed)} revealed Root(s)")]
        if left > 0:
            options += [Option(i, f"Dig again, discarding the {ctx.pack.item(i).name} ({ctx.pack.item(i).strength})")
                        for i in held_of_type(ctx, hero_id, "magical")]
        choice = yield from ctx.choose("dig-more", "Dig again or stop here?", options)
        return None if choice == "stop" else choice

    def _bust(self, ctx: GameContext, group: str, count: int) -> None:
        ctx.emit("roots-shuffled", f"A second Root of the {group} group in this dig! Turn all {count} Roots revealed "
                 "in this action face down again and shuffle them; none are removed.", monster=self.id, group=group)

    def _remove_roots(self, ctx: GameContext, revealed: list[str]) -> None:
        roots = self.mat(ctx).roots
        for group in revealed:
            roots[group] -= 1
        ctx.emit("roots-removed", f"Take the {len(revealed)} revealed Root(s) off the Gulthias Tree's mat: "
                 f"{sum(roots.values())} still lie face down.", monster=self.id, removed=list(revealed))

    def advance_options(self, ctx: GameContext, hero_id: str, distanced: bool) -> list[ActionDict]:
        options = self._prune_options(ctx, hero_id, distanced)
        if sum(self.mat(ctx).roots.values()) and (distanced or not away_from(ctx, hero_id, self.here(ctx), "dig")):
            magical = one_per_strength(ctx, held_of_type(ctx, hero_id, "magical"))
            options += [self.advance_action("dig", item=i) for i in magical]
        return options[:MAX_OPTIONS]

    def _prune_options(self, ctx: GameContext, hero_id: str, distanced: bool) -> list[ActionDict]:
        mundane, options = held_of_type(ctx, hero_id, "mundane"), []
        for index, where in enumerate(self.mat(ctx).blights):
            if where is not None and (distanced or not away_from(ctx, hero_id, where, "prune")):
                options += [self.advance_action("prune", blight=index, items=s) for s in item_sets(ctx, mundane, 3)]
        return options

    # -- Defeat (RL-GT-7, RL-GT-8) ---------------------------------------------------------------
    def defeat_blocker(self, ctx: GameContext, hero_id: str) -> str | None:
        """Only the Roots matter: Blights never need pruning first (RL-GT-8)."""
        left = sum(self.mat(ctx).roots.values())
        if left:
            return f"the Gulthias Tree cannot be chopped down yet: {left} Root(s) are still face down on its mat"
        return away_from(ctx, hero_id, self.here(ctx), "chop down the Gulthias Tree")

    def on_defeated(self, ctx: GameContext) -> None:
        """The Tree falls with all its Blights."""
        mat = self.mat(ctx)
        for index, where in enumerate(mat.blights):
            if where is not None:
                ctx.emit("blight-removed", f"Take Twig Blight {index + 1} off {ctx.place_name(where)}.",
                         monster=self.id, blight=index, location=where)
                mat.blights[index] = None
