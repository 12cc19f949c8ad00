"""Learning a Monster card as it is drawn (the tablet's "Is this your card?"): the tablet
saves the owner's word on the card while the draw question waits, then sends the draw.
The rules must then resolve the card as the owner's data has it, and the data status must
call it the owner's from then on (so it is not asked again). Replays see the same."""

from __future__ import annotations

from typing import Any

from companion.engine.game import Game
from companion.engine.plain import to_plain
from companion.games.ravenloft.datastatus import data_status
from companion.games.ravenloft.ownerdata import FORMAT, apply_owner_data, parse_owner_data, shipped_files
from companion.games.ravenloft.rules import RavenloftRules

RULES = RavenloftRules()
SETUP = {"monsters": ["baba-lysaga"], "heroes": [{"hero": "sorcerer", "player": "Sam"}]}


def doc(cards: dict[str, Any] | None = None, confirmed: list[str] | None = None) -> dict[str, Any]:
    return {"format": FORMAT, "version": 1, "game": "ravenloft",
            "changes": {"cards": {"cards": cards}} if cards else {}, "confirmed": confirmed or []}


def at_the_draw() -> Game:
    """A new game played simply (first options, blank dice, Hero Phase ended) to its first card draw."""
    game = RULES.new_game({"setup": SETUP})
    while game.prompt is not None and game.prompt.key != "monster-card":
        prompt = game.prompt
        answer: Any = {"action": "end"}
        if prompt.kind in ("choice", "draw"):
            answer = prompt.options[0].id
        elif prompt.kind == "roll":
            answer = ["blank" if prompt.die == "monster" else 10] * prompt.count
        game.apply({"key": prompt.key, "answer": answer})
    return game


def guessed_card(game: Game) -> str:
    """A card the draw offers that is only our guess and brings items."""
    assert game.prompt is not None
    return next(o.id for o in game.prompt.options
                if o.id != "enter-card" and not RULES.pack.card(o.id).verified and RULES.pack.card(o.id).items)


def test_a_card_corrected_while_the_draw_waits_is_the_card_the_draw_resolves() -> None:
    game = at_the_draw()
    card = guessed_card(game)
    mine = {"name": "Hag's Bargain", "items": 0, "event": {"kind": "none", "params": {}, "text": "No Event."},
            "attack": {"symbols": ["frenzy"], "move": 1, "dice": 3}}
    question = game.prompt
    game.apply({"data": doc({card: mine}, [f"cards.cards.{card}"])})
    assert game.prompt is question  # the draw still waits
    step = game.apply({"key": "monster-card", "answer": card})
    drawn = next(e for e in step.effects if e.kind == "card-drawn")
    assert "Hag's Bargain" in drawn.text
    assert step.prompt is None or step.prompt.key != "item"  # our guess brings items, the owner's card none
    assert any(e.kind == "symbol" and e.data.get("symbol") == "frenzy" for e in step.effects)  # its own attack line
    assert to_plain(Game(RULES, game.origin, game.inputs).state) == to_plain(game.state)  # the log replays it


def test_a_confirmed_card_is_the_owner_s_and_plays_as_it_was() -> None:
    shipped = at_the_draw()
    card = guessed_card(shipped)
    as_shipped = shipped.apply({"key": "monster-card", "answer": card})
    game = at_the_draw()
    game.apply({"data": doc(confirmed=[f"cards.cards.{card}"])})
    confirmed = game.apply({"key": "monster-card", "answer": card})
    assert [e.text for e in confirmed.effects] == [e.text for e in as_shipped.effects]  # the same card, now the owner's
    files = shipped_files()
    mine = parse_owner_data(doc(confirmed=[f"cards.cards.{card}"]))
    elements = {e["key"]: e for e in data_status(files, apply_owner_data(files, mine), mine)["elements"]}  # type: ignore[attr-defined]
    assert elements[f"cards.cards.{card}"]["state"] == "confirmed"
    assert RULES.owner_pack(mine.to_plain()).card(card).verified
