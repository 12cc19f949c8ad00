"""What one edition of Horrified adds to the shared rules: the ``Edition`` the core calls.

The core plays what every edition shares (the Monster Phase, the attack line, frenzy,
items, villagers, Perks, the common hero actions); wherever the editions' rulebooks
differ, it asks its edition through one of these small hooks instead of naming a game.
They are shaped by the editions' rulebooks: where a defeated hero comes back (a town's
gate, the Hospital), what stops hits before a hero answers them (a hero's ward or mark;
nothing), how a challenge is checked (a die roll plus the items' strength; the strength
alone), which monsters strike on a card (every one shown; the card's Event monster only
moves unless it is frenzied), whom a monster heads for (a hero before a villager; the closest
person either way), whether a defeated monster lowers the Terror, what a hero's special action is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Collection, Literal, Mapping, Protocol

from companion.engine.game import Flow
from companion.engine.registry import Registry

if TYPE_CHECKING:
    from .attack import Defence
    from .context import GameContext
    from .events import EventStep
    from .hero_phase import ActionKind
    from .monsters import MonsterRegistry
    from .pack_types import MonsterCard
    from .packfiles import PackSpec
    from .perks import PerkKind
    from .state import GameState, HeroState

Action = dict[str, object]
#: What a monster shown on the attack line does: moves and attacks, only moves, or nothing.
Strike = Literal["move and attack", "move only", "none"]
#: How a menu labels one kind of action ("Special action").
Labeller = Callable[["GameContext", Mapping[str, object]], str]


class Edition(Protocol):
    """One edition's parts and hooks. Stateless: one serves every game of the edition."""

    # -- its parts ------------------------------------------------------------------------
    @property
    def state_class(self) -> type[GameState]:
        """The edition's state (its fields are the saved state's shape)."""
        ...

    @property
    def hero_marks(self) -> Collection[str]:
        """Fields of its own a hero has in a position ("gift"), beside the shared ones."""
        ...

    def new_hero(self, hero_id: str, player: str, location: str | None = None, *, items: Collection[str] = (),
                 relics: Collection[str] = (), perks: Collection[str] = (),
                 marks: Mapping[str, object] | None = None) -> HeroState:
        """A hero's state; ``marks``: the edition's own fields, as a position gives them."""
        ...

    @property
    def item_bag(self) -> str:
        """What its bag of Item tokens is called in a sentence ("the item bag")."""
        ...

    @property
    def monsters(self) -> MonsterRegistry:
        ...

    @property
    def pack_spec(self) -> PackSpec:
        """What its pack's files hold (the loader's spec: symbols, counts, primitives)."""
        ...

    @property
    def events(self) -> Registry[EventStep]:
        """Its Monster card Event primitives."""
        ...

    @property
    def perks(self) -> Registry[PerkKind]:
        """Its Perk card primitives."""
        ...

    @property
    def hero_actions(self) -> Mapping[str, ActionKind]:
        """Hero actions of its own, beside move, guide, pick up, share, advance, defeat and perk
        (a hero's special action)."""
        ...

    @property
    def labels(self) -> Mapping[str, Labeller]:
        """Menu labels of those actions."""
        ...

    def action_menu(self, ctx: GameContext) -> list[Action]:
        """Concrete actions of its own the active hero may take now for an action (a menu's)."""
        ...

    def free_menu(self, ctx: GameContext) -> list[Action]:
        """Concrete moves of its own that cost no action, for any player (a menu's)."""
        ...

    # -- turns ---------------------------------------------------------------------------
    def first_player(self, ctx: GameContext) -> Flow[None]:
        """Find the first player at setup and make them active."""
        ...

    def turn_actions(self, ctx: GameContext, hero_id: str) -> int:
        """How many actions the hero has this turn."""
        ...

    def return_place(self, ctx: GameContext, hero_id: str) -> str:
        """Where a defeated hero comes back at the start of their turn."""
        ...

    # -- the Monster Phase -------------------------------------------------------------------
    def strikes(self, ctx: GameContext, monster_id: str, symbol: str, card: MonsterCard | None) -> Strike:
        """What a monster shown on the attack line (by ``symbol``) does: moves and attacks, only
        moves (it does not attack on this card), or nothing (its symbol is passed over)."""
        ...

    def heroes_first_when_moving(self, ctx: GameContext) -> bool:
        """Whether a monster moving toward the closest person goes for a hero over a villager at the
        same distance (True), or the active player chooses among all of them (False)."""
        ...

    def monster_steps(self, ctx: GameContext, steps: int) -> int:
        """How many locations a monster moves when the attack line says ``steps``."""
        ...

    def absorb_hits(self, ctx: GameContext, hero_id: str, hits: int) -> int:
        """The hits left for the hero to answer once whatever stops hits first has (a ward)."""
        ...

    def defences(self, ctx: GameContext, hero_id: str, hits: int) -> list[Defence]:
        """Answers to a hit of its own, beside discarding items and falling."""
        ...

    def defence_items_lost(self, ctx: GameContext, hero_id: str) -> str:
        """Why items the hero discards to stop a hit leave the game for good; "" when they are
        simply discarded."""
        ...

    def hero_defeated(self, ctx: GameContext, hero_id: str) -> None:
        """What else a hero's defeat costs, after the Terror step every edition has."""
        ...

    def villager_death_terror(self, ctx: GameContext) -> int:
        """How many Terror steps a killed villager costs."""
        ...

    def monster_defeat_terror(self, ctx: GameContext) -> int:
        """How many steps the Terror marker goes down when a monster is defeated (0: it never does)."""
        ...

    # -- challenges ----------------------------------------------------------------------------
    def challenge_check(self, ctx: GameContext, key: str, what: str, strength: int, target: int) -> Flow[bool]:
        """Whether spending items of ``strength`` on ``what`` (an Advance or a Defeat) reaches
        ``target``: a roll the table makes (``key`` names its prompt), or the strength alone."""
        ...
