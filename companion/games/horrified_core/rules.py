"""A Horrified edition's rules as the engine runs them: build the starting state from an
origin (a new game's setup, a position, or a saved state) and play it, with the shipped
pack or with the owner's corrections of it. An edition's rules class is this one with
its edition, its overlay and its shipped pack (and any moves of its own)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable, Mapping

from companion.engine.effects import EffectSink
from companion.engine.errors import IllegalInput, SetupError
from companion.engine.game import Flow, Game, Input
from companion.engine.graph import Graph
from companion.engine.plain import PlainDataError, from_plain

from companion.games.overlay import Overlay, OwnerData, OwnerDataError, owner_pack, parse_owner_data

from .context import GameContext, GameData, areas_of, board_graph
from .edition import Edition
from .monsters import MonsterRules
from .monster_phase import PhasePoint
from .pack_types import Pack
from .play import play
from .position import state_from_position
from .setup import initial_state, parse_setup
from .state import GameState

Origin = Mapping[str, object]
ORIGIN_FIELDS = ("setup", "position", "state", "data")


@dataclass
class _Built:
    """A pack with the rules of its monsters and its boards, one per set of areas on the table."""

    pack: Pack
    monster_rules: dict[str, MonsterRules]
    graphs: dict[frozenset[str], Graph] = field(default_factory=dict)

    def data(self, state: GameState) -> GameData:
        rules = {m: self.monster_rules[m] for m in state.monsters}
        return GameData(self.pack, self.graph(areas_of(rules.values())), rules)

    def graph(self, areas: frozenset[str]) -> Graph:
        found = self.graphs.get(areas)
        if found is None:
            found = self.graphs[areas] = board_graph(self.pack, areas)
        return found


#: Packs built from owner data kept at once (a game in play whose pack was dropped builds it again).
OWNED_KEPT = 8


class HorrifiedRules:
    """The Rules the generic :class:`Game` runner plays.

    A game plays with the shipped pack, or with the owner's corrections of it
    (``ownerdata``): given in its origin, or changed mid-game by a ``data``
    input. Each owner-data document is built into a pack once and shared by
    every game that plays with it."""

    def __init__(self, edition: Edition, overlay: Overlay, pack: Pack) -> None:
        self.edition = edition
        self.overlay = overlay
        self.pack = pack
        self.monster_rules: dict[str, MonsterRules] = edition.monsters.rules_for(pack)
        self._shipped = _Built(pack, self.monster_rules)
        self._owned: dict[str, _Built] = {}
        self._lock = threading.Lock()

    def graph_for(self, state: GameState) -> Graph:
        return self._shipped.data(state).graph

    def begin(self, origin: Origin, sink: EffectSink) -> tuple[GameState, Flow[None]]:
        state = self.starting_state(origin)
        return state, play(self.context(state, sink))

    def resume(self, state: GameState, point: PhasePoint | None, sink: EffectSink) -> tuple[GameState, Flow[None]]:
        """The game going on from one of its boundaries: a Hero Phase about to ask the next
        action (``point`` None), or a point of the Monster Phase."""
        return state, play(self.context(state, sink), point)

    def context(self, state: GameState, sink: EffectSink,
                pack_view: Callable[[Pack], Pack] | None = None, quiet: bool = False) -> GameContext:
        """The rules' view of ``state``, following its data when the owner changes it.
        ``pack_view``, ``quiet``: for the forecast's walks (``GameContext``)."""
        shipped = self._shipped.data(state)
        return GameContext(self.pack, state, sink, shipped.monster_rules, shipped.graph, self.data_for,
                           edition=self.edition, pack_view=pack_view, quiet=quiet)

    def data_for(self, state: GameState) -> GameData:
        """The pack, graph and monster rules a game's data gives (the shipped ones without data)."""
        return (self._built(state.data) if state.data_id else self._shipped).data(state)

    def pack_for(self, state: GameState) -> Pack:
        return self._built(state.data).pack if state.data_id else self.pack

    def owner_pack(self, data: object) -> Pack:
        """The pack with an owner-data document (OwnerDataError when it does not hold)."""
        return self._built(data).pack

    def parse_owner_data(self, data: object) -> OwnerData:
        return parse_owner_data(self.overlay, data)

    def _built(self, data: object) -> _Built:
        """The pack an owner-data document builds, once per document; the few most recent are kept
        (games in play share them), so an owner who edits all evening does not fill the memory."""
        owner = self.parse_owner_data(data)
        with self._lock:
            found = self._owned.pop(owner.fingerprint, None)
        if found is None:
            pack = owner_pack(self.overlay, owner)
            assert isinstance(pack, Pack), "an edition's overlay builds its Pack"
            found = _Built(pack, self.edition.monsters.rules_for(pack))
        with self._lock:
            self._owned[owner.fingerprint] = found  # the newest last
            while len(self._owned) > OWNED_KEPT:
                self._owned.pop(next(iter(self._owned)))
        return found

    def starting_state(self, origin: Origin) -> GameState:
        _check_origin(origin)
        if "setup" in origin:
            owner = self._origin_data(origin)
            pack = self.pack if owner is None else self._built_or_refused(owner).pack
            state = initial_state(self.edition, pack, parse_setup(pack, origin["setup"]))
            _set_data(state, owner)
            return state
        if "position" in origin:
            return self._position_state(origin)
        if "state" in origin:
            try:
                return from_plain(self.edition.state_class, origin["state"], "state")
            except PlainDataError as problem:
                raise SetupError(str(problem)) from None
        raise SetupError("a game starts from a 'setup', a 'position' or a saved 'state'")

    def _position_state(self, origin: Origin) -> GameState:
        """A position on the shipped board, or on the owner's (``"data"`` beside it): never one
        played on the shipped board while the owner's data is dropped."""
        owner = self._origin_data(origin)
        built = self._built_or_refused(owner) if owner is not None else self._shipped
        state = state_from_position(self.edition, built.pack, built.monster_rules, origin["position"])
        _set_data(state, owner)
        return state

    def _origin_data(self, origin: Origin) -> OwnerData | None:
        data = origin.get("data")
        if data is None:
            return None
        try:
            owner = self.parse_owner_data(data)
        except OwnerDataError as problem:
            raise SetupError(f"the game data this game starts with is refused: {problem}") from None
        return None if owner.empty else owner

    def _built_or_refused(self, owner: OwnerData) -> _Built:
        try:
            return self._built(owner.to_plain())
        except OwnerDataError as problem:
            raise SetupError(f"the game data this game starts with is refused: {problem}") from None

    def change_data(self, state: GameState, data: object, sink: EffectSink) -> None:
        """The owner corrected the game data in the middle of a game: checked (the data
        holds, and every figure, item and card of the game is still in it), then used
        from the next step on. Refused whole, changing nothing."""
        try:
            owner = self.parse_owner_data(data)
            pack = self._built(data).pack
        except OwnerDataError as problem:
            raise IllegalInput(str(problem)) from None
        lost = _missing_in(state, pack)
        if lost:
            raise IllegalInput("this game cannot take the new game data: " + "; ".join(lost))
        _set_data(state, None if owner.empty else owner)
        sink.emit("data-changed", "The game data changed (the board editor or the card library); "
                                  "the game goes on with it", data_id=state.data_id)

    def new_game(self, origin: Origin, inputs: list[Input] | None = None) -> Game:
        return Game(self, origin, inputs or [])


