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
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # run from a checkout; the simulation is the test's

from companion.games.horrified.packrules import HorrifiedPackRules  # noqa: E402
from companion.games.horrified_core.rules import HorrifiedRules  # noqa: E402
from companion.games.horrified_core.state import GameState  # noqa: E402
from companion.games.ravenloft.rules import RavenloftRules  # noqa: E402
from forecast_positions import Shape, missed, random_position  # noqa: E402


#: The positions checked: two to four monsters, two or three heroes, turn 2 to 5, two to four cards.
WIDE = Shape(monsters=(2, 3, 4), heroes=(2, 3), turns=(2, 3, 4, 5), deck=(2, 3, 4))


def check(rules: HorrifiedRules, state: GameState, runs: int) -> tuple[list[str], float]:
    """The figures that missed, and the seconds the forecast and its check took."""
    began = time.perf_counter()
    wrong = missed(rules, state, runs)
    return wrong, time.perf_counter() - began


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
        state = random_position(rules, seed, WIDE)
        if state is None:
            print(f"seed {seed}: the game ended before its Hero Phase")
            continue
        wrong, seconds = check(rules, state, args.runs)
        monsters = ", ".join(sorted(state.monsters))
        print(f"seed {seed}: {monsters}; deck {', '.join(state.deck)}; forecast and check {seconds:.1f} s: "
              f"{'matches' if not wrong else 'MISSED'}", flush=True)
        for line in wrong:
            print("    " + line)
        missed += bool(wrong)
    print(f"{missed} position(s) missed; command: .venv/bin/python benchmarks/check_forecast_exact.py "
          f"--edition {args.edition} --seeds {args.seeds} --runs {args.runs}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
