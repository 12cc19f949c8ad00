"""The owner's overlay (companion/games/overlay.py, which every pack shares) as the
Horrified family's files have it: which lists each file holds and what their
elements are called."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from companion.games.overlay import Overlay

#: The element lists of each file, by file stem; their elements have an ``id``.
COLLECTIONS: Final[dict[str, tuple[str, ...]]] = {
    "board": ("locations",), "villagers": ("villagers",), "monsters": ("monsters",), "heroes": ("heroes",),
    "items": ("items",), "perks": ("perks",), "cards": ("cards",), "dice": (),
}
NOUNS: Final = {"locations": "location", "villagers": "villager", "monsters": "monster", "heroes": "hero",
                "items": "item", "perks": "perk", "cards": "Monster card"}
#: Each list's kind on the data status page.
KINDS: Final = {"locations": "location", "villagers": "villager", "monsters": "monster", "heroes": "hero",
                "items": "item", "perks": "perk", "cards": "card"}


def horrified_overlay(game: str, settable: Mapping[str, tuple[str, ...]], confirmable: Mapping[str, str],
                      shipped: Callable[[], dict[str, object]],
                      build: Callable[[Mapping[str, object]], object]) -> Overlay:
    """An edition's overlay over the family's files."""
    return Overlay(game, settable, confirmable, shipped, build, COLLECTIONS, NOUNS, KINDS)

