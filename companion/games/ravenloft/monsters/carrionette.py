"""The Carrionette (RL-CA-1 .. RL-CA-3).

A puppet: the heroes swap its spare parts for their own items, one risky
d20 roll at a time, and only then can they take it apart with weapons. The
swapped items stay on its mat until it is defeated, so they are counted there
(``mat_items``) and never lost from the table. Its mat: carrionette_mat.py.
"""

from __future__ import annotations

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.graph import Graph
from companion.games.horrified_core.challenge import away_from, by_strength, check_items, names_of, require_at
from companion.games.horrified_core.context import Character, Figure, GameContext
from companion.games.horrified_core.fields import action_index, action_text, ordinal
from companion.games.horrified_core.items import discard_item, draw_item
from companion.games.horrified_core.monsters import MAX_OPTIONS, Action, ActionDict, MonsterLook, MonsterRules, View
from companion.games.horrified_core.state import HeroState, Mat

from ..d20 import check
from .registry import REGISTRY
from .carrionette_mat import CarrionetteDetails, CarrionetteMat, parse_details


@REGISTRY.register
class CarrionetteRules(MonsterRules):
    id = "carrionette"
    defeat_type = "weapon"
    look = MonsterLook("orange", "steady")
    parse_details = staticmethod(parse_details)

    @property
    def details(self) -> CarrionetteDetails:
        details = self.monster.details
        assert isinstance(details, CarrionetteDetails), "the Carrionette's pack entry needs spare parts"
        return details

    def defeat_target(self) -> int:
        return self.details.defeat_target

    def mat(self, ctx: GameContext) -> CarrionetteMat:
        return self.mat_of(ctx, CarrionetteMat)

    def new_mat(self) -> CarrionetteMat:
        return CarrionetteMat(parts=[None] * len(self.details.spare_parts))

    def mat_problems(self, mat: Mat, graph: Graph) -> list[str]:
        assert isinstance(mat, CarrionetteMat)
        parts = len(self.details.spare_parts)
        return [] if len(mat.parts) == parts else [f"'parts' needs {parts} entries (item id or null), not {len(mat.parts)}"]

    def mat_items(self, mat: Mat) -> list[str]:
        """The swapped items lie on the mat until it is defeated, never lost from the table."""
        assert isinstance(mat, CarrionetteMat)
        return [item for item in mat.parts if item is not None]

    def mat_view(self, ctx: GameContext) -> View:
        mat = self.mat(ctx)
        parts = [f"{n + 1}: {ctx.pack.item(item).name if item else 'not swapped'}" for n, item in enumerate(mat.parts)]
        return {"lines": [f"Spare parts: {' · '.join(parts)}"], "parts": list(mat.parts)}

    # -- Power: Silver Needle (RL-CA-1) ----------------------------------------------------
    def power(self, ctx: GameContext, figure: Figure, target: Character) -> Flow[None]:
        """The drawn item only names a strength; it is discarded, and so is every matching item
        held by a hero standing with the Carrionette (relics are not items, so they are safe)."""
        drawn = yield from draw_item(ctx, "the Carrionette's Silver Needle")
        if drawn is None:
            return
        needle = ctx.pack.item(drawn).strength
        discard_item(ctx, drawn, f"Silver Needle: it names strength {needle}")
        here = self.here(ctx)
        for hero in ctx.state.heroes_at(here) if here else []:
            self._needle(ctx, hero, needle)

    def _needle(self, ctx: GameContext, hero: HeroState, needle: int) -> None:
        matching = [i for i in hero.items if ctx.pack.item(i).strength == needle]
        name = ctx.hero_name(hero.id)
        if not matching:
            ctx.emit("note", f"{name} holds no item of strength {needle}: nothing to discard.", hero=hero.id)
            return
        ctx.emit("silver-needle", f"Silver Needle: {name} discards {names_of(ctx, matching)} (strength {needle}).",
                 hero=hero.id, items=matching, strength=needle)
        for item in matching:
            discard_item(ctx, item, f"Silver Needle, strength {needle}")

    # -- Advance: swap a spare part (RL-CA-2) --------------------------------------------------
    def advance_kinds(self) -> tuple[str, ...]:
        return ("swap",)

    def advance_target(self, step: str) -> int | None:
        return self.details.swap_target if step == "swap" else None

    def advance(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> Flow[None]:
        self.step_of(action)
        item, part = self._checked_swap(ctx, hero_id, action, distanced)
        yield from self._swap(ctx, hero_id, item, part)

    def _checked_swap(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> tuple[str, int]:
        require_at(ctx, hero_id, self.here(ctx), "swap one of the Carrionette's spare parts", distanced)
        item = check_items(ctx, hero_id, [action_text(action, "item", "item to swap in")], count=1)[0]
        parts = self.mat(ctx).parts
        part = action_index(action, "part", len(parts), "spare parts")
        swapped = parts[part]
        if swapped is not None:
            raise IllegalInput(f"the Carrionette's {ordinal(part)} spare part is already swapped "
                               f"(the {ctx.pack.item(swapped).name} lies on it); pick another part")
        return item, part

    def _swap(self, ctx: GameContext, hero_id: str, item: str, part: int) -> Flow[None]:
        """The item sits on the part while the die rolls, so it is never missing from the table."""
        name, bonus, parts = ctx.pack.item(item).name, self.bonus(ctx, item, part), self.mat(ctx).parts
        ctx.state.heroes[hero_id].items.remove(item)
        parts[part] = item
        ctx.emit("item-on-mat", f"Put the {name} on the Carrionette's {ordinal(part)} spare part.",
                 monster=self.id, item=item, part=part, bonus=bonus)
        text = (f"Roll the d20 to swap the {ordinal(part)} spare part: add {bonus} for matching it; "
                f"{self.details.swap_target} or more keeps the {name} there.")
        if (yield from check(ctx, "swap", text, bonus, self.details.swap_target)):
            done = len(parts) - parts.count(None)
            ctx.emit("part-swapped", f"Swapped! Leave the {name} on the {ordinal(part)} spare part "
                     f"({done} of {len(parts)} swapped).", monster=self.id, item=item, part=part)
            return
        parts[part] = None
        discard_item(ctx, item, "caught swapping a spare part")

    def bonus(self, ctx: GameContext, item_id: str, part: int) -> int:
        """+5 when the item matches the part's type or strength, +10 when it matches both."""
        item, spare = ctx.pack.item(item_id), self.details.spare_parts[part]
        matches = int(item.type == spare.type) + int(item.strength == spare.strength)
        return (0, self.details.match_bonus, self.details.double_match_bonus)[matches]

    def advance_options(self, ctx: GameContext, hero_id: str, distanced: bool) -> list[ActionDict]:
        """For each free part, the weakest item earning each bonus the hero can reach."""
        if not distanced and away_from(ctx, hero_id, self.here(ctx), "swap"):
            return []
        options: list[ActionDict] = []
        for part, taken in enumerate(self.mat(ctx).parts):
            if taken is None:
                options += [self.advance_action("swap", item=i, part=part) for i in self._per_bonus(ctx, hero_id, part)]
        return options[:MAX_OPTIONS]

    def _per_bonus(self, ctx: GameContext, hero_id: str, part: int) -> list[str]:
        chosen: dict[int, str] = {}
        for item in by_strength(ctx, ctx.state.heroes[hero_id].items):
            chosen.setdefault(self.bonus(ctx, item, part), item)
        return [chosen[bonus] for bonus in sorted(chosen, reverse=True)]

    # -- Defeat (RL-CA-3) ------------------------------------------------------------------
    def defeat_blocker(self, ctx: GameContext, hero_id: str) -> str | None:
        left = self.mat(ctx).parts.count(None)
        if left:
            return (f"the Carrionette cannot be taken apart yet: {left} of its spare parts "
                    f"still need swapping")
        return away_from(ctx, hero_id, self.here(ctx), "take the Carrionette apart")

    def on_defeated(self, ctx: GameContext) -> None:
        """The swapped items were discarded by ``defeat_monster``; the parts are empty now."""
        mat = self.mat(ctx)
        mat.parts = [None] * len(mat.parts)
