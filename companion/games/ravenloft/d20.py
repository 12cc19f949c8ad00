"""The d20 (RL-D20-*): the symbol face is 20, a 1 fails outright, and in a Hero
Phase a result of 20 or more earns the active hero a Perk.

A roll's *result* is the face plus what Perk cards make of it: a "+N to your
next roll" card played before the roll, a "change the result" card played
after it. The rulebook judges both the 1 and the 20 on that result ("even if
boosted by a Perk card", "a Perk card may adjust that value"). Item strength,
the Paladin's bonus and a Dark Gift's bonus are added to an Advance or Defeat
total, not to the roll's result (docs/engine.md, Readings).
"""

from __future__ import annotations

from collections.abc import Mapping

from dataclasses import dataclass
from typing import Callable

from companion.engine.game import Flow
from companion.engine.prompts import Option, Prompt
from companion.games.horrified_core.context import GameContext
from companion.games.horrified_core.perk_deck import discard_perk, gain_perk

from .gifts import accept_gift, gift_changes_roll, gift_effects
from .pack_types import Perk, tile
from .state import bonuses_of

KEEP = "keep"


def roll_d20(ctx: GameContext, key: str, text: str, context: Mapping[str, object] | None = None) -> Flow[int]:
    """The active player rolls the d20 (its symbol face counts 20, RL-D20-1); ``context``: what
    the roll is about (a figure to place)."""
    answer = yield Prompt("roll", key, text, ctx.active_player, die="d20", count=1, context=context or {})
    assert isinstance(answer, tuple)
    value = answer[0]
    assert isinstance(value, int)
    ctx.emit("d20", f"The d20 shows {value}.", value=value, why=key)
    return value


@dataclass(frozen=True)
class Aim:
    """What an Advance or Defeat roll adds up to: the items' strength, against its target."""

    strength: int
    target: int

    def need(self, ctx: GameContext) -> int:
        """The result the d20 must reach with the bonuses in force now."""
        return self.target - self.strength - roll_bonus(ctx)


def hero_roll(ctx: GameContext, key: str, text: str, aim: Aim | None = None) -> Flow[int]:
    """Roll the d20 for the active hero; Perks and a Gift may change it; 20+ earns a Perk.
    ``aim``: an Advance or Defeat roll (None: a special action's roll).

    Returns the roll's result (the face with every Perk card's change).
    """
    value = yield from roll_d20(ctx, key, text)
    if aim is not None:
        value += _take_next_roll_bonus(ctx)
    value = yield from _roll_window(ctx, value, aim)
    if value == 1:
        ctx.emit("critical-failure", "A 1: critical failure, nothing happens.", key=key)
    if ctx.state.phase == "hero" and value >= 20:
        yield from gain_perk(ctx, ctx.active_player, "a d20 result of 20 or more")
    return value


def _take_next_roll_bonus(ctx: GameContext) -> int:
    """"+N to your next Advance or Defeat roll" Perks played earlier are used up by this roll."""
    bonuses = bonuses_of(ctx.state)
    bonus, bonuses.next_roll = bonuses.next_roll, 0
    if bonus:
        ctx.emit("roll-boosted", f"The Perk cards played for this roll add {bonus}.", amount=bonus)
    return bonus


def _roll_window(ctx: GameContext, value: int, aim: Aim | None) -> Flow[int]:
    """Between a Hero Phase roll and its effect: any player may play any number of Perk cards
    that change it (RL-TU-2), and the roller may accept a Dark Gift that changes what it does
    (RL-HA-8). Asked again after each play, until the players go on with the roll."""
    if ctx.state.phase != "hero":
        return value
    while True:
        options = window_options(ctx, value, aim)
        if len(options) == 1:
            return value
        chosen = yield Prompt("choice", "roll-perk", _window_text(value, options), ctx.active_player,
                              tuple(options), context={"value": value})
        assert isinstance(chosen, str)
        if chosen == KEEP:
            return value
        play, _, rest = chosen.partition(":")
        value = yield from _WINDOW_PLAYS[play](ctx, rest, value)


def window_options(ctx: GameContext, value: int, aim: Aim | None) -> list[Option]:
    """``keep``, then every roll-changing Perk held (``perk:hero:perk``), then the roller's Gift
    when accepting it now can change what this roll does (``gift:hero``)."""
    options = [Option(KEEP, f"Go on with {value}")]
    for hero in ctx.state.heroes.values():
        for perk in hero.perks:
            card = ctx.pack.perk(perk)
            if card.effect.kind == "adjust_roll":
                options.append(Option(f"perk:{hero.id}:{perk}", f"{hero.player} plays {card.name}"))
    roller = ctx.active_player
    if gift_changes_roll(ctx, roller, value, None if aim is None else aim.need(ctx)):
        gift = tile(ctx.pack, roller).gift
        options.append(Option(f"gift:{roller}", f"{ctx.state.heroes[roller].player} accepts the Dark Gift "
                                                f"{gift.name} first (for good)"))
    return options


