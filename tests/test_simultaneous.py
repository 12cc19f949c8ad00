"""Simultaneous secret answers (companion/engine/simultaneous.py, ``Prompt.each``): several
seats answer the same question for themselves, in any order; each answer is checked as it
comes and kept from the other seats; the rules go on once all have answered. Played here
with a tiny game of sealed bids, through the engine and through the table."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

import pytest

from companion.engine.dice import DiceSet
from companion.engine.defaults import Suggestion, no_default
from companion.engine.effects import EffectSink, natures_of
from companion.engine.errors import IllegalInput
from companion.engine.game import Flow, Game
from companion.engine.prompts import Option, Prompt, SeatAnswer
from companion.engine.simultaneous import gather
from companion.engine.tabletop import Count, Tabletop, Track
from companion.games.gamepack import PackWeb, Seat, View
from companion.store import Store
from companion.table import Table, TableError, Tables

SEATS = ("ann", "bob", "cyd")


@dataclass
class Bids:
    sealed: dict[str, int] = field(default_factory=dict)  # given, not yet shown
    shown: dict[str, int] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)  # in which order they came (the test's own check)


class BidRules:
    """Each seat bids 0 to 9 in secret; all bids are shown together (``revisable``: a seat may
    change its bid until the last one has bid)."""

    def __init__(self, revisable: bool = False) -> None:
        self.revisable = revisable

    def begin(self, origin: Mapping[str, object], sink: EffectSink) -> tuple[Bids, Flow[None]]:
        state = Bids()
        return state, self._play(state, sink)

    def _play(self, state: Bids, sink: EffectSink) -> Flow[None]:
        def ask(pending: tuple[str, ...]) -> Prompt:
            return Prompt("action", "bid", "Bid 0 to 9, in secret.", audience=SEATS if self.revisable else pending,
                          each=True)

        def accept(seat: str, answer: object) -> int:
            assert isinstance(answer, Mapping)
            bid = answer.get("bid")
            if not isinstance(bid, int) or not 0 <= bid <= 9:
                raise IllegalInput("a bid is a whole number from 0 to 9")
            state.sealed[seat] = bid
            state.order.append(seat)
            sink.tell((seat,), "bid-sealed", f"You bid {bid}.", bid=bid)
            sink.emit("seat-ready", f"{seat} has bid.", seat=seat)
            return bid

        bids = yield from gather(SEATS, ask, accept, revisable=self.revisable)
        state.shown, state.sealed = {seat: int(str(bid)) for seat, bid in bids.items()}, {}
        sink.emit("revealed", "Bids: " + ", ".join(f"{s} {b}" for s, b in state.shown.items()), bids=state.shown)


class BidPack:
    id = "sealed-bids"
    title = "Sealed bids (a test game)"
    quiet_effects: frozenset[str] = frozenset()
    phase_marks: frozenset[str] = frozenset()
    phase_ends: frozenset[str] = frozenset()
    phase_name = ""
    effect_natures = natures_of(notes=("bid-sealed", "seat-ready"), results=("revealed",))

    def __init__(self) -> None:
        self.rules = BidRules()

    def tabletop(self, game: Game) -> Tabletop:
        """A sealed bid is a face-down slip in front of its seat (never its number); shown, a track."""
        state = game.state
        assert isinstance(state, Bids)
        places = {f"area:{s}": f"in front of {s.title()}" for s in SEATS}
        slips = {f"slip:{s}": Count("face-down slip", "face-down slips", f"area:{s}", int(s in state.sealed))
                 for s in SEATS}
        return Tabletop(places, {}, slips, {f"shown:{s}": Track(f"{s.title()}'s bid", state.shown.get(s)) for s in SEATS})

    def pack_view(self, game: Game | None = None) -> View:
        return {"secret_seats": True}

    def data_id(self, game: Game) -> str:
        return ""

    def public_view(self, game: Game) -> View:
        state = game.state
        assert isinstance(state, Bids)
        return {"bid": sorted(state.sealed), "shown": dict(state.shown)}

    def seat_view(self, game: Game, seat: str) -> View:
        state = game.state
        assert isinstance(state, Bids)
        return {"my_bid": state.sealed.get(seat, state.shown.get(seat))}

    def seats(self, game: Game) -> list[Seat]:
        return [Seat(s, s.title()) for s in SEATS]

    def anytime_by(self, game: Game, move: object) -> str | None:
        """No moves at any time here."""
        return None

    def outcome(self, game: Game) -> str | None:
        return None if game.prompt is not None else "bids shown"

    def action_menu(self, game: Game, seat: str | None) -> list[View]:
        return []

    def next_answer(self, prompt: Prompt | None) -> Suggestion:
        return no_default(prompt)

    def owner_data(self) -> None:
        return None

    def dice_sets(self) -> tuple[DiceSet, ...]:
        return ()

    def leds(self) -> None:
        return None

    def forecaster(self) -> None:
        return None

    def cli(self) -> None:
        return None

    def web(self) -> PackWeb:
        return PackWeb(Path(__file__).parent)


BIDS = {"ann": 7, "bob": 3, "cyd": 5}


def bid(seat: str) -> dict[str, object]:
    return {"key": "bid", "answer": {"action": "bid", "bid": BIDS[seat]}, "seat": seat}


# -- the engine -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("order", [("ann", "bob", "cyd"), ("cyd", "ann", "bob"), ("bob", "cyd", "ann")])
def test_every_seat_answers_in_any_order_and_the_rules_get_them_all_together(order: tuple[str, ...]) -> None:
    game = Game(BidRules(), {})
    for n, seat in enumerate(order):
        assert game.prompt is not None and game.prompt.audience == tuple(s for s in SEATS if s not in order[:n])
        step = game.apply(bid(seat))
        assert [e.kind for e in step.effects][:2] == ["bid-sealed", "seat-ready"]
    assert game.over and game.state.shown == BIDS and game.state.order == list(order)  # type: ignore[attr-defined]
    assert [entry["seat"] for entry in game.inputs] == list(order)
    replayed = Game(BidRules(), {}, game.inputs)  # the seats are in the log: a replay gives the same game
    assert replayed.state == game.state


def test_a_seat_answers_once_and_only_a_seat_asked_answers() -> None:
    game = Game(BidRules(), {})
    game.apply(bid("bob"))
    with pytest.raises(IllegalInput, match="'bob' is not asked this question"):
        game.apply(bid("bob"))
    with pytest.raises(IllegalInput, match="'dan' is not asked"):
        game.apply({"key": "bid", "answer": {"action": "bid", "bid": 1}, "seat": "dan"})
    assert game.version == 1 and game.state.sealed == {"bob": 3}  # type: ignore[attr-defined]


def test_a_refused_answer_changes_nothing_and_the_seat_may_answer_again() -> None:
    game = Game(BidRules(), {})
    with pytest.raises(IllegalInput, match="from 0 to 9"):
        game.apply({"key": "bid", "answer": {"action": "bid", "bid": 12}, "seat": "cyd"})
    assert game.version == 0 and game.prompt is not None and game.prompt.audience == SEATS
    game.apply(bid("cyd"))
    assert game.prompt is not None and game.prompt.audience == ("ann", "bob")


def test_without_a_seat_the_first_seat_still_asked_answers_and_other_questions_take_none() -> None:
    game = Game(BidRules(), {})
    game.apply({"key": "bid", "answer": {"action": "bid", "bid": 1}})  # a script, a terminal
    assert game.inputs[-1]["seat"] == "ann"
    with pytest.raises(ValueError, match="needs the seats"):
        Prompt("action", "bid", "Bid.", each=True)


def test_a_question_asked_of_everyone_takes_no_seat() -> None:
    class Ask:
        def begin(self, origin: Mapping[str, object], sink: EffectSink) -> tuple[object, Flow[None]]:
            def play() -> Flow[None]:
                yield Prompt("choice", "go", "Go?", options=(Option("x", "Go"),))
            return None, play()

    game = Game(Ask(), {})
    with pytest.raises(IllegalInput, match="only a question each seat answers for itself takes a 'seat'"):
        game.apply({"key": "go", "answer": "x", "seat": "ann"})


def test_a_revisable_answer_is_changed_until_the_last_seat_answers_and_replays_the_same() -> None:
    """A seat that answered is asked again until everyone has: its new answer replaces its old one,
    the others' stay as they were, and the log replays to the same game."""
    game = Game(BidRules(revisable=True), {})
    game.apply(bid("ann"))
    assert game.prompt is not None and game.prompt.audience == SEATS and game.prompt.answered == ("ann",)
    assert game.prompt.still_to_answer() == ("bob", "cyd")
    game.apply(bid("bob"))
    game.apply({"key": "bid", "answer": {"action": "bid", "bid": 1}, "seat": "ann"})  # ann changes her mind
    assert game.state.sealed == {"ann": 1, "bob": 3}  # type: ignore[attr-defined]
    assert game.prompt is not None and game.prompt.answered == ("ann", "bob")
    game.apply({"key": "bid", "answer": {"action": "bid", "bid": 5}})  # a script answers for the seat still to answer
    assert game.inputs[-1]["seat"] == "cyd"
    assert game.over and game.state.shown == {**BIDS, "ann": 1}  # type: ignore[attr-defined]
    assert Game(BidRules(revisable=True), {}, game.inputs).state == game.state
    with pytest.raises(IllegalInput, match="a bid is a whole number"):  # a refused change keeps the old answer
        fresh = Game(BidRules(revisable=True), {})
        fresh.apply(bid("bob"))
        fresh.apply({"key": "bid", "answer": {"action": "bid", "bid": 12}, "seat": "bob"})
    assert fresh.state.sealed == {"bob": 3} and fresh.version == 1  # type: ignore[attr-defined]


