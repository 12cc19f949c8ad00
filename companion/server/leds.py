"""The LED board in the service (docs/leds.md, docs/protocol.md).

The board starts with the app from the ``LEDS`` settings (the ``[leds]``
table: backend, count, brightness ...) and the owner's calibrated layout when
one was saved. A tablet that joins a game moves the LEDs to that game and gets
the overlay (where each LED sits on the board picture); frames then go to
every tablet in the ``leds`` room, throttled by the LED package and always
ending on the still frame. The calibration events let the tablet drive
``calibration.leds``: one LED lit at a time, answered by taps, saved as it goes.

Why a module of its own: the service's core files stay small and everything
the LEDs add to the protocol is in one place. The LEDs never hold the game up:
a board that cannot start is a board whose health says why.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol

from flask import Blueprint, Response, current_app, request
from flask_socketio import SocketIO, join_room

from calibration.leds import (LedCalibrationError, LedCalibrationSession, LedCalibrationStore, layout_in_use,
                              start_session)
from companion.games import GamePack
from companion.games.registry import DEFAULT_PACK
from companion.games.gamepack import PackLeds
from companion.table import Refused, Table, TableError, Tables
from hardware.leds import (DisabledStrip, Layout, LayoutError, LedBoard, LedConfig, LedConfigError, Looks, Timing,
                           parse_layout, start_leds)
from hardware.leds.board import BoardShape

from . import fields

LED_ROOM = "leds"  # every tablet showing the LEDs: on a game screen or calibrating
TABLET_FPS = 15.0  # the overlay does not need the strip's 30 frames a second
Reply = dict[str, Any]


class LedNeeds(Protocol):
    """What the LED handlers use of the service: the LEDs.
    The app's ``Services`` has it all; a handler here reaches nothing else."""

    @property
    def leds(self) -> Leds: ...


log = logging.getLogger(__name__)
blueprint = Blueprint("leds", __name__)


class LedRefused(Refused):
    """A layout refused (``illegal``), with every problem for the tablet to list."""


