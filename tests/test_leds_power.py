"""Brightness and the current limit: whatever the frame, brightness and budget,
the estimated current of what goes to the strip never exceeds the budget, and
a frame already under it is only scaled by the brightness."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.leds import LedConfig, Output, estimate_ma
from hardware.leds.power import scale_table

frames = st.integers(1, 300).flatmap(lambda n: st.binary(min_size=3 * n, max_size=3 * n))
brightness = st.floats(0.0, 1.0)
budgets = st.floats(1.0, 20_000.0)
per_led = st.floats(5.0, 200.0)


@settings(max_examples=150, deadline=None)
@given(frames, brightness, budgets, per_led)
def test_the_budget_is_never_exceeded(frame: bytes, level: float, budget: float, ma_per_led: float) -> None:
    config = LedConfig(count=len(frame) // 3, brightness=level, budget_ma=budget, ma_per_led=ma_per_led)
    limited = Output(config).apply(frame)
    assert estimate_ma(limited.frame, config.ma_per_channel) <= budget
    assert limited.ma == estimate_ma(limited.frame, config.ma_per_channel)
    assert len(limited.frame) == len(frame)


@settings(max_examples=80, deadline=None)
@given(frames, brightness)
def test_under_budget_only_brightness_applies(frame: bytes, level: float) -> None:
    config = LedConfig(count=len(frame) // 3, brightness=level, budget_ma=1e9)
    limited = Output(config).apply(frame)
    assert limited.limit_factor == 1.0
    assert limited.frame == frame.translate(scale_table(level))
    assert all(0 <= v * level - out < 1 + v / 4096 for v, out in zip(frame, limited.frame))


@settings(max_examples=80, deadline=None)
@given(frames, budgets)
def test_dimming_keeps_every_led_at_or_below_its_value(frame: bytes, budget: float) -> None:
    config = LedConfig(count=len(frame) // 3, brightness=1.0, budget_ma=budget)
    limited = Output(config).apply(frame)
    assert all(out <= before for out, before in zip(limited.frame, frame))


def test_a_full_white_board_is_dimmed_to_the_budget() -> None:
    config = LedConfig(count=127, brightness=1.0, budget_ma=2000, ma_per_led=60)
    limited = Output(config).apply(bytes([255]) * 3 * 127)
    assert estimate_ma(bytes([255]) * 3 * 127, 20.0) == 127 * 60
    assert 1900 < limited.ma <= 2000 and limited.limit_factor < 0.27


def test_brightness_changes_at_run_time() -> None:
    output = Output(LedConfig(count=1, brightness=1.0))
    output.brightness = 0.5
    assert output.apply(bytes([200, 100, 50])).frame == bytes([100, 50, 25])
    assert scale_table(2.0) == bytes(range(256)) and scale_table(0.0) == bytes(256)
