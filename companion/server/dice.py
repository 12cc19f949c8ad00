"""The dice camera in the service (docs/dice.md, docs/protocol.md).

The camera starts with the app from the ``CAMERA`` settings (the ``[camera]``
table; default: none, as on a laptop) and reads dice with the owner's
calibration saved in ``state_dir/"dice"``. With both, a ``DiceWatcher``
follows the game a tablet last joined, reading with that game's dice sets
(``dicesets``: a box's own Monster dice are not another box's): a roll prompt arms it, a settled tray
answers it through the table like a tap would, and every outcome (a read
with each die's crop and value, a refused read and why, the camera lost or
back) goes to that game's tablets as a ``dice`` event. The table keeps the
last report in its view (``view["dice"]``) so a tablet that joins late sees
it; no journal entry is written for it (an answer the camera gave is already
an input in the journal).

Why a module of its own, like the LEDs: everything the camera adds to the
service is in one place, and the camera never holds the game up: a camera or
a calibration that cannot start is a health line saying why, and the dice are
then typed on the tablet.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from flask_socketio import SocketIO

from companion.games.gamepack import GamePack
from companion.games.registry import DEFAULT_PACK
from companion.table import Table, TableError, Tables
from hardware.camera.config import CameraConfig, CameraConfigError

from . import dicesets

if TYPE_CHECKING:  # OpenCV and numpy are loaded only when a camera is configured
    from calibration.dice import DiceCalibration
    from hardware.camera import FrameSource
    from hardware.dice.reader import DiceReader
    from hardware.dice.wiring import DiceWatcher

    from .dicesetup import DiceSetup

CALIBRATION_DIR = "dice"  # under the state dir
CAMERA_ON = "Roll into the tray — the camera is watching"

log = logging.getLogger(__name__)


class Dice:
    """The box's one dice camera and its watcher (None: dice are typed on the tablet).

    ``problem`` says why there is no watcher when something was configured but
    cannot be used (a refused setting, a camera that does not open, a missing
    or broken calibration)."""

    def __init__(self, tables: Tables, socketio: SocketIO, backend: str, problem: str = "",
                 folder: Path | None = None) -> None:
        self.tables, self.socketio = tables, socketio
        self.backend, self.problem = backend, problem
        self.folder = folder  # where the calibration is saved (state_dir/"dice")
        self.watcher: "DiceWatcher | None" = None
        self.idle_source: "FrameSource | None" = None  # a working camera kept for calibration (no watcher yet)
        self.table: Table | None = None  # the game a tablet joined last
        self.setup: "DiceSetup | None" = None  # the dice setup under way (companion.server.dicesetup)
        self.setup_lock = threading.RLock()  # opening, ending or replacing the setup
        self.calibration: "DiceCalibration | None" = None  # every set taught (the reader gets a game's sets)
        self._readers: dict[tuple[tuple[str, str], ...], "DiceReader"] = {}

    def pack(self) -> GamePack:
        """The pack of the game the camera follows (before any: the box's first game)."""
        return self.table.kind if self.table is not None else self.tables.kind(DEFAULT_PACK)

    def older(self) -> dict[str, str]:
        """Kind -> the set a calibration from before sets was of (``dicesets.older``)."""
        return dicesets.older(self.tables)

    def load(self) -> "DiceCalibration":
        """The saved calibration, one from before sets read as its sets' (``CalibrationError`` if none)."""
        from calibration.dice import CalibrationError, load_calibration

        if self.folder is None:
            raise CalibrationError("this box has no folder for its saved data")
        return load_calibration(self.folder, self.older())

    def use(self, calibration: "DiceCalibration") -> None:
        """Read with ``calibration`` from now on (readers of the old one are dropped)."""
        self.calibration, self._readers = calibration, {}

    def reader_for(self, pack: GamePack) -> "DiceReader":
        """A reader of ``pack``'s dice sets, made once per set of sets while the calibration lasts."""
        from hardware.dice.reader import DiceReader

        assert self.calibration is not None, "a reader needs a calibration"
        sets = dicesets.reading(pack)
        key = tuple(sorted(sets.items()))
        if key not in self._readers:
            self._readers[key] = DiceReader(self.calibration.reading(sets))
        return self._readers[key]

    def attach(self, watcher: "DiceWatcher | None") -> None:
        self.watcher = watcher
        if watcher is not None:
            self.idle_source, self.problem = None, ""
            if self.table is not None:
                watcher.follow(self.table)

    @property
    def camera(self) -> "FrameSource | None":
        """The working camera (the watcher's, or one kept for calibration); None without one."""
        return self.watcher.source if self.watcher is not None else self.idle_source

    def snapshot_jpeg(self) -> bytes:
        """A full-size picture now, as JPEG: the board photo for the data editor. The
        watcher is paused meanwhile, so the picture is never taken for a roll."""
        import cv2

        from hardware.camera import CameraError

        with self.setup_lock:
            if self.setup is not None:
                raise TableError("illegal", "the dice setup is using the camera: finish it first")
            camera = self.camera
            if camera is None:
                raise TableError("illegal", "no working camera: upload a photo of the board instead")
            if self.watcher is not None:
                self.watcher.pause()
            try:
                frame = camera.read()
            except CameraError as problem:
                raise TableError("illegal", f"the camera gives no picture: {problem}") from None
            finally:
                if self.watcher is not None:
                    self.watcher.resume()
        done, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
        if not done:
            raise TableError("internal", "the picture could not be encoded")
        return bytes(data.tobytes())

    def health(self) -> dict[str, object]:
        """The watcher's health, or why there is none (state ``off``)."""
        if self.watcher is None:
            reason = self.problem or "no dice camera configured: dice are entered on the tablet"
            return {"state": "off", "backend": self.backend, "reason": reason}
        return self.watcher.health.to_plain()

    def description(self) -> dict[str, object]:
        """What a joining tablet needs: is a camera watching, and what to say over the roll prompt."""
        health = self.health()
        on = self.watcher is not None
        return {"camera": on, "state": health["state"], "reason": health.get("reason", ""),
                "hint": CAMERA_ON if on else ""}

    def follow(self, table: Table) -> dict[str, object]:
        """The camera watches ``table``'s prompts (the game a tablet last joined), read with its
        pack's dice sets."""
        self.table = table
        if self.watcher is not None:
            if self.calibration is not None:
                self.watcher.read_with(self.reader_for(table.kind))
            self.watcher.follow(table)
        return self.description()

    def publish(self, report: dict[str, object]) -> None:
        """From the watcher's thread: kept by the game's table, then sent to its tablets."""
        game_id = str(report.get("game_id", ""))
        try:
            self.tables.get(game_id).note_dice(report)
        except TableError:
            log.warning("a dice report for game %s, which cannot be opened", game_id)
        self.socketio.emit("dice", report, to=game_id)

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.close()
        if self.idle_source is not None:
            self.idle_source.close()


# -- starting ----------------------------------------------------------------------------------------------

def start(settings: Mapping[str, Any], state_dir: Path, tables: Tables, socketio: SocketIO) -> Dice:
    """The dice camera for an app; never raises for the camera's sake (the game goes on with taps)."""
    try:
        config = CameraConfig.from_mapping(settings.get("CAMERA") or {})
    except CameraConfigError as problem:
        log.error("the camera settings are refused, so dice are typed: %s", problem)
        return Dice(tables, socketio, "none", f"the camera settings are refused: {problem}")
    dice = Dice(tables, socketio, config.backend, folder=state_dir / CALIBRATION_DIR)
    if config.backend == "none":
        return dice
    from hardware.camera import start_camera
    from hardware.dice.wiring import start_dice

    source = start_camera(config)
    reader = _reader(dice, source)
    if reader is not None and not dice.problem:
        dice.attach(start_dice(source, reader, dice.publish))
    elif getattr(source, "reason", ""):
        source.close()
    else:  # a camera without a calibration: kept for the dice setup screens
        dice.idle_source = source
    log.info("dice camera: %s", dice.health())
    return dice


def _reader(dice: Dice, source: "FrameSource") -> "DiceReader | None":
    """The calibrated reader (of the first game's sets, until a tablet joins one) with the camera's
    exposure locked, or None with the why noted."""
    from calibration.dice import CalibrationError

    reason = getattr(source, "reason", "")
    if reason:  # a camera that did not start (``DisabledCamera``)
        dice.problem = f"the camera did not start: {reason}"
        return None
    try:
        calibration = dice.load()
    except CalibrationError as problem:
        dice.problem = f"the dice are not calibrated, so they are typed: {problem}"
        return None
    source.apply_exposure(calibration.exposure)
    dice.use(calibration)
    return dice.reader_for(dice.pack())


def camera_settings(option: str) -> dict[str, object]:
    """``serve.py --camera``: ``none``, ``picamera2``, ``folder:PATH``, ``video:PATH`` or ``v4l2:DEVICE``."""
    backend, _, where = option.partition(":")
    if backend in ("none", "picamera2") and not where:
        return {"backend": backend}
    if backend in ("folder", "video") and where:
        return {"backend": backend, "path": where}
    if backend == "v4l2" and where:
        return {"backend": backend, "device": where}
    raise ValueError(f"--camera {option!r}: use none, picamera2, folder:PATH, video:PATH or "
                     "v4l2:/dev/v4l/by-id/...")


def describe(health: Mapping[str, object]) -> str:
    """One line for the service's start-up output."""
    state, backend, reason = health.get("state"), health.get("backend"), health.get("reason")
    return f"Dice camera: {backend} ({state}){f' - {reason}' if reason else ''}"
