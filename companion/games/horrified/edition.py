"""The original Horrified as an edition of the Horrified core: what its rules add, through the
core's hooks (horrified_core.edition). No die but the Monster dice: a task or a Defeat is done
by the items' strength alone. A defeated hero comes back at the Hospital. On a Monster card,
the monster the Event is about does not attack unless it is the frenzied one. The Terror only
goes up. A monster goes for the closest person, hero or villager alike. The seat the
players put first starts, and each hero's special action is its badge's (specials.py).
"""

from __future__ import annotations

from typing import Collection, Mapping

from companion.engine.game import Flow
from companion.engine.registry import Registry
from companion.games.horrified_core.attack import Defence
from companion.games.horrified_core.context import GameContext
from companion.games.horrified_core.edition import Action, Labeller, Strike
from companion.games.horrified_core.events import EventStep
from companion.games.horrified_core.hero_phase import ActionKind
from companion.games.horrified_core.monsters import MonsterRegistry
from companion.games.horrified_core.pack_types import MonsterCard
from companion.games.horrified_core.packfiles import PackSpec
from companion.games.horrified_core.perks import PerkKind
from companion.games.horrified_core.state import HeroState

from .events import EVENTS
from .monsters import REGISTRY
from .pack import SPEC
from .pack_types import board_of
from .perks import PERKS
from .specials import special_action, special_label, special_menu
from .state import GameState

ACTIONS: Mapping[str, ActionKind] = {"special": ActionKind(special_action)}
LABELS: Mapping[str, Labeller] = {"special": special_label}


def event_monster(ctx: GameContext, card: MonsterCard | None, monster_id: str) -> bool:
    """Whether ``monster_id`` is the monster the card's Event is about (its symbol is on the monster's mat)."""
    return card is not None and card.event.params.get("symbol") in ctx.monster(monster_id).symbols


class OriginalEdition:
    """The hooks the Horrified core calls for a game of the original box."""

    state_class = GameState
    item_bag = "the item bag"
    hero_marks: Collection[str] = ()
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
        return EVENTS

    @property
    def perks(self) -> Registry[PerkKind]:
        return PERKS

    def new_hero(self, hero_id: str, player: str, location: str | None = None, *, items: Collection[str] = (),
                 relics: Collection[str] = (), perks: Collection[str] = (),
                 marks: Mapping[str, object] | None = None) -> HeroState:
        return HeroState(hero_id, player, location, list(items), list(relics), list(perks))

    def action_menu(self, ctx: GameContext) -> list[Action]:
        return special_menu(ctx)

    def free_menu(self, ctx: GameContext) -> list[Action]:
        return []

    # -- turns -------------------------------------------------------------------------------------------
    def first_player(self, ctx: GameContext) -> Flow[None]:
        """The players sit in the order they gave; the first of them starts, and play goes clockwise."""
        ctx.state.active = 0
        first = ctx.state.seats[0]
        ctx.emit("first-player", f"{ctx.state.heroes[first].player} goes first; play goes clockwise.", hero=first)
        return
        yield

    def turn_actions(self, ctx: GameContext, hero_id: str) -> int:
        return ctx.pack.hero(hero_id).actions

    def return_place(self, ctx: GameContext, hero_id: str) -> str:
        """The Hospital."""
        return board_of(ctx.pack).hospital

    # -- the Monster Phase ---------------------------------------------------------------------------------
    def strikes(self, ctx: GameContext, monster_id: str, symbol: str, card: MonsterCard | None) -> Strike:
        """"The Event Monster does not attack unless Frenzied": it still moves (the board's setting
        ``event_monster_moves``, ours) or is passed over altogether (the other reading)."""
        if not event_monster(ctx, card, monster_id) or ctx.state.frenzy == monster_id:
            return "move and attack"
        return "move only" if board_of(ctx.pack).event_monster_moves.value else "none"

    def heroes_first_when_moving(self, ctx: GameContext) -> bool:
        """Monsters "move towards the closest person (Hero or Villager)": a hero goes before a villager
        only among victims in the monster's own space, so equally close people are the active player's
        choice, heroes and villagers alike."""
        return False

    def monster_steps(self, ctx: GameContext, steps: int) -> int:
        return steps

    def absorb_hits(self, ctx: GameContext, hero_id: str, hits: int) -> int:
        return hits

    def defences(self, ctx: GameContext, hero_id: str, hits: int) -> list[Defence]:
        return []

    def defence_items_lost(self, ctx: GameContext, hero_id: str) -> str:
        return ""

    def hero_defeated(self, ctx: GameContext, hero_id: str) -> None:
        """A defeated hero keeps their items and Perk cards: nothing else is lost."""

    def villager_death_terror(self, ctx: GameContext) -> int:
        return 1

    def monster_defeat_terror(self, ctx: GameContext) -> int:
        """The Terror Level "increases each time a Hero or Villager is defeated": it never goes down."""
        return 0

    # -- challenges ------------------------------------------------------------------------------------------
    def challenge_check(self, ctx: GameContext, key: str, what: str, strength: int, target: int) -> Flow[bool]:
        """The items' strength alone (no die is rolled)."""
        success = strength >= target
        ctx.emit("check", f"Strength {strength} against {target} to {what}: {'done' if success else 'not enough'}.",
                 key=key, value=strength, total=strength, target=target, success=success)
        return success
        yield


__all__ = ["OriginalEdition", "event_monster"]
