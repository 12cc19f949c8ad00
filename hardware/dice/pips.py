"""Count the pips on a d6's top face: a second opinion beside the reference photos.

How: the die is cut to a fixed size with its mask (from finding the dice),
the body colour is its median, and pixels far from it inside the die (but
away from its rim, where shading and side faces lie) are "ink". Each ink
region the size of one pip counts one; a region the size of two touching pips
counts two (a six's pips often merge). The pips of every face 1 to 6 sit
symmetrically about the face's middle, so their centroid must be near the
die's centre; if it is not, or the regions are not pip-sized, the count is
unsure. Why a second opinion: a glare spot or a speck can look like a face in
a photo comparison, but it rarely makes a symmetric set of equal round pips;
when the two readers disagree the die is asked for on the tablet.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .imaging import Floats, Image, Mask, Point, colour_distance, cut, lab

SIZE = 64  # canonical die diameter in px
PIP_AREA = 0.022  # one pip's area as a share of SIZE**2 (pip about 0.17 of the die across)


@dataclass(frozen=True)
class PipCount:
    count: int
    confidence: float  # 0..1
    pips: tuple[Point, ...] = ()
    why: str = ""


@dataclass(frozen=True)
class PipSettings:
    """``pip_area``: one pip as a share of the canonical die's area (calibrated
    from the owner's die); ``rim``: share of the die's diameter ignored along
    its edge; ``min_contrast``: the least ink-body colour distance that counts."""

    pip_area: float = PIP_AREA
    rim: float = 0.12
    min_contrast: float = 18.0


def count_pips(image: Image, centre: Point, diameter: float, settings: PipSettings = PipSettings(),
               mask: Mask | None = None, origin: tuple[int, int] = (0, 0)) -> PipCount:
    """Count the pips of the die at ``centre``; ``mask`` is its region, whose top-left is at ``origin``."""
    face = cut(image, centre, diameter, SIZE)
    inside = _inside(mask, (centre[0] - origin[0], centre[1] - origin[1]), diameter, settings.rim)
    ink = _ink(lab(face), inside, settings.min_contrast)
    if ink is None:
        return PipCount(0, 0.0, why="no ink on the face")
    return _count(ink, inside, settings)


def _inside(mask: Mask | None, centre: Point, diameter: float, rim: float) -> Mask:
    """The die's face without its rim, in canonical pixels."""
    if mask is None:
        region = np.zeros((SIZE, SIZE), np.uint8)
        cv2.circle(region, (SIZE // 2, SIZE // 2), int(SIZE * 0.5), 1, -1)
    else:
        region = np.asarray(cut(mask.astype(np.uint8) * 255, centre, diameter, SIZE) > 127, dtype=np.uint8)
    rim_px = max(1, int(round(SIZE * rim)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * rim_px + 1, 2 * rim_px + 1))
    return np.asarray(cv2.erode(region, kernel) > 0, dtype=np.bool_)


def _ink(face_lab: Floats, inside: Mask, min_contrast: float) -> Mask | None:
    """Pixels of the face far from its body colour (Otsu between body and ink)."""
    if inside.sum() < 20:
        return None
    body = np.median(face_lab[inside], axis=0).astype(np.float32)
    distance = colour_distance(face_lab, body)
    values = np.clip(distance[inside], 0, 255).astype(np.uint8)
    level, _ = cv2.threshold(values.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if float(values.max()) < min_contrast:
        return None
    ink = (distance > max(float(level), min_contrast)) & inside
    return np.asarray(cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)) > 0,
                      dtype=np.bool_)


def _count(ink: Mask, inside: Mask, settings: PipSettings) -> PipCount:
    one = settings.pip_area * SIZE * SIZE
    count, _, stats, centres = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    pips: list[Point] = []
    misfit = 0.0
    for i in range(1, int(count)):
        ratio = float(stats[i, cv2.CC_STAT_AREA]) / one
        if ratio < 0.35:
            continue  # a speck, not a pip
        if ratio > 3.6:
            return PipCount(0, 0.0, why="a mark too large for pips (a number, a symbol or glare)")
        many = max(1, int(round(ratio)))
        misfit = max(misfit, abs(ratio - many) / many)
        pips.extend([(float(centres[i][0]), float(centres[i][1]))] * many)
    return _judged(pips, misfit)


def _judged(pips: list[Point], misfit: float) -> PipCount:
    """A count from 1 to 6 with pips symmetric about the middle; confidence from how well they fit."""
    if not 1 <= len(pips) <= 6:
        return PipCount(len(pips), 0.0, tuple(pips), f"{len(pips)} pip-like marks")
    middle = (SIZE - 1) / 2.0
    mean = np.mean(np.asarray(pips), axis=0)
    off = float(np.hypot(mean[0] - middle, mean[1] - middle)) / SIZE
    confidence = float(np.clip(1.0 - 2.0 * misfit, 0.0, 1.0) * np.clip(1.0 - off / 0.15, 0.0, 1.0))
    return PipCount(len(pips), confidence, tuple(pips), "" if confidence > 0 else "the marks are not a pip pattern")


def pip_area_of(faces: list[tuple[Image, Point, float, Mask | None, int]]) -> float | None:
    """The owner's pip size, from reference faces whose value is known; None if they do not count right."""
    areas = []
    for image, centre, diameter, mask, value in faces:
        face = cut(image, centre, diameter, SIZE)
        inside = _inside(mask, centre, diameter, PipSettings().rim)
        ink = _ink(lab(face), inside, PipSettings().min_contrast)
        if ink is None:
            return None
        areas.append(float(ink.sum()) / max(value, 1) / (SIZE * SIZE))
    return float(np.median(areas)) if areas else None
