"""Count the pips on a d6's top face: a second opinion beside the reference photos.

How: the die is cut to a fixed size (its diameter ``SIZE`` px), so every
length below is a share of the die and one setting fits a 25 px die and a
70 px one. Pixels are turned into one *contrast* channel, their Lab distance
from the die's body colour (the median of the face's middle, where pips are
the minority), so white pips on red, black pips on white and red pips on a
marbled blue die all stand out, whether darker or lighter than the face.
Pips are then found as blobs of the pip's size: a difference of Gaussians
(a pip-sized blur minus a wider one) peaks on each small round mark and stays
low on broad shading, side faces and glare gradients, and on the lines of a
marbled body. Peaks closer than a pip's spacing are one pip (non-maximum
suppression), and only peaks near the middle count (the top face; neighbours
and side faces lie outside).

The count is the number of peaks at least ``ratio`` as strong as the
strongest: a die's pips share one colour, so they are about equally strong,
while specks and marbling are weaker. The **confidence** is the gap between
the weakest counted peak and the strongest uncounted one (as a share of the
strongest): a clear count has a wide gap, a doubtful one (a faint extra mark,
a pip in shadow) a narrow one, and the reader refuses rather than guess.
Why a second opinion: the reference photos of one die do not look like
another die, and a glare spot can look like a face in a photo comparison;
when the photo and the count disagree, the die is asked for on the tablet.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from .imaging import Floats, Image, Mask, Point, cut, lab

SIZE = 64  # canonical die diameter in px
PIP_AREA = 0.022  # the pip size (share of SIZE**2) the default lengths below are for; others scale them
COUNTED_RIGHT = 0.5  # share of the face photos that must count right for the counter to be used (numerals: ~0)
GROWTHS = (1.0, 1.3, 1.6, 1.9)  # pip sizes tried at calibration, as lengths against PIP_AREA's
NEARLY = 0.95  # a smaller pip size counting this share of the best's photos right is preferred
MOST = 8  # peaks kept: one more than the largest count, so the gap of a six is measured too


@dataclass(frozen=True)
class PipCount:
    count: int
    confidence: float  # 0..1
    pips: tuple[Point, ...] = ()
    why: str = ""


@dataclass(frozen=True)
class PipSettings:
    """Shares of the die's diameter unless said otherwise (fitted on the train split of
    the public pip set, docs/dice.md). ``pip_area``: one pip as a share of the
    canonical die's area (from the owner's die; kept for the calibration file);
    ``sigma``: the pip-sized blur; ``reach``: peaks further than this from the die's
    centre are not on the top face; ``body``: the disk whose median colour is the
    body's; ``spacing``: two peaks closer than this are one pip; ``ratio``: a pip is
    at least this share of the strongest peak; ``min_contrast``: the least peak (Lab
    distance units) that is ink rather than noise; ``single_offset``/``max_offset``:
    how far a one's pip / the pips' centroid may lie from the die's centre;
    ``spacing_range``: the pip grid's spacing; ``max_misfit``: the most the pips
    may lie off their face's pattern, in grid spacings."""

    pip_area: float = PIP_AREA
    sigma: float = 0.037
    reach: float = 0.34
    body: float = 0.29
    spacing: float = 0.13
    ratio: float = 0.6
    min_contrast: float = 4.0
    single_offset: float = 0.11
    max_offset: float = 0.12
    spacing_range: tuple[float, float] = (0.085, 0.19)
    max_misfit: float = 0.3
    geometry_of: float | None = None  # the pip_area the lengths were scaled for (None: not yet)


def count_pips(image: Image, centre: Point, diameter: float, settings: PipSettings = PipSettings(),
               mask: Mask | None = None, origin: tuple[int, int] = (0, 0)) -> PipCount:
    """Count the pips of the die at ``centre`` (``diameter`` px across).

    ``mask`` and ``origin`` (the die's found region) are accepted for callers
    that have them but not needed: the top face is the disk around the centre.
    """
    del mask, origin
    settings = scaled(settings)
    strengths, places = pip_peaks(image, centre, diameter, settings)
    return judge(strengths, places, settings)


