"""Each player's actions in the district where their pawn stands (rulebook, "Actions"), in
turn from the starting player, once every duel is over: collecting, scaring and summoning an
imp (these two only on districts with their icon), and the trades of trade.py. "Ending each
of your actions in the chosen district, always place a STOP marker there."

The district's benefits belong to a player alone in it ("only one person may be in it"):
after the duels that is everyone, but a loser with nowhere to withdraw to (readings.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.prompts import Prompt, faces

from .context import ENERGY, Ctx, dice_words
from .scaring import cost_of, horror_of, spends
from .trade import TRADES, Handler, instant, take_imp

ACTIONS_KEY, SCARE_ROLL_KEY, SCARE_SPEND_KEY = "actions", "scare-roll", "scare-spend"
ONCE = ("collect", "scare", "summon-imp")  # a round's district actions (scaring and imps: readings.py)


def take_actions(ctx: Ctx) -> Flow[None]:
    state = ctx.state
    state.phase, state.done = "actions", {}
    for seat in state.from_starting():
        state.acting = seat
        while True:
            answer = yield Prompt("action", ACTIONS_KEY, f"{ctx.name(seat)}: your actions in "
                                  f"{ctx.place(ctx.player(seat).at)}.", player=seat)
            assert isinstance(answer, Mapping)
            if answer.get("action") == "done":
                break
            yield from act(ctx, seat, answer)
        _stop(ctx, seat)
    state.acting = None


def act(ctx: Ctx, seat: str, answer: Mapping[str, object]) -> Flow[None]:
    name = str(answer.get("action"))
    handler = HANDLERS.get(name)
    if handler is None:
        raise IllegalInput(f"no action {name!r} now (the actions: {', '.join([*HANDLERS, 'done'])})")
    if name in ONCE:
        _once(ctx, seat, name)
    yield from handler(ctx, seat, answer)


def _once(ctx: Ctx, seat: str, name: str) -> None:
    why = why_not(ctx, seat, name)
    if why:
        raise IllegalInput(why)
    ctx.state.done.setdefault(seat, []).append(name)


def why_not(ctx: Ctx, seat: str, name: str) -> str:
    """Why a district action (collect, scare, summon an imp) is not open to ``seat`` now ("" if it is). A
    duel's loser who had nowhere to withdraw stays and takes nothing; the winner beside them takes the district."""
    repeatable = ctx.reading("scare_once") == "any" and name != "collect"
    if name in ctx.state.done.get(seat, []) and not repeatable:
        return f"{ctx.name(seat)} has already done that this round ({name})"
    place = ctx.player(seat).at
    if seat in ctx.state.barred:
        return (f"{ctx.name(seat)} lost a duel in {ctx.place(place)} with nowhere to withdraw: they stay and take "
                "nothing")
    if [other for other in ctx.state.on(place) if other != seat and other not in ctx.state.barred]:
        return f"{ctx.name(seat)} is not alone in {ctx.place(place)}: its benefits are for a player alone there"
    return ""


def _stop(ctx: Ctx, seat: str) -> None:
    place = ctx.player(seat).at
    ctx.state.stops.setdefault(place, []).append(seat)
    ctx.sink.emit("stop", f"{ctx.name(seat)} puts a STOP marker on {ctx.place(place)}.", seat=seat, place=place)


def district_element(ctx: Ctx, seat: str, answer: Mapping[str, object]) -> str:
    """The element of the district's fear cubes ("Each district produces fear cubes (in one of four colours)"):
    nothing to choose; an answer that names another is refused."""
    element = ctx.tile_at(seat).element
    if answer.get("element", element) != element:
        raise IllegalInput(f"{ctx.place(ctx.player(seat).at)} has {ctx.pack.colour(element)} cubes ({element}), "
                           f"not {answer.get('element')!r}")
    return element


# -- collecting ------------------------------------------------------------------------------------------------

def collect(ctx: Ctx, seat: str, answer: Mapping[str, object]) -> None:
    place = ctx.player(seat).at
    found = {e: n for e, n in ctx.state.cubes.pop(place, {}).items() if n}
    for element, n in found.items():
        ctx.give(seat, element, n)
    ctx.sink.emit("collected", f"{ctx.name(seat)} takes {ctx.cube_words(found)} from {ctx.place(place)}.",
                  seat=seat, place=place, cubes=found)


