"""Mixed games: this box's monsters as guests on another Horrified board (docs/horrified.md,
"Mixed games"). No publisher's rule covers it; this is our reading, and a mixed game says so.

A mixed game is played with the host box whole - its board, heroes, villagers, items, Perk
cards, Monster cards and dice - under its edition's rules (its d20, its Gates, its Dark Gifts),
with some of this box's monsters among the host's. Each guest brings its mat and its own
challenge (the items' strength alone: its plug-in checks it). What a guest's mat names on this
board is given a host counterpart, each by a default the players may change when they set up:

* places (its start, coffins, the Precinct ...): the host place drawn nearest to where the place
  is drawn on this board; two places of one mat on one host place only if they are one place here;
* item colours: the host's item types in the order each box lists them (red, blue, yellow ->
  the first, second and third type of the host);
* symbols: the attack-line symbols of a host monster left out of this game, taken in Frenzy
  Order (all the host's monsters when none is left out), so the host's cards call the guest;
* Frenzy Order: after the host's monsters, in the guests' own order.

The guests' own Monster cards stay in their box: the host's deck is played. The whole mapping is
kept in the game's setup and state (``mix``), so a replay plays it the same.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, replace
from typing import Callable, Collection, Mapping

from companion.engine.effects import EffectSink
from companion.engine.errors import IllegalInput, SetupError
from companion.engine.game import Flow
from companion.engine.registry import Registry
from companion.games.horrified_core.attack import Defence
from companion.games.horrified_core.context import GameContext
from companion.games.horrified_core.edition import Action, Edition, Labeller, Strike
from companion.games.horrified_core.events import EventStep
from companion.games.horrified_core.hero_phase import ActionKind
from companion.games.horrified_core.monsters import MonsterRegistry
from companion.games.horrified_core.pack_types import MAIN_BOARD, Monster, MonsterCard, Pack
from companion.games.horrified_core.packfiles import PackSpec
from companion.games.horrified_core.perks import PerkKind
from companion.games.horrified_core.rules import HorrifiedRules, Origin
from companion.games.horrified_core.state import GameState, HeroState
from companion.games.gamepack import GamePack
from companion.games.overlay import Overlay

from .monsters import REGISTRY, OriginalMonster

Mix = dict[str, object]


class MixedGame:
    """The mark of a mixed game's state: ``mix``, the whole mapping it plays with (plain data)."""

    mix: dict[str, object]


_STATE_CLASSES: dict[type, type] = {}


def mixed_state_class(host: type[GameState]) -> type[GameState]:
    """The host edition's state with the game's ``mix`` beside it (made once per host). It lives in
    this module under a name of its own, as a class written here would, so a copy of a mixed game's
    state can be pickled (the forecast copies the table that way)."""
    found = _STATE_CLASSES.get(host)
    if found is None:
        name = f"Mixed{host.__module__.split('.')[-2].title()}{host.__name__}"
        mix_field: dict[str, object] = dataclasses.field(default_factory=dict, kw_only=True)
        found = dataclasses.make_dataclass(name, [("mix", dict[str, object], mix_field)], bases=(host, MixedGame))
        found.__module__ = __name__
        globals()[name] = found
        _STATE_CLASSES[host] = found
    return found


@dataclass(frozen=True)
class Host:
    """Another Horrified box on this one: its id and title, its rules (edition and pack) and its pack view."""

    id: str
    title: str
    rules: HorrifiedRules
    pack_view: Callable[[], dict[str, object]]


# -- the default mapping ----------------------------------------------------------------------------------

def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def nearest_places(guest: Pack, host: Pack, places: Mapping[str, str]) -> dict[str, str]:
    """Each role's place on the host board: the one drawn nearest, roles on one place of this board
    on one host place, roles on different places never on one host place (taken in their order)."""
    spots = {loc.id: (loc.x, loc.y) for loc in host.board.locations if loc.area == MAIN_BOARD}
    chosen: dict[str, str] = {}
    for place in dict.fromkeys(places.values()):
        where = guest.location(place)
        free = [p for p in spots if p not in chosen.values()] or list(spots)
        chosen[place] = min(free, key=lambda p: (_distance(spots[p], (where.x, where.y)), p))
    return {role: chosen[place] for role, place in places.items()}


def default_types(guest_types: tuple[str, ...], host_types: tuple[str, ...]) -> dict[str, str]:
    return {kind: host_types[n % len(host_types)] for n, kind in enumerate(guest_types)}


