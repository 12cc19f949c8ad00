"""How fast the dice camera's work is on this machine, against the table's targets.

Two figures, on 640x480 camera frames and on 1296x950 ones (a Pi camera's binned mode, the die
150 px across in a hexagonal tray whose outline was tapped):

1. the settle check, run on every frame (target: under 3 ms), and
2. a full read of a settled tray (target: under 60 ms): the frame turned into
   the top-down tray view, the dice found against the empty tray, each die's
   kind and face read.

A Raspberry Pi 4 is about five times slower than a desktop core, so these
targets leave it about 15 ms per frame and 300 ms per read. The trays are
made from the real dicetower photos shipped with the tests (a d20 and two d6
with numerals, two of them touching; ``tests/data/dice/README.md``) and from
synthetic Monster dice and pip d6. Each figure is printed with PASS or over-target, and
the command and Python version first, so a pasted result says what made it.
Run with the project's interpreter: ``.venv/bin/python benchmarks/bench_dice.py``.
"""

from __future__ import annotations

import argparse
import gc
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from calibration.dice import (DiceCalibration, FaceSession, TrayGeometry, TraySession,  # noqa: E402
                              aligned_background, suggest_threshold)
from hardware.dice.calibrated import SelfTestResult  # noqa: E402
from hardware.dice.imaging import Image, read_image  # noqa: E402
from hardware.dice.pipnet import shipped_net  # noqa: E402
from hardware.dice.reader import DiceReader, Expect  # noqa: E402
from hardware.dice.settle import SettleDetector  # noqa: E402
from hardware.dice.synthetic import (D6_PIPS_LOOK, MONSTER_LOOK, Changes, DieLook, carry,  # noqa: E402
                                     photo_changes, scene, tray_image)

SETTLE_TARGET_MS = 3.0
READ_TARGET_MS = 60.0
FRAME = (640, 480)
BIG_FRAME = (1296, 950)  # a Raspberry Pi camera's binned mode
DICETOWER = Path(__file__).resolve().parents[1] / "tests" / "data" / "dice" / "dicetower"
TOWER_TAPS = ((26.5, 31.5), (414.0, 34.0), (411.5, 414.0), (24.0, 416.5))  # the tray's corners in those photos


