"""The forecast against the engine's own simulation, on positions from random games.

tests/test_forecast_exact.py checks three positions made by hand for what they hold (ties,
Powers, frenzy, the Thief). This check goes wider and takes longer (minutes): for each seed, a
random game of two to four random monsters and two or three random heroes is played by the
random policy to a Hero Phase of turn 2 to 5; the deck is cut to two to four of the cards still
in it (so every card is walked exactly); the forecast's random-choice figures are then compared
with that many Monster Phases simulated by the random source, heroes discarding whenever able
(``--runs``) and never (a quarter as many). Prints one line per position and the figures that
missed (more than 4.5 standard errors). Run, e.g.:
``.venv/bin/python benchmarks/check_forecast_exact.py --edition original --seeds 0-10``.
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # run from a checkout; the simulation is the test's

from companion.engine.game import Game  # noqa: E402
from companion.games.horrified.packrules import HorrifiedPackRules  # noqa: E402
from companion.games.horrified_core.forecast import forecast, monster_phase_start  # noqa: E402
from companion.games.horrified_core.forecast.tally import LedgerSink, layout_of  # noqa: E402
from companion.games.horrified_core.rules import HorrifiedRules  # noqa: E402
from companion.games.horrified_core.simulate import play_out, random_policy  # noqa: E402
from companion.games.horrified_core.state import GameState  # noqa: E402
from companion.games.ravenloft.rules import RavenloftRules  # noqa: E402
from test_forecast_exact import _check, _labels, simulate  # noqa: E402


def random_game(rules: HorrifiedRules, rng: random.Random) -> Game:
    monsters = rng.sample([m.id for m in rules.pack.monsters], rng.choice([2, 3, 4]))
    heroes = rng.sample([h.id for h in rules.pack.heroes], rng.choice([2, 3]))
    return rules.new_game({"setup": {"monsters": monsters,
                                     "heroes": [{"hero": h, "player": h.title()} for h in heroes]}})


def position(rules: HorrifiedRules, seed: int) -> GameState | None:
    """A Hero Phase of a random game with a short deck; None when the game ended before it."""
    rng = random.Random(seed)
    game = random_game(rules, rng)
    policy, turn = random_policy(rules, seed), rng.choice([2, 3, 4, 5])
    while not game.over:
        state = game.state
        assert isinstance(state, GameState) and game.prompt is not None
        if game.prompt.key == "hero-action" and state.turn >= turn:
            break
        play_out(game, policy, game.version + 1)
    if game.over:
        return None
    copy: GameState = pickle.loads(pickle.dumps(game.state))
    copy.deck = sorted(rng.sample(list(copy.deck), min(rng.choice([2, 3, 4]), len(copy.deck))))
    return copy


def check(rules: HorrifiedRules, state: GameState, runs: int) -> tuple[list[str], float]:
    """The figures that missed, and the forecast's seconds."""
    began = time.perf_counter()
    found = forecast(rules, state, ways_per_card=10 ** 7)
    seconds = time.perf_counter() - began
    start = monster_phase_start(rules, state)
    if start is None or found.estimated:
        return [], seconds
    layout = layout_of(rules.context(start, LedgerSink()), found.layout.places)
    labels = _labels(layout)
    wrong = _check("discarding", found.value.mean[0], simulate(rules, start, layout, runs, True), labels)
    wrong += _check("keeping", found.value.mean[1], simulate(rules, start, layout, max(1, runs // 4), False), labels)
    return wrong, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edition", choices=("ravenloft", "original"), default="ravenloft")
    parser.add_argument("--seeds", default="0-10", help="first-last (last not included), default 0-10")
    parser.add_argument("--runs", type=int, default=8000, help="Monster Phases simulated per position")
    args = parser.parse_args()
    rules: HorrifiedRules = RavenloftRules() if args.edition == "ravenloft" else HorrifiedPackRules().original
    first, last = (int(n) for n in args.seeds.split("-"))
    missed = 0
    for seed in range(first, last):
        state = position(rules, seed)
        if state is None:
            print(f"seed {seed}: the game ended before its Hero Phase")
            continue
        wrong, seconds = check(rules, state, args.runs)
        monsters = ", ".join(sorted(state.monsters))
        print(f"seed {seed}: {monsters}; deck {', '.join(state.deck)}; forecast {seconds:.1f} s: "
              f"{'matches' if not wrong else 'MISSED'}", flush=True)
        for line in wrong:
            print("    " + line)
        missed += bool(wrong)
    print(f"{missed} position(s) missed; command: .venv/bin/python benchmarks/check_forecast_exact.py "
          f"--edition {args.edition} --seeds {args.seeds} --runs {args.runs}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
