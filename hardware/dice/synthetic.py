"""Synthetic dice pictures for tests: faces drawn in any turn, size, blur,
glare, noise and light, on changing tray backgrounds.

Why: the Monster die's HIT, POW and blank faces have no public photos, and
tests need many throws with known answers (touching dice, glare, a dimmer
room). Synthetic pictures are used *beside* the real photos, never instead:
the accuracy the documentation states comes from the real ones. The icons are
our own simple drawings (a claw mark for HIT, a burst for POW), not the game's
art; calibration takes the owner's real dice anyway.

Also here: ``relocate``, which makes new throws from a *real* tray photo by
cutting its die out, turning it and putting it elsewhere in the tray, with
light changes; the tests read such throws after calibrating on the originals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .imaging import Image, Mask, Point

SUPER = 4  # draw at 4x, then shrink: smooth edges like a photo
Colour = tuple[int, int, int]
PIP_SPOTS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)]}


@dataclass(frozen=True)
class DieLook:
    """How a synthetic die looks: ``kind`` ("monster", "d6", "d20"), body and
    ink colours (BGR), ``size`` in px across, and pips or numerals for a d6."""

    kind: str = "monster"
    body: Colour = (52, 38, 44)
    ink: Colour = (215, 230, 236)
    size: int = 56
    pips: bool = False


MONSTER_LOOK = DieLook()
D6_PIPS_LOOK = DieLook("d6", body=(235, 236, 240), ink=(30, 30, 30), size=52, pips=True)
D20_LOOK = DieLook("d20", body=(40, 40, 170), ink=(240, 240, 240), size=62)


@dataclass(frozen=True)
class Placed:
    label: str
    look: DieLook
    centre: Point
    angle: float


# -- one face ---------------------------------------------------------------------------------

def face_image(look: DieLook, label: str) -> tuple[Image, Image]:
    """The die seen from above (BGR) and its coverage (0..255), ``look.size`` px square."""
    side = look.size * SUPER
    image = np.zeros((side, side, 3), np.uint8)
    alpha = np.zeros((side, side), np.uint8)
    if look.kind == "d20":
        _d20_body(image, alpha, look)
    else:
        _cube_body(image, alpha, look)
    _mark(image, look, label)
    return _shrink(image, look.size), _shrink(alpha, look.size)


def _shrink(image: Image, size: int) -> Image:
    return np.asarray(cv2.resize(image, (size, size), interpolation=cv2.INTER_AREA), dtype=np.uint8)


def _darker(colour: Colour, factor: float) -> Colour:
    return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))


def _cube_body(image: Image, alpha: Image, look: DieLook) -> None:
    """A rounded square, its rim a little darker (the bevel a real die shows)."""
    side = image.shape[0]
    _rounded_square(image, side * 0.02, side * 0.98, side * 0.16, _darker(look.body, 0.75))
    _rounded_square(alpha, side * 0.02, side * 0.98, side * 0.16, 255)
    _rounded_square(image, side * 0.07, side * 0.93, side * 0.13, look.body)


def _rounded_square(image: Image, low: float, high: float, radius: float, colour: Colour | int) -> None:
    points = []
    for cx, cy, start in ((high - radius, low + radius, -90), (high - radius, high - radius, 0),
                          (low + radius, high - radius, 90), (low + radius, low + radius, 180)):
        for step in range(0, 91, 10):
            angle = math.radians(start + step)
            points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    fill = colour if isinstance(colour, tuple) else (colour, colour, colour)
    cv2.fillPoly(image, [np.array(points, np.int32)], fill[: image.shape[2]] if image.ndim == 3 else colour)


def _d20_body(image: Image, alpha: Image, look: DieLook) -> None:
    """A hexagon outline with a lighter triangle on top and the neighbours' numbers around."""
    side = image.shape[0]
    middle = side / 2
    hexagon = [(middle + 0.48 * side * math.cos(math.radians(a)), middle + 0.48 * side * math.sin(math.radians(a)))
               for a in range(30, 390, 60)]
    cv2.fillPoly(image, [np.array(hexagon, np.int32)], _darker(look.body, 0.8))
    cv2.fillPoly(alpha, [np.array(hexagon, np.int32)], 255)
    triangle = [(middle + 0.36 * side * math.cos(math.radians(a)), middle + 0.36 * side * math.sin(math.radians(a)))
                for a in (-90, 30, 150)]
    cv2.fillPoly(image, [np.array(triangle, np.int32)], look.body)
    for k, angle in enumerate((-30, 90, 210)):
        x = middle + 0.37 * side * math.cos(math.radians(angle))
        y = middle + 0.37 * side * math.sin(math.radians(angle))
        _text(image, str(7 + 4 * k), (x, y), side * 0.09, look.ink, angle + 90)


