"""The tabletop contract (docs/protocol.md, "The tabletop"), over every registered pack and the
toy pack: random games, undone k steps at random moments. What the shell derives must hold for
every game alike: the put-back list is empty exactly when the two tabletops show the same table,
doing it turns the one table into the other, redo restores the table, the steps' changes add up
to the difference of a stretch's start and end (a phase's summary), a tabletop carries no
seat's secret, and every place a piece lies at is named."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import pytest

from companion.engine.errors import GameOver
from companion.engine.game import Game
from companion.engine.prompts import Prompt
from companion.engine.tabletop import EMPTY, Tabletop, apply_changes, changes, layout, to_plain
from companion.games.gamepack import GamePack
from companion.games.registry import BUILT_IN, pack_makers
from companion.store import Store
from companion.terminal import policy_options
from companion.table import Table, TableError, Tables
from toy_pack import ToyPack

PACKS = [*BUILT_IN, "secret-words"]
STEPS = 60


def make_pack(pack_id: str) -> GamePack:
    return ToyPack() if pack_id == "secret-words" else pack_makers()[pack_id]()


def new_game(pack: GamePack, options: tuple[str, ...] = ()) -> Game:
    """A game as ``companion play --game ID`` sets it up (its default options, or ``options``)."""
    cli = pack.cli()
    parser = argparse.ArgumentParser()
    cli.add_play_options(parser)
    policy_options(parser, ("random",), "random")
    return Game(pack.rules, {"setup": dict(cli.setup(parser.parse_args(list(options))))})


def play(pack: GamePack, game: Game, seed: int, count: int) -> list[Tabletop]:
    """``count`` random steps (fewer if the game ends); the tabletop after each."""
    cli, tops = pack.cli(), []
    policy = cli.policy("random", seed)
    for _ in range(count):
        if game.over:
            break
        try:
            cli.step(game, policy)
        except GameOver:
            break
        tops.append(pack.tabletop(game))
    return tops


def assert_put_back_right(now: Tabletop, then: Tabletop) -> None:
    """Empty exactly when the tables are the same; done, it turns ``now`` into ``then``."""
    back = changes(now, then)
    assert (back == []) == (layout(now) == layout(then)), [c.text for c in back]
    assert layout(apply_changes(now, back, then)) == layout(then)
    assert all(change.text.strip() for change in back)


@pytest.mark.parametrize("pack_id", PACKS)
def test_put_back_after_undo_at_random_moments(pack_id: str) -> None:
    pack = make_pack(pack_id)
    rng = random.Random(f"tabletop-{pack_id}")
    game = new_game(pack)
    opening = pack.tabletop(game)
    assert opening.problems() == [] and changes(EMPTY, opening), "a new game's table has pieces to set up"
    tops = [opening, *play(pack, game, rng.randrange(10**6), STEPS)]
    moved_somewhere = False
    for _ in range(6):
        if game.version == 0:
            break
        k = rng.randint(1, min(6, game.version))
        now = pack.tabletop(game)
        dropped = game.undo(k)
        then = pack.tabletop(game)
        assert layout(then) == layout(tops[game.version])  # the table k steps back is the one it was
        assert_put_back_right(now, then)
        moved_somewhere |= bool(changes(now, then))
        for entry in dropped:  # redo: the same inputs again give the same table
            game.apply(entry)
        assert layout(pack.tabletop(game)) == layout(now)
        game.undo(rng.randint(0, 1) or 1) if rng.random() < 0.3 and game.version else None
        tops = tops[:game.version + 1]
        tops += play(pack, game, rng.randrange(10**6), rng.randint(1, 8))
    assert moved_somewhere, "some undo took back a move on the table"


@pytest.mark.parametrize(("pack_id", "options"), [
    ("horrified", ("--monsters", "frankenstein,mummy,wolf-man,invisible-man")),
    ("horrified", ("--board", "ravenloft", "--monsters", "dracula,creature")),  # a mixed game
    ("ravenloft", ("--monsters", "strahd,gulthias-tree,baba-lysaga,carrionette")),
])
def test_every_monsters_mat_and_tokens_are_on_the_tabletop(pack_id: str, options: tuple[str, ...]) -> None:
    """Each monster's plug-in adds its figures, minions, tokens and mat: step after step, the changes
    are right, and the table of a whole game set up again from empty is the table now."""
    pack = make_pack(pack_id)
    game = new_game(pack, options)
    tops = [pack.tabletop(game), *play(pack, game, 3, 100)]
    for before, after in zip(tops, tops[1:]):
        assert after.problems() == []
        assert_put_back_right(after, before)
    assert layout(apply_changes(EMPTY, changes(EMPTY, tops[-1]), tops[-1])) == layout(tops[-1])


@pytest.mark.parametrize("pack_id", PACKS)
def test_the_steps_changes_add_up_to_the_stretchs_difference(pack_id: str) -> None:
    """A phase's summary is the difference of its start and end: the same as each step's changes
    done one after the other (the history's), from any start to any end."""
    pack = make_pack(pack_id)
    rng = random.Random(f"stretch-{pack_id}")
    game = new_game(pack)
    tops = [pack.tabletop(game), *play(pack, game, rng.randrange(10**6), STEPS)]
    for top in tops:
        assert top.problems() == []
    for _ in range(5):
        start = rng.randrange(len(tops))
        end = rng.randrange(start, len(tops))
        table = tops[start]
        for i in range(start, end):
            table = apply_changes(table, changes(tops[i], tops[i + 1]), tops[i + 1])
        assert layout(table) == layout(tops[end])
        assert_put_back_right(tops[start], tops[end])


@pytest.mark.parametrize("pack_id", PACKS)
def test_a_tabletop_carries_no_seats_secret(pack_id: str) -> None:
    """Whatever a seat alone sees (a pact card's name, a word before the reveal) and the shared
    view does not show is nowhere in the tabletop, which every seat and screen gets."""
    pack = make_pack(pack_id)
    game = new_game(pack)
    rng = random.Random(f"secret-{pack_id}")
    for _ in range(8):
        play(pack, game, rng.randrange(10**6), 5)
        public = json.dumps(pack.public_view(game))
        table = json.dumps([layout(pack.tabletop(game)), [c.text for c in changes(EMPTY, pack.tabletop(game))]])
        for seat in pack.seats(game):
            for secret in _strings(pack.seat_view(game, seat.id)):
                if secret not in public and len(secret) > 2:
                    assert secret not in table, f"{seat.id}'s {secret!r} is on the tabletop"


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


# -- the table derives it for every pack ----------------------------------------------------------------

@pytest.mark.parametrize("pack_id", PACKS)
def test_the_table_lists_what_to_put_back_before_and_after_an_undo(pack_id: str, tmp_path: Path) -> None:
    """The table derives it for every pack: the setup checklist of a new game, the put-back list in
    the peek before an undo and in every view after it (after a restart too), each step's changes
    in the history; a redo clears the put-back list and gives the table back."""
    pack = make_pack(pack_id)
    tables = Tables(Store(tmp_path / "companion.sqlite"), {pack_id: lambda: make_pack(pack_id)})
    game = new_game(pack)
    setup = game.origin["setup"]
    assert isinstance(setup, dict)
    table = tables.get(tables.create(pack_id, "Contract", setup))
    setup_ids = [i for c in table.view()["setup"] for i in (c["ids"] if c["what"] == "pieces" else [c["id"]])]
    assert sorted(setup_ids) == sorted(c.id for c in changes(EMPTY, pack.tabletop(game)))  # all of it, grouped
    play(pack, game, 7, 25)
    for entry in game.inputs:
        prompt = table.game.prompt
        assert prompt is not None
        table.act(entry, table.version, _answerer(prompt, entry))
    now = pack.tabletop(table.game)
    assert table.view()["setup"] is None and table.view()["tabletop"] == to_plain(now)
    count = min(4, table.version)
    peek = table.peek(count, table.version)
    view = undo_agreed(table, count)
    then = pack.tabletop(table.game)
    assert view["put_back"] == peek["put_back"] == [c.to_plain() for c in changes(now, then)]
    assert (view["put_back"] == []) == (layout(now) == layout(then))
    assert all(table.view(seat.id)["put_back"] == view["put_back"] for seat in pack.seats(table.game))
    live = table.game.inputs
    for entry in view["history"][:3]:  # the newest steps' changes on the table, each worked out alone
        v = entry["version"]
        before, after = (pack.tabletop(Game(pack.rules, game.origin, live[:n])) for n in (v - 1, v))
        assert entry["moves"] == [c.text for c in changes(before, after)]
    restarted = Tables(Store(tmp_path / "companion.sqlite"), {pack_id: lambda: make_pack(pack_id)}).get(table.game_id)
    assert restarted.view()["put_back"] == view["put_back"], "a restart after an undo still says what to put back"
    redone = table.redo(count, table.version)
    assert redone["put_back"] is None and redone["tabletop"] == to_plain(now)


def undo_agreed(table: Table, count: int) -> dict[str, object]:
    """Go back ``count`` steps; past a reveal, each seat that answered in secret agrees in turn
    (docs/engine.md, "Who answers")."""
    version = table.version
    for seat in table.seats():
        try:
            return table.undo(count, version, seat)
        except TableError as waiting:
            if waiting.code != "needs-consent":
                raise
    raise AssertionError("every seat agreed, and the undo still waits")


def _answerer(prompt: Prompt, entry: dict[str, object]) -> str | None:
    """The seat a test answers from: the entry's own seat, else the one the question is for."""
    seat = entry.get("seat")
    if isinstance(seat, str):
        return seat
    return prompt.audience[0] if prompt.audience else None


@pytest.mark.parametrize("pack_id", PACKS)
def test_every_effect_says_what_kind_of_thing_it_is(pack_id: str) -> None:
    """Each effect kind a game emits is declared a step, a note or a result by its pack (the
    guide and the summary read that, never lists of names); views carry it as ``nature``."""
    pack = make_pack(pack_id)
    rng = random.Random(f"natures-{pack_id}")
    seen: set[str] = set()
    for _ in range(3):
        game = new_game(pack)
        seen |= {e.kind for e in game.opening_effects}
        cli, policy = pack.cli(), pack.cli().policy("random", rng.randrange(10**6))
        for _ in range(120):
            if game.over:
                break
            seen |= {e.kind for e in cli.step(game, policy).effects}
    assert seen - set(pack.effect_natures) == set()
    assert set(pack.effect_natures.values()) <= {"step", "note", "result"}


@pytest.mark.parametrize("pack_id", PACKS)
def test_a_phases_summary_is_the_difference_of_its_start_and_end(pack_id: str, tmp_path: Path) -> None:
    """Played through the table: each phase the pack marks (the Monster Phase, the DM's turn, a day
    or night, a round) carries, once over, the changes from the table before it began to the table
    when it ended, and while under way the changes so far (a phase with no end mark runs until the
    next one begins)."""
    pack = make_pack(pack_id)
    tables = Tables(Store(tmp_path / "companion.sqlite"), {pack_id: lambda: make_pack(pack_id)})
    game = new_game(pack)
    setup = game.origin["setup"]
    assert isinstance(setup, dict)
    table = tables.get(tables.create(pack_id, "Phases", setup))
    tops = [pack.tabletop(game), *play(pack, game, 11, 160 if pack_id == "straszydla" else 80)]  # by input count
    ended_seen = under_way_seen = 0
    for entry in game.inputs:
        prompt = table.game.prompt
        assert prompt is not None
        phase = table.act(entry, table.version, _answerer(prompt, entry))["phase"]
        if phase is None:
            continue
        assert phase["name"] == pack.phase_name
        end = table.version if phase["ended"] is None else phase["ended"]
        assert phase["changes"] == [c.to_plain() for c in changes(tops[phase["begun"] - 1], tops[end])]
        ended_seen += phase["ended"] is not None
        under_way_seen += phase["ended"] is None
    assert under_way_seen, f"no phase of {pack_id} began in a random game"
    assert ended_seen, f"no phase of {pack_id} ended in a random game"


CONFIRMED = {"ravenloft": "End the Hero Phase?", "horrified": "End the Hero Phase?",
             "siege-of-barovia": "End the turn?", "straszydla": "Done feeding?"}


@pytest.mark.parametrize("pack_id", sorted(CONFIRMED))
def test_hard_to_undo_answers_are_declared_on_the_answer(pack_id: str) -> None:
    """A pack declares on the answer itself that it is hard to undo at the table (the shell asks
    first, with the pack's words): in a random game such an answer comes up, its question is whole,
    and the answer without its words is one the rules take."""
    pack = make_pack(pack_id)
    game = new_game(pack)
    cli, policy = pack.cli(), pack.cli().policy("random", 5)
    found = []
    for _ in range(400 if pack_id == "straszydla" else 120):
        if game.over:
            break
        seat = game.prompt.player if game.prompt else None
        found = [entry for entry in pack.action_menu(game, seat) if "confirm" in entry]
        if found:
            break
        cli.step(game, policy)
    assert found and game.prompt is not None, f"no answer of {pack_id} asked to confirm in a random game"
    entry = found[0]
    answer = {k: v for k, v in entry.items() if k not in ("label", "confirm")}
    taken = Game(pack.rules, game.origin, game.inputs)
    taken.apply({"key": game.prompt.key, "answer": answer, **({"seat": seat} if game.prompt.each else {})})
    assert taken.version == game.version + 1
    confirm = entry["confirm"]
    assert isinstance(confirm, dict) and confirm["title"] == CONFIRMED[pack_id]
    assert all(isinstance(confirm[k], str) and confirm[k] for k in ("title", "text", "yes", "no"))
