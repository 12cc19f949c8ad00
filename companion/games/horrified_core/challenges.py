"""The Advance and Defeat actions, handed to the monster's own rules module."""

from __future__ import annotations

from typing import Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow

from .context import GameContext
from .monsters import MonsterRules

Action = Mapping[str, object]


def rules_in_play(ctx: GameContext, action: Action) -> MonsterRules:
    monster_id = action.get("monster")
    if not isinstance(monster_id, str) or monster_id not in ctx.state.monsters:
        raise IllegalInput(f"there is no monster {monster_id!r} in this game")
    if ctx.state.monsters[monster_id].defeated:
        raise IllegalInput(f"{ctx.monster(monster_id).name} is already defeated")
    return ctx.monster_rules[monster_id]


def advance(ctx: GameContext, hero_id: str, action: Action, distanced: bool = False) -> Flow[None]:
    """RL-HA-5: spend items on a step of the monster's challenge."""
    rules = rules_in_play(ctx, action)
    yield from rules.advance(ctx, hero_id, action, distanced)


def defeat(ctx: GameContext, hero_id: str, action: Action) -> Flow[None]:
    """RL-HA-6: only once the challenge is complete."""
    rules = rules_in_play(ctx, action)
    blocker = rules.defeat_blocker(ctx, hero_id)
    if blocker:
        raise IllegalInput(blocker)
    yield from rules.defeat(ctx, hero_id, action)
