"""A new game (RL-SU-*): the setup description and the steps the table takes. How the
first player is found is the edition's (``Edition.first_player``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

from companion.engine.errors import SetupError
from companion.engine.game import Flow

from .context import GameContext
from .items import draw_item, place_item
from .pack_types import Pack
from .perk_deck import gain_perk
from .state import GameState, MonsterState, VillagerState

if TYPE_CHECKING:
    from .edition import Edition

SOLO_TERROR = 3  # RL-SU-1
SETUP_ITEMS = 12  # RL-SU-5


@dataclass(frozen=True)
class Seat:
    hero: str
    player: str


@dataclass(frozen=True)
class SetupChoice:
    """Which monsters and heroes, with the players in clockwise order."""

    monsters: tuple[str, ...]
    seats: tuple[Seat, ...]


def parse_setup(pack: Pack, data: object) -> SetupChoice:
    if not isinstance(data, Mapping):
        raise SetupError("a setup must be an object with 'monsters' and 'heroes'")
    monsters = _monsters(pack, data.get("monsters"))
    seats = _seats(pack, data.get("heroes"))
    return SetupChoice(monsters, seats)


def _monsters(pack: Pack, value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= len(pack.monsters):
        raise SetupError(f"choose 1 to {len(pack.monsters)} monsters, got {value!r}")
    unknown = [m for m in value if not isinstance(m, str) or not pack.has("monster", m)]
    if unknown or len(set(value)) != len(value):
        raise SetupError(f"unknown or repeated monsters: {unknown or value} "
                         f"(choose from {', '.join(m.id for m in pack.monsters)})")
    return tuple(sorted(value, key=lambda m: pack.monster(m).frenzy_order))  # RL-SU-3


def _seats(pack: Pack, value: object) -> tuple[Seat, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= len(pack.heroes):
        raise SetupError(f"choose 1 to {len(pack.heroes)} heroes, got {value!r}")
    seats = tuple(_seat(pack, entry, n) for n, entry in enumerate(value))
    if len({s.hero for s in seats}) != len(seats):
        raise SetupError("each hero can be played by one player only")
    return seats


def _seat(pack: Pack, entry: object, n: int) -> Seat:
    if isinstance(entry, str):
        entry = {"hero": entry}
    if not isinstance(entry, Mapping) or not isinstance(entry.get("hero"), str) or not pack.has("hero", str(entry["hero"])):
        raise SetupError(f"heroes[{n}]: unknown hero {entry!r} (choose from {', '.join(h.id for h in pack.heroes)})")
    player = entry.get("player", f"Player {n + 1}")
    if not isinstance(player, str) or not player.strip():
        raise SetupError(f"heroes[{n}]: the player's name must be some text")
    return Seat(str(entry["hero"]), player.strip())


def initial_state(edition: Edition, pack: Pack, choice: SetupChoice) -> GameState:
    return edition.state_class(
        seats=[s.hero for s in choice.seats], active=0, turn=0, phase="setup",
        terror=SOLO_TERROR if len(choice.seats) == 1 else 0,
        frenzy=choice.monsters[0],  # RL-FR-1: the lowest Frenzy Order
        heroes={s.hero: edition.new_hero(s.hero, s.player) for s in choice.seats},
        monsters={m: MonsterState(m, None) for m in choice.monsters},
        mats={},
        villagers={v.id: VillagerState(v.id) for v in pack.villagers},
        deck=sorted(c.id for c in pack.cards),  # RL-SU-2
        haversack=sorted(i.id for i in pack.items),
        perk_deck=sorted(p.id for p in pack.perks),
    )


def setup_table(ctx: GameContext) -> Flow[None]:
    """Monsters and their mats, heroes and their Perks, 12 items, the first player."""
    for monster_id in ctx.state.monsters:
        rules = ctx.monster_rules[monster_id]
        mat = rules.new_mat()
        if mat is not None:
            ctx.state.mats[monster_id] = mat
        yield from rules.setup(ctx)
    for hero in ctx.state.heroes.values():
        hero.location = ctx.pack.hero(hero.id).start
        ctx.emit("hero-placed", f"Put {ctx.hero_name(hero.id)} at {ctx.place_name(hero.location)}.",
                 hero=hero.id, location=hero.location)
        yield from gain_perk(ctx, hero.id, "setup")
    for number in range(SETUP_ITEMS):
        item = yield from draw_item(ctx, f"setup, item {number + 1} of {SETUP_ITEMS}")
        if item is not None:
            place_item(ctx, item)
    yield from ctx.edition.first_player(ctx)
