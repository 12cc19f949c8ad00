"""The Perk deck: a player draws a Perk card as a reward (a rescue, RL-VI-2; a high roll,
RL-D20-2; setup); a played card goes to the discard pile."""

from __future__ import annotations

from companion.engine.game import Flow
from companion.engine.prompts import Option

from .context import GameContext


def gain_perk(ctx: GameContext, hero_id: str, why: str) -> Flow[None]:
    """The hero's player draws a Perk card; which one is an input (not asked when only one can come)."""
    hero = ctx.state.heroes[hero_id]
    if not ctx.state.perk_deck:
        ctx.emit("note", f"No Perk cards are left, so {hero.player} gets none ({why}).")
        return
    answer = yield from ctx.ask_draw("perk", f"{hero.player} draws a Perk card ({why}). Which is it?",
                                     perk_options(ctx), player=hero_id)
    ctx.state.perk_deck.remove(answer)
    hero.perks.append(answer)
    ctx.emit("perk-gained", f"{hero.player} takes the Perk card {ctx.pack.perk(answer).name}.",
             hero=hero_id, perk=answer)


def perk_options(ctx: GameContext) -> list[Option]:
    """One option per different card left in the deck: copies of one card are one choice."""
    options: dict[tuple[str, str], Option] = {}
    for perk_id in sorted(ctx.state.perk_deck):
        card = ctx.pack.perk(perk_id)
        options.setdefault((card.name, repr(card.effect)), Option(perk_id, card.name))
    return list(options.values())


def discard_perk(ctx: GameContext, hero_id: str, perk_id: str) -> None:
    ctx.state.heroes[hero_id].perks.remove(perk_id)
    ctx.state.perk_discard.append(perk_id)
