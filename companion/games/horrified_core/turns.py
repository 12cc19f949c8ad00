"""Turn order (RL-TU-1): each turn is the active player's Hero Phase, then a
Monster Phase; play passes clockwise."""

from __future__ import annotations

from companion.engine.game import Flow

from .arrivals import hero_arrives
from .context import GameContext


def start_turn(ctx: GameContext) -> Flow[None]:
    state = ctx.state
    state.turn += 1
    state.phase = "hero"
    state.bonuses = state.bonuses.new_turn()
    for rules in ctx.monster_rules.values():
        rules.start_of_turn(ctx)
    hero = state.active_hero
    state.actions_left = ctx.edition.turn_actions(ctx, hero.id)
    ctx.emit("turn", f"Turn {state.turn}: {hero.player} plays {ctx.hero_name(hero.id)}.",
             hero=hero.id, turn=state.turn, actions_left=state.actions_left)
    if hero.location is None:
        yield from return_hero(ctx, hero.id)


def return_hero(ctx: GameContext, hero_id: str) -> Flow[None]:
    """A defeated hero comes back, with full actions, where the edition says (RL-TU-3)."""
    place = ctx.edition.return_place(ctx, hero_id)
    ctx.state.heroes[hero_id].location = place
    ctx.emit("hero-returned", f"Put {ctx.hero_name(hero_id)} back at {ctx.place_name(place)}.", hero=hero_id,
             location=place)
    yield from hero_arrives(ctx, hero_id)


def pass_turn(ctx: GameContext) -> None:
    ctx.state.active = (ctx.state.active + 1) % len(ctx.state.seats)
