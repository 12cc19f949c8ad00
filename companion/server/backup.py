"""One-file backup and restore of the box: games, LED and dice calibration, owner data.

Why one file: an SD card dies, or the owner moves to a new Pi; what took
evenings to enter (games under way, the LED calibration, photos of their own
dice, their corrections of the board) must come back with one upload. The
pairings are left out on purpose: a backup file that leaks must not let
anybody change a game. The configuration is included to read, not restored
(it lives in /etc, which is root's; docs/install.md says how to copy it).

Restoring checks the whole file first - every game must replay, the LED layout
must fit this board and strip, the dice calibration must load - and only then
changes anything, so a broken file changes nothing. Games already on the box
(the same game, move for move) are skipped, so restoring twice adds nothing.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from flask import Blueprint, Response, current_app, jsonify, request

from companion.table import Refused, TableError

from . import dicesetup, leds

if TYPE_CHECKING:
    from .app import Services

FORMAT = "table-companion.backup"
MANIFEST = "backup.json"
LED_LAYOUT = "leds/layout.json"
DICE = "dice/calibration.zip"
CONFIG = "config.toml"
MAX_BACKUP = 64 * 1024 * 1024  # dice photos make a backup a few MiB; far above that is not ours
OWNER_DIR = "owner"  # the owner's data corrections (state_dir/owner), kept file for file

blueprint = Blueprint("backup", __name__)


class BackupRefused(Refused):
    """The file is refused whole; ``problems`` names each thing wrong."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("this backup is refused, nothing was changed: " + "; ".join(problems), problems,
                         "bad-request")


@dataclass
class Backup:
    """A backup file, read and checked."""

    games: list[dict[str, Any]] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)
    layout: object | None = None
    dice: bytes | None = None
    owner: dict[str, bytes] = field(default_factory=dict)


# -- making one -------------------------------------------------------------------------------------

def make_backup(services: "Services", config_text: str) -> bytes:
    buffer = io.BytesIO()
    listed: list[dict[str, object]] = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for n, record in enumerate(services.store.games(include_archived=True)):
            name = f"games/{n + 1:04d}.json"
            archive.writestr(name, json.dumps(services.store.export_game(record.id), indent=1))
            listed.append({"file": name, "name": record.name, "status": record.status})
        archive.writestr(LED_LAYOUT, json.dumps(services.leds.board.layout.to_plain(), indent=1))
        dice = _dice_export(services)
        if dice is not None:
            archive.writestr(DICE, dice)
        for path in _owner_files(services.state_dir):
            archive.write(path, f"{OWNER_DIR}/{path.name}")
        archive.writestr(CONFIG, config_text)
        archive.writestr(MANIFEST, json.dumps({"format": FORMAT, "version": 1, "made": time.time(),
                                               "games": listed, "dice": dice is not None}, indent=1))
    return buffer.getvalue()


def _dice_export(services: "Services") -> bytes | None:
    from calibration.dice import CalibrationError, export_calibration

    folder = _dice_folder(services)
    try:
        return export_calibration(folder) if folder.is_dir() else None
    except CalibrationError:
        return None  # nothing calibrated yet, or a half-done setup: nothing worth keeping


def _dice_folder(services: "Services") -> Path:
    from .dice import CALIBRATION_DIR

    return services.dice.folder or services.state_dir / CALIBRATION_DIR


def _owner_files(state_dir: Path) -> list[Path]:
    """The owner's data documents and board photos (not a save under way)."""
    folder = state_dir / OWNER_DIR
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")
                  and p.suffix in (".json", ".jpg", ".png"))


# -- reading and checking one -----------------------------------------------------------------------

def read_backup(data: bytes) -> tuple[Backup, dict[str, Any]]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise BackupRefused(["it is not a zip file (choose the .zip the box's Download backup gave)"]) from None
    with archive:
        manifest = _manifest(archive)
        backup, problems = Backup(), list[str]()
        _read_games(archive, manifest, backup, problems)
        _read_parts(archive, backup, problems)
    if problems:
        raise BackupRefused(problems)
    return backup, manifest


def _json(archive: zipfile.ZipFile, name: str) -> Any:
    try:
        return json.loads(archive.read(name).decode("utf-8"))
    except KeyError:
        raise BackupRefused([f"{name} is missing"]) from None
    except (ValueError, UnicodeDecodeError) as problem:
        raise BackupRefused([f"{name} is not JSON: {problem}"]) from None


def _manifest(archive: zipfile.ZipFile) -> dict[str, Any]:
    manifest = _json(archive, MANIFEST)
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupRefused([f"{MANIFEST} is not a {FORMAT} manifest"])
    if manifest.get("version") != 1:
        raise BackupRefused([f"{MANIFEST}: version {manifest.get('version')!r} is not one this box reads (1)"])
    if not isinstance(manifest.get("games"), list):
        raise BackupRefused([f"{MANIFEST}: 'games' must be a list"])
    return manifest


def _read_games(archive: zipfile.ZipFile, manifest: Mapping[str, Any], backup: Backup, problems: list[str]) -> None:
    for entry in manifest["games"]:
        name = entry.get("file") if isinstance(entry, dict) else None
        if not isinstance(name, str):
            problems.append(f"{MANIFEST}: a game without a 'file'")
            continue
        try:
            backup.games.append(_json(archive, name))
            backup.statuses.append("archived" if entry.get("status") == "archived" else "active")
        except BackupRefused as refused:
            problems.extend(refused.problems)