def default_symbols(host: Pack, in_game: Collection[str], guests: list[str]) -> dict[str, list[str]]:
    """Guests take the symbols of host monsters left out of this game, in Frenzy Order."""
    ordered = sorted(host.monsters, key=lambda m: m.frenzy_order)
    free = [m for m in ordered if m.id not in in_game] or ordered
    return {guest: list(free[n % len(free)].symbols) for n, guest in enumerate(guests)}


def guest_roles(guest: Pack, monster_id: str) -> dict[str, str]:
    """The places a guest's mat names, by role, its start first."""
    rules = REGISTRY[monster_id](guest.monster(monster_id))
    assert isinstance(rules, OriginalMonster)
    return {"start": guest.monster(monster_id).start, **rules.special_places()}


def default_mix(host: Host, guest: Pack, monsters: list[str], guest_types: tuple[str, ...]) -> Mix:
    """The whole mapping for a game with ``monsters`` (host's and guests') on ``host``'s board."""
    guests = sorted((m for m in monsters if guest.has("monster", m)), key=lambda m: guest.monster(m).frenzy_order)
    symbols = default_symbols(host.rules.pack, monsters, guests)
    return {"board": host.id,
            "types": default_types(guest_types, host.rules.edition.pack_spec.item_types),
            "guests": {m: {"places": nearest_places(guest, host.rules.pack, guest_roles(guest, m)),
                           "symbols": symbols[m]} for m in guests}}


def merged_mix(base: Mix, given: object) -> Mix:
    """The default mapping with what the players changed at setup (``{"guests": {m: {"places": {role:
    place}, "symbols": [...]}}, "types": {...}}``); anything not given keeps its default."""
    if given is None:
        return base
    if not isinstance(given, Mapping):
        raise SetupError("'mix' must be an object with 'guests' and 'types'")
    unknown = sorted(str(k) for k in given if k not in ("guests", "types"))
    if unknown:
        raise SetupError(f"mix: unknown field(s) {', '.join(unknown)} (it takes 'guests' and 'types')")
    mix = json.loads(json.dumps(base))
    mix["types"].update(_mapping(given.get("types", {}), "mix.types"))
    for monster, change in _mapping(given.get("guests", {}), "mix.guests").items():
        if monster not in mix["guests"]:
            raise SetupError(f"mix.guests.{monster}: not a guest monster of this game")
        entry = _mapping(change, f"mix.guests.{monster}")
        mix["guests"][monster]["places"].update(_mapping(entry.get("places", {}), f"mix.guests.{monster}.places"))
        if "symbols" in entry:
            mix["guests"][monster]["symbols"] = entry["symbols"]
    return dict(mix)


def _mapping(value: object, where: str) -> dict[str, object]:
    if not isinstance(value, Mapping):
        raise SetupError(f"{where}: must be an object")
    return {str(k): v for k, v in value.items()}


# -- the mixed pack ----------------------------------------------------------------------------------------

def check_mix(mix: Mix, host: Host, guest: Pack) -> None:
    """Every mapped place, symbol and type is the host's; every role and colour is the guest's."""
    pack, spec = host.rules.pack, host.rules.edition.pack_spec
    places = {loc.id for loc in pack.board.locations if loc.area == MAIN_BOARD}
    types = _mapping(mix["types"], "mix.types")
    for colour, kind in types.items():
        if kind not in spec.item_types:
            raise SetupError(f"mix.types.{colour}: {kind!r} is not an item type of {host.title} "
                             f"({', '.join(spec.item_types)})")
    if not _mapping(mix["guests"], "mix.guests"):
        raise SetupError(f"mix.guests: a mixed game has at least one of this box's monsters on the {host.title} board")
    for monster, entry in _mapping(mix["guests"], "mix.guests").items():
        _check_guest(monster, _mapping(entry, f"mix.guests.{monster}"), places, spec.symbols, guest)


def _check_guest(monster: str, entry: Mapping[str, object], places: set[str], symbols: Collection[str],
                 guest: Pack) -> None:
    roles = guest_roles(guest, monster)
    for role, place in _mapping(entry.get("places", {}), f"mix.guests.{monster}.places").items():
        if role not in roles:
            raise SetupError(f"mix.guests.{monster}.places.{role}: its mat names no such place ({', '.join(roles)})")
        if place not in places:
            raise SetupError(f"mix.guests.{monster}.places.{role}: {place!r} is not a place of the host board")
    chosen = entry.get("symbols")
    if not isinstance(chosen, list) or not chosen or any(s not in symbols for s in chosen):
        raise SetupError(f"mix.guests.{monster}.symbols: give one or more of the host's symbols ({', '.join(symbols)})")


