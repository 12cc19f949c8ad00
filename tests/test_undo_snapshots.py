"""Undo goes on from the game's last snapshot before the point it goes back to (a boundary the
rules declare: a Hero Phase about to ask an action, a monster about to act), not from the
start: the game it leaves must be the game a replay of the kept inputs gives, prompt and state,
and it must play on the same way."""

from __future__ import annotations

import pytest

from companion.engine.errors import IllegalInput
from companion.engine.game import SNAPSHOT_EVERY, Game, Resumable
from companion.engine.plain import to_plain
from companion.games.horrified.packrules import HorrifiedPackRules
from companion.games.horrified_core.rules import HorrifiedRules
from companion.games.horrified_core.simulate import play_out, random_policy
from companion.games.ravenloft.rules import RavenloftRules
from horrified_fixtures import pack_rules

EDITIONS = {"ravenloft": RavenloftRules, "original": lambda: pack_rules().original}


def played(rules: HorrifiedRules, seed: int, inputs: int) -> Game:
    monsters = [m.id for m in rules.pack.monsters][:3]
    heroes = [{"hero": h.id, "player": h.id} for h in rules.pack.heroes][:3]
    game = rules.new_game({"setup": {"monsters": monsters, "heroes": heroes}})
    play_out(game, random_policy(rules, seed), inputs)
    return game


def same(one: Game, other: Game) -> None:
    assert to_plain(one.state) == to_plain(other.state)
    assert one.prompt == other.prompt and one.inputs == other.inputs


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_undo_from_a_snapshot_is_the_replayed_game(edition: str) -> None:
    rules = EDITIONS[edition]()
    game = played(rules, 5, 150)
    log = list(game.inputs)
    assert len(log) > 3 * SNAPSHOT_EVERY and len(game.snapshots) >= 2, "snapshots were taken on the way"
    for count in (1, 7, SNAPSHOT_EVERY + 3, len(log) // 2):
        undone = played(rules, 5, 150)
        undone.undo(count)
        replayed = Game(rules, undone.origin, log[:-count])
        same(undone, replayed)
        for entry in log[len(log) - count:]:  # and it plays on as the replayed game does
            undone.apply(entry)
            replayed.apply(entry)
        same(undone, replayed)
        same(undone, game)


def test_a_refused_input_leaves_the_game_as_it_was() -> None:
    """The rules refuse a move half-way: the game is rebuilt from its last snapshot, and nothing
    of the refused input stays."""
    rules = RavenloftRules()
    game = played(rules, 9, 80)
    policy = random_policy(rules, 9)
    while game.prompt is not None and game.prompt.key != "hero-action":
        game.answer_with(policy)
    before = to_plain(game.state), game.prompt, list(game.inputs)
    with pytest.raises(IllegalInput):
        game.apply({"key": "hero-action", "answer": {"action": "move", "to": "atlantis"}})
    assert (to_plain(game.state), game.prompt, list(game.inputs)) == before
    assert game.version == len(before[2])


def test_the_original_pack_as_the_box_plays_it_keeps_snapshots() -> None:
    """The box plays the original Horrified through its pack's rules (the original board or a mix):
    they resume through the rules of the state, so its games keep snapshots and undo goes on from one."""
    rules = HorrifiedPackRules()
    assert isinstance(rules, Resumable)
    pack = rules.original.pack
    game = rules.new_game({"setup": {"monsters": [m.id for m in pack.monsters][:2],
                                     "heroes": [{"hero": h.id, "player": h.id} for h in pack.heroes][:2]}})
    play_out(game, random_policy(rules.original, 4), 90)
    log = list(game.inputs)
    assert len(log) > 2 * SNAPSHOT_EVERY and any(s.played > 0 for s in game.snapshots)
    game.undo(5)
    same(game, Game(rules, game.origin, log[:-5]))
