"""Read a die's top face by comparing it with the owner's reference photos, in any turn.

How: each reference face is cut at a fixed scale and turned in small steps
(every 5 degrees by default); only a disk in the middle is kept, so the side
faces a d20 shows around its top face do not count. Pixels are reduced to one
"ink" channel: the colour axis along which the owner's die varies most (body
against numbers or pips), found from the references by principal components,
so white-on-red, red-on-cream and black-on-white dice all give strong
contrast. A die in the tray is cut the same way and compared with every turned
reference by normalised cross-correlation (one matrix product, over a few
small shifts because the found centre is not exact). The score of a face is its
best correlation; the confidence is how far it beats the best *other* face.

A blank face (the Monster die's) has no ink to correlate, so it is told by
the ink energy in the disk instead: between the blank reference's and the
faintest marked reference's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .imaging import Floats, Image, Mask, Point, cut, disk, lab

BLANK = "blank"
REFINED = 3  # faces looked at again at every 1 px shift


@dataclass(frozen=True)
class MatchSettings:
    """``size``: canonical die diameter in px; ``radius``: the compared disk as a
    share of the die's diameter (the top face only); ``step``: degrees between
    turned references; ``shift``: px (canonical) the centre may be off."""

    size: int = 48
    radius: float = 0.32
    step: float = 5.0
    shift: int = 3


@dataclass(frozen=True)
class Reference:
    """One photo of one face: the die is at ``centre`` and ``diameter`` px across."""

    label: str
    image: Image
    centre: Point
    diameter: float


@dataclass(frozen=True)
class FaceScores:
    """The best face and the best other face, with their correlations."""

    label: str
    score: float
    runner_up: str
    runner_score: float
    angle: float = 0.0
    blankness: float = 0.0  # 0 = clearly marked, 1 = clearly blank (only for dice with a blank face)

    @property
    def margin(self) -> float:
        return self.score - self.runner_score


class TemplateMatcher:
    """The turned references of one die kind, ready to compare a die with."""

    def __init__(self, references: list[Reference], settings: MatchSettings = MatchSettings()) -> None:
        marked = [r for r in references if r.label != BLANK]
        if len({r.label for r in marked}) < 1:
            raise ValueError("at least one marked face is needed to read a die")
        self.settings = settings
        self.window = disk(settings.size, settings.radius * settings.size)
        self.axis = ink_axis([self._cut(r, 0.0) for r in references], self.window)
        self.labels = sorted({r.label for r in marked})
        self.bank, self.bank_faces, self.bank_angles = self._bank(marked)
        self.face_starts = np.searchsorted(self.bank_faces, np.arange(len(self.labels)))
        self.face_ends = np.searchsorted(self.bank_faces, np.arange(len(self.labels)), side="right")
        self.energy = _energy_range(self, references)

    # -- building -------------------------------------------------------------------------
    def _cut(self, reference: Reference, angle: float) -> Image:
        return cut(reference.image, reference.centre, reference.diameter, self.settings.size, angle)

    def _bank(self, references: list[Reference]) -> tuple[Floats, NDArray[np.int32], Floats]:
        """Every reference at every turn, as unit vectors, grouped by face."""
        angles = np.arange(0.0, 360.0, self.settings.step, dtype=np.float32)
        vectors, faces, turns = [], [], []
        for reference in sorted(references, key=lambda r: r.label):
            index = self.labels.index(reference.label)
            for angle in angles:
                vectors.append(self.vector(self.channel(self._cut(reference, float(angle)))))
                faces.append(index)
                turns.append(angle)
        return (np.asarray(vectors, dtype=np.float32), np.asarray(faces, dtype=np.int32),
                np.asarray(turns, dtype=np.float32))

    def channel(self, image: Image) -> Floats:
        """The ink channel of a cut die."""
        return np.asarray(lab(image) @ self.axis, dtype=np.float32)

    def vector(self, channel: Floats) -> Floats:
        """The disk's pixels, zero mean and unit length (so a brighter light changes nothing)."""
        values = channel[self.window]
        values = values - values.mean()
        return np.asarray(values / (float(np.linalg.norm(values)) + 1e-6), dtype=np.float32)

    # -- reading -------------------------------------------------------------------------
    def match(self, image: Image, centre: Point, diameter: float) -> FaceScores:
        """Score every face for the die at ``centre`` (``diameter`` px across) in ``image``.

        Coarse to fine: every turned reference against the centre and shifts of
        2 px, then the three best faces again at every 1 px shift around
        where each matched best.
        """
        size, shift = self.settings.size, self.settings.shift
        wide = size + 2 * shift
        channel = self.channel(cut(image, centre, diameter * wide / size, wide))
        windows = self._windows(channel)
        coarse = [(dy, dx) for dy in range(shift - 2, shift + 3, 2) for dx in range(shift - 2, shift + 3, 2)]
        scores = self._vectors(windows, coarse) @ self.bank.T  # (shifts, references)
        per_face = np.maximum.reduceat(scores.max(axis=0), self.face_starts)
        refined = self._refine(windows, scores, per_face)
        blankness = self._blankness(channel[shift:shift + size, shift:shift + size])
        return self._ranked(refined, blankness)

    def _windows(self, channel: Floats) -> Floats:
        size = self.settings.size
        return np.asarray(np.lib.stride_tricks.sliding_window_view(channel, (size, size)), dtype=np.float32)

    def _vectors(self, windows: Floats, shifts: list[tuple[int, int]]) -> Floats:
        """The disk of each shifted window as unit vectors (rows)."""
        picked = np.stack([windows[dy, dx][self.window] for dy, dx in shifts])
        picked = picked - picked.mean(axis=1, keepdims=True)
        return np.asarray(picked / (np.linalg.norm(picked, axis=1, keepdims=True) + 1e-6), dtype=np.float32)

    def _refine(self, windows: Floats, scores: Floats, per_face: Floats) -> dict[int, tuple[float, float]]:
        """Best score and turn of the leading faces, at every shift near their coarse best."""
        leaders = np.argsort(-per_face)[:REFINED]
        limit = windows.shape[0] - 1
        refined: dict[int, tuple[float, float]] = {}
        for face in (int(f) for f in leaders):
            rows = slice(int(self.face_starts[face]), int(self.face_ends[face]))
            dy, dx = self._coarse_best(scores[:, rows])
            near = [(y, x) for y in range(max(0, dy - 1), min(limit, dy + 1) + 1)
                    for x in range(max(0, dx - 1), min(limit, dx + 1) + 1)]
            fine = self._vectors(windows, near) @ self.bank[rows].T
            best = int(np.argmax(fine.max(axis=0)))
            refined[face] = (float(fine.max()), float(self.bank_angles[rows][best]))
        return refined

    def _coarse_best(self, scores: Floats) -> tuple[int, int]:
        shift = self.settings.shift
        index = int(np.argmax(scores.max(axis=1)))
        return shift - 2 + 2 * (index // 3), shift - 2 + 2 * (index % 3)

    def _ranked(self, refined: dict[int, tuple[float, float]], blankness: float) -> FaceScores:
        order = sorted(refined, key=lambda f: -refined[f][0])
        best = order[0]
        second = order[1] if len(order) > 1 else best
        runner = refined[second][0] if second != best else -1.0
        return FaceScores(self.labels[best], refined[best][0], self.labels[second], runner, refined[best][1],
                          blankness)

    def _blankness(self, channel: Floats) -> float:
        """0..1: how much the disk looks like the blank face rather than a marked one."""
        if self.energy is None:
            return 0.0
        blank, marked = self.energy
        energy = float(channel[self.window].std())
        return float(np.clip((marked - energy) / max(marked - blank, 1e-3), 0.0, 1.0))

    def energy_of(self, reference: Reference) -> float:
        """How much ink the reference's disk holds (its ink channel's spread)."""
        return float(self.channel(self._cut(reference, 0.0))[self.window].std())


def ink_axis(images: list[Image], window: Mask) -> Floats:
    """The Lab direction along which the reference dice vary most (body against ink)."""
    pixels = np.concatenate([lab(image)[window] for image in images])
    pixels = pixels - pixels.mean(axis=0)
    covariance = pixels.T @ pixels / max(len(pixels) - 1, 1)
    values, vectors = np.linalg.eigh(covariance)
    axis = vectors[:, int(np.argmax(values))]
    return np.asarray(axis if axis[0] >= 0 else -axis, dtype=np.float32)


def _energy_range(matcher: TemplateMatcher, references: list[Reference]) -> tuple[float, float] | None:
    """Ink energy of the blank reference(s) and of the faintest marked one; None without a blank face."""
    blanks = [matcher.energy_of(r) for r in references if r.label == BLANK]
    if not blanks:
        return None
    marked = [matcher.energy_of(r) for r in references if r.label != BLANK]
    return float(np.mean(blanks)), float(min(marked))
