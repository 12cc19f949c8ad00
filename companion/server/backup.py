"""One-file backup and restore of the box: games, LED and dice calibration, owner data.

Why one file: an SD card dies, or the owner moves to a new Pi; what took
evenings to enter (games under way, the LED calibration, photos of their own
dice, their corrections of the board) must come back with one upload. The
pairings are left out on purpose: a backup file that leaks must not let
anybody change a game. The configuration is included to read, not restored
(it lives in /etc, which is root's; docs/install.md says how to copy it).

Restoring checks the whole file first - its size and every entry's before
anything is unpacked (``uploads``), every game must replay, the LED layout must
fit this board and strip, the dice calibration must load with every dice set in
it a set of its kind here (all the sets go and come back together), photos must be
pictures of a sane size - and only then changes anything, so a broken file
changes nothing. The change itself is all or nothing: the games go in one
database transaction, inside which the files are swapped in (``files.Swap``,
the old ones kept aside); if any write fails (a full card), the transaction
rolls back and the old files are put back. Games already on the box (the same
game, move for move) are skipped, so restoring twice adds nothing.
"""

from __future__ import annotations

import hashlib
import io
import json
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from flask import Blueprint, Response, current_app, jsonify, request

from companion.engine.errors import Refusal, problems_of
from companion.table import Refused, TableError

from .dice import CALIBRATION_DIR
from .dicesetup import check_archive, use_calibration
from .files import Swap, storage_refusal
from .gamedata import checked
from .leds import LedRefused, checked_layout
from .sockets import announce_games
from .uploads import (DICE_LIMITS, MAX_PHOTO_PIXELS, MiB, UploadRefused, ZipLimits, check_zip_bytes, checked_image,
                      load_json, open_zip, read_entry)

if TYPE_CHECKING:
    from .app import Services

FORMAT = "table-companion.backup"
MANIFEST = "backup.json"
LED_LAYOUT = "leds/layout.json"
DICE = "dice/calibration.zip"
CONFIG = "config.toml"
MAX_BACKUP = 64 * MiB  # dice photos make a backup a few MiB; far above that is not ours
OWNER_DIR = "owner"  # the owner's data corrections (state_dir/owner), kept file for file
#: What a backup may unpack to: a few hundred games, photos, a dice calibration.
BACKUP_LIMITS = ZipLimits(entries=2000, entry_bytes=32 * MiB, total_bytes=96 * MiB)

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
    calibration: Any = None  # the dice calibration, loaded while checking


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
    """The backup's parts, its directory measured before anything is unpacked."""
    try:
        archive = open_zip(data, BACKUP_LIMITS, "the backup")
    except UploadRefused as refused:
        raise BackupRefused([f"{refused} (choose the .zip the box's Download backup gave)"]) from None
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
        return load_json(read_entry(archive, name, "the backup"), name)
    except UploadRefused as refused:
        raise BackupRefused([str(refused)]) from None


def _bytes(archive: zipfile.ZipFile, name: str) -> bytes:
    try:
        return read_entry(archive, name, "the backup")
    except UploadRefused as refused:
        raise BackupRefused([str(refused)]) from None


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
    for read in (_read_layout, _read_dice):
        try:
            read(archive, backup, names)
        except BackupRefused as refused:
            problems.extend(refused.problems)
    for name in sorted(n for n in names if n.startswith(f"{OWNER_DIR}/") and not n.endswith("/")):
        if "/" in name[len(OWNER_DIR) + 1:] or name[len(OWNER_DIR) + 1:].startswith("."):
            problems.append(f"{name}: not a file of the owner folder")
            continue
        try:
            backup.owner[name[len(OWNER_DIR) + 1:]] = _bytes(archive, name)
        except BackupRefused as refused:
            problems.extend(refused.problems)


def _read_layout(archive: zipfile.ZipFile, backup: Backup, names: set[str]) -> None:
    backup.layout = _json(archive, LED_LAYOUT) if LED_LAYOUT in names else None


def _read_dice(archive: zipfile.ZipFile, backup: Backup, names: set[str]) -> None:
    """The calibration zip inside the backup, measured (entries and pictures) before it is unpacked."""
    if DICE not in names:
        return
    backup.dice = _bytes(archive, DICE)
    try:
        check_zip_bytes(backup.dice, DICE_LIMITS, f"the dice calibration ({DICE})")
    except UploadRefused as refused:
        raise BackupRefused([str(refused)]) from None


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
        problems += _dice_problems(services, backup)
    for name, data in backup.owner.items():
        problems += _owner_problems(services, name, data)
    return problems


