"""Train the pip network (``hardware/dice/models/pip-d6.onnx``) from labelled crops of pip d6.

Usage (needs the ``train`` extra: PyTorch and onnx; the service never does)::

    python -m calibration.dice_evaluate --cut-boxes TRAIN crops/train
    python -m calibration.pipnet_training crops/train hardware/dice/models/pip-d6.onnx

TRAIN is the whole train split of the nell-byler pip set (its source, and the
part shipped with the tests: ``tests/data/dice/nell-byler/README.md``).

CROPS is laid out as ``<folder>/<face>/<image>``, one die filling the middle of
each crop (a labelled box with 15 % around it, as ``--cut-boxes`` writes).
Each epoch shows every die once, turned to any angle, a little larger or
smaller and off-centre, mirrored half the time, its colour channels shuffled
(the network must not learn that sixes are green), lighter or darker, blurred
and noisy, a third of them with a glare spot: the reader meets all of that at
the table. The network is small on purpose (about 60 000 weights): a Pi reads
a die with it in a few ms.

Why in ``calibration/``: it is how the reader's knowledge of pip dice is made,
beside how the owner's own dice are photographed; it runs on a laptop, once.
Retraining on the same crops gives a network of the same quality, not the same
bytes (the order the crops are read in and the machine's arithmetic differ).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from hardware.dice.imaging import Image, cut, read_image
from hardware.dice.pipnet import CUT, CUT_SPAN, FACES, SIDE, network_input, standardised
from hardware.dice.segment import middle_of
from hardware.dice.synthetic import glare_spot

BATCH = 64
RATE = 3e-3
GLARE = 0.3  # share of the pictures given a glare spot


def load_crops(folder: Path) -> tuple[np.ndarray, np.ndarray]:
    """Every crop of ``<folder>/<face>/<image>`` cut as the network's first cut, and its face."""
    wides, faces = [], []
    for face_folder in sorted(p for p in folder.iterdir() if p.is_dir() and p.name in {str(f) for f in range(1, 7)}):
        for path in sorted(face_folder.iterdir()):
            image = read_image(str(path))
            if image is None:
                continue
            blob = middle_of(image)
            wides.append(cut(image, blob.centre, blob.diameter * CUT_SPAN, CUT))
            faces.append(int(face_folder.name))
    if not wides:
        raise SystemExit(f"{folder}: no crops in <face>/<image> folders 1..6")
    return np.stack(wides), np.asarray(faces)


def shaken(wide: Image, rng: np.random.Generator) -> Image:
    """The network's input from an 80 px cut, turned, scaled, moved and relit at random, and now
    and then with a glare spot on the die's top (without them it took a lamp's highlight on a
    glossy face for a one's pip)."""
    if rng.random() < GLARE:
        middle = (CUT - 1) / 2.0
        wide = glare_spot(wide, (middle + rng.uniform(-10, 10), middle + rng.uniform(-10, 10)), rng)
    grow = rng.uniform(0.88, 1.12)
    angle = rng.uniform(0.0, 360.0)
    shift = rng.uniform(-2.5, 2.5, 2)
    picture = network_input(wide, angle, grow, (float(shift[0]), float(shift[1])))
    if rng.random() < 0.5:
        picture = picture[:, ::-1]
    relit = picture[:, :, rng.permutation(3)].astype(np.float32) * rng.uniform(0.7, 1.3) + rng.uniform(-25, 25)
    if rng.random() < 0.3:
        relit = np.asarray(cv2.GaussianBlur(relit, (0, 0), rng.uniform(0.3, 1.0)), dtype=np.float32)
    relit = np.asarray(relit + rng.normal(0.0, rng.uniform(0.0, 6.0), relit.shape), dtype=np.float32)
    return np.ascontiguousarray(np.clip(relit, 0, 255).astype(np.uint8))


def standardised_batch(pictures: list[Image]) -> np.ndarray:
    """As the reader does, for a batch."""
    return np.stack([standardised(picture) for picture in pictures])


def network(torch: Any) -> Any:
    """Four 3x3 convolutions (16, 32, 64, 64 channels), halving the size between them,
    averaged over the picture, then one layer to the six faces."""
    nn = torch.nn

    def block(inputs: int, outputs: int) -> list[Any]:
        return [nn.Conv2d(inputs, outputs, 3, padding=1, bias=False), nn.BatchNorm2d(outputs), nn.ReLU()]

    return nn.Sequential(*block(3, 16), nn.MaxPool2d(2), *block(16, 32), nn.MaxPool2d(2), *block(32, 64),
                         nn.MaxPool2d(2), *block(64, 64), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2),
                         nn.Linear(64, FACES))


def train(wides: np.ndarray, faces: np.ndarray, epochs: int, seed: int) -> Any:
    """The trained network (in evaluation mode)."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = network(torch)
    optimiser = torch.optim.AdamW(model.parameters(), RATE, weight_decay=1e-3)
    steps = epochs * math.ceil(len(wides) / BATCH)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, RATE, total_steps=steps)
    loss = torch.nn.CrossEntropyLoss(label_smoothing=0.05)  # a few labels in public sets are wrong
    for epoch in range(epochs):
        model.train()
        order = rng.permutation(len(wides))
        total = 0.0
        for start in range(0, len(wides), BATCH):
            chosen = order[start:start + BATCH]
            batch = torch.from_numpy(standardised_batch([shaken(wides[i], rng) for i in chosen]))
            wanted = torch.from_numpy(faces[chosen] - 1).long()
            optimiser.zero_grad()
            step_loss = loss(model(batch), wanted)
            step_loss.backward()
            optimiser.step()
            schedule.step()
            total += float(step_loss.detach()) * len(chosen)
        if (epoch + 1) % 20 == 0:
            print(f"epoch {epoch + 1}/{epochs}: loss {total / len(wides):.3f}", flush=True)
    return model.eval()


def export(model: Any, target: Path) -> None:
    """An ONNX file OpenCV's DNN module reads (opset 13, one picture or a batch)."""
    import torch

    target.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, SIDE, SIDE), str(target), input_names=["face"],
                      output_names=["logits"], dynamic_axes={"face": {0: "dice"}, "logits": {0: "dice"}},
                      opset_version=13, dynamo=False)


def main(argv: list[str] | None = None) -> int:
    ask = argparse.ArgumentParser(prog="python -m calibration.pipnet_training", description=__doc__.split("\n")[0])
    ask.add_argument("crops", type=Path, help="<folder>/<face>/<image> crops of pip d6 (faces 1..6)")
    ask.add_argument("target", type=Path, help="where to write the network (.onnx)")
    ask.add_argument("--epochs", type=int, default=200)
    ask.add_argument("--seed", type=int, default=0)
    arguments = ask.parse_args(argv)
    wides, faces = load_crops(arguments.crops)
    print(f"{len(wides)} dice: " + ", ".join(f"{f}: {int((faces == f).sum())}" for f in range(1, 7)))
    export(train(wides, faces, arguments.epochs, arguments.seed), arguments.target)
    print(f"written {arguments.target}; check it with python -m calibration.dice_evaluate ... --style pips")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
