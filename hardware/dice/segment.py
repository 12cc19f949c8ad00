"""Find each die in the top-down tray picture.

How: the picture is compared with the empty-tray reference (a colour
distance, so a red die on a black felt and a white die on a grey one both
stand out), the changed pixels are cleaned and their holes filled (a die's
dark pips may match the felt), and each connected region becomes a die.
Dice that touch make one region; knowing the size of one die (from the
calibration) the region is split into as many dice as its area holds, by
k-means on its pixels, which also works when two squares lie edge to edge
(where a distance-transform watershed sees a single ridge, not two peaks).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from .imaging import LAB_WEIGHTS, Image, Mask, Point, equivalent_diameter, median_colour

WEIGHTS = LAB_WEIGHTS.reshape(1, 3)
SPLIT_AREA = 1.45  # a region this many times one die's area holds more than one die
MAX_SPLIT = 8
PAD = 3  # px around a region given to the watershed
RIM = 2  # px from a tray outline (less the margin) in which a die touches it
KMEANS_STEP = 3
COLOUR_WEIGHT = 0.6  # Lab a/b units per pixel when splitting touching dice by place and colour


@dataclass(frozen=True)
class FindSettings:
    """``threshold``: Lab distance from the empty tray that counts as "something
    here"; ``die_areas``: the area in px of one die of each calibrated kind;
    ``margin``: px along the tray walls to ignore; ``max_coverage``: above this
    share of the tray changed, something other than dice (a hand) is in the way."""

    threshold: float = 40.0
    die_areas: tuple[float, ...] = ()
    die_fills: tuple[float, ...] = ()  # each kind's fill (area over its min-area rectangle), as die_areas
    margin: int = 4
    max_coverage: float = 0.35
    blur: int = 3

    @property
    def min_area(self) -> float:
        return 0.3 * min(self.die_areas) if self.die_areas else 60.0


@dataclass(frozen=True)
class Blob:
    """One die found in the tray (tray-picture pixels)."""

    centre: Point
    diameter: float
    area: float
    box: tuple[int, int, int, int]
    fill: float  # area / its min-area rectangle: about 0.95 for a cube, less for a d20
    angle: float
    colour: tuple[float, float, float]  # median Lab of its body
    mask: Mask = field(compare=False, repr=False)  # box-sized
    aspect: float = 1.0  # its min-area rectangle's longer side over its shorter: 1 for a square


@dataclass(frozen=True)
class Found:
    blobs: tuple[Blob, ...]
    coverage: float
    problem: str = ""  # set when the tray cannot be read at all (a hand in it)


class TrayFinder:
    """Finds dice against one empty-tray reference, prepared once (its blurred Lab)."""

    def __init__(self, background: Image, settings: FindSettings, inside: Mask | None = None) -> None:
        """``inside``: the tray's own pixels (``TrayGeometry.inside``; None: the whole view), so a
        table or a cloth around a tray of any shape is never taken for a die.

        Large dice are found in a smaller copy of the view (``step``: shrunk by a whole factor so the
        smallest calibrated die is still FIND_DIAMETER px or more across there), then read in the
        view itself: finding costs by the pixel, reading by the die."""
        self.settings = settings
        self.full_shape = background.shape
        self.step = find_step(settings.die_areas)
        self.small = _at_step(settings, self.step)
        shrunk_inside = None if inside is None else _shrunk(inside.astype(np.uint8), self.step).astype(np.bool_)
        background = _shrunk(background, self.step)
        self.shape = background.shape
        self.background_lab = lab_bytes(_blur(background, settings.blur))
        self.inside = _within(shrunk_inside, self.small.margin, background.shape[:2])
        self.tray_share = float(self.inside.mean()) if self.inside is not None else 1.0
        self._keep = None if self.inside is None else self.inside.astype(np.uint8)
        full_inside = _within(inside, settings.margin, self.full_shape[:2])
        self.rim = None if full_inside is None else _rim_band(full_inside.astype(np.uint8), RIM)

    def changed(self, image: Image) -> tuple[Mask, Image]:
        """Pixels that differ from the empty tray (cleaned, holes filled), and the picture's Lab
        (of the view shrunk by ``step``)."""
        if image.shape != self.shape:
            raise ValueError(f"tray picture {image.shape} and empty-tray reference {self.shape} differ in size")
        image_lab = lab_bytes(_blur(image, self.settings.blur))
        background = relit(self.background_lab, image_lab, self.inside)
        mask = np.asarray(lab_distance(image_lab, background) > self.small.threshold, dtype=np.uint8)
        if self._keep is not None:
            mask &= self._keep
        mask = _clean(mask)
        _clear_margin(mask, self.small.margin)
        return fill_holes(mask).astype(np.bool_), image_lab

    def find(self, image: Image) -> Found:
        """Every die in ``image`` (the tray view), in the view's pixels."""
        if image.shape != self.full_shape:
            raise ValueError(f"tray picture {image.shape} and empty-tray reference {self.full_shape} differ in size")
        image = _shrunk(image, self.step)
        mask, image_lab = self.changed(image)
        coverage = float(mask.mean()) / self.tray_share
        if coverage > self.small.max_coverage:
            return Found((), coverage, "something large is in the tray (a hand?)")
        regions = _regions(mask, self.small.min_area)
        parts = [part for region in regions for part in _split(region, self.small, image, image_lab)]
        described = [_enlarged(describe(part, image_lab), self.step) for part in parts]
        return Found(tuple(sorted(described, key=lambda b: (b.centre[1], b.centre[0]))), coverage)


