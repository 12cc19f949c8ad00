"""A small neural network's view of a pip d6's top face: a third opinion beside the
face photos and the pip count.

Why: the pip counter (``pips.py``) sees marks and patterns, so its mistakes are a
side face's pips or a glare spot joining the face, and pips lost in a dark
body. A network trained on photos of many pip dice looks at the whole face and
errs elsewhere; where the two agree, the read is far surer than either alone.
On the train split of the public pip set (docs/dice.md) the network alone is
right about 19 times in 20, the counter with the photos refuses 9 % and
misreads 9 dice of 1487 (five of those wrongly labelled); with the network's
veto and its backing 8.4 % refused and 5 misread (the wrongly labelled five); measured
before glare spots were added to its training (on train fold 0 that about halved the
misread new throws: docs/dice.md, "Glare").

The network (``models/pip-d6.onnx``, ~60 000 weights, 48x48 colour input) was
trained with ``calibration/pipnet_training.py`` on the train split of the
public pip set only, and runs here through OpenCV's DNN module: no extra
library on the Pi. Its input is made exactly as in training: the die cut at
1.6 of its diameter into 80 px, turned, then scaled so it is about 34 px across
in 48, each picture standardised on its own (any die colour, any light). It is
read in four turns and the answers averaged.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .imaging import Floats, Image, Point, cut

MODEL_FILE = Path(__file__).with_name("models") / "pip-d6.onnx"
SIDE = 48  # the network's input, px
CUT = 80  # px of the first cut, the die 1.6 of its diameter
CUT_SPAN = 1.6
INPUT_SPAN = 1.4  # the die fills 1/1.4 of the network's input
TURNS = (0.0, 90.0, 45.0, 135.0)  # degrees the die is read in, answers averaged
FACES = 6


class PipNetError(ValueError):
    """The network file is missing or not a network this reader can run."""


@dataclass(frozen=True)
class NetView:
    """How likely each count (1..6) is, as the network sees the die."""

    chances: tuple[float, ...]

    def of(self, count: int) -> float:
        return self.chances[count - 1] if 1 <= count <= FACES else 0.0

    @property
    def best(self) -> int:
        return int(np.argmax(self.chances)) + 1


class PipNet:
    """The trained network, loaded once and shared: the dice watcher's thread reads with it
    while a tablet's calibration may check face photos with it, so one forward pass runs at
    a time (an OpenCV network holds its input and output between calls)."""

    def __init__(self, path: Path = MODEL_FILE) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            self._net = cv2.dnn.readNetFromONNX(str(path))
        except cv2.error as error:
            raise PipNetError(f"{path}: cannot be read as a network ({_what_opencv_said(error)})") from error
        self._check()

    def view(self, image: Image, centre: Point, diameter: float) -> NetView:
        """The network's chances for the die at ``centre`` (``diameter`` px across)."""
        wide = cut(image, centre, diameter * CUT_SPAN, CUT)
        batch = np.stack([standardised(network_input(_turned(wide, turn))) for turn in TURNS])
        with self._lock:
            self._net.setInput(batch)
            logits = np.asarray(self._net.forward(), dtype=np.float64)
        return NetView(tuple(float(c) for c in _softmax(logits).mean(axis=0)))

    def _check(self) -> None:
        """A network that does not answer six chances for one picture is not ours."""
        self._net.setInput(np.zeros((1, 3, SIDE, SIDE), dtype=np.float32))
        try:
            shape = np.asarray(self._net.forward()).shape
        except cv2.error as error:
            raise PipNetError(f"{self.path}: does not run on a {SIDE}x{SIDE} picture ({_what_opencv_said(error)})") from error
        if shape != (1, FACES):
            raise PipNetError(f"{self.path}: answers {shape}, not one chance per face (1, {FACES})")


@lru_cache(maxsize=4)
def shipped_net(path: Path = MODEL_FILE) -> PipNet:
    """The network that ships with the reader, loaded on first use (a few ms) and kept."""
    return PipNet(path)


def _turned(wide: Image, turn: float) -> Image:
    if turn == 0.0:
        return wide
    middle = (CUT - 1) / 2.0
    matrix = cv2.getRotationMatrix2D((middle, middle), turn, 1.0)
    return np.asarray(cv2.warpAffine(wide, matrix, (CUT, CUT), borderMode=cv2.BORDER_REPLICATE), dtype=np.uint8)


def network_input(wide: Image, angle: float = 0.0, grow: float = 1.0,
                  shift: tuple[float, float] = (0.0, 0.0)) -> Image:
    """The 80 px cut scaled to the network's side (the die about 34 px across). Training turns,
    grows and shifts it at random through the same function, so reading and training share
    one geometry."""
    middle = (CUT - 1) / 2.0
    scale = SIDE / (CUT / CUT_SPAN * INPUT_SPAN) * grow
    matrix = cv2.getRotationMatrix2D((middle, middle), angle, scale)
    matrix[0, 2] += SIDE / 2.0 - middle + shift[0]
    matrix[1, 2] += SIDE / 2.0 - middle + shift[1]
    flags = cv2.INTER_AREA if scale < 0.8 else cv2.INTER_LINEAR
    return np.asarray(cv2.warpAffine(wide, matrix, (SIDE, SIDE), flags=flags, borderMode=cv2.BORDER_REPLICATE),
                      dtype=np.uint8)


def standardised(picture: Image) -> Floats:
    """Channels first, the picture's own mean taken off and divided by its spread (+1)."""
    values = picture.astype(np.float32)
    spread = float(values.std()) + 1.0
    return np.asarray(((values - float(values.mean())) / spread).transpose(2, 0, 1), dtype=np.float32)


def _softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return np.asarray(shifted / shifted.sum(axis=1, keepdims=True))


def _what_opencv_said(error: Exception) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[-1] if lines else type(error).__name__
