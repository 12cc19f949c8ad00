"""Strahd von Zarovich (RL-ST-1 .. RL-ST-6, RL-SU-9, RL-IT-5).

A four-step hunt: Madam Eva's Tarokka cards say where the three Relics lie,
the heroes carry the Relics home into the castle, destroy the Heart of Sorrow
(which drops Strahd into the North Tower) and then face him. Relics are not
items: they are picked up and shared like items but never stop a hit.
"""

from __future__ import annotations

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.graph import Graph
from companion.engine.prompts import Option
from companion.games.horrified_core.attack import land_hits, spared
from companion.games.horrified_core.challenge import (away_from, by_strength, check_items, held_of_type, item_sets,
                                                      items_named, require_at, spend_and_check)
from companion.games.horrified_core.context import Character, Figure, GameContext
from companion.games.horrified_core.fields import action_text
from companion.games.horrified_core.items import discard_item
from companion.games.horrified_core.monsters import MAX_OPTIONS, Action, ActionDict, MonsterLook, MonsterRules, View
from companion.games.horrified_core.state import Mat

from ..pack_types import CASTLE_MAT, ITEM_TYPES, board_of
from ..state import bonuses_of
from .registry import REGISTRY
from .strahd_mat import Relic, StrahdDetails, StrahdMat, TarokkaCard, parse_details

ITEM_TYPE_WORDS = {"weapon": "Weapon", "magical": "Magical", "mundane": "Mundane"}