FIND_DIAMETER = 40.0  # px: a die at least this big where it is found is found as well as in the whole view


def find_step(die_areas: tuple[float, ...]) -> int:
    """The whole factor a view is shrunk by to find its dice (1: not shrunk; no dice known yet: 1)."""
    if not die_areas:
        return 1
    smallest = 2.0 * math.sqrt(min(die_areas) / math.pi)
    return max(1, int(smallest // FIND_DIAMETER))


def _at_step(settings: FindSettings, step: int) -> FindSettings:
    """The settings in the pixels of a view shrunk ``step`` times (areas by its square)."""
    if step == 1:
        return settings
    return replace(settings, die_areas=tuple(a / step ** 2 for a in settings.die_areas),
                   margin=max(2, round(settings.margin / step)))


def _shrunk(image: Image, step: int) -> Image:
    """``image`` shrunk ``step`` times (its last rows and columns that do not fill a step dropped:
    a whole factor is OpenCV's fast averaging)."""
    if step == 1:
        return image
    height, width = image.shape[0] // step, image.shape[1] // step
    cut_to = np.ascontiguousarray(image[:height * step, :width * step])
    return np.asarray(cv2.resize(cut_to, (width, height), interpolation=cv2.INTER_AREA), dtype=np.uint8)


def _enlarged(blob: "Blob", step: int) -> "Blob":
    """A die found in the shrunk view, in the view's own pixels (its mask repeated)."""
    if step == 1:
        return blob
    x, y, w, h = blob.box
    mask = np.repeat(np.repeat(blob.mask, step, axis=0), step, axis=1)
    centre = ((blob.centre[0] + 0.5) * step - 0.5, (blob.centre[1] + 0.5) * step - 0.5)
    return replace(blob, centre=centre, diameter=blob.diameter * step, area=blob.area * step * step,
                   box=(x * step, y * step, w * step, h * step), mask=mask)


def relit(background_lab: Image, image_lab: Image, inside: Mask | None = None) -> Image:
    """The empty tray shifted to the picture's light: a lamp switched on or a cloud passing
    changes the whole tray, not just where the dice are, so the typical difference (median
    over a sparse grid; dice cover a small part of the tray) is taken out first. Only the
    tray's own pixels (``inside``) count: a cloth around it changes with every shot."""
    step = 7
    sample = image_lab[::step, ::step].astype(np.int16) - background_lab[::step, ::step].astype(np.int16)
    if inside is not None and inside[::step, ::step].any():
        sample = sample[inside[::step, ::step]]
    shift = np.median(sample.reshape(-1, 3), axis=0)
    if not np.any(np.abs(shift) >= 2):
        return background_lab
    levels = np.arange(256, dtype=np.int16)[:, None] + shift.astype(np.int16)[None, :]
    table = np.clip(levels, 0, 255).astype(np.uint8).reshape(1, 256, 3)
    return np.asarray(cv2.LUT(background_lab, table), dtype=np.uint8)


def lab_bytes(image: Image) -> Image:
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2LAB), dtype=np.uint8)


