"""Positions nobody chose, for checking the forecast against the engine's own simulation: a
random game played by the random policy to a Hero Phase, its deck cut short so that every card
is walked exactly; and the figures of that exact forecast that miss the simulation
(``test_forecast_exact``'s). Shared by tests/test_forecast_property.py (a few seeds, every run)
and benchmarks/check_forecast_exact.py (many seeds, by hand)."""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass

from companion.games.horrified_core.forecast import forecast, monster_phase_start
from companion.games.horrified_core.forecast.tally import LedgerSink, layout_of
from companion.games.horrified_core.rules import HorrifiedRules
from companion.games.horrified_core.simulate import play_out, random_policy
from companion.games.horrified_core.state import GameState
from test_forecast_exact import _check, _labels, simulate


@dataclass(frozen=True)
class Shape:
    """What a random position may be: how many monsters and heroes, the turn it is taken at, how
    many cards its deck is cut to (one of each, at random)."""

    monsters: tuple[int, ...] = (2, 3)
    heroes: tuple[int, ...] = (2,)
    turns: tuple[int, ...] = (2, 3, 4)
    deck: tuple[int, ...] = (2,)


def _pick(rng: random.Random, options: tuple[int, ...]) -> int:
    """One of ``options``; a single one draws nothing (a seed gives the same position as before)."""
    return options[0] if len(options) == 1 else rng.choice(options)


def random_position(rules: HorrifiedRules, seed: int, shape: Shape = Shape()) -> GameState | None:
    """A Hero Phase of a random game of ``shape``, its deck cut short; None when the game ended first."""
    rng = random.Random(seed)
    monsters = rng.sample([m.id for m in rules.pack.monsters], _pick(rng, shape.monsters))
    heroes = rng.sample([h.id for h in rules.pack.heroes], _pick(rng, shape.heroes))
    game = rules.new_game({"setup": {"monsters": monsters, "heroes": [{"hero": h, "player": h} for h in heroes]}})
    policy, turn = random_policy(rules, seed), _pick(rng, shape.turns)
    while not game.over:
        state = game.state
        assert isinstance(state, GameState) and game.prompt is not None
        if game.prompt.key == "hero-action" and state.turn >= turn:
            break
        play_out(game, policy, game.version + 1)
    if game.over:
        return None
    copy: GameState = pickle.loads(pickle.dumps(game.state))
    copy.deck = sorted(rng.sample(list(copy.deck), min(_pick(rng, shape.deck), len(copy.deck))))
    return copy


def missed(rules: HorrifiedRules, state: GameState, runs: int) -> list[str]:
    """The figures of the exact forecast of ``state`` further than sampling error from ``runs``
    simulated Monster Phases, heroes discarding whenever able (and a quarter as many keeping)."""
    found = forecast(rules, state, ways_per_card=10 ** 7)
    assert found.estimated == [], "a cut deck is walked whole"
    start = monster_phase_start(rules, state)
    assert start is not None
    layout = layout_of(rules.context(start, LedgerSink()), found.layout.places)
    labels = _labels(layout)
    return (_check("discarding", found.value.mean[0], simulate(rules, start, layout, runs, True), labels)
            + _check("keeping", found.value.mean[1], simulate(rules, start, layout, max(1, runs // 4), False), labels))
