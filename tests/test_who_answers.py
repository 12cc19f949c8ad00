"""Who may answer, enforced by the table for every pack (docs/engine.md, "Who answers").

Random games of every registered pack and of the toy pack are walked through a real ``Table`` over
SQLite with every seat held by a phone of its own. At every question, the seats the question does
not name (and the shared screen, when it names a seat) try the very answer the right seat gives
next: each is refused ``not-your-seat`` before the rules see it, and the game is left as it was;
then the right seat's device answers.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Mapping

import pytest

from companion.cli import _play_parser
from companion.engine.game import Game
from companion.engine.prompts import Prompt
from companion.games.gamepack import GamePack
from companion.games.registry import pack_makers
from companion.store import Store
from companion.table import Table, TableError, Tables
from companion.table.seats import Claimant
from toy_pack import ToyPack

STEPS = 70  # inputs walked per game: every kind of question of each game comes up well before


def packs() -> list[tuple[str, list[str]]]:
    """Each registered pack with its default setup, Siege of Barovia with a person as DM too."""
    return [*((pack_id, []) for pack_id in sorted(pack_makers())), ("siege-of-barovia", ["--dm", "person"]),
            ("secret-words", [])]


def table_of(tmp_path: Path, pack_id: str, options: list[str], seed: int) -> tuple[Table, GamePack]:
    makers = {**pack_makers(), "secret-words": ToyPack}
    pack = makers[pack_id]()
    parser, _ = _play_parser(pack)
    args: argparse.Namespace = parser.parse_args([*options, "--seed", str(seed)])
    tables = Tables(Store(tmp_path / "companion.sqlite"), {pack_id: lambda: pack})
    table = tables.get(tables.create(pack_id, "Who answers", pack.cli().setup(args)))
    for seat in table.seats():
        table.claim_seat(seat, Claimant(f"phone-of-{seat}"))
    return table, pack


def right_entry(table: Table, pack: GamePack, policy: object) -> dict[str, object]:
    """The next input the game's own random player gives, as the engine records it."""
    _, copy = table.copy()
    pack.cli().step(copy, policy)  # type: ignore[arg-type]
    return dict(copy.inputs[-1])


def who_answers(pack: GamePack, game: Game, prompt: Prompt, entry: Mapping[str, object]) -> tuple[str, ...] | None:
    """The seats that may give ``entry`` (None: anyone at the table)."""
    if "anytime" in entry:
        by = pack.anytime_by(game, entry["anytime"])
        return None if by is None else (by,)
    return prompt.answered_by()


def try_wrong_devices(table: Table, entry: Mapping[str, object], answerers: tuple[str, ...] | None,
                      secret: bool) -> int:
    """Every device the question does not name tries ``entry``: refused, nothing changed. The shared
    screen is one of them when the question is secret or every seat it names is played on a phone (a
    seat of nobody's, like the box's Dungeon Master, is answered from the shared screen)."""
    seats = table.seats()
    wrong: list[str | None] = [s for s in seats if answerers is not None and s not in answerers]
    if answerers is not None and (secret or all(s in seats for s in answerers)):
        wrong.append(None)
    sent = {k: v for k, v in entry.items() if k != "seat"}
    for seat in wrong:
        version, inputs = table.version, list(table.game.inputs)
        with pytest.raises(TableError) as refused:
            table.act(sent, version, seat)
        assert refused.value.code == "not-your-seat", (seat, entry, refused.value)
        assert table.version == version and table.game.inputs == inputs
    return len(wrong)


@pytest.mark.parametrize("pack_id,options", packs(), ids=lambda v: v if isinstance(v, str) else " ".join(v))
def test_only_the_seats_a_question_names_may_answer_it_in_every_pack(tmp_path: Path, pack_id: str,
                                                                      options: list[str]) -> None:
    seed = 11
    table, pack = table_of(tmp_path, pack_id, options, seed)
    policy = pack.cli().policy("random", seed)
    tried = refused_for_a_seat = 0
    for _ in range(STEPS):
        prompt = table.game.prompt
        if prompt is None:
            break
        entry = right_entry(table, pack, policy)
        answerers = who_answers(pack, table.game, prompt, entry)
        refused_for_a_seat += try_wrong_devices(table, entry, answerers, prompt.audience is not None)
        seat = _right_device(table, entry, answerers, random.Random(tried))
        table.act({k: v for k, v in entry.items() if k != "seat"}, table.version, seat)
        assert table.game.inputs[-1] == entry
        tried += 1
    assert (tried >= 10 or table.game.prompt is None) and refused_for_a_seat > 0


def _right_device(table: Table, entry: Mapping[str, object], answerers: tuple[str, ...] | None,
                  rng: random.Random) -> str | None:
    """The device that gives ``entry``: the seat that answered a question each seat answers for
    itself, else the seat named (the shared screen for a seat nobody plays), else anyone."""
    if "seat" in entry:
        return str(entry["seat"])
    if answerers:
        return answerers[0] if answerers[0] in table.seats() else None
    return rng.choice([None, *table.seats()])


def test_the_shared_screen_answers_for_a_seat_only_while_no_device_plays_it(tmp_path: Path) -> None:
    """A player without a phone plays on the table's tablet; once a phone holds the seat, only it answers."""
    tables = Tables(Store(tmp_path / "companion.sqlite"), {"secret-words": ToyPack})
    table = tables.get(tables.create("secret-words", "Words", {}))
    word = {"key": "secret-word", "answer": {"action": "write", "word": "owl"}}
    with pytest.raises(TableError, match="in secret"):  # the question is for North's eyes: never the shared screen
        table.act(word, table.version, None)
    assert table.view(None)["prompt"]["kind"] == "waiting" and table.view("north")["prompt"]["kind"] == "action"
    table.act(word, table.version, "north")
    assert table.view("north")["prompt"]["kind"] == "waiting"  # South's question now: North sees whose it is
