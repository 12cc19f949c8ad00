"""Socket.IO events (docs/protocol.md). Every handler answers through the
acknowledgement: ``{"ok": true, ...}`` or ``{"ok": false, "error": {...}}``;
nothing a tablet sends can crash the server or change a game when refused."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, Mapping

from flask_socketio import SocketIO, join_room

from companion.store import StoreError
from companion.table import Table, TableError

if TYPE_CHECKING:
    from .app import Services

MAX_PAYLOAD = 64 * 1024
Reply = dict[str, Any]
Handler = Callable[["Services", Mapping[str, Any]], Reply]


def register(socketio: SocketIO, services: "Services") -> None:
    for event, handler in HANDLERS.items():
        socketio.on_event(event, _guarded(services, handler))


def _guarded(services: "Services", handler: Handler) -> Callable[..., Reply]:
    def answer(data: object = None) -> Reply:
        try:
            return {"ok": True, **handler(services, _payload(data))}
        except TableError as problem:
            return _error(services, problem, data)
        except StoreError as problem:
            return {"ok": False, "error": {"code": "storage", "message": str(problem)}}
    return answer


def _payload(data: object) -> Mapping[str, Any]:
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise TableError("bad-request", "send a JSON object")
    if len(json.dumps(data)) > MAX_PAYLOAD:
        raise TableError("bad-request", f"the message is larger than {MAX_PAYLOAD // 1024} KiB")
    return data


def _error(services: "Services", problem: TableError, data: object) -> Reply:
    reply: Reply = {"ok": False, "error": {"code": problem.code, "message": str(problem)}}
    if problem.code == "stale" and isinstance(data, Mapping) and isinstance(data.get("game_id"), str):
        reply["view"] = services.tables.get(data["game_id"]).view()
    return reply


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise TableError("bad-request", f"'{key}' must be a non-empty text")
    return value


def _whole(data: Mapping[str, Any], key: str, least: int = 0) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise TableError("bad-request", f"'{key}' must be a whole number of at least {least}")
    return value


def _table(services: "Services", data: Mapping[str, Any]) -> Table:
    table = services.tables.get(_text(data, "game_id"))
    if table.game_id not in services.subscribed:
        services.subscribed.add(table.game_id)
        table.subscribe(lambda t, view: services.socketio.emit("view", view, to=t.game_id))
    return table


def _games(services: "Services", data: Mapping[str, Any]) -> Reply:
    return {"games": services.tables.summaries()}


def _new_game(services: "Services", data: Mapping[str, Any]) -> Reply:
    setup = data.get("setup")
    if not isinstance(setup, Mapping):
        raise TableError("bad-request", "'setup' must be an object with 'monsters' and 'heroes'")
    name = data.get("name", "New game")
    game_id = services.tables.create(str(data.get("game", "ravenloft")), str(name), setup)
    services.socketio.emit("games", {"games": services.tables.summaries()})
    return {"game_id": game_id}


def _join(services: "Services", data: Mapping[str, Any]) -> Reply:
    table = _table(services, data)
    join_room(table.game_id)
    return {"view": table.view(), "pack": table.kind.pack_view()}


def _act(services: "Services", data: Mapping[str, Any]) -> Reply:
    table = _table(services, data)
    if "answer" not in data:
        raise TableError("bad-request", "'answer' is missing")
    entry = {"key": data.get("key"), "answer": data["answer"]}
    view = table.act(entry, _whole(data, "version"))
    return {"version": view["version"]}


def _undo(services: "Services", data: Mapping[str, Any]) -> Reply:
    view = _table(services, data).undo(_whole(data, "count", 1), _whole(data, "version"))
    return {"version": view["version"]}


def _redo(services: "Services", data: Mapping[str, Any]) -> Reply:
    view = _table(services, data).redo(_whole(data, "count", 1), _whole(data, "version"))
    return {"version": view["version"]}


def _archive(services: "Services", data: Mapping[str, Any]) -> Reply:
    table = _table(services, data)
    services.store.set_status(table.game_id, "archived")
    services.socketio.emit("games", {"games": services.tables.summaries()})
    return {}


HANDLERS: dict[str, Handler] = {
    "games": _games, "new_game": _new_game, "join": _join, "act": _act,
    "undo": _undo, "redo": _redo, "archive": _archive,
}