def _check_origin(origin: Origin) -> None:
    """Nothing in an origin is dropped unread: an unknown field, or data the origin cannot use, is refused."""
    unknown = sorted(str(k) for k in origin if k not in ORIGIN_FIELDS)
    if unknown:
        raise SetupError(f"a game's origin has unknown field(s) {', '.join(unknown)} "
                         f"(it takes one of 'setup', 'position' or 'state', and 'data' with a setup or position)")
    if "state" in origin and "data" in origin:
        raise SetupError("a saved 'state' carries its own game data (its 'data' field); 'data' beside it cannot "
                         "be used: put it in the state, or start from a position instead")


def _set_data(state: GameState, owner: OwnerData | None) -> None:
    state.data = None if owner is None else owner.to_plain()
    state.data_id = "" if owner is None else owner.fingerprint


def _missing_in(state: GameState, pack: Pack) -> list[str]:
    """What the game has that the new data no longer has: a figure's or an item's place, a card, an item."""
    places = {loc.id for loc in pack.board.locations}
    items, cards = {i.id for i in pack.items}, {c.id for c in pack.cards} | set(state.entered_cards)
    standing = [(f"hero {h}", h_state.location) for h, h_state in state.heroes.items()]
    standing += [(f"monster {m}", m_state.location) for m, m_state in state.monsters.items()]
    standing += [(f"villager {v}", v_state.location) for v, v_state in state.villagers.items()]
    standing += [(f"item {i}", where) for i, where in state.items_at.items()]
    lost = [f"{who} is at {where!r}, which the new data does not have" for who, where in standing
            if where is not None and where not in places]
    lost += [f"Monster card {c!r} is still in the deck" for c in state.deck if c not in cards]
    held = [i for h in state.heroes.values() for i in h.items] + list(state.items_at) + state.haversack
    lost += [f"item {i!r} is in play" for i in dict.fromkeys(held) if i not in items]
    return lost
