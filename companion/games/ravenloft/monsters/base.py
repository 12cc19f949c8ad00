"""The shape every monster's rules module has, and the registry that finds
them by id (no if-chains over monster names in the shared rules)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.graph import Graph
from companion.engine.prompts import Option, Prompt

from ..attack import attack
from ..challenge import check_items, held_of_type, items_named, require_at, spend, strength
from ..context import Character, Figure, GameContext, GameEnded
from ..d20 import check
from ..frenzy import pass_frenzy
from ..movement import move_toward_closest
from ..pack_types import ItemType, Monster
from ..state import Mat

Action = Mapping[str, object]
ActionDict = dict[str, object]
#: At most this many concrete actions are offered per monster (simulator, tablet).
MAX_OPTIONS = 20


@dataclass(frozen=True)
class Actor:
    """Something that acts when a monster's symbol is read on the attack line.

    Most monsters have one actor, themselves; the Gulthias Tree has two: the
    Tree (attacks where it stands) and "a Twig Blight" (RL-GT-2).
    """

    monster: str
    role: str
    label: str


class MonsterRules:
    """Default behaviour: move toward the closest character, then attack."""

    id: ClassVar[str] = ""
    rooted: ClassVar[bool] = False  # never moves (the Gulthias Tree, RL-GT-1)
    carries_characters: ClassVar[bool] = False  # its Power moves characters along (Baba Lysaga, RL-BL-1)
    defeat_type: ClassVar[ItemType | None] = None  # the single-type icon of the Defeat step

    def __init__(self, monster: Monster) -> None:
        self.monster = monster

    # -- setup -------------------------------------------------------------------
    def new_mat(self) -> Mat | None:
        return None

    def setup(self, ctx: GameContext) -> Flow[None]:
        """Put the figure on its start location (RL-SU-10) and lay out the mat."""
        ctx.state.monsters[self.id].location = self.monster.start
        ctx.emit("monster-placed", f"Put {self.monster.name} at {ctx.place_name(self.monster.start)}.",
                 monster=self.id, location=self.monster.start)
        return
        yield

    # -- Monster Phase -------------------------------------------------------------
    def actors(self, ctx: GameContext) -> list[Actor]:
        return [Actor(self.id, "monster", self.monster.name)]

    def activate(self, ctx: GameContext, actor: Actor, move: int, dice: int) -> Flow[None]:
        figure = Figure(self.id)
        ctx.emit("monster-activated", f"{self.monster.name} moves and attacks.", monster=self.id)
        yield from move_toward_closest(ctx, figure, max(0, move - ctx.state.bonuses.slow_monsters))
        yield from attack(ctx, figure, dice)

    def could_act(self, ctx: GameContext, actor: Actor, carriers: bool) -> bool:
        """Whether this actor may move or attack now: a monster needs a character on the board to
        move toward or attack (RL-MP-11, RL-MP-13). ``carriers``: another actor of this symbol may
        move characters about first."""
        return bool(ctx.heroes_on_board() or ctx.villagers_on_board())

    def power(self, ctx: GameContext, figure: Figure, target: Character) -> Flow[None]:
        raise NotImplementedError(f"{self.monster.name} has no Power rules")

    def start_of_turn(self, ctx: GameContext) -> None:
        """Forget what lasted one turn (the Tree's used Blights); the default has nothing."""

    # -- Hero Phase: challenge steps ---------------------------------------------------
    def advance_kinds(self) -> tuple[str, ...]:
        """The names of this monster's Advance steps (for the tablet and the enumerator)."""
        return ()

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

    def defeat(self, ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
        """Every monster's Defeat: once the challenge is done, spend items and roll (RL-HA-6)."""
        blocker = self.defeat_blocker(ctx, hero_id)
        if blocker:
            raise IllegalInput(blocker)
        items = self.defeat_items(ctx, hero_id, items_named(action))
        yield from self.defeat_roll(ctx, items, int(str(getattr(self.monster.details, "defeat_target"))))

    def defeat_items(self, ctx: GameContext, hero_id: str, items: list[str]) -> list[str]:
        """The items named for the Defeat: one or more of ``defeat_type`` (RL-IT-4)."""
        return check_items(ctx, hero_id, items, self.defeat_type)

    def mat_problems(self, mat: Mat, graph: Graph) -> list[str]:
        """What is wrong with a mat given in a position (empty when it is fine)."""
        return []

    def relic_ids(self) -> tuple[str, ...]:
        """The Relics this monster brings (only Strahd has any)."""
        return ()

    def items_on_mat(self, ctx: GameContext) -> list[str]:
        """Items lying on this monster's mat (for item conservation and defeat)."""
        return []

    def on_defeated(self, ctx: GameContext) -> None:
        """Clear what the monster leaves behind; the default has nothing."""

    def figures_at(self, ctx: GameContext) -> list[str | None]:
        return [ctx.state.monsters[self.id].location]

    # -- helpers the monster modules share -------------------------------------------------
    def here(self, ctx: GameContext) -> str | None:
        return ctx.state.monsters[self.id].location

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

    def defeat_roll(self, ctx: GameContext, items: list[str], target: int) -> Flow[None]:
        """Spend the items, roll, and defeat the monster on a success (RL-HA-6)."""
        name = self.monster.name
        if (yield from spend_and_roll(ctx, items, "defeat", f"defeat {name}", target)):
            defeat_monster(ctx, self.id)
        else:
            ctx.emit("defeat-failed", f"{name} survives; the spent items stay discarded.", monster=self.id)


def spend_and_roll(ctx: GameContext, items: list[str], key: str, what: str, target: int) -> Flow[bool]:
    """Items go to the discard before the roll: they were put at risk, so they are spent either way."""
    spend(ctx, items, f"spent to {what}")
    total = strength(ctx, items)
    text = f"Roll the d20 to {what}: add {total} for the items; {target} or more succeeds."
    return (yield from check(ctx, key, text, total, target))


def away_from(ctx: GameContext, hero_id: str, location: str | None, what: str) -> str | None:
    """Why the hero is in the wrong place for ``what``, or None if they stand right."""
    try:
        require_at(ctx, hero_id, location, what)
    except IllegalInput as problem:
        return str(problem)
    return None


def ask_draw(ctx: GameContext, key: str, text: str, options: list[Option]) -> Flow[str]:
    """Ask which hidden token or card turned up; with one possibility there is nothing to ask."""
    if len(options) == 1:
        return options[0].id
    answer = yield Prompt("draw", key, text, ctx.active_player, tuple(options))
    assert isinstance(answer, str)
    return answer


def action_text(action: Action, key: str, what: str) -> str:
    value = action.get(key)
    if not isinstance(value, str) or not value:
        raise IllegalInput(f"name the {what} with '{key}', got {value!r}")
    return value


def action_names(action: Action, key: str, what: str) -> list[str]:
    value = action.get(key, [])
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise IllegalInput(f"'{key}' must be a list of {what}, got {value!r}")
    if len(set(value)) != len(value):
        raise IllegalInput(f"the same {what} was named twice in '{key}'")
    return list(value)


def action_index(action: Action, key: str, count: int, what: str) -> int:
    """A 0-based index into ``count`` things; the messages count from 1 like the players do."""
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count:
        raise IllegalInput(f"'{key}' must pick one of the {count} {what} (0 for the first, "
                           f"{count - 1} for the last), got {value!r}")
    return value


def ordinal(index: int) -> str:
    """'first', 'second' ... for a 0-based index (the table speaks in words)."""
    words = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
    return words[index] if index < len(words) else f"{index + 1}th"


def by_strength(ctx: GameContext, items: list[str], strongest_first: bool = False) -> list[str]:
    sign = -1 if strongest_first else 1
    return sorted(items, key=lambda i: (sign * ctx.pack.item(i).strength, i))


def one_per_strength(ctx: GameContext, items: list[str]) -> list[str]:
    """The weakest item of each different strength: the only choices that play differently."""
    chosen: dict[int, str] = {}
    for item in by_strength(ctx, items):
        chosen.setdefault(ctx.pack.item(item).strength, item)
    return list(chosen.values())


def item_sets(ctx: GameContext, items: list[str], limit: int = 6) -> list[list[str]]:
    """Bounded item choices for a roll: the strongest one, the strongest two, ... up to ``limit``."""
    ranked = by_strength(ctx, items, strongest_first=True)
    return [ranked[:count] for count in range(1, min(len(ranked), limit) + 1)]


def names_of(ctx: GameContext, items: list[str]) -> str:
    return ", ".join(f"the {ctx.pack.item(i).name}" for i in items) or "nothing"


REGISTRY: dict[str, type[MonsterRules]] = {}


def register(cls: type[MonsterRules]) -> type[MonsterRules]:
    REGISTRY[cls.id] = cls
    return cls


def defeat_monster(ctx: GameContext, monster_id: str) -> None:
    """RL-HA-6, RL-END-4, RL-FR-3, RL-END-1."""
    rules = ctx.monster_rules[monster_id]
    assert isinstance(rules, MonsterRules)
    monster = ctx.state.monsters[monster_id]
    name = ctx.monster(monster_id).name
    ctx.emit("monster-defeated", f"{name} is defeated! Take the figure off the board.",
             monster=monster_id, location=monster.location)
    for item in rules.items_on_mat(ctx):
        ctx.discard_item(item, f"it lay on {name}'s mat")
    rules.on_defeated(ctx)
    monster.defeated, monster.location = True, None
    ctx.lower_terror(f"{name} was defeated")
    if ctx.state.frenzy == monster_id:
        pass_frenzy(ctx)
    if not ctx.state.monsters_in_play():
        raise GameEnded("won", "every monster is defeated")
