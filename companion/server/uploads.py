"""What comes in as a file (a backup, a board photo, a dice calibration) is
measured before it is unpacked or decoded.

Why: a zip says in its directory how large each entry unpacks, and an image
says in its header how many pixels it has; a hostile file is small on the wire
and enormous once unpacked (a 509 KiB "photo" that unpacks to 512 MiB, a
30000x30000 PNG). So a zip is refused - whole, naming the entry - when it has
too many entries, an entry larger than its limit or more in all than the
limit, before a byte is unpacked (and Python's zip reader never unpacks an
entry past the size its directory gives: a lying entry fails its checksum).
An image is refused when its header says more pixels than the limit, then
decoded (a large one at a quarter of its size, which is cheap and still reads
the whole file) to prove it is the picture it says it is: an HTML page that starts with
a JPEG's first bytes is not a photo. Deep JSON nesting is refused with a
clear message instead of Python's recursion error.
"""

from __future__ import annotations

import io
import json
import struct
import zipfile
import zlib
from dataclasses import dataclass
from typing import Any

from companion.table import TableError

MiB = 1024 * 1024
#: The most pixels an uploaded board photo may have (a 24-megapixel camera's photo).
MAX_PHOTO_PIXELS = 25_000_000
#: The most pixels of one picture inside a dice calibration (tray crops: far smaller).
MAX_CALIBRATION_PIXELS = 16_000_000
#: Pictures up to this many pixels are decoded whole; larger ones at a quarter (as cheap, as sure).
SMALL_PICTURE = 4_000_000
#: JSON deeper than this is not a file of ours (game files are a few levels deep).
MAX_JSON_DEPTH = 64
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JPEG_START = b"\xff\xd8\xff"
IMAGE_TYPES = {"png": "image/png", "jpg": "image/jpeg"}
#: JPEG markers that start a frame (and so carry its size): SOF0-SOF15 but DHT, JPG and DAC.
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


class UploadRefused(TableError):
    """A file refused before anything of it was unpacked or kept (``bad-request``)."""

    def __init__(self, message: str) -> None:
        super().__init__("bad-request", message)


@dataclass(frozen=True)
class ZipLimits:
    """How much a zip may hold: entries, bytes of one entry unpacked, bytes in all."""

    entries: int
    entry_bytes: int
    total_bytes: int


#: What a dice calibration's zip may unpack to (tray pictures and face crops), on its own or in a backup.
DICE_LIMITS = ZipLimits(entries=1000, entry_bytes=8 * MiB, total_bytes=64 * MiB)


def open_zip(data: bytes, limits: ZipLimits, what: str) -> zipfile.ZipFile:
    """The zip, its directory checked against ``limits`` (``what`` names it in refusals)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError):
        raise UploadRefused(f"{what} is not a zip file") from None
    try:
        _check_directory(archive.infolist(), limits, what)
    except UploadRefused:
        archive.close()
        raise
    return archive


def _check_directory(entries: list[zipfile.ZipInfo], limits: ZipLimits, what: str) -> None:
    if len(entries) > limits.entries:
        raise UploadRefused(f"{what} holds {len(entries)} files, more than the {limits.entries} it may")
    names: set[str] = set()
    for entry in entries:
        name = entry.filename
        if name.startswith("/") or "\\" in name or ".." in name.split("/") or name in names:
            raise UploadRefused(f"{what} holds an unsafe or repeated name {name[:80]!r}")
        names.add(name)
        if entry.file_size > limits.entry_bytes:
            raise UploadRefused(f"{what}: {name[:80]} unpacks to {_size(entry.file_size)}, more than the "
                                f"{_size(limits.entry_bytes)} one file of it may")
    total = sum(entry.file_size for entry in entries)
    if total > limits.total_bytes:
        raise UploadRefused(f"{what} unpacks to {_size(total)}, more than the {_size(limits.total_bytes)} it may")


def read_entry(archive: zipfile.ZipFile, name: str, what: str) -> bytes:
    """One entry's bytes (its size was checked by ``open_zip``); a damaged entry is refused."""
    try:
        return archive.read(name)
    except KeyError:
        raise UploadRefused(f"{what}: {name} is missing") from None
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ValueError, OSError) as problem:
        raise UploadRefused(f"{what}: {name} cannot be unpacked ({problem})") from None


