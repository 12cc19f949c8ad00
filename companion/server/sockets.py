"""Socket.IO events (docs/protocol.md). Every handler answers through the
acknowledgement: ``{"ok": true, ...}`` or ``{"ok": false, "error": {...}}``;
nothing a tablet sends can crash the server or change a game when refused."""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any, Callable, Mapping

from flask import request
from flask_socketio import SocketIO

from companion.appliance.access import OPEN_EVENTS
from companion.games.registry import DEFAULT_PACK

from . import fields, forecasts, seats
from .files import is_storage_problem, storage_refusal
from .gamedata import remember_entered_cards

from companion.engine.errors import Refusal
from companion.store import StoreError
from companion.table import Table, TableError

if TYPE_CHECKING:
    from .app import Services

MAX_PAYLOAD = 64 * 1024
Reply = dict[str, Any]
Handler = Callable[["Services", Mapping[str, Any]], Reply]

log = logging.getLogger(__name__)


def register(socketio: SocketIO, services: "Services", *more: Mapping[str, Handler]) -> None:
    """The events of HANDLERS and of ``more`` (e.g. the LEDs'), each answered the same way."""
    handlers = {**HANDLERS, **{event: handler for extra in more for event, handler in extra.items()}}
    for event, handler in handlers.items():
        socketio.on_event(event, _guarded(services, handler, event not in OPEN_EVENTS))
    socketio.on_event("*", lambda event, *args: _unknown_event(event, handlers))


def _unknown_event(event: object, handlers: Mapping[str, Handler]) -> Reply:
    """Answered too: a tablet that sends a misspelt event must not wait forever."""
    return _fail("bad-request", f"there is no event {str(event)[:40]!r}; the events are {', '.join(handlers)}")


def _guarded(services: "Services", handler: Handler, changes: bool) -> Callable[..., Reply]:
    """Every event gets an answer. Without one a tablet waits for an
    acknowledgement that never comes, so even a bug in a handler is answered
    (code ``internal``) and logged. The engine rebuilds itself when the rules
    fail half-way, so a refused input leaves the game as it was. An event that
    ``changes`` something is checked against the pairing first, every time."""
    def answer(*args: object) -> Reply:
        try:
            if changes:
                services.box.access.check_change(str(getattr(request, "sid")))
            return {"ok": True, **handler(services, _payload(args, getattr(handler, "max_payload", MAX_PAYLOAD)))}
        except TableError as problem:
            return _error(services, problem, args[0] if args else None)
        except StoreError as problem:
            return _fail("storage", str(problem))
        except Exception as problem:
            return _unexpected(handler, problem)
    return answer


def _unexpected(handler: Handler, problem: Exception) -> Reply:
    """A file the card refused is the ``storage`` refusal; anything else is a bug: logged with its
    traceback (stderr: the journal; the health view keeps the short form) and answered ``internal``."""
    if is_storage_problem(problem):
        assert isinstance(problem, OSError)
        log.warning("the %s handler could not write: %s", getattr(handler, "__name__", "?"), problem)
        return _fail("storage", str(storage_refusal(problem, "the change")))
    log.error("the %s handler failed", getattr(handler, "__name__", "?"), exc_info=problem)
    return _fail("internal", "the companion could not handle this request because of a fault in it (its log "
                             "and health view name it); join the game again to see where it stands")


def _payload(args: tuple[object, ...], limit: int = MAX_PAYLOAD) -> Mapping[str, Any]:
    """The one JSON object sent, at most ``limit`` bytes as JSON (a handler may allow more with a
    ``max_payload`` attribute: a dice calibration backup is a few hundred KiB)."""
    if len(args) > 1:
        raise TableError("bad-request", "send one JSON object")
    data = args[0] if args else None
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise TableError("bad-request", "send a JSON object")
    try:
        size = len(json.dumps(data))
    except (TypeError, ValueError):
        raise TableError("bad-request", "send plain JSON (no binary data)") from None
    if size > limit:
        raise TableError("bad-request", f"the message is larger than {limit // 1024} KiB")
    return data


def _fail(code: str, message: str) -> Reply:
    return {"ok": False, "error": {"code": code, "message": message}}


def _error(services: "Services", problem: TableError, data: object) -> Reply:
    reply = _fail(problem.code, str(problem))
    if isinstance(problem, Refusal):  # every problem found (an LED layout, a data file)
        reply["error"]["problems"] = list(problem.problems)
    if problem.code == "stale" and isinstance(data, Mapping) and isinstance(data.get("game_id"), str):
        reply["view"] = services.tables.get(data["game_id"]).view()
    return reply


def _table(services: "Services", data: Mapping[str, Any]) -> Table:
    """The game asked for, with its views pushed to its rooms (subscribed once:
    two tablets joining at the same moment must not double every push)."""
    table = services.tables.get(fields.text(data, "game_id"))
    services.seats.push_from(services.socketio, table)
    return table


def _sid() -> str:
    return str(getattr(request, "sid"))


def _seat_asked(data: Mapping[str, Any]) -> str | None:
    return None if data.get("seat") is None else fields.text(data, "seat")


def _games(services: "Services", data: Mapping[str, Any]) -> Reply:
    """The games, and whether the box can save them (the games screen says so when it cannot):
    for a paired tablet only (an unpaired one may watch the game on the board)."""
    services.box.access.check_read(_sid())
    return {"games": services.tables.summaries(), "storage": services.store.health()}


