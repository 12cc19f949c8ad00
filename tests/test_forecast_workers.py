"""The forecast's cards walked on real worker processes (companion/workers.py,
forecast/spread.py): the same exact figures as walked in one process, for both editions and
for a pack loaded as a plug-in; a pack the workers cannot make is walked in process, the log
saying so; a forecast called off leaves no worker busy; and the service starts the workers
it is configured with and ends them when it closes."""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

import pytest

from companion.engine.game import Game
from companion.games.gamepack import View
from companion.games.horrified.gamepack import HorrifiedPack
from companion.games.horrified_core.forecast import forecast
from companion.games.horrified_core.forecast.spread import OnWorkers, PackMaker
from companion.games.horrified_core.rules import HorrifiedRules
from companion.games.horrified_core.state import GameState
from companion.games.ravenloft.gamepack import RavenloftPack
from companion.games.ravenloft.rules import RavenloftRules
from companion.games.registry import pack_makers
from companion.server import create_app
from companion.server.app import services_of
from companion.server.forecasts import Forecasts
from companion.store import Store
from companion.table import Table
from companion.workers import Workers
from horrified_fixtures import pack_rules
from polling import wait_for
from test_forecast_exact import original_position, ravenloft_position

FALLBACK = "walked in this process, not on the workers"
PLUGIN = "forecast_plugin_pack:PluginRavenloftPack"
SOME = ["the-hut-walks", "rot-spreads", "summons-to-the-castle", "into-the-death-house"]  # ~1,600 replays
FEW = ["rot-spreads", "summons-to-the-castle"]


@pytest.fixture(scope="module")
def workers() -> Iterator[Workers]:
    pool = Workers(2)
    yield pool
    pool.close()


def _state(rules: HorrifiedRules, position: dict[str, object]) -> GameState:
    state = Game(rules, {"position": position}).state
    assert isinstance(state, GameState)
    return state


def _editions() -> dict[str, tuple[HorrifiedRules, PackMaker, dict[str, object]]]:
    return {"ravenloft": (RavenloftRules(), RavenloftPack,
                          ravenloft_position(SOME)),
            "original": (pack_rules().original, HorrifiedPack,
                         original_position(["thief-1", "the-hunt-is-on-1", "the-enthralled", "hypnotic-gaze"]))}


@pytest.mark.parametrize("edition", ["ravenloft", "original"])
def test_a_forecast_walked_on_workers_equals_the_one_walked_in_process(
        workers: Workers, edition: str, caplog: pytest.LogCaptureFixture) -> None:
    rules, maker, position = _editions()[edition]
    state = _state(rules, position)
    here = forecast(rules, state, ways_per_card=10 ** 7)
    there = forecast(rules, state, ways_per_card=10 ** 7, walks=OnWorkers(workers, maker))
    assert FALLBACK not in caplog.text
    assert here.estimated == there.estimated == []
    assert there.value == here.value and there.by_hand == here.by_hand and there.layout == here.layout


def test_a_forecast_in_time_on_workers_becomes_exact_and_equal(workers: Workers) -> None:
    """The service's way: an estimate first, then each better forecast as the cards come back."""
    rules, maker, position = _editions()["original"]
    pack = HorrifiedPack()
    game = Game(pack.rules, {"position": position})
    forecaster = pack.forecaster()
    told: list[View] = []
    found = forecaster.forecast(game, 60, progress=told.append, workers=workers)
    assert found is not None and found["exact"] is True
    assert told[0]["exact"] is False and told[0]["estimate_error"] > 0  # the estimate came first
    here = forecaster.forecast(game, 60)
    assert here is not None and here["exact"] is True
    assert _figures(found) == _figures(here)


def _figures(found: View) -> list[object]:
    return [found[key] for key in ("characters", "monster_ends", "terror_rise", "lose", "glow", "by_hand")]


