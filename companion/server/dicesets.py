"""Which dice set each game rolls, and what the camera's calibration holds of them
(docs/dice.md "Dice sets").

Why sets and not kinds: two boxes of one game family both roll "Monster dice", the same kind
to the rules, but the dice in the boxes differ (colour, symbols), and the camera reads a die
against photos of that very die. So the calibration keeps each box's dice as a set of their
own, a pack names its sets in its data (``GamePack.dice_sets``), and a game is read with its
pack's sets: switching between the boxes' games needs no new calibration. A kind no pack
names a set of is one shared set (the d20s, the d6), whose id is the kind's.

Nothing here knows a pack: everything comes from the packs the box has (``Tables``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.dice import DICE, DiceSet, sets_rolled
from companion.games.gamepack import GamePack
from companion.table import Tables

if TYPE_CHECKING:
    from calibration.dice import DiceCalibration


def rolled(pack: GamePack) -> dict[str, DiceSet]:
    """Kind id -> the set a pack's games roll of it (its own where it names one, else the shared one)."""
    return sets_rolled(pack.dice_sets())


def reading(pack: GamePack) -> dict[str, str]:
    """Kind id -> set id: what ``DiceCalibration.reading`` takes for a pack's games."""
    return {kind: dice_set.id for kind, dice_set in rolled(pack).items()}


def known(tables: Tables) -> dict[str, DiceSet]:
    """Every set a game on this box rolls, by id (the shared sets too)."""
    found: dict[str, DiceSet] = {}
    for pack_id in tables.pack_ids():
        for dice_set in rolled(tables.kind(pack_id)).values():
            found.setdefault(dice_set.id, dice_set)
    return found


def older(tables: Tables) -> dict[str, str]:
    """Kind id -> the set a calibration from before sets was made of: the set whose pack says
    so (``older_calibration``; if two did, the first by id). A kind no pack claims keeps it as
    its shared set."""
    claimed: dict[str, str] = {}
    for dice_set in sorted(known(tables).values(), key=lambda s: s.id):
        if dice_set.older_calibration:
            claimed.setdefault(dice_set.kind, dice_set.id)
    return claimed


def problems(calibration: "DiceCalibration", tables: Tables) -> list[str]:
    """A calibration's sets against this box's: a set this box's games roll as another kind is
    not one (a file from elsewhere, or edited). Sets no game here rolls are kept, unused."""
    sets = known(tables)
    return [f"the dice set {set_id!r} holds a {DICE[profile.kind].name}, but on this box it is "
            f"{sets[set_id].name} ({DICE[sets[set_id].kind].plural})"
            for set_id, profile in calibration.profiles.items()
            if set_id in sets and sets[set_id].kind != profile.kind]


def named(set_id: str, tables: Tables) -> str:
    """How the tablet names a set: its pack's name for it, or its id if no game here rolls it."""
    found = known(tables).get(set_id)
    return found.name if found is not None else f"the dice set {set_id!r} (no game on this box rolls it)"
