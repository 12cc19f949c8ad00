"""Straszydła's rules for the engine (``companion.engine.game.Rules``): a new game from the
owner's setup, with the shipped data or the owner's, the owner's data changed during
a game (as long as everything on the table is still in it), and the moves a player may make
at any moment (anytime.py)."""

from __future__ import annotations

from collections.abc import Mapping

from companion.engine.effects import EffectSink
from companion.engine.errors import IllegalInput, SetupError
from companion.engine.game import Flow

from .anytime import any_moment
from .context import Ctx
from .ownerdata import OwnerDataError, data_id, owner_pack
from .packdata import Pack, load_pack
from .rounds import play
from .setup import new_state
from .state import GameState


class StraszydlaRules:
    def __init__(self, pack: Pack | None = None) -> None:
        """``pack``: other data than the shipped files (tests play with small boxes of their own)."""
        self.pack = pack or load_pack()

    def pack_for(self, state: GameState) -> Pack:
        return self.pack if state.data is None else owner_pack(state.data)

    def begin(self, origin: Mapping[str, object], sink: EffectSink) -> tuple[GameState, Flow[None]]:
        setup = origin.get("setup")
        if not isinstance(setup, Mapping):
            raise SetupError("a game of Straszydła starts from a 'setup' (docs/straszydla.md)")
        data = origin.get("data")
        pack = self._pack_of(data)
        state = new_state(pack, setup, data_id(data) if isinstance(data, Mapping) else "")
        state.data = dict(data) if isinstance(data, Mapping) else None
        return state, play(Ctx(pack, state, sink, owner_pack))

    def _pack_of(self, data: object) -> Pack:
        if data is None:
            return self.pack
        if not isinstance(data, Mapping):
            raise SetupError("'data' must be the owner's game data (an object)")
        try:
            return owner_pack(data)
        except (OwnerDataError, ValueError) as problem:
            raise SetupError(f"the owner's game data does not hold: {problem}") from None

    def anytime(self, state: object, move: object, sink: EffectSink) -> None:
        """A trade at the bank, a horror-cube action or an imp, whatever is being asked (anytime.py)."""
        assert isinstance(state, GameState)
        any_moment(Ctx(self.pack_for(state), state, sink, owner_pack), move)

    def change_data(self, state: object, data: object, sink: EffectSink) -> None:
        """The owner's data saved mid-game: taken when every tile, creature, imp and pact card in
        play is still in it (else refused, and the game keeps its data)."""
        assert isinstance(state, GameState)
        if not isinstance(data, Mapping):
            raise IllegalInput("the game data must be an object")
        try:
            pack = owner_pack(data)
        except (OwnerDataError, ValueError) as problem:
            raise IllegalInput(f"the game data does not hold: {problem}") from None
        missing = _missing(pack, state)
        if missing:
            raise IllegalInput(f"this game keeps its data: the new data lacks {', '.join(missing[:5])}, in play here")
        state.data, state.pack_id = dict(data), data_id(data)
        sink.emit("data-changed", "The game data changed; the next steps use it.")


def _missing(pack: Pack, state: GameState) -> list[str]:
    tiles, creatures = {t.id for t in pack.tiles}, {c.id for c in pack.creatures}
    imps, pacts = {i.id for i in pack.imps}, {p.id for p in pack.pacts}
    used = [("tile", t, tiles) for t in state.layout.values()]
    for player in state.players.values():
        used += [("creature", c, creatures) for c in player.creatures] + [("imp", i, imps) for i in player.imps]
        used += [("pact card", player.pact, pacts)] if player.pact else []
    for stack in state.stacks.values():
        used += [("creature", c, creatures) for c in stack.left()]
    return [f"{noun} {value!r}" for noun, value, known in used if value not in known]


__all__ = ["StraszydlaRules"]
