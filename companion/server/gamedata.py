"""The owner's game data in the service: kept, checked, saved, handed to the games
(docs/protocol.md "Game data", docs/game-data.md).

Why here: the owner corrects the shipped pack from a tablet (board editor,
card library, data status page). Their document is kept apart from the pack,
in ``<state>/owner/<game>.json``, written atomically; every save and import is
checked whole first (refused with every problem named, nothing changed). A
saved document goes to every game in play as an input of its log - so the
next Monster Phase uses it, and a replay or an undo sees it at the same
place - and new games start with it.
"""

from __future__ import annotations

import copy
import json
import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

from flask import Blueprint, Response, current_app, jsonify, request

from companion.games import GamePack, OwnerDataDesk
from companion.games.overlay import OwnerDataError, without_road
from companion.games.registry import DEFAULT_PACK
from companion.engine.errors import Refusal, problems_of
from companion.table import Refused, Table, TableError, Tables

from . import fields, leds
from .files import write_atomic
from .uploads import IMAGE_TYPES, checked_image

if TYPE_CHECKING:
    from flask_socketio import SocketIO

    from .dice import Dice
    from .leds import Leds

OWNER_DIR = "owner"
MAX_PHOTO = 8 * 1024 * 1024
Reply = dict[str, Any]


class GameDataNeeds(Protocol):
    """What the owner-data handlers use of the service.
    The app's ``Services`` has it all; a handler here reaches nothing else."""

    @property
    def gamedata(self) -> GameData: ...

    @property
    def tables(self) -> Tables: ...

    @property
    def dice(self) -> Dice: ...

    @property
    def leds(self) -> Leds: ...

    @property
    def socketio(self) -> SocketIO: ...


log = logging.getLogger(__name__)
blueprint = Blueprint("gamedata", __name__)


class DataRefused(Refused):
    """Owner data refused whole (``illegal``), with every problem for the tablet to list."""


class GameData:
    """The owner's documents, one per game kind, and the lock that keeps saves in order."""

    def __init__(self, state_dir: Path, tables: Tables) -> None:
        self.folder = state_dir / OWNER_DIR
        self.tables = tables
        self.lock = threading.Lock()

    def desk(self, game: object) -> tuple[GamePack, OwnerDataDesk]:
        kind = self.tables.kind(str(game or DEFAULT_PACK))
        desk = kind.owner_data()
        if desk is None:
            raise TableError("bad-request", f"the data of {kind.id!r} cannot be edited")
        return kind, desk

    def path(self, kind: GamePack) -> Path:
        return self.folder / f"{kind.id}.json"

    def saved(self, kind: GamePack) -> tuple[dict[str, object], list[str]]:
        """The saved document (the empty one if none) and its problems with today's pack:
        a pack update can make a saved correction name something that is gone."""
        _, desk = self.desk(kind.id)
        try:
            data = json.loads(self.path(kind).read_text("utf-8"))
        except FileNotFoundError:
            return desk.empty(), []
        except (OSError, ValueError) as problem:
            return desk.empty(), [f"{self.path(kind)} cannot be read ({problem}); the shipped data is in use"]
        return data, _problems(lambda: desk.check(data))

    def in_use(self, kind: GamePack) -> dict[str, object] | None:
        """The document new games start with: the saved one, if it holds (None: as shipped)."""
        desk = kind.owner_data()
        if desk is None:
            return None
        data, problems = self.saved(kind)
        return None if problems or data == desk.empty() else data

    def write(self, kind: GamePack, data: Mapping[str, object]) -> None:
        """Atomically: a power cut leaves the old file or the new one, never half of one; a write the
        disk refuses is the ``storage`` refusal and leaves no temporary file."""
        write_atomic(self.path(kind), json.dumps(data, indent=1).encode("utf-8"), f"the {kind.id} game data")

    def photo(self, kind: GamePack) -> Path | None:
        found = [p for p in (self.folder / f"{kind.id}-board.jpg", self.folder / f"{kind.id}-board.png")
                 if p.is_file()]
        return max(found, key=lambda p: p.stat().st_mtime) if found else None