def scaled(settings: PipSettings) -> PipSettings:
    """The geometry for the die's own pips: lengths grow with the square root of ``pip_area``
    against ``PIP_AREA`` (dice with big, widely spaced pips against small, close ones)."""
    if settings.geometry_of is not None:
        return settings
    grow = float(np.sqrt(settings.pip_area / PIP_AREA))
    low, high = settings.spacing_range
    return replace(settings, sigma=settings.sigma * grow, reach=min(settings.reach * grow, 0.48),
                   spacing=settings.spacing * grow, single_offset=settings.single_offset * grow,
                   max_offset=settings.max_offset * grow, spacing_range=(low * grow, high * grow),
                   geometry_of=settings.pip_area)


def pip_peaks(image: Image, centre: Point, diameter: float,
              settings: PipSettings = PipSettings()) -> tuple[Floats, Floats]:
    """The strongest pip-like peaks on the top face, strongest first: (strengths, places).

    Places are in shares of the diameter from the die's centre.
    """
    side = SIZE + 2 * int(round(SIZE * 0.2))  # a margin, so the blurs see past the face
    face = lab(cut(image, centre, diameter * side / SIZE, side))
    radius = _radius(side)
    contrast = _contrast(face, radius <= settings.body)
    response = _blobs(contrast, settings.sigma * SIZE)
    return _peaks(response, radius <= settings.reach, settings.spacing, side)


def _radius(side: int) -> Floats:
    """Each pixel's distance from the middle, in die diameters."""
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32)
    middle = (side - 1) / 2.0
    return np.asarray(np.hypot(xx - middle, yy - middle) / SIZE, dtype=np.float32)


def _contrast(face_lab: Floats, middle: Mask) -> Floats:
    """Lab distance from the body colour (lightness weighed 0.6: shading and glare change it most)."""
    body = np.median(face_lab[middle], axis=0)
    diff = (face_lab - body) * np.array([0.6, 1.0, 1.0], dtype=np.float32)
    return np.asarray(np.sqrt(np.sum(diff * diff, axis=-1)), dtype=np.float32)


def _blobs(contrast: Floats, sigma: float) -> Floats:
    """Difference of Gaussians: high on pip-sized marks, low on broad ones and on fine lines."""
    narrow = cv2.GaussianBlur(contrast, (0, 0), sigma)
    wide = cv2.GaussianBlur(contrast, (0, 0), sigma * 2.0)
    return np.asarray(narrow - wide, dtype=np.float32)


def _peaks(response: Floats, face: Mask, spacing: float, side: int) -> tuple[Floats, Floats]:
    """Local maxima of the response on the face, at least ``spacing`` apart, strongest first."""
    width = int(SIZE * spacing) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
    top = cv2.dilate(response, kernel)
    ys, xs = np.nonzero((response >= top) & face & (response > 0))
    strengths = response[ys, xs]
    order = np.argsort(-strengths)[:MOST]
    middle = (side - 1) / 2.0
    places = np.stack([xs[order] - middle, ys[order] - middle], axis=1).astype(np.float32) / SIZE
    return np.asarray(strengths[order], dtype=np.float32), np.asarray(places, dtype=np.float32)


def judge(strengths: Floats, places: Floats, settings: PipSettings = PipSettings()) -> PipCount:
    """The count (peaks near the strongest) and how sure it is (the gap to the next peak),
    nought when the counted peaks do not lie as a die's pips do."""
    if len(strengths) == 0 or float(strengths[0]) < settings.min_contrast:
        return PipCount(0, 0.0, why="no pips on the face")
    strongest = float(strengths[0])
    count = int(np.sum(strengths >= strongest * settings.ratio))
    pips = tuple((float(x), float(y)) for x, y in places[:count])
    if count > 6:
        return PipCount(count, 0.0, pips, f"{count} pip-like marks")
    misfit = layout_misfit(places[:count], settings)
    if misfit:
        return PipCount(count, 0.0, pips, misfit)
    weakest = float(strengths[count - 1])
    next_one = float(strengths[count]) if count < len(strengths) else 0.0
    confidence = float(np.clip((weakest - next_one) / strongest, 0.0, 1.0))
    if count == 1:  # a lone mark is a one only in the middle: less sure the further off it lies
        confidence *= 1.0 - float(np.hypot(places[0][0], places[0][1])) / settings.single_offset
    return PipCount(count, confidence, pips, "" if confidence > 0 else "pips and marks equally strong")


