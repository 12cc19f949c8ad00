"""A second reader of the top face, learned from the owner's own face photos at calibration.

Why a learned reader beside the template match: the template match scores a die
by how its ink lines up with each photo's; a reader that learns which gradients
tell the owner's faces apart errs elsewhere (a glare streak, a numeral seen
through a side face, a die slanted against the wall), so a read is taken only
where both name the same face (``reader``).

Why learned on the box, from the owner's photos, rather than shipped: the
Monster dice's HIT and POW and the d20's symbol face are the owner's own art,
in no public photo set; no network shipped with the box could know them. A Pi
must learn them in seconds, without PyTorch, so the model is linear and its
training closed-form: ridge regression onto one output per face, over
gradient-orientation histograms (HOG) of the top face and a coarse picture of
its ink. Reading is a matrix product per turn, well under a millisecond, so no
DNN runtime is needed (the shipped pip network, which is one, runs through
OpenCV's DNN module: ``pipnet``).

How it copes with turns: it learns each face *upright* (turned at most
``jitter`` degrees), and learns that the same face turned further away is
*no* face (every output low), so at a read the die is cut in ``turns`` turns
and each face takes its best output over them. A face that looks the same
turned (a blank face, a pip face turned a quarter or a half) is not taught
as "no face" at those turns: each turned sample is compared with the upright
photo first.

``speaks_for`` holds the faces whose photos it reads when it has not seen
them (each photo left out in turn, the others learned): the owner's photos
of one die agree with each other, photos of dozens of dice (a public set)
do not, and then it keeps out of the read rather than refuse good ones.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from typing import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from .imaging import Floats, Image, Point, cut, lab
from .synthetic import Changes, changes_for, glare_spot, photo_changes
from .templates import BLANK, Reference

BINS = 9  # gradient orientations over 180 degrees
CELL = 8  # px of a histogram cell
COARSE = 8  # px of the coarse ink picture's side
FOLDS = 5  # at most this many groups of photos are left out in turn to see which faces it reads
MOST_SAMPLES_FACE = 72  # upright samples per face, shared by its photos (more photos: fewer each) ...
LEAST_SAMPLES = 6  # ... but at least this many per photo


@dataclass(frozen=True)
class LearnSettings:
    """``size``: px of the top-face patch; ``span``: its side as a share of the die's diameter
    (the top face, not the side faces a d20 shows); ``turns``: turns read; ``samples``: upright
    samples per photo (and as many turned away); ``jitter``: degrees an upright sample may turn;
    ``ridge``: the regression's damping; ``same``: a turned sample this alike to the upright
    photo (correlation) is still that face, ``other``: one this unlike it is no face."""

    size: int = 32
    span: float = 0.62
    turns: int = 24
    samples: int = 48
    jitter: float = 8.0
    ridge: float = 0.01
    same: float = 0.8
    other: float = 0.5
    seed: int = 0


@dataclass(frozen=True)
class LearnedView:
    """The learned reader's best face and the best other face, with their outputs (1 = sure)."""

    label: str
    score: float
    runner_up: str
    runner_score: float

    @property
    def margin(self) -> float:
        return self.score - self.runner_score


