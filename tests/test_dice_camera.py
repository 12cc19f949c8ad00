"""Frame sources chosen by configuration, never guessed; each fails with the
reason (never started: CameraError; gone mid-game: CameraLost); close is safe
twice."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from dice_fixtures import write_png
from hardware.camera import (CameraConfig, CameraConfigError, CameraError, CameraLost, DisabledCamera, FolderSource,
                             NoCamera, VideoFileSource, open_camera, start_camera)


def frame(level: int) -> np.ndarray:
    return np.full((48, 64, 3), level, np.uint8)


def folder_of(tmp_path: Path, levels: list[int]) -> Path:
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, level in enumerate(levels):
        write_png(folder / f"{i:03d}.png", frame(level))
    return folder


# -- configuration --------------------------------------------------------------------------------

def test_the_configuration_is_checked_field_by_field() -> None:
    assert CameraConfig.from_mapping({"backend": "folder", "path": "x", "fps": 30}).fps == 30.0
    with pytest.raises(CameraConfigError, match="camera.colour: unknown setting"):
        CameraConfig.from_mapping({"colour": "red"})
    with pytest.raises(CameraConfigError, match="camera.width: expected int"):
        CameraConfig.from_mapping({"width": "640"})
    with pytest.raises(CameraConfigError, match="camera.backend"):
        CameraConfig(backend="webcam")
    with pytest.raises(CameraConfigError, match="by-id"):
        CameraConfig(backend="v4l2", device="0")
    with pytest.raises(CameraConfigError, match="needs a path"):
        CameraConfig(backend="folder")
    with pytest.raises(CameraConfigError, match="at_end"):
        CameraConfig(backend="folder", path="x", at_end="rewind")


def test_the_backend_is_the_one_configured(tmp_path: Path) -> None:
    folder = folder_of(tmp_path, [10])
    source = open_camera(CameraConfig(backend="folder", path=str(folder)))
    assert isinstance(source, FolderSource)
    source.close()
    assert isinstance(open_camera(CameraConfig(backend="none")), NoCamera)


def test_a_camera_that_cannot_start_says_why() -> None:
    with pytest.raises(CameraError, match="is the webcam plugged in"):
        open_camera(CameraConfig(backend="v4l2", device="/dev/v4l/by-id/usb-no-such-camera-video-index0"))
    with pytest.raises(CameraError, match="not a folder"):
        open_camera(CameraConfig(backend="folder", path="/no/such/folder"))


def test_picamera2_is_only_imported_by_its_backend() -> None:
    import sys

    import hardware.camera  # noqa: F401 - importing the package must not import picamera2
    assert "picamera2" not in sys.modules
    try:
        import picamera2  # noqa: F401
    except ImportError:
        with pytest.raises(CameraError, match="apt install python3-picamera2"):
            open_camera(CameraConfig(backend="picamera2"))


def test_start_camera_never_raises_and_carries_the_reason() -> None:
    source = start_camera(CameraConfig(backend="folder", path="/no/such/folder"))
    assert isinstance(source, DisabledCamera)
    with pytest.raises(CameraError, match="not a folder"):
        source.read()


def test_no_camera_asks_for_typed_dice() -> None:
    with pytest.raises(CameraError, match="enter the dice on the tablet"):
        NoCamera().read()


# -- the folder source ----------------------------------------------------------------------------

def test_a_folder_gives_its_images_in_order_then_holds_the_last(tmp_path: Path) -> None:
    folder = folder_of(tmp_path, [10, 20, 30])
    with FolderSource(folder) as source:
        assert [int(source.read()[0, 0, 0]) for _ in range(5)] == [10, 20, 30, 30, 30]


def test_new_images_arrive_while_it_runs(tmp_path: Path) -> None:
    folder = folder_of(tmp_path, [10])
    source = FolderSource(folder)
    assert int(source.read()[0, 0, 0]) == 10
    assert int(source.read()[0, 0, 0]) == 10
    write_png(folder / "005.png", frame(50))
    assert int(source.read()[0, 0, 0]) == 50
    source.close()


def test_loop_and_stop_at_the_end(tmp_path: Path) -> None:
    folder = folder_of(tmp_path, [10, 20])
    looping = FolderSource(folder, at_end="loop")
    assert [int(looping.read()[0, 0, 0]) for _ in range(5)] == [10, 20, 10, 20, 10]
    stopping = FolderSource(folder, at_end="stop")
    stopping.read(), stopping.read()
    with pytest.raises(CameraLost, match="no more images"):
        stopping.read()


def test_a_folder_removed_mid_game_is_a_lost_camera(tmp_path: Path) -> None:
    folder = folder_of(tmp_path, [10, 20])
    source = FolderSource(folder)
    source.read()
    shutil.rmtree(folder)
    with pytest.raises(CameraLost):
        source.read()
    with pytest.raises(CameraError, match="still missing"):
        source.reopen()
    folder_of(tmp_path, [40])
    source.reopen()
    assert int(source.read()[0, 0, 0]) == 40


def test_an_unreadable_image_is_a_lost_camera(tmp_path: Path) -> None:
    folder = folder_of(tmp_path, [])
    (folder / "000.png").write_bytes(b"half a file")
    with pytest.raises(CameraLost, match="no picture"):
        FolderSource(folder).read()


def test_close_is_safe_twice_and_reads_after_it_fail(tmp_path: Path) -> None:
    source = FolderSource(folder_of(tmp_path, [10]))
    source.close()
    source.close()
    assert source.closed
    with pytest.raises(CameraLost, match="closed"):
        source.read()


def test_sources_without_controls_say_so(tmp_path: Path) -> None:
    lock = FolderSource(folder_of(tmp_path, [10])).lock_exposure()
    assert not lock.locked and "no exposure controls" in lock.note


# -- a video file ---------------------------------------------------------------------------------

def test_a_video_file_plays_then_holds(tmp_path: Path) -> None:
    path = tmp_path / "throw.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for level in (10, 120, 240):
        writer.write(frame(level))
    writer.release()
    source = VideoFileSource(path)
    levels = [int(source.read()[10, 10, 0]) for _ in range(5)]
    assert levels[0] < 40 and 100 < levels[1] < 140 and levels[2:] == [levels[2]] * 3
    source.close()
    source.close()
    with pytest.raises(CameraError, match="not a video file"):
        VideoFileSource(tmp_path / "missing.avi")
