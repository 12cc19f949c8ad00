"""A monster's attack: target, Monster dice, POW before HIT, defence
(RL-MP-13 .. RL-MP-20). What an edition adds (hits stopped before the hero answers,
other ways to answer a hit, what a defeat costs) comes through its hooks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from companion.engine.game import Flow
from companion.engine.prompts import Option, Prompt

from .context import Character, Figure, GameContext
from .items import discard_item, remove_item
from .terror import raise_terror


def choose_target(ctx: GameContext, here: str) -> Flow[Character | None]:
    """A hero before a villager; the active player picks among several (RL-MP-14).
    A hero no monster may attack this turn (a Perk's disguise) is passed over."""
    present = [c for c in ctx.characters_at(here) if not spared(ctx, c)]
    heroes = [c for c in present if c.kind == "hero"]
    pool = heroes or present
    if not pool:
        return None
    options = [Option(f"{c.kind}:{c.id}", ctx.character_name(c)) for c in pool]
    chosen = yield from ctx.choose("attack-target", "Who does the monster attack?", options)
    kind, _, who = chosen.partition(":")
    return Character(kind, who)


def spared(ctx: GameContext, who: Character) -> bool:
    """True for a hero that no monster attacks in this turn's Monster Phase."""
    return who.kind == "hero" and who.id in ctx.state.bonuses.spared


def attack(ctx: GameContext, figure: Figure, dice: int) -> Flow[None]:
    """The target is named before the dice are rolled (RL-MP-14)."""
    here = ctx.where(figure)
    name = ctx.figure_name(figure)
    if here is None:
        return
    target = yield from choose_target(ctx, here)
    if target is None:
        nobody = "no one it may attack" if ctx.characters_at(here) else "no one"
        ctx.emit("no-attack", f"{nobody[:1].upper()}{nobody[1:]} is at {ctx.place_name(here)}: {name} does not attack.",
                 monster=figure.monster, blight=figure.minion)
        return
    ctx.emit("target", f"{name} attacks {ctx.character_name(target)}.", monster=figure.monster,
             blight=figure.minion, target=target.id, target_kind=target.kind, location=here)
    if dice <= 0:
        return
    rolled = yield from ctx.roll_monster_dice(
        "monster-dice", f"Roll {dice} Monster {'die' if dice == 1 else 'dice'} for {name}.", dice)
    yield from resolve_dice(ctx, figure, here, target, rolled)


def resolve_dice(ctx: GameContext, figure: Figure, here: str, target: Character, rolled: list[str]) -> Flow[None]:
    """Every POW first (RL-MP-16), then the hits if the target is still there (RL-MP-17); a monster
    whose Power comes after the hits (its plug-in says) has them the other way round."""
    ctx.emit("dice", f"Rolled: {', '.join(f.upper() for f in rolled)}.", faces=rolled, monster=figure.monster)
    rules = ctx.monster_rules[figure.monster]
    if rules.pow_first(ctx):
        yield from _powers(ctx, figure, target, rolled)
        yield from _hits(ctx, figure, target, rolled)
    else:
        yield from _hits(ctx, figure, target, rolled)
        yield from _powers(ctx, figure, target, rolled)


def _powers(ctx: GameContext, figure: Figure, target: Character, rolled: list[str]) -> Flow[None]:
    for _ in range(rolled.count("pow")):
        yield from ctx.monster_rules[figure.monster].power(ctx, figure, target)


def _hits(ctx: GameContext, figure: Figure, target: Character, rolled: list[str]) -> Flow[None]:
    hits = rolled.count("hit")
    if hits == 0:
        return
    if ctx.character_location(target) != ctx.where(figure):  # a Power may have carried the target off
        ctx.emit("hits-miss", f"{ctx.character_name(target)} is no longer there: the hits miss.", target=target.id)
        return
    yield from land_hits(ctx, target, hits)


def land_hits(ctx: GameContext, target: Character, hits: int) -> Flow[None]:
    if target.kind == "villager":
        defeat_villager(ctx, target.id)
        return
    hits = ctx.edition.absorb_hits(ctx, target.id, hits)
    if hits > 0:
        yield from defend_hero(ctx, target.id, hits)


@dataclass(frozen=True)
class Defence:
    """One answer a hit hero may give: the option shown, and what it does with the hits left."""

    option: Option
    run: Callable[[GameContext, str, int], Flow[None]]


def defend_hero(ctx: GameContext, hero_id: str, hits: int) -> Flow[None]:
    """Discard one item per hit, or fall (RL-MP-18); the edition may offer more. Relics never
    stop a hit (RL-IT-5)."""
    hero = ctx.state.heroes[hero_id]
    name = ctx.hero_name(hero_id)
    defences = _defences(ctx, hero_id, hits)
    if len(defences) == 1:
        ctx.emit("note", f"{name} has only {len(hero.items)} item(s) for {hits} hit(s).", hero=hero_id)
        yield from defeat_hero(ctx, hero_id)
        return
    choice = yield Prompt("choice", "defend", f"{name} is hit {hits} time{'s' if hits > 1 else ''}. What now?",
                          hero_id, tuple(d.option for d in defences), context={"hero": hero_id, "hits": hits})
    hits = ctx.edition.absorb_hits(ctx, hero_id, hits)  # something accepted while the question stood
    if hits > 0:
        yield from next(d for d in defences if d.option.id == choice).run(ctx, hero_id, hits)


def _defences(ctx: GameContext, hero_id: str, hits: int) -> list[Defence]:
    plural = "s" if hits > 1 else ""
    defences = []
    if len(ctx.state.heroes[hero_id].items) >= hits:
        defences.append(Defence(Option("discard", f"Discard {hits} item{plural} to stop the hit{plural}"),
                                _discard_to_defend))
    defences.append(Defence(Option("fall", f"Take the hit{plural}: {ctx.hero_name(hero_id)} is defeated"), _fall))
    return defences + ctx.edition.defences(ctx, hero_id, hits)


def _discard_to_defend(ctx: GameContext, hero_id: str, hits: int) -> Flow[None]:
    hero = ctx.state.heroes[hero_id]
    if len(hero.items) == hits:
        chosen: tuple[str, ...] = tuple(hero.items)
    else:
        options = tuple(Option(i, _item_text(ctx, i)) for i in hero.items)
        answer = yield Prompt("pick", "defend-items", f"Which {hits} item(s) does {ctx.hero_name(hero_id)} discard?",
                              hero_id, options, min_picks=hits, max_picks=hits)
        assert isinstance(answer, tuple)
        chosen = answer
    lost_for_good = ctx.edition.defence_items_lost(ctx, hero_id)
    for item in chosen:
        if lost_for_good:
            remove_item(ctx, item, lost_for_good)
        else:
            discard_item(ctx, item, "to stop a hit")


def _fall(ctx: GameContext, hero_id: str, hits: int) -> Flow[None]:
    yield from defeat_hero(ctx, hero_id)


def _item_text(ctx: GameContext, item_id: str) -> str:
    item = ctx.pack.item(item_id)
    return f"{item.name} ({item.type} {item.strength})"


def defeat_hero(ctx: GameContext, hero_id: str) -> Flow[None]:
    """Off the board, terror +1; items and Perks kept (RL-MP-18, RL-TU-3). Off the board, the
    hero cannot be attacked again this turn."""
    hero = ctx.state.heroes[hero_id]
    ctx.emit("hero-defeated", f"{ctx.hero_name(hero_id)} is defeated: take the figure off the board until "
             f"{hero.player}'s next turn.", hero=hero_id, location=hero.location)
    hero.location = None
    raise_terror(ctx, f"{ctx.hero_name(hero_id)} was defeated")
    ctx.edition.hero_defeated(ctx, hero_id)
    return
    yield  # a generator, so callers can "yield from" it like every other step


def defeat_villager(ctx: GameContext, villager_id: str) -> None:
    """A hit villager falls at once; heroes cannot save it (RL-MP-19)."""
    villager = ctx.state.villagers[villager_id]
    name = ctx.pack.villager(villager_id).name
    ctx.emit("villager-defeated", f"{name} is killed: take the figure off the board.",
             villager=villager_id, location=villager.location)
    villager.location, villager.clutched = None, False
    raise_terror(ctx, f"{name} died", times=ctx.edition.villager_death_terror(ctx))
