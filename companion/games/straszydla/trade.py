"""What a player may do with their resources whenever the box asks them for actions (their
turn of actions, their feeding): trade and exchange at the bank, buy a creature, use or
exchange an imp, spend horror cubes, and say what they changed by hand.

Rulebook, "Trade and Exchange": "You may exchange all cubes except horror cubes ... discard
3 cubes of your choice to the bank and take one cube of a colour of your choice", or "take
an imp from the top of any stack", or pay "the sum of the day and night strength of the
creature on top of any stack" for it. "Buying a Creature": the same payment, and "the new
creature brings with it a number of energy cubes equal to its strength in the current
time of day". Imps: "You may exchange each imp for one fear cube"; "After using an imp,
place it at the bottom of the appropriate stack". Horror cubes: "Discard horror cubes to
the resource bank and perform an action" (the help card's table, packdata.HorrorAction).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Callable

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.prompts import Option, Prompt

from .context import ENERGY, Ctx, payment_of

TRADE_COST = 3
IMP_KEY, CREATURE_KEY = "imp-top", "creature-top"
Handler = Callable[[Ctx, str, Mapping[str, object]], Flow[None]]
Work = Callable[[Ctx, str, Mapping[str, object]], None]


def instant(work: Work) -> Handler:
    """An action that asks nothing more, as a flow like the ones that do (a die, an imp drawn)."""
    def flow(ctx: Ctx, seat: str, answer: Mapping[str, object]) -> Flow[None]:
        work(ctx, seat, answer)
        return
        yield  # a generator, never reached
    return flow


def _keys(ctx: Ctx) -> set[str]:
    return {e.id for e in ctx.pack.elements} | {ENERGY}


def _element(ctx: Ctx, value: object, what: str) -> str:
    known = [e.id for e in ctx.pack.elements]
    if value not in known:
        raise IllegalInput(f"{what}: name an element ({', '.join(known)}), not {value!r}")
    return str(value)


def trade(ctx: Ctx, seat: str, answer: Mapping[str, object]) -> None:
    take = answer.get("take")
    if take != ENERGY:
        take = _element(ctx, take, "take")
    ctx.pay(seat, payment_of(answer.get("pay"), _keys(ctx)), TRADE_COST, "a cube from the bank")
    ctx.give(seat, str(take), 1)
    ctx.sink.emit("traded", f"{ctx.name(seat)} trades {ctx.cube_words(_paid(answer))} for "
                  f"{ctx.cube_words({str(take): 1})}.", seat=seat)


def trade_imp(ctx: Ctx, seat: str, answer: Mapping[str, object]) -> Flow[None]:
    element = _element(ctx, answer.get("element"), "element")
    imp_stack(ctx, element)
    ctx.pay(seat, payment_of(answer.get("pay"), _keys(ctx)), TRADE_COST, "an imp")
    ctx.sink.emit("traded", f"{ctx.name(seat)} pays {ctx.cube_words(_paid(answer))} for an imp.", seat=seat)
    yield from take_imp(ctx, seat, element, answer.get("imp"))


def _paid(answer: Mapping[str, object]) -> dict[str, int]:
    paid = answer.get("pay")
    return {str(k): int(str(v)) for k, v in paid.items()} if isinstance(paid, Mapping) else {}


def imp_stack(ctx: Ctx, element: str) -> list[str]:
    """The imps of an element's stack, or IllegalInput when none is left (nothing to take)."""
    stack = ctx.state.imp_stacks.get(element)
    if not stack:
        raise IllegalInput(f"the {ctx.pack.element(element).name} imp stack is empty: no imp to take")
    return stack


def take_imp(ctx: Ctx, seat: str, element: str, named: object = None) -> Flow[None]:
    """The imp on top of a stack (face up: the players say which it is, unless only one is left;
    ``named``: the answer already says)."""
    stack = imp_stack(ctx, element)
    imp = stack[0]
    if named is not None:
        if named not in stack:
            raise IllegalInput(f"no imp {named!r} in the {ctx.pack.element(element).name} stack "
                               f"({', '.join(dict.fromkeys(stack))})")
        imp = str(named)
    elif len(stack) > 1:
        ctx.state.drawing = element
        chosen = yield Prompt("draw", IMP_KEY, f"Which imp is on top of the {ctx.pack.element(element).name} stack?",
                              player=seat, options=tuple(Option(i, ctx.pack.imp(i).name) for i in dict.fromkeys(stack)))
        ctx.state.drawing, imp = None, str(chosen)
    stack.remove(imp)
    ctx.player(seat).imps.append(imp)
    ctx.sink.emit("imp-taken", f"{ctx.name(seat)} takes the imp {ctx.pack.imp(imp).name}.", seat=seat, imp=imp)


def buy(ctx: Ctx, seat: str, answer: Mapping[str, object]) -> None:
    creature = str(answer.get("creature"))
    element = stack_of(ctx, creature)
    record = ctx.pack.creature(creature)
    ctx.pay(seat, payment_of(answer.get("pay"), _keys(ctx)), record.price, f"{record.name}")
    take_from_stack(ctx, element, creature)
    arrives(ctx, seat, creature, f"{ctx.name(seat)} buys {record.name} for {ctx.cube_words(_paid(answer))}")


def stack_of(ctx: Ctx, creature: str) -> str:
    """The stack ``creature`` can be taken from now (the top of it), or IllegalInput."""
    for element, stack in ctx.state.stacks.items():
        if creature == stack.top or (stack.top is None and creature in stack.rest):
            return element
    raise IllegalInput(f"{creature!r} is not on top of a creature stack")


