"""How fast the rules engine is on this machine, against the table's targets.

The companion runs on a Raspberry Pi at the table: a Monster card must resolve
well within a blink (target: under 1 ms per card), and a saved game must load
by replaying its log quickly enough that reconnecting a tablet feels instant
(target: under 50 ms for 300 inputs); undo and the opening of a saved game
after a restart go on from snapshots instead, and print their figures before and
after. This prints the figures, each marked
PASS or over-target, and the command that printed them. Run it with the
project's interpreter: ``.venv/bin/python benchmarks/bench_engine.py``.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import logging
import platform
import pstats
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from companion.engine.game import Game, Input  # noqa: E402
from companion.games.horrified.rules import OriginalRules  # noqa: E402
from companion.games.horrified_core.monster_phase import ENTER_CARD  # noqa: E402
from companion.games.horrified_core.rules import HorrifiedRules  # noqa: E402
from companion.games.ravenloft.rules import RavenloftRules  # noqa: E402
from companion.games.ravenloft.simulate import Policy, play_out, random_policy  # noqa: E402
from companion.games.registry import pack_makers  # noqa: E402
from companion.store import JournalEntry, Store  # noqa: E402
from companion.table import reopen  # noqa: E402
from companion.table.table import Table  # noqa: E402

CARD_TARGET_MS = 1.0
REPLAY_TARGET_MS = 50.0
REPLAY_INPUTS = 300
ALL_MONSTERS = ["carrionette", "baba-lysaga", "strahd", "gulthias-tree"]
HEROES = [{"hero": "sorcerer", "player": "Sam"}, {"hero": "druid", "player": "Beau"},
          {"hero": "paladin", "player": "Joel"}]
#: The original box: four of its six monsters, three heroes.
ORIGINAL_SETUP = {"monsters": ["dracula", "creature", "wolf-man", "mummy"],
                  "heroes": [{"hero": "inspector", "player": "Sam"}, {"hero": "mayor", "player": "Beau"},
                             {"hero": "scientist", "player": "Joel"}]}
SAMPLE = Path(__file__).resolve().parents[1] / "companion/games/ravenloft/examples/sample-position.json"
Origin = Mapping[str, object]


@dataclass(frozen=True)
class Segment:
    """Part of a replay: one game's origin and (some of) its inputs."""

    origin: Origin
    inputs: list[Input]


# -- measuring --------------------------------------------------------------------------------

