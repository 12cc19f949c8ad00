"""The data of the tablet's health view, and the diagnostics bundle.

Why: the box has no screen, so when something is off (LEDs dark, a button
dead, the disk full, safe mode) the owner needs one place that says which part
and why, and a file to attach to a bug report - OctoPrint's "systeminfo
bundle" is what its maintainers ask for first. This module gathers it:
each part's health as its own module reports it, the disk, versions, the
recent warnings and errors (a logging handler keeping the last few), and the
start mode. The bundle is a zip of the same, plus the configuration; it never
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
import zipfile
from pathlib import Path
from typing import Mapping

LOW_DISK_MB = 200
ERRORS_KEPT = 50
PACKAGES = ("table-companion", "flask", "flask-socketio", "python-socketio", "gpiozero", "zeroconf",
            "opencv-python-headless", "opencv-python", "numpy", "picamera2", "rpi-ws281x")
MODEL_FILE = Path("/proc/device-tree/model")


class RecentErrors(logging.Handler):
    """The last warnings and errors logged anywhere in the service."""

    def __init__(self, size: int = ERRORS_KEPT, level: int = logging.WARNING) -> None:
        super().__init__(level)
        self._items: collections.deque[dict[str, object]] = collections.deque(maxlen=size)
        self._guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            item = {"at": record.created, "level": record.levelname, "where": record.name,
                    "message": record.getMessage()}
        except Exception:  # a bad log call must not break the caller
            self.handleError(record)
            return
        with self._guard:
            self._items.append(item)

    def items(self) -> list[dict[str, object]]:
        """Newest first."""
        with self._guard:
            return list(reversed(self._items))

    def install(self, logger: logging.Logger | None = None) -> "RecentErrors":
        (logger or logging.getLogger()).addHandler(self)
        return self


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
    return f"{when} {error.get('level')} {error.get('where')}: {error.get('message')}"
