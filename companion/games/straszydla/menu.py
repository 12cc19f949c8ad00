"""Concrete answers to the game's action prompts, each with a label: the tablet's buttons
(where the pack module has no form of its own), the terminal's numbered menu and the random
player's choices. A menu holds one answer per kind of choice (a payment is suggested: the
player's most plentiful fear cubes first, white ones last), not every combination.

A label that rests on a value of the data that is still our guess (a row of the scaring table, a
horror-cube action, a creature's strengths) ends with "(our guess)": "a guess is never presented
as fact", and the owner can correct it on the game-data page.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.engine.prompts import Prompt, confirmation

from .actions import ACTIONS_KEY, SCARE_SPEND_KEY, why_not
from .context import ENERGY, Ctx, a_or_an, horror_words
from .duels import BID_KEY, CHANGE_KEY, checked_change, successes
from .feeding import FEED_KEY
from .geometry import plans_to_each_end
from .planning import PLAN_KEY, plan_words
from .geometry import walk
from .trade import TRADE_COST, stack_of

Entry = dict[str, object]
OUR_GUESS = " (our guess)"


def marked(guess: bool) -> str:
    """The words a label ends with when it rests on a guessed value."""
    return OUR_GUESS if guess else ""


def menu(ctx: Ctx, prompt: Prompt, seat: str | None) -> list[Entry]:
    """The labelled answers ``seat`` may give to ``prompt`` (None: whoever answers it)."""
    answering = seat if seat is not None and (prompt.audience is None or seat in prompt.audience) else \
        (prompt.player or (prompt.still_to_answer() or (None,))[0])
    build = MENUS.get(prompt.key)
    return build(ctx, prompt, answering) if build is not None and answering is not None else []


def _plans(ctx: Ctx, prompt: Prompt, seat: str) -> list[Entry]:
    at = ctx.player(seat).at
    jump_last = ctx.reading("jump_last") == "yes"
    found = plans_to_each_end(ctx.geometry, at, jump_last)
    entries: list[Entry] = []
    for end in sorted(found, key=ctx.place):
        laid = walk(ctx.geometry, at, list(found[end]), jump_last)
        entries.append({"action": "plan", "moves": list(found[end]), "label": f"Plan {plan_words(ctx, laid)}"})
    return entries


def _bids(ctx: Ctx, prompt: Prompt, seat: str) -> list[Entry]:
    return [{"action": "bid", "energy": n, "label": f"Bid {n} energy cube{'s' if n != 1 else ''}"}
            for n in range(ctx.player(seat).energy + 1)]


def _changes(ctx: Ctx, prompt: Prompt, seat: str) -> list[Entry]:
    duel = ctx.state.duel
    entries: list[Entry] = [{"action": "keep", "label": "Keep the dice as they are"}]
    if duel is None:
        return entries
    best = cheapest_win(ctx, seat, int(str(prompt.context.get("budget", 0))))
    if best is not None:
        entries.insert(0, {"action": "change", "dice": best, "label": "Change the dice to win: " + "; ".join(
            f"{ctx.name(s)} {', '.join(map(str, best[s]))}" for s in duel.sides)})
    return entries


def cheapest_win(ctx: Ctx, seat: str, budget: int) -> dict[str, list[int]] | None:
    """The dice that win the duel for ``seat`` moving the fewest points (within ``budget``): its own
    dice raised, the other's lowered, one point at a time, best pair first."""
    duel = ctx.state.duel
    assert duel is not None
    own_only = ctx.reading("bid_dice") == "own"
    dice = {s: list(d) for s, d in duel.dice.items()}
    for _ in range(budget + 1):
        if _wins(ctx, seat, dice):
            return dice if checked_change(duel, seat, dice, budget, own_only) else None
        if not _nudge(seat, duel.sides, dice, own_only):
            return None
    return None


def _wins(ctx: Ctx, seat: str, dice: dict[str, list[int]]) -> bool:
    duel = ctx.state.duel
    assert duel is not None
    a, b = duel.sides
    mine, theirs = successes(dice[a], dice[b])
    return (mine > theirs) if seat == a else (theirs > mine)