class Leds:
    """The box's one LED board, its calibration files and the calibration under way.

    ``lock`` keeps calibration steps from two tablets in order; ``calibrators``
    are the tablets (Socket.IO sids) on the LED setup screen: when the last one
    leaves or drops, the LEDs go back to the game (the progress stays saved)."""

    def __init__(self, board: LedBoard, store: LedCalibrationStore, tables: Tables, socketio: SocketIO,
                 game: str = DEFAULT_PACK) -> None:
        self.board, self.store, self.tables, self.socketio = board, store, tables, socketio
        self.game = game  # the game whose board the LEDs lie under
        self.session: LedCalibrationSession | None = None
        self.calibrating = False  # set before the LEDs change, so every frame after says which picture it is
        self.calibrators: set[str] = set()
        self.lock = threading.RLock()
        board.watch(self._push, TABLET_FPS)

    @property
    def shape(self) -> BoardShape:
        return self.board.shape

    def health(self) -> dict[str, object]:
        return self.board.health.to_plain()

    def description(self) -> dict[str, object]:
        """What a tablet needs to draw the LEDs: positions, count, and their health."""
        return {**self.board.overlay(), "health": self.health()}

    def follow(self, table: Table) -> dict[str, object] | None:
        """The LEDs show ``table``'s game (the last one a paired tablet opened); None for a game on
        another board."""
        shown = self.show_to(table)
        if shown is not None:
            if self.board.following != table.game_id:
                self.go_dark()  # nothing the game shown before left lit (a trail, a last picture) stays
            self.board.follow(table)
        return shown

    def go_dark(self) -> None:
        """Between games: a fresh picture (dark) with nothing held over from the game shown
        before; a game followed next lights its own state at once."""
        with self.lock:
            self.board.start_dark()
            self.board.following = None

    def show_to(self, table: Table) -> dict[str, object] | None:
        """A tablet watching ``table`` gets the overlay and the frames, but the LEDs stay on the
        game they show (frames say which game they are of)."""
        if table.kind.id != self.board.layout.board:
            return None
        join_room(LED_ROOM)
        return self.description()

    def _push(self, payload: dict[str, object]) -> None:
        """From the animation thread: one frame to every tablet showing the LEDs."""
        extra = {"game_id": self.board.following, "calibrating": self.calibrating}
        self.socketio.emit("leds", {**payload, **extra}, to=LED_ROOM)

    def threaten(self, game_id: str, version: int, forecast: Mapping[str, object]) -> None:
        """A forecast's ``glow`` (location -> 0..1) under the board while the LEDs show that version
        of that game; the next change clears it (docs/leds.md, "The threat glow")."""
        glow = forecast.get("glow")
        if isinstance(glow, Mapping):
            threat = {str(place): float(level) for place, level in glow.items()
                      if isinstance(level, (int, float)) and not isinstance(level, bool)}
            self.board.threaten(game_id, version, threat)

    def light(self, index: int | None) -> None:
        """Calibration: one LED alone (``LedCalibrationSession``'s ``light``)."""
        self.calibrating = True
        self.board.light_only(index)

    def resume(self) -> None:
        """Back to the game's picture (the session's ``resume``)."""
        self.calibrating = False
        self.board.resume()

    def use(self, layout: Layout, shape: BoardShape | None = None) -> None:
        """A new layout in use: the LEDs redraw the followed game with it and tablets get its overlay."""
        self.board.use_layout(layout, shape)
        if self.board.following is not None:
            self.board.sync(self.tables.get(self.board.following).view())
        self.socketio.emit("leds_overlay", self.description(), to=LED_ROOM)

    def reshape(self, shape: BoardShape) -> None:
        """The owner corrected the board (locations moved, roads changed): the LEDs and the
        overlay follow it, if the calibrated layout still fits; if not, they keep the board
        they had and the health view says why (LED setup again makes a layout that fits)."""
        with self.lock:
            try:
                layout = parse_layout(self.board.layout.to_plain(), shape)
                self.use(layout, shape)
            except LayoutError as trouble:
                self.board.status.note(f"the LED layout does not fit the corrected board ({trouble}); "
                                       "the LEDs keep the board they had: run LED setup again")

    def misfit(self, shape: BoardShape) -> str:
        """Why the LEDs could not lie under the corrected board ``shape`` ("" when they can):
        its layout needs more LEDs than the strip has (``leds.count``). Asked before owner data
        is saved, so such a save is refused with the reason instead of failing half-way. A layout
        that no longer matches the board's places is not this: the save goes on and the LEDs
        keep the board they had (``reshape``)."""
        with self.lock:
            try:
                layout = parse_layout(self.board.layout.to_plain(), shape)
            except LayoutError:
                return ""
            return self.board.misfit(layout)

    def leave(self, sid: str) -> None:
        """A tablet left the LED setup (or dropped): the last one out gives the LEDs back to the game."""
        with self.lock:
            self.calibrators.discard(sid)
            if self.session is not None and not self.calibrators:
                self.session.cancel()
                self.session = None

    def close(self) -> None:
        self.board.close()


# -- starting ----------------------------------------------------------------------------------------------

def start(settings: Mapping[str, Any], state_dir: Path, tables: Tables, socketio: SocketIO,
          data_of: Callable[[GamePack], Mapping[str, object] | None] = lambda kind: None) -> Leds:
    """The LEDs for an app; never raises for the LEDs' sake (the game goes on without them).
    ``data_of``: the owner's game data in use for a game, whose board (as corrected) the LEDs lie under."""
    game, wrong = board_game(settings.get("LEDS") or {}, tables)
    kind = tables.kind(game)
    pack = pack_leds(kind)
    shape = pack.shape(data_of(kind))
    store = LedCalibrationStore(state_dir)
    layout, problem = layout_in_use(store, shape)
    board = _board(settings.get("LEDS") or {}, shape, layout, pack.looks())
    for note in (wrong, problem):
        if note:
            board.status.note(note)
    log.info("LEDs: %s", board.health.to_plain())
    return Leds(board, store, tables, socketio, game)


def board_game(settings: Mapping[str, object], tables: Tables) -> tuple[str, str]:
    """The game whose board the LEDs lie under (the ``board`` setting; unset: the box's first game),
    and why the setting was not followed ("" when it was): a game the box does not have, or one
    with no LED board, leaves the LEDs under the first game's board."""
    wanted = settings.get("board") or DEFAULT_PACK
    if not isinstance(wanted, str) or wanted not in tables.pack_ids():
        return DEFAULT_PACK, (f"the LED setting board = {wanted!r} is not a game of this box (its games: "
                              f"{', '.join(tables.pack_ids())}), so the LEDs lie under {DEFAULT_PACK}'s board")
    if tables.kind(wanted).leds() is None:
        return DEFAULT_PACK, f"the game {wanted!r} has no LED board, so the LEDs lie under {DEFAULT_PACK}'s board"
    return wanted, ""


