"""The forecast of a game's coming automatic phase over Socket.IO (docs/protocol.md, "Forecast").

Why a module of its own, with a thread of its own: a forecast replays the rules engine many
times and may take seconds, so it is never worked out while a request waits or while the table
is held. A pack's forecast may get better with time (an estimate at once, exact later): each
better one is kept and told as it comes, until the last, or until the game moves on. Each change of a game that a tablet joined asks for the forecast of its new version;
one background thread works them out, the newest version of each game only, on a copy of the
game (``Table.copy``), so the table plays on meanwhile. A forecast is kept by game and version
and told to its ``listeners`` (the game's tablets, the LEDs) only while that version is still the
game's: one worked out for a moment the game has left is dropped. A what-if (the forecast after
an action the player is thinking of) is answered to the tablet that asked, from a copy too, and
never changes the game.

The service knows no game: what a forecast holds is the pack's (its ``PackForecast``).
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable, Mapping, Protocol

from flask_socketio import SocketIO

from companion.engine.errors import IllegalInput
from companion.games.gamepack import PackForecast, View
from companion.table import Table, TableError, Tables
from companion.workers import Workers

from . import fields
from .budgets import EventGate

Reply = dict[str, Any]
#: Told of each forecast worked out for the version a game still has: (table, version, forecast).
Listener = Callable[[Table, int, View], None]
#: How long one version's forecast is refined at most (a pack makes it exact sooner if it can).
REFINE_SECONDS = 120.0

log = logging.getLogger(__name__)


class ForecastNeeds(Protocol):
    """What the forecast handlers use of the service: the games and their forecasts.
    The app's ``Services`` has it all; a handler here reaches nothing else."""

    @property
    def tables(self) -> Tables: ...

    @property
    def forecasts(self) -> Forecasts: ...

    @property
    def events(self) -> EventGate: ...


