"""Ravenloft as an edition of the Horrified core: what its rules add, through the core's
hooks (horrified_core.edition). Its checks are d20 rolls with Perk cards and Dark Gifts
in their window (d20.py); a defeated hero returns at the Gates of Barovia; the Warlock's
ward and a Dark Gift stop hits before a hero answers them; the Ranger slows the monsters;
each hero's special action is a d20 row of their tile (specials.py)."""

from __future__ import annotations

from typing import Collection, Mapping

from companion.engine.game import Flow
from companion.engine.registry import Registry
from companion.games.horrified_core.attack import Defence
from companion.games.horrified_core.context import GameContext
from companion.games.horrified_core.edition import Action, Labeller, Strike
from companion.games.horrified_core.events import COMMON_EVENTS, EventStep
from companion.games.horrified_core.fields import text_field
from companion.games.horrified_core.hero_phase import ActionKind
from companion.games.horrified_core.monsters import MonsterRegistry
from companion.games.horrified_core.pack_types import MonsterCard
from companion.games.horrified_core.packfiles import PackSpec
from companion.games.horrified_core.perks import PerkKind

from . import gifts
from .d20 import challenge_text, check, choose_first_player
from .monsters import REGISTRY
from .pack import SPEC
from .pack_types import board_of, tile
from .perks import PERKS
from .specials import slowed, special_action, warded
from .state import GameState, HeroState, hero_of


def _gift(ctx: GameContext, hero_id: str, action: Mapping[str, object]) -> Flow[None]:
    """RL-HA-8: any player, any time, no action."""
    gifts.accept_gift(ctx, text_field(action, "hero") if "hero" in action else hero_id)
    return
    yield


ACTIONS: Mapping[str, ActionKind] = {
    "special": ActionKind(special_action),
    "gift": ActionKind(_gift, costs_action=False),
}
LABELS: Mapping[str, Labeller] = {
    "special": lambda ctx, a: "Special action (roll the d20)",
    "gift": lambda ctx, a: f"Accept the Dark Gift of {ctx.hero_name(str(a['hero']))}",
}


class RavenloftEdition:
    """The hooks the Horrified core calls for a Ravenloft game."""

    state_class = GameState
    item_bag = "the Haversack"
    hero_marks: Collection[str] = ("gift",)
    hero_actions = ACTIONS
    labels = LABELS

    @property
    def monsters(self) -> MonsterRegistry:
        return REGISTRY

    @property
    def pack_spec(self) -> PackSpec:
        return SPEC

    @property
    def events(self) -> Registry[EventStep]:
        return COMMON_EVENTS

    @property
    def perks(self) -> Registry[PerkKind]:
        return PERKS

    def new_hero(self, hero_id: str, player: str, location: str | None = None, *, items: Collection[str] = (),
                 relics: Collection[str] = (), perks: Collection[str] = (),
                 marks: Mapping[str, object] | None = None) -> HeroState:
        gift = bool((marks or {}).get("gift", False))
        return HeroState(hero_id, player, location, list(items), list(relics), list(perks), gift=gift)

    def action_menu(self, ctx: GameContext) -> list[Action]:
        return [{"action": "special"}]

    def free_menu(self, ctx: GameContext) -> list[Action]:
        return [{"action": "gift", "hero": h.id} for h in ctx.state.heroes.values() if not hero_of(ctx.state, h.id).gift]

    # -- turns -------------------------------------------------------------------------------
    def first_player(self, ctx: GameContext) -> Flow[None]:
        yield from choose_first_player(ctx)

    def turn_actions(self, ctx: GameContext, hero_id: str) -> int:
        return tile(ctx.pack, hero_id).actions + gifts.gift_effects(ctx, hero_id).get("extra_actions", 0)

    def return_place(self, ctx: GameContext, hero_id: str) -> str:
        """The Gates of Barovia (RL-TU-3)."""
        return board_of(ctx.pack).gates

    # -- the Monster Phase ---------------------------------------------------------------------
    def strikes(self, ctx: GameContext, monster_id: str, symbol: str, card: MonsterCard | None) -> Strike:
        """Every monster the attack line shows strikes, the Event's too (RL-MP-4)."""
        return "move and attack"

    def heroes_first_when_moving(self, ctx: GameContext) -> bool:
        """Ties for closest: a hero over a villager (RL-MP-8)."""
        return True

    def monster_steps(self, ctx: GameContext, steps: int) -> int:
        return slowed(ctx, steps)

    def absorb_hits(self, ctx: GameContext, hero_id: str, hits: int) -> int:
        """A Warlock's ward first, then a Gift that ignores the first hit each turn."""
        return gifts.ignore_first_hit(ctx, hero_id, warded(ctx, hero_id, hits))

    def defences(self, ctx: GameContext, hero_id: str, hits: int) -> list[Defence]:
        return gifts.gift_defences(ctx, hero_id, hits)

    def defence_items_lost(self, ctx: GameContext, hero_id: str) -> str:
        return gifts.defence_items_lost(ctx, hero_id)

    def hero_defeated(self, ctx: GameContext, hero_id: str) -> None:
        gifts.defeat_costs_more(ctx, hero_id)

    def villager_death_terror(self, ctx: GameContext) -> int:
        return gifts.villager_death_terror(ctx)

    def monster_defeat_terror(self, ctx: GameContext) -> int:
        """Each defeated monster lowers the Terror by one (RL-END-4)."""
        return 1

    # -- challenges ----------------------------------------------------------------------------
    def challenge_check(self, ctx: GameContext, key: str, what: str, strength: int, target: int) -> Flow[bool]:
        """The d20 plus the items' strength and the bonuses in force (RL-HA-5, RL-HA-6)."""
        return (yield from check(ctx, key, challenge_text(what, strength, target), strength, target))
