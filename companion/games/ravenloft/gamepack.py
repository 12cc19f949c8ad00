"""Ravenloft as a ``GamePack`` (companion/games/gamepack.py): what the box needs
from this game, answered from the rules, the pack data and the modules beside
this one."""

from __future__ import annotations

from pathlib import Path
from companion.engine.dice import DiceSet
from companion.engine.defaults import Suggestion
from companion.engine.game import Game
from companion.engine.prompts import Prompt
from companion.engine.tabletop import Tabletop
from companion.games.horrified_core.effect_natures import natures
from companion.games.horrified_core.forecast.family import FamilyForecast
from companion.games.gamepack import GamePack, PackWeb, Seat, View
from companion.games.horrified_core.tablet import FAMILY_WEB
from companion.games.horrified_core.anytime import gift_seat
from companion.games.horrified_core.tabletop import tabletop

from .cli import RavenloftCli
from .datadesk import RavenloftDataDesk
from .leds import RavenloftLeds
from .nextstep import next_answer
from .pack import PACK_NAME
from .rules import RavenloftRules
from .simulate import context_for
from .state import GameState
from .tablet import action_menu, pack_view
from .view import public_view

WEB = Path(__file__).resolve().with_name("web")


class RavenloftPack:
    id = "ravenloft"
    title = PACK_NAME
    #: Effects too small to name an input in the history: a die as rolled, the dice, a note.
    quiet_effects = frozenset({"d20", "dice", "note"})
    phase_marks = frozenset({"hero-phase-ended"})
    phase_ends = frozenset({"turn", "game-won", "game-lost"})
    phase_name = "the Monster Phase"
    #: What each effect kind is: a physical step, a note or a question's result (engine/effects.py).
    effect_natures = natures(
        steps=("blight-placed", "blight-removed", "gem-moved", "heart-destroyed", "hut-token", "hut-token-removed",
               "part-swapped", "relic-picked-up", "relic-placed", "relic-returned", "relics-cleared", "root-revealed",
               "roots-removed", "roots-shuffled", "dark-gift"),
        notes=("hit-ignored", "first-player-tie", "silver-needle", "strahd-fury"),
        results=("d20", "critical-failure", "reroll", "roll-boosted", "special"))

    def __init__(self, rules: RavenloftRules | None = None) -> None:
        """``rules``: other rules than the shipped pack's (tests play with their own cards)."""
        self.rules = rules or RavenloftRules()

    def pack_view(self, game: Game | None = None) -> View:
        return pack_view(self.rules.pack if game is None else self.rules.pack_for(_state(game)))

    def data_id(self, game: Game) -> str:
        return _state(game).data_id

    def public_view(self, game: Game) -> View:
        return public_view(context_for(self.rules, _state(game)))

    def seat_view(self, game: Game, seat: str) -> View:
        """Nothing in Ravenloft is one player's secret."""
        return {}

    def seats(self, game: Game) -> list[Seat]:
        state = _state(game)
        pack = self.rules.pack_for(state)
        return [Seat(h, f"{state.heroes[h].player} ({pack.hero(h).name})") for h in state.seats]

    def tabletop(self, game: Game) -> Tabletop:
        return tabletop(context_for(self.rules, _state(game)))

    def outcome(self, game: Game) -> str | None:
        return _state(game).outcome

    def anytime_by(self, game: Game, move: object) -> str | None:
        """A Dark Gift is accepted by the hero it names (RL-HA-8)."""
        return gift_seat(move)

    def action_menu(self, game: Game, seat: str | None) -> list[View]:
        return action_menu(self.rules, game)

    def next_answer(self, prompt: Prompt | None) -> Suggestion:
        return next_answer(prompt)

    def owner_data(self) -> RavenloftDataDesk:
        return RavenloftDataDesk(self.rules)

    def dice_sets(self) -> tuple[DiceSet, ...]:
        """The Ravenloft box's Monster dice (its data's ``dice_set``)."""
        return self.rules.pack.dice_sets

    def leds(self) -> RavenloftLeds:
        return RavenloftLeds(self.rules)

    def forecaster(self) -> FamilyForecast:
        return FamilyForecast(lambda state: self.rules, type(self))

    def cli(self) -> RavenloftCli:
        return RavenloftCli(self, self.rules)

    def web(self) -> PackWeb:
        return PackWeb(WEB, family=FAMILY_WEB)


def _state(game: Game) -> GameState:
    state = game.state
    assert isinstance(state, GameState), "a Ravenloft game's state"
    return state


def _as_game_pack(pack: RavenloftPack) -> GamePack:
    """For the type checker: RavenloftPack is a GamePack."""
    return pack


__all__ = ["RavenloftPack"]
