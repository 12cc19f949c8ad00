"""Count the pips on a d6's top face: a second opinion beside the reference photos.

How: the die is cut to a fixed size (its diameter ``SIZE`` px), so every
length below is a share of the die and one setting fits a 25 px die and a
70 px one.

1. **Contrast.** Each pixel's Lab distance from the die's body colour (the
   median of a disk around the middle wide enough that even a six's big pips
   are the minority), so white pips on red, black pips on white and red pips
   on a marbled blue die all stand out, whether darker or lighter than the
   face. Lightness counts a third as much as colour: shading, glare and the
   pale swirls of a marbled body change lightness most, while a red pip on a
   dark die differs mainly in colour. A die's pips share one colour, so the
   contrast is then taken again *along* the colour of the strongest mark:
   marks of other hues fade, pips stay.
2. **The die.** Pixels near the body colour (Otsu's split against the tray),
   the part around the middle and everything within its convex outline, are
   the die; marks closer than ``inset`` to the outline are where the die meets
   the tray (its corners against the felt look like dots), not pips.
3. **Marks.** A difference of Gaussians (a pip-sized blur minus a wider one)
   peaks on each small round mark and stays low on broad shading and on the
   lines of a marbled body; peaks closer than a pip's spacing are one mark.
4. **Faces.** Every set of up to six of the strongest marks is tried as a
   face: it must lie on that face's 3x3 grid pattern (any turn, scaled to
   its spread), be about centred on the die, and its marks must be about
   equally strong (one colour). A face *claims* the square it would cover
   and the die's top around its middle: a mark there that is not one of its
   pips speaks against it. Its **gap** is (weakest pip - strongest other mark
   on it) / strongest pip. A face whose pips all belong to a larger face that
   also fits (two pips side by side of a big four) gives way to it.
5. **Confidence** = the face's gap minus the best gap of a face of another
   count, and at most 1 - *clutter*: the strongest response anywhere else on
   that face (not only at marks) as a share of its weakest pip. A clean count
   has a wide gap and no clutter; a pip in shadow, a marbled die whose swirls
   are as strong as its pips, or a die so slanted that a side face's pips
   join the top give a low confidence, and the reader refuses rather than
   guess.
6. **Views.** The die is read in a cut of its found size and, unless that
   count is already sure (``SURE_ENOUGH``), in one a quarter wider (a found
   region or labelled box tighter than the die, a slanted die's top face off
   the middle); the surer reading counts, less twice the confidence of a view
   that counts otherwise.

Why a second opinion: the reference photos of one die do not look like
another die, and a glare spot can look like a face in a photo comparison;
when the photo and the count disagree, the die is asked for on the tablet.
The settings were fitted on the train split of the public pip set only
(docs/dice.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

import cv2
import numpy as np
from numpy.typing import NDArray

from .imaging import Floats, Image, Mask, Point, cut, lab

SIZE = 64  # canonical die diameter in px
MARGIN = 13  # px cut around the canonical die, so the blurs see past the face
SIDE = SIZE + 2 * MARGIN
PIP_AREA = 0.022  # the pip size (share of SIZE**2) the default lengths below are for; others scale them
COUNTED_RIGHT = 0.5  # share of the face photos that must count right (surely) for the counter to be used (numerals: ~0)
GROWTHS = (1.0, 1.3, 1.6, 1.9)  # pip sizes tried at calibration, as lengths against PIP_AREA's
SURE = 0.2  # the reader's least pip confidence (ReaderSettings.pip_confidence): a photo counted less surely helps no read
NEARLY = 0.95  # a smaller pip size counting this share of the best's photos right is preferred
SIDE_SIZES = (0.87, 1.15)  # a pip size is steady if its photos count nearly as well at these shares of it too
MOST = 8  # marks kept: a six and two marks around it
VIEWS = (1.0, 1.25)  # the cut's size against the die's diameter: as found, and a quarter wider
DISAGREE = 2.0  # how much a view counting otherwise takes off the surer view's confidence, per unit of its own
SURE_ENOUGH = 0.5  # a view counting this surely is not read again wider (half the time, same mistakes on train)
SMALLEST_DIE = 0.2  # a found die smaller than this share of the cut's disk is a failed find: all of it may hold pips
LAB_WEIGHTS = np.array([0.35, 1.0, 1.0], dtype=np.float32)  # lightness counts less: shading, glare, swirls change it most

Ints = NDArray[np.int64]


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
    ``sigma``: the pip-sized blur; ``reach``: marks further than this from the die's
    centre are not on the top face; ``body``: the disk whose median colour is the
    body's; ``spacing``: two peaks closer than this are one mark; ``inset``: marks
    this close to the die's outline are its corners against the tray; ``ratio``: a
    face's weakest pip is at least this share of its strongest; ``min_contrast``:
    the least strongest pip (Lab distance units) that is ink rather than noise;
    ``colour_rank``: which of the strongest marks on the die's middle gives the pips' colour
    (0, the strongest; a recount tries the next, as the strongest may be a glare spot);
    ``single_offset``/``max_offset``: how far a one's pip / a face's pips' centroid
    may lie from the die's centre; ``single_spacing``: the grid spacing assumed
    for a one; ``spacing_range``: the pip grid's spacing; ``max_misfit``: the most
    the pips may lie off their face's pattern, in grid spacings; ``face_half``:
    half a face's side, in grid spacings; ``face_reach``: the top face around a
    face's middle that other marks must stay off; ``clear``/``clear_spacing``: the
    radius around each pip (at least, and as a share of the grid spacing: a pip's own
    response reaches about to the middle between diagonal neighbours) left out when
    looking for clutter; ``whole``: the least gap of a larger face holding all of the
    best face's pips for it to be taken instead; ``round_one``: the most a one's pip may
    be longer than wide (its ink above half its peak)."""

    pip_area: float = PIP_AREA
    sigma: float = 0.037
    reach: float = 0.45
    body: float = 0.34
    spacing: float = 0.13
    inset: float = 0.0625
    ratio: float = 0.4
    min_contrast: float = 5.0  # was 8: dim, relit train dice have pips of 4-8 (docs/dice.md, "Least contrast")
    single_offset: float = 0.15
    max_offset: float = 0.25
    single_spacing: float = 0.135
    spacing_range: tuple[float, float] = (0.08, 0.23)
    max_misfit: float = 0.3
    face_half: float = 1.6
    face_reach: float = 0.4
    clear: float = 0.08
    clear_spacing: float = 0.7
    whole: float = 0.5
    round_one: float = 2.0
    geometry_of: float | None = None  # the pip_area the lengths were scaled for (None: not yet)
    colour_rank: int = 0  # the contrast is taken along the colour of the strongest mark (0), the next (1), ...


