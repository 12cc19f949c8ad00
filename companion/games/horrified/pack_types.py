"""Typed records of the original Horrified box: the Horrified records (horrified_core) plus
what only this box prints: the Hospital on the board, a hero badge's special action or
ability, the monsters' own symbols and the three item colours. The rule settings the
sources leave open (POW before HIT, the Event monster's move, the solo changes) live on the board record, each
with its own ``verified`` flag, so the owner sees and corrects them like any datum.

Nothing here is from the rulebook (no copy of it was at hand): every record says how
sure its sources are in the data files (``confidence``), and ``verified`` is True only
for what the owner confirmed against their own box (docs/horrified.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Mapping

from companion.games.horrified_core import pack_types as core
from companion.games.horrified_core.pack_types import Effect, Pack

#: The colours of the item tokens (red: physical, blue: intellectual, yellow: spiritual).
ITEM_TYPES: Final = ("red", "blue", "yellow")
#: Each monster's own symbol on the attack line (the Bride has her own beside Frankenstein's).
SYMBOLS: Final[Mapping[str, str]] = {
    "dracula": "Dracula", "mummy": "the Mummy", "frankenstein": "Frankenstein", "bride": "the Bride",
    "creature": "the Creature", "wolf-man": "the Wolf Man", "invisible-man": "the Invisible Man",
}


@dataclass(frozen=True)
class Setting:
    """A rule the sources leave open, as the data sets it (the owner may change and confirm it)."""

    value: bool
    verified: bool


@dataclass(frozen=True)
class Solo:
    """The solo game: where the Terror marker starts, heroes not played, Perk cards taken out."""

    terror: int
    no_heroes: tuple[str, ...]
    no_perks: tuple[str, ...]
    verified: bool = False


@dataclass(frozen=True)
class BoardData(core.BoardData):
    hospital: str  # where a defeated hero comes back
    pow_first: Setting  # a POW face resolves before the HITs rolled with it
    event_monster_moves: Setting  # the Event's monster still moves on its strike line (it only does not attack)
    solo: Solo


@dataclass(frozen=True)
class Hero(core.Hero):
    """A hero badge: its special action (kind ``none`` for a hero without one) and its ability."""

    special: Effect
    ability: Effect


def badge(pack: Pack, hero_id: str) -> Hero:
    """The hero's badge (every hero of this box has one)."""
    return pack.get("hero", hero_id, Hero)


def board_of(pack: Pack) -> BoardData:
    board = pack.board
    assert isinstance(board, BoardData), "a pack of the original box has its board"
    return board


def item_bonus(pack: Pack, hero_id: str) -> int:
    """What each item a hero uses adds to its strength (the Scientist); 0 for a hero of another box."""
    if not pack.has("hero", hero_id):
        return 0
    hero = pack.hero(hero_id)
    if not isinstance(hero, Hero) or hero.ability.kind != "item_bonus":
        return 0
    amount = hero.ability.params.get("amount", 0)
    return amount if isinstance(amount, int) else 0


__all__ = ["BoardData", "Hero", "ITEM_TYPES", "SYMBOLS", "Setting", "Solo", "badge", "board_of", "item_bonus"]
