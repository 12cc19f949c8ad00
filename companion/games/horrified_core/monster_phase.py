"""The Monster Phase: draw a card, then Items, Event, Monster Attack, in that
order (RL-MP-1, RL-MP-2), the attack line read left to right (RL-MP-4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.prompts import Option, Prompt
from companion.engine.words import ended

from .context import GameContext, GameEnded
from .events import ask_order, in_chosen_order, monsters_with, resolve_event
from .items import draw_item, place_item
from .monsters import Actor, MonsterRules
from .pack_types import FRENZY, AttackLine, MonsterCard, Pack
from companion.games.datafiles import PackError
from .packfiles import parse_entered_card


@dataclass(frozen=True)
class PhasePoint:
    """Where a Monster Phase stands at one of its boundaries (``EffectSink.boundary``): its card
    drawn, its items and Event done, the attack line going on at its ``symbol`` (an index), with
    ``actors`` the ones of that symbol still to act, in their order (None: that symbol's actors
    are still to be found and ordered). The state and this point are all the rest of the phase
    needs, so it can go on from a copy of them (``monster_phase(ctx, at=...)``)."""

    card: str
    symbol: int = 0
    actors: tuple[Actor, ...] | None = None


def monster_phase(ctx: GameContext, at: PhasePoint | None = None) -> Flow[None]:
    """The whole phase, or (``at``) the rest of it from one of its boundaries."""
    if at is None:
        ctx.state.phase = "monster"
        if ctx.state.bonuses.skips_monster_phase():
            ctx.emit("monster-phase-skipped", "No Monster Phase this turn: no card is drawn.")
            return
        card = yield from draw_card(ctx)
        for number in range(card.items):
            item = yield from draw_item(ctx, f"item {number + 1} of {card.items} for {card.name}")
            if item is not None:
                place_item(ctx, item)
        yield from resolve_event(ctx, card.event)
    else:
        card = ctx.pack.card(at.card)
    yield from resolve_attack_line(ctx, card.attack, card, at)
    ctx.state.played_cards.append(card.id)
    ctx.emit("card-discarded", f"Put {card.name} face up on the Monster discard pile.", card=card.id)


def draw_card(ctx: GameContext) -> Flow[MonsterCard]:
    """Which card came off the deck is an input (not asked when only one card can come); an empty
    deck loses the game (RL-END-3)."""
    if not ctx.state.deck:
        raise GameEnded("lost: out of time", "a Monster card had to be drawn but the deck is empty")
    options = _card_options(ctx)
    if _guessed_left(ctx):
        options.append(Option(ENTER_CARD, "My card is not in this list: enter it"))
    answer = yield from ctx.ask_draw("monster-card", "Draw the top Monster card. Which card is it?", options,
                                     {"left": len(ctx.state.deck)})
    card = (yield from enter_card(ctx)) if answer == ENTER_CARD else _take_listed(ctx, answer)
    ctx.emit("card-drawn", ended(f"Monster card: {card.name}"), card=card.id, left=len(ctx.state.deck))
    return card


ENTER_CARD = "enter-card"


def _card_options(ctx: GameContext) -> list[Option]:
    """One option per different card left: copies of one card (same name, items, Event and
    attack line) are one choice for the player, as identical item tokens are; the option
    says how many copies it stands for."""
    facts = _card_facts(ctx.pack)
    first: dict[str, str] = {}
    count: dict[str, int] = {}
    for card_id in sorted(ctx.state.deck, key=lambda c: (facts[c].name, c)):
        first.setdefault(facts[card_id].copies, card_id)
        count[facts[card_id].copies] = count.get(facts[card_id].copies, 0) + 1
    return [Option(card_id, facts[card_id].name, _copies(count[kind])) for kind, card_id in first.items()]


def _copies(count: int) -> dict[str, object]:
    """How many cards of the deck one option stands for (a random draw weighs it so)."""
    return {"copies": count} if count > 1 else {}


@dataclass(frozen=True)
class _CardFacts:
    name: str
    copies: str  # what copies of one card share: name, items, Event, attack line
    verified: bool


def _card_facts(pack: Pack) -> Mapping[str, _CardFacts]:
    """What the draw question needs of each card, worked out once per pack (a card is drawn
    about thirty times a game, and every replay asks again)."""
    memo = pack.memo("draw")
    found = memo.get("card-facts")
    if not isinstance(found, dict):
        found = memo["card-facts"] = {
            c.id: _CardFacts(c.name, repr((c.name, c.items, c.event, c.attack)), c.verified) for c in pack.cards}
    return found


def _take_listed(ctx: GameContext, card_id: str) -> MonsterCard:
    ctx.state.deck.remove(card_id)
    return ctx.pack.card(card_id)


def _guessed_left(ctx: GameContext) -> list[str]:
    """Cards still in the deck that are only the pack's guess (a typed-in card replaces one)."""
    facts = _card_facts(ctx.pack)
    return sorted(c for c in ctx.state.deck if not facts[c].verified)