def _mark(image: Image, look: DieLook, label: str) -> None:
    side = image.shape[0]
    if label == "hit":
        _claw(image, side, look.ink)
    elif label == "pow":
        _burst(image, side, look.ink)
    elif label == "blank":
        return
    elif look.pips:
        _pips(image, side, int(label), look.ink)
    elif look.kind == "d20" and label == "20":
        _burst(image, side, look.ink, points=5, outer=0.16)
    else:
        _numeral(image, side, label, look)


def _claw(image: Image, side: int, ink: Colour) -> None:
    """HIT: three slanted claw scratches."""
    for offset in (-0.14, 0.0, 0.14):
        start = (int(side * (0.36 + offset)), int(side * 0.28))
        end = (int(side * (0.56 + offset)), int(side * 0.72))
        cv2.line(image, start, end, ink, int(side * 0.075), cv2.LINE_AA)


def _burst(image: Image, side: int, ink: Colour, points: int = 8, outer: float = 0.27) -> None:
    """POW (and the d20's symbol face): a spiky star."""
    middle = side / 2
    star = []
    for k in range(points * 2):
        radius = side * (outer if k % 2 == 0 else outer * 0.45)
        angle = math.pi * k / points - math.pi / 2
        star.append((middle + radius * math.cos(angle), middle + radius * math.sin(angle)))
    cv2.fillPoly(image, [np.array(star, np.int32)], ink, cv2.LINE_AA)


def _pips(image: Image, side: int, value: int, ink: Colour) -> None:
    step = side * 0.25
    for gx, gy in PIP_SPOTS[value]:
        centre = (int(side / 2 + gx * step), int(side / 2 + gy * step))
        cv2.circle(image, centre, int(side * 0.085), ink, -1, cv2.LINE_AA)


def _numeral(image: Image, side: int, label: str, look: DieLook) -> None:
    height = side * (0.30 if look.kind == "d20" else 0.46)
    _text(image, label, (side / 2, side / 2), height, look.ink, 0.0)
    if label in ("6", "9"):  # the mark that tells 6 from 9, as on real dice
        y = int(side / 2 + height * 0.62)
        cv2.line(image, (int(side * 0.40), y), (int(side * 0.60), y), look.ink, int(side * 0.04))


def _text(image: Image, text: str, centre: Point, height: float, ink: Colour, angle: float) -> None:
    """Text of about ``height`` px, centred and turned, drawn on its own layer."""
    font = cv2.FONT_HERSHEY_DUPLEX
    scale = height / 22.0
    thickness = max(1, int(height / 7))
    (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
    layer: np.ndarray = np.zeros(image.shape[:2], np.uint8)
    cv2.putText(layer, text, (int(centre[0] - w / 2), int(centre[1] + h / 2)), font, scale, 255, thickness,
                cv2.LINE_AA)
    if angle:
        matrix = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), -angle, 1.0)
        layer = cv2.warpAffine(layer, matrix, (layer.shape[1], layer.shape[0]))
    image[layer > 127] = ink


# -- trays and scenes -------------------------------------------------------------------------

def tray_image(width: int, height: int, rng: np.random.Generator, colour: Colour | None = None) -> Image:
    """An empty tray: felt of one colour, a little grain and a soft light gradient."""
    base = np.array(colour if colour is not None else (int(rng.integers(20, 90)), int(rng.integers(30, 100)),
                                                       int(rng.integers(20, 90))), np.float32)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    light = 1.0 + 0.12 * ((xx / width - 0.5) * rng.uniform(-1, 1) + (yy / height - 0.5) * rng.uniform(-1, 1))
    grain = np.asarray(cv2.GaussianBlur(rng.normal(0, 4.0, (height, width)).astype(np.float32), (0, 0), 1.0))
    image = base[None, None, :] * light[..., None] + grain[..., None]
    return np.asarray(np.clip(image, 0, 255), dtype=np.uint8)


