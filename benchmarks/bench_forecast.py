"""How fast the threat forecast is on this machine, against the issue's targets.

The forecast walks the coming Monster Phase on the rules engine (companion/games/
horrified_core/forecast). Targets: four monsters and a full deck under 50 ms; the what-if of
every legal action of a hero under one second (a Raspberry Pi 4 is about five times slower).
Printed for each position: the time, how many cards were walked exactly and how many
estimated from random plays in the time given, and the estimates' error (about two standard
errors, in percentage points). Run: ``.venv/bin/python benchmarks/bench_forecast.py``.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path
from typing import Mapping

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from companion.engine.game import Game  # noqa: E402
from companion.games.horrified.packrules import HorrifiedPackRules  # noqa: E402
from companion.games.horrified_core.forecast import Forecast, forecast  # noqa: E402
from companion.games.horrified_core.forecast.family import FamilyForecast  # noqa: E402
from companion.games.horrified_core.rules import HorrifiedRules  # noqa: E402
from companion.games.horrified_core.state import GameState  # noqa: E402
from companion.games.ravenloft.rules import RavenloftRules  # noqa: E402

FULL_DECK_TARGET_MS = 50.0
WHAT_IFS_TARGET_MS = 1000.0
SAMPLE = Path(__file__).resolve().parents[1] / "companion/games/ravenloft/examples/sample-position.json"
ORIGINAL = {"phase": "hero", "turn": 3, "active": "mayor", "terror": 1, "frenzy": "dracula",
            "monsters": {"dracula": "crypt", "invisible-man": "inn", "creature": "lagoon", "wolf-man": "camp"},
            "heroes": [{"hero": "mayor", "player": "Ann", "at": "abbey", "items": ["dart-1"]},
                       {"hero": "professor", "player": "Bo", "at": "crypt", "items": []},
                       {"hero": "inspector", "player": "Cy", "at": "docks", "items": ["kite-1"]}],
            "items": {"anatomy-text-1": "institute", "centrifuge-1": "laboratory"}}


def ravenloft_position(cards_left: list[str] | None = None) -> dict[str, object]:
    position = json.loads(SAMPLE.read_text(encoding="utf-8"))
    position["phase"] = "hero"
    every = [c.id for c in RavenloftRules().pack.cards]
    position["played_cards"] = [c for c in every if cards_left is not None and c not in cards_left]
    return position


def timed(rules: HorrifiedRules, position: Mapping[str, object], **options: object) -> tuple[float, Forecast]:
    state = Game(rules, {"position": position}).state
    assert isinstance(state, GameState)
    start = time.perf_counter()
    found = forecast(rules, state, **options)  # type: ignore[arg-type]
    return (time.perf_counter() - start) * 1000, found


def line(name: str, ms: float, found: Forecast, target: float | None = None) -> str:
    walked = found.cards_left - len(found.estimated)
    verdict = "" if target is None else ("   PASS" if ms < target else f"   over-target (target < {target:g} ms)")
    return (f"  {name:<46} {ms:9.1f} ms  {walked:2d} of {found.cards_left:2d} cards exact, "
            f"{found.replays:6d} replays, error ±{found.estimate_error * 100:.1f} points{verdict}")


def what_ifs_ms(rules: HorrifiedRules, position: Mapping[str, object]) -> tuple[float, int]:
    game = Game(rules, {"position": position})
    start = time.perf_counter()
    tried = FamilyForecast(lambda state: rules).what_ifs(game)
    return (time.perf_counter() - start) * 1000, len(tried)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="the forecast's time budget (default 3)")
    args = parser.parse_args()
    ravenloft, original = RavenloftRules(), HorrifiedPackRules().original
    print(f"Threat forecast on {platform.machine()} {platform.python_implementation()} {platform.python_version()}")
    print("(1) full deck, four monsters (Ravenloft's sample table; the original with four of its six):")
    for name, rules, position in (("ravenloft, 30 cards", ravenloft, ravenloft_position()),
                                  ("original, 30 cards", original, ORIGINAL)):
        for seconds in (0.05, args.seconds):
            ms, found = timed(rules, position, seconds=seconds)
            print(line(f"{name}, budget {seconds:g} s", ms, found, FULL_DECK_TARGET_MS))
    print("(2) exact walks of small decks (every card walked, no time limit):")
    for cards in (["ambush", "the-hut-walks", "rot-spreads"], ["howling-at-the-moon", "summons-to-the-castle"]):
        ms, found = timed(ravenloft, ravenloft_position(cards), ways_per_card=10 ** 7)
        print(line(f"ravenloft, {', '.join(cards)}", ms, found))
    print("(3) the what-if of every legal action of the active hero (3 s budget shared):")
    ms, count = what_ifs_ms(ravenloft, ravenloft_position())
    verdict = "PASS" if ms < WHAT_IFS_TARGET_MS else f"over-target (target < {WHAT_IFS_TARGET_MS:g} ms)"
    print(f"  ravenloft sample table, {count} actions            {ms:9.1f} ms   {verdict}")
    print("command: .venv/bin/python benchmarks/bench_forecast.py")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