@dataclass(frozen=True)
class Marks:
    """Pip-like marks on a die cut at ``SIZE``: strengths (strongest first), places (shares of
    the diameter from the die's centre), and the blob response with the part of the
    canonical square that may hold pips (for the clutter check)."""

    strengths: Floats
    places: Floats
    response: Floats
    allowed: Mask
    ink: Floats


@dataclass(frozen=True)
class Face:
    """One reading of the marks: ``members`` index the marks taken as its pips."""

    count: int
    gap: float
    members: tuple[int, ...]
    centre: Point
    spacing: float
    turn: float


def count_pips(image: Image, centre: Point, diameter: float, settings: PipSettings = PipSettings(),
               mask: Mask | None = None, origin: tuple[int, int] = (0, 0)) -> PipCount:
    """Count the pips of the die at ``centre`` (``diameter`` px across).

    ``mask`` and ``origin`` (the die's found region) are accepted for callers
    that have them but not needed: the die is found again in its canonical cut.
    The die is read in each of the ``VIEWS`` (cuts of its diameter and wider) and
    the surest reading counts, as sure as it is beyond the surest reading of another
    count. Why: a found region or labelled box can be tighter than the die, and a
    slanted die's top face lies off its middle; a wider cut sees such a face whole.
    A view counting at least ``SURE_ENOUGH`` surely ends the search: on held-out train
    photos the wider cut then added no right read (the same mistakes, one refusal
    fewer without it) and cost as much time again.
    """
    del mask, origin
    settings = scaled(settings)
    readings: list[PipCount] = []
    for view in VIEWS:
        readings.append(_in_diameters(judge(find_marks(image, centre, diameter * view, settings), settings), view))
        if readings[-1].confidence >= SURE_ENOUGH:
            break
    return surest(readings)


