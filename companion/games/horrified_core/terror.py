"""The Terror track (RL-END-2, RL-END-4): up one step at a time, and the game is lost
the moment it reaches its maximum; down when a monster falls, in an edition whose rules say so
(``Edition.monster_defeat_terror``)."""

from __future__ import annotations

from .context import GameContext, GameEnded


def raise_terror(ctx: GameContext, why: str, times: int = 1) -> None:
    for _ in range(times):
        ctx.state.terror += 1
        ctx.emit("terror", f"Move the Terror marker up to {ctx.state.terror} ({why}).",
                 level=ctx.state.terror, change=1)
        if ctx.state.terror >= ctx.pack.board.terror_max:
            raise GameEnded("lost: terror", "the Terror Level reached its maximum")


def lower_terror(ctx: GameContext, why: str) -> None:
    if ctx.state.terror > 0:
        ctx.state.terror -= 1
        ctx.emit("terror", f"Move the Terror marker down to {ctx.state.terror} ({why}).",
                 level=ctx.state.terror, change=-1)


def change_terror(ctx: GameContext, delta: int, why: str) -> None:
    """Up (which can lose the game) or down by ``delta`` steps, one at a time."""
    if delta > 0:
        raise_terror(ctx, why, times=delta)
    for _ in range(-delta):
        lower_terror(ctx, why)
