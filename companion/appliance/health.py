"""The data of the tablet's health view, and the diagnostics bundle.

Why: the box has no screen, so when something is off (LEDs dark, a button
dead, the disk full, safe mode) the owner needs one place that says which part
and why, and a file to attach to a bug report - OctoPrint's "systeminfo
bundle" is what its maintainers ask for first. This module gathers it:
each part's health as its own module reports it, the disk, versions, the
recent warnings and errors (a logging handler keeping the last few: errors
and warnings apart, a line repeated counted rather than kept again, so a
stranger's flood of malformed messages cannot push a real error out), and the
start mode. ``RepeatLimit`` keeps the same flood out of the journal. The
bundle is a zip of the same, plus the configuration; it never
holds the pairing file or any token.
"""

from __future__ import annotations

import collections
import importlib.metadata
import io
import json
import logging
import platform
import shutil
import threading
import time
import traceback
import zipfile
from pathlib import Path
from typing import Callable, Mapping

LOW_DISK_MB = 200
ERRORS_KEPT = 50
PACKAGES = ("table-companion", "flask", "flask-socketio", "python-socketio", "gpiozero", "zeroconf",
            "opencv-python-headless", "opencv-python", "numpy", "picamera2", "rpi-ws281x")
MODEL_FILE = Path("/proc/device-tree/model")


class RecentErrors(logging.Handler):
    """The last errors and, apart, the last warnings logged anywhere in the service; an error
    with a traceback keeps its short form (the exception and the line it came from)."""

    def __init__(self, size: int = ERRORS_KEPT, level: int = logging.WARNING) -> None:
        super().__init__(level)
        self._errors: collections.deque[dict[str, object]] = collections.deque(maxlen=size)
        self._warnings: collections.deque[dict[str, object]] = collections.deque(maxlen=size)
        self._guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            item: dict[str, object] = {"at": record.created, "level": record.levelname, "where": record.name,
                                       "message": record.getMessage(), "repeated": 1}
            if record.exc_info and record.exc_info[1] is not None:
                item["error"] = _short_error(record.exc_info[1])
        except Exception:  # a bad log call must not break the caller
            self.handleError(record)
            return
        ring = self._errors if record.levelname in ("ERROR", "CRITICAL") else self._warnings
        with self._guard:
            last = ring[-1] if ring else None
            if last is not None and (last["where"], last["message"]) == (item["where"], item["message"]):
                last["repeated"] = int(str(last["repeated"])) + 1
                last["at"] = item["at"]
            else:
                ring.append(item)

    def items(self) -> list[dict[str, object]]:
        """Newest first, errors and warnings together."""
        with self._guard:
            found = [dict(item) for item in (*self._errors, *self._warnings)]
        return sorted(found, key=lambda item: float(str(item["at"])), reverse=True)

    def install(self, logger: logging.Logger | None = None) -> "RecentErrors":
        (logger or logging.getLogger()).addHandler(self)
        return self


def _short_error(error: BaseException) -> str:
    """``KeyError: 'x' (at companion/server/sockets.py:120 in _join)``: what the health view shows."""
    trace = traceback.extract_tb(error.__traceback__)
    place = f" (at {_relative(trace[-1].filename)}:{trace[-1].lineno} in {trace[-1].name})" if trace else ""
    return f"{type(error).__name__}: {str(error)[:200]}{place}"


def _relative(filename: str) -> str:
    parts = Path(filename).parts
    for root in ("companion", "hardware", "calibration", "site-packages"):
        if root in parts:
            index = len(parts) - 1 - parts[::-1].index(root)
            return "/".join(parts[index + (root == "site-packages"):])
    return Path(filename).name