def test_a_pack_loaded_as_a_plug_in_is_walked_on_the_workers(
        workers: Workers, caplog: pytest.LogCaptureFixture) -> None:
    pack = pack_makers(PLUGIN)["ravenloft-plug-in"]()
    assert type(pack).__module__ == "forecast_plugin_pack"
    forecaster = pack.forecaster()
    assert forecaster is not None
    game = Game(pack.rules, {"position": ravenloft_position(FEW)})
    with caplog.at_level(logging.WARNING):
        found = forecaster.forecast(game, 60, workers=workers)
    assert FALLBACK not in caplog.text
    here = forecaster.forecast(game, 60)
    assert found is not None and here is not None and found["exact"] is True
    assert _figures(found) == _figures(here)


class NeedsItsRules(RavenloftPack):
    """A pack a worker cannot make again (its class wants an argument)."""

    def __init__(self, rules: RavenloftRules) -> None:
        super().__init__(rules)


def test_a_pack_the_workers_cannot_make_is_walked_in_process_and_the_log_says_so(
        workers: Workers, caplog: pytest.LogCaptureFixture) -> None:
    pack = NeedsItsRules(RavenloftRules())
    forecaster = pack.forecaster()
    game = Game(pack.rules, {"position": ravenloft_position(FEW)})
    with caplog.at_level(logging.WARNING):
        found = forecaster.forecast(game, 60, workers=workers)
    assert FALLBACK in caplog.text and "TypeError" in caplog.text
    here = forecaster.forecast(game, 60)
    assert found is not None and here is not None and found["exact"] is True
    assert _figures(found) == _figures(here)


# -- calling off -----------------------------------------------------------------------------------

def _cpu(pid: int) -> float:
    """The processor seconds a process has used so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _used(pids: list[int], seconds: float) -> float:
    before = sum(_cpu(pid) for pid in pids)
    time.sleep(seconds)
    return sum(_cpu(pid) for pid in pids) - before


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


FULL_DECK = ravenloft_position(None)  # four monsters, thirty cards: minutes of walks


def _busy_forecast(stop: Callable[[], bool], pool: Workers) -> threading.Thread:
    pack = RavenloftPack()
    game = Game(pack.rules, {"position": FULL_DECK})
    forecaster = pack.forecaster()
    thread = threading.Thread(target=forecaster.forecast, args=(game, 600, stop), kwargs={"workers": pool})
    thread.start()
    return thread


def test_a_forecast_called_off_leaves_no_worker_busy(workers: Workers) -> None:
    called_off = threading.Event()
    thread = _busy_forecast(called_off.is_set, workers)
    pids = workers.pids()
    assert len(pids) == 2
    assert wait_for(lambda: _used(pids, 0.5) > 0.05, timeout=30)  # the walks are under way
    called_off.set()
    thread.join(timeout=5)
    assert not thread.is_alive()
    time.sleep(0.3)  # a replay under way ends
    assert _used(pids, 1.0) <= 0.02
    assert workers.pids() == pids  # and the same workers are there for the next forecast


def test_closing_the_service_s_forecasts_ends_the_workers(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite")
    pack = RavenloftPack()
    table = Table(store, pack, store.create_game("ravenloft", "Busy", {"position": FULL_DECK}))
    forecasts = Forecasts(workers=Workers(2))
    assert forecasts.workers is not None
    pids = forecasts.workers.pids()
    try:
        forecasts.watch(table)
        assert wait_for(lambda: _used(pids, 0.5) > 0.05, timeout=30)
        forecasts.close()
        assert not any(_alive(pid) for pid in pids)
        forecasts.close()  # twice is safe
    finally:
        store.close()


def test_the_service_starts_the_workers_it_is_told_to_and_ends_them_when_it_closes(tmp_path: Path) -> None:
    services = services_of(create_app({"STATE_DIR": tmp_path / "state", "FORECAST_WORKERS": 1}))
    workers = services.forecasts.workers
    assert workers is not None and workers.size == 1
    pids = workers.pids()
    assert len(pids) == 1 and _alive(pids[0])
    services.close()
    assert not _alive(pids[0])