def _problems(check: Callable[[], object]) -> list[str]:
    try:
        check()
    except ValueError as problem:
        return problems_of(problem)
    return []


def checked(desk: OwnerDataDesk, data: object) -> tuple[dict[str, object], dict[str, object]]:
    """Files and status, or DataRefused naming every problem."""
    try:
        return desk.check(data)
    except ValueError as problem:
        problems = problems_of(problem)
        raise DataRefused(f"the game data is refused, nothing was saved: {'; '.join(problems)}", problems) from None


def save(services: "GameDataNeeds", kind: GamePack, data: Mapping[str, object], skip: str = "") -> Reply:
    """Check, write, and hand to every game of this kind in play (but ``skip``)."""
    _, desk = services.gamedata.desk(kind.id)
    with services.gamedata.lock:
        _, status = checked(desk, data)
        fits_the_leds(services, kind, data)
        services.gamedata.write(kind, data)
        if kind.id == services.leds.game:
            services.leds.reshape(leds.board_shape(kind, data))
        games = [apply_to(services, summary, data) for summary in services.tables.summaries()
                 if summary.get("game") == kind.id and summary.get("status") == "active"
                 and not summary.get("outcome") and summary.get("game_id") != skip]
    services.socketio.emit("data", {"game": kind.id, "saved": True})
    return {"status": status, "games": games}


def fits_the_leds(services: "GameDataNeeds", kind: GamePack, data: Mapping[str, object]) -> None:
    """DataRefused, before anything is written, when ``kind``'s board lies under the LEDs and the
    layout of the board as ``data`` corrects it needs more LEDs than the strip has: the LED settings are
    fixed first (the refusal says which), then the data is saved."""
    if kind.id != services.leds.game:
        return
    problem = services.leds.misfit(leds.board_shape(kind, data))
    if problem:
        why = (f"the LEDs lie under this game's board, and {problem}: set leds.count in the box's configuration "
               "to the number of LEDs on the strip (or run LED setup for a layout that fits it), then save again")
        raise DataRefused(f"the game data is refused, nothing was saved: {why}", [why])


def remember_entered_cards(services: "GameDataNeeds", table: Table, effects: list[Mapping[str, Any]]) -> None:
    """A Monster card typed in at the table joins the owner's card library, in place of a
    guessed card, so it is in every later game's deck: entered once, known from then on.
    The game it was typed in already holds it (in its log); the other games get the data."""
    entered = [e.get("data") for e in effects if e.get("kind") == "card-entered"]
    desk = table.kind.owner_data()
    if not entered or desk is None:
        return
    saved, problems = services.gamedata.saved(table.kind)
    if problems:
        log.warning("a card typed in is not added to the card library: the saved data has problems: %s", problems)
        return
    document = copy.deepcopy(saved)
    files, _ = desk.check(document)
    for card in entered:
        if isinstance(card, Mapping):
            _library_card(document, files, card)
    try:
        save(services, table.kind, document, skip=table.game_id)
    except TableError as refused:  # refused data, or a card that cannot be written: the input itself is saved
        log.warning("a card typed in is not added to the card library: %s", refused)


def _library_card(document: dict[str, Any], files: Mapping[str, Any], card: Mapping[str, Any]) -> None:
    """In place of the guessed card the game replaced, or of another guess if the owner already confirmed that one."""
    confirmed: list[str] = document.setdefault("confirmed", [])
    guesses = [c["id"] for c in files["cards.json"]["cards"] if not c.get("verified")]
    candidates = [str(card.get("replaces"))] + guesses
    target = next((c for c in candidates if c in guesses and f"cards.cards.{c}" not in confirmed), None)
    if target is None:
        return  # every card is the owner's already
    cards = document.setdefault("changes", {}).setdefault("cards", {}).setdefault("cards", {})
    cards[target] = {**copy.deepcopy(dict(card.get("fields") or {})), "verified_fields": [],
                     "note": "Typed in at the table from the owner's own card."}
    confirmed.append(f"cards.cards.{target}")


