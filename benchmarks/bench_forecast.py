"""How fast the threat forecast is on this machine, against the issue's targets.

The forecast walks the coming Monster Phase on the rules engine (companion/games/
horrified_core/forecast): an estimate first, then card after card walked exactly. Printed for
1 to 4 monsters of each edition (Ravenloft's sample table, the original's table below; the
first N monsters of each, the full deck of 30 cards): the time to the first estimate, the time
until every card is exact (or "not exact in S s" at the limit), and the replays of the phase
that took; then the what-if of every action of the active hero at the sample table, each in
its own budget, the slowest and the sum. Targets: first estimate < 0.5 s; exact < 5 s for
Ravenloft's four monsters and < 0.5 s for the original's; one what-if < 1 s (a Raspberry Pi 4
is 3 to 5 times slower). Processor seconds (``time.process_time``) beside wall seconds: on a
loaded machine the wall time says little.
``--workers 1,2,4``: then the same tables with the cards walked on that many worker processes
(companion/workers.py, as the service does): the wall seconds to exact with each pool, and
the gain over one worker (only meaningful on an otherwise idle machine with that many cores).
Run: ``.venv/bin/python benchmarks/bench_forecast.py [--limit S] [--workers 1,4]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Mapping

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from companion.engine.effects import EffectSink  # noqa: E402
from companion.engine.game import Game  # noqa: E402
from companion.games.horrified.packrules import HorrifiedPackRules  # noqa: E402
from companion.games.horrified_core.choices import action_options  # noqa: E402
from companion.games.horrified_core.forecast.family import FamilyForecast  # noqa: E402
from companion.games.horrified_core.forecast.forecast import forecasts  # noqa: E402
from companion.games.horrified_core.rules import HorrifiedRules  # noqa: E402
from companion.games.horrified_core.state import GameState  # noqa: E402
from companion.games.horrified.gamepack import HorrifiedPack  # noqa: E402
from companion.games.horrified_core.forecast.spread import OnWorkers, PackMaker  # noqa: E402
from companion.games.ravenloft.gamepack import RavenloftPack  # noqa: E402
from companion.games.ravenloft.rules import RavenloftRules  # noqa: E402
from companion.workers import Workers  # noqa: E402

FIRST_TARGET = 0.5
EXACT_TARGETS = {("ravenloft", 4): 5.0, ("original", 4): 0.5}
WHAT_IF_TARGET = 1.0
SAMPLE = Path(__file__).resolve().parents[1] / "companion/games/ravenloft/examples/sample-position.json"
ORIGINAL = {"phase": "hero", "turn": 3, "active": "mayor", "terror": 1, "frenzy": "dracula",
            "monsters": {"dracula": "crypt", "invisible-man": "inn", "creature": "lagoon", "wolf-man": "camp"},
            "heroes": [{"hero": "mayor", "player": "Ann", "at": "abbey", "items": ["dart-1"]},
                       {"hero": "professor", "player": "Bo", "at": "crypt", "items": []},
                       {"hero": "inspector", "player": "Cy", "at": "docks", "items": ["kite-1"]}],
            "items": {"anatomy-text-1": "institute", "centrifuge-1": "laboratory"}}


def table(edition: str, monsters: int) -> dict[str, object]:
    """The edition's sample table with its first ``monsters`` monsters, every card in the deck."""
    position = json.loads(SAMPLE.read_text(encoding="utf-8")) if edition == "ravenloft" else json.loads(
        json.dumps(ORIGINAL))
    position["phase"] = "hero"
    position["played_cards"] = []
    kept = dict(list(position["monsters"].items())[:monsters])
    position["monsters"] = kept
    position["frenzy"] = next(iter(kept))
    position["mats"] = {m: mat for m, mat in position.get("mats", {}).items() if m in kept}
    return position


def rules_of(edition: str) -> HorrifiedRules:
    return RavenloftRules() if edition == "ravenloft" else HorrifiedPackRules().original


def state_of(rules: HorrifiedRules, position: Mapping[str, object]) -> GameState:
    state = Game(rules, {"position": position}).state
    assert isinstance(state, GameState)
    return state


def clocks() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def since(began: tuple[float, float]) -> str:
    wall, cpu = clocks()
    return f"{cpu - began[1]:6.2f} s cpu ({wall - began[0]:6.2f} s wall)"


def refinement(rules: HorrifiedRules, state: GameState, limit: float) -> None:
    began = clocks()
    first, last = "", None
    for found in forecasts(rules, state, limit):
        if not first:
            first = since(began)
            mark = "PASS" if time.process_time() - began[1] < FIRST_TARGET else "over-target"
            first += f" {mark}"
        last = found
    assert last is not None
    done = since(began) if not last.estimated else f"not exact in {limit:g} s ({len(last.estimated)} cards estimated)"
    print(f"    first estimate {first}; exact {done}; {last.replays} replays", flush=True)


