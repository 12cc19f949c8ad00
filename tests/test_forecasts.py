"""The service's forecasts in the background (companion/server/forecasts.py), on real Tables over
SQLite: each version of a watched game is worked out on a copy of the game while the table plays
on; one worked out for a version the game has left is kept from the listeners (dropped); the
newest version's is told (the old one is called off as soon as the game changes); a game at a moment with no forecast (its Monster Phase) tells nothing."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable, Iterator, Mapping

import pytest

from companion.engine.game import Game
from companion.games.gamepack import View
from companion.games.ravenloft.gamepack import RavenloftPack
from companion.server.forecasts import Forecasts
from companion.store import Store
from companion.table import Table
from companion.workers import Workers
from polling import wait_for

PACK = RavenloftPack()
LEFT = ("ambush", "mists-roll-in")
POSITION = {"phase": "hero", "monsters": {"carrionette": "vallaki"},
            "heroes": [{"hero": "sorcerer", "player": "Sam", "at": "krezk"}],
            "played_cards": [c.id for c in PACK.rules.pack.cards if c.id not in LEFT]}
STEP = {"key": "hero-action", "answer": {"action": "move", "to": "wizard-of-wines", "villagers": []}}


class HeldForecast:
    """The pack's forecaster, held at the start of each forecast until ``go`` is set: a slow one."""

    def __init__(self) -> None:
        self.inner = PACK.forecaster()
        self.started, self.go = threading.Event(), threading.Event()
        self.results: list[View | None] = []  # what each forecast came to (None: called off)

    def forecast(self, game: Game, seconds: float | None = None, stop: Callable[[], bool] | None = None,
                 progress: Callable[[View], None] | None = None, workers: Workers | None = None) -> View | None:
        self.started.set()
        assert self.go.wait(10)
        self.results.append(self.inner.forecast(game, seconds, stop, progress, workers))
        return self.results[-1]

    def what_if(self, game: Game, action: Mapping[str, object], stop: Callable[[], bool] | None = None) -> View | None:
        return self.inner.what_if(game, action, stop)

    def what_ifs(self, game: Game) -> list[View]:
        return self.inner.what_ifs(game)


class SlowPack(RavenloftPack):
    def __init__(self, held: HeldForecast) -> None:
        super().__init__()
        self.held = held

    def forecaster(self) -> HeldForecast:  # type: ignore[override]
        return self.held


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(tmp_path / "games.sqlite")
    yield opened
    opened.close()


def test_a_forecast_for_a_version_the_game_has_left_is_dropped_and_the_newest_told(store: Store) -> None:
    held = HeldForecast()
    table = Table(store, SlowPack(held), store.create_game("ravenloft", "Slow", {"position": POSITION}))
    told: list[tuple[int, View]] = []
    forecasts = Forecasts((lambda t, version, found: told.append((version, found)),))
    try:
        assert forecasts.watch(table) is None  # nothing known yet: it is being worked out
        assert held.started.wait(10)
        table.act(STEP, 0)  # the table plays on while version 0 is worked out
        assert table.version == 1
        held.go.set()
        assert wait_for(lambda: len(held.results) == 2)  # version 1's worked out to the end
        assert told and {version for version, _ in told} == {1}  # version 0's was dropped
        assert told[-1][1]["exact"] and all(not found["exact"] for _, found in told[:-1])  # better and better
        after = Game(PACK.rules, {"position": POSITION}, [STEP])
        assert told[-1][1]["characters"] == PACK.forecaster().forecast(after)["characters"]  # type: ignore[index]
        assert forecasts.known(table) == (True, told[-1][1])
    finally:
        held.go.set()
        forecasts.close()


def test_the_monster_phase_has_no_forecast_and_tells_nothing(store: Store) -> None:
    table = Table(store, PACK, store.create_game("ravenloft", "Ending", {"position": POSITION}))
    told: list[int] = []
    forecasts = Forecasts((lambda t, version, found: told.append(version),))
    try:
        forecasts.watch(table)
        assert wait_for(lambda: told == [0])
        table.act({"key": "hero-action", "answer": {"action": "end"}}, 0)
        assert wait_for(lambda: forecasts.known(table) == (True, None))
        assert told == [0]
    finally:
        forecasts.close()


def test_a_forecast_under_way_is_called_off_as_soon_as_the_game_changes(store: Store) -> None:
    held = HeldForecast()
    table = Table(store, SlowPack(held), store.create_game("ravenloft", "Called off", {"position": POSITION}))
    forecasts = Forecasts()
    try:
        forecasts.watch(table)
        assert held.started.wait(10)
        table.act(STEP, 0)
        held.go.set()
        assert wait_for(lambda: len(held.results) == 2)
        assert held.results[0] is None, "version 0's forecast was worked out to its end for a game that had moved on"
        assert held.results[1] is not None and forecasts.known(table) == (True, held.results[1])
    finally:
        held.go.set()
        forecasts.close()
