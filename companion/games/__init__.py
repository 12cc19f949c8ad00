"""Game packs: each game is a ``GamePack`` (gamepack.py) found by id in the
registry (registry.py); nothing is made or wired at import time."""

from __future__ import annotations

from .gamepack import GamePack, OwnerDataDesk, PackCli, PackLeds, PackWeb, Seat, View
from .registry import pack_ids, pack_makers

__all__ = ["GamePack", "OwnerDataDesk", "PackCli", "PackLeds", "PackWeb", "Seat", "View",
           "pack_ids", "pack_makers"]
