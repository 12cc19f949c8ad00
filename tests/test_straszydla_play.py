"""Straszydła played whole: the random player's games reach an outcome (in the engine and from
the command line), the scaring helper against every final face, and the properties a game of
secrets needs: a replay gives the same state, an undo gives the state it went back to, and a
seat's pact, plan and bid change nothing another seat or the shared screen is sent before the
rules reveal them (rulebook: "Do not show your pact card to the other players"; "Plan your move
in secret"; "each player decides in secret how many energy cubes they want to spend")."""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.game import Game
from companion.engine.plain import to_plain
from companion.games.straszydla.cli import StraszydlaCli
from companion.games.straszydla.gamepack import StraszydlaPack
from companion.games.straszydla.geometry import DIRECTIONS, Geometry, walk
from companion.games.straszydla.packdata import load_pack
from companion.games.straszydla.rules import StraszydlaRules
from companion.games.straszydla.scaring import cheapest, cost_of, cubes_for, horror_of, spends
from companion.engine.errors import IllegalInput
from companion.store import Store
from companion.table import Table, Tables
from service_process import ROOT
from straszydla_fixtures import setup, small_pack, small_rules

FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def shipped_rules() -> StraszydlaRules:
    return StraszydlaRules(load_pack())


def random_game(seed: int, players: int = 3, steps: int | None = None) -> tuple[Game, list[Any]]:
    """A game the seeded random player plays (``steps`` answers, or to its end), with the state
    as plain data after each answer (the first: before any)."""
    cli = StraszydlaCli(shipped_rules())
    origin = {"setup": cli.setup(argparse.Namespace(players=players, seed=seed, time=None, reading=[]))}
    game, policy = Game(shipped_rules(), origin), cli.policy("random", seed)
    states = [to_plain(game.state)]
    for _ in itertools.count() if steps is None else range(steps):
        if game.over:
            break
        cli.step(game, policy)
        states.append(to_plain(game.state))
    return game, states


# -- whole games ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("seed", "players"), [(1, 3), (2, 3), (7, 3), (11, 3), (5, 2), (5, 4)])
def test_the_random_player_plays_a_whole_game_to_an_outcome(seed: int, players: int) -> None:
    """"The game ends with the victory of the player who first fulfils the condition they drew" (or, by the
    reading dead_end, with no winner once no pact can be fulfilled any more)."""
    game, _ = random_game(seed, players, steps=20000)
    assert game.over, f"seed {seed}: no outcome after 20000 answers"
    outcome = game.state.outcome  # type: ignore[attr-defined]
    assert re.fullmatch(r".+ wins?|nobody wins: no pact can be fulfilled any more", outcome), outcome


