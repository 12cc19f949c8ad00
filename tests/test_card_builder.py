"""The card builder: a Monster card the pack does not list is typed in at the
table, resolved like any card (RL-MP-2, RL-MP-4), kept in the game log, and
takes the place of one guessed card so the deck still counts right (RL-MP-1)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.engine.errors import IllegalInput
from companion.engine.game import Game
from companion.engine.plain import to_plain
from companion.games.ravenloft.rules import RavenloftRules

RULES = RavenloftRules()
POSITION = {"phase": "monster", "monsters": {"carrionette": "vallaki"},
            "heroes": [{"hero": "sorcerer", "player": "Sam", "at": "madam-evas-tent"}]}
CARD = {"name": "Dolls in the Attic", "items": 0,
        "event": {"kind": "place_villager", "params": {"villager": "bildrath", "location": "krezk"},
                  "text": "Bildrath wanders into Krezk."},
        "attack": {"symbols": ["potion"], "move": 1, "dice": 1}}


def enter(game: Game, card: dict[str, Any]) -> list[str]:
    game.apply({"key": "monster-card", "answer": "enter-card"})
    return [e.text for e in game.apply({"key": "card-builder", "answer": {"action": "card", "card": card}}).effects]


def test_an_entered_card_resolves_its_event_and_attack_line() -> None:
    """RL-MP-2, RL-MP-4, RL-VI-1: items, then the Event, then the attack line, as typed in."""
    game = RULES.new_game({"position": POSITION})
    assert game.prompt is not None and "enter-card" in game.prompt.option_ids()
    deck = len(game.state.deck)
    said = enter(game, CARD)
    assert "Monster card: Dolls in the Attic." in said
    assert game.state.villagers["bildrath"].location == "krezk"
    assert game.state.monsters["carrionette"].location == "madam-evas-tent"
    assert game.prompt is not None and game.prompt.key == "monster-dice"
    assert len(game.state.deck) == deck - 1 and game.state.entered_cards["entered-1"]["name"] == "Dolls in the Attic"


def test_an_entered_card_replays_from_the_log() -> None:
    game = RULES.new_game({"position": POSITION})
    enter(game, CARD)
    again = Game(RULES, game.origin, game.inputs)
    assert to_plain(again.state) == to_plain(game.state)


@pytest.mark.parametrize("broken, why", [
    ({**CARD, "attack": {"symbols": ["banana"], "move": 1, "dice": 1}}, "banana"),
    ({**CARD, "items": 7}, "outside 0..3"),
    ({**CARD, "event": {"kind": "place_villager", "params": {"villager": "nobody", "location": "krezk"}, "text": "x"}},
     "no villager called 'nobody'"),
    ({k: v for k, v in CARD.items() if k != "name"}, "name: missing"),
    ("a card", "expected an object"),
])
def test_a_broken_card_is_refused_with_what_is_wrong(broken: Any, why: str) -> None:
    game = RULES.new_game({"position": POSITION})
    game.apply({"key": "monster-card", "answer": "enter-card"})
    before, version = to_plain(game.state), game.version
    with pytest.raises(IllegalInput, match=why):
        game.apply({"key": "card-builder", "answer": {"action": "card", "card": broken}})
    assert to_plain(game.state) == before and game.version == version


def test_no_builder_when_only_confirmed_cards_are_left() -> None:
    """RL-SU-2: once only confirmed cards are left, the deck holds exactly those: with one left there
    is nothing to type in and nothing to ask (no question with a single answer), it is drawn."""
    first = RULES.pack.cards[0]
    rules = RavenloftRules(replace(RULES.pack, cards=(replace(first, verified=True),) + RULES.pack.cards[1:]))
    guessed = [c.id for c in rules.pack.cards if not c.verified]
    game = rules.new_game({"position": {**POSITION, "played_cards": guessed}})
    assert game.prompt is not None and game.prompt.key not in ("monster-card", "card-builder")
    assert [e.text for e in game.opening_effects][0] == f"Monster card: {first.name}"
