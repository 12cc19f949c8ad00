"""The LED board of one table, and how it follows the game.

``start_leds`` builds everything from the configuration, the pack's board
shape and its looks, and never raises: a backend that cannot start, or a
layout that does not fit the strip, leaves a board whose status says why, and
the game goes on without LEDs. ``attach`` subscribes the board to the table's
game (a ``hardware.followed.FollowedTable``): after each change the table calls
``on_change(table, view)`` (inside its lock), which only folds the effects and
the pack's public view (the view's ``state``) into the renderer and wakes the
animation thread, so the table never waits for the strip. Any error at this
edge is logged and reported, never raised into the table.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from typing import Callable, Mapping, Sequence

from hardware.followed import FollowedTable

from .animator import Animator
from .backends import Opener, start_strip
from .board import BoardShape
from .config import LedConfig
from .cues import Style, Timing
from .layout import Layout, LayoutError, Problem, shipped_layout
from .looks import Looks
from .power import Output
from .render import Renderer
from .status import LedHealth, LedStatus
from .strip import DisabledStrip, NoStrip, Strip
from .tablet import Send, TabletFeed, overlay

log = logging.getLogger(__name__)
CALIBRATION_LEVEL = 180  # one LED, bright enough to find under the board, never full white


class _Override:
    """The frame source while calibrating: one LED lit, nothing moving."""

    def __init__(self, renderer: Renderer) -> None:
        self.renderer = renderer
        self.lit: int | None = None
        self.active = False

    def frame(self, now: float) -> bytes:
        if not self.active:
            return self.renderer.frame(now)
        frame = bytearray(3 * self.renderer.count)
        if self.lit is not None and 0 <= self.lit < self.renderer.count:
            frame[3 * self.lit:3 * self.lit + 3] = bytes((CALIBRATION_LEVEL,) * 3)
        return bytes(frame)

    def busy(self, now: float) -> bool:
        return not self.active and self.renderer.busy(now)


class LedBoard:
    """One physical LED board: the strip, its layout, the renderer, the power
    limit, the animation thread and the health the owner sees. One per box,
    following whichever game is at the table; everything it does for a change
    happens on its own thread, so a slow or broken strip never holds the game.
    ``shape`` and ``looks`` are the pack's: its board, and how its game lights it."""

    def __init__(self, strip: Strip, layout: Layout, shape: BoardShape, config: LedConfig,
                 timing: Timing = Timing(), style: Style = Style(), clock: Callable[[], float] = time.monotonic,
                 problem: str = "", *, looks: Looks) -> None:
        self.strip, self.layout, self.shape, self.config, self.clock = strip, layout, shape, config, clock
        self.looks = looks
        self.status = _status_for(strip, config, problem)
        self.output = Output(config)
        self.renderer = Renderer(layout, shape, looks, timing, style, config.count)
        self._source = _Override(self.renderer)
        self._feeds: list[TabletFeed] = []
        self._feeds_lock = threading.Lock()
        self.following: str | None = None  # the game the LEDs show (one board, many saved games)
        self.version: object = None  # the version of the followed game's view shown last
        self._subscribed: weakref.WeakSet[object] = weakref.WeakSet()
        self.animator = Animator(self._source, strip, self.output, self.status, config.fps, clock,
                                 shown=self._shown, idle=self._idle)

    # -- following the game ------------------------------------------------------------
    def on_change(self, table: object, view: Mapping[str, object]) -> None:
        """The ``Table.subscribe`` listener: never raises into the table."""
        self._guarded(lambda: self._change(view, animate=True))

    def sync(self, view: Mapping[str, object]) -> None:
        """Show a game's current state without replaying its last effects."""
        self._guarded(lambda: self._change(view, animate=False))

    def _change(self, view: Mapping[str, object], animate: bool) -> None:
        if self.following is not None and view.get("game_id") != self.following:
            return  # another game changed; the LEDs show the one at the table
        if view.get("game") not in (None, self.layout.board):
            log.warning("the LED layout is for %s, not %s: LEDs not updated", self.layout.board, view.get("game"))
            return
        public = view.get("state")  # the pack's public view
        public = public if isinstance(public, Mapping) else {}
        effects = view.get("effects") if animate else []
        self.renderer.change(_effects(effects), public, self.clock())
        self.version = view.get("version")
        self.animator.wake()

    def threaten(self, game_id: str, version: int, threat: Mapping[str, float]) -> None:
        """A forecast's threat glow (location -> 0..1) for ``version`` of ``game_id``: shown only if
        that is the game and version the LEDs show, until the next change clears it."""
        if game_id != self.following or version != self.version:
            return  # worked out for a moment the board has left
        self._guarded(lambda: self.renderer.threaten(threat))
        self.animator.wake()

    def _guarded(self, work: Callable[[], None]) -> None:
        try:
            work()
        except Exception as problem:  # noqa: BLE001 - the game must go on whatever the LEDs do
            log.exception("the LED board could not follow a change")
            self.status.note(f"could not show a change: {problem!r}")

    def follow(self, table: FollowedTable) -> None:
        """Show ``table``'s game: its current state now, then every change.
        Following another table moves the LEDs to that game; each table is
        subscribed once (tables have no unsubscribe) and changes of games not
        followed are ignored."""
        if table not in self._subscribed:
            self._subscribed.add(table)
            table.subscribe(self.on_change)
        self.following = table.game_id
        self.sync(table.view())

    # -- owner controls ------------------------------------------------------------------
    @property
    def health(self) -> LedHealth:
        return self.status.health

    def set_brightness(self, value: float) -> None:
        self.output.brightness = value
        self.animator.wake()

    def light_only(self, index: int | None) -> None:
        """Calibration: light LED ``index`` alone (None: all dark) until ``resume()``."""
        self._source.lit, self._source.active = index, True
        self.animator.wake()

    def resume(self) -> None:
        self._source.active = False
        self.animator.wake()

    def use_layout(self, layout: Layout, shape: BoardShape | None = None) -> None:
        """Light by ``layout`` from now on (a calibration finished, a backup
        restored) without reopening the strip: a new renderer at the same pace
        takes over at the next frame. It starts dark; ``sync`` the followed game
        to show its state. A layout larger than the strip is refused."""
        problem = _fit(layout, self.config)
        if problem:
            raise LayoutError([Problem("count", problem)])
        self.shape = shape or self.shape  # the owner's corrected board: where its locations and roads are
        self._renew(layout)

    def misfit(self, layout: Layout) -> str:
        """Why ``layout`` cannot light this strip ("" when it can): it names more LEDs than
        ``leds.count`` (asked before anything depending on it is written)."""
        return _fit(layout, self.config)

    def start_dark(self) -> None:
        """A fresh, dark picture with the layout in use (between games: nothing held over). Never
        refused: the layout is the one the board started with, even on a strip it does not fit."""
        self._renew(self.layout)

    def _renew(self, layout: Layout) -> None:
        stage = self.renderer.stage
        renderer = Renderer(layout, self.shape, self.looks, stage.timing, stage.style, self.config.count)
        self.layout, self.renderer, self._source.renderer = layout, renderer, renderer
        self.animator.wake()

    # -- the tablet overlay --------------------------------------------------------------
    def overlay(self) -> dict[str, object]:
        return overlay(self.layout, self.shape)

    def watch(self, send: Send, max_fps: float = 15.0) -> TabletFeed:
        feed = TabletFeed(send, max_fps, self.clock)
        with self._feeds_lock:
            self._feeds.append(feed)
        return feed

    def _shown(self, frame: bytes, now: float) -> None:
        with self._feeds_lock:
            feeds = list(self._feeds)
        for feed in feeds:
            feed.shown(frame, now)

    def _idle(self) -> None:
        with self._feeds_lock:
            feeds = list(self._feeds)
        for feed in feeds:
            feed.idle()

    # -- the end -------------------------------------------------------------------------
    def close(self) -> None:
        """Stop the thread, then darken and release the strip; safe to call twice."""
        self.animator.close()
        try:
            self.strip.close()
        except Exception:  # noqa: BLE001 - closing must finish whatever the hardware says
            log.exception("closing the LED strip failed")


