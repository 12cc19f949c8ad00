"""A whole game: the pacts named in secret, then rounds until someone's pact is fulfilled
(rulebook, "Round Structure").

Time control: "At the beginning of each round the starting player removes one cube from
the day/night card ... If the next cube cannot be removed because the card is empty, the
starting player turns the card over, places 4 horror cubes on it, and passes the card to
the next player, who becomes the starting player. The time of day has changed. After the
time of day changes, the starting player removes all blockade markers" (with two players:
after every 2 rounds, readings.py). The STOP markers come off at the start of each round,
and the districts of the time of day get their cubes, "regardless of whether cubes are
already on them". A round: planning in secret and moving, duels, actions, blockade
markers; after its fourth, the end of the time of day (feeding.py).
"""

from __future__ import annotations

from collections import Counter

from companion.engine.game import Flow
from companion.engine.prompts import Option, Prompt
from companion.engine.simultaneous import gather

from .actions import take_actions
from .context import Ctx
from .duels import fight_duels
from .feeding import end_of_time
from .planning import plan_and_move
from .setup import CARD_CUBES

PACT_KEY, BLOCKADE_KEY = "pact", "blockade"
ROUNDS_PER_TIME = CARD_CUBES
CLEAR_TWO_PLAYERS = {"two-rounds": 2, "day-and-night": 2 * ROUNDS_PER_TIME}


def play(ctx: Ctx) -> Flow[None]:
    yield from name_pacts(ctx)
    while ctx.state.outcome is None:
        yield from play_round(ctx)


def play_round(ctx: Ctx) -> Flow[None]:
    begin_round(ctx)
    yield from plan_and_move(ctx)
    yield from fight_duels(ctx)
    yield from take_actions(ctx)
    yield from place_blockades(ctx)
    ctx.state.barred, ctx.state.lost = [], {}
    if ctx.state.card == 0:
        yield from end_of_time(ctx)


# -- the pacts -----------------------------------------------------------------------------------------------

def name_pacts(ctx: Ctx) -> Flow[None]:
    """Each player names the pact card dealt to them, on their own phone, and sees it back with
    its symbols to check it against the card in their hand.

    Why no check that two named the same card: any answer the box gave to such a check (asking
    again, or not) would tell the asker about another seat's secret — naming a guess and watching
    for a clash finds another player's pact. The cards are dealt from one deck, so each player's
    own check of their own card is the check; nobody's pact is compared with anyone else's."""
    state = ctx.state
    state.phase, state.pacts_in = "pacts", []
    yield from gather(state.from_starting(), lambda pending: _ask_pact(ctx, pending),
                      lambda seat, answer: _accept_pact(ctx, seat, answer))


def _ask_pact(ctx: Ctx, pending: tuple[str, ...]) -> Prompt:
    return Prompt("choice", PACT_KEY, "Which pact card were you dealt? Only you will see it here.", audience=pending,
                  each=True, options=tuple(Option(p.id, p.name, {"elements": list(p.elements)})
                                          for p in ctx.pack.pacts))


def _accept_pact(ctx: Ctx, seat: str, answer: object) -> str:
    pact = ctx.pack.pact(str(answer))
    ctx.player(seat).pact = pact.id
    ctx.state.pacts_in.append(seat)
    symbols = ", ".join(ctx.pack.element(e).name for e in pact.elements)
    ctx.sink.tell((seat,), "pact-named", f"Your pact: {pact.name} ({symbols}).", seat=seat, pact=pact.id)
    ctx.sink.emit("pact-in", f"{ctx.name(seat)} has named their pact card.", seat=seat)
    return pact.id


# -- the start of a round ----------------------------------------------------------------------------------------

