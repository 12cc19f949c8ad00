"""The die-kind registry: faces, the words taken for them, the d20's symbol as 20
(RL-D20-1), a pack's own Monster die, a pack's own kind of die, and the same
kinds in the rules' checks, the random source, the reader and the calibration."""

from __future__ import annotations

import random
from collections import Counter
from typing import Generator, Mapping

import pytest

from calibration.dice import KIND_FACES, KIND_NAMES, KIND_PLURALS, face_prompt
from companion.engine.dice import D6, D20, DICE, MONSTER, DieKind, Face, numbered
from companion.engine.effects import EffectSink
from companion.engine.errors import IllegalInput
from companion.engine.game import Game
from companion.engine.prompts import D20_SYMBOL, MONSTER_FACES, Prompt, check_answer
from companion.engine.randomsource import RandomSource
from hardware.dice.reader import engine_value
from hardware.dice.wiring import DIE_KINDS


def roll(die: str, count: int = 1) -> Prompt:
    return Prompt("roll", "roll", "Roll.", die=die, count=count)


def test_every_face_of_every_kind_is_taken_and_nothing_else() -> None:
    for kind in DICE.kinds():
        assert [kind.check(value) for value in kind.values] == list(kind.values)
    for kind_id, wrong in [("d20", 0), ("d20", 21), ("d20", "7"), ("d20", True), ("d20", 7.0), ("d6", 7),
                           ("monster", "zap"), ("monster", 1), ("d6", None)]:
        with pytest.raises(IllegalInput, match="is not a"):
            DICE[kind_id].check(wrong)


def test_rl_d20_1_the_symbol_face_counts_as_20() -> None:
    """RL-D20-1."""
    assert check_answer(roll("d20"), [D20_SYMBOL]) == (20,)
    assert D20.top == 20 and D20.face(20).shows == "the symbol" and D20_SYMBOL == "symbol"
    with pytest.raises(IllegalInput, match="'symbol' is not a face of a d6"):
        check_answer(roll("d6"), ["symbol"])


def test_refusals_say_which_die_and_its_faces() -> None:
    with pytest.raises(IllegalInput, match=r"^'crit' is not a Monster die face \(hit, pow or blank\)$"):
        check_answer(roll("monster"), ["crit"])
    with pytest.raises(IllegalInput, match=r"^21 is not a face of a d20 \(1 to 20\)$"):
        check_answer(roll("d20"), [21])
    assert MONSTER_FACES == ("hit", "pow", "blank")


def test_a_packs_monster_die_rolls_its_own_sides() -> None:
    source = RandomSource(3, monster_die=("pow",) * 6)
    assert set(source(roll("monster", 40), None)) == {"pow"}  # type: ignore[arg-type]
    counts = Counter(RandomSource(9)(roll("monster", 6000), None))  # type: ignore[arg-type]
    assert abs(counts["hit"] / 6000 - 0.5) < 0.03 and abs(counts["pow"] / 6000 - 1 / 6) < 0.03
    with pytest.raises(ValueError, match="'crit' is not a face of the Monster die"):
        MONSTER.with_sides(("hit", "crit"))


def test_seeded_d20_and_d6_rolls_are_those_of_earlier_versions() -> None:
    """Saved simulations and benchmarks replay: a d20 is still ``randint(1, 20)`` draw for draw."""
    ours, plain = RandomSource(11), random.Random(11)
    rolls = [ours.roll(roll("d20")) for _ in range(200)] + [ours.roll(roll("d6")) for _ in range(50)]
    assert rolls == [plain.randint(1, 20) for _ in range(200)] + [plain.randint(1, 6) for _ in range(50)]


class D8Rules:
    """A game of one roll of a die no standard kind has."""

    def begin(self, origin: Mapping[str, object], sink: EffectSink) -> tuple[object, Generator[Prompt, object, None]]:
        state: dict[str, object] = {}

        def flow() -> Generator[Prompt, object, None]:
            state["rolled"] = yield roll("d8")
        return state, flow()


def test_a_pack_registers_a_kind_of_its_own() -> None:
    d8 = numbered("d8", 8, top=Face(8, words=("star",), shows="a star"))
    dice = DICE.with_kind(d8)
    game = Game(D8Rules(), {}, dice=dice)
    game.apply({"answer": ["star"]})
    assert game.state == {"rolled": (8,)} and game.over
    assert "d8" not in DICE and dice.ids() == ("d20", "monster", "d6", "d8")
    with pytest.raises(IllegalInput, match="names no die kind"):
        Game(D8Rules(), {}).apply({"answer": [3]})
    assert 1 <= RandomSource(2, dice=dice).roll(roll("d8")) <= 8  # type: ignore[operator]


def test_the_reader_and_the_calibration_use_the_same_kinds() -> None:
    assert DIE_KINDS == DICE.ids() == tuple(KIND_FACES) == tuple(KIND_NAMES) == tuple(KIND_PLURALS)
    for kind in DICE.kinds():
        assert KIND_FACES[kind.id] == kind.labels and KIND_NAMES[kind.id] == kind.name
        assert [engine_value(kind.id, label) for label in kind.labels] == list(kind.values)
    assert engine_value("d20", "20") == 20 and engine_value("monster", "hit") == "hit"
    assert "symbol" in face_prompt("d20", "20") and "HIT" in face_prompt("monster", "hit")


def test_a_kind_needs_faces_and_its_sides_among_them() -> None:
    with pytest.raises(ValueError, match="no faces"):
        DieKind("d0", "d0", "d0s", ())
    assert D6.describe() == "1 to 6" and D6.numbered and not MONSTER.numbered
    assert D6.sides == (1, 2, 3, 4, 5, 6) and MONSTER.with_sides(("hit",) * 6).values == ("hit", "pow", "blank")
