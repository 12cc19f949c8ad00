"""The generic runner: a game is its input log folded over its origin."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import pytest

from companion.engine.effects import EffectSink
from companion.engine.errors import GameOver, IllegalInput, NotOffered, StaleInput
from companion.engine.game import Flow, Game
from companion.engine.plain import to_plain
from companion.engine.prompts import Option, Prompt


@dataclass
class Pile:
    coins: list[int] = field(default_factory=list)


class CoinRules:
    """A toy: three rounds of 'take 1 or 2 coins'; a 'pick' of 3 is refused deep inside."""

    def begin(self, origin: Mapping[str, object], sink: EffectSink) -> tuple[Pile, Flow[None]]:
        pile = Pile()
        return pile, self._play(pile, sink, int(str(origin.get("rounds", 3))))

    def _play(self, pile: Pile, sink: EffectSink, rounds: int) -> Flow[None]:
        for n in range(rounds):
            answer = yield Prompt("choice", "take", f"round {n}", None, (Option("1", "one"), Option("2", "two"), Option("3", "three")))
            pile.coins.append(int(str(answer)))  # mutate first, then refuse: the runner must undo it
            if answer == "3":
                raise IllegalInput("three coins is greedy")
            sink.emit("took", f"took {answer}", coins=list(pile.coins))
        roll = yield Prompt("roll", "dice", "roll", None, die="monster", count=2)
        sink.emit("rolled", "rolled", faces=list(roll))  # type: ignore[call-overload]


def take(n: str) -> dict[str, object]:
    return {"key": "take", "answer": n}


def test_inputs_fold_into_state_and_effects() -> None:
    game = Game(CoinRules(), {"rounds": 2})
    step = game.apply(take("2"))
    assert game.state.coins == [2] and step.version == 1
    assert [e.kind for e in step.effects] == ["took"]
    game.apply(take("1"))
    assert game.prompt is not None and game.prompt.key == "dice"


def test_choice_not_offered_is_refused_and_changes_nothing() -> None:
    game = Game(CoinRules(), {})
    with pytest.raises(NotOffered, match="'7' was not one of the choices offered"):
        game.apply(take("7"))
    assert game.version == 0 and game.state.coins == []


def test_refusal_deep_inside_the_rules_rolls_back() -> None:
    game = Game(CoinRules(), {})
    game.apply(take("1"))
    with pytest.raises(IllegalInput, match="greedy"):
        game.apply(take("3"))
    assert game.state.coins == [1] and game.version == 1
    assert game.prompt is not None and game.prompt.text == "round 1"


def test_stale_version_is_refused() -> None:
    game = Game(CoinRules(), {})
    game.apply(take("1"), version=0)
    with pytest.raises(StaleInput, match="saw version 0 of the game but it is now at version 1"):
        game.apply(take("2"), version=0)
    assert game.state.coins == [1]


def test_input_for_another_question_is_refused() -> None:
    game = Game(CoinRules(), {})
    with pytest.raises(IllegalInput, match="answers 'dice' but the game is asking 'take'"):
        game.apply({"key": "dice", "answer": ["hit", "hit"]})


def test_wrong_die_faces_are_refused() -> None:
    game = Game(CoinRules(), {"rounds": 0})
    with pytest.raises(IllegalInput, match="'crit' is not a Monster die face"):
        game.apply({"answer": ["hit", "crit"]})
    with pytest.raises(IllegalInput, match="expected 2 dice"):
        game.apply({"answer": ["hit"]})


def test_replay_gives_the_same_state_and_undo_drops_inputs() -> None:
    game = Game(CoinRules(), {})
    for n in ("1", "2", "2"):
        game.apply(take(n))
    replayed = Game(CoinRules(), {}, game.inputs)
    assert to_plain(replayed.state) == to_plain(game.state)
    dropped = game.undo(2)
    assert game.state.coins == [1] and len(dropped) == 2
    for entry in dropped:
        game.apply(entry)
    assert to_plain(game.state) == to_plain(replayed.state)


def test_a_finished_game_takes_no_more_input() -> None:
    game = Game(CoinRules(), {"rounds": 0})
    game.apply({"answer": ["pow", "blank"]})
    assert game.over
    with pytest.raises(GameOver):
        game.apply({"answer": "1"})