def begin_round(ctx: Ctx) -> None:
    state = ctx.state
    if state.card == 0:
        _change_time(ctx)
    state.card -= 1
    state.round += 1
    state.round_in_time += 1
    state.rounds_since_clear += 1
    last = " This is the last round of the " + state.time + "." if state.card == 0 else ""
    ctx.sink.emit("round", f"Round {state.round} ({state.time}, round {state.round_in_time} of "
                  f"{ROUNDS_PER_TIME}): {ctx.name(state.starting)} returns a horror cube from the day/night card to "
                  f"the bank ({state.card} left).{last}", round=state.round, time=state.time, card=state.card)
    _two_player_clear(ctx)
    _clear_stops(ctx)
    _replenish(ctx)


def _change_time(ctx: Ctx) -> None:
    state = ctx.state
    state.time = "night" if state.time == "day" else "day"
    state.card, state.round_in_time = CARD_CUBES, 0
    state.starting = state.order[(state.order.index(state.starting) + 1) % len(state.order)]
    ctx.sink.emit("time-changed", f"The {state.time} begins: turn the day/night card over, put {CARD_CUBES} horror "
                  f"cubes on it and pass it to {ctx.name(state.starting)}, the starting player now.",
                  time=state.time, starting=state.starting)
    if len(state.order) > 2:
        _clear_blockades(ctx)


def _two_player_clear(ctx: Ctx) -> None:
    state = ctx.state
    every = CLEAR_TWO_PLAYERS[ctx.reading("two_player_clear")]
    if len(state.order) == 2 and state.rounds_since_clear > every:
        _clear_blockades(ctx)


def _clear_blockades(ctx: Ctx) -> None:
    state = ctx.state
    state.rounds_since_clear = 1 if state.round_in_time else 0
    if state.blockades:
        places = ", ".join(ctx.place(p) for p in state.blockades)
        ctx.sink.emit("blockades-cleared", f"{ctx.name(state.starting)} removes every blockade marker ({places}).",
                      places=list(state.blockades))
    state.blockades = []


def _clear_stops(ctx: Ctx) -> None:
    if any(ctx.state.stops.values()):
        ctx.sink.emit("stops-cleared", f"{ctx.name(ctx.state.starting)} collects the STOP markers.")
    ctx.state.stops = {}


def _replenish(ctx: Ctx) -> None:
    state = ctx.state
    for square, tile_id in sorted(state.layout.items(), key=lambda item: _reading_order(item[0])):
        tile = ctx.pack.tile(tile_id)
        if tile.time != state.time:
            continue
        on = state.cubes.setdefault(tile_id, {})
        on[tile.element] = on.get(tile.element, 0) + tile.cubes
        ctx.sink.emit("replenish", f"Put {ctx.cube_words(tile.produces)} on {tile.name}.", place=tile_id,
                      cubes=tile.produces)


def _reading_order(square: str) -> tuple[int, int]:
    column, _, row = square.partition(",")
    return int(row), int(column)


# -- blockade markers --------------------------------------------------------------------------------------------

def place_blockades(ctx: Ctx) -> Flow[None]:
    """"After performing all actions (at the end of each round), players place blockade markers on the districts"."""
    state = ctx.state
    state.phase = "blockades"
    for seat in state.from_starting():
        place = state.players[seat].at if ctx.reading("blockades") == "own" else (yield from _choose(ctx, seat))
        if place is not None and place not in state.blockades:
            state.blockades.append(place)
            ctx.sink.emit("blockade", f"{ctx.name(seat)} puts a blockade marker on {ctx.place(place)}.", seat=seat,
                          place=place)


def _choose(ctx: Ctx, seat: str) -> Flow[str | None]:
    pawns = Counter(p.at for p in ctx.state.players.values())
    free = [t for t in ctx.state.layout.values() if not pawns[t] and t not in ctx.state.blockades]
    if not free:
        return None
    chosen = yield Prompt("choice", BLOCKADE_KEY, f"{ctx.name(seat)}: put your blockade marker on which district?",
                          player=seat, options=tuple(Option(t, ctx.place(t)) for t in sorted(free, key=ctx.place)))
    return str(chosen)


__all__ = ["BLOCKADE_KEY", "PACT_KEY", "begin_round", "name_pacts", "place_blockades", "play", "play_round"]
