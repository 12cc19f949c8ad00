"""Property tests of the original Horrified: random legal games of two to four monsters, played by
the pack's seeded random policy, keep the box's invariants at every step (every item token
somewhere, once; figures on real places, heroes and villagers never in the water; the Terror on
its track), and a game is its log (replay, undo and redo give the same state). Small example
counts: the seeds of the command line are in test_horrified_cli.py."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, example, given, settings, strategies as st

from companion.engine.game import Game
from companion.engine.plain import to_plain
from companion.games.horrified.cli import random_policy
from companion.games.horrified_core.simulate import play_out

from horrified_fixtures import context, pack_rules

RULES = pack_rules()
PACK = RULES.original.pack
MONSTERS = [m.id for m in PACK.monsters]
HEROES = [h.id for h in PACK.heroes]
WATER = {"lagoon", "river", "waterfront"}


def all_items_somewhere(game: Game) -> Counter[str]:
    """Board + hands + mats + discard + bag + out of the game, counted."""
    state, ctx = game.state, context(game)
    places: Counter[str] = Counter(state.items_at.keys())
    for hero in state.heroes.values():
        places.update(hero.items)
    for monster in state.monsters:
        places.update(ctx.monster_rules[monster].items_on_mat(ctx))
    places.update(state.item_discard)
    places.update(state.haversack)
    places.update(state.removed_items)
    return places


def check_invariants(game: Game) -> None:
    state, ctx = game.state, context(game)
    assert all_items_somewhere(game) == Counter(i.id for i in PACK.items), "an item was lost or doubled"
    for figure in ctx.monster_figures():
        assert ctx.where(figure) in ctx.graph, f"{figure} stands nowhere real"
    people = [h.location for h in state.heroes.values()] + [v.location for v in state.villagers.values()]
    assert not WATER & set(people), "a hero or a villager stands in the water"
    assert all(p is None or p in ctx.graph for p in people)
    assert 0 <= state.terror <= PACK.board.terror_max
    assert state.terror < PACK.board.terror_max or state.outcome == "lost: terror"
    assert any(not m.defeated for m in state.monsters.values()) or state.outcome == "won"


setups = st.fixed_dictionaries({
    "monsters": st.lists(st.sampled_from(MONSTERS), min_size=2, max_size=4, unique=True),
    "heroes": st.lists(st.sampled_from(HEROES), min_size=2, max_size=4, unique=True),
})


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups, seed=st.integers(0, 2**32 - 1))
# Found by this test: the Wolf Man's cure (and the Invisible Man's evidence) stayed on the mat
# after its items were discarded at the Defeat, so each counted twice.
@example(setup={"monsters": ["frankenstein", "wolf-man", "invisible-man"],
                "heroes": ["archaeologist", "scientist", "mayor", "inspector"]}, seed=526)
def test_random_games_keep_the_invariants(setup: dict[str, list[str]], seed: int) -> None:
    """Items conserved, figures on real places, no one but the Creature in the water, Terror on the track."""
    game = RULES.new_game({"setup": setup})
    policy = random_policy(RULES, seed)
    check_invariants(game)
    while not game.over and game.version < 600:
        play_out(game, policy, game.version + 1)
        check_invariants(game)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups, seed=st.integers(0, 2**32 - 1), cut=st.floats(0.0, 1.0))
def test_replay_and_undo_redo_give_the_same_state(setup: dict[str, list[str]], seed: int, cut: float) -> None:
    """A game is its log: replaying it, or undoing and redoing inputs, gives the same state."""
    game = RULES.new_game({"setup": setup})
    play_out(game, random_policy(RULES, seed), 250)
    final = to_plain(game.state)
    assert to_plain(RULES.new_game(game.origin, list(game.inputs)).state) == final
    back = max(1, int(game.version * cut))
    dropped = game.undo(back)
    assert to_plain(game.state) == to_plain(RULES.new_game(game.origin, list(game.inputs)).state)
    for entry in dropped:
        game.apply(entry)
    assert to_plain(game.state) == final