def _nudge(seat: str, sides: tuple[str, str], dice: dict[str, list[int]], own_only: bool) -> bool:
    """One point where it counts most: the first pair ``seat`` does not win, its die up (or the other's down)."""
    other = sides[1] if seat == sides[0] else sides[0]
    mine, theirs = dice[seat], dice[other]
    for n in range(max(len(mine), len(theirs))):
        x, y = (mine[n] if n < len(mine) else 0), (theirs[n] if n < len(theirs) else 0)
        if x > y:
            continue
        if n < len(mine) and mine[n] < 6:
            mine[n] += 1
            return True
        if not own_only and n < len(theirs) and theirs[n] > 1:
            theirs[n] -= 1
            return True
    return False


def _spends(ctx: Ctx, prompt: Prompt, seat: str) -> list[Entry]:
    entries: list[Entry] = [{"action": "keep", "label": "Keep the dice as rolled"}]
    energy = ctx.player(seat).energy
    spends = prompt.context.get("spends")
    rows = {row.id: row for row in ctx.pack.scaring}
    for key, ways in (spends.items() if isinstance(spends, dict) else []):
        for way in ways:
            if 0 < way["cost"] <= energy:
                row = rows.get(key)
                what = f"{row.cubes} cube{'s' if row.cubes != 1 else ''}" if row else "no cubes"
                entries.append({"action": "spend", "dice": list(way["dice"]), "label":
                                f"Spend {way['cost']} for {', '.join(map(str, way['dice']))}: {what}, "
                                f"horror {way['horror']:+d}" + marked(bool(row and row.guess))})
    return entries


# -- actions and feeding ------------------------------------------------------------------------------------------

def _actions(ctx: Ctx, prompt: Prompt, seat: str) -> list[Entry]:
    tile = ctx.tile_at(seat)
    entries: list[Entry] = []
    if ctx.state.cubes.get(tile.id) and not why_not(ctx, seat, "collect"):
        entries.append({"action": "collect", "label": f"Collect {ctx.cube_words(ctx.state.cubes[tile.id])}"})
    if tile.scare and ctx.player(seat).creatures and not why_not(ctx, seat, "scare"):
        entries.append({"action": "scare", "label": f"Scare for {ctx.pack.colour(tile.element)} cubes"})
    if tile.summon and not why_not(ctx, seat, "summon-imp") and ctx.state.imp_stacks.get(tile.element):
        entries.append({"action": "summon-imp", "label": f"Summon {a_or_an(ctx.pack.element(tile.element).name)} imp"})
    return entries + trades(ctx, seat) + [{"action": "done", "label": "Done: put my STOP marker here"}]


def _feeding(ctx: Ctx, prompt: Prompt, seat: str) -> list[Entry]:
    player = ctx.player(seat)
    entries: list[Entry] = []
    for creature in [c for c in player.creatures if c not in ctx.state.fed.get(seat, [])]:
        record = ctx.pack.creature(creature)
        need = record.strength(ctx.state.time)
        entries += [{"action": "feed", "creature": creature, "element": e,
                     "label": f"Feed {record.name} {ctx.cube_words({e: need})}" + marked(record.guess)}
                    for e in record.elements if player.fear(e) >= need]
        entries += [{"action": "feed-free", "creature": creature, "id": a.id,
                     "label": f"Feed {record.name} for {horror_words(a.cost)}" + marked(a.guess)}
                    for a in ctx.pack.horror if a.kind == "feed-free" and player.horror >= a.cost]
    unfed = [ctx.creature_name(c) for c in player.creatures if c not in ctx.state.fed.get(seat, [])]
    done: Entry = {"action": "done", "label": "Done feeding (the unfed creatures flee)"}
    if unfed:
        done["confirm"] = confirmation("Done feeding?", f"Not fed yet: {', '.join(unfed)}. They flee, out of the game, "
                                       "if feeding ends now.", "Done: they flee", "Keep feeding")
    return entries + trades(ctx, seat) + [done]


def trades(ctx: Ctx, seat: str) -> list[Entry]:
    return _cube_trades(ctx, seat) + _buys(ctx, seat) + _imps(ctx, seat) + _horror(ctx, seat)


