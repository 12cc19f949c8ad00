"""App factory: one Flask app, one Socket.IO server, one set of tables.

Nothing is created at import time; tests make as many apps as they like.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Generic, Mapping, TypeVar

from flask import Flask
from flask.json.provider import DefaultJSONProvider
from flask_socketio import SocketIO

from companion.games import GamePack
from companion.games.registry import pack_makers
from companion.appliance.access import Access
from companion.store import Store
from companion.store.opening import open_store, salvage
from companion.table import Table, TableError, Tables
from companion.workers import WARM_MODULES, Workers

from . import backup, box, dice, dicesetup, files, forecasts, frames, gamedata, http, leds, sockets
from .box import Box
from .budgets import EventGate
from .dice import Dice
from .forecasts import Forecasts
from .hosts import AllowedHosts, HostGuard
from .leds import Leds
from .seats import SeatSockets

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
MAX_BODY = 1024 * 1024  # HTTP request bodies
#: Pack views kept built (games in play use one per pack and data version; more are rebuilt when asked).
PACK_VIEWS_KEPT = 8
MAX_SOCKET_MESSAGE = 1024 * 1024  # engine.io drops connections sending more; handlers refuse over 64 KiB

log = logging.getLogger(__name__)
T = TypeVar("T")


class KeptFew(Generic[T]):
    """A few built values by key, the least lately used let go (thread-safe): each owner correction
    makes a new pack version, and a box that runs for months must not keep them all."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._kept: OrderedDict[str, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str, build: Callable[[], T]) -> T:
        with self._lock:
            if key not in self._kept:
                self._kept[key] = build()
            self._kept.move_to_end(key)
            while len(self._kept) > self.most:
                self._kept.popitem(last=False)
            return self._kept[key]

    def __len__(self) -> int:
        return len(self._kept)


@dataclass
class Services:
    """What the handlers need, kept on the app (no module globals)."""

    store: Store
    tables: Tables
    socketio: SocketIO
    web_dir: Path
    leds: Leds
    dice: Dice
    box: Box
    state_dir: Path
    gamedata: gamedata.GameData
    seats: SeatSockets
    forecasts: Forecasts
    events: EventGate
    _packs: "KeptFew[dict[str, object]]" = field(default_factory=lambda: KeptFew(PACK_VIEWS_KEPT))

    @property
    def access(self) -> Access:
        """Who each connection is (paired, the owner's): the seats ask it."""
        return self.box.access

    def pack(self, kind: GamePack) -> dict[str, object]:
        """The pack new games of this kind start with: shipped, with the owner's data if any."""
        data = self.gamedata.in_use(kind)
        desk = kind.owner_data()
        if data is None or desk is None:
            return self._cached(kind.id, kind.pack_view)
        return desk.pack_view(data)

    def pack_of(self, table: Table) -> dict[str, object]:
        """The pack a game plays with; built once per game kind and data."""
        return self._cached(f"{table.kind.id}:{table.data_id}", lambda: table.pack_view())

    def _cached(self, key: str, build: Callable[[], dict[str, object]]) -> dict[str, object]:
        return self._packs.get(key, build)

    def close(self) -> None:
        """Stop the dice camera and the LEDs (their threads, then the devices), then close the store;
        at shutdown and after tests. The camera first: its thread may be answering a roll."""
        self.events.close()
        self.forecasts.close()
        self.dice.close()
        self.leds.close()
        self.store.close()


def create_app(config: Mapping[str, Any] | None = None,
               kinds: Mapping[str, Callable[[], GamePack]] | None = None) -> Flask:
    """``config`` keys: STATE_DIR (where the SQLite file and calibrations live), WEB_DIR,
    TESTING, LEDS (the ``[leds]`` settings, docs/leds.md; default: the simulated strip),
    CAMERA (the ``[camera]`` settings, docs/dice.md; default: no camera, dice typed on the tablet),
    PAIRING (``config.PairingSettings``; default: pairing required, the box's own browser trusted),
    ALLOWED_ORIGINS, ALLOWED_HOSTS and DISCOVERY_NAME (the names it answers to: ``hosts``),
    START_MODE (safe mode), CONFIG_TEXT, ERRORS and CONNECTIONS (the server's
    ``ConnectionGuard``; for the health view), FORECAST_WORKERS (how many worker processes walk
    the forecasts, started now; default none: in the forecasts' own thread).
    Callers close what it starts with ``services_of(app).close()``."""
    settings = dict(config or {})
    app = Flask(__name__, static_folder=None)
    app.json = BoundedJSON(app)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY, **settings)
    state_dir = Path(settings.get("STATE_DIR", default_state_dir()))
    for done in files.recover(state_dir):  # what a power cut in the middle of a write left
        log.warning("%s", done)
    store, tables = open_games(state_dir, kinds or pack_makers())
    the_box = box.make_box(settings, state_dir, tables)
    # No thread per event from python-socketio: the budgets' own threads work the events out (budgets.py).
    socketio = SocketIO(app, async_mode="threading", max_http_buffer_size=MAX_SOCKET_MESSAGE,
                        logger=False, engineio_logger=False, async_handlers=False,
                        cors_allowed_origins=the_box.origins())  # type: ignore[arg-type]  # a callable is accepted
    # A frame the protocol cannot take is answered, not dropped; the others go through the budgets per
    # client (the stubs lack ``server``).
    events = EventGate(socketio.server, the_box.access)  # type: ignore[attr-defined]
    frames.guard(socketio.server, events)  # type: ignore[attr-defined]
    the_box.add_part("events", events.to_plain)
    services = _start_services(settings, state_dir, store, tables, socketio, the_box, events)
    app.extensions["companion"] = services
    _guard(app, settings, the_box)
    _register(app, socketio, services)
    return app


