"""A board's default LED layout, generated from its shape, as a readable file.

The default is a starting point, not the owner's wiring: one LED under each
location, ``per_connection`` LEDs along each connection (from its first to its
second location), one per step of each track, one per mat and one per seat,
numbered in that order (``layout.default_layout``). An owner whose strip runs
differently runs the LED calibration (calibration/leds.py), which produces
their layout. A pack that ships its default writes it with ``layout_json``
(docs/leds.md, "The layout").
"""

from __future__ import annotations

import json

from .layout import Layout, default_layout

NOTE = ("Generated from the board: one LED per location, then the connections (in order from 'from' to 'to'), "
        "the steps of each track, the mats and the seats. Run the LED calibration to match your own strip.")


def layout_json(layout: Layout, note: str = NOTE) -> str:
    """JSON with one location, connection or mat per line, for people to read and diff."""
    plain = {"note": note, **layout.to_plain()}
    return "{\n" + ",\n".join(_member(key, value) for key, value in plain.items()) + "\n}\n"


def _member(key: str, value: object) -> str:
    if isinstance(value, dict) and value:
        inner = ",\n".join(f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items())
        return f"  {json.dumps(key)}: {{\n{inner}\n  }}"
    if isinstance(value, list) and value and isinstance(value[0], dict):
        inner = ",\n".join(f"    {json.dumps(v, ensure_ascii=False)}" for v in value)
        return f"  {json.dumps(key)}: [\n{inner}\n  ]"
    return f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"


__all__ = ["NOTE", "default_layout", "layout_json"]
