"""Who answers a game played by the computer (``companion play --game straszydla``, the tests):
a seeded random player that plays to win, and one that always takes the first answer.

Dice, draws and the order of the secret answers are random (engine/randomsource.py); for
the choices, the random player leans towards progress, as a person would: it collects what
lies in its district, buys and feeds creatures its pact needs, trades for the cubes its
creatures eat and ends its turn. It reads the whole state (its own pact too, as a player
knows their card); it is a player of simulations, never at the table.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from companion.engine.effects import EffectSink
from companion.engine.prompts import Prompt
from companion.engine.randomsource import RandomSource

from .context import Ctx
from .menu import Entry, menu
from .rules import StraszydlaRules
from .state import GameState


class Player:
    """``seat(prompt)`` picks who answers a question each seat answers (any of them: the order
    is the players'); ``answer(prompt, state, seat)`` what they answer."""

    def __init__(self, rules: StraszydlaRules, seed: int, first: bool = False) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.dice = RandomSource(seed + 1)
        self.first = first
        self.rolled = 0

    def seat(self, prompt: Prompt) -> str | None:
        if not prompt.each:
            return prompt.player
        pending = list(prompt.still_to_answer())
        return pending[0] if self.first else self.rng.choice(pending)

    def __call__(self, prompt: Prompt, state: object) -> object:
        return self.answer(prompt, state, self.seat(prompt))

    def answer(self, prompt: Prompt, state: object, seat: str | None) -> object:
        assert isinstance(state, GameState)
        if prompt.kind == "roll":
            return [self._first_die() if self.first else self.dice.roll(prompt) for _ in range(prompt.count)]
        if prompt.kind in ("choice", "draw"):
            return self._choice(prompt, state, seat)
        entries = menu(self._ctx(state), prompt, seat)
        return _without_label(entries[0] if self.first else self._pick(prompt, state, str(seat), entries))

    def _first_die(self) -> int:
        """The first player's dice go round 1 to 6, so a duel fought again does not tie for ever."""
        self.rolled += 1
        return self.rolled % 6 + 1

    def _ctx(self, state: GameState) -> Ctx:
        return Ctx(self.rules.pack_for(state), state, EffectSink())

    def _choice(self, prompt: Prompt, state: GameState, seat: str | None) -> str:
        options = prompt.option_ids()
        if prompt.key == "pact":
            taken = {p.pact for p in state.players.values()}
            options = [o for o in options if o not in taken] or options
        if prompt.key == "duel-withdraw":
            options = [o for o in options if o != "loser-chooses"] or options
        return options[0] if self.first else self.rng.choice(options)

    # -- choosing among the menu ------------------------------------------------------------------------------
    def _pick(self, prompt: Prompt, state: GameState, seat: str, entries: list[Entry]) -> Entry:
        weigh = {"plan": self._plan, "actions": self._action, "feed": self._feed, "duel-bid": self._bid,
                 "scare-spend": self._spend}.get(prompt.key)
        if weigh is None:
            return entries[0]
        ctx = self._ctx(state)
        weights = [max(0.01, weigh(ctx, seat, e)) for e in entries]
        return self.rng.choices(entries, weights)[0]

    def _plan(self, ctx: Ctx, seat: str, entry: Entry) -> float:
        moves = entry.get("moves")
        end = _end(ctx, seat, moves if isinstance(moves, list) else [])
        cubes = sum(ctx.state.cubes.get(end, {}).values())
        wanted = int(ctx.pack.tile(end).element in _needed(ctx, seat))
        last = ctx.state.card == 0
        return 1 + 3 * cubes + (6 * wanted if last else wanted)

    def _action(self, ctx: Ctx, seat: str, entry: Entry) -> float:
        kind = entry.get("action")
        if kind == "collect":
            return 1000
        if kind == "buy":
            creature = str(entry.get("creature"))
            return 200 if _helps(ctx, seat, creature, buying=True) and _can_feed(ctx, seat, entry) else 0.01
        if kind == "scare":
            return 20 if ctx.player(seat).energy >= 2 else 2
        if kind == "trade":
            return 8 if entry.get("take") in _hungry_for(ctx, seat) else 0.2
        return {"done": 30, "summon-imp": 6, "exchange-imp": 4}.get(str(kind), 0.2)

    def _feed(self, ctx: Ctx, seat: str, entry: Entry) -> float:
        """Feed whatever can be fed (the pact's creatures first), trade for what the others eat, then stop."""
        kind = entry.get("action")
        if kind in ("feed", "feed-free"):
            return 5000 if _helps(ctx, seat, str(entry.get("creature"))) else 1000
        if kind == "trade":
            return 100 if entry.get("take") in _hungry_for(ctx, seat) else 0.01
        if kind == "buy" and _helps(ctx, seat, str(entry.get("creature")), buying=True):
            return 20
        return 1 if kind == "done" else 0.01

    def _bid(self, ctx: Ctx, seat: str, entry: Entry) -> float:
        amount = entry.get("energy")
        return 1 / (1 + int(str(amount))) if isinstance(amount, int) else 0.1

    def _spend(self, ctx: Ctx, seat: str, entry: Entry) -> float:
        if entry.get("action") == "keep":
            return 3
        label = str(entry.get("label", ""))
        return 10 if " 3 cubes" in label or " 2 cubes" in label else 1


def _without_label(entry: Mapping[str, object]) -> dict[str, object]:
    return {k: v for k, v in entry.items() if k != "label"}


def _end(ctx: Ctx, seat: str, moves: Sequence[object]) -> str:
    from .geometry import walk

    return walk(ctx.geometry, ctx.player(seat).at, list(moves), ctx.reading("jump_last") == "yes").end


def _needed(ctx: Ctx, seat: str) -> list[str]:
    """The pact's symbols no creature of the player's stands for yet."""
    player = ctx.player(seat)
    if player.pact is None:
        return []
    symbols = list(ctx.pack.pact(player.pact).elements)
    for creature in player.creatures:
        for element in ctx.pack.creature(creature).elements:
            if element in symbols:
                symbols.remove(element)
                break
    return symbols


def _helps(ctx: Ctx, seat: str, creature: str, buying: bool = False) -> bool:
    """Whether a creature stands for a symbol of the player's pact (one not yet covered, when buying)."""
    player = ctx.player(seat)
    if player.pact is None:
        return False
    wanted = _needed(ctx, seat) if buying else list(ctx.pack.pact(player.pact).elements)
    return bool(set(ctx.pack.creature(creature).elements) & set(wanted))


def _can_feed(ctx: Ctx, seat: str, entry: Entry) -> bool:
    """After this payment, fear cubes enough to feed every creature, the new one too (colours aside)."""
    player = ctx.player(seat)
    pay = entry.get("pay")
    paid = sum(int(str(n)) for k, n in pay.items() if k != "energy") if isinstance(pay, dict) else 0
    eaters = player.creatures + [str(entry.get("creature"))]
    need = sum(ctx.pack.creature(c).strength(ctx.state.time) for c in eaters)
    return sum(player.cubes.values()) - paid >= need


def _hungry_for(ctx: Ctx, seat: str) -> set[str]:
    """The elements the player's unfed creatures eat but the player lacks."""
    player, wanted = ctx.player(seat), set()
    for creature in player.creatures:
        if creature in ctx.state.fed.get(seat, []):
            continue
        record = ctx.pack.creature(creature)
        if all(player.fear(e) < record.strength(ctx.state.time) for e in record.elements):
            wanted.add(record.elements[0])
    return wanted


def random_policy(rules: StraszydlaRules, seed: int) -> Player:
    return Player(rules, seed)


def first_policy(rules: StraszydlaRules) -> Player:
    return Player(rules, 0, first=True)


__all__ = ["Player", "first_policy", "random_policy"]