@REGISTRY.register
class StrahdRules(MonsterRules):
    id = "strahd"
    area = CASTLE_MAT  # his second mat joins the board while he is in the game (RL-SU-9, RL-ST-6)
    look = MonsterLook("blue", "slow breathing")
    parse_details = staticmethod(parse_details)

    @property
    def details(self) -> StrahdDetails:
        details = self.monster.details
        assert isinstance(details, StrahdDetails), "Strahd's pack entry needs his Tarokka cards and Relics"
        return details

    def defeat_target(self) -> int:
        return self.details.defeat_target

    def mat(self, ctx: GameContext) -> StrahdMat:
        return self.mat_of(ctx, StrahdMat)

    def new_mat(self) -> StrahdMat:
        return StrahdMat()

    def relic_ids(self) -> tuple[str, ...]:
        return tuple(relic.id for relic in self.details.relics)

    def relics_at(self, ctx: GameContext, location: str) -> list[str]:
        return [relic for relic, where in self.mat(ctx).relics_on_board.items() if where == location]

    def relic_name(self, relic_id: str) -> str:
        return self.relic(relic_id).name

    def mat_view(self, ctx: GameContext) -> View:
        """The Tarokka cards turned face up, the Relics lying out and back home, the Heart."""
        mat = self.mat(ctx)
        shown = ", ".join(f"{ITEM_TYPE_WORDS.get(kind, kind)}: {self.card(card).name}" for kind, card in mat.revealed.items())
        out = ", ".join(f"{self.relic(r).name} at {ctx.place_name(where)}" for r, where in mat.relics_on_board.items())
        home = ", ".join(self.relic(r).name for r in mat.relics_returned)
        lines = [f"Tarokka cards shown: {shown}" if shown else "No Tarokka card shown yet",
                 *([f"Relics on the board: {out}"] if out else []), *([f"Relics returned: {home}"] if home else []),
                 f"Heart of Sorrow: {'destroyed' if mat.heart_destroyed else 'intact'}"]
        return {"lines": lines, "revealed": dict(mat.revealed), "relics_on_board": dict(mat.relics_on_board),
                "relics_returned": list(mat.relics_returned), "heart_destroyed": mat.heart_destroyed}

    def board_figures(self, ctx: GameContext) -> list[View]:
        return [{"kind": "relic", "id": relic, "location": where, "name": self.relic(relic).name}
                for relic, where in self.mat(ctx).relics_on_board.items()]

    def pack_view(self) -> dict[str, list[View]]:
        """His Relics by name: the state holds only their ids (heroes' hands, the mat)."""
        return {"relics": [{"id": r.id, "name": r.name, "return_to": r.return_to} for r in self.details.relics]}

    def mat_problems(self, mat: Mat, graph: Graph) -> list[str]:
        assert isinstance(mat, StrahdMat)
        relics, cards = set(self.relic_ids()), {card.id: card.type for card in self.details.tarokka}
        problems = [f"revealed.{kind}: {card!r} is not a Tarokka card of that type"
                    for kind, card in mat.revealed.items() if cards.get(card) != kind]
        problems += [f"relics_on_board.{relic}: no such relic, or {where!r} is not on this board"
                     for relic, where in mat.relics_on_board.items() if relic not in relics or where not in graph]
        problems += [f"relics_returned: no relic {relic!r}" for relic in mat.relics_returned if relic not in relics]
        return problems

    def setup(self, ctx: GameContext) -> Flow[None]:
        """RL-SU-9: the castle mat joins the board (the graph includes it while Strahd is in the game)."""
        yield from super().setup(ctx)
        ctx.emit("mat-setup", "Put Strahd's second mat next to Castle Ravenloft. Shuffle the Tarokka cards, lay three "
                 "face down on his first mat and put the rest back in the box; put the three Relics on his first mat "
                 "and the Heart of Sorrow on the second.", monster=self.id)

    def relic(self, relic_id: str) -> Relic:
        for relic in self.details.relics:
            if relic.id == relic_id:
                return relic
        known = ", ".join(r.id for r in self.details.relics)
        raise IllegalInput(f"there is no Relic called {relic_id!r} (the Relics: {known})")

    def card(self, card_id: str) -> TarokkaCard:
        return next(c for c in self.details.tarokka if c.id == card_id)

    # -- Power: Strahd's Fury (RL-ST-1) ----------------------------------------------------------
    def power(self, ctx: GameContext, figure: Figure, target: Character) -> Flow[None]:
        """One hit to everyone with him (a hero no monster may attack this turn is passed over)."""
        here = self.here(ctx)
        victims = [c for c in ctx.characters_at(here) if not spared(ctx, c)] if here else []
        if not victims:
            ctx.emit("note", "Strahd's Fury: no one he may hit is with Strahd.", monster=self.id)
            return
        ctx.emit("strahd-fury", f"Strahd's Fury: everyone at {ctx.place_name(here)} takes 1 hit.",
                 monster=self.id, location=here)
        for who in (yield from self._fury_order(ctx, victims)):
            if ctx.character_location(who) == here:
                yield from land_hits(ctx, who, 1, figure)

    def _fury_order(self, ctx: GameContext, victims: list[Character]) -> Flow[list[Character]]:
        """The order is asked only where it changes what happens (RL-MP-5): a Warlock's ward stops
        the first hits on heroes, so with fewer wards than heroes hit, the player says whose hits
        come first. Otherwise every victim takes the same hit whatever the order."""
        heroes = [c for c in victims if c.kind == "hero"]
        wards = bonuses_of(ctx.state).ward
        if not 0 < wards < len(heroes):
            return heroes + [c for c in victims if c.kind != "hero"]
        shielded: list[Character] = []
        while len(shielded) < wards:
            left = {f"hero:{c.id}": c for c in heroes if c not in shielded}
            options = [Option(key, ctx.character_name(c)) for key, c in left.items()]
            chosen = yield from ctx.choose("fury-order", f"Strahd's Fury: the ward stops {wards} hit"
                                           f"{'s' if wards > 1 else ''} on heroes. Whose hit does it stop?", options,
                                           ctx.about(Figure(self.id)))
            shielded.append(left[chosen])
        rest = [c for c in victims if c not in shielded]
        return shielded + rest

    # -- Relics on the board (RL-IT-5) ---------------------------------------------------------------
    def pick_up_relics(self, ctx: GameContext, hero_id: str, relic_ids: list[str]) -> None:
        """The Pick Up action's part for Relics: only those lying where the hero stands."""
        hero, lying = ctx.state.heroes[hero_id], self.mat(ctx).relics_on_board
        if len(set(relic_ids)) != len(relic_ids):
            raise IllegalInput("the same Relic was named twice")
        for relic in map(self.relic, relic_ids):
            where = lying.get(relic.id)
            if where is None:
                raise IllegalInput(f"the {relic.name} is not lying on the board")
            if where != hero.location:
                raise IllegalInput(f"the {relic.name} lies at {ctx.place_name(where)}, but {ctx.hero_name(hero_id)} "
                                   f"is at {ctx.place_name(hero.location)}")
        for relic_id in relic_ids:
            del lying[relic_id]
            hero.relics.append(relic_id)
            ctx.emit("relic-picked-up", f"{ctx.hero_name(hero_id)} picks up the {self.relic(relic_id).name}.",
                     hero=hero_id, relic=relic_id)

    # -- Advance (RL-ST-2 .. RL-ST-4) -------------------------------------------------------------------
    def advance_kinds(self) -> tuple[str, ...]:
        return ("eva", "relic", "heart")

    def advance(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> Flow[None]:
        step = self.step_of(action)
        if step == "eva":
            yield from self._consult_eva(ctx, hero_id, action, distanced)
        elif step == "relic":
            self._return_relic(ctx, hero_id, action, distanced)
        else:
            yield from self._destroy_heart(ctx, hero_id, action, distanced)

    def _consult_eva(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> Flow[None]:
        """The item's type picks the Tarokka card; which card of that type lay there is an input."""
        require_at(ctx, hero_id, board_of(ctx.pack).madam_evas_tent, "consult Madam Eva", distanced)
        item = check_items(ctx, hero_id, [action_text(action, "item", "item")], count=1)[0]
        kind, mat = ctx.pack.item(item).type, self.mat(ctx)
        if kind in mat.revealed:
            raise IllegalInput(f"the Tarokka card for {kind} items is already face up "
                               f"({self.card(mat.revealed[kind]).name}); spend an item of another type")
        cards = self._cards_left(ctx, kind)
        if not cards:
            raise IllegalInput(f"no Tarokka card for {kind} items can still point to a Relic")
        discard_item(ctx, item, "spent to consult Madam Eva")
        options = [Option(c.id, f"{c.name} ({ctx.place_name(c.location)})") for c in cards]
        card = self.card((yield from ctx.ask_draw("tarokka", f"Turn over the Tarokka card for {kind} items. "
                                                  "Which card is it?", options)))
        mat.revealed[kind] = card.id
        mat.relics_on_board[card.relic] = card.location
        ctx.emit("relic-placed", f"The card is {card.name}: put the {self.relic(card.relic).name} at "
                 f"{ctx.place_name(card.location)}.", monster=self.id, card=card.id, relic=card.relic,
                 location=card.location)

    def _cards_left(self, ctx: GameContext, kind: str) -> list[TarokkaCard]:
        return [c for c in self.details.tarokka if c.type == kind and not self._relic_found(ctx, c.relic)]

    def _relic_found(self, ctx: GameContext, relic_id: str) -> bool:
        mat = self.mat(ctx)
        held = any(relic_id in h.relics for h in ctx.state.heroes.values())
        return held or relic_id in mat.relics_on_board or relic_id in mat.relics_returned

    def _return_relic(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> None:
        relic, mat = self.relic(action_text(action, "relic", "Relic")), self.mat(ctx)
        hero = ctx.state.heroes[hero_id]
        if relic.id not in hero.relics:
            already = " (it is already back in the castle)" if relic.id in mat.relics_returned else ""
            raise IllegalInput(f"{ctx.hero_name(hero_id)} does not hold the {relic.name}{already}")
        require_at(ctx, hero_id, relic.return_to, f"return the {relic.name}", distanced)
        hero.relics.remove(relic.id)
        mat.relics_returned.append(relic.id)
        ctx.emit("relic-returned", f"Put the {relic.name} in {ctx.place_name(relic.return_to)} "
                 f"({len(mat.relics_returned)} of {len(self.details.relics)} Relics returned).",
                 monster=self.id, relic=relic.id, location=relic.return_to)

    def _destroy_heart(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> Flow[None]:
        """All Relics first (RL-ST-3); success places Strahd in the North Tower (placed, not moved)."""
        details, mat = self.details, self.mat(ctx)
        if mat.heart_destroyed:
            raise IllegalInput("the Heart of Sorrow is already destroyed")
        missing = [r.name for r in details.relics if r.id not in mat.relics_returned]
        if missing:
            raise IllegalInput("every Relic must be back in the castle before the Heart of Sorrow can be attacked; "
                               f"still missing: {', '.join(missing)}")
        require_at(ctx, hero_id, details.heart_location, "destroy the Heart of Sorrow", distanced)
        items = check_items(ctx, hero_id, items_named(action), "weapon")
        if not (yield from spend_and_check(ctx, items, "heart", "destroy the Heart of Sorrow", details.heart_target)):
            ctx.emit("note", "The Heart of Sorrow still beats; the spent items stay discarded.", monster=self.id)
            return
        mat.heart_destroyed = True
        ctx.put(Figure(self.id), details.north_tower)
        ctx.emit("heart-destroyed", "Take the Heart of Sorrow off Strahd's second mat.", monster=self.id)
        ctx.emit("monster-placed", f"Place Strahd in {ctx.place_name(details.north_tower)} (he is placed there, "
                 "not moved).", monster=self.id, location=details.north_tower)

    def advance_options(self, ctx: GameContext, hero_id: str, distanced: bool) -> list[ActionDict]:
        options = self._eva_options(ctx, hero_id, distanced) + self._relic_options(ctx, hero_id, distanced)
        mat, details = self.mat(ctx), self.details
        ready = not mat.heart_destroyed and len(mat.relics_returned) == len(details.relics)
        if ready and (distanced or not away_from(ctx, hero_id, details.heart_location, "heart")):
            weapons = held_of_type(ctx, hero_id, "weapon")
            options += [self.advance_action("heart", items=s) for s in item_sets(ctx, weapons)]
        return options[:MAX_OPTIONS]

    def _eva_options(self, ctx: GameContext, hero_id: str, distanced: bool) -> list[ActionDict]:
        if not distanced and away_from(ctx, hero_id, board_of(ctx.pack).madam_evas_tent, "eva"):
            return []
        options: list[ActionDict] = []
        for kind in ITEM_TYPES:
            held = by_strength(ctx, held_of_type(ctx, hero_id, kind))
            if held and kind not in self.mat(ctx).revealed and self._cards_left(ctx, kind):
                options.append(self.advance_action("eva", item=held[0]))
        return options

    def _relic_options(self, ctx: GameContext, hero_id: str, distanced: bool) -> list[ActionDict]:
        relics = [self.relic(r) for r in ctx.state.heroes[hero_id].relics]
        return [self.advance_action("relic", relic=r.id) for r in relics
                if distanced or not away_from(ctx, hero_id, r.return_to, "return")]

    # -- Defeat (RL-ST-5) ---------------------------------------------------------------------------------
    def defeat_blocker(self, ctx: GameContext, hero_id: str) -> str | None:
        if not self.mat(ctx).heart_destroyed:
            return "Strahd cannot be faced yet: the Heart of Sorrow must be destroyed first"
        return away_from(ctx, hero_id, self.here(ctx), "face Strahd")

    def defeat_items(self, ctx: GameContext, hero_id: str, items: list[str]) -> list[str]:
        """The showdown takes exactly three items, of any type (RL-ST-5)."""
        return check_items(ctx, hero_id, items, count=self.details.showdown_items)

    def defeat_options(self, ctx: GameContext, hero_id: str) -> list[ActionDict]:
        """The strongest and the weakest set of exactly ``showdown_items`` items."""
        held, count = ctx.state.heroes[hero_id].items, self.details.showdown_items
        if self.defeat_blocker(ctx, hero_id) or len(held) < count:
            return []
        sets = [by_strength(ctx, held, strongest_first=True)[:count], by_strength(ctx, held)[:count]]
        return [self.defeat_action(s) for s in ([sets[0]] if sorted(sets[0]) == sorted(sets[1]) else sets)]

    def on_defeated(self, ctx: GameContext) -> None:
        """Relics only serve to reach him; any still out (not possible in normal play) go back in the box."""
        mat = self.mat(ctx)
        loose = list(mat.relics_on_board) + [r for h in ctx.state.heroes.values() for r in h.relics]
        if loose:
            ctx.emit("relics-cleared", "Put the Relics still out back in the box: they have no use now.",
                     monster=self.id, relics=loose)
        mat.relics_on_board.clear()
        for hero in ctx.state.heroes.values():
            hero.relics.clear()