def mixed_pack(mix: Mix, host: Host, guest: Pack) -> Pack:
    """The host's box with the guest monsters, their mats moved onto the host's board."""
    pack = host.rules.pack
    types = {str(k): str(v) for k, v in _mapping(mix["types"], "types").items()}
    after = max(m.frenzy_order for m in pack.monsters)
    guests = [_moved(guest.monster(m), _mapping(entry, m), types, after)
              for m, entry in _mapping(mix["guests"], "guests").items()]
    return Pack(name=f"{pack.name}, with guests from {guest.name}", board=pack.board, items=pack.items,
                villagers=pack.villagers, heroes=pack.heroes, perks=pack.perks, cards=pack.cards,
                monsters=pack.monsters + tuple(guests), monster_die=pack.monster_die,
                monster_die_verified=pack.monster_die_verified, dice_sets=pack.dice_sets)


def _moved(monster: Monster, entry: Mapping[str, object], types: Mapping[str, str], after: int) -> Monster:
    places = {str(k): str(v) for k, v in _mapping(entry["places"], "places").items()}
    cls = REGISTRY[monster.id]
    assert issubclass(cls, OriginalMonster)
    details = cls.moved_details(monster.details, places, types)
    symbols = entry["symbols"]
    assert isinstance(symbols, list)
    return replace(monster, start=places["start"], symbols=tuple(map(str, symbols)), details=details,
                   frenzy_order=after + monster.frenzy_order, verified=False)


def combined_registry(host: MonsterRegistry) -> MonsterRegistry:
    both = MonsterRegistry(f"{host.edition}+original")
    for plugins in (host.plugins(), REGISTRY.plugins()):
        for cls in plugins.values():
            both.register(cls)
    return both


# -- the edition: the host's, with the guests' plug-ins ----------------------------------------------------

class MixedEdition:
    """The host edition's every hook, with a monster registry that holds the guests too and a state
    that keeps the game's mix."""

    def __init__(self, host: Edition) -> None:
        self.host = host
        self._monsters = combined_registry(host.monsters)
        self.state_class = mixed_state_class(host.state_class)

    @property
    def hero_marks(self) -> Collection[str]:
        return self.host.hero_marks

    def new_hero(self, hero_id: str, player: str, location: str | None = None, *, items: Collection[str] = (),
                 relics: Collection[str] = (), perks: Collection[str] = (),
                 marks: Mapping[str, object] | None = None) -> HeroState:
        return self.host.new_hero(hero_id, player, location, items=items, relics=relics, perks=perks, marks=marks)

    @property
    def item_bag(self) -> str:
        return self.host.item_bag

    @property
    def monsters(self) -> MonsterRegistry:
        return self._monsters

    @property
    def pack_spec(self) -> PackSpec:
        return self.host.pack_spec

    @property
    def events(self) -> Registry[EventStep]:
        return self.host.events

    @property
    def perks(self) -> Registry[PerkKind]:
        return self.host.perks

    @property
    def hero_actions(self) -> Mapping[str, ActionKind]:
        return self.host.hero_actions

    @property
    def labels(self) -> Mapping[str, Labeller]:
        return self.host.labels

    def action_menu(self, ctx: GameContext) -> list[Action]:
        return self.host.action_menu(ctx)

    def free_menu(self, ctx: GameContext) -> list[Action]:
        return self.host.free_menu(ctx)

    def first_player(self, ctx: GameContext) -> Flow[None]:
        return self.host.first_player(ctx)

    def turn_actions(self, ctx: GameContext, hero_id: str) -> int:
        return self.host.turn_actions(ctx, hero_id)

    def return_place(self, ctx: GameContext, hero_id: str) -> str:
        return self.host.return_place(ctx, hero_id)

    def strikes(self, ctx: GameContext, monster_id: str, symbol: str, card: MonsterCard | None) -> Strike:
        return self.host.strikes(ctx, monster_id, symbol, card)

    def heroes_first_when_moving(self, ctx: GameContext) -> bool:
        return self.host.heroes_first_when_moving(ctx)

    def monster_steps(self, ctx: GameContext, steps: int) -> int:
        return self.host.monster_steps(ctx, steps)

    def absorb_hits(self, ctx: GameContext, hero_id: str, hits: int) -> int:
        return self.host.absorb_hits(ctx, hero_id, hits)

    def defences(self, ctx: GameContext, hero_id: str, hits: int) -> list[Defence]:
        return self.host.defences(ctx, hero_id, hits)

    def defence_items_lost(self, ctx: GameContext, hero_id: str) -> str:
        return self.host.defence_items_lost(ctx, hero_id)

    def hero_defeated(self, ctx: GameContext, hero_id: str) -> None:
        self.host.hero_defeated(ctx, hero_id)

    def villager_death_terror(self, ctx: GameContext) -> int:
        return self.host.villager_death_terror(ctx)

    def monster_defeat_terror(self, ctx: GameContext) -> int:
        return self.host.monster_defeat_terror(ctx)

    def challenge_check(self, ctx: GameContext, key: str, what: str, strength: int, target: int) -> Flow[bool]:
        return self.host.challenge_check(ctx, key, what, strength, target)