def apply_to(services: "GameDataNeeds", summary: Mapping[str, object], data: Mapping[str, object]) -> dict[str, object]:
    """One game takes the data as an input of its log, or says why it cannot
    (a game that already plays with exactly this data is left as it is)."""
    table = services.tables.get(str(summary["game_id"]))
    _, desk = services.gamedata.desk(table.kind.id)
    base = {"game_id": table.game_id, "name": table.name}
    if table.data_id == _data_id(desk, data):
        return {**base, "applied": True, "why": "it already plays with this data"}
    try:
        table.act({"data": dict(data)}, table.version)
    except TableError as refused:
        return {**base, "applied": False, "why": str(refused)}
    return {**base, "applied": True, "why": "the next steps use the new data"}


def _data_id(desk: OwnerDataDesk, data: Mapping[str, object]) -> str:
    """The ``data_id`` a game playing with ``data`` has ("" for the shipped data)."""
    owner = desk.parse(data)
    return "" if owner.empty else str(owner.fingerprint)


# -- Socket.IO events --------------------------------------------------------------------------------

def _get(services: "GameDataNeeds", data: Mapping[str, Any]) -> Reply:
    kind, desk = services.gamedata.desk(data.get("game"))
    saved, problems = services.gamedata.saved(kind)
    files, status = checked(desk, saved if not problems else desk.empty())
    return {"data": saved, "files": files, "status": status, "problems": problems,
            "photo": services.gamedata.photo(kind) is not None, "camera": services.dice.camera is not None}


def _check(services: "GameDataNeeds", data: Mapping[str, Any]) -> Reply:
    _, desk = services.gamedata.desk(data.get("game"))
    try:
        files, status = desk.check(data.get("data"))
    except ValueError as problem:
        return {"problems": problems_of(problem), "files": None, "status": None}
    return {"problems": [], "files": files, "status": status}


def _save(services: "GameDataNeeds", data: Mapping[str, Any]) -> Reply:
    kind, _ = services.gamedata.desk(data.get("game"))
    return save(services, kind, fields.mapping(data, "data", "the owner-data document (an object)"))


def _snapshot(services: "GameDataNeeds", data: Mapping[str, Any]) -> Reply:
    """The board photo from the dice camera (mounted over the table, it sees the board too)."""
    kind, _ = services.gamedata.desk(data.get("game"))
    image = services.dice.snapshot_jpeg()
    _write_photo(services, kind, image)
    return {"bytes": len(image)}


def _road_missing(services: "GameDataNeeds", data: Mapping[str, Any]) -> Reply:
    """"That road isn't on my board", tapped on a monster's path over a road we guessed: the road
    leaves the owner's data, and the game's last step (the move, or the question of its paths) is
    worked out again without it - not left as the old board made it. Then the other games in play
    and new games get the data, as with any save. Refused whole, changing nothing."""
    table = services.tables.get(fields.text(data, "game_id"))
    version = fields.whole(data, "version")
    between = data.get("between")
    if not (isinstance(between, list) and len(between) == 2 and all(isinstance(x, str) and x for x in between)):
        raise fields.refused("between", "the two places the road joins (a list of two location ids)", between)
    _, desk = services.gamedata.desk(table.kind.id)
    saved, problems = services.gamedata.saved(table.kind)
    if problems:
        raise DataRefused("the saved game data has problems, so nothing was changed: fix them on the data page first",
                          problems)
    files, _ = checked(desk, saved)
    try:
        document = without_road(saved, files, between[0], between[1])
    except OwnerDataError as problem:
        raise DataRefused(f"nothing was changed: {'; '.join(problem.problems)}", problem.problems) from None
    checked(desk, document)
    fits_the_leds(services, table.kind, document)  # before the game takes it: the save after must not fail
    view = table.again_after({"data": document}, version)
    reply = save(services, table.kind, document, skip=table.game_id)
    return {"version": view["version"], **reply}