class FaceLearner:
    """Learns one die kind's faces from its photos; then reads a die in any turn."""

    def __init__(self, references: Sequence[Reference], axis: Floats,
                 settings: LearnSettings = LearnSettings()) -> None:
        references = [r for r in references if r.label != BLANK]  # no marks to learn: its ink energy tells it
        self.settings, self.axis = settings, np.asarray(axis, np.float32)
        self.labels = sorted({r.label for r in references})
        self.samples = _Samples(references, self.axis, self.labels, settings)
        self.references = list(references)
        self.mean, self.scale = self.samples.norm()
        self.weights = self.samples.solve(self.mean, self.scale, range(len(references)))

    def view(self, image: Image, centre: Point, diameter: float) -> LearnedView:
        """Each face's best output over the turns, ranked."""
        return self._ranked(self._best(self._turned(image, centre, diameter), self.weights))

    def _turned(self, image: Image, centre: Point, diameter: float) -> Floats:
        turns = [k * 360.0 / self.settings.turns for k in range(self.settings.turns)]
        return features(image, centre, diameter, self.axis, turns, self.settings)

    def _best(self, rows: Floats, weights: Floats) -> Floats:
        return np.asarray(_outputs(rows, self.mean, self.scale, weights).max(axis=0), np.float32)

    def _ranked(self, best: Floats) -> LearnedView:
        order = np.argsort(-best)
        first = int(order[0])
        second = int(order[1]) if len(order) > 1 else first
        runner = float(best[second]) if second != first else -1.0
        return LearnedView(self.labels[first], float(best[first]), self.labels[second], runner)

    def speaks_for(self) -> tuple[str, ...]:
        """The faces at least two thirds of whose photos it reads right (in any turn, as a read
        does) when it learned without them; a face photographed once is not tested, as all it
        has is that photo. The photos are left out a fold at a time (each face's k-th photo in
        fold k, at most FOLDS folds), which with three photos a face is each photo in turn."""
        reads: dict[str, list[bool]] = {}
        for fold in self.samples.folds():
            weights = self.samples.without(fold, self.mean, self.scale)
            for index in fold:
                reference = self.references[index]
                best = self._best(self._turned(reference.image, reference.centre, reference.diameter), weights)
                reads.setdefault(reference.label, []).append(self.labels[int(np.argmax(best))] == reference.label)
        untested = [label for label in self.labels if label not in reads]
        return tuple(sorted(untested + [label for label, right in reads.items() if sum(right) >= 2 * len(right) / 3]))


# -- features ---------------------------------------------------------------------------------

