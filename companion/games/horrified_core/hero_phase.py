"""The Hero Phase (RL-TU-2): the active hero's actions, in any order, plus the free
moves any player can make (Perk cards). An edition adds its own actions
(``Edition.hero_actions``: a hero's special action, ...)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.prompts import Prompt

from . import actions
from .challenges import advance, defeat
from .context import GameContext
from .perks import play_perk

Action = Mapping[str, object]


@dataclass(frozen=True)
class ActionKind:
    run: actions.HeroAction
    costs_action: bool = True


def _advance(ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
    yield from advance(ctx, hero_id, action)


#: The actions of every edition's heroes.
ACTIONS: Mapping[str, ActionKind] = {
    "move": ActionKind(actions.move),
    "guide": ActionKind(actions.guide),
    "pick_up": ActionKind(actions.pick_up),
    "share": ActionKind(actions.share),
    "advance": ActionKind(_advance),
    "defeat": ActionKind(defeat),
    "perk": ActionKind(play_perk, costs_action=False),
}


def hero_phase(ctx: GameContext) -> Flow[None]:
    ctx.state.phase = "hero"
    while True:
        ctx.sink.boundary(ctx.state, None)  # the game goes on from a Hero Phase's state alone (play)
        answer = yield hero_prompt(ctx)
        assert isinstance(answer, Mapping)
        if answer["action"] == "end":
            break
        yield from perform(ctx, answer)
    _end_hero_phase(ctx)


def action_kinds(ctx: GameContext) -> Mapping[str, ActionKind]:
    return {**ACTIONS, **ctx.edition.hero_actions}


def hero_prompt(ctx: GameContext) -> Prompt:
    hero = ctx.state.active_hero
    left = ctx.state.actions_left
    return Prompt("action", "hero-action",
                  f"{hero.player}'s turn: {ctx.hero_name(hero.id)} has {left} action{'s' if left != 1 else ''} left.",
                  hero.id, context={"hero": hero.id, "actions_left": left, "actions": sorted(action_kinds(ctx)) + ["end"]})


def perform(ctx: GameContext, action: Action) -> Flow[None]:
    name = str(action["action"])
    kinds = action_kinds(ctx)
    kind = kinds.get(name)
    if kind is None:
        raise IllegalInput(f"there is no hero action called {name!r} (try: {', '.join(sorted(kinds))}, end)")
    if kind.costs_action:
        if ctx.state.actions_left <= 0:
            raise IllegalInput(f"{ctx.hero_name(ctx.active_player)} has no actions left: end the Hero Phase")
        ctx.state.actions_left -= 1
    yield from kind.run(ctx, ctx.active_player, action)


def _end_hero_phase(ctx: GameContext) -> None:
    """What lasts only for the Hero Phase ends with it (RL-HA-9; the bonuses say which)."""
    ctx.state.bonuses = ctx.state.bonuses.for_monster_phase()
    ctx.state.actions_left = 0
    ctx.emit("hero-phase-ended", f"{ctx.state.active_hero.player}'s Hero Phase is over: now the Monster Phase.")
