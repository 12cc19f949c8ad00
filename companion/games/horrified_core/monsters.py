"""Monsters as plug-ins: the shape every monster's module has, and the registry an edition
keeps of its monsters (no if-chains over monster names in the shared rules).

A plug-in is a :class:`MonsterRules` subclass that registers itself with its edition's
:class:`MonsterRegistry`. It brings its own data (``parse_details``: the record of what is
printed on its mat, checked when the pack loads), its own mat state (a dataclass in
``state.MATS``, made by ``new_mat``), its own look under the board (``look``), its own
words (``mat_view``, ``minion_name``) and its own rules (setup, Power, Advance steps,
Defeat). The instances hold no game state (that lives on the mats in the state), so one
set serves every game played with a pack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Iterator, Mapping, TypeVar

from companion.engine.errors import IllegalInput, SetupError
from companion.engine.game import Flow
from companion.engine.graph import Graph
from companion.engine.words import counted

from .attack import attack
from .challenge import check_items, held_of_type, item_sets, items_named, spend_and_check
from .context import Character, Figure, GameContext, GameEnded
from .frenzy import pass_frenzy
from .items import discard_item
from .movement import closest_places, move_toward_closest
from .pack_types import ItemType, Monster, Pack
from companion.games.datafiles import Node
from .packdata import Known
from .state import Mat
from .terror import lower_terror

Action = Mapping[str, object]
ActionDict = dict[str, object]
View = dict[str, object]
M = TypeVar("M", bound=Mat)
#: At most this many concrete actions are offered per monster (simulator, tablet).
MAX_OPTIONS = 20


@dataclass(frozen=True)
class Actor:
    """Something that acts when a monster's symbol is read on the attack line.

    Most monsters have one actor, themselves; a monster with minions may have
    more (the monster, and "one of its minions").
    """

    monster: str
    role: str
    label: str
    attacks: bool = True  # False: on this card it only moves (an edition's Event monster)


@dataclass(frozen=True)
class MonsterLook:
    """How a monster shows under the board, by name: a colour and a rhythm (so colour is
    never the only signal). The LED layer turns the names into light."""

    colour: str  # e.g. "orange"
    pattern: str  # "steady", "double blink", "slow breathing", "marching chase"


class MonsterRules:
    """Default behaviour: move toward the closest character, then attack."""

    id: ClassVar[str] = ""
    rooted: ClassVar[bool] = False  # never moves (RL-GT-1)
    carries_characters: ClassVar[bool] = False  # its Power moves characters along (RL-BL-1)
    defeat_type: ClassVar[ItemType | None] = None  # the single-type icon of the Defeat step
    area: ClassVar[str | None] = None  # an extra mat of locations joining the board while it is in play
    look: ClassVar[MonsterLook | None] = None
    mover: ClassVar[str | None] = None  # who its figures move as: ways ``only`` some movers take (None: ordinary)

    def __init__(self, monster: Monster) -> None:
        self.monster = monster

    # -- data ---------------------------------------------------------------------------
    @staticmethod
    def parse_details(node: Node, known: Known) -> object:
        """The record of what this monster's mat prints (``details`` in monsters.json)."""
        node.fields()
        return None

    # -- setup -------------------------------------------------------------------------
    def new_mat(self) -> Mat | None:
        return None

    def setup(self, ctx: GameContext) -> Flow[None]:
        """Put the figure on its start location (RL-SU-10) and lay out the mat."""
        ctx.state.monsters[self.id].location = self.monster.start
        ctx.emit("monster-placed", f"Put {self.monster.name} at {ctx.place_name(self.monster.start)}.",
                 monster=self.id, location=self.monster.start)
        return
        yield

    def mat_problems(self, mat: Mat, graph: Graph) -> list[str]:
        """What is wrong with a mat given in a position (empty when it is fine)."""
        return []

    def mat_items(self, mat: Mat) -> list[str]:
        """Items lying on this monster's mat (they are on the table: never in the bag too)."""
        return []

    # -- Monster Phase -------------------------------------------------------------
    def actors(self, ctx: GameContext) -> list[Actor]:
        return [Actor(self.id, "monster", self.monster.name)]

    def actors_on(self, ctx: GameContext, symbol: str) -> list[Actor]:
        """Who acts when ``symbol`` (one of its own, or the Frenzy symbol) is read on the attack
        line: all its actors, unless its figures answer symbols of their own."""
        return self.actors(ctx)

    def pow_first(self, ctx: GameContext) -> bool:
        """Whether its Power resolves before the hits of the same roll (RL-MP-16)."""
        return True

    def placed(self, ctx: GameContext, figure: Figure) -> None:
        """One of its figures was put down somewhere (walked, placed, pulled): nothing by default."""

    def activate(self, ctx: GameContext, actor: Actor, move: int, dice: int) -> Flow[None]:
        yield from self.move_and_attack(ctx, Figure(self.id), strike_text(self.monster.name, actor), move, dice,
                                        actor.attacks)

    def move_and_attack(self, ctx: GameContext, figure: Figure, text: str, move: int, dice: int,
                        attacks: bool = True) -> Flow[None]:
        """``attacks``: False for a figure that only moves on this card (it is said, and nobody is hit)."""
        if figure.minion is None:
            ctx.emit("monster-activated", text, monster=self.id)
        else:
            ctx.emit("monster-activated", text, monster=self.id, blight=figure.minion)
        yield from move_toward_closest(ctx, figure, ctx.edition.monster_steps(ctx, move))
        yield from strike(ctx, figure, dice, attacks)

    def preview(self, ctx: GameContext, actor: Actor, move: int, dice: int) -> str:
        """What this actor is about to do, in a few words, for the "which goes first?" question
        (so the player sees what each choice starts: where it stands, where it heads)."""
        return preview_move_and_attack(ctx, Figure(self.id), move, dice, actor.attacks)

    def could_act(self, ctx: GameContext, actor: Actor, carriers: bool) -> bool:
        """Whether this actor may move or attack now: a monster needs a character on the board to
        move toward or attack (RL-MP-11, RL-MP-13). ``carriers``: another actor of this symbol may
        move characters about first."""
        return bool(ctx.heroes_on_board() or ctx.villagers_on_board())

    def power(self, ctx: GameContext, figure: Figure, target: Character) -> Flow[None]:
        raise NotImplementedError(f"{self.monster.name} has no Power rules")

    def start_of_turn(self, ctx: GameContext) -> None:
        """Forget what lasted one turn; the default has nothing."""

    # -- minions: figures of this monster other than itself ----------------------------------
    def minions_on_board(self, ctx: GameContext) -> list[int]:
        return []

    def minion_location(self, ctx: GameContext, index: int) -> str | None:
        raise IndexError(f"{self.monster.name} has no minion {index}")

    def put_minion(self, ctx: GameContext, index: int, location: str | None) -> None:
        raise IndexError(f"{self.monster.name} has no minion {index}")

    def minion_name(self, index: int) -> str:
        return f"{self.monster.name}'s minion {index + 1}"

    def figure_name(self) -> str:
        """What the monster's own figure is called on the table: its mat's name, unless the mat
        holds two figures and names the pair (then the plug-in names the one figure)."""
        return self.monster.name

    def figures_at(self, ctx: GameContext) -> list[str | None]:
        """Where each of its figures stands: itself, then each minion (None: off the board)."""
        return [self.here(ctx)]

    # -- Hero Phase: challenge steps ---------------------------------------------------
    def advance_kinds(self) -> tuple[str, ...]:
        """The names of this monster's Advance steps (for the tablet and the enumerator)."""
        return ()

    def advance_target(self, step: str) -> int | None:
        """What the d20 (with the items) must reach for this Advance step; None: no roll."""
        return None

    def advance(self, ctx: GameContext, hero_id: str, action: Action, distanced: bool) -> Flow[None]:
        raise IllegalInput(f"{self.monster.name} has no challenge step called {action.get('step')!r}")

    def advance_options(self, ctx: GameContext, hero_id: str, distanced: bool) -> list[ActionDict]:
        """Concrete legal Advance actions for this hero now (bounded), for a simulator or the tablet."""
        return []

    def defeat_options(self, ctx: GameContext, hero_id: str) -> list[ActionDict]:
        """A few sets of the items the Defeat step takes, once it is possible."""
        if self.defeat_blocker(ctx, hero_id):
            return []
        return [self.defeat_action(s) for s in item_sets(ctx, held_of_type(ctx, hero_id, self.defeat_type))]

    def defeat_blocker(self, ctx: GameContext, hero_id: str) -> str | None:
        """Why the Defeat action is not possible now, or None if it is."""
        return f"{self.monster.name} cannot be defeated yet"

    def defeat_roll(self) -> int | None:
        """What a Defeat roll must reach, for the action's label; None in an edition whose Defeat
        is not a roll."""
        return self.defeat_target()

    def defeat_target(self) -> int:
        """What the Defeat check must reach (printed on the mat)."""
        raise NotImplementedError(f"{self.monster.name} has no Defeat target")

    def defeat(self, ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
        """Every monster's Defeat: once the challenge is done, spend items and check (RL-HA-6)."""
        blocker = self.defeat_blocker(ctx, hero_id)
        if blocker:
            raise IllegalInput(blocker)
        items = self.defeat_items(ctx, hero_id, items_named(action))
        name = self.monster.name
        if (yield from spend_and_check(ctx, items, "defeat", f"defeat {name}", self.defeat_target())):
            defeat_monster(ctx, self.id)
        else:
            ctx.emit("defeat-failed", f"{name} survives; the spent items stay discarded.", monster=self.id)

    def defeat_items(self, ctx: GameContext, hero_id: str, items: list[str]) -> list[str]:
        """The items named for the Defeat: one or more of ``defeat_type`` (RL-IT-4)."""
        return check_items(ctx, hero_id, items, self.defeat_type)

    # -- relics: tokens of this monster's that heroes carry (RL-IT-5) ---------------------------
    def relic_ids(self) -> tuple[str, ...]:
        return ()

    def relics_at(self, ctx: GameContext, location: str) -> list[str]:
        """The relics lying at ``location``, for a hero there to pick up."""
        return []

    def pick_up_relics(self, ctx: GameContext, hero_id: str, relic_ids: list[str]) -> None:
        raise IllegalInput("there are no relics in this game")

    def relic_name(self, relic_id: str) -> str:
        return relic_id

    # -- when it falls ----------------------------------------------------------------------
    def items_on_mat(self, ctx: GameContext) -> list[str]:
        mat = ctx.state.mats.get(self.id)
        return [] if mat is None else self.mat_items(mat)

    def on_defeated(self, ctx: GameContext) -> None:
        """Clear what the monster leaves behind; the default has nothing."""

    # -- what the table sees -------------------------------------------------------------------
    def mat_view(self, ctx: GameContext) -> View:
        """What a tablet shows of this monster's mat: ``lines`` in plain words, and the mat's
        fields for drawing."""
        return {"lines": []}

    def board_figures(self, ctx: GameContext) -> list[View]:
        """Figures and tokens of this monster's on the board other than the monster itself."""
        return []

    def mat_tracks(self, ctx: GameContext) -> dict[str, str]:
        """What lies on this monster's mat that the table's pieces do not already say, as tracks
        of the tabletop (id -> its state in words): what an undo sets back on the mat. The
        default is the mat in words (``mat_view``'s lines); a plug-in with a finer mat splits it."""
        lines = self.mat_view(ctx).get("lines")
        text = "; ".join(str(line) for line in lines) if isinstance(lines, list) else ""
        return {"mat": text} if text else {}

    def pack_view(self) -> Mapping[str, list[View]]:
        """Names and drawing data of this monster's own components, for the tablet's pack view."""
        return {}

    # -- helpers the monster modules share -------------------------------------------------
    def here(self, ctx: GameContext) -> str | None:
        return ctx.state.monsters[self.id].location

    def mat_of(self, ctx: GameContext, cls: type[M]) -> M:
        mat = ctx.state.mats[self.id]
        assert isinstance(mat, cls), f"{self.id} has a {type(mat).__name__}, not a {cls.__name__}"
        return mat

    def step_of(self, action: Action) -> str:
        """The Advance step named by ``action``, refused if this monster has no such step."""
        step = action.get("step")
        if not isinstance(step, str) or step not in self.advance_kinds():
            steps = ", ".join(self.advance_kinds()) or "none"
            raise IllegalInput(f"{self.monster.name} has no challenge step called {step!r} (its steps: {steps})")
        return step

    def advance_action(self, step: str, **fields: object) -> ActionDict:
        return {"action": "advance", "monster": self.id, "step": step, **fields}

    def defeat_action(self, items: list[str]) -> ActionDict:
        return {"action": "defeat", "monster": self.id, "items": items}


class MonsterRegistry:
    """One edition's monster plug-ins, by id; a plug-in module registers itself on import."""

    def __init__(self, edition: str) -> None:
        self.edition = edition
        self._plugins: dict[str, type[MonsterRules]] = {}

    def register(self, cls: type[MonsterRules]) -> type[MonsterRules]:
        """Decorator for a plug-in class."""
        if not cls.id or cls.id in self._plugins:
            raise ValueError(f"a monster plug-in needs an id of its own, not {cls.id!r}")
        self._plugins[cls.id] = cls
        return cls

    def plugins(self) -> Mapping[str, type[MonsterRules]]:
        return self._plugins

    def __contains__(self, monster_id: object) -> bool:
        return monster_id in self._plugins

    def __iter__(self) -> Iterator[str]:
        return iter(self._plugins)

    def __getitem__(self, monster_id: str) -> type[MonsterRules]:
        return self._plugins[monster_id]

    def rules_for(self, pack: Pack) -> dict[str, MonsterRules]:
        """One rules object per monster in the pack, keyed by monster id."""
        rules: dict[str, MonsterRules] = {}
        for monster in pack.monsters:
            cls = self._plugins.get(monster.id)
            if cls is None:
                known = ", ".join(sorted(self._plugins))
                raise SetupError(f"the pack's monster {monster.id!r} has no rules module (known: {known})")
            rules[monster.id] = cls(monster)
        return rules


def strike_text(name: str, actor: Actor) -> str:
    """What the table is told as a figure starts its strike."""
    return f"{name} moves and attacks." if actor.attacks else f"{name} moves but does not attack on this card."


def strike(ctx: GameContext, figure: Figure, dice: int, attacks: bool) -> Flow[None]:
    """The attack after the move, unless the figure only moves on this card."""
    if attacks:
        yield from attack(ctx, figure, dice)
    else:
        ctx.emit("no-attack", f"{ctx.figure_name(figure)} does not attack on this card.",
                 monster=figure.monster, blight=figure.minion)


def preview_move_and_attack(ctx: GameContext, figure: Figure, move: int, dice: int, attacks: bool = True) -> str:
    """E.g. "<monster> at <place>: moves up to 2 toward <hero> at <place>, then attacks (3 dice) whoever it stops with"."""
    here = ctx.where(figure)
    name = ctx.figure_name(figure)
    if here is None:
        return f"{name} is off the board"
    start = f"{name} at {ctx.place_name(here)}"
    roll = f"{counted(dice, 'die', 'dice')}" if dice > 0 else "no dice"
    if ctx.characters_at(here):
        return f"{start}: stays with {_names_at(ctx, here)}" + (f" and attacks ({roll})" if attacks else "")
    goals = closest_places(ctx, here)
    if not goals or move <= 0:
        return f"{start}: stays there"
    toward = " or ".join(f"{_names_at(ctx, g)} at {ctx.place_name(g)}" for g in goals)
    then = f", then attacks ({roll}) whoever it stops with" if attacks else ", and does not attack"
    return f"{start}: moves up to {move} toward {toward}{then}"


def _names_at(ctx: GameContext, location: str) -> str:
    return " and ".join(ctx.character_name(c) for c in ctx.characters_at(location))


def defeat_monster(ctx: GameContext, monster_id: str) -> None:
    """RL-HA-6, RL-FR-3, RL-END-1; the Terror goes down as far as the edition says (RL-END-4)."""
    rules = ctx.monster_rules[monster_id]
    monster = ctx.state.monsters[monster_id]
    name = ctx.monster(monster_id).name
    ctx.emit("monster-defeated", f"{name} is defeated! Take the figure off the board.",
             monster=monster_id, location=monster.location)
    for item in rules.items_on_mat(ctx):
        discard_item(ctx, item, f"it lay on {name}'s mat")
    rules.on_defeated(ctx)
    monster.defeated, monster.location = True, None
    for _ in range(ctx.edition.monster_defeat_terror(ctx)):
        lower_terror(ctx, f"{name} was defeated")
    if ctx.state.frenzy == monster_id:
        pass_frenzy(ctx)
    if not ctx.state.monsters_in_play():
        raise GameEnded("won", "every monster is defeated")
