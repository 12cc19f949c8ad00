"""Siege of Barovia's property tests: random legal games (random setups, readings,
DM levels and seeds) replay to the same state from their log, undo is the game
less its last inputs, and the rules' invariants hold at every step."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.engine.game import Game
from companion.engine.plain import to_plain
from companion.games.siege_of_barovia.gamepack import SiegePack
from companion.games.siege_of_barovia.readings import READINGS
from companion.games.siege_of_barovia.simulate import answer_one, random_policy
from companion.games.siege_of_barovia.state import SiegeState
from companion.store import Store
from companion.table import Tables

PACK = SiegePack()

setups = st.fixed_dictionaries({
    "players": st.lists(st.fixed_dictionaries({"name": st.sampled_from(["Ana", "Ben", "Cy", "Dora"])}),
                        min_size=1, max_size=6),
    "dm": st.sampled_from(["box", "person"]),
    "level": st.sampled_from(["easy", "normal", "hard"]),
    "seed": st.integers(0, 10 ** 6),
    "readings": st.fixed_dictionaries({r.id: st.sampled_from([c.id for c in r.choices]) for r in READINGS}),
})
FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(state: SiegeState) -> None:
    squares = set(state.map.grid.places)
    for figure in state.figures.values():
        assert figure.square is None or figure.square in squares, f"{figure.name} stands off the board"
        assert 0 <= figure.hp <= max(figure.max_hp, 3)
    for player in state.players:
        assert player.figure is None or state.figures[player.figure].on_board, "a slain figure still played"
    owned = [p.figure for p in state.players if p.figure]
    assert len(owned) == len(set(owned)), "two players control one figure"
    assert len(set(state.destroyed)) == len(state.destroyed) and set(state.destroyed) <= {"tavern", "mercantile",
                                                                                          "estate"}
    assert state.outcome != "won" or any(f.square == state.map.square_of("church") for f in state.heroes())
    assert not state.outcome or state.outcome == "won" or not state.standing()
    assert len(set(state.barricades)) == len(state.barricades)


def played(setup: dict[str, object], steps: int) -> Game:
    game = Game(PACK.rules, {"setup": setup})
    policy = random_policy(int(str(setup["seed"])))
    for _ in range(steps):
        if game.over:
            break
        answer_one(game, policy)
        check_invariants(game.state)  # type: ignore[arg-type]
    return game


@FAST
@given(setups, st.integers(1, 160))
def test_a_game_replays_to_the_same_state_from_its_log(setup: dict[str, object], steps: int) -> None:
    game = played(setup, steps)
    again = Game(PACK.rules, game.origin, game.inputs)
    assert to_plain(again.state) == to_plain(game.state)
    assert PACK.public_view(again) == PACK.public_view(game) and again.prompt == game.prompt


@FAST
@given(setups, st.integers(2, 100), st.integers(1, 5))
def test_undo_at_the_table_gives_back_the_state_before_the_last_inputs(setup: dict[str, object], steps: int,
                                                                      back: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        tables = Tables(Store(Path(folder) / "companion.sqlite"), {PACK.id: SiegePack})
        table = tables.get(tables.create(PACK.id, "Siege", setup))
        policy = random_policy(int(str(setup["seed"])))
        seen = [to_plain(table.game.state)]
        while table.version < steps and not table.game.over:
            prompt = table.game.prompt
            assert prompt is not None
            seat = prompt.audience[0] if prompt.audience else None
            table.act({"key": prompt.key, "answer": policy(prompt, table.game.state)}, table.version, seat)
            seen.append(to_plain(table.game.state))
        back = min(back, table.version)
        table.undo(back, table.version)
        assert to_plain(table.game.state) == seen[len(seen) - 1 - back]
        table.redo(back, table.version)
        assert to_plain(table.game.state) == seen[-1]