def ms_since(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0


def verdict(value: float, target: float) -> str:
    return "PASS" if value < target else f"over-target (target < {target:g} ms)"


#: The processor time of the last ``timed`` runs (ms each): what this process used, which a busy
#: machine (other test suites running) inflates far less than the wall clock.
CPU: list[float] = []


def timed(work: Callable[[], object], runs: int) -> list[float]:
    """Milliseconds per run, after two warm-up runs (first-call costs do not count)."""
    work(), work()
    samples = []
    CPU.clear()
    for _ in range(runs):
        start, used = time.perf_counter(), time.process_time()
        work()
        samples.append(ms_since(start))
        CPU.append((time.process_time() - used) * 1000.0)
    return samples


def line(name: str, samples: list[float], target: float) -> str:
    median = statistics.median(samples)
    p90 = statistics.quantiles(samples, n=10, method="inclusive")[8]
    cpu = statistics.median(CPU) if len(CPU) == len(samples) else float("nan")
    return (f"{name:<52} median {median:6.2f}  p90 {p90:6.2f}  max {max(samples):6.2f} ms  (processor {cpu:6.2f})  "
            f"{verdict(median, target)}")


# -- frames -------------------------------------------------------------------------------------

def tower(die: str, value: str) -> Image:
    return shipped(DICETOWER / die / value / "1.jpg")


def shipped(path: Path) -> Image:
    image = read_image(str(path))
    assert image is not None, f"{path} is missing (tests/data/dice/README.md lists the shipped photos)"
    return image


def tower_reader() -> DiceReader:
    """The owner's procedure on the real photos (448x464 frames: the tray and a margin)."""
    first = tower("d20", "1")
    size = (first.shape[1], first.shape[0])
    tray = TrayGeometry.from_corners(TOWER_TAPS, size, "taps")
    empty = tray.warp(aligned_background(shipped(DICETOWER / "background.jpg"), first))
    session = TraySession(size)
    session.use_taps(TOWER_TAPS, first)
    session.add_empty(aligned_background(shipped(DICETOWER / "background.jpg"), first))
    base = session.result()
    calibration = DiceCalibration(tray, empty, suggest_threshold(tray.warp(first), empty), scene=base.scene)
    for kind in ("d20", "d6"):
        faces = FaceSession(calibration, kind)
        while faces.current is not None:
            faces.capture(tower(kind, faces.current))
        calibration = calibration.with_profile(faces.profile())
        calibration = calibration.with_self_test(kind, SelfTestResult(12, 12, 0, 0, True))  # timing only: no gate
    return DiceReader(calibration)


def tower_frame(reader: DiceReader) -> Image:
    """A camera frame of the real tray with a d20 and two d6 (one touching the d20)."""
    tray = reader.calibration.tray
    view = tray.warp(tower("d20", "17"))
    d20 = max(reader.finder.find(view).blobs, key=lambda b: b.area)
    for value, offset, turn in (("3", 0.47, 40.0), ("5", 1.6, 75.0)):
        source = tray.warp(tower("d6", value))
        d6 = max(reader.finder.find(source).blobs, key=lambda b: b.area)
        at = (d20.centre[0] + offset * (d20.diameter + d6.diameter), d20.centre[1])
        carry(view, source, d6.centre, d6.diameter, at, turn, shape=_shape(source, d6.box, d6.mask))
    inverse = np.linalg.inv(tray.matrix())
    frame = tower("d20", "17").copy()
    size = (frame.shape[1], frame.shape[0])
    unwarped = cv2.warpPerspective(view, inverse, size)
    inside = cv2.warpPerspective(np.full(view.shape[:2], 255, np.uint8), inverse, size) > 0
    frame[inside] = unwarped[inside]
    return frame


def _shape(view: Image, box: tuple[int, int, int, int], mask: np.ndarray) -> Image:
    shape = np.zeros(view.shape[:2], np.uint8)
    x, y, w, h = box
    shape[y:y + h, x:x + w] = mask.astype(np.uint8) * 255
    return shape


def drawn_reader_and_frame(look: DieLook, kind: str, style: str | None,
                           faces_up: tuple[str, ...]) -> tuple[DiceReader, Image]:
    """Synthetic dice of one look on a felt tray filling the 640x480 frame, calibrated as an owner would."""
    rng = np.random.default_rng(1)
    background = tray_image(FRAME[0], FRAME[1], rng, (40, 95, 45))
    session = TraySession(FRAME)
    session.use_whole_frame()
    session.add_empty(background)
    calibration = session.result()
    faces = FaceSession(calibration, kind, style)
    while faces.current is not None:
        faces.capture(scene(background, [(look, faces.current)], rng)[0])
    reader = DiceReader(calibration.with_profile(faces.profile()))
    frame, _ = scene(background, [(look, face) for face in faces_up], rng, touching=True)
    return reader, photo_changes(frame, rng, Changes(glare=0.0))


#: A hexagonal tray in the shipped dicetower photos (its middle and radius, the photo's pixels).
HEX_MIDDLE, HEX_RADIUS = (220.0, 224.0), 170.0
TABLE = (60, 90, 120)  # the table around the tray


def framed(photo: Image, scale: float, size: tuple[int, int]) -> Image:
    """``photo`` scaled by ``scale`` into a ``size`` camera frame with the hexagon's middle in the
    frame's middle (a table around it) and the hexagon's wall drawn: what a camera of that size over
    a hexagonal tray sees."""
    scaled = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA)
    frame = np.empty((size[1], size[0], 3), np.uint8)
    frame[:] = TABLE
    dx, dy = int(round(size[0] / 2 - HEX_MIDDLE[0] * scale)), int(round(size[1] / 2 - HEX_MIDDLE[1] * scale))
    x0, y0 = max(0, dx), max(0, dy)
    x1, y1 = min(size[0], dx + scaled.shape[1]), min(size[1], dy + scaled.shape[0])
    frame[y0:y1, x0:x1] = scaled[y0 - dy:y1 - dy, x0 - dx:x1 - dx]
    rim = np.round(np.asarray(hex_rim(scale, size))).astype(np.int32)
    cv2.polylines(frame, [rim], True, (90, 90, 95), max(2, int(round(5 * scale))))  # the hexagon's wall
    return frame


