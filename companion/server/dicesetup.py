"""Dice setup over Socket.IO (docs/dice.md "Calibration walk-through", docs/protocol.md).

The tablet's Dice setup screen drives ``calibration.dice`` with the service's
own camera: a snapshot of what the camera sees, the tray's four corners
(tapped on the snapshot, or found by the ArUco markers), a few pictures of
the empty tray (the first one also locks exposure and white balance where
the camera allows), then each face of one die kind, asked one at a time,
with back and retake (a photo of a die tilted, cut off, blurred or unlike the
others is refused with why). Finish checks the faces, saves the calibration in
``state_dir/"dice"`` (the old one kept as ``dice.previous``) and puts it in
use at once: the watcher reads rolls with the new reader (or starts, if the
camera had no calibration). Then the self-test: a dozen throws, each read shown
and confirmed or corrected with one tap; at the end the estimate is saved with
the calibration, and the camera answers rolls of that die by itself only if it
passed (otherwise the tablet is told what to change, and reads are shown for a
tap). Export and restore carry the calibration as one zip, base64 in the message.

Why a pack: the setup teaches the camera the dice of one game's box, its dice sets
(``dicesets``; docs/dice.md "Dice sets"): ``dice_setup_start`` names the pack (else the
game the camera follows), the faces taken are saved as that pack's set of their kind, and
the screen shows which of the pack's sets the camera knows. Another box's set of the same
kind is kept beside it, untouched.

Why the watcher is paused: the setup and the watcher share one camera, and a
die put in the tray for a face photo must not be read as a roll. It is paused
while a tablet is on the screen; when the last one leaves (or drops) it reads
again with the calibration in use, and the setup under way is kept, so
opening the screen again carries on where it was. Cancel throws it away.
"""

from __future__ import annotations

import base64
import binascii
import logging
import math
import threading
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

from flask import request

from companion.engine.dice import DICE, DiceSet
from companion.games.gamepack import GamePack
from companion.table import TableError

from . import dicesets, fields

if TYPE_CHECKING:
    import numpy as np

    from calibration.dice import DiceCalibration, FaceSession, SelfTest, TraySession
    from companion.table import Tables
    from hardware.camera import FrameSource

    from .dice import Dice

Reply = dict[str, Any]


class DiceSetupNeeds(Protocol):
    """What the dice setup handlers use of the service: the dice camera.
    The app's ``Services`` has it all; a handler here reaches nothing else."""

    @property
    def dice(self) -> Dice: ...


SNAPSHOT_SIDE = 640  # px: the longest side of the picture the tablet taps on
EMPTY_WANTED = 3  # pictures of the empty tray: their median is the reference, their flicker the threshold
MAX_RESTORE = 900 * 1024  # JSON bytes of a restore message (the socket itself takes at most 1 MiB)

log = logging.getLogger(__name__)


