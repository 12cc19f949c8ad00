"""Baba Lysaga and her walking Hut (RL-BL-1 .. RL-BL-4, RL-SU-8, RL-VI-3).

Her Power carries villagers off (to their own safe place, where they stay in
her clutches). Her challenge is a little puzzle on her mat: reveal the Hut
tokens, clear scarecrows and ravens, and walk the Gem to the Door through empty
spaces; her own token blocks the way for good.
"""

from __future__ import annotations

from typing import Iterator

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.graph import Graph
from companion.engine.prompts import Option
from companion.games.horrified_core.arrivals import villager_arrives
from companion.games.horrified_core.challenge import (away_from, by_strength, check_items, held_of_type,
                                                      one_per_strength, require_at, spend_and_check)
from companion.games.horrified_core.context import Character, Figure, GameContext
from companion.games.horrified_core.fields import action_names, action_text, humanize
from companion.games.horrified_core.items import discard_item
from companion.games.horrified_core.monsters import MAX_OPTIONS, Action, ActionDict, MonsterLook, MonsterRules, View
from companion.games.horrified_core.movement import choose_path, walk_monster
from companion.games.horrified_core.perk_deck import gain_perk
from companion.games.horrified_core.state import Mat

from ..pack_types import ItemType
from .baba_lysaga_mat import BabaLysagaDetails, HutMat, HutToken, parse_details
from .registry import REGISTRY

#: How far Carried Off takes her (RL-BL-1).
CARRY_STEPS = 2
#: The item type each fight needs (RL-BL-2).
FIGHTS: dict[str, ItemType] = {"scarecrow": "weapon", "raven": "magical"}


