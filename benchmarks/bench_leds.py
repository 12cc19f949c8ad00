"""How cheap the LED board is on this machine, against the table's targets.

1. Composing one frame for a 300-LED board (the renderer's still layer, the
   running animation, brightness and the power limit): target < 0.5 ms, so a
   Pi has plenty of room inside one frame period.
2. The animation thread's CPU share while animating at its frame rate
   (process CPU time over wall time): target < 5 % of a core.

Next to them it prints the physical limit: a WS2812B needs 24 bits x 1.25 us
= 30 us per LED on the wire, plus a 300 us reset, so 300 LEDs take about
9.3 ms per frame and ~107 fps is the ceiling whatever the CPU does.

    .venv/bin/python benchmarks/bench_leds.py
    .venv/bin/python benchmarks/bench_leds.py --leds 300 --fps 30 --seconds 3
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from companion.games.ravenloft.leds import RavenloftLeds  # noqa: E402
from hardware.leds import LedConfig, Renderer, Timing, start_leds  # noqa: E402
from hardware.leds.config import RESET_US, WIRE_US_PER_LED, max_fps  # noqa: E402
from hardware.leds.layout import Layout, default_layout  # noqa: E402
from hardware.leds.power import Output  # noqa: E402

RAVENLOFT = RavenloftLeds()
COMPOSE_TARGET_MS = 0.5
CPU_TARGET = 0.05
ALL_MOVE = [
    {"kind": "monster-moved", "data": {"monster": "carrionette", "path": ["vallaki", "madam-evas-tent", "tser-falls"]}},
    {"kind": "target", "data": {"monster": "carrionette", "location": "tser-falls"}},
    {"kind": "monster-moved", "data": {"monster": "strahd", "path": ["krezk", "wizard-of-wines", "vallaki"]}},
    {"kind": "terror", "data": {"level": 6, "change": 1}},
    {"kind": "game-won", "data": {"outcome": "won"}},
]
STATE = {"terror": 6, "frenzy": "strahd", "active": 0, "seats": ["sorcerer"], "phase": "monster",
         "monsters": {m: {"id": m, "location": loc, "defeated": False}
                      for m, loc in (("carrionette", "tser-falls"), ("strahd", "vallaki"),
                                     ("baba-lysaga", "krezk"), ("gulthias-tree", "amber-temple"))}}


def dense_layout(leds: int) -> Layout:
    """The Ravenloft board with as many LEDs per connection as fit in ``leds``."""
    shape = RAVENLOFT.shape()
    fixed = len(shape.locations) + sum(shape.tracks.values()) + len(shape.mats) + shape.seats
    return default_layout(shape, max(1, (leds - fixed) // len(shape.connections)))


def verdict(value: float, target: float, unit: str) -> str:
    return "PASS" if value < target else f"over-target (target < {target:g} {unit})"


def bench_compose(leds: int, frames: int) -> None:
    shape = RAVENLOFT.shape()
    renderer = Renderer(dense_layout(leds), shape, RAVENLOFT.looks(), count=leds)
    output = Output(LedConfig(count=leds, brightness=0.6, budget_ma=1500))
    renderer.change(ALL_MOVE, STATE, now=0.0)
    end = renderer.settles_at()
    moments = [end * i / frames for i in range(frames)]
    for t in moments[:50]:  # warm up
        output.apply(renderer.frame(t))
    samples = []
    for t in moments:
        start = time.perf_counter()
        output.apply(renderer.frame(t))
        samples.append((time.perf_counter() - start) * 1000.0)
    median, worst = statistics.median(samples), max(samples)
    p90 = statistics.quantiles(samples, n=10)[8]
    print(f"1. compose + limit one frame, {leds} LEDs ({frames} frames across a full show: two trails, a target,")
    print("   a terror blink, the win sweep over every board LED)")
    print(f"   median {median:.3f} ms, p90 {p90:.3f} ms, max {worst:.3f} ms   {verdict(p90, COMPOSE_TARGET_MS, 'ms')}"
          " (judged on p90; a max far above it is the scheduler, not the work)")


def bench_cpu(leds: int, fps: float, seconds: float) -> None:
    shape = RAVENLOFT.shape()
    config = LedConfig(backend="simulated", count=leds, fps=fps, brightness=0.6, budget_ma=1500)
    board = start_leds(config, shape, dense_layout(leds), looks=RAVENLOFT.looks(), timing=Timing(finale=seconds))
    board.on_change(None, {"game": "ravenloft", "effects": [ALL_MOVE[-1]], "state": STATE})
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while board.animator.running:
        time.sleep(0.01)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    shown = board.status.health.frames
    board.close()
    share = cpu / wall
    print(f"2. animation thread at {fps:g} fps for {wall:.2f} s of the win sweep, the heaviest animation "
          f"({shown} frames, {shown / wall:.1f} fps achieved)")
    print(f"   CPU {cpu * 1000:.0f} ms over {wall:.2f} s wall = {share:.1%} of a core   {verdict(share, CPU_TARGET, '')}")


def physical(leds: int, fps: float) -> None:
    wire_ms = (WIRE_US_PER_LED * leds + RESET_US) / 1000.0
    print(f"3. physical limit: {WIRE_US_PER_LED:g} us per LED on the wire + {RESET_US:g} us reset -> "
          f"{leds} LEDs take {wire_ms:.1f} ms per frame, ceiling ~{int(max_fps(leds))} fps;")
    print(f"   at {fps:g} fps the wire is busy {wire_ms * fps / 10:.0f} % of the time (SPI's write blocks for it; "
          "PWM/PCM and the Pi 5 driver return at once)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="LED board benchmarks")
    parser.add_argument("--leds", type=int, default=300)
    parser.add_argument("--fps", type=float, default=30.0)
    parser.add_argument("--frames", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    print(f"$ {' '.join([Path(sys.executable).name, *sys.argv])}")
    print(f"Python {platform.python_version()} on {platform.machine()} ({platform.processor() or platform.system()})")
    bench_compose(args.leds, args.frames)
    bench_cpu(args.leds, args.fps, args.seconds)
    physical(args.leds, args.fps)


if __name__ == "__main__":
    main()
