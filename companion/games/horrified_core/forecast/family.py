"""The forecast as a Horrified-family pack offers it to the box (``PackForecast``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Callable

from companion.engine.effects import EffectSink
from companion.engine.errors import IllegalInput
from companion.engine.game import Game
from companion.workers import Workers

from ..choices import action_options
from ..rules import HorrifiedRules
from ..state import GameState
from .forecast import FORECAST_SECONDS, Forecast, after_action, forecast, forecasts
from .report import Plain, report
from .spread import OnWorkers, PackMaker
from .walk import Stopped

RulesFor = Callable[[GameState], HorrifiedRules]
#: The time the what-ifs of every action may take together (each gets its share), and one what-if.
WHAT_IFS_SECONDS = 3.0
WHAT_IF_SECONDS = 0.8  # its walks and estimate; the copy, the action and the report come on top


class FamilyForecast:
    """``rules_for``: the rules a game plays with (a pack with several, like mixed games, says).
    ``maker``: how a worker process makes the pack again (its class, made without arguments; its
    ``forecaster().rules_for`` must give the same rules), to walk cards there; None: never."""

    def __init__(self, rules_for: RulesFor, maker: PackMaker | None = None) -> None:
        self.rules_for = rules_for
        self.maker = maker

    def forecast(self, game: Game, seconds: float | None = None, stop: Callable[[], bool] | None = None,
                 progress: Callable[[Plain], None] | None = None, workers: Workers | None = None) -> Plain | None:
        """Only during a Hero Phase, before the hero's next action (None when called off). Each
        better forecast on the way (the first estimate, then with more cards exact) is handed to
        ``progress``; the last is returned. ``workers``: the cards are walked there, one each
        (``seconds`` is then the time on the clock)."""
        if game.prompt is None or game.prompt.key != "hero-action":
            return None
        state = _state(game)
        found: Plain | None = None
        walks = OnWorkers(workers, self.maker) if workers is not None and self.maker is not None else None
        try:
            for better in forecasts(self.rules_for(state), state, seconds or FORECAST_SECONDS, stop=stop, walks=walks):
                found = self._report(state, better)
                if progress is not None:
                    progress(found)
        except Stopped:
            return None
        return found

    def what_if(self, game: Game, action: Mapping[str, object], stop: Callable[[], bool] | None = None,
                seconds: float = WHAT_IF_SECONDS) -> Plain | None:
        """None when called off (``stop``)."""
        state = _state(game)
        rules = self.rules_for(state)
        after = after_action(rules, state, action)  # the report names where everyone then stands
        try:
            return self._report(after, forecast(rules, after, seconds, stop=stop))
        except Stopped:
            return None

    def what_ifs(self, game: Game) -> list[Plain]:
        if game.prompt is None or game.prompt.key != "hero-action":
            return []
        state = _state(game)
        rules = self.rules_for(state)
        tried = [a for a in action_options(rules.context(state, EffectSink()), game.prompt) if a["action"] != "end"]
        each = WHAT_IFS_SECONDS / max(1, len(tried))
        return [self._tried(game, a, each) for a in tried]

    def _tried(self, game: Game, action: Mapping[str, object], seconds: float) -> Plain:
        """An action that asks more than it says (which item to give, where to go) is listed
        with why there is no what-if for it."""
        try:
            return {"action": dict(action), "forecast": self.what_if(game, action, seconds=seconds)}
        except IllegalInput as problem:
            return {"action": dict(action), "refused": str(problem)}

    def _report(self, state: GameState, found: Forecast) -> Plain:
        return report(found, self.rules_for(state).context(state, EffectSink()))


def _state(game: Game) -> GameState:
    state = game.state
    assert isinstance(state, GameState), "a Horrified-family game's state"
    return state
