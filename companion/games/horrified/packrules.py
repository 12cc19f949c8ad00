"""The pack's rules: a game on the original board (OriginalRules), or a mixed game with some of
this box's monsters on another Horrified board (mixed.py). Each origin and each state says
which: a setup naming another ``board``, a position or state beside a ``mix``, a state that
carries its ``mix``. Every game is then played by the rules that built it; the mixed rules are
made once per mapping (and kept, a few at once), the other boxes found by the registry when a
mixed game first needs them.
"""

from __future__ import annotations

import json
import threading
from typing import Callable, Mapping

from companion.engine.effects import EffectSink
from companion.engine.errors import IllegalInput, SetupError
from companion.engine.game import Flow, Game, Input
from companion.games.gamepack import GamePack
from companion.games.horrified_core.monster_phase import PhasePoint
from companion.games.horrified_core.pack_types import Pack
from companion.games.horrified_core.rules import HorrifiedRules, Origin
from companion.games.horrified_core.state import GameState

from .mixed import Host, Mix, MixedGame, MixedRules, check_mix, default_mix, hosts_of, merged_mix
from .ownerdata import GAME
from .pack import SPEC
from .rules import OriginalRules

MIXES_KEPT = 8
SETUP_FIELDS = ("monsters", "heroes", "board", "mix")


def registered_packs() -> Mapping[str, Callable[[], GamePack]]:
    from companion.games.registry import pack_makers  # the registry imports the packs: asked only when needed

    return pack_makers()