def surest(readings: list[PipCount]) -> PipCount:
    """The most confident of several readings of one die, its confidence lessened by twice
    (``DISAGREE``) the most confident reading of another count: two views that disagree make
    neither sure. Why twice: on held-out train photos of the public set a disagreement
    counted once still let through a three read as a one (its close pips run together in
    the wider cut); twice turned one wrong read into a refusal for three more refusals."""
    best = max(readings, key=lambda r: r.confidence)
    rival = max((r.confidence for r in readings if r.count != best.count), default=0.0)
    if rival <= 0.0:
        return best
    confidence = max(best.confidence - DISAGREE * rival, 0.0)
    return replace(best, confidence=confidence, why=best.why or ("" if confidence > 0 else "two views count otherwise"))


def _in_diameters(reading: PipCount, view: float) -> PipCount:
    """A reading of a cut ``view`` times the die's diameter, with its pips' places in die diameters."""
    if view == 1.0:
        return reading
    return replace(reading, pips=tuple((x * view, y * view) for x, y in reading.pips))


def scaled(settings: PipSettings) -> PipSettings:
    """The geometry for the die's own pips: lengths grow with the square root of ``pip_area``
    against ``PIP_AREA`` (dice with big, widely spaced pips against small, close ones)."""
    if settings.geometry_of is not None:
        return settings
    grow = float(np.sqrt(settings.pip_area / PIP_AREA))
    low, high = settings.spacing_range
    return replace(settings, sigma=settings.sigma * grow, reach=min(settings.reach * grow, 0.48),
                   spacing=settings.spacing * grow, single_offset=settings.single_offset * grow,
                   max_offset=settings.max_offset * grow, single_spacing=settings.single_spacing * grow,
                   spacing_range=(low * grow, high * grow), face_reach=settings.face_reach * grow,
                   clear=settings.clear * grow, geometry_of=settings.pip_area)


# -- marks ------------------------------------------------------------------------------------------

def find_marks(image: Image, centre: Point, diameter: float, settings: PipSettings = PipSettings()) -> Marks:
    """The strongest pip-like marks on the die, in the colour of its strongest mark."""
    face, body, contrast, die = _die_in_cut(image, centre, diameter, settings)
    radius = _RADIUS
    allowed = (radius <= settings.reach) & _off_the_outline(die, settings.inset * SIZE)
    response = _blobs(contrast, settings.sigma * SIZE)
    strengths, places = _peaks(response, allowed & (radius <= settings.body), settings.spacing)
    if len(strengths):
        contrast = _along(face, body, places[min(settings.colour_rank, len(places) - 1)])
        response = _blobs(contrast, settings.sigma * SIZE)
    strengths, places = _peaks(response, allowed, settings.spacing)
    ink = np.asarray(cv2.GaussianBlur(contrast, (0, 0), settings.sigma * SIZE), dtype=np.float32)
    return Marks(strengths, places, response, allowed, ink)


