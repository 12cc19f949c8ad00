"""Concrete legal actions for the current prompt: what a tablet can offer as
buttons and what the random simulator picks from. Kept bounded (one option
per kind of choice), so it is a menu, not every combination. An edition adds
the actions of its own (``Edition.action_menu``, ``Edition.free_menu``)."""

from __future__ import annotations

import random
from typing import Mapping

from companion.engine.prompts import Prompt

from .context import GameContext

Action = dict[str, object]
Params = Mapping[str, object]


def hero_actions(ctx: GameContext) -> list[Action]:
    """The actions the active hero can take now (with at least one action left)."""
    hero = ctx.state.active_hero
    free = _perk_plays(ctx) + ctx.edition.free_menu(ctx) + [{"action": "end"}]
    if ctx.state.actions_left <= 0 or hero.location is None:
        return free
    here = hero.location
    found = _moves(ctx, here) + _guides(ctx, here) + _pick_ups(ctx, here) + _shares(ctx, here)
    found += _challenges(ctx, hero.id, distanced=False) + ctx.edition.action_menu(ctx)
    return found + free


def _moves(ctx: GameContext, here: str) -> list[Action]:
    escort = [v.id for v in ctx.state.villagers_at(here)]
    return [{"action": "move", "to": there, "villagers": escort} for there in ctx.graph.neighbours[here]]


def _guides(ctx: GameContext, here: str) -> list[Action]:
    out: list[Action] = []
    for villager in ctx.villagers_on_board():
        if villager.location == here:
            out += [{"action": "guide", "villager": villager.id, "to": t} for t in ctx.graph.neighbours[here]]
        elif villager.location and ctx.graph.adjacent(villager.location, here):
            out.append({"action": "guide", "villager": villager.id, "to": here})
    return out


def _pick_ups(ctx: GameContext, here: str) -> list[Action]:
    items = ctx.state.items_on(here)
    relics = [r for rules in ctx.monster_rules.values() for r in rules.relics_at(ctx, here)]
    return [{"action": "pick_up", "items": items, "relics": relics}] if items or relics else []


def _shares(ctx: GameContext, here: str) -> list[Action]:
    """One Share (RL-HA-4): a proposal that passes everything each hero holds to the next hero here,
    round the circle; the tablet lets the players change who gets what before sending it."""
    heroes = ctx.state.heroes_at(here)
    if len(heroes) < 2 or not any(h.items or h.relics for h in heroes):
        return []
    gives: list[dict[str, str]] = []
    for n, giver in enumerate(heroes):
        taker = heroes[(n + 1) % len(heroes)]
        gives += [{"item": i, "from": giver.id, "to": taker.id} for i in giver.items]
        gives += [{"relic": r, "from": giver.id, "to": taker.id} for r in giver.relics]
    return [{"action": "share", "give": gives}]


def _challenges(ctx: GameContext, hero_id: str, distanced: bool) -> list[Action]:
    out: list[Action] = []
    for monster in ctx.state.monsters_in_play():
        rules = ctx.monster_rules[monster.id]
        out += rules.advance_options(ctx, hero_id, distanced)
        if not distanced:
            out += rules.defeat_options(ctx, hero_id)
    return out


def _perk_plays(ctx: GameContext) -> list[Action]:
    out: list[Action] = []
    for hero in ctx.state.heroes.values():
        for perk in hero.perks:
            effect = ctx.pack.perk(perk).effect
            play = ctx.edition.perks[effect.kind].menu(ctx, hero.id, effect.params)
            if play is not None:
                out.append({"action": "perk", "hero": hero.id, "perk": perk, **play})
    return out


def action_options(ctx: GameContext, prompt: Prompt) -> list[Action]:
    """Concrete answers for any ``action`` prompt."""
    if prompt.key == "hero-action":
        return hero_actions(ctx)
    if prompt.key == "distanced-advance":
        return _challenges(ctx, ctx.active_player, distanced=True) + [{"action": "skip"}]
    if prompt.key == "card-builder":
        return []  # the card comes from the players, not from a menu
    return [{"action": "done", "changes": []}]


#: Relative weights the simulator gives each kind of hero action, so random
#: games make progress (advance and defeat) instead of wandering forever.
WEIGHTS: Mapping[str, float] = {"advance": 6, "defeat": 12, "pick_up": 4, "special": 1.5, "gift": 0.05,
                                "perk": 0.5, "end": 0.6, "share": 0.5}


def pick_weighted(options: list[Action], rng: random.Random) -> Action:
    weights = [WEIGHTS.get(str(o["action"]), 1.0) for o in options]
    return rng.choices(options, weights)[0]
