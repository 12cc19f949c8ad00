"""The box as Siege of Barovia's Dungeon Master, at each level, against scripted heroes.

Why: the levels are only worth having if they differ clearly (easy well above
hard for the heroes) and normal still gives the heroes a real game; and the
box must decide a DM turn in well under a second on a Raspberry Pi. This plays
``--games`` simulated games (default 1,000) per level with three scripted
heroes (simulate.scripted_heroes: they make for the Church, fight what stands
in it, rest, upgrade and recruit on the way; seeded dice) and prints the
heroes' win rate per level and the DM's time per turn (median and worst), the
time of the policy's choice alone. A plain script: figures are read, not asserted.

    .venv/bin/python benchmarks/bench_siege.py [--games N] [--heroes N]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from companion.engine.game import Game  # noqa: E402
from companion.games.siege_of_barovia import policy  # noqa: E402
from companion.games.siege_of_barovia.gamepack import SiegePack  # noqa: E402
from companion.games.siege_of_barovia.simulate import play_out, scripted_heroes  # noqa: E402

TURN_TARGET_MS = 100.0  # "well under a second" on a Pi, several times slower than a desktop
MAX_INPUTS = 4000


def timed_choices(times: list[float]) -> None:
    """Time every choice the box makes (the rules call ``policy.choose``)."""
    choose = policy.choose

    def timed(state: object) -> policy.Choice:
        start = time.perf_counter()
        found = choose(state)  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)
        return found

    policy.choose = timed  # type: ignore[assignment]


def play_level(pack: SiegePack, level: str, games: int, heroes: int) -> tuple[int, int, int]:
    won = lost = unfinished = 0
    for seed in range(games):
        setup = {"players": [{"name": f"Hero {n}"} for n in range(1, heroes + 1)], "dm": "box", "level": level,
                 "seed": seed}
        game = Game(pack.rules, {"setup": setup})
        play_out(game, scripted_heroes(seed), MAX_INPUTS)
        outcome = pack.outcome(game)
        won += outcome == "won"
        lost += bool(outcome) and outcome != "won"
        unfinished += not outcome
    return won, lost, unfinished


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per level (default 1000)")
    parser.add_argument("--heroes", type=int, default=3, help="scripted heroes (default 3)")
    args = parser.parse_args()
    print(f"$ {' '.join([Path(sys.executable).name, *sys.argv])}  (Python {platform.python_version()}, "
          f"{platform.machine()})")
    print(f"load average before: {_load()} (win rates do not depend on the load; the times do)")
    pack = SiegePack()
    print(f"{'level':<8} {'heroes won':>10} {'DM won':>7} {'no end':>7} {'DM turns':>9} "
          f"{'median ms':>10} {'p99 ms':>7} {'worst ms':>9}")
    for level in policy.LEVELS:
        times: list[float] = []
        timed_choices(times)
        won, lost, unfinished = play_level(pack, level, args.games, args.heroes)
        ordered = sorted(times)
        median, p99, worst = (ordered[int(q * (len(ordered) - 1))] * 1000 for q in (0.5, 0.99, 1.0))
        mark = "PASS" if worst < TURN_TARGET_MS else "over-target"
        print(f"{level:<8} {won / args.games:>10.1%} {lost / args.games:>7.1%} {unfinished:>7} {len(times):>9} "
              f"{median:>10.2f} {p99:>7.2f} {worst:>9.2f}  {mark} (worst under {TURN_TARGET_MS:.0f} ms)")
    print(f"load average after: {_load()}")
    return 0


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


if __name__ == "__main__":
    raise SystemExit(main())