def _effects(value: object) -> Sequence[Mapping[str, object]]:
    return [e for e in value if isinstance(e, Mapping)] if isinstance(value, list) else []


def _status_for(strip: Strip, config: LedConfig, problem: str) -> LedStatus:
    if problem:
        return LedStatus("disabled", config.backend, problem)
    if isinstance(strip, DisabledStrip):
        return LedStatus("disabled", config.backend, strip.reason)
    return LedStatus("off" if isinstance(strip, NoStrip) else "ok", config.backend)


def start_leds(config: LedConfig, shape: BoardShape, layout: Layout | None = None, *, looks: Looks,
               timing: Timing | None = None, style: Style = Style(), backends: dict[str, Opener] | None = None,
               clock: Callable[[], float] = time.monotonic) -> LedBoard:
    """The board for ``config`` and the pack's ``shape`` and ``looks``: the pack's shipped
    layout unless one is given (calibrated), animations at ``config.pace`` unless a
    ``timing`` is given (tests)."""
    try:
        chosen = layout if layout is not None else shipped_layout(shape)
    except LayoutError as trouble:
        chosen, problem = Layout(shape.name, config.count), f"the LED layout is invalid: {trouble}"
    else:
        problem = _fit(chosen, config)
    strip = DisabledStrip(config.count, problem, config.backend) if problem else start_strip(config, backends)
    pace = timing if timing is not None else Timing().scaled(config.pace)
    return LedBoard(strip, chosen, shape, config, pace, style, clock, problem, looks=looks)


def _fit(layout: Layout, config: LedConfig) -> str:
    if layout.count > config.count:
        return f"the layout uses {layout.count} LEDs but leds.count is {config.count}"
    return ""


def attach(table: FollowedTable, board: LedBoard) -> LedBoard:
    """Show ``table``'s game on ``board`` (see ``LedBoard.follow``)."""
    board.follow(table)
    return board
