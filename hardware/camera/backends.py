"""Frame-source backends by name, and the two ways to open one.

``open_camera`` raises ``CameraError`` with the reason (for a setup check or a
command line that should fail loudly). ``start_camera`` never raises: a
camera that cannot start becomes a ``NoCamera``-like source carrying the
reason, so the game goes on with typed dice. Neither guesses: the backend is
what the configuration says, and each backend module is imported only when
chosen (picamera2 exists only on a Pi).
"""

from __future__ import annotations

import logging
from typing import Callable

from ..backends import open_backend
from .config import BACKEND_NAMES, CameraConfig
from .source import CameraError, Frame, FrameSource, NoCamera

log = logging.getLogger(__name__)
Opener = Callable[[CameraConfig], FrameSource]


def _v4l2(config: CameraConfig) -> FrameSource:
    from .v4l2 import open_v4l2

    return open_v4l2(config)


def _picamera2(config: CameraConfig) -> FrameSource:
    from .picam import open_picamera2

    return open_picamera2(config)


def _folder(config: CameraConfig) -> FrameSource:
    from .files import open_folder

    return open_folder(config)


def _video(config: CameraConfig) -> FrameSource:
    from .files import open_video

    return open_video(config)


def _none(config: CameraConfig) -> FrameSource:
    return NoCamera()


BACKENDS: dict[str, Opener] = {"v4l2": _v4l2, "picamera2": _picamera2, "folder": _folder, "video": _video,
                               "none": _none}
assert set(BACKENDS) == set(BACKEND_NAMES)


class DisabledCamera(FrameSource):
    """A configured camera that failed to start: every read says why."""

    backend = "disabled"

    def __init__(self, configured: str, reason: str) -> None:
        super().__init__(f"the {configured} camera (disabled)")
        self.configured = configured
        self.reason = reason

    def _read(self) -> Frame:
        raise CameraError(self.reason)

    def _reopen(self) -> None:
        raise CameraError(self.reason)


def open_camera(config: CameraConfig, backends: dict[str, Opener] | None = None) -> FrameSource:
    """The configured source, or ``CameraError`` saying why it cannot start."""
    return open_backend(config, BACKENDS if backends is None else backends, CameraError, "camera")


def start_camera(config: CameraConfig, backends: dict[str, Opener] | None = None) -> FrameSource:
    """Like ``open_camera`` but never raises: a failure is logged and carried by the source."""
    try:
        return open_camera(config, backends)
    except CameraError as problem:
        log.error("dice camera disabled: %s", problem)
        return DisabledCamera(config.backend, str(problem))