def _start_services(settings: Mapping[str, Any], state_dir: Path, store: Store, tables: Tables,
                    socketio: SocketIO, the_box: Box, events: EventGate) -> Services:
    """The parts that run beside the requests: the owner's data, the LEDs, the dice camera, the
    forecasts (whose news goes to the tablets and under the board)."""
    owner = gamedata.GameData(state_dir, tables)
    lights = leds.start(settings, state_dir, tables, socketio, owner.in_use)
    camera = dice.start(settings, state_dir, tables, socketio)
    ahead = Forecasts((forecasts.pusher(socketio), lambda table, version, found:
                       lights.threaten(table.game_id, version, found)), forecast_workers(settings, tables))
    return Services(store, tables, socketio, Path(settings.get("WEB_DIR", WEB_DIR)), lights, camera,
                    the_box, state_dir, owner, SeatSockets(), ahead, events)


def forecast_workers(settings: Mapping[str, Any], tables: Tables) -> Workers | None:
    """The forecasts' worker processes (``FORECAST_WORKERS`` of them; none: no pool), started now
    with the modules of every pack that has a forecast already imported, so that the first
    forecast's walks do not wait for them. None, logged, if the system refuses to start them."""
    size = int(settings.get("FORECAST_WORKERS") or 0)
    if size <= 0:
        return None
    packs = [tables.kind(pack_id) for pack_id in tables.pack_ids()]
    found = [(pack, pack.forecaster()) for pack in packs]
    modules = {type(part).__module__ for pack, forecaster in found if forecaster is not None
               for part in (pack, forecaster)}
    try:
        return Workers(size, warm=WARM_MODULES + tuple(sorted(modules)))
    except OSError as problem:  # the forecast is advice: the service starts, its forecasts in one thread
        log.error("the forecast's worker processes could not start (%s): forecasts are worked out "
                  "in the service's own thread", problem)
        return None


def _guard(app: Flask, settings: Mapping[str, Any], the_box: Box) -> None:
    """Outermost, over Socket.IO's own handling too: a foreign Host is refused before anything."""
    hosts = AllowedHosts(tuple(settings.get("ALLOWED_HOSTS", ())), str(settings.get("DISCOVERY_NAME", "")))
    app.wsgi_app = HostGuard(app.wsgi_app, hosts)  # type: ignore[method-assign]
    connections = settings.get("CONNECTIONS")
    if connections is not None:
        the_box.add_part("server", connections.to_plain)


def _register(app: Flask, socketio: SocketIO, services: Services) -> None:
    """The HTTP routes and the Socket.IO events."""
    app.register_blueprint(box.blueprint)  # first: its guard runs before any route
    app.register_blueprint(backup.blueprint)
    app.register_blueprint(gamedata.blueprint)
    app.register_blueprint(http.blueprint)
    app.register_blueprint(leds.blueprint)
    sockets.register(socketio, services, leds.HANDLERS, dicesetup.HANDLERS, box.HANDLERS,
                     gamedata.HANDLERS, forecasts.HANDLERS)
    socketio.on_event("connect", functools.partial(box.connected, services))
    leds.register_disconnect(socketio, services, lambda sid: dicesetup.leave(services, sid),
                             services.box.access.disconnected, services.seats.left)


class BoundedJSON(DefaultJSONProvider):
    """Request bodies as JSON, with deep nesting refused as bad JSON (a ``ValueError``, which
    Flask answers as a bad request) instead of Python's recursion error (an internal one)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        from .uploads import load_json

        return load_json(s, "the request body")


def open_games(state_dir: Path, kinds: Mapping[str, Callable[[], GamePack]]) -> tuple[Store, Tables]:
    """The games' database as ``companion.store.opening`` opens it (read-only if it must be, a
    damaged one set aside), with every game that could be saved from a damaged one back in play."""
    opened = open_store(state_dir / "companion.sqlite")
    tables = Tables(opened.store, kinds)
    if opened.aside is not None:
        found, opened.lost = salvage(opened.aside)
        for game_id, data, status in found:
            try:
                tables.import_games([(data, status)], ids=[game_id])
                opened.salvaged.append(str(data.get("name", game_id)))
            except TableError as problem:
                opened.lost.append(f"{data.get('name', game_id)!r} ({problem})")
    opened.store.note = opened.report()
    if opened.store.note:
        log.error("%s", opened.store.note)
    return opened.store, tables


def services_of(app: Flask) -> Services:
    found = app.extensions["companion"]
    assert isinstance(found, Services)
    return found


def default_state_dir() -> Path:
    import os

    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "table-companion"