def _read_parts(archive: zipfile.ZipFile, backup: Backup, problems: list[str]) -> None:
    names = set(archive.namelist())
    try:
        backup.layout = _json(archive, LED_LAYOUT) if LED_LAYOUT in names else None
    except BackupRefused as refused:
        problems.extend(refused.problems)
    backup.dice = archive.read(DICE) if DICE in names else None
    for name in sorted(n for n in names if n.startswith(f"{OWNER_DIR}/") and not n.endswith("/")):
        if "/" in name[len(OWNER_DIR) + 1:] or ".." in name:
            problems.append(f"{name}: not a file of the owner folder")
            continue
        backup.owner[name[len(OWNER_DIR) + 1:]] = archive.read(name)


def check_backup(services: "Services", backup: Backup) -> list[str]:
    """Every problem that would stop the restore, found before anything changes."""
    problems = []
    for n, game in enumerate(backup.games):
        try:
            services.tables.check_import(game)
        except TableError as problem:
            problems.append(f"game {n + 1} ({game.get('name', '?') if isinstance(game, dict) else '?'}): {problem}")
    if backup.layout is not None:
        problems += _layout_problems(services, backup.layout)
    if backup.dice is not None:
        problems += _dice_problems(backup.dice)
    for name, data in backup.owner.items():
        problems += _owner_problems(services, name, data)
    return problems


def _owner_problems(services: "Services", name: str, data: bytes) -> list[str]:
    """A data document must hold for its game; a photo must be a picture."""
    from .gamedata import PHOTO_TYPES, checked

    if not name.endswith(".json"):
        ok = name.endswith((".jpg", ".png")) and any(data.startswith(magic) for magic in PHOTO_TYPES)
        return [] if ok else [f"{OWNER_DIR}/{name}: not a board photo (JPEG or PNG)"]
    try:
        _, desk = services.gamedata.desk(name.removesuffix(".json"))
        checked(desk, json.loads(data.decode("utf-8")))
    except (ValueError, UnicodeDecodeError) as problem:  # DataRefused too: it lists its problems
        return [f"{OWNER_DIR}/{name}: {p}" for p in getattr(problem, "problems", [str(problem)])]
    return []


def _layout_problems(services: "Services", layout: object) -> list[str]:
    try:
        leds._checked_layout(services.leds, layout)
    except leds.LedRefused as refused:
        return [f"LED layout: {p}" for p in refused.problems]
    return []


def _dice_problems(archive: bytes) -> list[str]:
    from calibration.dice import CalibrationError, restore_calibration

    with tempfile.TemporaryDirectory() as scratch:
        try:
            restore_calibration(archive, Path(scratch) / "dice")
        except CalibrationError as problem:
            return [f"dice calibration: {problem}"]
    return []


# -- restoring ----------------------------------------------------------------------------------------

def restore(services: "Services", data: bytes) -> dict[str, object]:
    backup, _ = read_backup(data)
    problems = check_backup(services, backup)
    if problems:
        raise BackupRefused(problems)
    games, skipped = _restore_games(services, backup)
    restored = []
    if backup.layout is not None:
        leds.HANDLERS["leds_layout_restore"](services, {"layout": backup.layout})
        restored.append("leds")
    if backup.dice is not None:
        _restore_dice(services, backup.dice)
        restored.append("dice")
    restored += _restore_owner(services.state_dir, backup.owner)
    return {"restored": {"games": games, "skipped": skipped, "calibration": restored},
            "notes": [f"{CONFIG} is in the file to read; settings are not restored (they live in "
                      "/etc/table-companion/config.toml: docs/install.md)"]}


def _restore_games(services: "Services", backup: Backup) -> tuple[int, int]:
    present = {_fingerprint(services.store.export_game(r.id)) for r in services.store.games(include_archived=True)}
    added = 0
    for game, status in zip(backup.games, backup.statuses):
        if _fingerprint(game) in present:
            continue
        game_id = services.tables.import_game(game)
        if status == "archived":
            services.tables.archive(game_id)
        present.add(_fingerprint(game))
        added += 1
    if added:
        services.socketio.emit("games", {"games": services.tables.summaries()})
    return added, len(backup.games) - added


def _fingerprint(game: Mapping[str, Any]) -> str:
    """The same game, move for move (names and statuses aside)."""
    body = {key: game.get(key) for key in ("game", "origin", "journal")}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def _restore_dice(services: "Services", archive: bytes) -> None:
    from calibration.dice import restore_calibration

    if services.dice.folder is not None:
        dicesetup.HANDLERS["dice_restore"](services, {"file": base64.b64encode(archive).decode("ascii")})
    else:
        restore_calibration(archive, _dice_folder(services))


def _restore_owner(state_dir: Path, files: Mapping[str, bytes]) -> list[str]:
    folder = state_dir / OWNER_DIR
    for name, data in files.items():
        folder.mkdir(parents=True, exist_ok=True)
        temporary = folder / f".{name}.tmp"
        temporary.write_bytes(data)
        temporary.replace(folder / name)
    return [f"{OWNER_DIR}/{name}" for name in files]


# -- HTTP ---------------------------------------------------------------------------------------------

def _services() -> "Services":
    found: "Services" = current_app.extensions["companion"]
    return found


@blueprint.get("/api/backup")
def download() -> Response:
    services = _services()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Response(make_backup(services, services.box.config_text), mimetype="application/zip",
                    headers={"Content-Disposition": f'attachment; filename="companion-backup-{stamp}.zip"'})


@blueprint.post("/api/backup/restore")
def upload() -> Response:
    request.max_content_length = MAX_BACKUP
    try:
        reply = restore(_services(), request.get_data(cache=False))
    except TableError as problem:
        response = jsonify(ok=False, error={"code": problem.code, "message": str(problem),
                                            "problems": list(getattr(problem, "problems", []))})
        response.status_code = 500 if problem.code == "storage" else 400
        return response
    return jsonify(ok=True, **reply)