def layout_misfit(places: Floats, settings: PipSettings = PipSettings()) -> str:
    """Why these pips are not a d6 face ("" if they are one).

    Every face 1-6 is a set of points of a 3x3 grid, centred on the face; the
    counted peaks are compared with that face's pattern in any turn, scaled to
    their own spread. A six read as three (one column) is too tightly spaced,
    a four with a speck for a fifth pip is off the pattern, and a lone glare
    spot off the middle is no one.
    """
    count = len(places)
    centroid = places.mean(axis=0)
    offset = float(np.hypot(centroid[0], centroid[1]))
    if count == 1:
        return "" if offset <= settings.single_offset else "a lone mark off the middle"
    if offset > settings.max_offset:
        return "the marks are not centred on the face"
    misfit, spacing = _pattern_fit(places - centroid)
    if not settings.spacing_range[0] <= spacing <= settings.spacing_range[1]:
        return "the marks are not spaced like pips"
    return "" if misfit <= settings.max_misfit else "the marks are not a pip pattern"


def _pattern_fit(centred: Floats) -> tuple[float, float]:
    """(misfit, spacing): how far the points lie from the face's grid pattern in its best turn
    (mean nearest distance both ways, in grid spacings), and the grid spacing (die diameters)."""
    patterns = _TURNED[len(centred)]
    spacing = float(np.sqrt(np.mean(np.sum(centred ** 2, axis=1)))) / _PATTERN_RMS[len(centred)]
    gaps = np.linalg.norm(centred[None, :, None, :] - spacing * patterns[:, None, :, :], axis=-1)
    misfit = (gaps.min(axis=2).mean(axis=1) + gaps.min(axis=1).mean(axis=1)) / 2.0 / max(spacing, 1e-6)
    return float(misfit.min()), spacing


def _turned_patterns() -> dict[int, Floats]:
    """Each face's pip pattern (grid units) turned in 5 degree steps over half a turn (all are symmetric)."""
    turned = {}
    for count, points in PATTERNS.items():
        grid = np.asarray(points, dtype=np.float32)
        angles = np.deg2rad(np.arange(0.0, 180.0, 5.0))
        turned[count] = np.stack([grid @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]],
                                                  dtype=np.float32) for a in angles]).astype(np.float32)
    return turned


#: Where the pips of each face lie on the 3x3 grid (-1, 0, 1 each way).
PATTERNS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)), 5: ((-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1))}
_TURNED = _turned_patterns()
_PATTERN_RMS = {count: float(np.sqrt(np.mean(np.sum(np.asarray(points, dtype=np.float32) ** 2, axis=1))))
                for count, points in PATTERNS.items()}


def pip_area_of(faces: list[tuple[Image, Point, float, Mask | None, int]]) -> float | None:
    """The owner's pip size (which scales the counter's geometry), or None if the face photos
    mostly do not count right at any size.

    Why "count right": a die whose own face photos the counter misreads (a
    logo for the one, numerals, pips too faint) would only add wrong second
    opinions. A few misses are allowed: photos of many dice (the public set)
    hold some the counter cannot read, and those are refused one by one.
    """
    if not faces:
        return None
    right: dict[float, int] = {}
    for grow in GROWTHS:
        settings = PipSettings(pip_area=PIP_AREA * grow * grow)
        right[grow] = sum(count_pips(image, centre, diameter, settings).count == value
                          for image, centre, diameter, _, value in faces)
    best_right = max(right.values())
    # the smallest size that counts nearly as well: it looks less far from the middle, so it
    # meets fewer side faces and neighbours (on held-out train photos of the public set it
    # refused half as often as a size counting two photos more right)
    best = PIP_AREA * min(g for g in GROWTHS if right[g] >= NEARLY * best_right) ** 2
    return best if best_right >= COUNTED_RIGHT * len(faces) else None