def place(view: Image, look: DieLook, label: str, centre: Point, angle: float, scale: float = 1.0) -> None:
    """Draw one die on ``view`` (in place) turned by ``angle`` degrees, with a soft shadow."""
    face, alpha = face_image(look, label)
    size = int(math.ceil(look.size * scale * 1.5)) | 1
    turned, cover = _turn(face, alpha, angle, scale, size)
    _shadow(view, cover, centre)
    _blend(view, turned, cover, centre)


def _turn(face: Image, alpha: Image, angle: float, scale: float, size: int) -> tuple[Image, Image]:
    middle = (face.shape[1] - 1) / 2.0
    matrix = cv2.getRotationMatrix2D((middle, middle), angle, scale)
    matrix[0, 2] += (size - 1) / 2.0 - middle
    matrix[1, 2] += (size - 1) / 2.0 - middle
    turned = cv2.warpAffine(face, matrix, (size, size), flags=cv2.INTER_LINEAR)
    cover = cv2.warpAffine(alpha, matrix, (size, size), flags=cv2.INTER_LINEAR)
    return np.asarray(turned, dtype=np.uint8), np.asarray(cover, dtype=np.uint8)


def _window(view: Image, centre: Point, size: int) -> tuple[slice, slice, slice, slice] | None:
    x0, y0 = int(round(centre[0] - (size - 1) / 2)), int(round(centre[1] - (size - 1) / 2))
    xa, ya = max(0, x0), max(0, y0)
    xb, yb = min(view.shape[1], x0 + size), min(view.shape[0], y0 + size)
    if xa >= xb or ya >= yb:
        return None
    return slice(ya, yb), slice(xa, xb), slice(ya - y0, yb - y0), slice(xa - x0, xb - x0)


def _blend(view: Image, patch: Image, cover: Image, centre: Point) -> None:
    window = _window(view, centre, patch.shape[0])
    if window is None:
        return
    vy, vx, py, px = window
    weight = cover[py, px, None].astype(np.float32) / 255.0
    mixed = view[vy, vx].astype(np.float32) * (1 - weight) + patch[py, px].astype(np.float32) * weight
    view[vy, vx] = np.clip(mixed, 0, 255).astype(np.uint8)


def _shadow(view: Image, cover: Image, centre: Point) -> None:
    soft = cv2.GaussianBlur(cover, (0, 0), max(1.0, cover.shape[0] / 30))
    shade = np.zeros((*cover.shape, 3), np.uint8)
    _blend(view, shade, (soft * 0.35).astype(np.uint8), (centre[0] + 2, centre[1] + 3))


def scene(background: Image, dice: list[tuple[DieLook, str]], rng: np.random.Generator,
          touching: bool = False, scale: tuple[float, float] = (1.0, 1.0)) -> tuple[Image, list[Placed]]:
    """A tray view with ``dice`` thrown in at random turns and places.

    ``touching``: the second die lies against the first, edge to edge (the
    hardest case for splitting: two squares that make one rectangle).
    ``scale``: each die drawn this much larger or smaller (a die nearer the
    camera, a lens that is not quite flat).
    """
    view = background.copy()
    placed: list[Placed] = []
    for look, label in dice:
        if touching and len(placed) == 1:
            centre, angle = _touching_spot(placed[0], look, rng, (view.shape[1], view.shape[0]))
        else:
            centre, angle = _free_spot(view, placed, look, rng), float(rng.uniform(0, 360))
        place(view, look, label, centre, angle, float(rng.uniform(*scale)))
        placed.append(Placed(label, look, centre, angle))
    return view, placed


def _free_spot(view: Image, placed: list[Placed], look: DieLook, rng: np.random.Generator) -> Point:
    margin = look.size
    for _ in range(200):
        spot = (float(rng.uniform(margin, view.shape[1] - margin)), float(rng.uniform(margin, view.shape[0] - margin)))
        if all(math.dist(spot, p.centre) > 1.6 * max(look.size, p.look.size) for p in placed):
            return spot
    raise ValueError("the tray is too small for that many dice")