setattr(_save, "max_payload", 512 * 1024)
setattr(_check, "max_payload", 512 * 1024)
HANDLERS: dict[str, Callable[["GameDataNeeds", Mapping[str, Any]], Reply]] = {
    "data_get": _get, "data_check": _check, "data_save": _save, "data_photo_snapshot": _snapshot,
    "data_road_missing": _road_missing,
}


# -- HTTP --------------------------------------------------------------------------------------------

def _services() -> "GameDataNeeds":
    found: "GameDataNeeds" = current_app.extensions["companion"]
    return found


class _NotFound(Exception):
    def __init__(self, response: Response) -> None:
        self.response = response


def _kind(game: str) -> GamePack:
    """The game kind named in the path, or a 404 in the API's error shape."""
    try:
        return _services().gamedata.desk(game)[0]
    except TableError as problem:
        raise _NotFound(_error(404, problem.code, str(problem), [])) from None


@blueprint.errorhandler(_NotFound)
def _not_found(problem: _NotFound) -> Response:
    return problem.response


@blueprint.get("/api/data/<game>")
def export(game: str) -> Response:
    kind = _kind(game)
    saved, _ = _services().gamedata.saved(kind)
    return Response(json.dumps(saved, indent=1), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="owner-data-{kind.id}.json"'})


@blueprint.post("/api/data/<game>")
def import_data(game: str) -> Response:
    services = _services()
    document = request.get_json(force=True, silent=True)
    try:
        kind, _ = services.gamedata.desk(game)
        if not isinstance(document, Mapping):
            raise DataRefused("send the game data file (a JSON object)", ["the file is not a JSON object"])
        reply = save(services, kind, document)
    except TableError as problem:
        return _error(507 if problem.code == "storage" else 400, problem.code, str(problem),
                      problems_of(problem) if isinstance(problem, Refusal) else [])
    return jsonify(ok=True, **reply)


@blueprint.get("/api/data/<game>/photo")
def photo(game: str) -> Response:
    found = _services().gamedata.photo(_kind(game))
    if found is None:
        return _error(404, "no-photo", "no photo of the board yet: upload one in the board editor", [])
    mimetype = IMAGE_TYPES["png" if found.suffix == ".png" else "jpg"]
    return Response(found.read_bytes(), mimetype=mimetype, headers={"Cache-Control": "no-cache"})


@blueprint.post("/api/data/<game>/photo")
def upload_photo(game: str) -> Response:
    request.max_content_length = MAX_PHOTO
    services = _services()
    try:
        kind, _ = services.gamedata.desk(game)
        _write_photo(services, kind, request.get_data(cache=False))
    except TableError as problem:
        return _error(507 if problem.code == "storage" else 400, problem.code, str(problem), [])
    return jsonify(ok=True)


def _write_photo(services: "GameDataNeeds", kind: GamePack, image: bytes) -> None:
    """A JPEG or PNG that really is one (decoded, at most 25 megapixels), saved whole or not at all."""
    suffix = checked_image(image, "the board photo")
    folder = services.gamedata.folder
    target = folder / f"{kind.id}-board.{suffix}"
    write_atomic(target, image, "the board photo")
    for other in folder.glob(f"{kind.id}-board.*"):
        if other != target and not other.name.endswith(".tmp"):
            other.unlink(missing_ok=True)


def _error(status: int, code: str, message: str, problems: list[str]) -> Response:
    response = jsonify(ok=False, error={"code": code, "message": message, "problems": problems})
    response.status_code = status
    return response
