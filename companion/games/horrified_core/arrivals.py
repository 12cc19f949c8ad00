"""What happens when a character arrives somewhere: villagers reaching their
safe location are rescued (RL-VI-2), except when a monster carried them there:
then they stay in its clutches until a hero comes (RL-VI-3)."""

from __future__ import annotations

from companion.engine.game import Flow

from .context import GameContext
from .perk_deck import gain_perk


def villager_arrives(ctx: GameContext, villager_id: str, carrier: str | None = None) -> Flow[None]:
    """``carrier``: the monster that carried the villager here, if one did."""
    villager = ctx.state.villagers[villager_id]
    if villager.location != ctx.pack.villager(villager_id).safe_location:
        return
    if carrier is not None:
        villager.clutched = True
        ctx.emit("villager-clutched", f"{ctx.pack.villager(villager_id).name} is home but in "
                 f"{ctx.monster(carrier).name}'s clutches: leave them there.",
                 villager=villager_id, location=villager.location)
        return
    yield from rescue(ctx, villager_id)


def hero_arrives(ctx: GameContext, hero_id: str) -> Flow[None]:
    """A hero entering a location frees villagers a monster left there in its clutches (RL-VI-3)."""
    here = ctx.state.heroes[hero_id].location
    if here is None:
        return
    for villager in ctx.state.villagers_at(here):
        if villager.clutched:
            yield from rescue(ctx, villager.id)


def rescue(ctx: GameContext, villager_id: str) -> Flow[None]:
    villager = ctx.state.villagers[villager_id]
    name = ctx.pack.villager(villager_id).name
    ctx.emit("villager-rescued", f"{name} is safe at {ctx.place_name(villager.location)}: take the figure off the board.",
             villager=villager_id, location=villager.location)
    villager.location, villager.clutched = None, False
    yield from gain_perk(ctx, ctx.active_player, f"{name} reached safety")
