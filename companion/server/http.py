"""HTTP routes: the tablet app's static files and a small JSON API."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, send_from_directory
from werkzeug.exceptions import NotFound, RequestEntityTooLarge

from companion.store import StoreError, UnknownGame
from companion.table import TableError

blueprint = Blueprint("companion", __name__)


def _services() -> Any:
    return current_app.extensions["companion"]


@blueprint.get("/")
def index() -> Response:
    return send_from_directory(_services().web_dir, "index.html")


@blueprint.get("/<path:name>")
def static_file(name: str) -> Response:
    if name.startswith("api/"):
        raise NotFound()
    return send_from_directory(_services().web_dir, name)


@blueprint.get("/packs/<pack_id>/<path:name>")
def pack_file(pack_id: str, name: str) -> Response:
    """A game's tablet module (its pack's web folder, docs/protocol.md "Pack modules")."""
    try:
        pack = _services().tables.kind(pack_id)
    except TableError:
        raise NotFound() from None
    return send_from_directory(pack.web().folder, name)


@blueprint.get("/api/packs")
def packs() -> Response:
    """The games on this box, for the tablet's "Which game?"."""
    tables = _services().tables
    found = [tables.kind(pack_id) for pack_id in tables.pack_ids()]
    return jsonify(packs=[{"id": pack.id, "title": pack.title, "owner_data": pack.owner_data() is not None}
                          for pack in found])


@blueprint.get("/api/games")
def games() -> Response:
    return jsonify(games=_services().tables.summaries())


@blueprint.get("/api/packs/<game>")
def pack(game: str) -> Response:
    """The game pack's drawing data and names (as sent on ``join``), for the setup screen."""
    try:
        kind = _services().tables.kind(game)
    except TableError as problem:
        return _error(404, problem.code, str(problem))
    return jsonify(_services().pack(kind))


@blueprint.get("/api/games/<game_id>/export")
def export_game(game_id: str) -> Response:
    try:
        data = _services().store.export_game(game_id)
    except UnknownGame as problem:
        return _error(404, "unknown-game", str(problem))
    except StoreError as problem:
        return _error(500, "storage", str(problem))
    body = json.dumps(data, indent=1)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="game-{game_id}.json"'})


@blueprint.post("/api/games/import")
def import_game() -> Response:
    # force: a file picked on a tablet may come with any content type; it is JSON or refused.
    data = request.get_json(force=True, silent=True)
    if data is None:
        return _error(400, "bad-request", "send the game file as JSON")
    try:
        game_id = _services().tables.import_game(data)
    except TableError as problem:
        return _error(500 if problem.code == "storage" else 400, problem.code, str(problem))
    _services().socketio.emit("games", {"games": _services().tables.summaries()})
    return jsonify(ok=True, game_id=game_id)


@blueprint.app_errorhandler(RequestEntityTooLarge)
def too_large(problem: RequestEntityTooLarge) -> Response:
    """The 1 MiB limit, answered in the API's own error shape."""
    return _error(413, "bad-request", "the request body is larger than 1 MiB")


def _error(status: int, code: str, message: str) -> Response:
    response = jsonify(ok=False, error={"code": code, "message": message})
    response.status_code = status
    return response
