"""What the box's NEXT button answers in Ravenloft (companion/engine/defaults.py).

The rule: NEXT answers only what the players would wave through.

* Ties the rules leave to the players in the Monster Phase (which monster
  first, which of equally short paths, whom to attack among several, ...):
  the first option, the one the tablet lists first.
* "Play a Perk on this roll?": keep the roll. "Dig again?": stop.
* The Hero Phase's action prompt: ``end`` - NEXT is "we are done, on to the
  Monster Phase" (UNDO, held, takes it back). An optional distanced Advance:
  skip it.
* Never: a roll or a draw (the table's dice and cards decide), a hero's
  defence (discard items or fall), which items to discard, what a hand-played
  Event changed, a hero's special action choices (where to move a monster or
  place a hero, which hero draws), and any prompt key not listed here.
"""

from __future__ import annotations

from companion.engine.defaults import ListedDefaults

#: Monster Phase ties (docs/engine.md, "Prompt keys").
FIRST_OPTION_KEYS = frozenset({"event-order", "monster-order", "which-blight", "move-toward", "path",
                               "attack-target", "carried-off-toward", "fury-order"})
#: Choices whose default declines the offer.
DECLINES = {"roll-perk": "keep", "dig-more": "stop"}
ACTIONS: dict[str, dict[str, object]] = {"hero-action": {"action": "end"}, "distanced-advance": {"action": "skip"}}


next_answer = ListedDefaults(FIRST_OPTION_KEYS, DECLINES, ACTIONS)