def die_fill(image: Image, centre: Point, diameter: float, settings: PipSettings = PipSettings()) -> float:
    """The die as the counter finds it in its cut (``_die``), as a share of the found region's
    disk: about 1 or less when the region holds the whole die, more when the die reaches past
    it (or the whole cut, 2.5, when the die cannot be split from the tray). Why: a region found
    on part of a die, or off its middle, shows the counter and the pip network alike one pip or
    two (measured through the evaluation command on train folds: 1.18 to 2.52 on the threes so
    misread, at most 1.05 on 73 of the 78 dice the network unbarred right; docs/dice.md)."""
    die = _die_in_cut(image, centre, diameter, settings)[3]
    return float(die.sum()) / (np.pi * (SIZE / 2.0) ** 2)


def _die_in_cut(image: Image, centre: Point, diameter: float,
                settings: PipSettings) -> tuple[Floats, Floats, Floats, Mask]:
    """The die's canonical cut in Lab, its body colour, each pixel's contrast to it, and the die."""
    face = lab(cut(image, centre, diameter * SIDE / SIZE, SIDE))
    body = np.asarray(np.median(face[_RADIUS <= settings.body], axis=0), dtype=np.float32)
    contrast = _distance(face, body)
    return face, body, contrast, _die(contrast, _RADIUS)


def _radius() -> Floats:
    """Each pixel's distance from the middle of the canonical cut, in die diameters."""
    yy, xx = np.mgrid[0:SIDE, 0:SIDE].astype(np.float32)
    middle = (SIDE - 1) / 2.0
    return np.asarray(np.hypot(xx - middle, yy - middle) / SIZE, dtype=np.float32)


def _offsets() -> tuple[Floats, Floats]:
    """Each pixel's x and y from the middle of the canonical cut, in die diameters."""
    yy, xx = np.mgrid[0:SIDE, 0:SIDE].astype(np.float32)
    middle = (SIDE - 1) / 2.0
    return (np.asarray((xx - middle) / SIZE, dtype=np.float32),
            np.asarray((yy - middle) / SIZE, dtype=np.float32))


_RADIUS = _radius()
_XS, _YS = _offsets()


def _distance(face_lab: Floats, body: Floats) -> Floats:
    """Weighted Lab distance from the body colour: high on pips of any colour, and off the die."""
    diff = (face_lab - body) * LAB_WEIGHTS
    return np.asarray(np.sqrt(np.sum(diff * diff, axis=-1)), dtype=np.float32)


def _along(face_lab: Floats, body: Floats, place: Floats) -> Floats:
    """How far each pixel lies from the body colour towards the colour at ``place`` (a pip).

    Why: a die's pips share one colour; a marbled body's swirls, glare and
    shading mostly differ from the body in other directions of Lab, and fade.
    """
    smooth = cv2.GaussianBlur(face_lab, (0, 0), 1.0)
    x, y = (np.clip(np.round(place * SIZE + (SIDE - 1) / 2.0), 0, SIDE - 1)).astype(int)
    direction = (smooth[y, x] - body) * LAB_WEIGHTS
    length = float(np.linalg.norm(direction))
    if length < 1e-3:
        return _distance(face_lab, body)
    projected = ((face_lab - body) * LAB_WEIGHTS) @ (direction / length)
    return np.asarray(np.maximum(projected, 0.0), dtype=np.float32)


