"""The owner's data status page for Ravenloft (companion/games/datastatus.py says what and why)."""

from __future__ import annotations

from collections.abc import Mapping

from companion.games import datastatus as core

from .ownerdata import OVERLAY, OwnerData

STATES = core.STATES


def data_status(shipped: Mapping[str, object], effective: Mapping[str, object], data: OwnerData) -> dict[str, object]:
    """Every element of the effective pack with its state, and counts per kind."""
    return core.data_status(OVERLAY, shipped, effective, data)
