"""The forecast's memo keys a boundary on its table without the loose piles (the bag, the discard
piles, the board's items, ...), and on only those piles the walk below it looked at: the Thief
looks at the board's items, so two tables that differ there are walked apart (a merge would give
the Invisible Man the other place); a pile nothing looks at (the cards played before) is not
walked again. And the watched piles note every look at their content, never a put or a take.
A hit hero's question is walked by answering mode (below the discard only the discarding mode's
numbers, below the fall only the keeping mode's): a hero hit twice gives the same figures as
following both answers at every hit.
"""

from __future__ import annotations

import pickle

import pytest

from companion.engine.game import Game
from companion.games.horrified_core.forecast.forecast import dice_of, monster_phase_start
from companion.games.horrified_core.forecast.reads import TABLE, ReadLog, WatchedItems, WatchedList
from companion.games.horrified_core.forecast.tally import Value, layout_of
from companion.games.horrified_core.forecast.branches import Node
from companion.games.horrified_core.forecast.tally import defend
from companion.games.horrified_core.forecast.walk import PhaseRunner, Reached, Walked, Walker, answered
from companion.games.horrified_core.rules import HorrifiedRules
from companion.games.horrified_core.state import GameState
from horrified_fixtures import pack_rules

#: The original edition, the Thief the only card left; the Invisible Man stands at the Inn.
TABLE_ONE = {"phase": "hero", "turn": 3, "active": "mayor", "terror": 1, "frenzy": "dracula",
             "monsters": {"dracula": "crypt", "invisible-man": "inn"},
             "heroes": [{"hero": "mayor", "player": "Ann", "at": "abbey", "items": []},
                        {"hero": "inspector", "player": "Cy", "at": "docks", "items": []}],
             "items": {"anatomy-text-1": "institute", "centrifuge-1": "laboratory"}}


def start(rules: HorrifiedRules, items: dict[str, str] | None = None, played: list[str] | None = None) -> GameState:
    """``TABLE_ONE``'s Monster Phase, its deck the Thief alone (``items``: the board's items instead)."""
    position = {**TABLE_ONE, "items": items if items is not None else TABLE_ONE["items"]}
    state = Game(rules, {"position": position}).state
    assert isinstance(state, GameState)
    state.deck = ["thief-1"]
    if played is not None:
        state.played_cards = played
    begun = monster_phase_start(rules, state)
    assert begun is not None
    return begun


def walked(rules: HorrifiedRules, state: GameState, memo: dict[bytes, Walked]) -> tuple[Value, int]:
    """The exact value of ``state``'s phase with the memo ``memo``, and the replays it took."""
    runner = PhaseRunner(rules, state, dice_of(rules, state))
    root = runner.begin()
    layout = layout_of(root.ctx, sorted(root.ctx.graph.places))
    value = Walker(runner, layout, 10 ** 7, memo).value(root)
    return value, runner.replays


def test_tables_differing_in_a_pile_the_rules_look_at_are_walked_apart() -> None:
    rules = pack_rules().original
    memo: dict[bytes, Walked] = {}
    first, _ = walked(rules, start(rules), memo)
    # three items on the Crypt: the Thief takes the Invisible Man there, not to a single item
    piled = {"anatomy-text-1": "institute", "dart-1": "crypt", "kite-1": "crypt", "flower-1": "crypt"}
    other = start(rules, items=piled)
    shared, _ = walked(rules, other, memo)
    alone, _ = walked(rules, other, {})
    assert shared == alone
    assert shared != first, "the case must tell a wrong merge: the board's items change the figures"


def test_a_pile_nothing_looks_at_takes_the_value_from_the_memo() -> None:
    rules = pack_rules().original
    memo: dict[bytes, Walked] = {}
    first, replays = walked(rules, start(rules), memo)
    again, replays_again = walked(rules, start(rules, played=["the-delivery"]), memo)
    assert again == first
    assert replays_again < replays / 10, (replays_again, replays)


def test_a_watched_pile_notes_its_looks_and_not_its_puts_and_takes() -> None:
    log = ReadLog()
    pile = WatchedList(["a", "b"], log, "item_discard")
    pile.append("c")
    pile.extend(["d"])
    pile.sort()
    del pile[0]
    pile.clear()
    pile += ["e"]
    assert log.segment == set(), "putting on and taking off is not looking"
    for look in (len, list, sorted, bool, lambda p: "e" in p, lambda p: p[0], lambda p: p == ["e"],
                 lambda p: p + [], lambda p: pickle.dumps(p), lambda p: p.copy(), lambda p: p.index("e")):
        log.segment = set()
        look(pile)
        assert log.segment == {"item_discard"}, look


def test_the_watched_board_notes_its_looks_and_not_its_puts() -> None:
    log = ReadLog()
    board = WatchedItems({"dart-1": "crypt"}, log)
    board["kite-1"] = "inn"
    del board["dart-1"]
    assert log.records == [] and log.segment == set()
    record: set[tuple[str, str]] = set()
    log.records.append(record)
    for look in (len, dict, lambda b: list(b.values()), lambda b: sorted(b)):
        log.segment = set()
        look(board)
        assert "items_at" in log.segment, look
    for one in (lambda b: b.get("kite-1"), lambda b: "kite-1" in b, lambda b: b.pop("kite-1", None)):
        log.segment = set()
        one(board)
        assert log.segment == {"items_at:kite-1"}, one
    assert (TABLE, "items_at") in record and (TABLE, "items_at:kite-1") in record


class BothAnswers(Walker):
    """The walk as it was: both answers of every hit hero's question followed, for both modes."""

    def _defend(self, reached: Reached, node: Node) -> Value:
        if len(node.branches) == 1:
            return self._below(self._go_on(reached, node.branches[0]))
        base, since = reached.base, list(reached.since)
        spent = self._below(self._replay(base, since, answered(node, 0)))
        return defend(spent, self._below(self._go_on(reached, answered(node, 1))))


def test_a_hero_hit_twice_is_walked_by_mode_with_the_same_figures() -> None:
    """The Wolf Man and then the frenzied Dracula attack at the Camp (Retreat (Lagoon): Wolf Man,
    Bride, Frenzy symbols; three dice), where the Mayor stands with three items."""
    rules = pack_rules().original
    position = {"phase": "hero", "turn": 3, "active": "mayor", "terror": 1, "frenzy": "dracula",
                "monsters": {"dracula": "camp", "wolf-man": "camp"},
                "heroes": [{"hero": "mayor", "player": "Ann", "at": "camp", "items": ["dart-1", "kite-1", "flower-1"]},
                           {"hero": "inspector", "player": "Cy", "at": "docks", "items": []}]}
    state = Game(rules, {"position": position}).state
    assert isinstance(state, GameState)
    state.deck = ["retreat-lagoon"]
    begun = monster_phase_start(rules, state)
    assert begun is not None
    found = []
    for walker in (Walker, BothAnswers):
        runner = PhaseRunner(rules, begun, dice_of(rules, begun))
        root = runner.begin()
        layout = layout_of(root.ctx, sorted(root.ctx.graph.places))
        found.append((walker(runner, layout, 10 ** 7).value(root), runner.replays))
    (by_mode, replays), (both, replays_both) = found
    for mine, theirs in zip([*by_mode.low, *by_mode.high, *by_mode.mean], [*both.low, *both.high, *both.mean]):
        assert mine == pytest.approx(theirs, abs=1e-12)
    assert replays < replays_both, "the Mayor must be hit twice on some way, or the case tells nothing"