def take_from_stack(ctx: Ctx, element: str, creature: str) -> None:
    stack = ctx.state.stacks[element]
    if stack.top == creature:
        stack.top = None
    else:
        stack.rest.remove(creature)


def arrives(ctx: Ctx, seat: str, creature: str, what: str) -> None:
    """A creature joins a player, bringing energy cubes equal to its strength now."""
    record = ctx.pack.creature(creature)
    energy = record.strength(ctx.state.time)
    player = ctx.player(seat)
    player.creatures.append(creature)
    player.energy += energy
    ctx.sink.emit("creature-arrived", f"{what}; it brings {energy} white energy cube{'s' if energy != 1 else ''}.",
                  seat=seat, creature=creature, energy=energy)


def _held_imp(ctx: Ctx, seat: str, answer: Mapping[str, object]) -> str:
    imp = answer.get("imp")
    if imp not in ctx.player(seat).imps:
        raise IllegalInput(f"{ctx.name(seat)} holds no imp {imp!r}")
    return str(imp)


def _imp_back(ctx: Ctx, seat: str, imp: str) -> None:
    ctx.player(seat).imps.remove(imp)
    ctx.state.imp_stacks[ctx.pack.imp(imp).element].append(imp)


def exchange_imp(ctx: Ctx, seat: str, answer: Mapping[str, object]) -> None:
    imp = _held_imp(ctx, seat, answer)
    own = ctx.pack.imp(imp).element
    element = own if ctx.reading("imp_exchange") == "imp-element" else _element(ctx, answer.get("element"), "element")
    _imp_back(ctx, seat, imp)
    ctx.give(seat, element, 1)
    ctx.sink.emit("imp-exchanged", f"{ctx.name(seat)} exchanges {ctx.pack.imp(imp).name} for "
                  f"{ctx.cube_words({element: 1})} (the imp goes to the bottom of its stack).", seat=seat, imp=imp)


def use_imp(ctx: Ctx, seat: str, answer: Mapping[str, object]) -> None:
    imp = _held_imp(ctx, seat, answer)
    _imp_back(ctx, seat, imp)
    card = ctx.pack.imp(imp)
    ctx.sink.emit("imp-used", f"{ctx.name(seat)} uses {card.name}: {card.text} It goes to the bottom of its stack; "
                  "say on the tablet what it changed.", seat=seat, imp=imp)


def horror_action(ctx: Ctx, seat: str, answer: Mapping[str, object]) -> Flow[None]:
    try:
        action = ctx.pack.horror_action(str(answer.get("id")))
    except KeyError:
        raise IllegalInput(f"no horror-cube action {answer.get('id')!r} on the help card") from None
    if action.kind == "feed-free":
        raise IllegalInput(f"{action.name}: only while feeding")
    element = _element(ctx, answer.get("element"), "element") if action.kind in ("fear-cube", "imp") else ""
    if action.kind == "imp":
        imp_stack(ctx, element)  # refused before a horror cube is paid
    _pay_horror(ctx, seat, action.cost, action.name)
    if action.kind == "fear-cube":
        ctx.give(seat, element, action.amount)
    elif action.kind == "energy":
        ctx.give(seat, ENERGY, action.amount)
    elif action.kind == "imp":
        yield from take_imp(ctx, seat, element, answer.get("imp"))
    ctx.sink.emit("horror-action", f"{ctx.name(seat)} discards {action.cost} horror cubes: {action.name}.",
                  seat=seat, action=action.id)


def _pay_horror(ctx: Ctx, seat: str, cost: int, what: str) -> None:
    player = ctx.player(seat)
    if player.horror < cost:
        raise IllegalInput(f"{what} costs {cost} horror cubes; {player.name} has {player.horror}")
    player.horror -= cost


def adjust(ctx: Ctx, seat: str, answer: Mapping[str, object]) -> None:
    """A change made by hand (an imp's help, a card the box does not play), said on the tablet."""
    changes = answer.get("cubes", {})
    if not isinstance(changes, Mapping) or not changes:
        raise IllegalInput("say which cubes changed, e.g. {\"cubes\": {\"fire\": 1, \"horror\": -1}}")
    player = ctx.player(seat)
    for key, n in changes.items():
        if key not in _keys(ctx) | {"horror"} or isinstance(n, bool) or not isinstance(n, int):
            raise IllegalInput(f"{key!r}: a change is a whole number of fear, energy or horror cubes")
        held = player.horror if key == "horror" else player.energy if key == ENERGY else player.fear(str(key))
        if held + n < 0:
            raise IllegalInput(f"{player.name} has {held} {key} cubes: cannot take {-n}")
    for key, n in changes.items():
        if key == "horror":
            player.horror += int(n)
        else:
            ctx.give(seat, str(key), int(n))
    ctx.sink.emit("adjusted", f"By hand: {player.name}'s cubes change ({', '.join(f'{k} {n:+d}' for k, n in changes.items())}).",
                  seat=seat, cubes=dict(changes))


#: The actions open whenever the box asks a player for actions or for feeding.
TRADES: dict[str, Handler] = {"trade": instant(trade), "trade-imp": trade_imp, "buy": instant(buy),
                              "exchange-imp": instant(exchange_imp), "use-imp": instant(use_imp),
                              "horror": horror_action, "adjust": instant(adjust)}

__all__ = ["CREATURE_KEY", "IMP_KEY", "TRADES", "TRADE_COST", "Handler", "arrives", "buy", "imp_stack",
           "stack_of", "take_from_stack", "take_imp"]
