"""Safe mode: a start after one that never finished runs without hardware.

Why: a hardware backend can take the whole process down while it starts - a
real rpi_ws281x strip on the wrong board segfaults the interpreter, a camera
driver can hang - and with ``Restart=on-failure`` the box would crash in a
loop, no tablet ever reaching it to say why. So a marker file is written to
the state directory when a start begins and removed once the service is
ready; if the marker is still there at the next start, that start leaves the
LEDs, camera and buttons off (as OctoPrint's safe mode leaves out plugins and
Home Assistant's recovery mode its integrations), says why on the tablet and
in the journal, and clears the marker when it is ready itself, so the start
after that tries the hardware again.
"""

from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

MARKER = "start-incomplete.json"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class StartMode:
    """How this start runs: ``safe`` without hardware backends, ``reason`` in plain words."""

    safe: bool
    reason: str = ""
    note: str = ""  # the marker could not be written: a crash at start would not be noticed

    def to_plain(self) -> dict[str, object]:
        """``note`` only when there is one."""
        plain: dict[str, object] = {"safe": self.safe, "reason": self.reason}
        return {**plain, "note": self.note} if self.note else plain


class StartGuard:
    """The marker for one start: ``begin()`` decides the mode and sets the marker,
    ``ready()`` clears it. ``force`` (a ``--safe-mode`` flag) asks for safe mode."""

    def __init__(self, state_dir: Path, clock: Callable[[], float] | None = None) -> None:
        self.path = state_dir / MARKER
        self.clock = clock or time.time
        self.mode = StartMode(False)

    def begin(self, force: bool = False) -> StartMode:
        """The mode; a marker the card refuses (full, read-only) does not stop the start, it is said."""
        previous = self._previous()
        self.mode = _decide(previous, force)
        try:
            self._write_marker()
        except OSError as problem:
            if previous is None:
                _remove(self.path)  # half a marker must not put the next start in safe mode
            self.mode = replace(self.mode, note=f"the start marker {self.path} could not be written "
                                                f"({problem.strerror or problem}): a start that crashes would "
                                                "not be noticed, so the next one would not be in safe mode")
        return self.mode

    def ready(self) -> None:
        """The start finished: the next one is a normal one. Safe to call twice."""
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        except OSError as problem:  # a read-only card: the next start will be a safe one, and says why
            log.warning("the start marker %s could not be removed (%s): the next start is in safe mode",
                        self.path, problem)

    def _previous(self) -> dict[str, object] | None:
        """The marker a start that never finished left, or None."""
        try:
            text = self.path.read_text("utf-8")
        except FileNotFoundError:
            return None
        except OSError as problem:
            return {"unreadable": str(problem)}
        try:
            found = json.loads(text)
        except ValueError:
            return {}  # cut short by a power cut while it was written: still a start that did not finish
        return found if isinstance(found, dict) else {}

    def _write_marker(self) -> None:
        """Written and synced before any hardware is touched, so a crash in a backend
        (even a segfault, even a power cut) leaves it behind."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = json.dumps({"pid": os.getpid(), "started": self.clock(), "safe": self.mode.safe}).encode()
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
        try:
            if os.write(fd, data) != len(data):
                raise OSError(28, "the start marker was cut short")
            os.fsync(fd)
        finally:
            os.close(fd)


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass


def _decide(previous: dict[str, object] | None, force: bool) -> StartMode:
    if force:
        return StartMode(True, "Safe mode was asked for at start (--safe-mode): LEDs, camera and buttons are off.")
    if previous is None:
        return StartMode(False)
    return StartMode(True, _reason(previous))


def _reason(previous: dict[str, object]) -> str:
    started = previous.get("started")
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(started)) if isinstance(started, (int, float)) else "?"
    earlier = " (itself in safe mode)" if previous.get("safe") else ""
    return (f"The previous start (at {when}, process {previous.get('pid', '?')}){earlier} did not finish, so this "
            "one runs without the LEDs, camera and buttons; the game works from the tablets. The journal "
            "(journalctl -u table-companion) says what stopped it. Restart the service to try the hardware again.")
