"""The d20 (RL-D20-*): the symbol face is 20, a 1 fails outright, and in a Hero
Phase a result of 20 or more earns the active hero a Perk."""

from __future__ import annotations

from companion.engine.game import Flow
from companion.engine.prompts import Option

from .context import GameContext
from .gifts import gift_effects


def hero_roll(ctx: GameContext, key: str, text: str) -> Flow[int]:
    """Roll the d20 for the active hero; a Perk may change the number; 20+ earns a Perk.

    Returns the (possibly changed) die value.
    """
    value = yield from ctx.roll_d20(key, text)
    value = yield from _offer_roll_perks(ctx, value)
    if value == 1:
        ctx.emit("critical-failure", "A 1: critical failure, nothing happens.", key=key)
    if ctx.state.phase == "hero" and value >= 20:
        yield from ctx.gain_perk(ctx.active_player, "a d20 result of 20 or more")
    return value


def _offer_roll_perks(ctx: GameContext, value: int) -> Flow[int]:
    """Perks that change a die (``adjust_roll``) are offered only when someone holds one."""
    held = [(h.id, p) for h in ctx.state.heroes.values() for p in h.perks
            if ctx.pack.perk(p).effect.kind == "adjust_roll"]
    if not held or ctx.state.phase != "hero":
        return value
    options = [Option("keep", f"Keep the {value}")]
    options += [Option(f"{h}:{p}", f"{ctx.state.heroes[h].player} plays {ctx.pack.perk(p).name}") for h, p in held]
    chosen = yield from ctx.choose("roll-perk", f"The d20 shows {value}. Play a Perk to change it?", options)
    if chosen == "keep":
        return value
    hero_id, _, perk = chosen.partition(":")
    ctx.state.heroes[hero_id].perks.remove(perk)
    ctx.state.perk_discard.append(perk)
    amount = int(str(ctx.pack.perk(perk).effect.params["amount"]))
    new = max(1, min(20 + amount, value + amount))
    ctx.emit("perk-played", f"{ctx.state.heroes[hero_id].player} plays {ctx.pack.perk(perk).name}: the roll becomes {new}.",
             hero=hero_id, perk=perk, value=new)
    return new


def check(ctx: GameContext, key: str, text: str, strength: int, target: int) -> Flow[bool]:
    """An Advance or Defeat roll: d20 + item strength + bonuses against ``target``.

    A natural 1 (not changed by a Perk) always fails (RL-D20-3).
    """
    value = yield from hero_roll(ctx, key, text)
    if value == 1:
        return False
    total = value + strength + roll_bonus(ctx)
    success = total >= target
    ctx.emit("check", f"{value} + {total - value} = {total}: {'success' if success else 'failed'} (needs {target}).",
             key=key, value=value, total=total, target=target, success=success)
    return success


def roll_bonus(ctx: GameContext) -> int:
    """Paladin-style bonuses this Hero Phase, plus an always-on Gift bonus of the active hero."""
    return ctx.state.bonuses.roll_bonus + gift_effects(ctx, ctx.active_player).get("roll_bonus_always", 0)
