"""What in a pack's game data is known, and from where: the owner's data status page (every pack).

Why: the shipped pack mixes facts printed in the rulebook with our guesses.
An owner correcting it needs to see, element by element, which is which and
what they have already checked against their own box - and we must never
present a guess as fact. Three states: ``rulebook`` (shipped and printed in
the rulebook), ``confirmed`` (the owner checked it), ``guess`` (neither; also
an element the owner changed but has not confirmed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .overlay import Overlay, OwnerData, element_index

STATES: Final = ("rulebook", "confirmed", "guess")


def data_status(overlay: Overlay, shipped: Mapping[str, object], effective: Mapping[str, object],
                data: OwnerData) -> dict[str, object]:
    """Every element of the effective pack with its state, and counts per kind."""
    before = element_index(overlay, shipped)
    confirmed = set(data.confirmed)
    names = _location_names(effective)
    elements = [_element(overlay, key, element, before.get(key), key in confirmed, names)
                for key, element in element_index(overlay, effective).items()]
    summary: dict[str, dict[str, int]] = {}
    for element in elements:
        counts = summary.setdefault(str(element["kind"]), {state: 0 for state in STATES})
        counts[str(element["state"])] += 1
    return {"summary": summary, "elements": elements}


def _element(overlay: Overlay, key: str, element: Mapping[str, object], shipped: Mapping[str, object] | None,
             confirmed: bool, names: Mapping[str, str]) -> dict[str, object]:
    changed = shipped is None or _without_flag(shipped) != _without_flag(element)
    state = "confirmed" if confirmed else "rulebook" if shipped is not None and shipped.get("verified") is True \
        and not changed else "guess"
    return {"key": key, "kind": _kind(overlay, key), "name": _name(overlay, key, element, names), "state": state,
            "changed": changed, "note": str(element.get("note", "")), "confidence": str(element.get("confidence", ""))}


def _without_flag(element: Mapping[str, object]) -> dict[str, object]:
    return {k: v for k, v in element.items() if k != "verified"}


def _kind(overlay: Overlay, key: str) -> str:
    """The kind of element a key names: its collection's noun (``board.connections.*`` are
    connections), a single value's own name."""
    parts = key.split(".")
    if len(parts) >= 3:
        return "connection" if parts[1] == "connections" else overlay.kinds.get(parts[1], parts[1])
    return parts[-1] if len(parts) == 2 else parts[0]


def _name(overlay: Overlay, key: str, element: Mapping[str, object], names: Mapping[str, str]) -> str:
    if key.startswith("board.connections."):
        between = element.get("between")
        pair = between if isinstance(between, list) else []
        return " – ".join(names.get(str(p), str(p)) for p in pair)
    if key in overlay.confirmable:
        return overlay.confirmable[key].format(**element)
    return str(element.get("name", key.rsplit(".", 1)[-1]))


def _location_names(files: Mapping[str, object]) -> dict[str, str]:
    board = files.get("board.json")
    locations = board.get("locations") if isinstance(board, Mapping) else None
    return {str(loc.get("id")): str(loc.get("name")) for loc in locations or [] if isinstance(loc, Mapping)}