class RepeatLimit(logging.Filter):
    """The same line (logger, level and message template) at most ``burst`` times a ``window``;
    the next one shown after that says how many were left out. For the journal's handler:
    a stranger's flood of one kind of noise takes a few lines, not the whole log."""

    def __init__(self, burst: int = 5, window: float = 60.0, clock: Callable[[], float] = time.monotonic,
                 kept: int = 500) -> None:
        super().__init__()
        self.burst, self.window, self.clock, self.kept = burst, window, clock, kept
        self._seen: dict[tuple[str, int, str], list[float]] = {}  # key -> [window start, shown, left out]
        self._guard = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg))
        now = self.clock()
        with self._guard:
            seen = self._seen.get(key)
            if seen is None or now - seen[0] >= self.window:
                left_out = int(seen[2]) if seen else 0
                self._seen[key] = seen = [now, 0.0, 0.0]
                self._prune(now)
                if left_out:
                    record.msg = f"{record.msg} [{left_out} more like this were left out of the log]"
            if seen[1] >= self.burst:
                seen[2] += 1
                return False
            seen[1] += 1
            return True

    def _prune(self, now: float) -> None:
        if len(self._seen) > self.kept:
            for key in [k for k, v in self._seen.items() if now - v[0] >= self.window]:
                del self._seen[key]


def disk_status(path: Path, low_mb: int = LOW_DISK_MB) -> dict[str, object]:
    """Free space where the games are written; ``low`` below ``low_mb`` (SQLite needs room to write)."""
    try:
        usage = shutil.disk_usage(path)
    except OSError as problem:
        return {"state": "failed", "path": str(path), "reason": str(problem)}
    free_mb = usage.free // 2**20
    return {"state": "ok" if free_mb >= low_mb else "low", "path": str(path), "free_mb": free_mb,
            "total_mb": usage.total // 2**20}


def versions(packages: tuple[str, ...] = PACKAGES) -> dict[str, str]:
    """The installed versions that matter for a bug report (missing ones left out)."""
    found = {"python": platform.python_version(), "system": _system()}
    for name in packages:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return found


def _system() -> str:
    try:
        model = MODEL_FILE.read_text("utf-8", "replace").strip("\0\n ")
    except OSError:
        model = platform.machine()
    return f"{model}; {platform.platform(terse=True)}"


def health_view(parts: Mapping[str, Mapping[str, object]], state_dir: Path, errors: RecentErrors | None,
                start: Mapping[str, object]) -> dict[str, object]:
    """What the tablet's health view shows. ``parts``: each part's own health
    (``leds``, ``camera``, ``buttons``, ``discovery``, ...), each with a ``state``;
    ``start``: the start mode (``safemode.StartMode.to_plain()``)."""
    every = {**parts, "disk": disk_status(state_dir)}
    return {"overall": _overall(every, start), "parts": every, "start": dict(start), "versions": versions(),
            "errors": errors.items() if errors is not None else [], "at": time.time()}


def _overall(parts: Mapping[str, Mapping[str, object]], start: Mapping[str, object]) -> str:
    """``safe-mode``, ``degraded`` (a part failed or is low) or ``ok``; a part that is off on purpose is fine."""
    if start.get("safe"):
        return "safe-mode"
    bad = [name for name, part in parts.items()
           if part.get("state") in ("failed", "disabled", "low", "read-only", "damaged", "set-aside")]
    return "degraded" if bad else "ok"


def diagnostics_bundle(view: Mapping[str, object], config_text: str) -> bytes:
    """A zip for a bug report: the health view, the recent errors and the configuration.
    Deliberately nothing from the state directory (games, pairings)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("health.json", json.dumps(view, indent=1, default=str))
        bundle.writestr("errors.log", "\n".join(_error_line(e) for e in _errors_of(view)) + "\n")
        bundle.writestr("config.toml", config_text)
    return buffer.getvalue()


def _errors_of(view: Mapping[str, object]) -> list[Mapping[str, object]]:
    errors = view.get("errors", [])
    return [e for e in errors if isinstance(e, Mapping)] if isinstance(errors, list) else []


def _error_line(error: Mapping[str, object]) -> str:
    at = error.get("at")
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at)) if isinstance(at, (int, float)) else "?"
    repeated = error.get("repeated")
    times = f" (x{repeated})" if isinstance(repeated, int) and repeated > 1 else ""
    cause = f" - {error['error']}" if error.get("error") else ""
    return f"{when} {error.get('level')} {error.get('where')}: {error.get('message')}{cause}{times}"