@REGISTRY.register
class BabaLysagaRules(MonsterRules):
    id = "baba-lysaga"
    defeat_type = "magical"
    carries_characters = True
    look = MonsterLook("reddish purple", "double blink")
    parse_details = staticmethod(parse_details)

    @property
    def details(self) -> BabaLysagaDetails:
        details = self.monster.details
        assert isinstance(details, BabaLysagaDetails), "Baba Lysaga's pack entry needs her Hut"
        return details

    def defeat_target(self) -> int:
        return self.details.defeat_target

    def mat(self, ctx: GameContext) -> HutMat:
        return self.mat_of(ctx, HutMat)

    def mat_view(self, ctx: GameContext) -> View:
        """The Gem's space and the tokens: face down, face up (by space), beaten."""
        mat = self.mat(ctx)
        down = len(mat.face_down)
        lines = [f"Gem on the {humanize(mat.gem).lower()} space · {down} token{'' if down == 1 else 's'} face down"]
        if mat.revealed:
            lines.append("Face up: " + ", ".join(f"{humanize(space)}: {token_name(self.token(token))}"
                                                 for space, token in mat.revealed.items()))
        if mat.removed:
            lines.append("Beaten: " + ", ".join(token_name(self.token(t)) for t in mat.removed))
        return {"lines": lines, "gem": mat.gem, "face_down": list(mat.face_down), "revealed": dict(mat.revealed),
                "removed": list(mat.removed)}

    def new_mat(self) -> HutMat:
        """The Gem on its start space; a face-down token on every other space but the Door (RL-SU-8)."""
        details = self.details
        hidden = [s.id for s in details.spaces if s.id not in (details.gem_start, details.door)]
        return HutMat(gem=details.gem_start, face_down=hidden)

    def mat_problems(self, mat: Mat, graph: Graph) -> list[str]:
        assert isinstance(mat, HutMat)
        spaces = {space.id for space in self.details.spaces}
        tokens = {token.id for token in self.details.tokens}
        problems = [] if mat.gem in spaces else [f"the Gem is on {mat.gem!r}, not a space of the Hut"]
        problems += [f"{s!r} is not a Hut space" for s in [*mat.face_down, *mat.revealed] if s not in spaces]
        problems += [f"{t!r} is not a Hut token" for t in [*mat.revealed.values(), *mat.removed] if t not in tokens]
        return problems

    def setup(self, ctx: GameContext) -> Flow[None]:
        yield from super().setup(ctx)
        ctx.emit("mat-setup", f"Put the Gem face up on the {self.details.gem_start} space of Baba Lysaga's mat, then "
                 f"shuffle the {len(self.details.tokens)} Hut tokens and lay them face down on the other spaces "
                 "except the Door.", monster=self.id)

    def token(self, token_id: str) -> HutToken:
        return next(t for t in self.details.tokens if t.id == token_id)

    # -- Power: Carried Off (RL-BL-1, RL-VI-3) ------------------------------------------------------
    def power(self, ctx: GameContext, figure: Figure, target: Character) -> Flow[None]:
        """Villagers with her ride along step by step; one set down on its safe place stays clutched."""
        here = self.here(ctx)
        if here is None:
            return
        goal = yield from self._carry_goal(ctx, here)
        if goal is None:
            ctx.emit("monster-stays", "Carried Off: no villager is elsewhere on the board, so Baba Lysaga stays.",
                     monster=self.id, location=here)
            return
        riders = [v.id for v in ctx.state.villagers_at(here)]
        path = yield from choose_path(ctx, Figure(self.id), here, goal, CARRY_STEPS)
        walk_monster(ctx, Figure(self.id), path, stop_at_characters=False)
        for villager in riders:
            yield from self._carry(ctx, villager, path)

    def _carry_goal(self, ctx: GameContext, here: str) -> Flow[str | None]:
        dist = ctx.graph.distances(here)
        spots = sorted({v.location for v in ctx.villagers_on_board()
                        if v.location is not None and v.location != here and v.location in dist})
        if not spots:
            return None
        best = min(dist[s] for s in spots)
        options = [Option(s, self._villagers_text(ctx, s), {"location": s}) for s in spots if dist[s] == best]
        return (yield from ctx.choose("carried-off-toward", "Carried Off: these villagers are equally close to "
                                      "Baba Lysaga. Which does she go for?", options, ctx.about(Figure(self.id))))

    def _villagers_text(self, ctx: GameContext, location: str) -> str:
        names = ", ".join(ctx.pack.villager(v.id).name for v in ctx.state.villagers_at(location))
        return f"{names} at {ctx.place_name(location)}"

    def _carry(self, ctx: GameContext, villager_id: str, path: tuple[str, ...]) -> Flow[None]:
        villager = ctx.state.villagers[villager_id]
        ctx.emit("villager-moved", f"Move {ctx.pack.villager(villager_id).name} along with Baba Lysaga to "
                 f"{ctx.place_name(path[-1])}.", villager=villager_id, path=list(path))
        for step in path[1:]:
            villager.location, villager.clutched = step, False
            yield from villager_arrives(ctx, villager_id, carrier=self.id)

    # -- Advance: explore the Hut (RL-BL-2, RL-BL-4) ---------------------------------------------------
    def advance_kinds(self) -> tuple[str, ...]:
        return ("reveal", "gem", "scarecrow", "raven")

    def advance(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> Flow[None]:
        step = self.step_of(action)
        require_at(ctx, hero_id, self.here(ctx), "explore Baba Lysaga's Hut", distanced)
        if step == "reveal":
            yield from self._reveal(ctx, hero_id, action)
        elif step == "gem":
            self._move_gem(ctx, hero_id, action)
        else:
            yield from self._fight(ctx, hero_id, action, step)

    def _one_item(self, ctx: GameContext, hero_id: str, action: Action, item_type: ItemType) -> str:
        return check_items(ctx, hero_id, [action_text(action, "item", f"{item_type} item")], item_type, count=1)[0]

    def _reveal(self, ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
        item = self._one_item(ctx, hero_id, action, "mundane")
        spaces = self._spaces_to_reveal(ctx, action, ctx.pack.item(item).strength)
        discard_item(ctx, item, "spent to reveal Hut tokens")
        for space in spaces:
            yield from self._reveal_one(ctx, space)

    def _spaces_to_reveal(self, ctx: GameContext, action: Action, power: int) -> list[str]:
        """The player names which face-down tokens: as many as the item's strength allows."""
        hidden = self.mat(ctx).face_down
        if not hidden:
            raise IllegalInput("every Hut token is already face up: there is nothing left to reveal")
        spaces = action_names(action, "spaces", "Hut spaces")
        wrong = [s for s in spaces if s not in hidden]
        if wrong:
            raise IllegalInput(f"no face-down token lies on {', '.join(wrong)} (face down: {', '.join(hidden)})")
        wanted = min(power, len(hidden))
        if len(spaces) != wanted:
            raise IllegalInput(f"this item reveals exactly {wanted} Hut token(s); {len(spaces)} space(s) were named")
        return spaces

    def _reveal_one(self, ctx: GameContext, space: str) -> Flow[None]:
        mat = self.mat(ctx)
        options = [Option(t.id, _token_choice(t), {"kind": t.kind, "target": t.target}) for t in self._unseen(mat)]
        token = yield from ctx.ask_draw("hut-token", f"Turn over the Hut token on the {_words(space)} space. Which is it?",
                                        options)
        mat.face_down.remove(space)
        mat.revealed[space] = token
        ctx.emit("hut-token", f"The {_words(space)} space shows the {token_name(self.token(token))}: leave it face up.",
                 monster=self.id, space=space, token=token)

    def _unseen(self, mat: HutMat) -> list[HutToken]:
        """Tokens that may still lie face down: neither showing nor removed."""
        gone = set(mat.revealed.values()) | set(mat.removed)
        return [t for t in self.details.tokens if t.id not in gone]


    def _move_gem(self, ctx: GameContext, hero_id: str, action: Action) -> None:
        item = self._one_item(ctx, hero_id, action, "mundane")
        to, mat = action_text(action, "to", "Hut space for the Gem"), self.mat(ctx)
        self._check_gem_move(mat, to, ctx.pack.item(item).strength)
        discard_item(ctx, item, "spent to move the Gem")
        mat.gem = to
        door = " It is on the Door: Baba Lysaga can now be confronted." if to == self.details.door else ""
        ctx.emit("gem-moved", f"Move the Gem to the {_words(to)} space of the Hut.{door}", monster=self.id, space=to)

    def _check_gem_move(self, mat: HutMat, to: str, power: int) -> None:
        spaces = [s.id for s in self.details.spaces]
        if to not in spaces:
            raise IllegalInput(f"the Hut has no space called {to!r} (its spaces: {', '.join(spaces)})")
        if to == mat.gem:
            raise IllegalInput(f"the Gem is already on the {to} space")
        if to in mat.face_down or to in mat.revealed:
            raise IllegalInput(f"the Gem cannot reach the {to} space: a Hut token lies on it (the Gem moves only "
                               "through empty spaces)")
        ends = self.gem_ends(mat, power)
        if not ends:
            raise IllegalInput(f"the Gem cannot move: Hut tokens (face up or down) block every way out of the "
                               f"{mat.gem} space")
        if to not in ends:
            raise IllegalInput(f"the Gem moves exactly {power} empty space{'s' if power != 1 else ''} (the item's "
                               f"Strength; fewer only onto the Door or where no longer way is free), so it cannot "
                               f"end on the {to} space; from the {mat.gem} space it can end on: {', '.join(sorted(ends))}")

    def gem_ends(self, mat: HutMat, power: int) -> set[str]:
        """Where a move of ``power`` spaces can leave the Gem (RL-BL-2, docs/engine.md Readings): a walk
        through empty spaces, never the same space twice, exactly ``power`` long, or as long as the
        free spaces allow when that is less; reaching the Door ends the move early."""
        walks = list(self._gem_walks(mat, power))
        longest = max((len(w) - 1 for w in walks), default=0)
        door = self.details.door
        return {w[-1] for w in walks if len(w) > 1 and (len(w) - 1 == longest or w[-1] == door)}

    def _gem_walks(self, mat: HutMat, power: int) -> Iterator[tuple[str, ...]]:
        """Every walk of the Gem that cannot go on: ``power`` long, at the Door, or boxed in."""
        blocked, links, door = set(mat.face_down) | set(mat.revealed), self._links(), self.details.door
        stack: list[tuple[str, ...]] = [(mat.gem,)]
        while stack:
            walk = stack.pop()
            onward = [] if len(walk) - 1 == power or (walk[-1] == door and len(walk) > 1) else \
                [s for s in sorted(links[walk[-1]]) if s not in blocked and s not in walk]
            if not onward:
                yield walk
            stack.extend(walk + (s,) for s in onward)

    def _links(self) -> dict[str, set[str]]:
        links: dict[str, set[str]] = {s.id: set() for s in self.details.spaces}
        for space in self.details.spaces:
            for other in space.links:
                links[space.id].add(other)
                links.setdefault(other, set()).add(space.id)
        return links

    def _fight(self, ctx: GameContext, hero_id: str, action: Action, kind: str) -> Flow[None]:
        """A scarecrow takes a Weapon, a raven a Magical item; d20 + strength against the token's target."""
        item = self._one_item(ctx, hero_id, action, FIGHTS[kind])
        space = action_text(action, "space", "Hut space")
        token = self._token_on(ctx, space, kind)
        if not (yield from spend_and_check(ctx, [item], kind, f"beat the {kind}", token.target or 0)):
            ctx.emit("note", f"The {kind} holds its space; the spent item stays discarded.", space=space)
            return
        self._remove_token(ctx, space, token)
        if kind == "raven":
            yield from gain_perk(ctx, ctx.active_player, "a raven was released")

    def _token_on(self, ctx: GameContext, space: str, kind: str) -> HutToken:
        mat = self.mat(ctx)
        if space in mat.face_down:
            raise IllegalInput(f"the token on the {space} space is still face down: reveal it first")
        if space not in mat.revealed:
            raise IllegalInput(f"no Hut token lies on the {space} space")
        token = self.token(mat.revealed[space])
        if token.kind == "witch":
            raise IllegalInput("that is Baba Lysaga's own token: it can never be moved or removed, "
                               "so find a way around her")
        if token.kind != kind:
            raise IllegalInput(f"the {space} space shows a {token.kind}, not a {kind}")
        return token

    def _remove_token(self, ctx: GameContext, space: str, token: HutToken) -> None:
        mat = self.mat(ctx)
        del mat.revealed[space]
        mat.removed.append(token.id)
        ctx.emit("hut-token-removed", f"Take the {token_name(token)} off the {_words(space)} space of the Hut.",
                 monster=self.id, space=space, token=token.id)

    def advance_options(self, ctx: GameContext, hero_id: str, distanced: bool) -> list[ActionDict]:
        if not distanced and away_from(ctx, hero_id, self.here(ctx), "explore"):
            return []
        options = self._reveal_options(ctx, hero_id) + self._gem_options(ctx, hero_id)
        for space, token_id in sorted(self.mat(ctx).revealed.items()):
            kind = self.token(token_id).kind
            if kind in FIGHTS:
                options += [self.advance_action(kind, item=i, space=space)
                            for i in one_per_strength(ctx, held_of_type(ctx, hero_id, FIGHTS[kind]))]
        return options[:MAX_OPTIONS]

    def _reveal_options(self, ctx: GameContext, hero_id: str) -> list[ActionDict]:
        hidden, chosen = self.mat(ctx).face_down, dict[int, str]()
        for item in by_strength(ctx, held_of_type(ctx, hero_id, "mundane")):
            chosen.setdefault(min(ctx.pack.item(item).strength, len(hidden)), item)
        return [self.advance_action("reveal", item=i, spaces=hidden[:n]) for n, i in chosen.items() if n]

    def _gem_options(self, ctx: GameContext, hero_id: str) -> list[ActionDict]:
        """One Gem move per space it can end on, with the weakest Mundane item that ends there."""
        mat, options, seen = self.mat(ctx), [], set[str]()
        for item in one_per_strength(ctx, held_of_type(ctx, hero_id, "mundane")):
            for space in sorted(self.gem_ends(mat, ctx.pack.item(item).strength) - seen):
                seen.add(space)
                options.append(self.advance_action("gem", item=item, to=space))
        return options

    # -- Defeat (RL-BL-3) -------------------------------------------------------------------------
    def defeat_blocker(self, ctx: GameContext, hero_id: str) -> str | None:
        gem = self.mat(ctx).gem
        if gem != self.details.door:
            return (f"Baba Lysaga cannot be confronted yet: the Gem must reach the Door of her Hut "
                    f"(it is on the {gem} space)")
        return away_from(ctx, hero_id, self.here(ctx), "confront Baba Lysaga")


def token_name(token: HutToken) -> str:
    """A Hut token's one name, the same on her mat, in the questions and in the steps: its kind
    and the target printed on it (the ids' numbers are ours, not on the token)."""
    if token.kind == "witch":
        return "Baba Lysaga token"
    return f"{token.kind} token (target {token.target})"


def _token_choice(token: HutToken) -> str:
    """The token as a choice when it is turned over: its name, and for hers what it means."""
    if token.kind == "witch":
        return f"{token_name(token)} (she can never be moved or removed)"
    return token_name(token)


def _words(space: str) -> str:
    """A Hut space as players say it ("lower right"), as her mat's lines show it too."""
    return space.replace("-", " ")