def lab_distance(a: Image, b: Image) -> Image:
    """Weighted city-block Lab distance, saturating at 255 (fast: two OpenCV calls)."""
    difference = cv2.absdiff(a, b)
    return np.asarray(cv2.transform(difference, WEIGHTS), dtype=np.uint8).reshape(a.shape[:2])


def _blur(image: Image, size: int) -> Image:
    if size <= 1:
        return image
    return np.asarray(cv2.GaussianBlur(image, (size | 1, size | 1), 0), dtype=np.uint8)


def _clean(mask: Image) -> Image:
    kernel = np.ones((3, 3), np.uint8)
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    return np.asarray(cv2.morphologyEx(opened, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)), dtype=np.uint8)


def _within(inside: Mask | None, margin: int, shape: tuple[int, ...]) -> Mask | None:
    """The tray's pixels less ``margin`` px along its rim (where its wall shows), or None."""
    if inside is None:
        return None
    if inside.shape != shape:
        raise ValueError(f"tray outline {inside.shape} and empty-tray reference {shape} differ in size")
    kernel = np.ones((2 * margin + 1, 2 * margin + 1), np.uint8)
    return np.asarray(cv2.erode(inside.astype(np.uint8), kernel), np.bool_)


def _rim_band(keep: Image, width: int) -> Mask:
    """The tray's pixels within ``width`` px of its outline (less its margin): a die there touches the rim."""
    kernel = np.ones((2 * width + 1, 2 * width + 1), np.uint8)
    return np.asarray(keep.astype(np.bool_) & ~cv2.erode(keep, kernel).astype(np.bool_), np.bool_)


def touches_rim(blob: "Blob", rim: Mask) -> bool:
    """Whether a found region reaches the band along a tray outline's rim (``TrayFinder.rim``)."""
    x, y, w, h = blob.box
    return bool((blob.mask & rim[y:y + h, x:x + w]).any())


def _clear_margin(mask: Image, margin: int) -> None:
    if margin > 0:
        mask[:margin, :] = 0
        mask[-margin:, :] = 0
        mask[:, :margin] = 0
        mask[:, -margin:] = 0


def fill_holes(mask: Image) -> Image:
    """Fill regions not reachable from the picture's border (pips, numbers, glare)."""
    padded = np.pad((mask > 0).astype(np.uint8), 1)
    flood = padded.copy()
    cv2.floodFill(flood, None, (0, 0), 1)
    holes = flood == 0
    padded[holes] = 1
    return np.asarray(padded[1:-1, 1:-1], dtype=np.uint8)


def find_dice(image: Image, background: Image, settings: FindSettings) -> Found:
    """Every die in ``image`` (tray view), compared with ``background`` (the same view, empty)."""
    return TrayFinder(background, settings).find(image)


def find_single(image: Image, settings: FindSettings | None = None) -> Blob | None:
    """The one die in a close crop with no empty-tray picture (calibration photos, dataset crops).

    The background colour is taken from the crop's border; the die is the
    changed region nearest the middle.
    """
    ring = _border_pixels(image)
    background = np.empty_like(image)
    background[:] = np.median(ring, axis=0).astype(np.uint8)
    threshold = _otsu_distance(image, background)
    chosen = FindSettings(threshold=threshold, margin=1, max_coverage=0.95) if settings is None else settings
    found = find_dice(image, background, chosen)
    return _nearest_middle(found.blobs, image.shape[1], image.shape[0])


