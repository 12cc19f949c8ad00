"""Straszydła as a ``GamePack`` (companion/games/gamepack.py): a competitive game of secrets.
Each player's phone plays their seat (``secret_seats``): their pact card, their plan and
their bid are in that seat's view alone; the shared tablet and the LEDs show what is open."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from companion.engine.dice import DiceSet
from companion.engine.defaults import Suggestion, no_default, physical
from companion.engine.effects import EffectSink, natures_of
from companion.engine.game import Game
from companion.engine.prompts import Prompt
from companion.engine.tabletop import Tabletop
from companion.games.gamepack import GamePack, PackWeb, Seat, View

from .cli import StraszydlaCli
from .context import Ctx
from .leds import StraszydlaLeds
from .menu import menu
from .ownerdata import StraszydlaDataDesk, owner_pack
from .rules import StraszydlaRules
from .state import GameState
from .tabletop import tabletop
from .view import pack_view, public_view, seat_view

WEB = Path(__file__).resolve().with_name("web")


class StraszydlaPack:
    id = "straszydla"
    title = "Straszydła"
    #: Too small to name an input in the history: a seat ready, dice as rolled, cubes put out.
    quiet_effects = frozenset({"planned", "bid-in", "pact-in", "duel-dice", "scare-dice", "replenish", "round",
                               "stops-cleared"})
    phase_marks = frozenset({"time-changed"})
    phase_ends: frozenset[str] = frozenset()
    phase_name = "the day or night"
    #: What each effect kind is: a physical step, a note or a question's result (engine/effects.py).
    effect_natures = natures_of(
        steps=("adjusted", "blockade", "blockades-cleared", "collected", "creature-arrived", "fed", "fled", "horror",
               "horror-action", "imp-exchanged", "imp-taken", "imp-used", "pawn-moved", "replenish", "scared", "stop",
               "stops-cleared", "time-changed", "traded", "withdrew", "duel-won"),
        notes=("bid-in", "bid-sealed", "pact-in", "pact-named", "pacts-again", "plan-laid", "planned", "round", "stuck",
               "duel", "duel-tied", "game-over", "game-won", "no-winner", "data-changed", "stack-empty"),
        results=("bids-revealed", "plans-revealed", "duel-dice", "scare-dice", "duel-dice-changed"))

    def __init__(self, rules: StraszydlaRules | None = None) -> None:
        self.rules = rules or StraszydlaRules()

    def pack_view(self, game: Game | None = None) -> View:
        return pack_view(self.rules.pack if game is None else self.rules.pack_for(_state(game)))

    def data_id(self, game: Game) -> str:
        return _state(game).pack_id

    def public_view(self, game: Game) -> View:
        state = _state(game)
        return public_view(self.rules.pack_for(state), state)

    def seat_view(self, game: Game, seat: str) -> View:
        state = _state(game)
        return seat_view(self.rules.pack_for(state), state, seat)

    def seats(self, game: Game) -> list[Seat]:
        state = _state(game)
        return [Seat(seat, state.players[seat].name) for seat in state.order]

    def anytime_by(self, game: Game, move: object) -> str | None:
        """A trade, an imp or a horror-cube action at any moment is the move of the seat it names: the
        table lets only that seat's device (or, while no device plays it, the shared tablet) make it."""
        seat = move.get("seat") if isinstance(move, Mapping) else None
        return seat if isinstance(seat, str) else None

    def tabletop(self, game: Game) -> Tabletop:
        return tabletop(self.rules.pack_for(_state(game)), _state(game))

    def outcome(self, game: Game) -> str | None:
        return _state(game).outcome

    def action_menu(self, game: Game, seat: str | None) -> list[View]:
        """The buttons for the question asked: on the shared tablet, for whoever answers it; on a
        phone, only when its own seat answers (no phone taps for another player)."""
        prompt = game.prompt
        if prompt is None or prompt.kind != "action":
            return []
        if seat is not None and not prompt.each and prompt.player not in (None, seat):
            return []
        state = _state(game)
        return list(menu(Ctx(self.rules.pack_for(state), state, EffectSink()), prompt, seat))

    def next_answer(self, prompt: Prompt | None) -> Suggestion:
        """NEXT never answers here: every question is a die, a card or a player's own decision."""
        return (physical(prompt) if prompt else None) or no_default(prompt)

    def owner_data(self) -> StraszydlaDataDesk:
        return StraszydlaDataDesk()

    def dice_sets(self) -> tuple[DiceSet, ...]:
        """Plain d6: the shared set."""
        return ()

    def leds(self) -> StraszydlaLeds:
        return StraszydlaLeds(self.rules.pack, owner_pack)

    def forecaster(self) -> None:
        return None

    def cli(self) -> StraszydlaCli:
        return StraszydlaCli(self.rules)

    def web(self) -> PackWeb:
        return PackWeb(WEB)


def _state(game: Game) -> GameState:
    state = game.state
    assert isinstance(state, GameState), "a game of Straszydła's state"
    return state


def _as_game_pack(pack: StraszydlaPack) -> GamePack:
    """For the type checker: StraszydlaPack is a GamePack."""
    return pack


__all__ = ["StraszydlaPack"]