def _touching_spot(first: Placed, look: DieLook, rng: np.random.Generator,
                   bounds: tuple[int, int]) -> tuple[Point, float]:
    """Against one side of the first die, turned the same way (face to face), inside the tray."""
    gap = 0.5 * (first.look.size + look.size) * 0.97  # the drawn dice have rounded, slightly inset edges
    sides = [int(k) for k in rng.permutation(4)]
    for side in sides:
        direction = math.radians(-first.angle + 90 * side)
        centre = (first.centre[0] + gap * math.cos(direction), first.centre[1] + gap * math.sin(direction))
        if look.size * 0.75 <= centre[0] <= bounds[0] - look.size * 0.75 and \
                look.size * 0.75 <= centre[1] <= bounds[1] - look.size * 0.75:
            return centre, first.angle
    raise ValueError("no room beside the first die")


# -- photo changes ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Changes:
    """How much a picture may change: light gain, gamma, colour cast, noise
    (grey levels), blur (px), and the chance of a glare spot."""

    gain: tuple[float, float] = (0.75, 1.25)
    gamma: tuple[float, float] = (0.8, 1.25)
    cast: float = 0.08
    noise: float = 4.0
    blur: float = 1.0
    glare: float = 0.0


REFERENCE_DIAMETER = 50.0  # px: the size of die the changes' blur was chosen for (the dicetower photos)


def changes_for(diameter: float, changes: Changes = Changes()) -> Changes:
    """``changes`` with the blur scaled down for a die under 50 px across (to half the blur at 25 px
    or less): a pixel of blur takes a 25 px die's numerals, where a 50 px die keeps them."""
    return replace(changes, blur=changes.blur * min(1.0, max(0.5, diameter / REFERENCE_DIAMETER)))


def photo_changes(image: Image, rng: np.random.Generator, changes: Changes = Changes(),
                  glare_at: Point | None = None) -> Image:
    """The same picture in other light: brighter or dimmer, warmer or colder, noisier, softer."""
    result = np.asarray(cv2.LUT(image, _light_table(rng, changes)), dtype=np.uint8)
    if glare_at is not None and rng.random() < changes.glare:
        result = glare_spot(result, glare_at, rng)
    if changes.noise > 0:
        result = _noisy(result, rng, float(rng.uniform(0, changes.noise)))
    if changes.blur > 0 and rng.random() < 0.5:
        result = np.asarray(cv2.GaussianBlur(result, (0, 0), rng.uniform(0.3, changes.blur)), dtype=np.uint8)
    return result


def _light_table(rng: np.random.Generator, changes: Changes) -> Image:
    """One lookup table per channel: gain, colour cast and gamma together."""
    levels = np.arange(256, dtype=np.float32)[:, None] * rng.uniform(*changes.gain)
    levels = levels * np.array([1.0 + rng.uniform(-changes.cast, changes.cast) for _ in range(3)], np.float32)
    levels = 255.0 * (np.clip(levels, 0, 255) / 255.0) ** rng.uniform(*changes.gamma)
    return np.asarray(np.clip(levels, 0, 255), dtype=np.uint8).reshape(1, 256, 3)


def _noisy(image: Image, rng: np.random.Generator, sigma: float) -> Image:
    """Sensor noise; drawn by OpenCV (fast) from a seed taken from ``rng`` (repeatable)."""
    cv2.setRNGSeed(int(rng.integers(2 ** 31 - 1)))
    noise = np.zeros(image.shape, np.int16)
    cv2.randn(noise, np.zeros(3), np.full(3, sigma))
    return np.asarray(cv2.add(image, noise, dtype=cv2.CV_8U), dtype=np.uint8)


def glare_spot(image: Image, near: Point, rng: np.random.Generator) -> Image:
    """A small specular highlight near ``near`` (a lamp reflected in a glossy die): about a pip's
    size on a 50 px die, so a reader must not take it for one."""
    spot: np.ndarray = np.zeros(image.shape[:2], np.uint8)
    x, y = near[0] + rng.uniform(-6, 6), near[1] + rng.uniform(-6, 6)
    axes = (int(rng.uniform(2, 6)), int(rng.uniform(1, 3)))
    cv2.ellipse(spot, (int(x), int(y)), axes, float(rng.uniform(0, 180)), 0, 360, 160, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), 1.5)
    return np.asarray(cv2.add(image, cv2.merge([spot, spot, spot])), dtype=np.uint8)