def suggested_payment(ctx: Ctx, seat: str, amount: int, keep: str | None = None) -> dict[str, int] | None:
    """``amount`` cubes from the most plentiful fear cubes (never ``keep``'s), white ones last; None if short."""
    player = ctx.player(seat)
    held = sorted(((n, key) for key, n in player.cubes.items() if n and key != keep), reverse=True)
    held.append((player.energy if keep != ENERGY else 0, ENERGY))
    payment: dict[str, int] = {}
    for n, key in held:
        used = min(n, amount - sum(payment.values()))
        if used:
            payment[key] = used
    return payment if sum(payment.values()) == amount else None


def _cube_trades(ctx: Ctx, seat: str) -> list[Entry]:
    entries: list[Entry] = []
    for key in [e.id for e in ctx.pack.elements] + [ENERGY]:
        pay = suggested_payment(ctx, seat, TRADE_COST, keep=key)
        if pay:
            entries.append({"action": "trade", "pay": pay, "take": key,
                            "label": f"Trade {ctx.cube_words(pay)} for {ctx.cube_words({key: 1})}"})
    for element, imps in ctx.state.imp_stacks.items():
        pay = suggested_payment(ctx, seat, TRADE_COST)
        if imps and pay:
            entries.append({"action": "trade-imp", "pay": pay, "element": element,
                            "label": f"Trade {ctx.cube_words(pay)} for {a_or_an(ctx.pack.element(element).name)} imp"})
    return entries


def buyable(ctx: Ctx) -> list[str]:
    """The creatures that can be bought now: each stack's known top, or any of a stack whose top is unseen."""
    found = []
    for stack in ctx.state.stacks.values():
        found += [stack.top] if stack.top else list(stack.rest)
    return found


def _buys(ctx: Ctx, seat: str) -> list[Entry]:
    entries: list[Entry] = []
    for creature in buyable(ctx):
        record = ctx.pack.creature(creature)
        pay = suggested_payment(ctx, seat, record.price)
        if pay and stack_of(ctx, creature):
            entries.append({"action": "buy", "creature": creature, "pay": pay,
                            "label": f"Buy {record.name} ({record.day}/{record.night}) for {ctx.cube_words(pay)}"
                                     + marked(record.guess)})
    return entries


def _imps(ctx: Ctx, seat: str) -> list[Entry]:
    entries: list[Entry] = []
    any_colour = ctx.reading("imp_exchange") == "any-colour"
    for imp in ctx.player(seat).imps:
        card = ctx.pack.imp(imp)
        for element in ([e.id for e in ctx.pack.elements] if any_colour else [card.element]):
            entries.append({"action": "exchange-imp", "imp": imp, "element": element,
                            "label": f"Exchange {card.name} for {ctx.cube_words({element: 1})}"})
        entries.append({"action": "use-imp", "imp": imp, "label": f"Use {card.name} (by hand)"})
    return entries


def _horror(ctx: Ctx, seat: str) -> list[Entry]:
    entries: list[Entry] = []
    for action in ctx.pack.horror:
        if action.kind == "feed-free" or ctx.player(seat).horror < action.cost:
            continue
        label = f"{action.name} ({horror_words(action.cost)})"
        if action.kind in ("fear-cube", "imp"):
            entries += [{"action": "horror", "id": action.id, "element": e.id,
                         "label": f"{label}: {ctx.pack.colour(e.id) if action.kind == 'fear-cube' else e.name}"
                                  + marked(action.guess)}
                        for e in ctx.pack.elements]
        else:
            entries.append({"action": "horror", "id": action.id, "label": label + marked(action.guess)})
    return entries


MENUS: dict[str, Callable[[Ctx, Prompt, str], list[Entry]]] = {
    PLAN_KEY: _plans, BID_KEY: _bids, CHANGE_KEY: _changes, SCARE_SPEND_KEY: _spends, ACTIONS_KEY: _actions,
    FEED_KEY: _feeding,
}

__all__ = ["MENUS", "OUR_GUESS", "buyable", "cheapest_win", "marked", "menu", "suggested_payment", "trades"]
