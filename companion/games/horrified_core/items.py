"""Items and the bag they are drawn from (RL-IT-*; the edition names it, ``Edition.item_bag``;
the state calls it ``haversack``): which token came out is an input; an empty bag is
refilled from the discard pile first (RL-MP-2)."""

from __future__ import annotations

from companion.engine.game import Flow
from companion.engine.prompts import Option

from .context import GameContext


def draw_item(ctx: GameContext, why: str) -> Flow[str | None]:
    """Ask which item came out of the bag; refill it from the discard first if empty. With one token
    left (or only identical ones) there is nothing to ask: it is that token."""
    bag = ctx.edition.item_bag
    if not ctx.state.haversack:
        refill_haversack(ctx)
    if not ctx.state.haversack:
        ctx.emit("note", f"{bag[:1].upper()}{bag[1:]} and the item discard pile are both empty: no item is drawn.")
        return None
    answer = yield from ctx.ask_draw("item", f"Draw an item from {bag} ({why}). Which item is it?",
                                     haversack_options(ctx))
    ctx.state.haversack.remove(answer)
    return answer


def refill_haversack(ctx: GameContext) -> None:
    if ctx.state.item_discard:
        ctx.state.haversack.extend(sorted(ctx.state.item_discard))
        ctx.state.item_discard.clear()
        bag = ctx.edition.item_bag
        ctx.emit("haversack-refilled", f"{bag[:1].upper()}{bag[1:]} is empty: put every discarded item back in "
                                       "and shake it.")


def haversack_options(ctx: GameContext) -> list[Option]:
    """One option per different token: identical tokens are one choice for the player.

    Asked at every item draw, so the labelled options come from a cache in
    label order and are only filtered here.
    """
    inside = set(ctx.state.haversack)
    every, alike = _item_options(ctx)
    if not alike:
        return [option for option in every if option.id in inside]
    same_text: dict[str, list[Option]] = {}
    for option in every:
        if option.id in inside:
            same_text.setdefault(option.text, []).append(option)
    return [_standing_for(same) for same in same_text.values()]


def _standing_for(same: list[Option]) -> Option:
    """The first of identical tokens, saying how many it stands for (a random draw weighs it so)."""
    first = same[0]
    return first if len(same) == 1 else Option(first.id, first.text, {**first.data, "copies": len(same)})


def _item_options(ctx: GameContext) -> tuple[list[Option], bool]:
    """Every item's option in label order, and whether two tokens read alike."""
    memo = ctx.pack.memo("item-options")
    if "all" not in memo:
        labelled = sorted((ctx.pack.item_label(i.id), i.id) for i in ctx.pack.items)
        memo["all"] = ([Option(item_id, label) for label, item_id in labelled],
                       len({label for label, _ in labelled}) < len(labelled))
    found = memo["all"]
    assert isinstance(found, tuple)
    return found


def place_item(ctx: GameContext, item_id: str) -> None:
    item = ctx.pack.item(item_id)
    ctx.state.items_at[item_id] = item.location
    ctx.emit("item-placed", f"Put the {item.name} at {ctx.place_name(item.location)}.",
             item=item_id, location=item.location)


def draw_and_place(ctx: GameContext, count: int, why: str) -> Flow[None]:
    """Items drawn one by one and put at their printed locations."""
    for _ in range(count):
        item = yield from draw_item(ctx, why)
        if item is not None:
            place_item(ctx, item)


def take_item(ctx: GameContext, hero_id: str, item_id: str) -> None:
    """A drawn item goes straight into a hero's hand."""
    ctx.state.heroes[hero_id].items.append(item_id)
    ctx.emit("item-taken", f"{ctx.hero_name(hero_id)} takes the {ctx.pack.item(item_id).name}.",
             hero=hero_id, item=item_id)


def _let_go(ctx: GameContext, item_id: str) -> None:
    """The item leaves the hand holding it, or else the board (a held item lies nowhere else: the
    board's items are not looked at for it, which a forecast notes as a read)."""
    for hero in ctx.state.heroes.values():
        if item_id in hero.items:
            hero.items.remove(item_id)
            return
    ctx.state.items_at.pop(item_id, None)


def discard_item(ctx: GameContext, item_id: str, why: str) -> None:
    _let_go(ctx, item_id)
    ctx.state.item_discard.append(item_id)
    ctx.emit("item-discarded", f"Discard the {ctx.pack.item(item_id).name} ({why}).", item=item_id)


def remove_item(ctx: GameContext, item_id: str, why: str) -> None:
    """Out of the game for good: not to the discard pile, so it never goes back in the bag."""
    _let_go(ctx, item_id)
    ctx.state.removed_items.append(item_id)
    ctx.emit("item-removed", f"Put the {ctx.pack.item(item_id).name} back in the box ({why}).", item=item_id)