def hex_rim(scale: float, size: tuple[int, int]) -> list[tuple[float, float]]:
    radius = HEX_RADIUS * scale
    return [(size[0] / 2 + radius * float(np.cos(np.radians(a))), size[1] / 2 + radius * float(np.sin(np.radians(a))))
            for a in range(0, 360, 60)]


def hex_reader(scale: float, size: tuple[int, int]) -> tuple[DiceReader, Image, list[tuple[float, float]]]:
    """The numeral d6 calibrated in a hexagonal tray (its outline tapped) from a ``size`` camera:
    the reader, a frame with the d6 showing 3, and the tray's rim in the frame."""
    first = framed(tower("d6", "1"), scale, size)
    rim = hex_rim(scale, size)
    session = TraySession(size)
    session.use_outline(rim, first)
    session.add_empty(framed(aligned_background(shipped(DICETOWER / "background.jpg"), tower("d6", "1")), scale, size))
    base = session.result()
    threshold = suggest_threshold(base.tray.warp(first), base.background, base.tray.inside())
    calibration = DiceCalibration(base.tray, base.background, threshold, scene=base.scene)
    faces = FaceSession(calibration, "d6")
    while faces.current is not None:
        faces.capture(framed(tower("d6", faces.current), scale, size))
    calibration = calibration.with_profile(faces.profile())
    calibration = calibration.with_self_test("d6", SelfTestResult(12, 12, 0, 0, True))  # timing only: no gate
    return DiceReader(calibration), framed(tower("d6", "3"), scale, size), rim


def bench_hex(size: tuple[int, int], scale: float, runs: int) -> None:
    reader, frame, rim = hex_reader(scale, size)
    die = reader.calibration.profiles["d6"].diameter
    print(f"full read, real photos in a hexagonal tray (its outline tapped), the numeral d6 about {die:.0f} px across, "
          f"{size[0]}x{size[1]} frame, tray view {reader.calibration.tray.size[0]}x{reader.calibration.tray.size[1]}:")
    print(line(f"  read per settled tray (camera check included)", bench_read(reader, frame, Expect("d6", 1), runs),
               READ_TARGET_MS))
    print(line(f"  of which the camera check", bench_scene(reader, frame, runs), READ_TARGET_MS / 3))
    rolling = [frame, np.ascontiguousarray(np.roll(frame, 7, axis=1))]
    settle = SettleDetector()
    settle.only(np.asarray(rim), size)
    index = iter(range(10 ** 9))
    print(line(f"  settle check per {size[0]}x{size[1]} frame (inside the outline)",
               timed(lambda: settle.update(rolling[next(index) % 2]), runs * 5), SETTLE_TARGET_MS))


# -- the benchmarks ---------------------------------------------------------------------------

def bench_settle(frames: list[Image], runs: int) -> list[float]:
    settle = SettleDetector()
    index = iter(range(10 ** 9))
    return timed(lambda: settle.update(frames[next(index) % len(frames)]), runs)


def bench_read(reader: DiceReader, frame: Image, expect: Expect, runs: int) -> list[float]:
    read = reader.read(frame, expect)
    shown = ", ".join(f"{d.kind} {d.label}{'' if d.accepted else ' (refused)'}" for d in read.dice)
    print(f"  reads: {shown or 'nothing'}{' - ' + read.problem if read.problem else ''}")
    return timed(lambda: reader.read(frame, expect), runs)


def bench_net(reader: DiceReader, frame: Image, runs: int) -> list[float]:
    """The network's view of one die (four turns), whether or not this die's faces use it."""
    view = reader.calibration.tray.warp(frame)
    die = reader.finder.find(view).blobs[0]
    net = shipped_net()
    return timed(lambda: net.view(view, die.centre, die.diameter), runs)


