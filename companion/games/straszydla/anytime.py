"""Moves a player may make at any moment of the game, whatever the box is asking (the engine's
``anytime`` inputs, docs/engine.md "Moves at any time"): exchanging cubes at the bank, and
using horror cubes and imps.

Rulebook: "At any moment of the game you may exchange your cubes at the bank for other
resources" (three cubes for a cube or an imp); horror cubes: "You may use them at any moment
of the game"; imps: "You may use the help offered by imps at any moment of the game". So a
player short of white cubes at a duel's sealed bid may trade fear cubes for some first.
Buying a creature is not such a move: "At any moment of your turn (including during feeding)
you may buy one of the creatures" (it stays with the player's actions and feeding).

A move names whose it is (``seat``): the table lets only that seat's own phone make it, or the
shared tablet while no phone plays that seat (docs/engine.md, "Who answers"). It asks nothing in the middle
of another question: an imp taken from a stack of several names the one on top (``imp``).
The white cubes of a sealed bid are in the player's hand until the reveal, so while a bid is
sealed that player's white cubes pay for nothing (refused without saying how many are bid).
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.engine.errors import IllegalInput
from companion.engine.prompts import Prompt

from .context import ENERGY, Ctx
from .menu import Entry, trades
from .trade import IMP_KEY, TRADES

#: The moves open at any moment: what the rulebook's "at any moment" covers, and a change made by
#: hand (an imp's help said on the tablet).
ANYTIME = ("trade", "trade-imp", "exchange-imp", "use-imp", "horror", "adjust")


def any_moment(ctx: Ctx, move: object) -> None:
    """Make ``move`` now, or IllegalInput saying why not (the engine then undoes whatever it began)."""
    if not isinstance(move, Mapping):
        raise IllegalInput(f"a move at any moment is an object, e.g. {{\"action\": \"trade\", \"seat\": \"p1\", "
                           f"\"pay\": {{...}}, \"take\": ...}}, not {move!r}")
    name = move.get("action")
    if name == "buy":
        raise IllegalInput("buying a creature is for your turn (\"At any moment of your turn (including during "
                           "feeding)\"): buy it with your actions or while feeding")
    if name not in ANYTIME:
        raise IllegalInput(f"no move {name!r} at any moment (the moves: {', '.join(ANYTIME)})")
    seat = move.get("seat")
    if not isinstance(seat, str) or seat not in ctx.state.players:
        raise IllegalInput(f"name the player whose move it is with 'seat' ({', '.join(ctx.state.order)}), "
                           f"not {seat!r}")
    _bid_kept(ctx, seat, move)
    _no_draw_under_way(ctx, move)
    flow = TRADES[str(name)](ctx, seat, move)
    try:
        asked = next(flow)
    except StopIteration:
        return
    flow.close()
    raise IllegalInput(_unasked(ctx, asked))


def offered(ctx: Ctx, seat: str) -> list[Entry]:
    """The moves a player's phone offers at any moment, as buttons: the menu's trades at the bank, horror-cube
    actions and imps, less buying (not at any moment) and taking an imp (the move would have to name the one on
    top), and less what a sealed bid's white cubes would pay for. Each entry is the move to send, with its seat."""
    if ctx.state.outcome is not None:
        return []
    found = []
    for entry in trades(ctx, seat):
        if entry["action"] == "buy" or takes_imp(ctx, entry):
            continue
        move = {**entry, "seat": seat}
        try:
            _bid_kept(ctx, seat, move)
        except IllegalInput:
            continue
        found.append(move)
    return found


def takes_imp(ctx: Ctx, move: Mapping[str, object]) -> bool:
    """Whether a move takes an imp from a stack (for three cubes, or a help card's horror-cube action)."""
    action = move.get("action")
    kinds = {a.id: a.kind for a in ctx.pack.horror}
    return action == "trade-imp" or (action == "horror" and kinds.get(str(move.get("id"))) == "imp")


def _bid_kept(ctx: Ctx, seat: str, move: Mapping[str, object]) -> None:
    """While ``seat``'s bid is sealed, its white cubes are in the hand: they neither pay nor go."""
    duel = ctx.state.duel
    if duel is None or duel.step != "bid" or seat not in duel.bids_in:
        return
    pay, cubes = move.get("pay"), move.get("cubes")
    paying = isinstance(pay, Mapping) and pay.get(ENERGY, 0) not in (0, None)
    taking = isinstance(cubes, Mapping) and isinstance(cubes.get(ENERGY), int) and int(str(cubes[ENERGY])) < 0
    if paying or taking:
        raise IllegalInput(f"{ctx.name(seat)} has a sealed bid: white cubes stay in the hand until the bids are "
                           "revealed (pay with fear cubes, or after the reveal)")


def _no_draw_under_way(ctx: Ctx, move: Mapping[str, object]) -> None:
    """No imp is taken while the box asks which imp lies on top of a stack: the answer would name one gone."""
    if takes_imp(ctx, move) and ctx.state.drawing is not None:
        raise IllegalInput(f"the box is asking which imp is on top of the {ctx.pack.element(ctx.state.drawing).name} "
                           "stack: take an imp once that is answered")


def _unasked(ctx: Ctx, asked: Prompt) -> str:
    """Why a move that would ask a question is refused, saying what to name instead."""
    if asked.key == IMP_KEY:
        return (f"say which imp is on top of the stack with 'imp' ({', '.join(asked.option_ids())}): "
                f"{asked.text}")
    return f"this move asks {asked.text!r}: make it when the box asks for your actions"


__all__ = ["ANYTIME", "any_moment", "offered"]
