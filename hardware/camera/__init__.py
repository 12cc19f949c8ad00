"""The dice camera: frame sources chosen by configuration (issue 5).

* ``source`` - the one interface (``read()``, ``close()``, exposure lock) and
  its errors: ``CameraError`` (never started) and ``CameraLost`` (gone
  mid-game: unplugged, dead, folder removed).
* ``config`` - ``CameraConfig``, the ``[camera]`` table, checked on creation.
* backends, each imported only when chosen: ``v4l2`` (USB webcam by its
  ``/dev/v4l/by-id`` path), ``picamera2`` (Pi camera modules), ``folder`` and
  ``video`` (laptops and tests), ``none``.

Names are loaded on first use, so ``hardware.camera.config`` (the settings
check) imports without OpenCV or numpy. docs/dice.md covers set-up.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the same names for type checkers, re-exported
    from .backends import DisabledCamera as DisabledCamera, open_camera as open_camera, start_camera as start_camera
    from .config import CameraConfig as CameraConfig, CameraConfigError as CameraConfigError
    from .files import FolderSource as FolderSource, VideoFileSource as VideoFileSource
    from .source import (CameraError as CameraError, CameraLost as CameraLost, ExposureLock as ExposureLock,
                         Frame as Frame, FrameSource as FrameSource, NoCamera as NoCamera)

_HOMES = {
    "DisabledCamera": "backends", "open_camera": "backends", "start_camera": "backends",
    "CameraConfig": "config", "CameraConfigError": "config",
    "FolderSource": "files", "VideoFileSource": "files",
    "CameraError": "source", "CameraLost": "source", "ExposureLock": "source", "Frame": "source",
    "FrameSource": "source", "NoCamera": "source",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> object:
    """``from hardware.camera import X`` loads X's module then (OpenCV only when a source is used)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{home}", __name__), name)