class Forecasts:
    """The forecasts of the games tablets joined: worked out in the background, kept by version."""

    def __init__(self, listeners: tuple[Listener, ...] = (), workers: Workers | None = None) -> None:
        """``workers``: the worker processes the forecasts share their work out to (one per core;
        they are this object's from now on, closed with it); None: worked out in this process."""
        self.listeners = listeners
        self.workers = workers
        self._known: dict[str, tuple[int, View | None]] = {}  # game id -> (version, its forecast)
        self._wanted: dict[str, Table] = {}  # games whose newest version has no forecast yet
        self._watched: set[str] = set()
        self._lock = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._asking = threading.Lock()  # one what-if at a time: each takes the box's CPU for a while

    def watch(self, table: Table) -> View | None:
        """From now on each change of ``table`` asks for its forecast; the forecast of the version it
        has now if it is known already (else None: it is pushed when ready)."""
        if _forecaster(table) is None:
            return None
        with self._lock:
            first = table.game_id not in self._watched
            self._watched.add(table.game_id)
        if first:
            table.subscribe(lambda changed, view: self.want(changed))
        done, found = self.known(table)
        if not done:
            self.want(table)
        return found

    def known(self, table: Table) -> tuple[bool, View | None]:
        """Whether the forecast of the version ``table`` has now is worked out, and the forecast
        (None: there is none at this moment of the game)."""
        with self._lock:
            found = self._known.get(table.game_id)
        return (True, found[1]) if found is not None and found[0] == table.version else (False, None)

    def want(self, table: Table) -> None:
        """Ask for the forecast of ``table``'s newest version (a game's older wish is dropped)."""
        with self._lock:
            if self._closed:
                return
            self._wanted[table.game_id] = table
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="forecasts", daemon=True)
                self._thread.start()
            self._lock.notify()

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._wanted and not self._closed:
                    self._lock.wait()
                if self._closed:
                    return
                game_id = next(iter(self._wanted))
                table = self._wanted.pop(game_id)
            self._work_out(table)

    def _work_out(self, table: Table) -> None:
        """One forecast, kept and told if its version is still the game's, each better one as it
        comes; called off as soon as the game changes (the newer version is wanted already and
        comes next). A fault in a pack's forecast is logged and leaves that version without a
        better one: the forecasts of every later change, and the game, go on."""
        forecaster = _forecaster(table)
        if forecaster is None:
            return
        try:
            version, game = table.copy()
            found = forecaster.forecast(game, REFINE_SECONDS, stop=lambda: self._moved_on(table, version),
                                        progress=lambda better: self._keep(table, version, better),
                                        workers=self.workers)
        except Exception:  # noqa: BLE001 - a forecast is advice: its fault must not stop the next ones
            log.exception("the forecast of game %s could not be worked out", table.game_id)
            return
        if found is None:
            self._keep(table, version, None)

    def _keep(self, table: Table, version: int, found: View | None) -> None:
        """Keep and tell ``found`` if ``version`` is still the game's (else it is dropped: a newer
        one is wanted); the same forecast told twice is told once."""
        if self._moved_on(table, version):
            return
        with self._lock:
            if self._known.get(table.game_id) == (version, found):
                return
            self._known[table.game_id] = (version, found)
        if found is not None:
            self._tell(table, version, found)

    def _moved_on(self, table: Table, version: int) -> bool:
        """Nobody waits for the forecast of ``table`` at ``version`` any more (the game has changed
        since, or the service stops): a forecast under way is called off within a replay."""
        with self._lock:
            return self._closed or table.version != version

    def _tell(self, table: Table, version: int, found: View) -> None:
        for listener in self.listeners:
            try:
                listener(table, version, found)
            except Exception:  # noqa: BLE001 - one listener (the LEDs) failing must not keep it from the others
                log.exception("a forecast listener of game %s failed", table.game_id)

    def what_if(self, table: Table, version: int, action: Mapping[str, object],
                stop: Callable[[], bool] = lambda: False) -> View:
        """The forecast after ``action``, tried on a copy of the game at ``version`` (refused
        ``stale`` if the game has moved on, ``illegal`` if the rules refuse the action). ``stop``
        says the tablet that asked has gone: one waiting for its turn is not worked out, one under
        way is called off (``called-off``: nobody reads that answer)."""
        forecaster = _forecaster(table)
        if forecaster is None:
            raise TableError("illegal", f"the game {table.kind.title} has no forecast to ask a what-if of")
        _, game = table.copy(version)
        with self._asking:
            try:
                found = None if stop() else forecaster.what_if(game, action, stop=stop)
            except IllegalInput as problem:
                raise TableError("illegal", f"no what-if for this action: {problem}") from None
        if found is None:
            raise TableError("called-off", "the what-if was called off: the tablet that asked it has gone")
        return found

    def close(self) -> None:
        """Stop the thread, then the worker processes (at shutdown and after tests; safe twice). A
        forecast under way is called off (its walks on the workers stop within a replay) and not
        waited for long: the thread is a daemon, and its result is never told."""
        with self._lock:
            self._closed = True
            self._lock.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(timeout=2)
        if self.workers is not None:
            self.workers.close()


def _forecaster(table: Table) -> PackForecast | None:
    return table.kind.forecaster()


def pusher(socketio: SocketIO) -> Listener:
    """The listener that pushes each forecast to every tablet of its game (it is public: the
    players all see the same table)."""
    def push(table: Table, version: int, found: View) -> None:
        socketio.emit("forecast", payload(table.game_id, version, found), to=table.game_id)
    return push


def payload(game_id: str, version: int, found: View | None) -> dict[str, object]:
    return {"game_id": game_id, "version": version, "forecast": found}


def _what_if(services: "ForecastNeeds", data: Mapping[str, Any]) -> Reply:
    """Answered to the asking tablet only; the game never changes."""
    table = services.tables.get(fields.text(data, "game_id"))
    version = fields.whole(data, "version")
    action = fields.mapping(data, "action", "an object: one of the view's actions, without its label")
    found = services.forecasts.what_if(table, version, action, services.events.called_off)
    return {"version": version, "action": dict(action), "forecast": found}


HANDLERS: dict[str, Callable[["ForecastNeeds", Mapping[str, Any]], Reply]] = {
    "forecast_what_if": _what_if,
}
