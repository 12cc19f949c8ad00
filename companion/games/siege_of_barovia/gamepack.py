"""Siege of Barovia as a ``GamePack`` (companion/games/gamepack.py): what the box
needs from this game, answered from the rules and the modules beside this one.

Seats: one a hero player (``p1``...), and the Dungeon Master's (``dm``) when a
person plays it. The DM's turn is asked of the ``dm`` seat alone (the prompt's
audience), so the table refuses it from a hero's tablet, and the DM's menu is
given to that seat only. Nothing else in the game is secret: every figure is
on the table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from companion.engine.dice import DiceSet
from companion.engine.defaults import Suggestion, no_default, physical
from companion.engine.effects import natures_of
from companion.engine.game import Game
from companion.engine.prompts import Prompt
from companion.engine.tabletop import Tabletop
from companion.games.gamepack import GamePack, PackWeb, Seat, View

from .cli import SiegeCli
from .leds import SiegeLeds
from .menu import dm_menu, hero_menu
from .ownerdata import GAME, MapDesk, Maps
from .rules import DM_TURN, HERO_TURN, SiegeRules
from .tabletop import tabletop
from .state import DM_SEAT, SiegeState
from .view import pack_view, public_view

WEB: Final = Path(__file__).resolve().with_name("web")
TITLE: Final = "Siege of Barovia (a Ravenloft mini game)"


class SiegePack:
    id = GAME
    title = TITLE
    #: Effects too small to name an input in the history: a die as rolled.
    quiet_effects = frozenset({"die"})
    phase_marks = frozenset({"dm-turn-begins"})
    phase_ends = frozenset({"turn", "game-won", "game-lost"})
    phase_name = "the Dungeon Master's turn"
    #: What each effect kind is: a physical step, a note or a question's result (engine/effects.py).
    effect_natures = natures_of(
        steps=("barricade-built", "barricade-moved", "barricade-removed", "barricades-placed", "enemy-killed",
               "enemy-placed", "hero-hurt", "hero-moved", "hero-slain", "heroes-placed", "militia-recruited",
               "recruited", "rested", "site-destroyed", "strahd-arrives", "strahd-fled", "strahd-hurt", "summoned",
               "upgraded", "dm-move"),
        notes=("dm-turn-begins", "dm-attack", "dm-passes", "dm-why", "game-lost", "game-won", "hero-attack",
               "summon-nothing", "turn", "turn-ended"),
        results=("die", "dm-miss", "miss"))

    def __init__(self, maps: Maps | None = None) -> None:
        """``maps``: the maps games are played on (one per pack: the owner's are built once)."""
        self.maps = maps or Maps()
        self.rules = SiegeRules(self.maps)

    def pack_view(self, game: Game | None = None) -> View:
        """The map a game plays on (the same for every game of one map: the service keeps one pack
        per data). Which seats a device is asked to claim is the game's: its public view's
        ``secret_seats`` (the DM's seat when a person plays the DM; none against the box)."""
        siege_map = self.maps.for_data(None) if game is None else _state(game).map
        return pack_view(siege_map)

    def data_id(self, game: Game) -> str:
        return _state(game).data_id

    def public_view(self, game: Game) -> View:
        return public_view(_state(game))

    def seat_view(self, game: Game, seat: str) -> View:
        """Nothing in the game is one seat's secret (the DM's choice is the prompt's audience)."""
        return {}

    def seats(self, game: Game) -> list[Seat]:
        state = _state(game)
        found = [Seat(p.id, _seat_name(state, p.id)) for p in state.players]
        return found + ([Seat(DM_SEAT, "Dungeon Master")] if state.dm == "person" else [])

    def anytime_by(self, game: Game, move: object) -> str | None:
        """Siege of Barovia has no moves made at any time."""
        return None

    def tabletop(self, game: Game) -> Tabletop:
        return tabletop(_state(game))

    def outcome(self, game: Game) -> str | None:
        return _state(game).outcome

    def action_menu(self, game: Game, seat: str | None) -> list[View]:
        """The hero turn's buttons for everyone at the table; the DM's whole turns for the DM's seat only."""
        prompt, state = game.prompt, _state(game)
        if prompt is None or prompt.kind != "action":
            return []
        if prompt.key == HERO_TURN:
            return hero_menu(state)
        if prompt.key == DM_TURN and seat == DM_SEAT:
            return dm_menu(state)
        return []

    def next_answer(self, prompt: Prompt | None) -> Suggestion:
        """NEXT ends a hero's turn (UNDO takes it back); it never rolls, and never plays the DM."""
        if prompt is None:
            return no_default(None)
        found = physical(prompt)
        if found is not None:
            return found
        if prompt.kind == "action" and prompt.key == HERO_TURN:
            return Suggestion({"action": "end"}, f"{prompt.text} → end the turn")
        return no_default(prompt)

    def owner_data(self) -> MapDesk:
        return MapDesk(self.maps)

    def dice_sets(self) -> tuple[DiceSet, ...]:
        """No dice of its own: the shared sets."""
        return ()

    def leds(self) -> SiegeLeds:
        return SiegeLeds(self.maps)

    def forecaster(self) -> None:
        return None

    def cli(self) -> SiegeCli:
        return SiegeCli(self)

    def web(self) -> PackWeb:
        return PackWeb(WEB)


def _seat_name(state: SiegeState, player_id: str) -> str:
    player = state.player_named(player_id)
    figure = state.figure_of(player)
    return f"{player.name} ({figure.name})" if figure else player.name


def _state(game: Game) -> SiegeState:
    state = game.state
    assert isinstance(state, SiegeState), "a Siege of Barovia game's state"
    return state


def _as_game_pack(pack: SiegePack) -> GamePack:
    """For the type checker: SiegePack is a GamePack."""
    return pack


__all__ = ["SiegePack"]