@dataclass
class DiceSetup:
    """One dice setup under way (at most one per box, shared by the tablets on the screen).

    ``tray``: a new tray being calibrated (None: the saved one is kept);
    ``base``: the calibration the faces are taken against (the new tray's
    result, or the saved calibration); ``faces``: the die kind being captured,
    of the set ``taking``; ``pack``: the game whose dice are set up, ``sets`` the
    ones it rolls (by kind) and ``known`` every set of the box's games (by id).
    """

    frame_size: tuple[int, int]
    saved: "DiceCalibration | None"
    pack: GamePack
    sets: dict[str, DiceSet]
    known: dict[str, DiceSet]
    taking: DiceSet | None = None
    tray: "TraySession | None" = None
    base: "DiceCalibration | None" = None
    faces: "FaceSession | None" = None
    selftest: "SelfTest | None" = None
    exposure_note: str = ""
    last_shot: str = ""  # a data URL of the last face photo taken (or the last self-test throw)
    snapshot: "np.ndarray | None" = None  # the picture the corners are tapped on
    tablets: set[str] = field(default_factory=set)
    lock: threading.RLock = field(default_factory=threading.RLock)

    def view(self) -> dict[str, object]:
        """Where the setup stands, for the screen."""
        tray = self.tray
        new_tray = tray is not None and tray.tray is not None
        empty = len(tray.empty) if tray is not None else 0
        base = self.base or (None if new_tray else self.saved)
        if self.selftest is not None:
            step = "selftest"
        elif self.faces is not None:
            step = "faces"
        elif new_tray and empty == 0:
            step = "empty"
        elif base is not None:
            step = "ready"  # choose a die to calibrate (or take more pictures of the empty tray)
        else:
            step = "tray"
        shown = base.tray if base is not None else (tray.tray if tray is not None else None)
        return {"step": step, "frame": list(self.frame_size), "pack": self.pack.id, "title": self.pack.title,
                "sets": self._sets(), "others": self._others(),
                "tray": None if shown is None else {"method": shown.method, "size": list(shown.size),
                                                     "new": new_tray},
                "empty": empty, "empty_wanted": EMPTY_WANTED, "exposure": self.exposure_note,
                "calibrated": self._calibrated(),
                "faces": self.faces.view() if self.faces is not None else None,
                "selftest": self.selftest.view() if self.selftest is not None else None,
                "self_tests": _self_tests(self.saved), "shot": self.last_shot,
                "camera_check": _camera_check(base)}

    def _calibrated(self) -> list[str]:
        return sorted(self.saved.profiles) if self.saved is not None else []

    def _sets(self) -> list[dict[str, object]]:
        """The pack's set of each kind, and whether the camera knows it."""
        return [{"kind": kind, "id": s.id, "name": s.name, "calibrated": s.id in self._calibrated()}
                for kind, s in self.sets.items()]

    def _others(self) -> list[dict[str, object]]:
        """Sets the camera knows that this pack does not roll (another box's): kept, untouched."""
        if self.saved is None:
            return []
        mine = {s.id for s in self.sets.values()}
        return [{"id": set_id, "kind": profile.kind, "name": self.known[set_id].name if set_id in self.known else set_id}
                for set_id, profile in sorted(self.saved.profiles.items()) if set_id not in mine]


def _camera_check(base: "DiceCalibration | None") -> str:
    from calibration.dice import camera_check_note

    return camera_check_note(base)


def _self_tests(saved: "DiceCalibration | None") -> dict[str, object]:
    """Each calibrated set's self-test: its estimate, whether it passed, what to change (None: not done)."""
    if saved is None:
        return {}
    return {set_id: None if p.self_test is None else {"passed": p.self_test.passed, "estimate": p.self_test.estimate,
                                                    "advice": list(p.self_test.advice)}
            for set_id, p in saved.profiles.items()}


# -- the service's side ------------------------------------------------------------------------------------

def _sid() -> str:
    return str(getattr(request, "sid", ""))


def _camera(dice: "Dice") -> "FrameSource":
    camera = dice.camera
    if camera is None:
        why = dice.problem or "no dice camera is configured"
        raise TableError("illegal", f"dice setup needs the camera over the dice tray, and this box has none "
                                    f"working ({why}). Connect the camera and restart the box (the install guide, docs/install.md, "
                                    "says how to name it in the settings); until then, tap the dice you roll")
    return camera


def _frame(dice: "Dice") -> "np.ndarray":
    """One picture from the camera now (the watcher is paused, so nothing else reads it)."""
    from hardware.camera import CameraError

    try:
        return _camera(dice).read()
    except CameraError as problem:
        raise TableError("illegal", f"the camera sent no picture ({problem}): check its cable, then try again") from None


def _held(services: "DiceSetupNeeds") -> DiceSetup:
    """The setup under way, with this tablet on it and the watcher paused."""
    dice = services.dice
    setup = dice.setup
    if setup is None:
        raise TableError("illegal", "no dice setup is under way (another tablet may have cancelled it): "
                                    "open Dice setup again")
    with setup.lock:
        _hold(dice, setup)
    return setup


def _hold(dice: "Dice", setup: DiceSetup) -> None:
    if not setup.tablets and dice.watcher is not None:
        dice.watcher.pause()
    setup.tablets.add(_sid())


def _refused(problem: Exception) -> TableError:
    return TableError("illegal", str(problem))


