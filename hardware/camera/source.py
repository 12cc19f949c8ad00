"""The one frame-source interface every camera backend implements.

Why an interface of its own: the dice reader, the calibration and the tests
must not care whether frames come from a USB webcam, a Pi camera module, a
folder of photos or nothing at all. Each backend raises the same two errors so
the game can tell "this camera never started" (``CameraError``) from "it was
working and has just gone" (``CameraLost``), report it, and fall back to taps.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Mapping

import numpy as np
from numpy.typing import NDArray

#: A camera frame: height x width x 3, uint8, BGR order (what OpenCV expects).
Frame = NDArray[np.uint8]


class CameraError(RuntimeError):
    """The camera could not start (or restart); the message says why and what to check."""


class CameraLost(CameraError):
    """A camera that was giving frames stopped (unplugged, died, folder removed)."""


@dataclass(frozen=True)
class ExposureLock:
    """What locking exposure and white balance achieved, to show and to save.

    ``settings`` are the backend's own control values (for example
    ``ExposureTime`` on a Pi camera), saved with the calibration and re-applied
    at start so the dice look as they did when their references were taken.
    """

    locked: bool
    settings: Mapping[str, float] = field(default_factory=dict)
    note: str = ""


class FrameSource:
    """Base of every backend: ``read`` frames, ``close`` once (safe twice).

    Subclasses implement ``_read`` and ``_release``; the base keeps the
    closed flag and a lock so a watcher thread and ``close`` from the main
    thread cannot release the device under a read in progress.
    """

    backend = "base"

    def __init__(self, description: str) -> None:
        self.description = description
        self._lock = threading.Lock()
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def read(self) -> Frame:
        """The next frame; ``CameraLost`` if the source has gone."""
        with self._lock:
            if self._closed:
                raise CameraLost(f"{self.description} is closed")
            return self._read()

    def close(self) -> None:
        """Release the device; safe to call twice and from any thread."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._release()

    def reopen(self) -> None:
        """Try to get the device back after ``CameraLost``; ``CameraError`` if not yet."""
        with self._lock:
            if self._closed:
                raise CameraError(f"{self.description} is closed")
            self._reopen()

    def lock_exposure(self) -> ExposureLock:
        """Freeze exposure and white balance at their current values, where the source allows."""
        return ExposureLock(False, note=f"{self.description} has no exposure controls")

    def apply_exposure(self, settings: Mapping[str, float]) -> ExposureLock:
        """Re-apply settings saved by ``lock_exposure`` (at start, after calibration)."""
        return ExposureLock(False, note=f"{self.description} has no exposure controls")

    def _read(self) -> Frame:
        raise NotImplementedError

    def _release(self) -> None:
        """Free the device; called once, under the lock."""

    def _reopen(self) -> None:
        raise CameraError(f"{self.description} cannot be reopened")

    def __enter__(self) -> "FrameSource":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class NoCamera(FrameSource):
    """The ``none`` backend: no camera at this table; every roll is typed on the tablet."""

    backend = "none"

    def __init__(self) -> None:
        super().__init__("no camera (backend none)")

    def _read(self) -> Frame:
        raise CameraError("no camera is configured (camera.backend = none): enter the dice on the tablet")

    def _reopen(self) -> None:
        raise CameraError("no camera is configured (camera.backend = none)")


def as_frame(image: object, where: str) -> Frame:
    """Check a decoded image is a BGR frame; ``CameraLost`` naming ``where`` if not.

    Why: OpenCV returns ``None`` (not an exception) for an unreadable file or
    a dead device, and grey or BGRA images would break the reader later.
    """
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise CameraLost(f"no picture from {where}")
    if image.ndim == 2:
        return np.ascontiguousarray(np.repeat(image[:, :, None], 3, axis=2), dtype=np.uint8)
    if image.ndim != 3 or image.shape[2] not in (3, 4):
        raise CameraLost(f"{where} gave a picture of shape {image.shape}, not a colour frame")
    return np.ascontiguousarray(image[:, :, :3], dtype=np.uint8)
