"""Game packs: each game is a ``GamePack`` (gamepack.py) found by id in the
registry (registry.py); nothing is made or wired at import time."""

from __future__ import annotations

from .gamepack import GamePack, OwnerDataDesk, PackCli, PackLeds, PackWeb, Seat, View
from .registry import pack_ids, pack_makers

#: Pack id -> maker, as ``Tables`` and ``create_app`` take them (the built-in packs).
KINDS = pack_makers("")
GameKind = GamePack  # the older name of the interface, kept for callers that used it

__all__ = ["GameKind", "GamePack", "KINDS", "OwnerDataDesk", "PackCli", "PackLeds", "PackWeb", "Seat", "View",
           "pack_ids", "pack_makers"]