def pack_leds(kind: GamePack) -> PackLeds:
    """The LED board of the game the LEDs lie under (its pack's ``leds()``)."""
    found = kind.leds()
    if found is None:
        raise ValueError(f"the game {kind.id!r} has no LED board, so the LEDs cannot lie under it")
    return found


def board_shape(kind: GamePack, data: Mapping[str, object] | None = None) -> BoardShape:
    """The board as the owner corrected it (``data``), else as shipped."""
    return pack_leds(kind).shape(data)


def _board(settings: Mapping[str, object], shape: BoardShape, layout: Layout, looks: Looks) -> LedBoard:
    """The configured board, or a disabled one saying which setting is wrong."""
    try:
        config = LedConfig.from_mapping(settings)
    except LedConfigError as problem:
        config = LedConfig(backend="none", count=layout.count)
        reason = f"the LED settings are refused, so the LEDs are off: {problem}"
        log.error(reason)
        strip = DisabledStrip(config.count, reason, config.backend)
        return LedBoard(strip, layout, shape, config, Timing().scaled(config.pace), problem=reason, looks=looks)
    return start_leds(config, shape, layout, looks=looks)


def describe(health: Mapping[str, object]) -> str:
    """One line for the service's start-up output."""
    state, backend, reason = health.get("state"), health.get("backend"), health.get("reason")
    return f"LEDs: {backend} ({state}){f' - {reason}' if reason else ''}"


# -- calibration events ------------------------------------------------------------------------------------

def _sid() -> str:
    return str(getattr(request, "sid", ""))


def _calibration_start(services: "LedNeeds", data: Mapping[str, Any]) -> Reply:
    leds = services.leds
    with leds.lock:
        note = ""
        if leds.session is None:
            leds.session, note = _new_session(leds)
        else:
            leds.light(leds.session.calibration.index)
        leds.calibrators.add(_sid())
        join_room(LED_ROOM)
        reply: Reply = {"calibration": leds.session.calibration.view(), "leds": leds.description(),
                        "targets": _off_board(leds.shape)}
        return {**reply, "note": note} if note else reply


def _off_board(shape: BoardShape) -> dict[str, object]:
    """What the tablet offers as buttons: each track's steps (``<track>_max``, the last step), the mats
    and the seats."""
    steps: dict[str, object] = {f"{track}_max": count - 1 for track, count in shape.tracks.items()}
    return {**steps, "mats": list(shape.mats), "seats": shape.seats}


def _new_session(leds: Leds) -> tuple[LedCalibrationSession, str]:
    """Resume the saved progress; a progress file that cannot be read is set aside, and said so."""
    count = leds.board.config.count
    try:
        return start_session(leds.shape, count, leds.store, leds.light, leds.resume), ""
    except LedCalibrationError as problem:
        leds.store.discard_progress(leds.shape)
        fresh = start_session(leds.shape, count, leds.store, leds.light, leds.resume)
        return fresh, f"The saved calibration could not be read ({problem}), so it starts again at LED 0."


def _session(leds: Leds) -> LedCalibrationSession:
    if leds.session is None:
        raise TableError("illegal", "no LED calibration is under way: open LED setup to start one")
    return leds.session


def _step(services: "LedNeeds", work: Callable[[LedCalibrationSession], dict[str, object]],
          answers: bool = False) -> Reply:
    """One calibration step under the lock; a refused answer changes nothing.
    ``answers``: the reply also says what the LED just settled was answered."""
    leds = services.leds
    with leds.lock:
        session = _session(leds)
        settled = session.calibration.index
        try:
            view = work(session)
        except LedCalibrationError as problem:
            raise TableError("illegal", str(problem)) from None
        reply: Reply = {"calibration": view}
        if answers and settled is not None:
            target = session.calibration.answers.get(settled)
            reply["answered"] = {"index": settled, "target": None if target is None else target.to_plain()}
        return reply


def _calibration_tap(services: "LedNeeds", data: Mapping[str, Any]) -> Reply:
    across = "a number (0 to 1 across the board picture)"
    x, y = fields.number(data, "x", across), fields.number(data, "y", across)
    return _step(services, lambda session: session.tap(x, y), answers=True)


