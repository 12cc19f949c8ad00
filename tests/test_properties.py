"""Property tests: random legal games, driven by the seeded random input
source, keep the game's invariants at every step."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.engine.game import Game
from companion.engine.plain import to_plain
from companion.games.ravenloft.rules import RavenloftRules
from companion.games.ravenloft.simulate import play_out, random_policy

RULES = RavenloftRules()
MONSTERS = [m.id for m in RULES.pack.monsters]
HEROES = [h.id for h in RULES.pack.heroes]


def all_items_somewhere(game: Game) -> Counter[str]:
    """Board + hands + mats + discard + Haversack + out of the game, counted (RL-IT-2, RL-IT-3)."""
    state = game.state
    places: Counter[str] = Counter(state.items_at.keys())
    for hero in state.heroes.values():
        places.update(hero.items)
    for monster in state.monsters:
        places.update(RULES.monster_rules[monster].items_on_mat(_ctx(game)))
    places.update(state.item_discard)
    places.update(state.haversack)
    places.update(state.removed_items)  # a Dark Gift's price: lost for good
    return places


def _ctx(game: Game):  # type: ignore[no-untyped-def]
    from companion.games.ravenloft.simulate import context_for

    return context_for(RULES, game.state)


def check_invariants(game: Game) -> None:
    state = game.state
    items = all_items_somewhere(game)
    assert items == Counter(i.id for i in RULES.pack.items), "an item was lost or doubled"
    board = RULES.graph_for(state)
    ctx = _ctx(game)
    for figure in ctx.monster_figures():
        assert ctx.where(figure) in board, f"{figure} stands nowhere real"
    for hero in state.heroes.values():
        assert hero.location is None or hero.location in board
    for villager in state.villagers.values():
        assert villager.location is None or villager.location in board
    assert 0 <= state.terror <= RULES.pack.board.terror_max
    assert state.terror < RULES.pack.board.terror_max or state.outcome == "lost: terror"
    assert sum(1 for m in state.monsters.values() if not m.defeated) > 0 or state.outcome == "won"


setups = st.fixed_dictionaries({
    "monsters": st.lists(st.sampled_from(MONSTERS), min_size=1, max_size=4, unique=True),
    "heroes": st.lists(st.sampled_from(HEROES), min_size=1, max_size=5, unique=True),
})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups, seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_invariants(setup: dict[str, list[str]], seed: int) -> None:
    """RL-IT-2, RL-IT-3, RL-END-2: items conserved, figures on real places, terror on the track."""
    game = RULES.new_game({"setup": setup})
    policy = random_policy(RULES, seed)
    check_invariants(game)
    while not game.over and game.version < 400:
        play_out(game, policy, game.version + 1)
        check_invariants(game)


@settings(max_examples=15, deadline=None)
@given(setup=setups, seed=st.integers(0, 2**32 - 1), cut=st.floats(0.0, 1.0))
def test_replay_and_undo_redo_give_the_same_state(setup: dict[str, list[str]], seed: int, cut: float) -> None:
    """A game is its log: replaying it, or undoing and redoing inputs, gives the same state."""
    game = RULES.new_game({"setup": setup})
    play_out(game, random_policy(RULES, seed), 300)
    final = to_plain(game.state)
    assert to_plain(Game(RULES, game.origin, game.inputs).state) == final
    back = max(1, int(game.version * cut))
    dropped = game.undo(back)
    assert to_plain(game.state) == to_plain(Game(RULES, game.origin, game.inputs).state)
    for entry in dropped:
        game.apply(entry)
    assert to_plain(game.state) == final


@pytest.mark.parametrize("seed", range(3))
def test_some_random_games_end(seed: int) -> None:
    """RL-END-*: random games with one monster reach an end: won, terror, or out of time."""
    game = RULES.new_game({"setup": {"monsters": ["carrionette"], "heroes": ["sorcerer", "druid"]}})
    play_out(game, random_policy(RULES, seed), 3000)
    assert game.over and game.state.outcome in ("won", "lost: terror", "lost: out of time")