def _die(contrast: Floats, radius: Floats) -> Mask:
    """The die in the canonical cut: pixels near the body colour (split from the tray by Otsu's
    threshold), the part around the middle, and all within its outline (convex: a die is, and
    pips or a marbled body's swirls bite into its near-body pixels)."""
    scaled_contrast = np.clip(contrast * 4.0, 0, 255).astype(np.uint8)
    threshold, _ = cv2.threshold(scaled_contrast[radius <= 0.5], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    near = (scaled_contrast < threshold).astype(np.uint8)
    count, labels = cv2.connectedComponents(near)
    middle = labels[radius <= 0.15]
    middle = middle[middle > 0]
    if count <= 1 or len(middle) == 0:
        return np.ones(contrast.shape, dtype=np.bool_)
    die = (labels == int(np.bincount(middle).argmax())).astype(np.uint8)
    contours, _ = cv2.findContours(die, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(np.concatenate(contours))
    filled = np.zeros_like(die)
    cv2.fillPoly(filled, [hull], 1)
    if float(filled.mean()) < SMALLEST_DIE * float((radius <= 0.5).mean()):
        return np.ones(contrast.shape, dtype=np.bool_)
    return np.asarray(filled == 1, dtype=np.bool_)


def _off_the_outline(die: Mask, inset: float) -> Mask:
    """Pixels of the die at least ``inset`` px from its outline."""
    inside = cv2.distanceTransform(die.astype(np.uint8), cv2.DIST_L2, 3)
    return np.asarray(inside >= inset, dtype=np.bool_)


def _blobs(contrast: Floats, sigma: float) -> Floats:
    """Difference of Gaussians: high on pip-sized marks, low on broad ones and on fine lines."""
    narrow = cv2.GaussianBlur(contrast, (0, 0), sigma)
    wide = cv2.GaussianBlur(contrast, (0, 0), sigma * 2.0)
    return np.asarray(narrow - wide, dtype=np.float32)


def _peaks(response: Floats, allowed: Mask, spacing: float) -> tuple[Floats, Floats]:
    """Local maxima of the response where allowed, at least ``spacing`` apart, strongest first."""
    width = int(SIZE * spacing) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
    top = cv2.dilate(response, kernel)
    ys, xs = np.nonzero((response >= top) & allowed & (response > 0))
    strengths = response[ys, xs]
    order = np.argsort(-strengths)[:MOST]
    middle = (SIDE - 1) / 2.0
    places = np.stack([xs[order] - middle, ys[order] - middle], axis=1).astype(np.float32) / SIZE
    return np.asarray(strengths[order], dtype=np.float32), np.asarray(places, dtype=np.float32)


# -- faces ------------------------------------------------------------------------------------------

def judge(marks: Marks, settings: PipSettings = PipSettings()) -> PipCount:
    """The count (the face the marks fit best) and how sure it is (its gap over the best face of
    another count, at most one minus the clutter on it); nought when no face fits."""
    if len(marks.strengths) == 0 or float(marks.strengths[0]) < settings.min_contrast:
        return PipCount(0, 0.0, why="no pips on the face")
    faces = candidate_faces(marks.strengths, marks.places, settings)
    if not faces:
        return PipCount(0, 0.0, why="the marks are not a pip pattern")
    best = _fullest(faces, settings.whole)
    rival = max((f.gap for f in faces if f.count != best.count and not set(f.members) <= set(best.members)),
                default=0.0)
    pips = tuple((float(marks.places[i][0]), float(marks.places[i][1])) for i in best.members)
    if best.count == 1 and _elongation(marks.ink, marks.places[best.members[0]]) > settings.round_one:
        return PipCount(1, 0.0, pips, "the one's pip is long: pips in a row run together")
    clutter = max(_clutter(marks, best, settings), _empty_cells(marks, best))
    confidence = float(np.clip(min(best.gap - max(rival, 0.0), 1.0 - clutter), 0.0, 1.0))
    if confidence > 0:
        return PipCount(best.count, confidence, pips)
    why = "other marks on the face as strong as the pips" if clutter >= 1.0 else "pips and marks equally strong"
    return PipCount(best.count, 0.0, pips, why)


def _fullest(faces: list[Face], whole: float) -> Face:
    """The face with the widest gap, or a larger face holding all its pips with a gap of at least
    ``whole``. Why: two pips side by side on a big four also lie as a two, on a face
    too small to hold the four's other pips; the four explains every mark."""
    best = max(faces, key=lambda f: f.gap)
    while True:
        larger = [f for f in faces if f.count > best.count and f.gap >= whole and set(best.members) <= set(f.members)]
        if not larger:
            return best
        best = max(larger, key=lambda f: f.gap)


def candidate_faces(strengths: Floats, places: Floats, settings: PipSettings = PipSettings()) -> list[Face]:
    """Every set of marks that lies as a face's pips do, with its gap."""
    faces: list[Face] = []
    for count in range(1, min(6, len(strengths)) + 1):
        members = _subsets(len(strengths), count)
        centres = places[members].mean(axis=1)
        worth = _worth_fitting(strengths[members], centres, settings)
        members, centres = members[worth], centres[worth]
        fits, spacings, turns = _fits(places[members] - centres[:, None, :], count, settings)
        faces.extend(_face(strengths, places, members[row], centres[row], float(spacings[row]), float(turns[row]),
                           settings) for row in np.nonzero(fits)[0])
    return faces


def _worth_fitting(own: Floats, centres: Floats, settings: PipSettings) -> Mask:
    """Which sets of marks (``own``: their strengths, a row per set) could be a face: about
    centred on the die, their strongest ink rather than noise, and about equally strong (one
    colour). Checked before the pattern fit: it is most of the counter's time, and most sets
    fail these cheap checks (the same counts, about a quarter less time per count)."""
    strongest, weakest = own.max(axis=1), own.min(axis=1)
    limit = settings.single_offset if own.shape[1] == 1 else settings.max_offset
    return np.asarray((np.hypot(centres[:, 0], centres[:, 1]) <= limit) & (strongest >= settings.min_contrast)
                      & (weakest >= settings.ratio * strongest), dtype=np.bool_)


def _subsets(size: int, count: int) -> Ints:
    return _SUBSETS[(size, count)]


def _fits(centred: Floats, count: int, settings: PipSettings) -> tuple[Mask, Floats, Floats]:
    """For each set of centred points: whether it lies on the face's pattern, its grid spacing
    and the pattern's turn (radians)."""
    if count == 1:
        size = len(centred)
        return (np.ones(size, dtype=np.bool_), np.full(size, settings.single_spacing, dtype=np.float32),
                np.zeros(size, dtype=np.float32))
    spacing = np.sqrt(np.mean(np.sum(centred ** 2, axis=2), axis=1)) / _PATTERN_RMS[count]
    patterns = _TURNED[count]  # (turns, count, 2)
    gaps = np.linalg.norm(centred[:, None, :, None, :] - spacing[:, None, None, None, None] * patterns[None, :, None],
                          axis=-1)
    misfits = (gaps.min(axis=3).mean(axis=2) + gaps.min(axis=2).mean(axis=2)) / 2.0 / np.maximum(spacing[:, None], 1e-6)
    turn = misfits.argmin(axis=1)
    low, high = settings.spacing_range
    fits = (misfits.min(axis=1) <= settings.max_misfit) & (spacing >= low) & (spacing <= high)
    return (np.asarray(fits, dtype=np.bool_), np.asarray(spacing, dtype=np.float32),
            np.asarray(_ANGLES[turn], dtype=np.float32))


def _face(strengths: Floats, places: Floats, members: Ints, centre: Floats, spacing: float, turn: float,
          settings: PipSettings) -> Face:
    """The face these marks would be (they passed ``_worth_fitting`` and fit its pattern)."""
    own = strengths[members]
    strongest, weakest = float(own.max()), float(own.min())
    outside = np.ones(len(strengths), dtype=np.bool_)
    outside[members] = False
    others = np.nonzero(outside)[0]
    on_face = _on_face(places[others] - centre, len(members), spacing, turn, settings)
    rival = float(strengths[others][on_face].max()) if on_face.any() else 0.0
    return Face(len(members), (weakest - rival) / strongest, tuple(int(i) for i in members),
                (float(centre[0]), float(centre[1])), spacing, turn)


def _on_face(offsets: Floats, count: int, spacing: float, turn: float, settings: PipSettings) -> Mask:
    """Which marks (offsets from a face's middle) lie on that face: within its square (the
    pattern's turn; a one's is any turn, so a disk) or near its middle on the die's top."""
    distance = np.hypot(offsets[:, 0], offsets[:, 1])
    near = distance <= settings.face_reach
    if count == 1:
        return np.asarray(near | (distance <= settings.face_half * spacing * np.sqrt(2.0)), dtype=np.bool_)
    cos, sin = float(np.cos(turn)), float(np.sin(turn))
    u = (offsets[:, 0] * cos + offsets[:, 1] * sin) / spacing
    v = (-offsets[:, 0] * sin + offsets[:, 1] * cos) / spacing
    square = (np.abs(u) <= settings.face_half) & (np.abs(v) <= settings.face_half)
    return np.asarray(near | square, dtype=np.bool_)


def _clutter(marks: Marks, face: Face, settings: PipSettings) -> float:
    """The strongest response on the face's part of the die away from its pips, as a share of
    its weakest pip: swirls of a marbled body, a half-seen pip, a pip in shadow."""
    zone = marks.allowed & (np.hypot(_XS - face.centre[0], _YS - face.centre[1]) <= settings.face_reach)
    clear = max(settings.clear, settings.clear_spacing * face.spacing)
    for index in face.members:
        x, y = marks.places[index]
        zone &= np.hypot(_XS - x, _YS - y) > clear
    if not zone.any():
        return 0.0
    weakest = float(marks.strengths[list(face.members)].min())
    return float(marks.response[zone].max()) / max(weakest, 1e-6)


def _sample(image: Floats, points: Floats) -> Floats:
    """The image at points given in die diameters from the middle of the canonical cut."""
    xy = np.clip(np.round(points * SIZE + (SIDE - 1) / 2.0), 0, SIDE - 1).astype(int)
    return np.asarray(image[xy[:, 1], xy[:, 0]], dtype=np.float32)


def _empty_cells(marks: Marks, face: Face) -> float:
    """The most ink (pip-sized blur of the contrast) at the face's empty 3x3 grid cells, as a
    share of its faintest pip's; for a one, on the ring where the corner pips of a three or
    five would lie.

    Why: the blob filter weighs each mark against its surroundings, so the middle pip of
    a five with big, close pips (four neighbours around it) can vanish from the marks; the
    plain ink still shows it where a four's pattern says the face is empty.
    """
    pips = marks.places[list(face.members)]
    level = float(_sample(marks.ink, pips).min())
    centre = np.asarray(face.centre, dtype=np.float32)
    if face.count == 1:
        angles = np.deg2rad(np.arange(0.0, 360.0, 15.0))
        ring = np.stack([np.cos(angles), np.sin(angles)], axis=1).astype(np.float32) * face.spacing * np.sqrt(2.0)
        empty = ring + centre
    else:
        cos, sin = float(np.cos(face.turn)), float(np.sin(face.turn))
        turn = np.array([[cos, sin], [-sin, cos]], dtype=np.float32)
        grid = np.array([(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)], dtype=np.float32)
        cells = grid @ turn * face.spacing + centre
        taken = np.linalg.norm(cells[:, None, :] - pips[None, :, :], axis=-1).min(axis=1) < 0.5 * face.spacing
        empty = cells[~taken]
    if len(empty) == 0:
        return 0.0
    return float(_sample(marks.ink, empty).max()) / max(level, 1e-6)


def _elongation(ink: Floats, place: Floats) -> float:
    """How much longer than wide the ink around ``place`` is (above half its peak there): the
    square root of its second moments' ratio, 1 for a round pip.

    Why: three small, close pips in a row (a three on a small die, dark red on a dark body)
    run together into one long mark in the blurred contrast and fit a one's pattern; a one's
    pip is round, and seen slanted rarely twice as long as wide. Measured on held-out train
    photos of the public set: three fewer wrong reads for three more refusals (docs/dice.md).
    """
    x, y = _sample_index(place)
    peak = float(ink[y, x])
    _, labels = cv2.connectedComponents((ink >= 0.5 * peak).astype(np.uint8))
    ys, xs = np.nonzero(labels == labels[y, x])
    if len(xs) < 5:
        return 1.0
    low, high = np.linalg.eigvalsh(np.cov(np.stack([xs, ys]).astype(np.float64)))
    return float(np.sqrt(high / max(low, 1e-6)))


def _sample_index(place: Floats) -> tuple[int, int]:
    """The pixel (x, y) of the canonical cut at a place given in die diameters from its middle."""
    x, y = np.clip(np.round(place * SIZE + (SIDE - 1) / 2.0), 0, SIDE - 1).astype(int)
    return int(x), int(y)


def _turned_patterns() -> dict[int, Floats]:
    """Each face's pip pattern (grid units) turned in 5 degree steps over half a turn (all are symmetric)."""
    turned = {}
    for count, points in PATTERNS.items():
        grid = np.asarray(points, dtype=np.float32)
        turned[count] = np.stack([grid @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]],
                                                  dtype=np.float32) for a in _ANGLES]).astype(np.float32)
    return turned