def check_zip_bytes(data: bytes, limits: ZipLimits, what: str, max_pixels: int = MAX_CALIBRATION_PIXELS) -> None:
    """A zip inside a file (the dice calibration of a backup): its directory, and the size of
    every picture in it read from its header, checked before anything unpacks it."""
    with open_zip(data, limits, what) as archive:
        for name in archive.namelist():
            if name.lower().endswith((".png", ".jpg", ".jpeg")):
                head = _head(archive, name, what)
                kind, width, height = image_size(head, f"{what}: {name}")
                _check_pixels(width, height, max_pixels, f"{what}: {name}")


def _head(archive: zipfile.ZipFile, name: str, what: str, size: int = 64 * 1024) -> bytes:
    try:
        with archive.open(name) as entry:
            return entry.read(size)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ValueError, OSError) as problem:
        raise UploadRefused(f"{what}: {name} cannot be unpacked ({problem})") from None


# -- images -------------------------------------------------------------------------------------------

def image_size(data: bytes, what: str) -> tuple[str, int, int]:
    """``(kind, width, height)`` from a PNG's or JPEG's header, without decoding it."""
    if data.startswith(PNG_SIGNATURE) and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return "png", int(width), int(height)
    if data.startswith(JPEG_START):
        found = _jpeg_size(data)
        if found is not None:
            return ("jpg", *found)
    raise UploadRefused(f"{what} is not a JPEG or PNG image")


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The frame size from the first start-of-frame marker (segments walked by their lengths)."""
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            at += 1 if marker == 0xFF else 2
            continue
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        if marker in _SOF and at + 9 <= len(data):
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return int(width), int(height)
        at += 2 + length
    return None


def _check_pixels(width: int, height: int, max_pixels: int, what: str) -> None:
    if width <= 0 or height <= 0:
        raise UploadRefused(f"{what} says it is {width}x{height} pixels: not a picture")
    if width * height > max_pixels:
        raise UploadRefused(f"{what} is {width}x{height} pixels ({width * height / 1e6:.0f} megapixels), more than "
                            f"the {max_pixels / 1e6:.0f} megapixels the box reads")


def checked_image(data: bytes, what: str, max_pixels: int = MAX_PHOTO_PIXELS) -> str:
    """The kind (``png`` or ``jpg``) of an image that is what it says: its header's size within
    ``max_pixels``, and the whole file decoding to a picture of that size."""
    kind, width, height = image_size(data, what)
    _check_pixels(width, height, max_pixels, what)
    scale = 4 if width * height > SMALL_PICTURE else 1
    decoded = _decoded_size(data, scale)
    wanted = (-(-width // scale), -(-height // scale))
    if decoded is None or abs(decoded[0] - wanted[0]) > 1 or abs(decoded[1] - wanted[1]) > 1:
        raise UploadRefused(f"{what} is not a whole {kind.upper()} image: it does not decode as one")
    return kind


def _decoded_size(data: bytes, scale: int) -> tuple[int, int] | None:
    """Width and height of the image decoded at 1/``scale`` of its size (None: it does not decode)."""
    import cv2
    import numpy as np

    flag = cv2.IMREAD_REDUCED_GRAYSCALE_4 if scale == 4 else cv2.IMREAD_GRAYSCALE
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flag)
    if image is None or image.size == 0:
        return None
    return int(image.shape[1]), int(image.shape[0])


# -- JSON ---------------------------------------------------------------------------------------------

def load_json(text: str | bytes, what: str) -> Any:
    """JSON from a file; ``UploadRefused`` for bad JSON or nesting deeper than ``MAX_JSON_DEPTH``."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise UploadRefused(f"{what} is nested too deeply to be a file of the box") from None
    except (ValueError, UnicodeDecodeError) as problem:
        raise UploadRefused(f"{what} is not JSON: {problem}") from None
    if depth(value) > MAX_JSON_DEPTH:
        raise UploadRefused(f"{what} is nested more than {MAX_JSON_DEPTH} levels deep: not a file of the box")
    return value


def depth(value: object, limit: int = MAX_JSON_DEPTH + 1) -> int:
    """How deeply lists and objects nest in ``value`` (counted up to ``limit``, without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            if level >= limit:
                return level
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level + 1) for child in children)
    return deepest


def _size(count: int) -> str:
    return f"{count / MiB:.1f} MiB" if count >= MiB else f"{count / 1024:.0f} KiB"
