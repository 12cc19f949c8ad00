"""The Frenzy marker (RL-FR-1 .. RL-FR-3)."""

from __future__ import annotations

from .context import GameContext


def next_frenzied(ctx: GameContext, current: str | None) -> str | None:
    """The next higher Frenzy Order in play, wrapping to the lowest; stays with no other."""
    in_play = sorted(ctx.state.monsters_in_play(), key=lambda m: ctx.monster(m.id).frenzy_order)
    if not in_play:
        return None
    if current is None:
        return in_play[0].id
    order = ctx.monster(current).frenzy_order
    higher = [m.id for m in in_play if ctx.monster(m.id).frenzy_order > order]
    return higher[0] if higher else in_play[0].id


def pass_frenzy(ctx: GameContext) -> None:
    new = next_frenzied(ctx, ctx.state.frenzy)
    if new == ctx.state.frenzy:
        ctx.emit("frenzy", "The Frenzy marker stays where it is: no other monster is left.", monster=new)
        return
    ctx.state.frenzy = new
    if new is not None:
        ctx.emit("frenzy", f"Put the Frenzy marker on {ctx.monster(new).name}'s mat.", monster=new)