#: Where the pips of each face lie on the 3x3 grid (-1, 0, 1 each way).
PATTERNS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)), 5: ((-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1))}
_ANGLES = np.deg2rad(np.arange(0.0, 180.0, 5.0)).astype(np.float32)
_TURNED = _turned_patterns()
_PATTERN_RMS = {count: float(np.sqrt(np.mean(np.sum(np.asarray(points, dtype=np.float32) ** 2, axis=1))))
                for count, points in PATTERNS.items()}
_SUBSETS = {(size, count): np.asarray(list(combinations(range(size), count)), dtype=np.int64).reshape(-1, count)
            for size in range(1, MOST + 1) for count in range(1, 7) if count <= size}


def _sure_and_right(reading: PipCount, value: int) -> bool:
    """A face photo counted right, and surely enough for the reader to take it (``SURE``)."""
    return reading.count == value and reading.confidence >= SURE


def pip_area_of(faces: list[tuple[Image, Point, float, Mask | None, int]]) -> float | None:
    """The owner's pip size (which scales the counter's geometry), or None if the face photos
    mostly do not count right at any size.

    Why "count right": a die whose own face photos the counter misreads (a
    logo for the one, numerals, pips too faint) would only add wrong second
    opinions. A few misses are allowed: photos of many dice (the public set)
    hold some the counter cannot read, and those are refused one by one.
    Only sure counts are counted: a size that counts a photo right but too
    unsurely for the reader to take it helps no read (the drawn pip die's photos
    count right at the smallest size too, but surely only at a larger one).
    """
    if not faces:
        return None
    right: dict[float, int] = {}

    def counted_right(grow: float) -> int:
        if grow not in right:
            settings = PipSettings(pip_area=PIP_AREA * grow * grow)
            right[grow] = sum(_sure_and_right(count_pips(image, centre, diameter, settings), value)
                              for image, centre, diameter, _, value in faces)
        return right[grow]

    best_right = max(counted_right(grow) for grow in GROWTHS)
    if best_right < COUNTED_RIGHT * len(faces):
        return None
    good = [g for g in GROWTHS if right[g] >= NEARLY * best_right]
    # the smallest size that counts nearly as well: it looks less far from the middle, so it
    # meets fewer side faces and neighbours (on held-out train photos of the public set it
    # refused half as often as a size counting two photos more right); but not one at the
    # edge of the sizes that count right, where a die found a little smaller or larger in
    # the tray than at calibration already miscounts
    steady = (g for g in good if all(counted_right(g * side) >= NEARLY * best_right for side in SIDE_SIZES))
    return PIP_AREA * next(steady, good[0]) ** 2  # GROWTHS run smallest first