def test_the_command_line_plays_straszydla_to_its_outcome() -> None:
    done = subprocess.run([sys.executable, "-m", "companion.cli", "play", "--game", "straszydla", "--players", "3",
                           "--policy", "random", "--seed", "4"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^Outcome: .+$", done.stdout.strip().splitlines()[-1]), done.stdout[-500:]


# -- the scaring helper ------------------------------------------------------------------------------------------

def brute_force(rolled: list[int], strength: int) -> dict[str, tuple[int, int] | None]:
    """Every final face of every die: for each row of the help card, the fewest energy cubes that
    reach it and the most horror cubes at that cost."""
    rows = load_pack().scaring
    best: dict[str, tuple[int, int] | None] = {row.id: None for row in rows} | {"none": None}
    for final in itertools.product(range(1, 7), repeat=len(rolled)):
        row = next((r.id for r in rows if r.holds(sum(final) - strength)), "none")
        found = (cost_of(rolled, final), horror_of(final))
        known = best[row]
        if known is None or found[0] < known[0] or (found[0] == known[0] and found[1] > known[1]):
            best[row] = found
    return best


@FAST
@given(st.lists(st.integers(1, 6), min_size=1, max_size=4), st.integers(2, 20))
def test_the_scaring_helper_shows_the_cheapest_spend_for_each_result_as_a_brute_force_search_does(
        rolled: list[int], strength: int) -> None:
    """"For each energy cube you discard, change the result on a chosen die by 1 ... You may change a chosen die
    several times, paying the full cost each time"; "take one horror cube for every 6 rolled, and return one ... for
    every 1 rolled ... only the final number of sixes and ones counts." """
    rows = load_pack().scaring
    expected = brute_force(rolled, strength)
    shown = spends(rolled, strength, rows)
    assert cheapest(rolled, strength, rows) == {k: (v[0] if v else None) for k, v in expected.items()}
    for row, ways in shown.items():
        if expected[row] is None:
            assert ways == []
            continue
        first = ways[0]
        assert (first.cost, first.horror) == expected[row]
        assert cost_of(rolled, first.dice) == first.cost and cubes_for(rows, first.total, strength) == first.cubes
        assert all(b.cost > a.cost and b.horror > a.horror for a, b in zip(ways, ways[1:]))


def test_syla_s_scaring_example_costs_four_energy_cubes_for_three_purple_cubes() -> None:
    """"She rolls 4 dice and gets 6, 1, 5, 4" against 14; she lifts the 1 to a 2, lowers the 5 to a 3 and the 4 to a
    3: four cubes for exactly 14, "Syla takes 3 purple cubes and one horror cube." The helper shows the cheaper way
    too (two cubes: the 5 to a 3, the 6 and the 1 kept, so no horror cube) and Syla's, the one cube more that keeps it."""
    ways = spends([6, 1, 5, 4], 14, load_pack().scaring)["exact"]
    assert (ways[0].cost, ways[0].horror) == (2, 0)
    assert any((w.cost, w.horror, w.cubes) == (4, 1, 3) for w in ways)  # Syla's choice: one more, the cube kept


# -- replay and undo ---------------------------------------------------------------------------------------------

@FAST
@given(st.integers(1, 10_000), st.integers(1, 400), st.integers(1, 30))
def test_a_replay_gives_the_same_state_and_an_undo_the_state_it_goes_back_to(seed: int, steps: int,
                                                                             back: int) -> None:
    game, states = random_game(seed, 3, steps)
    again = Game(shipped_rules(), game.origin, game.inputs)
    assert to_plain(again.state) == states[-1] and again.prompt == game.prompt
    back = min(back, len(game.inputs))
    undone = Game(shipped_rules(), game.origin, game.inputs[:len(game.inputs) - back])
    assert to_plain(undone.state) == states[len(states) - 1 - back]


# -- secrets: what a seat's secret changes in the others' views -----------------------------------------------

#: The small board's duel (test_straszydla_rules.py): Przemo (p1) and Syla (p2) meet in the Centre.
PLANS = {"p2": ["N", "N", "S"], "p3": ["E", "S", "S"]}
OTHER_PACTS = {"p2": "pakt-b", "p3": "pakt-c"}


def plans_to_centre() -> list[list[str]]:
    board = Geometry.of(small_pack(), Game(small_rules(), {"setup": setup()}).state)  # type: ignore[arg-type]
    found = []
    for moves in itertools.product(DIRECTIONS, repeat=3):
        try:
            if walk(board, "polnoc", list(moves)).end == "centrum":
                found.append(list(moves))
        except IllegalInput:
            continue
    return found


def script(pact: str, plan: list[str], bid: int) -> list[tuple[str, str, object, str]]:
    """(seat, key, answer, what it seals) to the end of the first duel's bids, p1's first each time."""
    steps: list[tuple[str, str, object, str]] = [("p1", "pact", pact, "pact")]
    steps += [(s, "pact", p, "") for s, p in OTHER_PACTS.items()]
    steps += [("p1", "plan", {"action": "plan", "moves": plan}, "plan")]
    steps += [(s, "plan", {"action": "plan", "moves": m}, "") for s, m in PLANS.items()]
    steps += [("p1", "duel-roll", [5, 3], ""), ("p2", "duel-roll", [6, 5], "")]
    steps += [("p1", "duel-bid", {"action": "bid", "energy": bid}, "bid"), ("p2", "duel-bid",
                                                                           {"action": "bid", "energy": 1}, "")]
    return steps


def table_for(where: Path) -> Table:
    tables = Tables(Store(where / "companion.sqlite"), {"straszydla": lambda: StraszydlaPack(small_rules())})
    return tables.get(tables.create("straszydla", "Secrets", setup()))


def others_see(table: Table) -> str:
    """Everything the other seats and the shared screen are shown now, but the game's own id."""
    return json.dumps([{k: v for k, v in table.view(seat).items() if k != "game_id"} for seat in ("p2", "p3", None)],
                      sort_keys=True)


def played_worlds(first: tuple[str, list[str], int], second: tuple[str, list[str], int]) -> list[list[tuple[str, str, str]]]:
    """Both scripts played on tables of their own: after each step, (what p1 sees, what the others see,
    the secret that step sealed) in each world."""
    worlds = []
    for values in (first, second):
        with tempfile.TemporaryDirectory() as where:
            table, seen = table_for(Path(where)), []
            for seat, key, answer, sealed in script(*values):
                table.act({"key": key, "answer": answer}, table.version, seat)
                seen.append((json.dumps(table.view("p1"), sort_keys=True), others_see(table), sealed))
            worlds.append(seen)
    return worlds


@FAST
@given(st.sampled_from(["pact", "plan", "bid"]), st.data())
def test_a_seats_pact_plan_and_bid_change_nothing_another_seat_or_the_shared_screen_sees_before_the_reveal(
        secret: str, data: st.DataObject) -> None:
    """Two games alike but for one of Przemo's secrets: until that secret is revealed (a pact: never, but the
    winner's; a plan: when the last player has planned; a bid: when both have bid), Syla's phone, Witek's phone and the
    shared tablet are shown exactly the same, history included, and Przemo's own phone is not."""
    plans = plans_to_centre()
    base = ("pakt-a", ["S", "S", "N"], 0)
    choices = {"pact": ["pakt-a", "pakt-d"], "plan": plans, "bid": [0, 1, 2, 3]}[secret]
    one, other = data.draw(st.lists(st.sampled_from(choices), min_size=2, max_size=2, unique_by=json.dumps))
    index = ("pact", "plan", "bid").index(secret)
    first, second = list(base), list(base)
    first[index], second[index] = one, other
    world_a, world_b = played_worlds(tuple(first), tuple(second))  # type: ignore[arg-type]
    sealed_at = next(n for n, (_, _, sealed) in enumerate(world_a) if sealed == secret)
    revealed_at = len(world_a) - 1 if secret == "pact" else {"plan": 5, "bid": 9}[secret]
    for n in range(sealed_at, revealed_at + (secret == "pact")):
        assert world_a[n][1] == world_b[n][1], f"step {n}: another seat's view tells Przemo's {secret}"
    assert world_a[sealed_at][0] != world_b[sealed_at][0]  # Przemo's own phone shows it
    if secret != "pact":
        assert world_a[revealed_at][1] != world_b[revealed_at][1]  # and everyone sees it once revealed
