"""Duels (rulebook, "Duels"): when more than one pawn ends its move in a district, they
fight for it two at a time, in the order they came, the winner facing the next.

A duel: 2 dice each, a third for the side whose creatures are stronger in this time of
day; each rolls (in the tray, read by the camera, or tapped), the dice are put highest
first and compared in pairs, the higher die of a pair succeeds (a pair with no die on one
side goes to the other), more successes wins. "After the dice are set, each player
decides in secret how many energy cubes they want to spend": both bids are sealed on the
phones and shown together; both are paid to the bank; the higher bidder may change the
dice by the difference. The loser withdraws to a space next door, chosen by the winner,
or by the loser when the winner lets them (a horror cube changes hands, readings.py);
into an occupied district means another duel there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.prompts import Option, Prompt, faces
from companion.engine.simultaneous import gather

from .context import Ctx, dice_words
from .state import Duel

ROLL_KEY, BID_KEY, CHANGE_KEY, WITHDRAW_KEY, CHOOSE_KEY = ("duel-roll", "duel-bid", "duel-change", "duel-withdraw",
                                                           "duel-withdraw-choose")
LOSER_CHOOSES = "loser-chooses"


def fight_duels(ctx: Ctx) -> Flow[None]:
    """Every district with more than one pawn, in the order they were contested, until each holds one."""
    state = ctx.state
    queue = _contested(ctx)
    while queue:
        place = queue.pop(0)
        while len(state.entered.get(place, [])) >= 2:
            holder, challenger = state.entered[place][:2]
            state.phase = "duel"
            winner, loser = yield from duel(ctx, place, holder, challenger)
            state.entered[place].remove(loser)
            state.lost.setdefault(loser, []).append(place)
            to = yield from withdraw(ctx, place, winner, loser)
            state.duel = None
            if to is not None:
                state.entered.setdefault(to, []).append(loser)
                if len(state.entered[to]) >= 2 and to not in queue:
                    queue.append(to)
    state.duel = None


def _contested(ctx: Ctx) -> list[str]:
    order = ctx.state.from_starting()
    places = [p for p, seats in ctx.state.entered.items() if len(seats) >= 2]
    return sorted(places, key=lambda p: order.index(ctx.state.entered[p][1]))


def duel(ctx: Ctx, place: str, holder: str, challenger: str) -> Flow[tuple[str, str]]:
    """Bouts until one side wins (equal successes: fought again, readings.RETIRED says why)."""
    ctx.state.duel = Duel(place, holder, challenger)
    ctx.sink.emit("duel", f"Duel at {ctx.place(place)}: {ctx.name(holder)} (there first) against "
                  f"{ctx.name(challenger)}.", place=place, holder=holder, challenger=challenger)
    while True:
        winner = yield from _bout(ctx, ctx.state.duel)
        if winner is not None:
            loser = challenger if winner == holder else holder
            ctx.sink.emit("duel-won", f"{ctx.name(winner)} wins the duel at {ctx.place(place)}; {ctx.name(loser)} "
                          "must withdraw.", place=place, winner=winner, loser=loser)
            return winner, loser


def dice_counts(ctx: Ctx, duel: Duel) -> dict[str, int]:
    """2 dice each, and a third for the higher summed strength (none for equal strength)."""
    strengths = {seat: ctx.strength(seat) for seat in duel.sides}
    top = max(strengths.values())
    stronger = [s for s, v in strengths.items() if v == top]
    return {seat: 3 if stronger == [seat] else 2 for seat in duel.sides}


def _bout(ctx: Ctx, duel: Duel) -> Flow[str | None]:
    duel.dice, duel.bids, duel.bids_in, duel.step = {}, {}, [], "roll"
    for seat, count in dice_counts(ctx, duel).items():
        rolled = yield Prompt("roll", ROLL_KEY, f"{ctx.name(seat)}: roll {dice_words(count)} for the duel at "
                              f"{ctx.place(duel.place)}.", player=seat, die="d6", count=count,
                              context={"place": duel.place, "strength": ctx.strength(seat)})
        duel.dice[seat] = sorted((int(str(f)) for f in faces(rolled)), reverse=True)
        ctx.sink.emit("duel-dice", f"{ctx.name(seat)} rolled {', '.join(map(str, duel.dice[seat]))}.", seat=seat,
                      dice=list(duel.dice[seat]))
    yield from _bids(ctx, duel)
    yield from _change(ctx, duel)
    return _winner(ctx, duel)


# -- the sealed bids --------------------------------------------------------------------------------------

def _bids(ctx: Ctx, duel: Duel) -> Flow[None]:
    duel.step = "bid"
    yield from gather(duel.sides, lambda pending: _ask_bid(ctx, duel, pending),
                      lambda seat, answer: _accept_bid(ctx, duel, seat, answer))
    for seat in duel.sides:
        player = ctx.player(seat)
        duel.bids[seat], player.bid = player.bid or 0, None
        player.energy -= duel.bids[seat]
    a, b = duel.sides
    ctx.sink.reveal("bids-revealed", f"Bids revealed: {ctx.name(a)} {duel.bids[a]}, {ctx.name(b)} {duel.bids[b]} "
                  "energy cubes (both go to the bank).", bids=dict(duel.bids), place=duel.place)


def _ask_bid(ctx: Ctx, duel: Duel, pending: tuple[str, ...]) -> Prompt:
    return Prompt("action", BID_KEY, f"Duel at {ctx.place(duel.place)}: how many energy cubes do you bid, in "
                  "secret? Only the difference counts; both bids are paid.", audience=pending, each=True,
                  context={"place": duel.place, "dice": {s: list(d) for s, d in duel.dice.items()}})


def _accept_bid(ctx: Ctx, duel: Duel, seat: str, answer: object) -> int:
    assert isinstance(answer, Mapping)
    amount = answer.get("energy")
    player = ctx.player(seat)
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= player.energy:
        raise IllegalInput(f"bid a whole number of energy cubes from 0 to {player.energy} (what you hold)")
    player.bid = amount
    duel.bids_in.append(seat)
    ctx.sink.tell((seat,), "bid-sealed", f"Your sealed bid: {amount} energy cube{'s' if amount != 1 else ''}.",
                  seat=seat, energy=amount)
    ctx.sink.emit("bid-in", f"{player.name} has bid.", seat=seat)
    return amount


# -- changing the dice by the difference ---------------------------------------------------------------------

def _change(ctx: Ctx, duel: Duel) -> Flow[None]:
    a, b = duel.sides
    budget = abs(duel.bids[a] - duel.bids[b])
    if budget == 0:
        return
    higher = a if duel.bids[a] > duel.bids[b] else b
    duel.step = "change"
    answer = yield Prompt("action", CHANGE_KEY, f"{ctx.name(higher)}: you may change the duel's dice by up to "
                          f"{budget} (1 per cube of the difference).", player=higher,
                          context={"budget": budget, "dice": {s: list(d) for s, d in duel.dice.items()},
                                   "own_only": ctx.reading("bid_dice") == "own"})
    assert isinstance(answer, Mapping)
    if answer.get("action") == "keep":
        return
    changed = checked_change(duel, higher, answer.get("dice"), budget, ctx.reading("bid_dice") == "own")
    duel.dice = {seat: sorted(d, reverse=True) for seat, d in changed.items()}
    ctx.sink.emit("duel-dice-changed", f"{ctx.name(higher)} changes the dice: " + "; ".join(
        f"{ctx.name(s)} {', '.join(map(str, duel.dice[s]))}" for s in duel.sides) + ".", dice=dict(duel.dice))


def checked_change(duel: Duel, higher: str, value: object, budget: int, own_only: bool) -> dict[str, list[int]]:
    """The dice as the higher bidder sets them (each seat's dice in the order shown, highest first),
    or IllegalInput: every die 1 to 6, at most ``budget`` points moved in all."""
    if not isinstance(value, Mapping) or set(value) != set(duel.sides):
        raise IllegalInput(f"give both players' dice: {{\"{duel.holder}\": [...], \"{duel.challenger}\": [...]}}")
    new: dict[str, list[int]] = {}
    for seat in duel.sides:
        dice = value[seat]
        if not isinstance(dice, list) or len(dice) != len(duel.dice[seat]) or \
                not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice):
            raise IllegalInput(f"{seat}: {len(duel.dice[seat])} dice, each 1 to 6")
        new[seat] = list(dice)
    moved = sum(abs(x - y) for seat in duel.sides for x, y in zip(duel.dice[seat], new[seat]))
    if moved > budget:
        raise IllegalInput(f"these changes move the dice {moved} points; the difference of the bids allows {budget}")
    other = duel.challenger if higher == duel.holder else duel.holder
    if own_only and new[other] != duel.dice[other]:
        raise IllegalInput("the higher bidder changes only their own dice (the reading in play)")
    return new


def successes(first: Sequence[int], second: Sequence[int]) -> tuple[int, int]:
    """Pairs compared highest first: the higher die succeeds, a missing die loses its pair;
    equal dice succeed for nobody (the bid example leaves no other reading, readings.RETIRED)."""
    a, b = sorted(first, reverse=True), sorted(second, reverse=True)
    wins = [0, 0]
    for n in range(max(len(a), len(b))):
        x, y = (a[n] if n < len(a) else 0), (b[n] if n < len(b) else 0)
        if x > y:
            wins[0] += 1
        elif y > x:
            wins[1] += 1
    return wins[0], wins[1]


def _winner(ctx: Ctx, duel: Duel) -> str | None:
    a, b = duel.sides
    mine, theirs = successes(duel.dice[a], duel.dice[b])
    if mine != theirs:
        return a if mine > theirs else b
    ctx.sink.emit("duel-tied", f"A tie ({mine}:{theirs}): roll again.", place=duel.place)
    return None


# -- withdrawing ----------------------------------------------------------------------------------------------

def withdraw(ctx: Ctx, place: str, winner: str, loser: str) -> Flow[str | None]:
    """Where the loser goes (None: nowhere, and they take nothing this round)."""
    spaces = _spaces(ctx, place, loser)
    if not spaces:
        return None
    if ctx.state.duel is not None:
        ctx.state.duel.step = "retreat"
    cube_to = winner if ctx.reading("retreat_cube") == "winner" else loser
    options = [Option(s, f"Send {ctx.name(loser)} to {ctx.place(s)}") for s in spaces]
    options.append(Option(LOSER_CHOOSES, f"Let {ctx.name(loser)} choose ({ctx.name(cube_to)} takes a horror cube)"))
    chosen = yield Prompt("choice", WITHDRAW_KEY, f"{ctx.name(winner)} won at {ctx.place(place)}: where does "
                          f"{ctx.name(loser)} withdraw?", player=winner, options=tuple(options))
    if chosen == LOSER_CHOOSES:
        ctx.horror(cube_to, 1)
        ctx.sink.emit("horror", f"{ctx.name(cube_to)} takes a horror cube from the bank.", seat=cube_to, change=1)
        chosen = yield Prompt("choice", CHOOSE_KEY, f"{ctx.name(loser)}: withdraw from {ctx.place(place)} to where?",
                              player=loser, options=tuple(options[:-1]))
    to = str(chosen)
    ctx.player(loser).at = to
    ctx.sink.emit("withdrew", f"Move {ctx.name(loser)}'s pawn from {ctx.place(place)} to {ctx.place(to)}.",
                  seat=loser, path=[place, to])
    return to


def _spaces(ctx: Ctx, place: str, loser: str) -> list[str]:
    """Next door, or any suburb (reading stuck_retreat); by the reading retreat_back never back
    into a district the loser lost a duel in this round (so a chain of duels always ends)."""
    barred = set(ctx.state.lost.get(loser, [])) if ctx.reading("retreat_back") == "no" else set()
    spaces = [s for s in ctx.geometry.withdrawals(place) if s not in barred]
    if not spaces and ctx.reading("stuck_retreat") == "suburb":
        spaces = [s for s in ctx.geometry.open_suburbs(place) if s not in barred]
    if not spaces:
        ctx.state.barred.append(loser)
        ctx.sink.emit("stuck", f"{ctx.name(loser)} has nowhere to withdraw to: they stay and take nothing this "
                      "round.", seat=loser, place=place)
    return spaces


__all__ = ["BID_KEY", "CHANGE_KEY", "CHOOSE_KEY", "LOSER_CHOOSES", "ROLL_KEY", "WITHDRAW_KEY", "checked_change",
           "dice_counts", "duel", "fight_duels", "successes", "withdraw"]