def _owner_problems(services: "Services", name: str, data: bytes) -> list[str]:
    """A data document must hold for its game; a photo must be a picture (decoded, of a sane size)
    whose name says what it is."""
    where = f"{OWNER_DIR}/{name}"
    try:
        if not name.endswith(".json"):
            kind = checked_image(data, where, MAX_PHOTO_PIXELS)
            return [] if name.endswith(f".{kind}") else [f"{where}: a {kind.upper()} image under another name"]
        _, desk = services.gamedata.desk(name.removesuffix(".json"))
        checked(desk, load_json(data, where))
    except ValueError as problem:  # DataRefused and UploadRefused too: they say what is wrong
        return [f"{where}: {p}" for p in problems_of(problem)]
    return []


def _layout_problems(services: "Services", layout: object) -> list[str]:
    try:
        checked_layout(services.leds, layout)
    except LedRefused as refused:
        return [f"LED layout: {p}" for p in refused.problems]
    return []


def _dice_problems(services: "Services", backup: Backup) -> list[str]:
    """The calibration, unpacked (it was measured first) into a scratch folder and loaded, every
    dice set in it (a calibration from before sets read as its sets') checked against this box's."""
    from calibration.dice import CalibrationError

    assert backup.dice is not None
    try:
        backup.calibration = check_archive(backup.dice, services.dice.older(), services.tables)
    except CalibrationError as problem:
        return [f"dice calibration: {problem}"]
    except OSError as problem:
        raise storage_refusal(problem, "the dice calibration (unpacked to be checked)") from None
    return []


# -- restoring ----------------------------------------------------------------------------------------

def restore(services: "Services", data: bytes) -> dict[str, object]:
    """Checked whole, then all of it or nothing (module docstring)."""
    backup, _ = read_backup(data)
    problems = check_backup(services, backup)
    if problems:
        raise BackupRefused(problems)
    games = _new_games(services, backup)
    swap, previous = Swap(), dict[Path, Path]()
    try:
        services.tables.import_games(games, lambda: previous.update(_write_files(services, backup, swap)))
    except OSError as problem:
        swap.undo()
        raise storage_refusal(problem, "the backup") from None
    except BaseException:
        swap.undo()
        raise
    swap.finish(previous)
    restored = _use_files(services, backup)
    if games:
        announce_games(services)
    return {"restored": {"games": len(games), "skipped": len(backup.games) - len(games), "calibration": restored},
            "notes": [f"{CONFIG} is in the file to read; settings are not restored (they live in "
                      "/etc/table-companion/config.toml: docs/install.md)"]}


def _new_games(services: "Services", backup: Backup) -> list[tuple[object, str]]:
    """The backup's games not on the box already (the same game, move for move)."""
    present = {_fingerprint(services.store.export_game(r.id)) for r in services.store.games(include_archived=True)}
    new: list[tuple[object, str]] = []
    for game, status in zip(backup.games, backup.statuses):
        if _fingerprint(game) not in present:
            present.add(_fingerprint(game))
            new.append((game, status))
    return new


def _fingerprint(game: Mapping[str, Any]) -> str:
    """The same game, move for move (names and statuses aside)."""
    body = {key: game.get(key) for key in ("game", "origin", "journal")}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def _write_files(services: "Services", backup: Backup, swap: Swap) -> dict[Path, Path]:
    """Inside the games' transaction: every file swapped in; returns where old ones are kept."""
    from calibration.dice import save_calibration

    kept: dict[Path, Path] = {}
    if backup.layout is not None:
        layout = checked_layout(services.leds, backup.layout)
        path, old = services.leds.store.layout_paths(services.leds.shape)
        swap.put(path, json.dumps(layout.to_plain(), indent=1).encode(), "the LED layout")
        kept[path] = old
    if backup.calibration is not None:
        folder = _dice_folder(services)
        swap.put_with(folder, lambda target: save_calibration(backup.calibration, target))
        kept[folder] = folder.with_name(folder.name + ".previous")
    for name, data in backup.owner.items():
        swap.put(services.state_dir / OWNER_DIR / name, data, f"{OWNER_DIR}/{name}")
    return kept


def _use_files(services: "Services", backup: Backup) -> list[str]:
    """After the files are in: the LEDs light by the layout and the camera reads with the calibration."""
    restored = []
    if backup.layout is not None:
        services.leds.use(checked_layout(services.leds, backup.layout))
        restored.append("leds")
    if backup.calibration is not None:
        use_calibration(services, backup.calibration)
        restored.append("dice")
    return restored + [f"{OWNER_DIR}/{name}" for name in backup.owner]


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
                                            "problems": problems_of(problem) if isinstance(problem, Refusal) else []})
        response.status_code = 507 if problem.code == "storage" else 400
        return response
    return jsonify(ok=True, **reply)