def announce_games(services: "Services") -> None:
    """The games' list, pushed after a game was created, imported, archived or restored, to the
    connections that may read it (paired, the box's own screen) and no other."""
    news = {"games": services.tables.summaries()}
    readers = services.box.access.readers()
    if readers is None:
        services.socketio.emit("games", news)
        return
    for sid in readers:
        services.socketio.emit("games", news, to=sid)


def _new_game(services: "Services", data: Mapping[str, Any]) -> Reply:
    setup = fields.mapping(data, "setup", "an object with the game's setup (as its pack's new-game screen sends)")
    name = fields.optional_text(data, "name", "New game")
    kind = services.tables.kind(fields.optional_text(data, "game", DEFAULT_PACK))
    game_id = services.tables.create(kind.id, name, setup, services.gamedata.in_use(kind))
    announce_games(services)
    return {"game_id": game_id}


def _join(services: "Services", data: Mapping[str, Any]) -> Reply:
    """Anyone may watch (a shared screen, no ``seat``: the public view); a device that claimed a seat,
    with its ``token``, gets that seat's view and from then on that seat's pushes. Only a tablet that
    may change the game puts it on the board (the LEDs, the buttons and the dice camera follow it),
    and never an archived game."""
    table = _table(services, data)
    seat = _seat_asked(data)
    services.seats.enter(_sid(), table, seat, data.get("token"))
    on_board = services.box.access.may_change(_sid()) and not services.tables.archived(table.game_id)
    if on_board:
        services.box.current.remember(table.game_id)
    return {"view": table.view(seat), "pack": services.pack_of(table), "on_board": on_board,
            "leds": services.leds.follow(table) if on_board else services.leds.show_to(table),
            "dice": services.dice.follow(table) if on_board else services.dice.description(),
            "forecast": _forecast_on_join(services, table, on_board)}


def _forecast_on_join(services: "Services", table: Table, on_board: bool) -> dict[str, object] | None:
    """The forecast of the game's version now, if worked out already (else it is pushed when
    ready); the LEDs, just moved to this game, get its glow too."""
    found = services.forecasts.watch(table)
    if found is not None and on_board:
        services.leds.threaten(table.game_id, table.version, found)
    return forecasts.payload(table.game_id, table.version, found) if found is not None else None


def _claim_seat(services: "Services", data: Mapping[str, Any]) -> Reply:
    table = _table(services, data)
    fields.text(data, "seat")
    return seats.claim(services, table, _sid(), data)


def _release_seat(services: "Services", data: Mapping[str, Any]) -> Reply:
    """Free a seat: its holder gives it up (showing its ``token``), or the box's owner frees it."""
    return seats.release(services, _table(services, data), _sid(), fields.text(data, "seat"), data.get("token"))


def _seat_list(services: "Services", data: Mapping[str, Any]) -> Reply:
    """The game's seats and who holds each (the Seats screen)."""
    return seats.listing(services, _table(services, data), _sid(), data.get("token"))


def _act(services: "Services", data: Mapping[str, Any]) -> Reply:
    table = _table(services, data)
    view = table.act(_entry(data), fields.whole(data, "version"), services.seats.seat_of(_sid(), table.game_id))
    remember_entered_cards(services, table, view["effects"])  # type: ignore[arg-type]
    return {"version": view["version"]}


def _entry(data: Mapping[str, Any]) -> dict[str, object]:
    """An answer to the prompt (``answer``, with its ``key``), or a move the game allows at any
    moment whatever is asked (``anytime``: a Dark Gift accepted mid-phase)."""
    if "anytime" in data:
        if "answer" in data:
            raise TableError("bad-request", "send either 'answer' or 'anytime', not both")
        return {"anytime": data["anytime"]}
    if "answer" not in data:
        raise TableError("bad-request", "'answer' is missing")
    key = None if data.get("key") is None else fields.text(data, "key")
    return {"key": key, "answer": data["answer"]}


def _undo(services: "Services", data: Mapping[str, Any]) -> Reply:
    table = _table(services, data)
    view = table.undo(fields.whole(data, "count", 1), fields.whole(data, "version"),
                      services.seats.seat_of(_sid(), table.game_id))
    return {"version": view["version"]}


def _redo(services: "Services", data: Mapping[str, Any]) -> Reply:
    view = _table(services, data).redo(fields.whole(data, "count", 1), fields.whole(data, "version"))
    return {"version": view["version"]}


def _peek(services: "Services", data: Mapping[str, Any]) -> Reply:
    """The public state some steps back (nothing changes): what an undo that far would leave."""
    return _table(services, data).peek(fields.whole(data, "count", 1), fields.whole(data, "version"))


def _archive(services: "Services", data: Mapping[str, Any]) -> Reply:
    table = _table(services, data)
    services.tables.archive(table.game_id)
    services.box.current.forget(table.game_id)
    announce_games(services)
    return {}


def _restore(services: "Services", data: Mapping[str, Any]) -> Reply:
    table = _table(services, data)
    services.tables.restore(table.game_id)
    announce_games(services)
    return {}


HANDLERS: dict[str, Handler] = {
    "games": _games, "new_game": _new_game, "join": _join, "act": _act,
    "claim_seat": _claim_seat, "release_seat": _release_seat, "seat_list": _seat_list,
    "undo": _undo, "redo": _redo, "peek": _peek, "archive": _archive, "restore": _restore,
}
