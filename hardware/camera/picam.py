"""A Raspberry Pi camera module through picamera2 (libcamera).

Why picamera2 and not OpenCV: since Bullseye the CSI cameras go through
libcamera, and OpenCV's pip wheels have no libcamera backend, so
``cv2.VideoCapture(0)`` gives nothing. picamera2 comes from Debian
(``python3-picamera2``) with its matching libcamera bindings, so the venv
must be made with ``--system-site-packages``; it is imported here only, so
the rest of the companion runs anywhere. "RGB888" frames are BGR in memory,
which is what OpenCV and the reader expect. Not exercised by the test suite
(no camera here): keep this module small and obvious.
"""

from __future__ import annotations

import importlib
from typing import Any, Mapping

import numpy as np

from .config import CameraConfig
from .source import CameraError, CameraLost, ExposureLock, Frame, FrameSource, as_frame

class Picamera2Camera(FrameSource):
    backend = "picamera2"

    def __init__(self, config: CameraConfig) -> None:
        super().__init__(f"the Pi camera {config.camera_num}")
        self.config = config
        self.camera = self._open()

    def _open(self) -> Any:
        try:
            picamera2 = importlib.import_module("picamera2")  # only here: apt's python3-picamera2
        except ImportError as problem:
            raise CameraError("picamera2 is not installed: sudo apt install python3-picamera2, and make the "
                              f"venv with --system-site-packages ({problem})") from None
        try:
            camera = picamera2.Picamera2(self.config.camera_num)
            size = (self.config.width, self.config.height)
            camera.configure(camera.create_video_configuration(main={"format": "RGB888", "size": size}))
            camera.start()
        except (IndexError, RuntimeError, OSError) as problem:
            raise CameraError(f"the Pi camera {self.config.camera_num} did not start: {problem} "
                              "(is the ribbon seated, and no other program using it?)") from None
        return camera

    def _read(self) -> Frame:
        try:
            image = self.camera.capture_array("main", wait=self.config.stale_after)
        except (RuntimeError, TimeoutError, OSError) as problem:
            raise CameraLost(f"the Pi camera stopped giving pictures: {problem}") from None
        return as_frame(np.asarray(image), self.description)

    def _release(self) -> None:
        try:
            self.camera.stop()
        finally:
            self.camera.close()

    def _reopen(self) -> None:
        try:
            self._release()
        except (RuntimeError, OSError):
            pass
        self.camera = self._open()

    def lock_exposure(self) -> ExposureLock:
        """Read what auto exposure and white balance chose, then fix those values."""
        with self._lock:
            metadata: Mapping[str, Any] = self.camera.capture_metadata()
            return self._apply(_flat_settings(metadata))

    def apply_exposure(self, settings: Mapping[str, float]) -> ExposureLock:
        with self._lock:
            return self._apply(settings)

    def _apply(self, settings: Mapping[str, float]) -> ExposureLock:
        try:
            self.camera.set_controls(_controls(settings))
        except (RuntimeError, ValueError, TypeError) as problem:
            return ExposureLock(False, {}, f"the Pi camera refused the fixed exposure: {problem}")
        return ExposureLock(True, dict(settings), "exposure and white balance locked")


def _flat_settings(metadata: Mapping[str, Any]) -> dict[str, float]:
    """libcamera metadata as plain numbers (ColourGains is a pair) to save as JSON."""
    settings = {name: float(metadata[name]) for name in ("ExposureTime", "AnalogueGain") if name in metadata}
    gains = metadata.get("ColourGains")
    if isinstance(gains, (tuple, list)) and len(gains) == 2:
        settings["ColourGainRed"], settings["ColourGainBlue"] = float(gains[0]), float(gains[1])
    return settings


def _controls(settings: Mapping[str, float]) -> dict[str, object]:
    controls: dict[str, object] = {"AeEnable": False, "AwbEnable": False}
    if "ExposureTime" in settings:
        controls["ExposureTime"] = int(settings["ExposureTime"])
    if "AnalogueGain" in settings:
        controls["AnalogueGain"] = float(settings["AnalogueGain"])
    if "ColourGainRed" in settings and "ColourGainBlue" in settings:
        controls["ColourGains"] = (float(settings["ColourGainRed"]), float(settings["ColourGainBlue"]))
    return controls


def open_picamera2(config: CameraConfig) -> FrameSource:
    return Picamera2Camera(config)
