"""Frames from a folder of images or a video file: laptops, tests, replays.

Why a folder source watches its folder: a test (or a developer) can drop tray
photos into it while the game runs, and they arrive in name order like frames
from a camera; after the newest it holds the last one, as a camera looking at
a still tray would. A frame that cannot be read (the folder removed, a file
half written) is reported as ``CameraLost``, exactly like an unplugged webcam.
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2

from .config import CameraConfig
from .source import CameraError, CameraLost, Frame, FrameSource, as_frame

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")


class Pacer:
    """Waits so frames come no faster than ``fps`` (0: no waiting)."""

    def __init__(self, fps: float) -> None:
        self.interval = 1.0 / fps if fps > 0 else 0.0
        self.last = 0.0

    def wait(self) -> None:
        if self.interval:
            delay = self.last + self.interval - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            self.last = time.monotonic()


class FolderSource(FrameSource):
    backend = "folder"

    def __init__(self, folder: Path | str, at_end: str = "hold", fps: float = 0.0) -> None:
        self.folder = Path(folder)
        super().__init__(f"the image folder {self.folder}")
        if not self.folder.is_dir():
            raise CameraError(f"{self.folder} is not a folder of images")
        self.at_end = at_end
        self.pacer = Pacer(fps)
        self.served: list[Path] = []
        self.last: Frame | None = None

    def _listing(self) -> list[Path]:
        try:
            return sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        except OSError as problem:
            raise CameraLost(f"{self.folder} cannot be read: {problem.strerror}") from None

    def _next_path(self) -> Path | None:
        """The first image not served yet, by name (new files may have arrived)."""
        shown = set(self.served)
        fresh = [p for p in self._listing() if p not in shown]
        if fresh:
            return fresh[0]
        if self.at_end == "loop" and self.served:
            self.served.clear()
            return self._next_path()
        return None

    def _read(self) -> Frame:
        self.pacer.wait()
        path = self._next_path()
        if path is None:
            return self._hold()
        self.served.append(path)
        self.last = as_frame(cv2.imread(str(path), cv2.IMREAD_COLOR), str(path))
        return self.last

    def _hold(self) -> Frame:
        if not self.folder.is_dir():
            raise CameraLost(f"{self.folder} has gone")
        if self.at_end == "stop" or self.last is None:
            raise CameraLost(f"no more images in {self.folder}")
        return self.last

    def _reopen(self) -> None:
        """The folder is back: start again from its first image, like a camera plugged in again."""
        if not self.folder.is_dir():
            raise CameraError(f"{self.folder} is still missing")
        self.served.clear()
        self.last = None


class VideoFileSource(FrameSource):
    backend = "video"

    def __init__(self, path: Path | str, at_end: str = "hold", fps: float = 0.0) -> None:
        self.path = Path(path)
        super().__init__(f"the video file {self.path}")
        self.at_end = at_end
        self.pacer = Pacer(fps)
        self.last: Frame | None = None
        self.capture = self._open()

    def _open(self) -> "cv2.VideoCapture":
        if not self.path.is_file():
            raise CameraError(f"{self.path} is not a video file")
        capture = cv2.VideoCapture(str(self.path))
        if not capture.isOpened():
            raise CameraError(f"OpenCV cannot decode {self.path} (is FFMPEG in this OpenCV build?)")
        return capture

    def _read(self) -> Frame:
        self.pacer.wait()
        ok, image = self.capture.read()
        if ok:
            self.last = as_frame(image, str(self.path))
            return self.last
        if self.at_end == "loop" and self.last is not None:
            self.capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            return self._read()
        if self.at_end == "hold" and self.last is not None:
            return self.last
        raise CameraLost(f"{self.path} has no more frames")

    def _release(self) -> None:
        self.capture.release()

    def _reopen(self) -> None:
        self.capture.release()
        self.capture = self._open()


def open_folder(config: CameraConfig) -> FrameSource:
    return FolderSource(config.path, config.at_end, config.fps)


def open_video(config: CameraConfig) -> FrameSource:
    return VideoFileSource(config.path, config.at_end, config.fps)