class HorrifiedPackRules:
    """The Rules the generic :class:`Game` runner plays for this pack, whichever board."""

    name = GAME

    def __init__(self, original: OriginalRules | None = None,
                 packs: Callable[[], Mapping[str, Callable[[], GamePack]]] = registered_packs) -> None:
        self.original = original or OriginalRules()
        self._packs = packs
        self._hosts: dict[str, Host] | None = None
        self._mixes: dict[str, MixedRules] = {}
        self._lock = threading.Lock()

    # -- the other boxes ---------------------------------------------------------------------------------
    def hosts(self) -> dict[str, Host]:
        """The other Horrified boxes on this companion, whose boards a mixed game may use."""
        if self._hosts is None:
            self._hosts = hosts_of(self._packs(), GAME)
        return self._hosts

    def host(self, board: object) -> Host:
        hosts = self.hosts()
        if not isinstance(board, str) or board not in hosts:
            known = ", ".join([GAME, *sorted(hosts)])
            raise SetupError(f"no Horrified board called {board!r} on this companion (boards: {known})")
        return hosts[board]

    # -- which rules -----------------------------------------------------------------------------------------
    def for_origin(self, origin: Origin) -> tuple[HorrifiedRules, Origin]:
        """The rules an origin is played by, and the origin as those rules take it."""
        setup = origin.get("setup")
        if isinstance(setup, Mapping):
            _check_setup(setup)
            if setup.get("board", GAME) != GAME:
                return self._new_mix(origin, setup)
            if "mix" in setup:
                raise SetupError("'mix' maps this box's monsters onto another board: name that 'board'")
            return self.original, {**origin, "setup": {k: v for k, v in setup.items() if k != "board"}}
        state = origin.get("state")
        mix = origin.get("mix", state.get("mix") if isinstance(state, Mapping) else None)
        if mix is None:
            return self.original, origin
        return self.mixed(_with_data(_as_mix(mix), origin.get("data"))), {
            k: v for k, v in origin.items() if k not in ("mix", "data")}

    def for_state(self, state: object) -> HorrifiedRules:
        if isinstance(state, MixedGame):
            return self.mixed(state.mix)
        return self.original

    def _new_mix(self, origin: Origin, setup: Mapping[str, object]) -> tuple[HorrifiedRules, Origin]:
        host, guest = self.host(setup["board"]), self._guest_pack(origin.get("data"))
        monsters = setup.get("monsters")
        if not isinstance(monsters, list) or not all(isinstance(m, str) for m in monsters):
            raise SetupError("choose the monsters: a list of monster ids")
        base = default_mix(host, guest, list(monsters), SPEC.item_types)
        if not base["guests"]:
            ours = ", ".join(m.id for m in guest.monsters)
            raise SetupError(f"a mixed game puts some of this box's monsters on the {host.title} board, but none of "
                             f"{', '.join(monsters) or 'no monsters'} is one of them ({ours}); for the host's monsters "
                             f"alone, start a game of {host.title}")
        mix = merged_mix(base, setup.get("mix"))
        if origin.get("data") is not None:
            mix["data"] = origin["data"]
        rules = self.mixed(mix)
        plain = {k: v for k, v in setup.items() if k in ("monsters", "heroes")}
        return rules, {"setup": plain}

    def _guest_pack(self, data: object) -> Pack:
        """This box's pack as the owner corrected it (the guests' mats), or as shipped."""
        if data is None:
            return self.original.pack
        try:
            return self.original.owner_pack(data)
        except ValueError as problem:
            raise SetupError(f"the game data this game starts with is refused: {problem}") from None

    def mixed(self, mix: Mix) -> MixedRules:
        """The rules of one mapping, made once (a few are kept at once)."""
        key = json.dumps(mix, sort_keys=True)
        with self._lock:
            found = self._mixes.pop(key, None)
        if found is None:
            host, guest = self.host(mix.get("board")), self._guest_pack(mix.get("data"))
            check_mix(mix, host, guest)
            found = MixedRules(mix, host, guest, self.original.overlay)
        with self._lock:
            self._mixes[key] = found
            while len(self._mixes) > MIXES_KEPT:
                self._mixes.pop(next(iter(self._mixes)))
        return found

    # -- the Rules protocol --------------------------------------------------------------------------------------
    def begin(self, origin: Mapping[str, object], sink: EffectSink) -> tuple[object, Flow[None]]:
        rules, taken = self.for_origin(origin)
        return rules.begin(taken, sink)

    def resume(self, state: GameState, point: PhasePoint | None, sink: EffectSink) -> tuple[GameState, Flow[None]]:
        """The game going on from one of its boundaries, by the rules that play its state (the
        original board's or its mix's): this pack's games keep snapshots (undo, reopening) too."""
        return self.for_state(state).resume(state, point, sink)

    def change_data(self, state: GameState, data: object, sink: EffectSink) -> None:
        self.for_state(state).change_data(state, data, sink)

    def anytime(self, state: GameState, move: object, sink: EffectSink) -> None:
        rules = self.for_state(state)
        if not isinstance(rules, MixedRules):
            raise IllegalInput("the original game has no moves that can be made at any time")
        rules.anytime(state, move, sink)

    def new_game(self, origin: Origin, inputs: list[Input] | None = None) -> Game:
        return Game(self, origin, inputs or [])


def _check_setup(setup: Mapping[str, object]) -> None:
    unknown = sorted(str(k) for k in setup if k not in SETUP_FIELDS)
    if unknown:
        raise SetupError(f"a setup has unknown field(s) {', '.join(unknown)} (it takes {', '.join(SETUP_FIELDS)})")


def _with_data(mix: Mix, data: object) -> Mix:
    """The owner's data a mixed game plays with is its guests' (this box's) and rides in its mix: a
    position or state given with ``data`` beside its mix takes it there, never as the host's data."""
    if data is None:
        return mix
    if mix.get("data", data) != data:
        raise SetupError("the game data beside the mix is not the data the mix was made with: give one of them")
    return {**mix, "data": data}


def _as_mix(value: object) -> Mix:
    if not isinstance(value, Mapping):
        raise SetupError("'mix' must be an object (a mixed game's mapping)")
    return {str(k): v for k, v in value.items()}


__all__ = ["HorrifiedPackRules"]
