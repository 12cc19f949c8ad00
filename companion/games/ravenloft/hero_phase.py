"""The Hero Phase (RL-TU-2): the active hero's actions, in any order, plus the
free moves any player can make (Perk cards, Dark Gifts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.prompts import Prompt

from . import actions
from .challenges import advance, defeat
from .context import GameContext
from .gifts import accept_gift
from .perks import play_perk
from .specials import special_action
from .state import TurnBonuses

Action = Mapping[str, object]


@dataclass(frozen=True)
class ActionKind:
    run: actions.HeroAction
    costs_action: bool = True


def _gift(ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
    """RL-HA-8: any player, any time, no action."""
    accept_gift(ctx, actions.text_field(action, "hero") if "hero" in action else hero_id)
    return
    yield


def _advance(ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
    yield from advance(ctx, hero_id, action)


ACTIONS: dict[str, ActionKind] = {
    "move": ActionKind(actions.move),
    "guide": ActionKind(actions.guide),
    "pick_up": ActionKind(actions.pick_up),
    "share": ActionKind(actions.share),
    "advance": ActionKind(_advance),
    "defeat": ActionKind(defeat),
    "special": ActionKind(special_action),
    "perk": ActionKind(play_perk, costs_action=False),
    "gift": ActionKind(_gift, costs_action=False),
}


def hero_phase(ctx: GameContext) -> Flow[None]:
    ctx.state.phase = "hero"
    while True:
        answer = yield hero_prompt(ctx)
        assert isinstance(answer, Mapping)
        if answer["action"] == "end":
            break
        yield from perform(ctx, answer)
    _end_hero_phase(ctx)


def hero_prompt(ctx: GameContext) -> Prompt:
    hero = ctx.state.active_hero
    left = ctx.state.actions_left
    return Prompt("action", "hero-action",
                  f"{hero.player}'s turn: {ctx.hero_name(hero.id)} has {left} action{'s' if left != 1 else ''} left.",
                  hero.id, context={"hero": hero.id, "actions_left": left, "actions": sorted(ACTIONS) + ["end"]})


def perform(ctx: GameContext, action: Action) -> Flow[None]:
    name = str(action["action"])
    kind = ACTIONS.get(name)
    if kind is None:
        raise IllegalInput(f"there is no hero action called {name!r} (try: {', '.join(sorted(ACTIONS))}, end)")
    if kind.costs_action:
        if ctx.state.actions_left <= 0:
            raise IllegalInput(f"{ctx.hero_name(ctx.active_player)} has no actions left: end the Hero Phase")
        ctx.state.actions_left -= 1
    yield from kind.run(ctx, ctx.active_player, action)


def _end_hero_phase(ctx: GameContext) -> None:
    """Paladin-style bonuses (and Perk boosts never rolled) end with the Hero Phase; Ranger and Warlock
    ones, and a hero spared from attacks, last into this turn's Monster Phase (RL-HA-9)."""
    kept = ctx.state.bonuses
    ctx.state.bonuses = TurnBonuses(slow_monsters=kept.slow_monsters, ward=kept.ward, spared=list(kept.spared))
    ctx.state.actions_left = 0
    ctx.emit("hero-phase-ended", f"{ctx.state.active_hero.player}'s Hero Phase is over: now the Monster Phase.")