def test_gather_refuses_a_revisable_question_not_asked_of_every_seat() -> None:
    def play() -> Flow[dict[str, object]]:
        return (yield from gather(SEATS, lambda pending: Prompt("action", "bid", "Bid.", audience=pending, each=True),
                                  lambda seat, answer: answer, revisable=True))

    flow = play()
    next(flow)  # the first question is asked of everyone either way
    with pytest.raises(ValueError, match="gather asks each of ann, bob, cyd"):
        flow.send(SeatAnswer("ann", 1))  # the next one must still be asked of ann


# -- the table ---------------------------------------------------------------------------------------------------

@pytest.fixture
def table(tmp_path: Path) -> Table:
    tables = Tables(Store(tmp_path / "companion.sqlite"), {"sealed-bids": BidPack})
    return tables.get(tables.create("sealed-bids", "Bids", {}))


def act(table: Table, seat: str | None, amount: int, claimed_seat: str | None = None) -> None:
    entry = {"key": "bid", "answer": {"action": "bid", "bid": amount}}
    if claimed_seat is not None:
        entry["seat"] = claimed_seat
    table.act(entry, table.version, seat)


def test_at_the_table_each_device_answers_for_its_own_seat_only(table: Table) -> None:
    with pytest.raises(TableError, match="this question is for ann, bob or cyd to answer in secret"):
        act(table, None, 1)  # the shared screen answers for nobody
    act(table, "bob", 3, claimed_seat="ann")  # a device cannot answer for another seat: it is bob's answer
    assert table.game.inputs[-1]["seat"] == "bob" and table.game.state.sealed == {"bob": 3}  # type: ignore[attr-defined]
    with pytest.raises(TableError, match="this question is for ann or cyd to answer, and this device plays bob"):
        act(table, "bob", 4)
    assert table.view("bob")["prompt"]["kind"] == "waiting"
    assert table.view("ann")["prompt"]["kind"] == "action" and table.view("ann")["prompt"]["each"] is True


def test_an_answer_shows_only_to_the_seat_that_gave_it_until_the_rules_reveal_it(table: Table) -> None:
    act(table, "cyd", 5)
    act(table, "ann", 7)
    cyd, ann = table.view("cyd"), table.view("ann")
    assert cyd["history"][1]["label"] == "You bid 5" and ann["history"][0]["label"] == "You bid 7"
    assert ann["history"][1]["label"] == "An answer given in secret" and cyd["private"] == {"my_bid": 5}
    for seen in (table.view("bob"), table.view()):
        text = json.dumps(seen)
        assert "You bid" not in text and '"my_bid": 7' not in text and '"my_bid": 5' not in text
        assert seen["state"]["bid"] == ["ann", "cyd"]
    act(table, "bob", 3)
    for seat in (*SEATS, None):
        assert table.view(seat)["state"]["shown"] == BIDS  # together, for everyone
    assert table.view("bob")["history"][2]["label"] == "An answer given in secret"  # cyd's, before the reveal