def _calibration_answer(services: "LedNeeds", data: Mapping[str, Any]) -> Reply:
    target = fields.mapping(data, "target", 'an object such as {"kind": "terror", "step": 3}')
    return _step(services, lambda session: session.answer(target), answers=True)


def _calibration_skip(services: "LedNeeds", data: Mapping[str, Any]) -> Reply:
    return _step(services, lambda session: session.skip(), answers=True)


def _calibration_back(services: "LedNeeds", data: Mapping[str, Any]) -> Reply:
    return _step(services, lambda session: session.back())


def _calibration_goto(services: "LedNeeds", data: Mapping[str, Any]) -> Reply:
    index = fields.whole(data, "index", 0, "the whole number of an LED")
    return _step(services, lambda session: session.goto(index))


def _calibration_finish(services: "LedNeeds", data: Mapping[str, Any]) -> Reply:
    """Save the layout and light by it; refused, with every problem, if it does not hold."""
    leds = services.leds
    with leds.lock:
        session = _session(leds)
        if not any(target is not None for target in session.calibration.answers.values()):
            raise TableError("illegal", "no LED has a place yet: answer at least one, or stop for now")
        try:
            layout = session.finish()
        except LayoutError as trouble:
            raise LedRefused(f"the layout cannot be saved: {trouble}", trouble.problems) from None
        leds.session = None
        leds.calibrators.clear()
        leds.use(layout)
        return {"layout": layout.to_plain()}


def _calibration_cancel(services: "LedNeeds", data: Mapping[str, Any]) -> Reply:
    """This tablet stops for now (progress kept); nothing under way is fine too."""
    services.leds.leave(_sid())
    return {}


def _layout_export(services: "LedNeeds", data: Mapping[str, Any]) -> Reply:
    return {"layout": services.leds.board.layout.to_plain()}


def _layout_restore(services: "LedNeeds", data: Mapping[str, Any]) -> Reply:
    """A backup (or any layout file) in use, refused whole with every problem if anything is wrong."""
    if "layout" not in data:
        raise TableError("bad-request", "'layout' is missing: send the layout file's contents")
    leds = services.leds
    with leds.lock:
        layout = checked_layout(leds, data["layout"])
        leds.store.save_layout(layout, leds.shape)
        leds.use(layout)
        return {"layout": layout.to_plain()}


def checked_layout(leds: Leds, data: object) -> Layout:
    """``data`` as a layout this strip can light (parsed for its board, within its LED count), or refused
    with every problem: the one check of a layout, sent from the tablet or restored from a backup."""
    try:
        layout = parse_layout(data, leds.shape)
    except LayoutError as trouble:
        raise LedRefused(f"this layout is refused: {trouble}", trouble.problems) from None
    if layout.count > leds.board.config.count:
        why = f"count: the layout uses {layout.count} LEDs but this strip has {leds.board.config.count}"
        raise LedRefused(f"this layout is refused: {why}", [why])
    return layout


HANDLERS: dict[str, Callable[["LedNeeds", Mapping[str, Any]], Reply]] = {
    "leds_calibration_start": _calibration_start, "leds_calibration_tap": _calibration_tap,
    "leds_calibration_answer": _calibration_answer, "leds_calibration_skip": _calibration_skip,
    "leds_calibration_back": _calibration_back, "leds_calibration_goto": _calibration_goto,
    "leds_calibration_finish": _calibration_finish, "leds_calibration_cancel": _calibration_cancel,
    "leds_layout_export": _layout_export, "leds_layout_restore": _layout_restore,
}


def register_disconnect(socketio: SocketIO, services: "LedNeeds", *others: Callable[[str], None]) -> None:
    """A tablet that drops while calibrating counts as leaving the LED setup (and whatever
    ``others`` it was in: the dice setup). One handler, as Socket.IO keeps one per event."""
    def disconnected(*args: object) -> None:
        sid = _sid()
        for leave in (services.leds.leave, *others):
            try:
                leave(sid)
            except Exception:  # noqa: BLE001 - a disconnect must never fail
                log.exception("could not end the calibration of a tablet that left")
    socketio.on_event("disconnect", disconnected)


# -- HTTP ----------------------------------------------------------------------------------------------------

@blueprint.get("/api/leds/layout")
def download_layout() -> Response:
    """The layout in use as a file, for a backup (the tablet's Export)."""
    services: "LedNeeds" = current_app.extensions["companion"]
    layout = services.leds.board.layout
    return Response(json.dumps(layout.to_plain(), indent=1), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="leds-{layout.board}.json"'})