def what_ifs(rules: HorrifiedRules, position: Mapping[str, object]) -> None:
    game = Game(rules, {"position": position})
    state = game.state
    assert isinstance(state, GameState) and game.prompt is not None
    tried = [a for a in action_options(rules.context(state, EffectSink()), game.prompt) if a["action"] != "end"]
    family = FamilyForecast(lambda _: rules)
    slowest, total, exact = 0.0, 0.0, 0
    for action in tried:
        began = time.process_time()
        try:
            found = family.what_if(game, action)
        except Exception:  # noqa: BLE001 - an action asking more than it says has no what-if
            continue
        spent = time.process_time() - began
        slowest, total, exact = max(slowest, spent), total + spent, exact + bool(found["exact"])
    mark = "PASS" if slowest < WHAT_IF_TARGET else "over-target"
    print(f"    what-if of {len(tried)} actions: slowest {slowest:.2f} s cpu {mark}, all {total:.2f} s cpu, "
          f"{exact} exact", flush=True)


def maker_of(edition: str) -> PackMaker:
    return RavenloftPack if edition == "ravenloft" else HorrifiedPack


def on_workers(edition: str, pools: list[Workers], limit: float) -> None:
    """Each table's time to exact (wall seconds) with each pool, and the gain over the first."""
    rules = rules_of(edition)
    print(f"  {edition} on worker processes (wall seconds to exact; the estimate first, in this process)")
    for monsters in (1, 2, 3, 4):
        state = state_of(rules, table(edition, monsters))
        found = [_walked_on(rules, state, pool, maker_of(edition), limit) for pool in pools]
        base = found[0][0]
        cells = [f"{pool.size} worker(s): " + (f"exact {wall:6.2f} s" + (f" (x{base / wall:.1f})" if base else "")
                                               if left == 0 else f"{left} cards not exact in {limit:g} s")
                 + f", {replays} replays, workers {cpu:.1f} s cpu"
                 for pool, (wall, left, replays, cpu) in zip(pools, found)]
        print(f"    {monsters} monster(s): " + "; ".join(cells), flush=True)


def _walked_on(rules: HorrifiedRules, state: GameState, pool: Workers, maker: PackMaker,
               limit: float) -> tuple[float, int, int, float]:
    """(wall seconds to the last forecast, cards left estimated, replays, the workers' processor
    seconds: on a machine others load, what the workers got of it)."""
    began, cpu = time.perf_counter(), _workers_cpu(pool)
    last = None
    for last in forecasts(rules, state, limit, walks=OnWorkers(pool, maker)):
        pass
    assert last is not None
    return time.perf_counter() - began, len(last.estimated), last.replays, _workers_cpu(pool) - cpu


def _workers_cpu(pool: Workers) -> float:
    """The processor seconds the pool's processes have used (Linux's /proc; 0 elsewhere)."""
    total = 0.0
    for pid in pool.pids():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=float, default=60.0, help="seconds a forecast may take to become exact")
    parser.add_argument("--editions", default="ravenloft,original")
    parser.add_argument("--workers", default="", help="pool sizes to compare, e.g. 1,4 (the first is the base)")
    parser.add_argument("--only-workers", action="store_true", help="skip the figures in one process")
    args = parser.parse_args()
    print(f"Threat forecast on {platform.machine()} {platform.python_implementation()} {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.2f}")
    sizes = [int(n) for n in args.workers.split(",") if n.strip()]
    if sizes:
        pools = [Workers(n) for n in sizes]
        time.sleep(2)  # the workers start (the service starts them with itself)
        try:
            for edition in args.editions.split(","):
                on_workers(edition, pools, args.limit)
        finally:
            for pool in pools:
                pool.close()
    for edition in [] if args.only_workers else args.editions.split(","):
        rules = rules_of(edition)
        for monsters in (1, 2, 3, 4):
            position = table(edition, monsters)
            target = EXACT_TARGETS.get((edition, monsters))
            print(f"  {edition}, {monsters} monster(s) ({', '.join(position['monsters'])}), 30 cards"
                  + (f"; exact target < {target:g} s" if target else ""), flush=True)
            refinement(rules, state_of(rules, position), args.limit)
        what_ifs(rules, table(edition, 4))
    print(f"load average now {os.getloadavg()[0]:.2f}; command: .venv/bin/python benchmarks/bench_forecast.py "
          f"{' '.join(sys.argv[1:])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