def ms_since(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0


def p90(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=10, method="inclusive")[8]


def verdict(value: float, target: float) -> str:
    return "PASS" if value < target else f"over-target (target < {target:g} ms)"


def figure(name: str, value: float, target: float) -> str:
    return f"  {name:<8} {value:8.3f} ms   {verdict(value, target)}"


# -- (1) one Monster Phase per card -------------------------------------------------------------

def monster_phase_origin() -> Origin:
    """The sample table (all four monsters in play) with every card still in the deck."""
    position = json.loads(SAMPLE.read_text(encoding="utf-8"))
    position["played_cards"] = []
    return {"position": position}


def resolve_card(game: Game, card: str, policy: Policy) -> None:
    """Answer the card, then every prompt of that Monster Phase (the timed part)."""
    game.apply({"key": "monster-card", "answer": card})
    while game.prompt is not None and game.prompt.key != "hero-action":
        play_out(game, policy, game.version + 1)


def time_card(rules: HorrifiedRules, origin: Origin, card: str, seed: int,
              before: list[Input] | None = None) -> tuple[float, float]:
    """(resolution ms, build ms): the game and the policy are built before the clock starts."""
    start = time.perf_counter()
    game, policy = rules.new_game(origin, list(before or [])), random_policy(rules, seed)
    built = ms_since(start)
    start = time.perf_counter()
    resolve_card(game, card, policy)
    return ms_since(start), built


def bench_cards(rules: HorrifiedRules, seeds: range, origin: Origin | None = None,
                before: list[Input] | None = None) -> tuple[list[float], list[float]]:
    """``origin``/``before``: a game that asks for the first Monster card (default: Ravenloft's sample table)."""
    origin = origin or monster_phase_origin()
    cards = offered_cards(rules.new_game(origin, list(before or [])))
    for card in cards:  # warm-up: first calls fill caches and import lazily
        time_card(rules, origin, card, -1, before)
    pairs = [time_card(rules, origin, card, seed, before) for seed in seeds for card in cards]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def offered_cards(game: Game) -> list[str]:
    """The different cards the first draw offers (copies of one card are one choice)."""
    assert game.prompt is not None and game.prompt.key == "monster-card", "a game asking for a Monster card"
    return sorted(o.id for o in game.prompt.options if o.id != ENTER_CARD)


def first_monster_card(rules: HorrifiedRules, setup: Origin, seed: int = 7) -> tuple[Origin, list[Input]]:
    """A seeded game from ``setup`` played up to its first Monster card question (the original
    ships no sample table): its origin and inputs."""
    game = rules.new_game({"setup": setup})
    policy = random_policy(rules, seed)
    while game.prompt is not None and game.prompt.key != "monster-card":
        play_out(game, policy, game.version + 1)
    assert game.prompt is not None, "the seeded game ended before its first Monster Phase"
    return game.origin, list(game.inputs)


def report_cards(rules: HorrifiedRules, seeds: range, title: str = "all four monsters in play",
                 start: tuple[Origin, list[Input]] | None = None) -> bool:
    resolved, built = bench_cards(rules, seeds, *(start or (None, None)))
    print(f"(1) Monster Phase, {title}: {len(resolved) // len(seeds)} different cards x {len(seeds)} seeds "
          f"= {len(resolved)} phases, seeded random answers")
    print("    timed: answering the card and every prompt up to the next Hero Phase (game built beforehand)")
    rows = [("median", statistics.median(resolved)), ("p90", p90(resolved)), ("max", max(resolved))]
    for name, value in rows:
        print(figure(name, value, CARD_TARGET_MS))
    print(f"    not timed, for reference: building the game up to its card (position or setup replayed), median "
          f"{statistics.median(built):.3f} ms")
    return all(value < CARD_TARGET_MS for _, value in rows)


# -- (2) replaying 300 inputs ------------------------------------------------------------------

def setup_origin() -> Origin:
    return {"setup": {"monsters": ALL_MONSTERS, "heroes": HEROES}}


def played_game(rules: HorrifiedRules, seed: int, limit: int, origin: Origin | None = None) -> Segment:
    game = rules.new_game(origin or setup_origin())
    play_out(game, random_policy(rules, seed), limit)
    return Segment(game.origin, list(game.inputs))


def replay_chain(rules: HorrifiedRules, first_seed: int, total: int = REPLAY_INPUTS,
                 origin: Origin | None = None) -> list[Segment]:
    """Seeded games from setup, one after another, until ``total`` inputs (the last one cut short).

    Random games with all four monsters end (usually lost to terror) after
    100 to 200 inputs, so 300 inputs take two or three games.
    """
    chain: list[Segment] = []
    seed, left = first_seed, total
    while left > 0:
        segment = played_game(rules, seed, left, origin)
        chain.append(segment)
        left -= len(segment.inputs)
        seed += 1
    return chain


def time_replay(rules: HorrifiedRules, chain: list[Segment]) -> float:
    start = time.perf_counter()
    for segment in chain:
        Game(rules, segment.origin, segment.inputs)
    return ms_since(start)


def report_replay(rules: HorrifiedRules, chains: int, repeats: int, origin: Origin | None = None,
                  cast: str = "all four monsters, 3 heroes") -> bool:
    built = [replay_chain(rules, 1000 * n, origin=origin) for n in range(chains)]
    games = [len(chain) for chain in built]
    time_replay(rules, built[0])  # warm-up
    samples = [time_replay(rules, chain) for chain in built for _ in range(repeats)]
    print(f"(2) Replaying {REPLAY_INPUTS} inputs with Game(rules, origin, inputs): {chains} seeded input logs "
          f"(each {min(games)}-{max(games)} games from setup, {cast}) x {repeats} runs")
    rows = [("median", statistics.median(samples)), ("max", max(samples))]
    for name, value in rows:
        print(figure(name, value, REPLAY_TARGET_MS))
    return all(value < REPLAY_TARGET_MS for _, value in rows)


# -- (3) undo after 300 inputs -----------------------------------------------------------------

def long_game(rules: HorrifiedRules, heroes: list[dict[str, str]], total: int = REPLAY_INPUTS) -> Segment:
    """A seeded game from setup of ``total`` inputs (random games are often lost sooner, so games
    with one monster are tried, seed after seed), else the longest found."""
    found: list[Segment] = []
    for seed in range(4):
        for monster in rules.pack.monsters:
            found.append(played_game(rules, seed, total, {"setup": {"monsters": [monster.id], "heroes": heroes}}))
            if len(found[-1].inputs) >= total:
                return found[-1]
    return max(found, key=lambda segment: len(segment.inputs))


def time_undo(rules: HorrifiedRules, game: Segment, count: int, repeats: int) -> tuple[float, float]:
    """Median ms of undoing ``count`` inputs: before, the game replayed from its origin (what undo did);
    after, ``Game.undo`` going on from its last snapshot (the game built beforehand, not timed)."""
    before, after = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        Game(rules, game.origin, game.inputs[:-count])
        before.append(ms_since(start))
        built = Game(rules, game.origin, game.inputs)
        start = time.perf_counter()
        built.undo(count)
        after.append(ms_since(start))
    return statistics.median(before), statistics.median(after)


def report_undo(rules: HorrifiedRules, heroes: list[dict[str, str]], repeats: int) -> None:
    game = long_game(rules, heroes)
    monsters = game.origin["setup"]["monsters"]  # type: ignore[index]
    print(f"(3) Undo after {len(game.inputs)} inputs of one seeded game from setup ({', '.join(monsters)}, "
          f"3 heroes), median of {repeats} runs")
    for count in (1, 10):
        before, after = time_undo(rules, game, count, repeats)
        print(f"    undo {count:2d}: before (whole game replayed) {before:7.1f} ms, "
              f"after (from the last snapshot) {after:6.1f} ms")


# -- (4) opening a game of 300 inputs after a restart ----------------------------------------------

def saved_game(folder: Path, pack_id: str, game: Segment) -> tuple[Path, str]:
    """``game`` saved as a fresh SQLite file holds it (its journal alone, no reopen cache yet)."""
    path = folder / f"{pack_id}.sqlite"
    with Store(path) as store:
        game_id = store.create_game(pack_id, "Long night", game.origin)
        store.append_all(game_id, [JournalEntry("input", dict(entry)) for entry in game.inputs])
    return path, game_id


def time_open(path: Path, pack_id: str, game_id: str, repeats: int, read_only: bool) -> tuple[float, float]:
    """Median ms of opening the game as the box does after a restart (a ``Table`` over the file: the
    journal read, the game rebuilt, its record) and of that plus the first tablet's view."""
    pack = pack_makers("")[pack_id]()
    opened, viewed = [], []
    with Store(path, read_only="measuring the whole replay" if read_only else "") as store:
        for _ in range(repeats):
            start = time.perf_counter()
            table = Table(store, pack, game_id)
            opened.append(ms_since(start))
            table.view()
            viewed.append(ms_since(start))
    return statistics.median(opened), statistics.median(viewed)


def report_open(pack_id: str, rules: HorrifiedRules, heroes: list[dict[str, str]], repeats: int) -> None:
    """Before: the file without a reopen cache, opened read-only (so the cache is not written): the
    whole journal replayed, as every open did. After: the same file once opened for writing (which
    wrote its cache), the game going on from its last snapshot."""
    game = long_game(rules, heroes)
    logging.getLogger("companion.table").setLevel(logging.ERROR)  # "replays whole because ...": each before run
    start = time.perf_counter()
    reopen.code_stamp()
    stamp_ms = ms_since(start)
    folder = Path(tempfile.mkdtemp(prefix="bench-open-"))
    try:
        path, game_id = saved_game(folder, pack_id, game)
        before = time_open(path, pack_id, game_id, repeats, read_only=True)
        start = time.perf_counter()
        with Store(path) as store:
            Table(store, pack_makers("")[pack_id](), game_id)  # the first open: replays whole, writes the cache
        first_ms = ms_since(start)
        after = time_open(path, pack_id, game_id, repeats, read_only=False)
    finally:
        shutil.rmtree(folder)
    print(f"(4) Opening a saved game of {len(game.inputs)} inputs after a restart (a Table over its SQLite file), "
          f"median of {repeats} runs")
    print(f"    before (whole journal replayed): {before[0]:7.1f} ms, with the first view {before[1]:7.1f} ms")
    print(f"    after (from its snapshots):      {after[0]:7.1f} ms, with the first view {after[1]:7.1f} ms")
    print(f"    not in those: the first open of a game without a cache (replays and writes it) {first_ms:.1f} ms; "
          f"the code's stamp, once per process, {stamp_ms:.1f} ms")


# -- profiling ----------------------------------------------------------------------------------

def profile(title: str, work: Callable[[], object], top: int) -> None:
    """Where the time goes, by time spent in each function itself."""
    profiler = cProfile.Profile()
    profiler.enable()
    work()
    profiler.disable()
    print(f"\n--- profile: {title} (top {top} by own time) ---")
    pstats.Stats(profiler, stream=sys.stdout).strip_dirs().sort_stats("tottime").print_stats(top)


def profile_all(rules: HorrifiedRules, seeds: range, top: int) -> None:
    profile("resolving Monster cards", lambda: bench_cards(rules, seeds), top)
    chain = replay_chain(rules, 0)
    profile(f"replaying {REPLAY_INPUTS} inputs", lambda: [time_replay(rules, chain) for _ in range(10)], top)


# -- main -----------------------------------------------------------------------------------------

def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Time the rules engine against the table's targets.")
    parser.add_argument("--seeds", type=int, default=10, help="seeds per card in (1) (default: 10)")
    parser.add_argument("--logs", type=int, default=5, help="input logs replayed in (2) (default: 5)")
    parser.add_argument("--repeats", type=int, default=5, help="runs per input log in (2) (default: 5)")
    parser.add_argument("--profile", action="store_true", help="also print cProfile hot spots")
    parser.add_argument("--top", type=int, default=15, help="rows per profile (default: 15)")
    return parser.parse_args(argv)


def header() -> None:
    print(f"command: {sys.executable} {' '.join(sys.argv)}")
    print(f"python {platform.python_version()} on {platform.platform()} ({platform.machine()})")
    print()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    rules = RavenloftRules()
    header()
    print("== Ravenloft ==")
    cards_ok = report_cards(rules, range(args.seeds))
    print()
    replay_ok = report_replay(rules, args.logs, args.repeats)
    print()
    report_undo(rules, HEROES, args.repeats)
    print()
    report_open("ravenloft", rules, HEROES, args.repeats)
    original = OriginalRules()
    print("\n== the original Horrified (Dracula, the Creature, the Wolf Man, the Mummy; 3 heroes) ==")
    cards_ok &= report_cards(original, range(args.seeds), "four monsters in play, from a seeded game's first Monster "
                             "card", first_monster_card(original, ORIGINAL_SETUP))
    print()
    replay_ok &= report_replay(original, args.logs, args.repeats, {"setup": ORIGINAL_SETUP}, "four monsters, 3 heroes")
    print()
    report_undo(original, ORIGINAL_SETUP["heroes"], args.repeats)  # type: ignore[arg-type]
    print()
    report_open("horrified", original, ORIGINAL_SETUP["heroes"], args.repeats)  # type: ignore[arg-type]
    if args.profile:
        profile_all(rules, range(min(args.seeds, 3)), args.top)
    elif not (cards_ok and replay_ok):
        print("\nA target was missed: run again with --profile to see where the time goes.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
