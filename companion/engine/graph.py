"""The board graph under its first name: ``Graph`` is ``companion.engine.board.Board``.

Kept so the rules written against it (movement, the monsters' checks) and
scripts read on; new code says ``Board`` (per-mover passability, changes
during a game, grids: see board.py and grid.py).
"""

from __future__ import annotations

from .board import Board, Path, UnknownLocation, distinct_prefixes

Graph = Board

__all__ = ["Graph", "Path", "UnknownLocation", "distinct_prefixes"]
