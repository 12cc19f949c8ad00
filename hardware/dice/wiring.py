"""The dice camera at the table: a roll prompt arms the reader, a settled tray answers it.

``DiceWatcher.follow(table)`` subscribes to the table's game (a
``hardware.followed.FollowedTable``: ``companion.table.Table`` at the box). When
the game asks for a roll (a prompt of kind "roll": a d20, Monster dice or
d6) that this calibration can read, the watcher's thread reads frames, waits
for the tray to settle after a throw, reads it, and if every die is read with
enough confidence answers the prompt through ``table.act`` like a tap would.
Every outcome is *published* (a callback the server forwards to the tablets):
the values with a crop of each die, so the players see what was read and one
tap corrects it (undo and answer again); or the dice it refused, so the
tablet asks for them; or that the camera is lost. Typed entry always works:
the prompt stays open until someone (camera or tablet) answers it, and an
answer that arrives second is simply refused by the table as stale.

Why a thread with a stop event, and why the table listener only takes notes:
the table calls listeners inside its lock, so the listener must never wait
for the camera; the thread does the slow work and calls ``table.act`` without
holding any lock of its own.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import asdict, dataclass, replace
from typing import Callable, Mapping

from companion.engine.dice import DICE
from hardware.camera import CameraError, Frame, FrameSource
from hardware.followed import FollowedTable

from .reader import DiceReader, Expect, TrayRead
from .settle import SettleDetector

log = logging.getLogger(__name__)
Publish = Callable[[dict[str, object]], None]
DIE_KINDS = DICE.ids()  # the die kinds of the engine's registry: "d20", "monster", "d6"


@dataclass(frozen=True)
class Job:
    """A roll the game is waiting for."""

    key: str
    kind: str
    count: int
    version: int
    game_id: str


@dataclass(frozen=True)
class DiceHealth:
    state: str  # "idle", "watching", "lost" (camera gone; retrying), "moved" (calibrate the tray), "off", "stopped"
    backend: str
    reason: str = ""
    reads: int = 0
    answered: int = 0
    refused: int = 0
    since: float = 0.0

    def to_plain(self) -> dict[str, object]:
        return asdict(self)


def job_from_view(view: Mapping[str, object]) -> Job | None:
    """The roll a table view asks for, or None if it asks for something else."""
    prompt = view.get("prompt")
    if not isinstance(prompt, Mapping) or prompt.get("kind") != "roll" or prompt.get("die") not in DIE_KINDS:
        return None
    count, version = prompt.get("count"), view.get("version")
    if not isinstance(count, int) or count < 1 or not isinstance(version, int):
        return None
    return Job(str(prompt.get("key")), str(prompt.get("die")), count, version, str(view.get("game_id", "")))


class DiceWatcher:
    """Follows one table's prompts with one camera and one reader."""

    def __init__(self, source: FrameSource, reader: DiceReader, publish: Publish | None = None, *,
                 settle: SettleDetector | None = None, retry_after: float = 3.0, idle_wait: float = 0.5,
                 frame_interval: float = 1.0 / 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.source, self.reader = source, reader
        self.publish = publish or (lambda report: None)
        self.settle = settle or SettleDetector()
        self._watch_tray()
        self.retry_after, self.idle_wait, self.clock = retry_after, idle_wait, clock
        self.frame_interval = frame_interval
        self._last_frame = 0.0
        self._lock = threading.Lock()
        self._job: Job | None = None
        self._armed: Job | None = None
        self._fresh = False
        self._table: FollowedTable | None = None
        self._moved = ""  # why reads stopped: the camera moved since the tray was calibrated
        self._subscribed: set[int] = set()  # tables listened to (each once; only the followed one counts)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._paused = threading.Event()
        self._health = DiceHealth("idle", source.backend, since=time.time())
        self._thread = threading.Thread(target=self._run, name="dice-watcher", daemon=True)
        self._started = False

    # -- following the game ------------------------------------------------------------
    def follow(self, table: FollowedTable) -> None:
        """Watch ``table``'s prompts (subscribes once) and start the thread."""
        with self._lock:
            first = id(table) not in self._subscribed
            self._subscribed.add(id(table))
            self._table = table
        if first:
            table.subscribe(self.on_change)
        self.on_change(table, table.box_view())
        self.start()

    def on_change(self, table: object, view: Mapping[str, object]) -> None:
        """The ``Table.subscribe`` listener: takes a note and wakes the thread; never raises.
        A game followed before (a tablet has since joined another) is not listened to."""
        followed = self._table
        if followed is not None and table is not followed:
            return
        try:  # the shared screen's view waits for a seat's phone; the camera answers what the tray shows
            job = job_from_view(followed.box_view() if followed is not None else view)
            with self._lock:
                self._job = job if job is not None and self.reader.can_read(job.kind) else None
            self._wake.set()
        except Exception:  # noqa: BLE001 - the game must go on whatever the camera does
            log.exception("the dice watcher could not take a table change")

    @property
    def health(self) -> DiceHealth:
        with self._lock:
            return self._health

    # -- calibration at the table ---------------------------------------------------------
    def pause(self) -> None:
        """Stop reading rolls (the owner is calibrating with the same camera)."""
        self._paused.set()
        self._wake.set()

    def resume(self, reader: DiceReader | None = None) -> None:
        """Read rolls again, with a new reader after a new calibration."""
        if reader is not None:
            self.use(reader)
        self._rearm()
        self._paused.clear()
        self._wake.set()

    def use(self, reader: DiceReader) -> None:
        """Read with a new calibration from now on (paused or not); a camera that had moved
        is trusted again, since the tray was calibrated anew."""
        self.reader = reader
        self._moved = ""
        self._watch_tray()
        self._rearm()

    def _watch_tray(self) -> None:
        """The settle check watches the tray only (a tray of any shape: inside its outline)."""
        tray = self.reader.calibration.tray
        self.settle.only(tray.frame_rim() if tray.outline else None, tray.frame_size)

    def read_with(self, reader: DiceReader) -> None:
        """Read with another game's dice sets (a tablet joined a game of another box): the same
        calibration, so a camera that had moved stays distrusted; a roll under way is read anew."""
        if reader is not self.reader:
            self.reader = reader
            self._rearm()

    def frame(self) -> Frame:
        """One frame from the camera, for the calibration screens (``CameraError`` if it is gone)."""
        return self.source.read()

    # -- the thread ---------------------------------------------------------------------
    def start(self) -> None:
        with self._lock:
            if self._started or self._stop.is_set():
                return
            self._started = True
        self._thread.start()

    def close(self) -> None:
        """Stop the thread, then release the camera; safe to call twice."""
        self._stop.set()
        self._wake.set()
        if self._started and self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)
        self.source.close()
        self._set_health(state="stopped")

    def _run(self) -> None:
        while not self._stop.is_set():
            job = self._current()
            if job is None:
                self._idle()
                continue
            try:
                self._step(job)
            except CameraError as problem:
                self._camera_lost(job, problem)
            except Exception as problem:  # noqa: BLE001 - a reader bug must not kill the watcher
                log.exception("the dice reader failed")
                self._report(job, "error", message=f"the dice could not be read: {problem!r}")
                self._drop(job)

    def _current(self) -> Job | None:
        if self._paused.is_set():
            return None
        with self._lock:
            return self._job

    def _idle(self) -> None:
        if self.health.state != "lost" and not self._moved:
            self._set_health(state="idle")
        self._wake.wait(self.idle_wait)
        self._wake.clear()

    def _step(self, job: Job) -> None:
        """One frame: arm for a new prompt, feed the settle check, read a settled tray."""
        if job != self._armed:
            self.settle.arm(need_motion=self._fresh)
            self._armed, self._fresh = job, False
        frame = self.source.read()
        self._seeing(job)
        if self.settle.update(frame) == "settled":
            self._settled(job, self.reader.read(frame, Expect(job.kind, job.count)))
        self._pace()

    def _seeing(self, job: Job) -> None:
        """A frame came: the camera is watching (and back, if it was lost)."""
        state = self.health.state
        if state == "watching" or (state == "moved" and self._moved):
            return
        self._set_health(state="watching", reason="")
        if state == "lost":
            self._report(job, "camera-back", message="the dice camera is back")

    def _pace(self) -> None:
        """No faster than ``frame_interval``: a folder or a held frame would otherwise spin a core."""
        now = self.clock()
        delay = self._last_frame + self.frame_interval - now
        if delay > 0:
            self._stop.wait(delay)
        self._last_frame = max(now, self._last_frame + self.frame_interval)

    def _settled(self, job: Job, read: TrayRead) -> None:
        """A settled tray: answered if every die was read and this die's reads are automatic; once
        the camera has moved, nothing is answered until the tray is calibrated again."""
        self._count("reads")
        if read.moved and not self._moved:
            log.warning("dice camera: %s", read.problem)
            self._moved = read.problem
            self._set_health(state="moved", reason=read.problem)
        answer = None if self._moved else read.answer()
        if answer is None:
            self._count("refused")
            why = self._moved or read.problem or read.off or "some dice could not be read: please enter them"
            self._report(job, "refused", read, why)
            return
        self._answer(job, read, answer)

    def _answer(self, job: Job, read: TrayRead, answer: list[int | str]) -> None:
        table = self._table
        if table is None or self._current() != job:
            return  # answered on the tablet meanwhile
        try:
            table.act({"key": job.key, "answer": answer}, job.version, physical=True)
        except ValueError as problem:  # the table's refusal (FollowedTable.act)
            self._report(job, "not-applied", read, f"the table did not take the camera's answer: {problem}")
            return
        self._count("answered")
        self._report(job, "answered", read, "")

    def _drop(self, job: Job) -> None:
        with self._lock:
            if self._job == job:
                self._job = None

    # -- a camera that goes away ------------------------------------------------------------
    def _camera_lost(self, job: Job, problem: CameraError) -> None:
        """Report once, leave the prompt to the tablet, and try the camera again now and then."""
        if self.health.state != "lost":
            log.warning("dice camera lost: %s", problem)
            self._set_health(state="lost", reason=str(problem))
            self._report(job, "camera-lost", message=f"{problem}: enter the dice on the tablet")
        self._stop.wait(self.retry_after)
        if not self._stop.is_set():
            self._try_reopen()

    def _try_reopen(self) -> None:
        try:
            self.source.reopen()
        except CameraError as problem:
            self._set_health(reason=str(problem))
        else:
            self._rearm()

    def _rearm(self) -> None:
        """Arm again, needing a throw: what the camera saw before a pause or a loss does not count."""
        self._armed, self._fresh = None, True

    # -- reporting ------------------------------------------------------------------------
    def _report(self, job: Job, status: str, read: TrayRead | None = None, message: str = "") -> None:
        report: dict[str, object] = {"status": status, "game_id": job.game_id, "prompt_key": job.key,
                                     "version": job.version, "message": message}
        if read is not None:
            report.update(read.to_plain())
        try:
            self.publish(report)
        except Exception:  # noqa: BLE001 - a broken listener must not stop the camera
            log.exception("publishing a dice report failed")

    def _set_health(self, **changes: object) -> None:
        with self._lock:
            if changes.get("state") not in (None, self._health.state):
                changes["since"] = time.time()
            self._health = replace(self._health, **changes)  # type: ignore[arg-type]

    def _count(self, name: str) -> None:
        with self._lock:
            self._health = replace(self._health, **{name: getattr(self._health, name) + 1})


def start_dice(source: FrameSource, reader: DiceReader | None, publish: Publish | None = None) -> DiceWatcher | None:
    """A watcher for a configured camera and calibration, or None (typed dice only) with the reason logged."""
    if source.backend in ("none", "disabled") or reader is None:
        why = "no dice calibration" if reader is None else source.description
        log.info("dice camera not used (%s): dice are entered on the tablet", why)
        source.close()
        return None
    return DiceWatcher(source, reader, publish)