# -- scaring ----------------------------------------------------------------------------------------------------

def scare(ctx: Ctx, seat: str, answer: Mapping[str, object]) -> Flow[None]:
    if not ctx.tile_at(seat).scare:
        raise IllegalInput(f"{ctx.place(ctx.player(seat).at)} has no scaring icon")
    creatures = ctx.player(seat).creatures
    if not creatures:
        raise IllegalInput(f"{ctx.name(seat)} has no creatures to scare with")
    element, strength = district_element(ctx, seat, answer), ctx.strength(seat)
    rolled = yield Prompt("roll", SCARE_ROLL_KEY, f"{ctx.name(seat)} scares in {ctx.place(ctx.player(seat).at)}: "
                          f"roll {dice_words(len(creatures))} against strength {strength}.", player=seat, die="d6",
                          count=len(creatures), context={"strength": strength})
    dice = [int(str(f)) for f in faces(rolled)]
    ctx.sink.emit("scare-dice", f"{ctx.name(seat)} rolled {', '.join(map(str, dice))} (total {sum(dice)}, "
                  f"strength {strength}).", seat=seat, dice=dice)
    final = yield from _spend(ctx, seat, dice, strength)
    _scared(ctx, seat, element, dice, final, strength)


def _spend(ctx: Ctx, seat: str, dice: list[int], strength: int) -> Flow[list[int]]:
    helper = {key: [s.to_plain() for s in ways] for key, ways in spends(dice, strength, ctx.pack.scaring).items()}
    answer = yield Prompt("action", SCARE_SPEND_KEY, f"{ctx.name(seat)}: change dice with energy cubes (1 per "
                          "point), or keep them.", player=seat,
                          context={"rolled": dice, "strength": strength, "energy": ctx.player(seat).energy,
                                   "spends": helper})
    assert isinstance(answer, Mapping)
    if answer.get("action") == "keep":
        return dice
    final = answer.get("dice")
    if not isinstance(final, list) or len(final) != len(dice) or \
            not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in final):
        raise IllegalInput(f"give the {len(dice)} dice as they end, each 1 to 6, in the order rolled")
    cost = cost_of(dice, final)
    if cost > ctx.player(seat).energy:
        raise IllegalInput(f"these changes cost {cost} energy cubes; {ctx.name(seat)} has {ctx.player(seat).energy}")
    return list(final)


def _scared(ctx: Ctx, seat: str, element: str, dice: list[int], final: list[int], strength: int) -> None:
    cost = cost_of(dice, final)
    ctx.take(seat, ENERGY, cost)
    row = ctx.pack.scare_row(sum(final) - strength)
    cubes = row.cubes if row else 0
    ctx.give(seat, element, cubes)
    horror = ctx.horror(seat, horror_of(final))
    spent = f"spends {cost} energy cube{'s' if cost != 1 else ''} for {', '.join(map(str, final))}, " if cost else ""
    guess = bool(row and row.guess)
    ctx.sink.emit("scared", f"{ctx.name(seat)} {spent}total {sum(final)} against {strength}: "
                  f"{ctx.cube_words({element: cubes})} from the bank" + _horror_words(horror) + "." +
                  (" (The help card's row for this is our guess: correct it on the game-data page.)" if guess else ""),
                  seat=seat, dice=final, cubes={element: cubes}, horror=horror, energy=cost, guess=guess)


def _horror_words(change: int) -> str:
    if change > 0:
        return f", and {change} horror cube{'s' if change != 1 else ''}"
    return f", and {-change} horror cube{'s' if change != -1 else ''} back to the bank" if change else ""


# -- summoning an imp ---------------------------------------------------------------------------------------------

def summon_imp(ctx: Ctx, seat: str, answer: Mapping[str, object]) -> Flow[None]:
    if not ctx.tile_at(seat).summon:
        raise IllegalInput(f"{ctx.place(ctx.player(seat).at)} has no imp icon")
    yield from take_imp(ctx, seat, district_element(ctx, seat, answer), answer.get("imp"))


HANDLERS: dict[str, Handler] = {"collect": instant(collect), "scare": scare, "summon-imp": summon_imp, **TRADES}

__all__ = ["ACTIONS_KEY", "HANDLERS", "why_not", "SCARE_ROLL_KEY", "SCARE_SPEND_KEY", "act", "district_element",
           "take_actions"]