def _border_pixels(image: Image) -> Image:
    edge = max(2, min(image.shape[:2]) // 20)
    parts = [image[:edge].reshape(-1, 3), image[-edge:].reshape(-1, 3),
             image[:, :edge].reshape(-1, 3), image[:, -edge:].reshape(-1, 3)]
    return np.asarray(np.concatenate(parts), dtype=np.uint8)


def _otsu_distance(image: Image, background: Image) -> float:
    """A distance threshold between "border colour" and "die" by Otsu, kept in a sane range."""
    distance = lab_distance(lab_bytes(image), lab_bytes(background))
    level, _ = cv2.threshold(distance, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return float(np.clip(level, 15.0, 80.0))


def _nearest_middle(blobs: tuple[Blob, ...], width: int, height: int) -> Blob | None:
    if not blobs:
        return None
    return min(blobs, key=lambda b: (b.centre[0] - width / 2) ** 2 + (b.centre[1] - height / 2) ** 2 - b.area)


@dataclass(frozen=True)
class Region:
    """A changed region: its mask over its bounding box, and where that box is."""

    mask: Mask
    x: int
    y: int


def _regions(mask: Mask, min_area: float) -> list[Region]:
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    regions = []
    for i in np.nonzero(stats[1:int(count), cv2.CC_STAT_AREA] >= min_area)[0] + 1:  # specks of noise skipped at once
        x, y, w, h = (int(v) for v in stats[i, :4])
        regions.append(Region(np.asarray(labels[y:y + h, x:x + w] == i, dtype=np.bool_), x, y))
    return regions


def _split(region: Region, settings: FindSettings, image: Image, image_lab: Image) -> list[Region]:
    """One region into as many dice as its area holds.

    k-means on the region's pixels gives each die's rough share (right even for
    two squares edge to edge, where a distance-transform watershed sees one
    ridge, not two peaks); k-means on place *and colour* separates a red d20
    from an orange d6 lying against it; a watershed on the picture, seeded
    with the shrunken shares, moves a border onto the visible edge between two
    dice. A die's own marks are edges too and colours may match, so the split
    kept is the one whose least die-like part is nearest a calibrated kind.
    """
    count = _dice_in(float(region.mask.sum()), settings.die_areas)
    if count <= 1:
        return [region]
    ys, xs = np.nonzero(region.mask)
    places = np.column_stack([xs, ys]).astype(np.float32)
    colours = image_lab[region.y + ys, region.x + xs, 1:].astype(np.float32) * COLOUR_WEIGHT
    by_place = _kmeans_owners(region, ys, xs, places, count)
    splits = [_parts(region, by_place, count),
              _parts(region, _kmeans_owners(region, ys, xs, np.hstack([places, colours]), count), count),
              _parts(region, _watershed(region, by_place, count, image), count)]
    return min(splits, key=lambda parts: _misfit(parts, settings))


def _kmeans_owners(region: Region, ys: NDArray[np.intp], xs: NDArray[np.intp], features: np.ndarray,
                   count: int) -> NDArray[np.int32]:
    """Owner numbers 1..count per pixel of the region's box (0 outside), by k-means on ``features``."""
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.2)
    data = np.ascontiguousarray(features, dtype=np.float32)
    sample = data[::KMEANS_STEP]  # every few pixels fix the centres; then every pixel goes to the nearest
    start = np.zeros((len(sample), 1), np.int32)
    _, _, centres = cv2.kmeans(sample, count, start, criteria, 2, cv2.KMEANS_PP_CENTERS)
    nearest = np.argmin(((data[:, None, :] - np.asarray(centres, np.float32)[None]) ** 2).sum(axis=2), axis=1)
    owners = np.zeros(region.mask.shape, np.int32)
    owners[ys, xs] = nearest.astype(np.int32) + 1
    return owners


def _parts(region: Region, owners: NDArray[np.int32], count: int) -> list[Region]:
    found = [np.nonzero((owners == k + 1) & region.mask) for k in range(count)]
    return [_part(region, ys, xs) for ys, xs in found if len(ys) > 0]


def _misfit(parts: list[Region], settings: FindSettings) -> float:
    """How far the least die-like part is from every calibrated kind (size and fill)."""
    worst = 0.0
    for part in parts:
        area = float(part.mask.sum())
        _, (w, h), _ = cv2.minAreaRect(_outline(part.mask))
        fill = area / max(w * h, 1.0)
        fits = [abs(area - a) / (0.25 * a) + abs(fill - f) / 0.07 for a, f in _shapes(settings)]
        worst = max(worst, min(fits) if fits else 1.0 - fill)
    return worst


def _shapes(settings: FindSettings) -> list[tuple[float, float]]:
    fills = settings.die_fills if len(settings.die_fills) == len(settings.die_areas) else (0.95,) * len(settings.die_areas)
    return list(zip(settings.die_areas, fills))


def _watershed(region: Region, shares: NDArray[np.int32], count: int, image: Image) -> NDArray[np.int32]:
    """Grow each die's core (its share, shrunk) over the picture's edges; returns owner numbers."""
    height, width = region.mask.shape
    markers = np.zeros((height + 2 * PAD, width + 2 * PAD), np.int32)
    core = max(3, int(0.35 * math.sqrt(region.mask.sum() / count)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (core | 1, core | 1))
    for k in range(1, count + 1):
        shrunk = cv2.erode((shares == k).astype(np.uint8), kernel)
        markers[PAD:PAD + height, PAD:PAD + width][shrunk > 0] = k
    outside = np.pad(~region.mask, PAD, constant_values=True)
    markers[cv2.erode(outside.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0] = count + 1
    window = _padded_window(image, region, PAD)
    cv2.watershed(window, markers)
    return np.asarray(markers[PAD:PAD + height, PAD:PAD + width], dtype=np.int32)


def _padded_window(image: Image, region: Region, pad: int) -> Image:
    """The picture under a region's box, ``pad`` px more on each side (edge pixels repeated)."""
    height, width = region.mask.shape
    y0, x0 = region.y - pad, region.x - pad
    ys = np.clip(np.arange(y0, y0 + height + 2 * pad), 0, image.shape[0] - 1)
    xs = np.clip(np.arange(x0, x0 + width + 2 * pad), 0, image.shape[1] - 1)
    return np.ascontiguousarray(image[np.ix_(ys, xs)])


def _dice_in(area: float, die_areas: tuple[float, ...]) -> int:
    if not die_areas:
        return 1
    one = float(np.median(die_areas))
    if area < SPLIT_AREA * max(die_areas):
        return 1
    return int(min(MAX_SPLIT, max(2, round(area / one))))


def _part(region: Region, ys: NDArray[np.intp], xs: NDArray[np.intp]) -> Region:
    """The pixels of one die cut from a region, in a box of their own."""
    y0, x0 = int(ys.min()), int(xs.min())
    mask = np.zeros((int(ys.max()) - y0 + 1, int(xs.max()) - x0 + 1), dtype=np.bool_)
    mask[ys - y0, xs - x0] = True
    return Region(mask, region.x + x0, region.y + y0)


def describe(region: Region, image_lab: Image) -> Blob:
    """Size, shape, place and colour of one die's region."""
    local, x0, y0 = region.mask, region.x, region.y
    h, w = local.shape
    area = float(local.sum())
    _, (rw, rh), angle = cv2.minAreaRect(_outline(local))
    centre = _inner_centre(local, (x0, y0))
    colour = median_colour(image_lab[y0:y0 + h, x0:x0 + w].astype(np.float32), _body(local))
    return Blob(centre, equivalent_diameter(area), area, (x0, y0, w, h), area / max(rw * rh, 1.0), float(angle),
                (float(colour[0]), float(colour[1]), float(colour[2])), local, max(rw, rh) / max(min(rw, rh), 1.0))


def _outline(mask: Mask) -> np.ndarray:
    """The points around a region (its outer contours): a min-area rectangle needs no more."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return np.asarray(np.concatenate([c.reshape(-1, 2) for c in contours]), dtype=np.float32)


def _inner_centre(local: Mask, origin: tuple[int, int]) -> Point:
    """The region's centroid: with the top face facing the camera it is the face's middle."""
    moments = cv2.moments(local.astype(np.uint8), True)
    if moments["m00"] <= 0:
        return float(origin[0]), float(origin[1])
    return origin[0] + moments["m10"] / moments["m00"], origin[1] + moments["m01"] / moments["m00"]


def _body(local: Mask) -> Mask:
    """The region shrunk a little: its colour without the shadowed rim."""
    eroded = cv2.erode(local.astype(np.uint8), np.ones((5, 5), np.uint8))
    return np.asarray(eroded > 0, dtype=np.bool_) if eroded.any() else local


def middle_of(crop: Image, margin: float = 0.15) -> Blob:
    """A stand-in region for a die filling a crop cut with ``margin`` around its box."""
    height, width = crop.shape[:2]
    side = min(width, height) / (1.0 + 2.0 * margin)
    mask = np.ones((int(side), int(side)), dtype=np.bool_)
    box = (int((width - side) / 2), int((height - side) / 2), int(side), int(side))
    return Blob(((width - 1) / 2.0, (height - 1) / 2.0), side * 1.05, side * side, box, 1.0, 0.0,
                (0.0, 128.0, 128.0), mask)
