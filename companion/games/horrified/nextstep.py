"""What the box's NEXT button answers in a game of this pack (companion/engine/defaults.py).

NEXT answers only what the players would wave through: a tie the rules leave to the players in
the Monster Phase (which monster first, which of equally short paths, whom to attack), "end the
Hero Phase", and "leave it where it is" where a card or an Advance lets a monster or a hero be
moved. Never a roll or a draw (the table's dice and cards decide), a hero's defence, a scarab
move, or any key not listed here.
"""

from __future__ import annotations

from companion.engine.defaults import ListedDefaults

#: Monster Phase ties (docs/horrified.md, "Prompt keys"), answered by their first option.
FIRST_OPTION_KEYS = frozenset({"event-order", "monster-order", "move-toward", "path", "attack-target", "pulled",
                               "most-items"})
#: Choices whose default leaves things as they are.
DECLINES = {"move-monster-to": "stay", "move-hero-to": "stay"}
ACTIONS: dict[str, dict[str, object]] = {"hero-action": {"action": "end"}}


next_answer = ListedDefaults(FIRST_OPTION_KEYS, DECLINES, ACTIONS)
