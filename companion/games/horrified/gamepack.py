"""The original Horrified as a ``GamePack`` (companion/games/gamepack.py): what the box needs from
this game, answered from the rules (the original board's, or a mixed game's), the pack data and
the modules beside this one."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from companion.engine.dice import DiceSet
from companion.engine.defaults import Suggestion
from companion.engine.effects import EffectSink
from companion.engine.game import Game
from companion.engine.prompts import Prompt
from companion.engine.tabletop import Tabletop
from companion.games.horrified_core.effect_natures import natures
from companion.games.horrified_core.forecast.family import FamilyForecast
from companion.games.gamepack import GamePack, PackWeb, Seat, View
from companion.games.horrified_core import menu
from companion.games.horrified_core.context import GameContext
from companion.games.horrified_core.state import GameState
from companion.games.horrified_core.tablet import FAMILY_WEB
from companion.games.horrified_core.anytime import gift_seat
from companion.games.horrified_core.tabletop import tabletop

from .cli import HorrifiedCli
from .datadesk import HorrifiedDataDesk
from .leds import HorrifiedLeds
from .mixed import MixedGame, MixedRules
from .nextstep import next_answer
from .ownerdata import GAME
from .pack import PACK_NAME
from .packrules import HorrifiedPackRules
from .tablet import boards_view, mixed_pack_view, pack_view
from .view import public_view

WEB = Path(__file__).resolve().with_name("web")


class HorrifiedPack:
    id = GAME
    title = PACK_NAME
    quiet_effects = frozenset({"dice", "note", "check"})
    phase_marks = frozenset({"hero-phase-ended"})
    phase_ends = frozenset({"turn", "game-won", "game-lost"})
    phase_name = "the Monster Phase"
    #: What each effect kind is: a physical step, a note or a question's result (engine/effects.py).
    effect_natures = natures(
        steps=("boat-moved", "coffin-smashed", "hunted", "scarab-down", "scarab-slid", "scarab-up", "soul-token",
               "track"),
        notes=("monsters-met", "power", "tablet-moves", "tablet-solved"))

    def __init__(self, rules: HorrifiedPackRules | None = None) -> None:
        self.rules = rules or HorrifiedPackRules()

    def pack_view(self, game: Game | None = None) -> View:
        """The original board's pack (with the other boards a mixed game may use), or a game's own."""
        if game is None:
            view = pack_view(self.rules.original.pack)
            view["boards"] = boards_view(self.rules.original.pack, self.rules.hosts())
            return view
        state = _state(game)
        rules = self.rules.for_state(state)
        if isinstance(rules, MixedRules):
            return mixed_pack_view(rules)
        return pack_view(rules.pack_for(state))

    def data_id(self, game: Game) -> str:
        """The owner data it plays with; a mixed game adds its mapping, since its pack (the host's
        board with the guests) differs from every other game's with the same data (the service
        keeps one pack view per kind and data id)."""
        state = _state(game)
        if not isinstance(state, MixedGame):
            return state.data_id
        mix = json.dumps({k: v for k, v in state.mix.items() if k != "data"}, sort_keys=True)
        return f"{state.data_id}+mix-{hashlib.sha256(mix.encode('utf-8')).hexdigest()[:16]}"

    def context(self, game: Game) -> GameContext:
        state = _state(game)
        return self.rules.for_state(state).context(state, EffectSink())

    def public_view(self, game: Game) -> View:
        return public_view(self.context(game))

    def seat_view(self, game: Game, seat: str) -> View:
        """Nothing in Horrified is one player's secret."""
        return {}

    def seats(self, game: Game) -> list[Seat]:
        ctx = self.context(game)
        return [Seat(h, f"{ctx.state.heroes[h].player} ({ctx.pack.hero(h).name})") for h in ctx.state.seats]

    def tabletop(self, game: Game) -> Tabletop:
        return tabletop(self.context(game))

    def outcome(self, game: Game) -> str | None:
        return _state(game).outcome

    def anytime_by(self, game: Game, move: object) -> str | None:
        """A Dark Gift is accepted by the hero it names (RL-HA-8)."""
        return gift_seat(move)

    def action_menu(self, game: Game, seat: str | None) -> list[View]:
        return menu.action_menu(self.rules.for_state(_state(game)), game)

    def next_answer(self, prompt: Prompt | None) -> Suggestion:
        return next_answer(prompt)

    def owner_data(self) -> HorrifiedDataDesk:
        return HorrifiedDataDesk(self.rules.original, self.rules.hosts)

    def dice_sets(self) -> tuple[DiceSet, ...]:
        """The original box's Monster dice (its data's ``dice_set``)."""
        return self.rules.original.pack.dice_sets

    def leds(self) -> HorrifiedLeds:
        return HorrifiedLeds(self.rules.original)

    def forecaster(self) -> FamilyForecast:
        return FamilyForecast(self.rules.for_state, type(self))

    def cli(self) -> HorrifiedCli:
        return HorrifiedCli(self.rules)

    def web(self) -> PackWeb:
        return PackWeb(WEB, family=FAMILY_WEB)


def _state(game: Game) -> GameState:
    state = game.state
    assert isinstance(state, GameState), "a Horrified game's state"
    return state


def _as_game_pack(pack: HorrifiedPack) -> GamePack:
    """For the type checker: HorrifiedPack is a GamePack."""
    return pack


__all__ = ["HorrifiedPack"]
