"""The end of a time of day (rulebook, "Summoning and Feeding" and "Who Wins"): the
creatures are fed, new ones are summoned from the districts where the players finished,
and the box checks, in secret, whether anyone has fulfilled their pact.

Feeding: "A creature feeds on fear cubes of its matching colour. How many fear cubes you
must provide depends on its strength" in this time of day; a 3/3 creature of all four
elements takes cubes of any one colour; "If you do not have enough cubes to feed a
creature, discard that creature from the game"; trading and buying stay open meanwhile,
and a help-card action feeds one for horror cubes (4, in the rulebook's example).

Summoning: "The starting player goes first. They take the first creature card from the
stack with the matching element", and energy cubes equal to its strength now.

Winning: "the player who first fulfils the condition they drew, namely feeding, at the end
of a time of day or night, the creatures needed": five creatures fed now whose elements
match the five symbols of their pact, each creature standing for one symbol. The box says
only who won; nobody's pact is shown but the winner's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.prompts import Option, Prompt

from .context import Ctx, horror_words
from .trade import CREATURE_KEY, TRADES, arrives, take_from_stack

FEED_KEY = "feed"


def end_of_time(ctx: Ctx) -> Flow[None]:
    if ctx.reading("end_order") == "feed-first":
        yield from feeding(ctx)
        if not check_victory(ctx):
            yield from summoning(ctx)
    else:
        yield from summoning(ctx)
        yield from feeding(ctx)
        check_victory(ctx)
    if not ctx.state.winners and ctx.reading("dead_end") == "end":
        check_dead_end(ctx)


# -- feeding ------------------------------------------------------------------------------------------------

def feeding(ctx: Ctx) -> Flow[None]:
    state = ctx.state
    state.phase, state.fed = "feeding", {seat: [] for seat in state.order}
    for seat in state.from_starting():
        state.acting = seat
        while True:
            answer = yield Prompt("action", FEED_KEY, f"{ctx.name(seat)}: feed your creatures ({ctx.state.time} "
                                  "strength); the unfed ones flee when you are done.", player=seat)
            assert isinstance(answer, Mapping)
            if answer.get("action") == "done":
                break
            yield from _feed_action(ctx, seat, answer)
        _flee(ctx, seat)
    state.acting = None


def _feed_action(ctx: Ctx, seat: str, answer: Mapping[str, object]) -> Flow[None]:
    name = answer.get("action")
    if name == "feed":
        feed(ctx, seat, _hungry(ctx, seat, answer), answer.get("element"))
    elif name == "feed-free":
        feed_free(ctx, seat, _hungry(ctx, seat, answer), answer.get("id"))
    elif isinstance(name, str) and name in TRADES:
        yield from TRADES[name](ctx, seat, answer)
    else:
        raise IllegalInput(f"no action {name!r} while feeding (feed, feed-free, {', '.join(TRADES)}, done)")


def _hungry(ctx: Ctx, seat: str, answer: Mapping[str, object]) -> str:
    creature = answer.get("creature")
    if creature not in ctx.player(seat).creatures:
        raise IllegalInput(f"{ctx.name(seat)} has no creature {creature!r}")
    if creature in ctx.state.fed[seat]:
        raise IllegalInput(f"{ctx.creature_name(str(creature))} is fed already")
    return str(creature)


def feed(ctx: Ctx, seat: str, creature: str, element: object) -> None:
    record = ctx.pack.creature(creature)
    if element not in record.elements:
        raise IllegalInput(f"{record.name} eats cubes of {', '.join(record.elements)}, not {element!r}")
    need = record.strength(ctx.state.time)
    held = ctx.player(seat).fear(str(element))
    if held < need:
        raise IllegalInput(f"{record.name} needs {ctx.cube_words({str(element): need})}; "
                           f"{ctx.name(seat)} has {held}")
    ctx.take(seat, str(element), need)
    ctx.state.fed[seat].append(creature)
    ctx.sink.emit("fed", f"{ctx.name(seat)} feeds {record.name} {ctx.cube_words({str(element): need})}.",
                  seat=seat, creature=creature)


def feed_free(ctx: Ctx, seat: str, creature: str, action_id: object) -> None:
    found = [a for a in ctx.pack.horror if a.kind == "feed-free" and a.id == action_id]
    if not found:
        raise IllegalInput(f"no horror-cube action {action_id!r} that feeds a creature")
    action, player = found[0], ctx.player(seat)
    if player.horror < action.cost:
        raise IllegalInput(f"{action.name} costs {horror_words(action.cost)}; {player.name} has {player.horror}")
    player.horror -= action.cost
    ctx.state.fed[seat].append(creature)
    ctx.sink.emit("fed", f"{player.name} discards {horror_words(action.cost)} and feeds "
                  f"{ctx.creature_name(creature)} for free.", seat=seat, creature=creature)


def _flee(ctx: Ctx, seat: str) -> None:
    player = ctx.player(seat)
    gone = [c for c in player.creatures if c not in ctx.state.fed[seat]]
    player.creatures = [c for c in player.creatures if c in ctx.state.fed[seat]]
    for creature in gone:
        ctx.sink.emit("fled", f"{ctx.creature_name(creature)} was not fed and flees: {player.name} discards it from "
                      "the game.", seat=seat, creature=creature)


# -- winning ---------------------------------------------------------------------------------------------------

def fulfils(symbols: Sequence[str], creatures: Sequence[Sequence[str]]) -> bool:
    """Whether each symbol can be matched by a different creature of that element (a matching:
    a 3/3 stands for any one symbol, not for all of them)."""
    match: dict[int, int] = {}  # creature index -> symbol index

    def place(symbol: int, seen: set[int]) -> bool:
        for n, elements in enumerate(creatures):
            if symbols[symbol] in elements and n not in seen:
                seen.add(n)
                if n not in match or place(match[n], seen):
                    match[n] = symbol
                    return True
        return False

    return all(place(symbol, set()) for symbol in range(len(symbols)))


def check_victory(ctx: Ctx) -> bool:
    state = ctx.state
    winners = [seat for seat in state.from_starting() if _fulfilled(ctx, seat)]
    if len(winners) > 1 and ctx.reading("win_tie") == "order":
        winners = winners[:1]
    if not winners:
        ctx.sink.emit("no-winner", "Nobody has fulfilled their pact yet.")
        return False
    state.winners, state.phase, state.acting = winners, "over", None
    names = " and ".join(ctx.name(s) for s in winners)
    pacts = "; ".join(f"{ctx.name(s)}'s pact: {ctx.pack.pact(str(state.players[s].pact)).name}" for s in winners)
    state.outcome = f"{names} win{'s' if len(winners) == 1 else ''}"
    ctx.sink.emit("game-won", f"{names} {'has' if len(winners) == 1 else 'have'} fulfilled "
                  f"{'their pact' if len(winners) == 1 else 'their pacts'} and win{'s' if len(winners) == 1 else ''} "
                  f"({pacts}).", winners=winners, outcome=state.outcome)
    return True


def check_dead_end(ctx: Ctx) -> bool:
    """No creature left to summon or buy, and no player's creatures can fulfil their pact: the
    game cannot be won any more (said without a word of whose pact needs what)."""
    state = ctx.state
    if any(stack.left() for stack in state.stacks.values()):
        return False
    for seat, player in state.players.items():
        pact = ctx.pack.pact(player.pact) if player.pact else None
        if pact and fulfils(pact.elements, [ctx.pack.creature(c).elements for c in player.creatures]):
            return False
    state.phase, state.outcome = "over", "nobody wins: no pact can be fulfilled any more"
    ctx.sink.emit("game-over", "Every creature stack is empty and no pact can be fulfilled with the creatures left: "
                  "the game ends with no winner.", outcome=state.outcome)
    return True


def _fulfilled(ctx: Ctx, seat: str) -> bool:
    player = ctx.player(seat)
    if player.pact is None:
        return False
    fed = [ctx.pack.creature(c).elements for c in ctx.state.fed.get(seat, []) if c in player.creatures]
    return fulfils(ctx.pack.pact(player.pact).elements, fed)


# -- summoning -----------------------------------------------------------------------------------------------------

def summoning(ctx: Ctx) -> Flow[None]:
    ctx.state.phase = "summoning"
    for seat in ctx.state.from_starting():
        ctx.state.acting = seat
        yield from summon(ctx, seat, ctx.tile_at(seat).element)  # the stack of the district's one element
    ctx.state.acting = None


def summon(ctx: Ctx, seat: str, element: str) -> Flow[None]:
    stack = ctx.state.stacks[element]
    name = ctx.pack.element(element).name
    if not stack.left():
        ctx.sink.emit("stack-empty", f"The {name} stack is empty: {ctx.name(seat)} summons nothing.", seat=seat)
        return
    creature = stack.top or stack.rest[0]
    if stack.top is None and len(stack.rest) > 1:
        chosen = yield Prompt("draw", CREATURE_KEY, f"{ctx.name(seat)} summons from the {name} stack: which creature "
                              "was on top?", player=seat,
                              options=tuple(Option(c, ctx.creature_name(c)) for c in stack.rest))
        creature = str(chosen)
    take_from_stack(ctx, element, creature)
    arrives(ctx, seat, creature, f"{ctx.name(seat)} summons {ctx.creature_name(creature)} from the {name} stack")


__all__ = ["FEED_KEY", "check_victory", "end_of_time", "feed", "feeding", "fulfils", "summoning"]