def _as_edition(edition: MixedEdition) -> Edition:
    """For the type checker: MixedEdition is an Edition."""
    return edition


# -- the rules ---------------------------------------------------------------------------------------------

class MixedRules(HorrifiedRules):
    """A mixed game's rules: the core with the mixed edition and pack. Its data is what it started with."""

    def __init__(self, mix: Mix, host: Host, guest: Pack, overlay: Overlay) -> None:
        self.mix, self.host = mix, host
        super().__init__(MixedEdition(host.rules.edition), overlay, mixed_pack(mix, host, guest))

    def begin(self, origin: Origin, sink: EffectSink) -> tuple[GameState, Flow[None]]:
        """A game that starts here (not a saved one going on) first says the combination is ours."""
        state, flow = super().begin(origin, sink)
        return state, (flow if "state" in origin else _said_first(sink, self.ours(), flow))

    def ours(self) -> str:
        """The table is told, in so many words, that no rulebook mixes the boxes: the mapping is ours."""
        guests = [self.pack.monster(m).name for m in _mapping(self.mix["guests"], "guests")]
        return (f"A mixed game: {' and '.join(guests)} of the original Horrified, on the board of {self.host.title} "
                "and by its rules. "
                "No rulebook mixes the boxes: where each guest's places, item colours and symbols land is our "
                "combination, not the publisher's (the players may change it at setup).")

    def starting_state(self, origin: Origin) -> GameState:
        state = super().starting_state(origin)
        assert isinstance(state, MixedGame)
        if "state" not in origin:
            state.mix = json.loads(json.dumps(self.mix))
        return state

    def change_data(self, state: GameState, data: object, sink: EffectSink) -> None:
        raise IllegalInput("a mixed game keeps the game data it started with")

    def anytime(self, state: GameState, move: object, sink: EffectSink) -> None:
        """The host edition's hero actions that cost no action, made whenever (a Dark Gift accepted mid-phase)."""
        kinds = {name: kind for name, kind in self.edition.hero_actions.items() if not kind.costs_action}
        name = move.get("action") if isinstance(move, Mapping) else None
        if not isinstance(move, Mapping) or name not in kinds:
            raise IllegalInput(f"the moves that can be made at any time here are: {', '.join(sorted(kinds)) or 'none'}")
        ctx = self.context(state, sink)
        hero = move.get("hero", ctx.active_player)
        _drain(kinds[str(name)].run(ctx, str(hero), move))


def _said_first(sink: EffectSink, words: str, flow: Flow[None]) -> Flow[None]:
    sink.emit("mixed-game", words)
    yield from flow


def _drain(flow: Flow[None]) -> None:
    """Run a move that asks nothing (one that would ask is refused: it cannot wait for an answer)."""
    try:
        flow.send(None)
    except StopIteration:
        return
    raise IllegalInput("this move would need an answer, so it cannot be made at any time")


def hosts_of(packs: Mapping[str, Callable[[], GamePack]], own: str) -> dict[str, Host]:
    """The Horrified boxes among ``packs`` (by id): those whose rules are the Horrified core's."""
    found: dict[str, Host] = {}
    for pack_id, make in packs.items():
        if pack_id == own:
            continue
        pack = make()
        if isinstance(pack.rules, HorrifiedRules):
            found[pack_id] = Host(pack_id, pack.title, pack.rules, pack.pack_view)
    return found
