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

from companion.engine.defaults import Suggestion, first_option, no_default, physical
from companion.engine.prompts import Prompt

#: Monster Phase ties (docs/engine.md, "Prompt keys").
FIRST_OPTION_KEYS = frozenset({"event-order", "monster-order", "which-blight", "move-toward", "path",
                               "attack-target", "carried-off-toward", "fury-order"})
#: Choices whose default declines the offer.
DECLINES = {"roll-perk": "keep", "dig-more": "stop"}
ACTIONS: dict[str, dict[str, object]] = {"hero-action": {"action": "end"}, "distanced-advance": {"action": "skip"}}


def next_answer(prompt: Prompt | None) -> Suggestion:
    if prompt is None:
        return no_default(None)
    found = physical(prompt)
    if found is not None:
        return found
    if prompt.kind == "choice" and prompt.key in FIRST_OPTION_KEYS and prompt.options:
        return first_option(prompt)
    if prompt.kind == "choice" and DECLINES.get(prompt.key) in prompt.option_ids():
        return Suggestion(DECLINES[prompt.key], f"{prompt.text} → {prompt.option(DECLINES[prompt.key]).text}")
    if prompt.kind == "action" and prompt.key in ACTIONS:
        return Suggestion(ACTIONS[prompt.key], f"{prompt.text} → {ACTIONS[prompt.key]['action']}")
    return no_default(prompt)