def _window_text(value: int, options: list[Option]) -> str:
    perks = any(o.id.startswith("perk:") for o in options)
    gift = any(o.id.startswith("gift:") for o in options)
    offer = " or ".join((["play a Perk card to change it"] if perks else [])
                        + (["accept a Dark Gift"] if gift else []))
    return f"The d20 shows {value}. Before it takes effect, anyone may {offer}."


def _play_perk(ctx: GameContext, rest: str, value: int) -> Flow[int]:
    hero_id, _, perk_id = rest.partition(":")
    hero, card = ctx.state.heroes[hero_id], ctx.pack.perk(perk_id)
    discard_perk(ctx, hero_id, perk_id)
    new = yield from _changed_value(ctx, card, value)
    ctx.emit("perk-played", f"{hero.player} plays {card.name}: the roll becomes {new}.",
             hero=hero_id, perk=perk_id, value=new)
    return new


def _changed_value(ctx: GameContext, card: Perk, value: int) -> Flow[int]:
    """"Change the result by up to N either way": the player picks the new result (never below 1);
    a card marked ``either_way: false`` adds exactly N."""
    amount = int(str(card.effect.params["amount"]))
    if card.effect.params.get("either_way") is False:
        return max(1, value + amount)
    reach = abs(amount)
    results = [v for v in range(max(1, value - reach), value + reach + 1) if v != value]
    options = [Option(str(v), f"{v} ({v - value:+d})") for v in results]
    chosen = yield from ctx.choose("roll-perk-value", f"{card.name}: the roll is {value}. What does it become?",
                                   options)
    return int(chosen)


def _accept(ctx: GameContext, rest: str, value: int) -> Flow[int]:
    accept_gift(ctx, rest)
    return value
    yield


_WINDOW_PLAYS: dict[str, Callable[[GameContext, str, int], Flow[int]]] = {"perk": _play_perk, "gift": _accept}


def check(ctx: GameContext, key: str, text: str, strength: int, target: int) -> Flow[bool]:
    """An Advance or Defeat roll: the d20's result + item strength + bonuses against ``target``.

    A result of 1 always fails (RL-D20-3); a Perk card may change a 1 into something else first.
    """
    value = yield from hero_roll(ctx, key, text, Aim(strength, target))
    if value == 1:
        return False
    total = value + strength + roll_bonus(ctx)
    success = total >= target
    ctx.emit("check", f"{value} + {total - value} = {total}: {'success' if success else 'failed'} (needs {target}).",
             key=key, value=value, total=total, target=target, success=success)
    return success


def roll_bonus(ctx: GameContext) -> int:
    """Paladin-style bonuses this Hero Phase, plus an always-on Gift bonus of the active hero."""
    return bonuses_of(ctx.state).roll_bonus + gift_effects(ctx, ctx.active_player).get("roll_bonus_always", 0)


def challenge_text(what: str, strength: int, target: int) -> str:
    return f"Roll the d20 to {what}: add {strength} for the items; {target} or more succeeds."


def choose_first_player(ctx: GameContext) -> Flow[None]:
    """Everyone rolls the d20; the highest starts; tied players roll again (RL-SU-6)."""
    rolling = list(ctx.state.seats)
    while len(rolling) > 1:
        names = ", ".join(ctx.state.heroes[h].player for h in rolling)
        answer = yield Prompt("roll", "first-player", f"Each player rolls the d20, in this order: {names}.",
                              None, die="d20", count=len(rolling), context={"players": rolling})
        assert isinstance(answer, tuple)
        best = max(int(str(v)) for v in answer)
        rolling = [h for h, v in zip(rolling, answer) if v == best]
        if len(rolling) > 1:
            tied = " and ".join(ctx.state.heroes[h].player for h in rolling)
            ctx.emit("first-player-tie", f"Tie: {tied} each rolled {best}, so they roll again.", players=rolling)
    ctx.state.active = ctx.state.seats.index(rolling[0])
    ctx.emit("first-player", f"{ctx.state.heroes[rolling[0]].player} goes first; play goes clockwise.", hero=rolling[0])
