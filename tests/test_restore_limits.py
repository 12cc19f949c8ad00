"""Hostile files against the real service: zip bombs, a bomb nested in the dice
calibration, a zip of thousands of entries, a picture of a billion pixels, a web
page dressed as a JPEG, JSON nested a hundred thousand deep. Each is refused
with what and why, before anything is unpacked past its limit, and nothing on
the box changes: not its games, not a file of its state directory. Also the
checks in ``uploads`` on their own (image headers, depth, directories)."""

from __future__ import annotations

import hashlib
import io
import json
import struct
import zipfile
import zlib
from typing import Any, Iterator

import cv2
import numpy as np
import pytest
import requests

from companion.server import uploads
from service_process import SETUP, TIMEOUT, Service, connect, ok

MiB = 1024 * 1024


def png_header(width: int, height: int) -> bytes:
    """A PNG whose header says ``width`` x ``height`` (with one tiny, wrong IDAT)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b""))


def real_png(width: int = 60, height: int = 40) -> bytes:
    return bytes(cv2.imencode(".png", np.full((height, width, 3), 120, np.uint8))[1].tobytes())


def real_jpeg(width: int = 64, height: int = 48) -> bytes:
    return bytes(cv2.imencode(".jpg", np.full((height, width, 3), 120, np.uint8))[1].tobytes())


def zip_of(entries: dict[str, bytes | int]) -> bytes:
    """A zip; an int entry is that many zero bytes, written in pieces (never held in memory whole)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            if isinstance(data, int):
                info = zipfile.ZipInfo(name)
                info.compress_type = zipfile.ZIP_DEFLATED
                with archive.open(info, "w", force_zip64=True) as entry:
                    for _ in range(data // MiB):
                        entry.write(bytes(MiB))
            else:
                archive.writestr(name, data)
    return buffer.getvalue()


MANIFEST = json.dumps({"format": "table-companion.backup", "version": 1, "games": []}).encode()


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    service = Service(tmp_path_factory.mktemp("bombs") / "box").start()
    with connect(service.url) as tablet:
        ok(tablet, "new_game", {"setup": SETUP, "name": "Kept safe"})
    yield service
    service.stop()


def state_of(service: Service) -> tuple[list[Any], dict[str, str]]:
    """The games and every file of the state directory but the database's own (by content)."""
    games = requests.get(f"{service.url}/api/games", timeout=TIMEOUT).json()["games"]
    files = {str(p.relative_to(service.state_dir)): hashlib.sha256(p.read_bytes()).hexdigest()
             for p in sorted(service.state_dir.rglob("*")) if p.is_file() and ".sqlite" not in p.name}
    return games, files


def restore(service: Service, data: bytes) -> requests.Response:
    return requests.post(f"{service.url}/api/backup/restore", data=data, timeout=60,
                         headers={"Content-Type": "application/zip"})


BOMBS = {
    "a photo that unpacks to 64 MiB": ({"backup.json": MANIFEST, "owner/ravenloft-board.png": 64 * MiB},
                                       "owner/ravenloft-board.png unpacks to 64.0 MiB"),
    "a bomb in the dice calibration": ({"backup.json": MANIFEST, "dice/calibration.zip": zip_of(
                                           {"calibration.json": b"{}", "background.png": 40 * MiB})},
                                       "background.png unpacks to 40.0 MiB"),
    "a zip of 5000 files": ({"backup.json": MANIFEST, **{f"owner/{n}.json": b"{}" for n in range(5000)}},
                            "holds 5001 files, more than the 2000"),
    "a billion pixels": ({"backup.json": MANIFEST, "owner/ravenloft-board.png": png_header(30000, 30000)},
                         "30000x30000 pixels (900 megapixels)"),
    "a web page with a JPEG's first bytes": ({"backup.json": MANIFEST, "owner/ravenloft-board.jpg":
                                              b"\xff\xd8\xff\xe0<html><script>alert(1)</script></html>"},
                                             "not a JPEG or PNG image"),
    "a calibration picture of a billion pixels": ({"backup.json": MANIFEST, "dice/calibration.zip": zip_of(
                                                      {"calibration.json": b"{}",
                                                       "background.png": png_header(40000, 30000)})},
                                                  "background.png is 40000x30000 pixels"),
    "JSON nested 100000 deep": ({"backup.json": b"[" * 100_000 + b"]" * 100_000},
                                "nested too deeply"),
    "a name that climbs out": ({"backup.json": MANIFEST, "owner/../../etc/evil.json": b"{}"}, "unsafe"),
}


@pytest.mark.parametrize("name", BOMBS)
def test_a_hostile_backup_is_refused_with_why_and_changes_nothing(box: Service, name: str) -> None:
    entries, expected = BOMBS[name]
    data = zip_of(entries)
    assert len(data) < 2 * MiB  # small on the wire
    before = state_of(box)
    answer = restore(box, data)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["code"] == "bad-request" and expected in error["message"], error["message"]
    assert state_of(box) == before


def test_photos_are_decoded_with_a_pixel_limit_and_served_with_nosniff(box: Service) -> None:
    url = f"{box.url}/api/data/ravenloft/photo"
    for picture, why in ((png_header(30000, 30000), "900 megapixels"),
                         (b"\xff\xd8\xff\xe0<html><body>hello</body></html>", "not a JPEG or PNG"),
                         (real_png()[:60], "does not decode")):
        answer = requests.post(url, data=picture, timeout=TIMEOUT)
        assert answer.status_code == 400 and why in answer.json()["error"]["message"], answer.text
    assert requests.get(url, timeout=TIMEOUT).status_code == 404  # nothing was kept
    photo = real_jpeg()
    assert requests.post(url, data=photo, timeout=TIMEOUT).json()["ok"] is True
    served = requests.get(url, timeout=TIMEOUT)
    assert served.content == photo and served.headers["Content-Type"] == "image/jpeg"
    assert served.headers["X-Content-Type-Options"] == "nosniff"
    assert not [p for p in (box.state_dir / "owner").iterdir() if p.name.endswith(".tmp")]


def test_a_deeply_nested_http_body_gets_a_json_error(box: Service) -> None:
    deep = b"[" * 200_000 + b"]" * 200_000
    for path in ("/api/games/import", "/api/data/ravenloft"):
        answer = requests.post(box.url + path, data=deep, headers={"Content-Type": "application/json"},
                               timeout=TIMEOUT)
        assert answer.status_code == 400 and answer.headers["Content-Type"] == "application/json", answer.text
        assert answer.json()["ok"] is False


# -- the checks on their own -------------------------------------------------------------------------

def test_image_sizes_come_from_the_headers() -> None:
    assert uploads.image_size(real_png(60, 40), "x") == ("png", 60, 40)
    assert uploads.image_size(real_jpeg(64, 48), "x") == ("jpg", 64, 48)
    assert uploads.checked_image(real_jpeg(), "x") == "jpg" and uploads.checked_image(real_png(), "x") == "png"
    for width, height in ((4, 3), (1, 1), (3000, 2000)):  # tiny ones decoded whole, big ones at a quarter
        assert uploads.checked_image(real_png(width, height), "x") == "png"
        assert uploads.checked_image(real_jpeg(width, height), "x") == "jpg"
    with pytest.raises(uploads.UploadRefused, match="megapixels"):
        uploads.checked_image(png_header(6000, 5000), "the photo")
    with pytest.raises(uploads.UploadRefused, match="does not decode"):
        uploads.checked_image(png_header(60, 40), "the photo")  # a header, but no picture


def test_json_depth_is_counted_without_recursion() -> None:
    assert uploads.depth({"a": [1, {"b": []}]}) == 4 and uploads.depth(5) == 0
    assert uploads.load_json(b'{"a": [1]}', "x") == {"a": [1]}
    with pytest.raises(uploads.UploadRefused, match="nested more than 64"):
        uploads.load_json(b"[" * 70 + b"]" * 70, "x")


def test_a_zip_is_measured_from_its_directory() -> None:
    limits = uploads.ZipLimits(entries=3, entry_bytes=2 * MiB, total_bytes=3 * MiB)
    with uploads.open_zip(zip_of({"a": b"x", "b": MiB}), limits, "it") as archive:
        assert uploads.read_entry(archive, "a", "it") == b"x"
    for entries, why in (({"a": 3 * MiB}, "unpacks to 3.0 MiB, more than the 2.0 MiB"),
                         ({"a": 2 * MiB, "b": 2 * MiB}, "unpacks to 4.0 MiB, more than the 3.0 MiB"),
                         ({n: b"" for n in "abcd"}, "holds 4 files")):
        with pytest.raises(uploads.UploadRefused, match=why):
            uploads.open_zip(zip_of(entries), limits, "it")  # type: ignore[arg-type]


def test_a_zip_whose_directory_lies_is_never_unpacked_past_it() -> None:
    """The directory says 10 bytes; the data holds a megabyte: the reader stops at 10 and refuses."""
    data = bytearray(zip_of({"a": bytes(MiB)}))
    central = data.rfind(b"PK\x01\x02")
    size_at = central + 24  # the central directory's uncompressed size
    assert struct.unpack("<I", data[size_at:size_at + 4])[0] == MiB
    data[size_at:size_at + 4] = struct.pack("<I", 10)
    limits = uploads.ZipLimits(entries=3, entry_bytes=100, total_bytes=100)
    with uploads.open_zip(bytes(data), limits, "it") as archive:
        with pytest.raises(uploads.UploadRefused, match="cannot be unpacked"):
            uploads.read_entry(archive, "a", "it")
