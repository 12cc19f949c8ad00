"""The forecast is exact on positions nobody chose: random games of both editions, played by
the random policy to a Hero Phase, their deck cut short so every card is walked; each figure is
compared with the engine's own simulation of the same Monster Phase (``test_forecast_exact``'s).
And the case that was wrong: the Carrionette's Silver Needle names the Strength of an item drawn
from the bag, so which item comes out matters though nothing looks at the board.
"""

from __future__ import annotations

import pytest

from companion.engine.game import Game
from companion.games.horrified_core.state import GameState
from companion.games.ravenloft.rules import RavenloftRules
from forecast_positions import missed, random_position
from horrified_fixtures import pack_rules

RUNS = 2_500  # phases simulated per position, heroes discarding (a quarter as many keeping)
EDITIONS = {"ravenloft": RavenloftRules, "original": lambda: pack_rules().original}


@pytest.mark.parametrize("edition,seed", [(e, s) for e in EDITIONS for s in (1, 2, 3)])
def test_the_forecast_of_a_random_position_matches_the_simulation(edition: str, seed: int) -> None:
    rules = EDITIONS[edition]()
    state = random_position(rules, seed)
    assert state is not None, "the seed's game must reach its Hero Phase (choose another seed)"
    wrong = missed(rules, state, RUNS)
    assert wrong == [], f"{edition} seed {seed}, deck {state.deck}:\n" + "\n".join(wrong)


def needle_position() -> dict[str, object]:
    """The Carrionette alone and frenzied, one card left (Cold Waters: two items, then the frenzied
    monster attacks with two dice), the Sorcerer beside it holding one item. A POW with a HIT: the
    Needle takes the item if the drawn one names its Strength, and the hit then defeats the
    Sorcerer. The held item has the Strength of the token the old walk always drew for the Needle
    (the first in the bag's order after the card's own two)."""
    rules = RavenloftRules()
    card = "cold-waters"
    labelled = sorted(rules.pack.items, key=lambda i: rules.pack.item_label(i.id))
    named = labelled[rules.pack.card(card).items].strength
    held = next(i.id for i in labelled[rules.pack.card(card).items + 1:] if i.strength == named)
    return {"phase": "hero", "turn": 3, "active": "druid", "terror": 1, "frenzy": "carrionette",
            "monsters": {"carrionette": "vallaki"},
            "heroes": [{"hero": "sorcerer", "player": "Sam", "at": "vallaki", "items": [held]},
                       {"hero": "druid", "player": "Beau", "at": "krezk", "items": []}],
            "played_cards": [c.id for c in rules.pack.cards if c.id != card]}


def test_the_silver_needle_is_walked_over_every_strength() -> None:
    """Before: the needle always named the Strength of the first item in the bag (the Sorcerer's),
    so the Sorcerer's chance of being defeated while discarding, and the terror, were far too high."""
    rules = RavenloftRules()
    state = Game(rules, {"position": needle_position()}).state
    assert isinstance(state, GameState)
    wrong = missed(rules, state, 8_000)
    assert wrong == [], "\n".join(wrong)
