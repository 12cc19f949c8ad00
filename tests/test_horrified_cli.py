"""The original Horrified on the command line: ``companion play --game horrified`` plays whole
games to their end with the random policy, for the rules' first game and for all six monsters
in sets of four (every one of the fifteen sets). Each game's last line is its outcome."""

from __future__ import annotations

from itertools import combinations

import pytest

from companion.cli import main

OUTCOMES = ("Outcome: won", "Outcome: lost: terror", "Outcome: lost: out of time")
SIX = ("dracula", "mummy", "frankenstein", "creature", "wolf-man", "invisible-man")
FOURS = [",".join(four) for four in combinations(SIX, 4)]


def play(capsys: pytest.CaptureFixture[str], monsters: str, seed: int) -> str:
    code = main(["play", "--game", "horrified", "--monsters", monsters, "--policy", "random", "--seed", str(seed)])
    out = capsys.readouterr().out
    assert code == 0, out[-2000:]
    return out.strip().splitlines()[-1]


@pytest.mark.parametrize("seed", range(1, 21))
def test_the_first_game_reaches_an_end(capsys: pytest.CaptureFixture[str], seed: int) -> None:
    assert play(capsys, "dracula,creature", seed).startswith(OUTCOMES)


@pytest.mark.parametrize("monsters, seed", [(m, n) for n, m in enumerate(FOURS, start=1)])
def test_all_six_monsters_in_sets_of_four_reach_an_end(capsys: pytest.CaptureFixture[str], monsters: str,
                                                       seed: int) -> None:
    assert play(capsys, monsters, seed).startswith(OUTCOMES)
