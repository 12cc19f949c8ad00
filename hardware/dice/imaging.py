"""Small image helpers shared by the dice reader and its calibration.

Why a module of its own: every step (finding dice, telling kinds apart,
reading faces, calibrating) must cut and colour-convert dice the same way, or
a reference taken at calibration would not line up with a die read later.
All functions return plain numpy arrays of a fixed dtype whichever OpenCV
build is installed (pip wheels with type stubs, or Debian's without).
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]  # BGR, or one channel
Floats = NDArray[np.float32]
Mask = NDArray[np.bool_]
Point = tuple[float, float]

#: Lab weights for colour distances: lightness counts less, since light changes
#: across the tray far more than hue does.
LAB_WEIGHTS = np.array([0.6, 1.0, 1.0], dtype=np.float32)


def lab(image: Image) -> Floats:
    """Lab as float32 (OpenCV's 8-bit scale: L, a, b all 0..255, a/b centred at 128)."""
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2LAB), dtype=np.float32)


def grey(image: Image) -> Image:
    if image.ndim == 2:
        return image
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)


def colour_distance(a: Floats, b: Floats) -> Floats:
    """Weighted Lab distance per pixel between two Lab images (or an image and one colour)."""
    diff = (a - b) * LAB_WEIGHTS
    return np.asarray(np.sqrt(np.sum(diff * diff, axis=-1)), dtype=np.float32)


def cut(image: Image, centre: Point, diameter: float, size: int, angle: float = 0.0) -> Image:
    """The square around a die, scaled so the die is ``size`` px across, turned by ``angle`` degrees.

    Why one function: references and reads must share the exact geometry;
    the border is replicated so a die at the tray's edge still gives a full square.
    """
    scale = size / max(diameter, 1.0)
    matrix = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle, scale)
    matrix[0, 2] += size / 2.0 - centre[0]
    matrix[1, 2] += size / 2.0 - centre[1]
    flags = cv2.INTER_AREA if scale < 0.8 else cv2.INTER_LINEAR
    return np.asarray(cv2.warpAffine(image, matrix, (size, size), flags=flags, borderMode=cv2.BORDER_REPLICATE),
                      dtype=np.uint8)


def crop_around(image: Image, centre: Point, diameter: float, scale: float = 1.4) -> Image:
    """A native-resolution square crop centred on a die (what is saved and shown on the tablet)."""
    side = max(8, int(round(diameter * scale)))
    return cut(image, centre, side, side)


def disk(size: int, radius: float) -> Mask:
    """Pixels within ``radius`` (in px) of the centre of a ``size`` square."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    middle = (size - 1) / 2.0
    return np.asarray((xx - middle) ** 2 + (yy - middle) ** 2 <= radius * radius, dtype=np.bool_)


def equivalent_diameter(area: float) -> float:
    """The diameter of a disk with this area: a die's size whatever its shape or turn."""
    return 2.0 * math.sqrt(max(area, 0.0) / math.pi)


def median_colour(image_lab: Floats, mask: Mask) -> Floats:
    """The median Lab colour under ``mask`` (the body of a die: numbers and pips are the minority)."""
    if not mask.any():
        return np.asarray(np.median(image_lab.reshape(-1, 3), axis=0), dtype=np.float32)
    return np.asarray(np.median(image_lab[mask], axis=0), dtype=np.float32)


def encode_png(image: Image) -> bytes:
    ok, data = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("the image could not be encoded as PNG")
    return bytes(np.asarray(data, dtype=np.uint8).tobytes())


def decode_image(data: bytes) -> Image | None:
    """An image from PNG/JPEG bytes, or None if they are not one."""
    array = np.frombuffer(data, dtype=np.uint8)
    image = cv2.imdecode(array, cv2.IMREAD_COLOR)
    return None if image is None else np.asarray(image, dtype=np.uint8)


def read_image(path: str) -> Image | None:
    """Read an image file as BGR (None if missing or not an image); paths with any characters work."""
    try:
        with open(path, "rb") as handle:
            return decode_image(handle.read())
    except OSError:
        return None
