"""A USB webcam through OpenCV's V4L2 backend, opened by its stable path.

Why the by-id path: on a Pi the ISP, codec and CSI nodes also take
``/dev/videoN`` numbers, so "camera 0" is a different device from one boot to
the next; ``/dev/v4l/by-id/usb-...-video-index0`` is the same webcam always.
Why the staleness check: a webcam pulled out mid-game makes ``read()`` return
``False`` (or hang briefly) rather than raise, so the source counts failures
and time since the last good frame, then raises ``CameraLost``.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Mapping

import cv2

from .config import CameraConfig, is_stable_device
from .source import CameraError, CameraLost, ExposureLock, Frame, FrameSource, as_frame

log = logging.getLogger(__name__)
#: V4L2 through OpenCV: CAP_PROP_AUTO_EXPOSURE 1 = manual, 3 = aperture priority (auto).
V4L2_MANUAL_EXPOSURE = 1.0
V4L2_AUTO_EXPOSURE = 3.0
WARM_UP_FRAMES = 5  # the first frames of many webcams are dark or green


class V4L2Camera(FrameSource):
    backend = "v4l2"

    def __init__(self, config: CameraConfig) -> None:
        super().__init__(f"the webcam {config.device}")
        self.config = config
        if not is_stable_device(config.device):
            log.warning("%s is not a /dev/v4l/by-id path; it may name another device after a reboot", config.device)
        self.capture = self._open()
        self.last_good = time.monotonic()

    def _open(self) -> "cv2.VideoCapture":
        if not os.path.exists(self.config.device):
            raise CameraError(f"{self.config.device} does not exist: is the webcam plugged in? "
                              "(ls /dev/v4l/by-id/ lists the cameras)")
        capture = cv2.VideoCapture(self.config.device, cv2.CAP_V4L2)
        if not capture.isOpened():
            raise CameraError(f"OpenCV could not open {self.config.device}: is the user in the 'video' group, "
                              "and is no other program using the camera?")
        self._configure(capture)
        self._warm_up(capture)
        return capture

    def _configure(self, capture: "cv2.VideoCapture") -> None:
        if self.config.fourcc:
            capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*self.config.fourcc))
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, float(self.config.width))
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, float(self.config.height))
        if self.config.fps:
            capture.set(cv2.CAP_PROP_FPS, float(self.config.fps))
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1.0)  # the newest frame, not one queued seconds ago

    def _warm_up(self, capture: "cv2.VideoCapture") -> None:
        for _ in range(WARM_UP_FRAMES):
            ok, _image = capture.read()
            if ok:
                return
        capture.release()
        raise CameraError(f"{self.config.device} opened but gave no picture")

    def _read(self) -> Frame:
        while True:
            ok, image = self.capture.read()
            if ok:
                self.last_good = time.monotonic()
                return as_frame(image, self.config.device)
            self._check_alive()

    def _check_alive(self) -> None:
        """Raise ``CameraLost`` once the device is gone or silent for ``stale_after`` seconds."""
        if not os.path.exists(self.config.device):
            raise CameraLost(f"{self.config.device} has gone: the webcam was unplugged")
        if time.monotonic() - self.last_good > self.config.stale_after:
            raise CameraLost(f"{self.config.device} gave no picture for {self.config.stale_after:g} s")
        time.sleep(0.02)

    def _release(self) -> None:
        self.capture.release()

    def _reopen(self) -> None:
        self.capture.release()
        self.capture = self._open()
        self.last_good = time.monotonic()

    def lock_exposure(self) -> ExposureLock:
        """Switch auto exposure and auto white balance off at their current values."""
        with self._lock:
            settings = {"exposure": float(self.capture.get(cv2.CAP_PROP_EXPOSURE)),
                        "wb_temperature": float(self.capture.get(cv2.CAP_PROP_WB_TEMPERATURE)),
                        "gain": float(self.capture.get(cv2.CAP_PROP_GAIN))}
            return self._apply(settings)

    def apply_exposure(self, settings: Mapping[str, float]) -> ExposureLock:
        with self._lock:
            return self._apply(settings)

    def _apply(self, settings: Mapping[str, float]) -> ExposureLock:
        exposure = self.capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_MANUAL_EXPOSURE)
        exposure = exposure and self.capture.set(cv2.CAP_PROP_EXPOSURE, settings.get("exposure", 0.0))
        balance = self.capture.set(cv2.CAP_PROP_AUTO_WB, 0.0)
        balance = balance and self.capture.set(cv2.CAP_PROP_WB_TEMPERATURE, settings.get("wb_temperature", 0.0))
        if "gain" in settings:
            self.capture.set(cv2.CAP_PROP_GAIN, settings["gain"])
        return ExposureLock(bool(exposure and balance), dict(settings), _lock_note(bool(exposure), bool(balance)))


def _lock_note(exposure: bool, balance: bool) -> str:
    if exposure and balance:
        return "exposure and white balance locked"
    missing = [name for name, ok in (("exposure", exposure), ("white balance", balance)) if not ok]
    return f"this webcam did not accept a fixed {' or '.join(missing)}; keep the tray light steady"


def open_v4l2(config: CameraConfig) -> FrameSource:
    return V4L2Camera(config)