def leave(services: "DiceSetupNeeds", sid: str) -> None:
    """A tablet left the dice setup (or dropped): the last one out lets the watcher read rolls again
    with the calibration in use; the setup is kept, to carry on later."""
    dice = services.dice
    setup = dice.setup
    if setup is None:
        return
    with setup.lock:
        if sid not in setup.tablets:
            return
        setup.tablets.discard(sid)
        if not setup.tablets and dice.watcher is not None:
            dice.watcher.resume()


# -- the events ----------------------------------------------------------------------------------------------

def _start(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    """Open (or come back to) the dice setup: the watcher pauses while a tablet is on it.
    ``pack`` (optional): the game whose dice are set up (else the setup's, or the followed game's);
    naming another than the setup's drops the faces or the self-test under way."""
    dice = services.dice
    named = fields.one_of(data, "pack", dice.tables.pack_ids(), optional=True)
    _camera(dice)
    with dice.setup_lock:
        setup = dice.setup
        if setup is None:
            setup = _new_setup(dice, dice.tables.kind(named) if named is not None else dice.pack())
            dice.setup = setup
        with setup.lock:
            _hold(dice, setup)
            if named is not None and named != setup.pack.id:
                _for_pack(setup, dice.tables.kind(named))
            return {"setup": setup.view()}


def _for_pack(setup: DiceSetup, pack: GamePack) -> None:
    setup.pack, setup.sets = pack, dicesets.rolled(pack)
    setup.faces, setup.taking, setup.selftest, setup.last_shot = None, None, None, ""


def _new_setup(dice: "Dice", pack: GamePack) -> DiceSetup:
    """A fresh setup on the camera's frame size, starting from the saved calibration if there is one."""
    from calibration.dice import CalibrationError

    if dice.watcher is not None:
        dice.watcher.pause()
    try:
        frame = _frame(dice)
    except TableError:
        if dice.watcher is not None:
            dice.watcher.resume()
        raise
    try:
        saved = dice.load()
    except CalibrationError:
        saved = None  # none yet, or broken: the setup makes a new one
    return DiceSetup((int(frame.shape[1]), int(frame.shape[0])), saved, pack, dicesets.rolled(pack),
                     dicesets.known(dice.tables))


def _snapshot(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    """The camera's picture now, small, to tap the tray's corners on (``width``/``height``: the frame's)."""
    import cv2

    setup = _held(services)
    with setup.lock:
        frame = _frame(services.dice)
        setup.snapshot = frame
        height, width = frame.shape[:2]
        scale = min(1.0, SNAPSHOT_SIDE / max(width, height))
        small = cv2.resize(frame, (max(1, round(width * scale)), max(1, round(height * scale))),
                           interpolation=cv2.INTER_AREA) if scale < 1 else frame
        return {"image": _data_url(small, ".jpg"), "width": int(width), "height": int(height)}


def _data_url(image: "np.ndarray", suffix: str) -> str:
    import cv2

    done, data = cv2.imencode(suffix, image)
    if not done:
        raise TableError("internal", "the picture could not be encoded")
    kind = "jpeg" if suffix == ".jpg" else "png"
    return f"data:image/{kind};base64," + base64.b64encode(data.tobytes()).decode("ascii")


def _corners(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    """``corners``: four taps ``[[x, y], ...]`` as fractions (0 to 1) of the snapshot, top-left,
    top-right, bottom-right, bottom-left; or ``"auto"`` (the four ArUco markers); or ``"whole"``
    (a camera that sees only the tray). Or ``outline``: taps along the rim of a tray of any shape,
    in order (3 to 64), the camera straight above it: outside it nothing is read. The empty tray
    is asked for next."""
    from calibration.dice import CalibrationError, TraySession

    corners, outline = data.get("corners"), data.get("outline")
    setup = _held(services)
    with setup.lock:
        session = TraySession(setup.frame_size)
        try:
            if outline is not None:
                session.use_outline(_outline_taps(outline, setup.frame_size), _tapped_on(setup))
            elif corners == "auto":
                session.use_markers(_checked_size(setup, _frame(services.dice)))
            elif corners == "whole":
                session.use_whole_frame(_checked_size(setup, _frame(services.dice)))
            else:
                session.use_taps(_taps(corners, setup.frame_size), _tapped_on(setup))
        except CalibrationError as problem:
            raise _refused(problem) from None
        setup.tray, setup.base, setup.faces, setup.selftest, setup.last_shot = session, None, None, None, ""
        return {"setup": setup.view()}


def _tapped_on(setup: DiceSetup) -> "np.ndarray | None":
    """The picture the owner tapped the corners on: what the camera's later pictures are checked
    against for a move (None if it is not this size any more: the first empty tray is used)."""
    frame = setup.snapshot
    if frame is None or (frame.shape[1], frame.shape[0]) != setup.frame_size:
        return None
    return frame


def _checked_size(setup: DiceSetup, frame: "np.ndarray") -> "np.ndarray":
    if (frame.shape[1], frame.shape[0]) != setup.frame_size:
        raise TableError("illegal", "the camera's picture changed size since this setup began (was the camera "
                                    "changed?): tap Cancel this setup and start again")
    return frame


def _taps(value: object, frame_size: tuple[int, int]) -> list[tuple[float, float]]:
    why = ("'corners' must be four taps [[x, y], ...] as fractions 0 to 1 of the picture (top-left, top-right, "
           "bottom-right, bottom-left), \"auto\" for the markers or \"whole\"")
    if not isinstance(value, list) or len(value) != 4:
        raise TableError("bad-request", why)
    taps = []
    for tap in value:
        if not (isinstance(tap, list) and len(tap) == 2 and all(_fraction(v) for v in tap)):
            raise TableError("bad-request", why)
        taps.append((float(tap[0]) * (frame_size[0] - 1), float(tap[1]) * (frame_size[1] - 1)))
    return taps


def _outline_taps(value: object, frame_size: tuple[int, int]) -> list[tuple[float, float]]:
    why = "'outline' must be taps [[x, y], ...] along the tray's rim, in order, as fractions 0 to 1 of the picture"
    if not isinstance(value, list) or not all(isinstance(tap, list) and len(tap) == 2 and all(_fraction(v) for v in tap)
                                              for tap in value):
        raise TableError("bad-request", why)
    return [(float(x) * (frame_size[0] - 1), float(y) * (frame_size[1] - 1)) for x, y in value]


def _fraction(value: object) -> bool:
    return (not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
            and 0.0 <= value <= 1.0)


def _empty(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    """One picture of the empty tray (three are best); the first locks the camera's exposure."""
    from calibration.dice import CalibrationError

    setup = _held(services)
    with setup.lock:
        session = setup.tray
        if session is None or session.tray is None:
            raise TableError("illegal", "find the tray first: tap its four corners (or use the markers)")
        camera = _camera(services.dice)
        if not session.empty:
            lock = camera.lock_exposure()
            session.set_exposure(lock.settings)
            setup.exposure_note = ("exposure and white balance locked" if lock.locked else
                                   lock.note or "this camera cannot lock its exposure")
        try:
            session.add_empty(_checked_size(setup, _frame(services.dice)))
            setup.base = session.result()
        except CalibrationError as problem:
            raise _refused(problem) from None
        setup.faces = None
        return {"setup": setup.view()}


def _faces_start(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    """``kind``: d20, monster or d6; ``style`` (optional): numerals, pips or symbols; ``set``
    (optional): the pack's set of that kind, which is what is taken anyway (another is refused)."""
    from calibration.dice import KIND_FACES, STYLES, CalibrationError, FaceSession

    kind = str(fields.one_of(data, "kind", KIND_FACES))
    style = fields.one_of(data, "style", STYLES, optional=True)
    setup = _held(services)
    with setup.lock:
        taking = _pack_set(setup, kind, data.get("set"))
        base = _base(setup)
        try:
            setup.faces = FaceSession(base, str(kind), None if style is None else str(style))
        except CalibrationError as problem:
            raise _refused(problem) from None
        setup.taking, setup.selftest, setup.last_shot = taking, None, ""
        return {"setup": setup.view()}


def _pack_set(setup: DiceSetup, kind: str, named: object) -> DiceSet:
    """The set of ``kind`` the setup's pack rolls; a ``set`` named that is not it is refused
    (the faces would be saved for dice this game does not roll)."""
    own = setup.sets[kind]
    if named is None or named == own.id:
        return own
    if not isinstance(named, str):
        raise TableError("bad-request", f"'set' must be the id of a dice set, such as {own.id!r}")
    raise TableError("illegal", f"{setup.pack.title} does not roll the dice set {named!r}: its "
                                f"{DICE[kind].plural} are {own.name} ({own.id!r}). To calibrate another box's "
                                "dice, open the dice setup for a game of that box")


def _base(setup: DiceSetup) -> "DiceCalibration":
    if setup.base is not None:
        return setup.base
    if setup.tray is not None and setup.tray.tray is not None:
        raise TableError("illegal", "take a picture of the empty tray first")
    if setup.saved is None:
        raise TableError("illegal", "calibrate the tray first: tap its four corners, then take pictures of it empty")
    if setup.saved.tray.frame_size != setup.frame_size:
        raise TableError("illegal", "the camera's picture is not the size it was when the tray was set up: "
                                    "set the tray up again (its corners, then the empty tray)")
    return setup.saved


def _faces(setup: DiceSetup) -> "FaceSession":
    if setup.faces is None:
        raise TableError("illegal", "choose a die to show the camera first: the d20, a Monster die or a d6")
    return setup.faces


def _capture(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    """The face asked for, from the camera now; refused with why (no die, two dice, a hand)."""
    from calibration.dice import CalibrationError
    from hardware.dice.imaging import encode_png

    setup = _held(services)
    with setup.lock:
        faces = _faces(setup)
        try:
            shot = faces.capture(_frame(services.dice))
        except CalibrationError as problem:
            raise _refused(problem) from None
        setup.last_shot = "data:image/png;base64," + base64.b64encode(encode_png(shot.image)).decode("ascii")
        return {"setup": setup.view(), "captured": shot.label}


def _retake(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    from calibration.dice import CalibrationError

    label = fields.text(data, "label", 'the face to take again, such as "7" or "hit"')
    setup = _held(services)
    with setup.lock:
        try:
            _faces(setup).retake(label)
        except CalibrationError as problem:
            raise _refused(problem) from None
        return {"setup": setup.view()}


def _back(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    setup = _held(services)
    with setup.lock:
        _faces(setup).back()
        return {"setup": setup.view()}


def _finish(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    """Check the faces, save the calibration and read with it now; then the self-test begins
    (the camera does not answer rolls of this die by itself until it passes). A new tray drops
    the other kinds' face photos (taken through the old tray view)."""
    from calibration.dice import CalibrationError, SelfTest, check_profile
    from hardware.dice.reader import DiceReader

    dice = services.dice
    setup = _held(services)
    with setup.lock:
        faces = _faces(setup)
        try:
            profile = faces.profile()
        except CalibrationError as problem:
            raise _refused(problem) from None
        taking = setup.taking or setup.sets[profile.kind]
        profile = replace(profile, set="" if taking.shared else taking.id)
        calibration = faces.calibration.with_profile(profile)
        dropped = sorted(set(setup.saved.profiles) - set(calibration.profiles)) if setup.saved else []
        _save(dice, calibration)
        _use(dice, calibration)
        setup.saved, setup.base, setup.tray, setup.faces, setup.taking = calibration, calibration, None, None, None
        reader = DiceReader(calibration.reading({profile.kind: taking.id}))
        setup.selftest, setup.last_shot = SelfTest(reader.calibration, profile.kind, reader=reader), ""
        return {"calibrated": sorted(calibration.profiles), "kind": profile.kind, "set": taking.id,
                "name": taking.name, "warnings": check_profile(profile),
                "dropped": [dicesets.named(d, dice.tables) for d in dropped], "setup": setup.view()}


def _save(dice: "Dice", calibration: "DiceCalibration") -> None:
    from calibration.dice import save_calibration

    if dice.folder is None:
        raise TableError("illegal", "the box has no folder for its saved data, so the dice setup cannot be kept: "
                                    "start it the usual way (./run, or its service)")
    save_calibration(calibration, dice.folder)


def _selftest_start(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    """``kind``: a calibrated die of the pack's to self-test again (after a change of light, or a
    calibration from before the self-test existed); ``set`` (optional): as for ``dice_faces_start``."""
    from calibration.dice import KIND_FACES, CalibrationError, SelfTest

    kind = str(fields.one_of(data, "kind", KIND_FACES))
    setup = _held(services)
    with setup.lock:
        taking = _pack_set(setup, kind, data.get("set"))
        if setup.saved is None or taking.id not in setup.saved.profiles:
            raise TableError("illegal", f"the camera does not know {taking.name} yet: set up the tray and show "
                                        "it this die's faces first")
        try:
            setup.selftest = SelfTest(setup.saved.reading({kind: taking.id}), str(kind))
        except CalibrationError as problem:
            raise _refused(problem) from None
        setup.taking = taking
        setup.faces, setup.last_shot = None, ""
        return {"setup": setup.view()}


def _selftest(setup: DiceSetup) -> "SelfTest":
    if setup.selftest is None:
        raise TableError("illegal", "no test is under way: show the camera a die's faces, or tap Test it beside "
                                    "a die the camera knows")
    return setup.selftest


def _selftest_throw(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    """Read the throw in the tray now; the tablet then says which face is up (``dice_selftest_answer``)."""
    from calibration.dice import CalibrationError
    from hardware.dice.reader import crop_data_url

    setup = _held(services)
    with setup.lock:
        test = _selftest(setup)
        try:
            read = test.throw(_frame(services.dice))
        except CalibrationError as problem:
            raise _refused(problem) from None
        setup.last_shot = crop_data_url(read.crop)
        return {"setup": setup.view(), "read": {"label": read.label, "accepted": read.accepted, "why": read.why}}


def _selftest_answer(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    """``face``: the face that was up in the throw just read."""
    from calibration.dice import CalibrationError

    face = fields.text(data, "face", 'the face that was up, such as "7" or "hit"')
    setup = _held(services)
    with setup.lock:
        try:
            _selftest(setup).answer(face)
        except CalibrationError as problem:
            raise _refused(problem) from None
        return {"setup": setup.view()}


def _selftest_finish(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    """The estimate, saved with the calibration; the camera answers this die's rolls by itself
    only if it passed. The setup ends."""
    from calibration.dice import CalibrationError

    dice = services.dice
    setup = _held(services)
    with setup.lock:
        test = _selftest(setup)
        try:
            result = test.result()
        except CalibrationError as problem:
            raise _refused(problem) from None
        taking = setup.taking or setup.sets[test.kind]
        if setup.saved is None or taking.id not in setup.saved.profiles:
            raise TableError("illegal", f"{taking.name} are no longer calibrated (a restore?): show the camera "
                                        "their faces again")
        calibration = setup.saved.with_self_test(taking.id, result)
        _save(dice, calibration)
        _use(dice, calibration)
        with dice.setup_lock:
            dice.setup = None
        if dice.watcher is not None:
            dice.watcher.resume()
        return {"kind": test.kind, "set": taking.id, "name": taking.name, "passed": result.passed,
                "estimate": result.estimate, "advice": list(result.advice), "calibrated": sorted(calibration.profiles)}


def _use(dice: "Dice", calibration: "DiceCalibration") -> None:
    """The watcher reads with ``calibration`` from now on, the followed game's sets of it (started,
    if there was none); it stays paused while a tablet is on the setup screen."""
    from hardware.dice.wiring import start_dice

    dice.use(calibration)
    reader = dice.reader_for(dice.pack())
    camera = _camera(dice)
    camera.apply_exposure(calibration.exposure)
    if dice.watcher is not None:
        dice.watcher.use(reader)
    else:
        dice.attach(start_dice(camera, reader, dice.publish))
        if dice.watcher is not None and dice.setup is not None and dice.setup.tablets:
            dice.watcher.pause()


def _cancel(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    """Throw away the setup under way; rolls are read with the calibration in use. Nothing under way is fine."""
    dice = services.dice
    with dice.setup_lock:
        setup = dice.setup
        if setup is not None:
            with setup.lock:
                dice.setup = None
                if setup.tablets and dice.watcher is not None:
                    dice.watcher.resume()
    return {}


def _leave(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    """This tablet leaves the screen; the setup is kept (the last one out gives the camera back)."""
    leave(services, _sid())
    return {}


def _export(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    """The saved calibration as one zip, base64 (``file``), with a file name to save it as."""
    from calibration.dice import CalibrationError, export_calibration

    folder = services.dice.folder
    if folder is None:
        raise TableError("illegal", "there is no dice calibration to save to a file: this box has no dice camera")
    try:
        archive = export_calibration(folder)
    except CalibrationError as problem:
        raise TableError("illegal", f"there is no dice calibration to save to a file yet ({problem})") from None
    return {"file": base64.b64encode(archive).decode("ascii"), "name": "dice-calibration.zip", "bytes": len(archive)}


def _restore(services: "DiceSetupNeeds", data: Mapping[str, Any]) -> Reply:
    """``file``: an exported zip, base64. Measured (entries, pictures) before it is unpacked, checked
    whole (its sets against this box's games); then saved and read with at once."""
    from calibration.dice import CalibrationError

    from .files import storage_refusal
    from .uploads import DICE_LIMITS, UploadRefused, check_zip_bytes

    dice = services.dice
    text = fields.text(data, "file", "the exported calibration (a zip file), base64")
    try:
        archive = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise TableError("bad-request", "'file' is not base64") from None
    if dice.folder is None:
        raise TableError("illegal", "this box has no dice camera, so a dice setup file cannot be used here")
    try:
        check_zip_bytes(archive, DICE_LIMITS, "the file")
    except UploadRefused as problem:
        raise TableError("illegal", f"this dice setup file cannot be used, nothing changed: {problem}") from None
    try:
        calibration = _checked_restore(dice, archive)
    except CalibrationError as problem:
        raise TableError("illegal", f"this dice setup file cannot be used, nothing changed: {problem}") from None
    except OSError as problem:
        raise storage_refusal(problem, "the dice calibration") from None
    use_calibration(services, calibration)
    return {"calibrated": sorted(calibration.profiles),
            "names": [dicesets.named(set_id, dice.tables) for set_id in sorted(calibration.profiles)]}


def _checked_restore(dice: "Dice", archive: bytes) -> "DiceCalibration":
    """Unpacked and loaded aside, its sets checked against this box's, then saved."""
    from calibration.dice import save_calibration

    calibration = check_archive(archive, dice.older(), dice.tables)
    assert dice.folder is not None
    save_calibration(calibration, dice.folder)
    return calibration


def check_archive(archive: bytes, older: Mapping[str, str], tables: "Tables") -> "DiceCalibration":
    """An exported calibration unpacked into a scratch folder and loaded (a file from before sets
    read as ``older`` says), its sets checked against this box's games: ``CalibrationError`` if not."""
    import tempfile
    from pathlib import Path

    from calibration.dice import CalibrationError, restore_calibration

    with tempfile.TemporaryDirectory() as scratch:
        calibration = restore_calibration(archive, Path(scratch) / "dice", older)
    wrong = dicesets.problems(calibration, tables)
    if wrong:
        raise CalibrationError("; ".join(wrong))
    return calibration


def use_calibration(services: "DiceSetupNeeds", calibration: "DiceCalibration") -> None:
    """A calibration just saved (restored): the setup under way is dropped, the camera reads with it."""
    if services.dice.setup is not None:
        _cancel(services, {})
    if services.dice.camera is not None:
        _use(services.dice, calibration)
        if services.dice.watcher is not None:
            services.dice.watcher.resume()  # no setup screen holds it now: read with the new calibration


setattr(_restore, "max_payload", MAX_RESTORE)

HANDLERS: dict[str, Callable[["DiceSetupNeeds", Mapping[str, Any]], Reply]] = {
    "dice_setup_start": _start, "dice_tray_snapshot": _snapshot, "dice_tray_corners": _corners,
    "dice_tray_empty": _empty, "dice_faces_start": _faces_start, "dice_capture": _capture,
    "dice_retake": _retake, "dice_back": _back, "dice_finish": _finish, "dice_cancel": _cancel,
    "dice_selftest_start": _selftest_start, "dice_selftest_throw": _selftest_throw,
    "dice_selftest_answer": _selftest_answer, "dice_selftest_finish": _selftest_finish,
    "dice_setup_leave": _leave, "dice_export": _export, "dice_restore": _restore,
}