def enter_card(ctx: GameContext) -> Flow[MonsterCard]:
    """The card builder: the players type in a card the pack does not list.

    The card lives in the game log (so replay and undo know it); it takes the
    place of one of the pack's guessed cards, so the deck still counts right for
    the out-of-time rule (RL-MP-1).
    """
    answer = yield Prompt("action", "card-builder", "Enter the card you drew: its name, items, Event and attack line.",
                          ctx.active_player, context={"symbols": [FRENZY, *ctx.edition.pack_spec.symbols],
                                                      "event_kinds": ["none", "manual", "place_villager"]})
    assert isinstance(answer, Mapping)
    card_id = f"entered-{len(ctx.state.entered_cards) + 1}"
    try:
        card = parse_entered_card(ctx.edition.pack_spec, ctx.pack, answer.get("card"), card_id)
    except PackError as problem:
        raise IllegalInput(f"this card cannot be used: {'; '.join(problem.problems)}") from None
    replaced = _guessed_left(ctx)[-1]
    ctx.state.deck.remove(replaced)
    ctx.state.entered_cards[card_id] = dict(answer["card"])
    ctx.emit("card-entered", f"{card.name} is noted; it replaces one of the guessed cards in the deck count.",
             card=card_id, name=card.name, replaces=replaced, fields=dict(answer["card"]))
    return card


def resolve_attack_line(ctx: GameContext, line: AttackLine, card: MonsterCard | None = None,
                        at: PhasePoint | None = None) -> Flow[None]:
    """``card``: the card the line is printed on, for an edition whose Event monster does not strike;
    ``at``: where the line goes on (from its start without). Each symbol and each actor's
    activation is a boundary, for a card of the pack (a card typed in at the table is not)."""
    start = at or PhasePoint(card.id if card else "")
    marks = card is not None and ctx.pack.has("card", card.id)
    for index in range(start.symbol, len(line.symbols)):
        ordered = start.actors if index == start.symbol else None
        if ordered is None:
            if marks:
                ctx.sink.boundary(ctx.state, PhasePoint(start.card, index))
            found = yield from _symbol_actors(ctx, line, index, card)
            ordered = tuple(found)
        for number, actor in enumerate(ordered):
            if marks:
                ctx.sink.boundary(ctx.state, PhasePoint(start.card, index, ordered[number:]))
            yield from _rules(ctx, actor).activate(ctx, actor, line.move, line.dice)


def _symbol_actors(ctx: GameContext, line: AttackLine, index: int, card: MonsterCard | None) -> Flow[list[Actor]]:
    """The actors of the line's ``index``-th symbol, in the order they act (none: it is skipped)."""
    symbol = line.symbols[index]
    actors = actors_for(ctx, symbol, card)
    if not actors:
        ctx.emit("symbol-ignored", _ignored_text(ctx, symbol), symbol=symbol)
        return []
    ctx.emit("symbol", f"Attack line: {symbol} symbol.", symbol=symbol,
             monsters=sorted({a.monster for a in actors}))
    return (yield from _order_actors(ctx, actors, symbol, line))


def actors_for(ctx: GameContext, symbol: str, card: MonsterCard | None = None) -> list[Actor]:
    """Frenzy: the frenzied monster; a symbol: every monster in play showing it, as the edition lets it
    strike on ``card`` (an actor that only moves has ``attacks`` False)."""
    if symbol == FRENZY:
        chosen = [ctx.state.frenzy] if ctx.state.frenzy else []
    else:
        chosen = [m.id for m in ctx.state.monsters_in_play() if symbol in ctx.monster(m.id).symbols]
    actors: list[Actor] = []
    for monster_id in chosen:
        strike = "none" if ctx.state.monsters[monster_id].defeated else ctx.edition.strikes(ctx, monster_id, symbol, card)
        if strike != "none":
            found = ctx.monster_rules[monster_id].actors_on(ctx, symbol)
            actors.extend(found if strike == "move and attack" else [replace(a, attacks=False) for a in found])
    return actors


def _order_actors(ctx: GameContext, actors: list[Actor], symbol: str, line: AttackLine) -> Flow[list[Actor]]:
    """The active player orders only the actors whose order can change what happens (RL-MP-5):
    one that cannot act whatever the others do (no character it could reach or attack) goes last
    without a question."""
    carriers = any(_rules(ctx, a).carries_characters for a in actors)
    able = [a for a in actors if _rules(ctx, a).could_act(ctx, a, carriers)]
    idle = [a for a in actors if a not in able]
    by_key = {f"{a.monster}/{a.role}": a for a in able}
    if len(by_key) <= 1:
        return list(by_key.values()) + idle
    labels = {k: a.label for k, a in by_key.items()}
    previews = labels if ctx.quiet else {k: _rules(ctx, a).preview(ctx, a, line.move, line.dice)
                                         for k, a in by_key.items()}
    order = yield from ask_order(ctx, "monster-order", f"Several monsters act on the {symbol} symbol", labels, previews)
    return [by_key[k] for k in order] + idle


def _rules(ctx: GameContext, actor: Actor) -> MonsterRules:
    return ctx.monster_rules[actor.monster]


def _ignored_text(ctx: GameContext, symbol: str) -> str:
    if symbol == FRENZY:
        return "Frenzy symbol, but no monster is frenzied: nothing happens."
    showing = [ctx.monster(m).name for m in monsters_with(ctx, symbol)]
    if showing:  # the edition holds them back on this card
        return f"{' and '.join(showing)} {'does' if len(showing) == 1 else 'do'} not strike on this card: skip it."
    return f"No monster in play has the {symbol} symbol: skip it."


__all__ = ["PhasePoint", "monster_phase", "resolve_attack_line", "actors_for", "draw_card", "in_chosen_order"]