def bench_learned(reader: DiceReader, frame: Image, kind: str, runs: int) -> list[float]:
    """The learned reader's view of one die (24 turns): paid by every die read that was accepted."""
    view = reader.calibration.tray.warp(frame)
    die = max(reader.finder.find(view).blobs, key=lambda b: b.area)
    learner = reader.learners[kind]
    return timed(lambda: learner.view(view, die.centre, die.diameter), runs)


def bench_scene(reader: DiceReader, frame: Image, runs: int) -> list[float]:
    """The check that the camera has not moved since the tray was calibrated: once per settled tray."""
    scene = reader.calibration.scene
    assert scene is not None and scene.usable, "the real tray's edges should be usable"
    return timed(lambda: scene.check(frame), runs)


def bench_recount(reader: DiceReader, frame: Image, runs: int) -> list[float]:
    """All the recounts (``ReaderSettings.recounts``) of one drawn die, the network's view
    included: what a die the first count refuses costs on top of its read. Real refused dice,
    whose marks are less clean, take several times longer (docs/dice.md, "Benchmark")."""
    view = reader.calibration.tray.warp(frame)
    die = reader.finder.find(view).blobs[0]
    profile = reader.calibration.profiles["d6"]
    scores = reader.matchers["d6"].match(view, die.centre, die.diameter)
    return timed(lambda: reader._recount(profile, scores, view, die, None), runs)


def main() -> int:
    ask = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ask.add_argument("--runs", type=int, default=200, help="timed runs per figure")
    arguments = ask.parse_args()
    print(f"$ {' '.join([Path(sys.executable).name, *sys.argv])}")
    print(f"Python {platform.python_version()}, OpenCV {cv2.__version__}, numpy {np.__version__}, "
          f"{platform.machine()}, {platform.processor() or platform.system()}")
    gc.collect()
    monster, monster_frame = drawn_reader_and_frame(MONSTER_LOOK, "monster", None, ("pow", "hit", "blank"))
    rolling = [monster_frame, np.roll(monster_frame, 7, axis=1)]
    print(line("settle check per 640x480 frame", bench_settle(rolling, arguments.runs * 5), SETTLE_TARGET_MS))
    print("full read, synthetic Monster dice (3, two touching), 640x480:")
    print(line("  read per settled tray", bench_read(monster, monster_frame, Expect("monster", 3), arguments.runs),
               READ_TARGET_MS))
    pips, pips_frame = drawn_reader_and_frame(D6_PIPS_LOOK, "d6", "pips", ("5", "2", "6"))
    print("full read, synthetic pip d6 (3, two touching; pips counted and the pip network asked), 640x480:")
    print(line("  read per settled tray", bench_read(pips, pips_frame, Expect("d6", 3), arguments.runs),
               READ_TARGET_MS))
    print(line("  of which the pip network, per die asked", bench_net(pips, pips_frame, arguments.runs),
               READ_TARGET_MS / 3))
    print(line("  a drawn die's five recounts (real refused dice: docs)",
               bench_recount(pips, pips_frame, arguments.runs), READ_TARGET_MS / 3))
    tower_read = tower_reader()
    frame = tower_frame(tower_read)
    print(f"full read, real photos (d20 + two d6, one touching the d20), {frame.shape[1]}x{frame.shape[0]} frame, "
          f"tray view {tower_read.calibration.tray.size[0]}x{tower_read.calibration.tray.size[1]}:")
    print(line("  read per settled tray (camera check included)",
               bench_read(tower_read, frame, Expect("d6", 2), arguments.runs), READ_TARGET_MS))
    print(line("  of which the camera check", bench_scene(tower_read, frame, arguments.runs), READ_TARGET_MS / 3))
    print(line("  of which the learned reader, per die", bench_learned(tower_read, frame, "d6", arguments.runs),
               READ_TARGET_MS / 3))
    bench_hex(FRAME, 1.0, arguments.runs)
    bench_hex(BIG_FRAME, 3.0, arguments.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