def relocate(view: Image, centre: Point, diameter: float, rng: np.random.Generator,
             scale: tuple[float, float] = (0.96, 1.04), inside: Mask | None = None) -> tuple[Image, Point]:
    """A new throw from a real tray photo: its die cut out, turned, and put elsewhere in the tray
    (``inside``: within a tray outline, ``TrayGeometry.inside``).

    The old place is filled from the tray around it (inpainting); the die is
    carried with a soft round edge, so only tray pixels blend at the seam.
    Works on small windows, so it stays cheap on big photos.
    """
    target = spot_in_tray(view.shape[:2], diameter, rng, inside)
    result = _inpainted(view, centre, 0.78 * diameter)
    carry(result, view, centre, diameter, target, float(rng.uniform(0, 360)), float(rng.uniform(*scale)))
    return result, target


def spot_in_tray(shape: tuple[int, ...], diameter: float, rng: np.random.Generator,
                 inside: Mask | None = None) -> Point:
    """A random place for a die's middle, a diameter from the view's edge (or a tray outline's rim)."""
    height, width = shape[:2]
    if inside is not None:
        size = int(2 * diameter) | 1
        room = cv2.erode(inside.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
        ys, xs = np.nonzero(room)
        if len(xs):
            pick = int(rng.integers(len(xs)))
            return float(xs[pick]), float(ys[pick])
    return float(rng.uniform(diameter, width - diameter)), float(rng.uniform(diameter, height - diameter))


def carry(view: Image, source: Image, centre: Point, diameter: float, target: Point, angle: float,
          scale: float = 1.0, shape: Image | None = None) -> None:
    """Paste the die at ``centre`` of a real ``source`` photo onto ``view`` at ``target``, turned (in place).

    ``shape`` (a 0/255 mask the size of ``source``) carries only the die's own
    pixels, so a die can be put right against another; without it a soft disk
    around the die is carried (tray included).
    """
    radius = 0.78 * diameter
    side = int(2 * radius + 8) | 1
    patch = _turned_patch(source, centre, side, angle, scale)
    if shape is None:
        _paste_round(view, patch, target, radius * scale)
        return
    cover = _turned_patch(np.asarray(cv2.merge([shape, shape, shape]), dtype=np.uint8), centre, side, angle, scale)[:, :, 0]
    _blend(view, patch, np.asarray(cv2.GaussianBlur(cover, (3, 3), 0), dtype=np.uint8), target)


def _turned_patch(view: Image, centre: Point, side: int, angle: float, scale: float) -> Image:
    matrix = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle, scale)
    matrix[0, 2] += (side - 1) / 2.0 - centre[0]
    matrix[1, 2] += (side - 1) / 2.0 - centre[1]
    return np.asarray(cv2.warpAffine(view, matrix, (side, side), borderMode=cv2.BORDER_REPLICATE), dtype=np.uint8)


def _inpainted(view: Image, centre: Point, radius: float) -> Image:
    """``view`` with the die's disk filled with the tray colour around it (feathered edge)."""
    result = view.copy()
    reach = int(radius * 1.6)
    x0, y0 = max(0, int(centre[0]) - reach), max(0, int(centre[1]) - reach)
    x1, y1 = min(view.shape[1], int(centre[0]) + reach), min(view.shape[0], int(centre[1]) + reach)
    window = view[y0:y1, x0:x1]
    hole: np.ndarray = np.zeros(window.shape[:2], np.uint8)
    cv2.circle(hole, (int(centre[0]) - x0, int(centre[1]) - y0), int(radius), 255, -1)
    fill = np.median(window[hole == 0].reshape(-1, 3), axis=0)
    weight = cv2.GaussianBlur(hole.astype(np.float32) / 255.0, (0, 0), 2.0)[..., None]
    mixed = window.astype(np.float32) * (1 - weight) + fill.astype(np.float32) * weight
    result[y0:y1, x0:x1] = np.clip(mixed, 0, 255).astype(np.uint8)
    return result


def _paste_round(view: Image, patch: Image, centre: Point, radius: float) -> None:
    side = patch.shape[0]
    carry: np.ndarray = np.zeros((side, side), np.float32)
    cv2.circle(carry, (side // 2, side // 2), int(radius), 1.0, -1)
    cover = np.asarray(np.clip(cv2.GaussianBlur(carry, (0, 0), 2.0) * 255, 0, 255), dtype=np.uint8)
    _blend(view, patch, cover, centre)