def features(image: Image, centre: Point, diameter: float, axis: Floats, angles: Sequence[float],
             settings: LearnSettings) -> Floats:
    """The top face turned by each of ``angles`` (rows): its ink's gradient histograms and a
    coarse picture of it. The die is cut once, wide enough for any turn; then each turn is
    cut from that, so reading in many turns costs little more than one."""
    size = settings.size
    wide = int(math.ceil(size * math.sqrt(2.0))) + 2
    ink = np.asarray(lab(cut(image, centre, diameter * settings.span * wide / size, wide)) @ axis, np.float32)
    middle = (wide - 1) / 2.0
    patches = []
    for angle in angles:
        matrix = np.asarray(cv2.getRotationMatrix2D((middle, middle), float(angle), 1.0), np.float64)
        matrix[:, 2] += (size - 1) / 2.0 - middle
        patches.append(cv2.warpAffine(ink, matrix, (size, size), flags=cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REPLICATE))
    stack = _standard(np.asarray(patches, np.float32))
    coarse = stack.reshape(len(stack), COARSE, size // COARSE, COARSE, size // COARSE).mean(axis=(2, 4))
    return np.asarray(np.hstack([hog(stack), coarse.reshape(len(stack), -1) * 0.3]), np.float32)


def _standard(stack: Floats) -> Floats:
    """Each patch zero mean and unit spread: the light on the die does not count."""
    flat = stack.reshape(len(stack), -1)
    flat = (flat - flat.mean(axis=1, keepdims=True)) / (flat.std(axis=1, keepdims=True) + 1e-3)
    return np.asarray(flat.reshape(stack.shape), np.float32)


def hog(stack: Floats) -> Floats:
    """Histograms of gradient orientation (BINS over 180 degrees, each pixel voting with its
    strength between its two nearest bins) in CELL-px cells, each block of 2x2 cells scaled to
    unit length; one row per patch of ``stack``."""
    count, side = stack.shape[0], stack.shape[1]
    cells = side // CELL
    gx = np.zeros_like(stack)
    gy = np.zeros_like(stack)
    gx[:, :, 1:-1] = stack[:, :, 2:] - stack[:, :, :-2]
    gy[:, 1:-1, :] = stack[:, 2:, :] - stack[:, :-2, :]
    flat_strength, flat_angle = cv2.cartToPolar(gx.reshape(-1, side), gy.reshape(-1, side))  # angle 0..2 pi
    strength = np.asarray(flat_strength, np.float32).ravel()
    angle = np.asarray(flat_angle, np.float32).ravel()  # an edge's orientation is its angle modulo pi
    position = np.where(angle >= math.pi, angle - math.pi, angle) * (BINS / math.pi)
    low = position.astype(np.int32)  # position >= 0: truncation is the floor
    upper = strength * (position - low)
    low = np.where(low >= BINS, low - BINS, low)
    high = np.where(low + 1 >= BINS, 0, low + 1)
    where = _cell_starts(count, side)
    size = count * cells * cells * BINS
    votes = np.bincount(where + low, strength - upper, size) + np.bincount(where + high, upper, size)
    cell = votes.astype(np.float32).reshape(count, cells, cells, BINS)
    blocks = np.concatenate([cell[:, :-1, :-1], cell[:, :-1, 1:], cell[:, 1:, :-1], cell[:, 1:, 1:]], axis=3)
    blocks = blocks.reshape(count, (cells - 1) * (cells - 1), 4 * BINS)
    blocks /= np.linalg.norm(blocks, axis=2, keepdims=True) + 1e-3
    return np.asarray(blocks.reshape(count, -1), np.float32)


@functools.lru_cache(maxsize=8)
def _cell_starts(count: int, side: int) -> NDArray[np.int32]:
    """For each pixel of ``count`` patches, where its cell's BINS histogram starts in one flat array."""
    cells = side // CELL
    cell = (np.arange(side) // CELL).clip(max=cells - 1)
    starts = ((np.arange(count)[:, None, None] * cells + cell[None, :, None]) * cells + cell[None, None, :]) * BINS
    return np.asarray(starts.ravel(), np.int32)


def _outputs(rows: Floats, mean: Floats, scale: Floats, weights: Floats) -> Floats:
    standard = (rows - mean) / scale
    return np.asarray(standard @ weights[:-1] + weights[-1], dtype=np.float32)


# -- learning ---------------------------------------------------------------------------------

class _Samples:
    """Every photo's samples as feature rows with their targets, kept so that the model can be
    learned again without any one photo (``held_out_faces``)."""

    def __init__(self, references: Sequence[Reference], axis: Floats, labels: list[str],
                 settings: LearnSettings) -> None:
        self.settings, self.labels = settings, labels
        rng = np.random.default_rng(settings.seed)
        self.rows: list[Floats] = []
        self.targets: list[Floats] = []
        self.photo_labels = [r.label for r in references]
        self._whole: tuple[Floats, Floats, int] | None = None
        per_face = {label: self.photo_labels.count(label) for label in labels}
        for reference in references:
            many = max(MOST_SAMPLES_FACE // per_face[reference.label], LEAST_SAMPLES)
            rows, targets = _photo_samples(reference, axis, labels.index(reference.label), len(labels),
                                           replace(settings, samples=min(settings.samples, many)), rng)
            self.rows.append(rows)
            self.targets.append(targets)

    def norm(self) -> tuple[Floats, Floats]:
        every = np.concatenate(self.rows)
        return (np.asarray(every.mean(axis=0), np.float32),
                np.asarray(every.std(axis=0) + 1e-3, np.float32))

    def _design(self, index: int, mean: Floats, scale: Floats) -> Floats:
        standard = (self.rows[index] - mean) / scale
        return np.asarray(np.hstack([standard, np.ones((len(standard), 1), np.float32)]), np.float32)

    def solve(self, mean: Floats, scale: Floats, photos: Sequence[int] | range) -> Floats:
        """Ridge regression on the samples of ``photos``: the weights (features + 1, faces)."""
        gram, right, count = self._sums(mean, scale, photos)
        return _ridge(gram, right, count, self.settings.ridge)

    def _sums(self, mean: Floats, scale: Floats, photos: Sequence[int] | range) -> tuple[Floats, Floats, int]:
        if isinstance(photos, range) and len(photos) == len(self.rows):
            if self._whole is None:
                self._whole = self._add(mean, scale, photos)
            return self._whole
        return self._add(mean, scale, photos)

    def _add(self, mean: Floats, scale: Floats, photos: Sequence[int] | range) -> tuple[Floats, Floats, int]:
        gram: Floats | None = None
        right: Floats | None = None
        count = 0
        for index in photos:
            design = self._design(index, mean, scale)
            part, cross = design.T @ design, design.T @ self.targets[index]
            gram = part if gram is None else gram + part
            right = cross if right is None else right + cross
            count += len(design)
        assert gram is not None and right is not None, "no photos to learn from"
        return gram, right, count

    def folds(self) -> list[list[int]]:
        """The photos to leave out together: each face's k-th photo in fold k mod FOLDS (faces with
        one photo in none: there is nothing to learn that face from without it)."""
        folds: list[list[int]] = [[] for _ in range(FOLDS)]
        seen: dict[str, int] = {}
        for index, label in enumerate(self.photo_labels):
            if self.photo_labels.count(label) < 2:
                continue
            folds[seen.get(label, 0) % FOLDS].append(index)
            seen[label] = seen.get(label, 0) + 1
        return [fold for fold in folds if fold]

    def without(self, photos: Sequence[int], mean: Floats, scale: Floats) -> Floats:
        """The weights learned from every photo but ``photos`` (the sums less their part)."""
        gram, right, count = self._sums(mean, scale, range(len(self.rows)))
        left, cross, fewer = self._sums(mean, scale, photos)
        return _ridge(gram - left, right - cross, count - fewer, self.settings.ridge)


def _ridge(gram: Floats, right: Floats, count: int, damping: float) -> Floats:
    size = gram.shape[0]
    return np.asarray(np.linalg.solve(gram + damping * count * np.eye(size, dtype=np.float32), right), np.float32)


def _photo_samples(reference: Reference, axis: Floats, face: int, faces: int, settings: LearnSettings,
                   rng: np.random.Generator) -> tuple[Floats, Floats]:
    """``samples`` upright samples of one photo (other light, noise, blur, a glare spot, a little
    off centre and off size), then as many turned away: each turned one is "no face" if it
    looks unlike the upright photo, this face if it looks the same, and left out between."""
    upright = _patch(reference, axis, 0.0, settings)
    rows, targets = [], []
    for turned in (False, True):
        for _ in range(settings.samples):
            angle = float(rng.uniform(-settings.jitter, settings.jitter))
            if turned:
                angle += float(rng.uniform(20.0, 340.0))
            target = _target(reference, axis, upright, angle, face, faces, settings) if turned else _one_hot(face, faces)
            if target is None:
                continue
            rows.append(_sample(reference, axis, angle, settings, rng))
            targets.append(target)
    return np.asarray(rows, np.float32), np.asarray(targets, np.float32)


def _target(reference: Reference, axis: Floats, upright: Floats, angle: float, face: int, faces: int,
            settings: LearnSettings) -> Floats | None:
    alike = float(np.mean(_patch(reference, axis, angle, settings) * upright))  # a correlation: both standard
    if alike >= settings.same:
        return _one_hot(face, faces)
    if alike <= settings.other:
        return np.full(faces, -1.0, np.float32)
    return None


def _one_hot(face: int, faces: int) -> Floats:
    target = np.full(faces, -1.0, np.float32)
    target[face] = 1.0
    return target


def _sample(reference: Reference, axis: Floats, angle: float, settings: LearnSettings,
            rng: np.random.Generator) -> Floats:
    """One photo as a new throw might show it: other light, noise and blur, sometimes a glare
    spot, the centre found a little off and the size a little wrong."""
    image = photo_changes(reference.image, rng, changes_for(reference.diameter, Changes(glare=0.0)))
    if rng.random() < 0.1:
        image = glare_spot(image, reference.centre, rng)
    shift = rng.normal(0.0, 0.03, 2) * reference.diameter
    centre = (reference.centre[0] + float(shift[0]), reference.centre[1] + float(shift[1]))
    diameter = reference.diameter * float(rng.uniform(0.94, 1.06))
    return np.asarray(features(image, centre, diameter, axis, [angle], settings)[0], np.float32)


def _patch(reference: Reference, axis: Floats, angle: float, settings: LearnSettings) -> Floats:
    """The photo's top face turned by ``angle``, standardised (to compare turns of one photo)."""
    patch = cut(reference.image, reference.centre, reference.diameter * settings.span, settings.size, angle)
    return np.asarray(_standard(np.asarray(lab(patch) @ axis, np.float32)[None])[0], np.float32)
