"""HTTP routes: the tablet app's static files and a small JSON API."""

from __future__ import annotations

import json
import logging
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, send_from_directory
from werkzeug.exceptions import HTTPException, NotFound, RequestEntityTooLarge

from companion.store import StoreError, UnknownGame
from companion.table import TableError, redact

from .box import request_by_owner
from .sockets import announce_games

from .files import is_storage_problem, storage_refusal

blueprint = Blueprint("companion", __name__)
log = logging.getLogger(__name__)
#: The protocol's code for each HTTP error the routes do not answer themselves.
HTTP_CODES = {400: "bad-request", 404: "not-found", 405: "bad-request", 413: "bad-request", 431: "bad-request"}


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


@blueprint.get("/packs/<pack_id>/family/<path:name>")
def pack_family_file(pack_id: str, name: str) -> Response:
    """The tablet code a pack shares with its family (``PackWeb.family``); 404 for a pack
    that declares none. Flask's ``send_from_directory`` refuses any name that leaves the folder."""
    try:
        family = _services().tables.kind(pack_id).web().family
    except TableError:
        raise NotFound() from None
    if family is None:
        raise NotFound()
    return send_from_directory(family, name)


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
    """The game file: whole for the owner; for a player, with the answers given in secret left
    out while the game is in play (companion/table/redact.py)."""
    try:
        data = _services().store.export_game(game_id)
        if not request_by_owner():
            data = redact.for_players(_services().tables.get(game_id).kind, data)
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
        return _error(507 if problem.code == "storage" else 400, problem.code, str(problem))
    announce_games(_services())
    return jsonify(ok=True, game_id=game_id)


@blueprint.app_errorhandler(RequestEntityTooLarge)
def too_large(problem: RequestEntityTooLarge) -> Response:
    """The size limit (1 MiB; more for a backup or a photo), answered in the API's own error shape."""
    limit = request.max_content_length or current_app.config.get("MAX_CONTENT_LENGTH") or 0
    return _error(413, "bad-request", f"the request body is larger than {limit // (1024 * 1024)} MiB")


@blueprint.app_errorhandler(HTTPException)
def http_error(problem: HTTPException) -> Response:
    """Every HTTP error in the API's JSON shape (never an HTML page)."""
    status = problem.code or 500
    return _error(status, HTTP_CODES.get(status, "bad-request" if status < 500 else "internal"),
                  str(problem.description or problem.name))


@blueprint.app_errorhandler(Exception)
def unexpected(problem: Exception) -> Response:
    """A bug: logged with its traceback (stderr, the journal; health keeps the short form), and
    answered in JSON."""
    if isinstance(problem, HTTPException):
        return http_error(problem)
    if isinstance(problem, OSError) and is_storage_problem(problem):
        log.warning("%s %s could not write: %s", request.method, request.path, problem)
        return _error(507, "storage", str(storage_refusal(problem, "the change")))
    log.error("%s %s failed", request.method, request.path, exc_info=problem)
    return _error(500, "internal", "the companion could not handle this request: a fault in the companion "
                                   "(its log and the health view say which); please report it")


def _error(status: int, code: str, message: str) -> Response:
    response = jsonify(ok=False, error={"code": code, "message": message})
    response.status_code = status
    return response
