"""The dice camera's configuration: one small frozen record, checked on creation.

Why a record of its own: a wrong camera setting (a ``/dev/video0`` index that
moves between boots, a folder that does not exist) must be refused with the
field and the reason at start, not discovered as a silent "no dice read" in
the middle of a game. ``from_mapping`` reads the ``[camera]`` table of the
companion's TOML configuration.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

BACKEND_NAMES = ("v4l2", "picamera2", "folder", "video", "none")
AT_END = ("hold", "loop", "stop")
STABLE_PREFIXES = ("/dev/v4l/by-id/", "/dev/v4l/by-path/")


class CameraConfigError(ValueError):
    """A configuration value the camera refuses, naming the field."""

    def __init__(self, field: str, why: str) -> None:
        super().__init__(f"camera.{field}: {why}")
        self.field = field
        self.why = why


@dataclass(frozen=True)
class CameraConfig:
    """Which frame source and how it runs.

    ``device``: the USB webcam's stable path (``/dev/v4l/by-id/usb-...-video-index0``;
    ``/dev/videoN`` numbers move between boots on a Pi). ``camera_num``: the Pi
    camera module (picamera2). ``path``: a folder of images or a video file.
    ``width``/``height``/``fps``: what to ask a camera for (files are used as
    they are; ``fps`` paces them, 0 = as fast as read). ``at_end``: what a
    folder or video does after its last frame: ``hold`` it (a still tray),
    ``loop``, or ``stop`` (reported like an unplugged camera).
    ``stale_after``: seconds without a good frame before a camera counts as lost.
    """

    backend: str = "none"
    device: str = ""
    camera_num: int = 0
    path: str = ""
    width: int = 640
    height: int = 480
    fps: float = 0.0
    fourcc: str = "MJPG"
    at_end: str = "hold"
    stale_after: float = 2.0

    def __post_init__(self) -> None:
        for check in (_check_backend, _check_device, _check_path, _check_size, _check_timing, _check_fourcc):
            check(self)

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> "CameraConfig":
        """Build from a TOML/JSON table; unknown keys and wrong types are refused."""
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise CameraConfigError(str(key), f"unknown setting (known: {', '.join(sorted(known))})")
        values: dict[str, Any] = {key: _typed(key, value, type(getattr(cls, key))) for key, value in data.items()}
        return cls(**values)


def _typed(key: str, value: object, kind: type) -> object:
    """TOML gives ints where floats are meant (``fps = 30``); anything else must match."""
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise CameraConfigError(key, f"expected {kind.__name__}, got {value!r}")
    return value


def _check_backend(config: CameraConfig) -> None:
    if config.backend not in BACKEND_NAMES:
        raise CameraConfigError("backend", f"{config.backend!r} is not one of {', '.join(BACKEND_NAMES)}")


def _check_device(config: CameraConfig) -> None:
    if config.backend != "v4l2":
        return
    if not config.device.startswith("/dev/"):
        raise CameraConfigError("device", "give the webcam's path, e.g. /dev/v4l/by-id/usb-...-video-index0 "
                                          "(ls /dev/v4l/by-id/ lists them); numbers like 0 move between boots")
    if config.camera_num < 0:
        raise CameraConfigError("camera_num", "must be 0 or more")


def _check_path(config: CameraConfig) -> None:
    if config.backend in ("folder", "video") and not config.path:
        raise CameraConfigError("path", f"the {config.backend} backend needs a path")
    if config.at_end not in AT_END:
        raise CameraConfigError("at_end", f"{config.at_end!r} is not one of {', '.join(AT_END)}")


def _check_size(config: CameraConfig) -> None:
    if not (32 <= config.width <= 8192 and 32 <= config.height <= 8192):
        raise CameraConfigError("width", f"{config.width}x{config.height} is not a camera size")


def _check_timing(config: CameraConfig) -> None:
    if not 0.0 <= config.fps <= 240.0:
        raise CameraConfigError("fps", "must be between 0 and 240")
    if not 0.1 <= config.stale_after <= 60.0:
        raise CameraConfigError("stale_after", "must be between 0.1 and 60 seconds")


def _check_fourcc(config: CameraConfig) -> None:
    if config.fourcc and len(config.fourcc) != 4:
        raise CameraConfigError("fourcc", "a four-letter code such as MJPG or YUYV, or empty for the default")


def is_stable_device(path: str) -> bool:
    """Whether a V4L2 path survives reboots and replugging (by-id or by-path)."""
    return path.startswith(STABLE_PREFIXES)
