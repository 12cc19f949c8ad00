"""The original Horrified as its rules read, where the engine once played Ravenloft's rule or skipped
a step (docs/horrified.md): the Terror only goes up, a monster goes for the closest person hero or
villager alike, the Event's monster moves but does not attack, an item draw with one token left is
not asked, and data whose sources disagree is not shown as agreed."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine.game import Game
from companion.games.horrified.pack import pack_from_files, read_pack_files
from companion.games.horrified.rules import OriginalRules

from horrified_fixtures import act, context, hero, kinds, new_game, of_kind, play, position


def owner_data(**changes: object) -> dict[str, object]:
    return {"format": "table-companion.owner-data", "version": 1, "game": "horrified", "changes": changes}


# -- 1. the Terror Level -------------------------------------------------------------------------------------------

def test_a_defeated_monster_leaves_the_terror_where_it_is() -> None:
    """"Terror Level: Increases each time a Hero or Villager is defeated": the Invisible Man trapped
    with the marker at 2 leaves it at 2 (Ravenloft's rule would move it down to 1)."""
    evidence = {"inn": "dart-1", "barn": "torch-1", "laboratory": "centrifuge-1", "institute": "analysis-1",
                "mansion": "telescope"}
    game = new_game(position({"invisible-man": "barn", "dracula": "crypt"},
                             [hero("mayor", "barn", "rifle-1", "fire-poker-1")], terror=2,
                             mats={"invisible-man": {"evidence": evidence}}))
    seen = act(game, action="defeat", monster="invisible-man", items=["rifle-1", "fire-poker-1"])
    assert "monster-defeated" in kinds(seen) and not of_kind(seen, "terror")
    assert game.state.terror == 2 and not game.over


# -- 2. the closest person ------------------------------------------------------------------------------------------

def test_a_hero_and_a_villager_equally_close_are_the_active_player_s_choice() -> None:
    """"Monsters move towards the closest person (Hero or Villager)": with the Mayor at the Inn and
    Maria at the Precinct, both one step from the Invisible Man at the fountain, the players choose;
    hero before villager is only for whom he attacks in his own space."""
    game = new_game(position({"invisible-man": "fountain"}, [hero("mayor", "inn")], phase="monster",
                             villagers={"maria": "precinct"}))
    play(game, ("monster-card", "former-employer"))
    assert game.prompt is not None and game.prompt.key == "move-toward"
    assert sorted(o.id for o in game.prompt.options) == ["inn", "precinct"]
    seen = play(game, ("move-toward", "precinct"))
    assert of_kind(seen, "monster-moved")[0].data["path"] == ["fountain", "precinct"]
    seen = play(game, ("monster-dice", ["hit", "blank"]))
    assert of_kind(seen, "villager-defeated") and game.state.villagers["maria"].location is None


def test_the_order_question_previews_every_equally_close_person() -> None:
    """The "which goes first?" preview names the person each monster may head for, villager included."""
    game = new_game(position({"invisible-man": "fountain", "dracula": "abbey"}, [hero("mayor", "inn")],
                             phase="monster", villagers={"maria": "precinct"}))
    ctx = context(game)
    text = ctx.monster_rules["invisible-man"].preview(ctx, ctx.monster_rules["invisible-man"].actors(ctx)[0], 1, 2)
    assert "Maria" in text and "Mayor" in text


# -- 3. the Event's monster -------------------------------------------------------------------------------------------

def rules_with_dracula_on_sunrise(**board: Any) -> OriginalRules:
    """Sunrise (Dracula's Event: he goes to the Crypt) with his own symbol on its strike line, as an
    owner's corrected card may have it (no shipped card shows the Event's monster on its line)."""
    files = read_pack_files()
    card = next(c for c in files["cards.json"]["cards"] if c["id"] == "sunrise")  # type: ignore[index]
    card["attack"]["symbols"] = ["dracula"]
    for key, value in board.items():
        files["board.json"][key]["value"] = value  # type: ignore[index]
    return OriginalRules(pack_from_files(files))


def sunrise_at_the_abbey(rules: OriginalRules) -> tuple[Game, list[Any]]:
    game = new_game(position({"dracula": "abbey", "creature": "lagoon"}, [hero("mayor", "abbey")], phase="monster",
                             frenzy="creature"), rules)
    return game, play(game, ("monster-card", "sunrise"))


def test_the_event_monster_moves_on_its_strike_line_but_does_not_attack() -> None:
    """"The Event Monster does not attack unless Frenzied": put in the Crypt by Sunrise, Dracula still
    moves one step toward the Mayor at the Abbey on his symbol, and stops there without attacking."""
    game, seen = sunrise_at_the_abbey(rules_with_dracula_on_sunrise())
    assert of_kind(seen, "monster-moved")[-1].data["path"] == ["crypt", "abbey"]
    assert not of_kind(seen, "target") and not of_kind(seen, "dice") and not of_kind(seen, "symbol-ignored")
    assert "does not attack" in of_kind(seen, "monster-activated")[0].text
    assert game.state.monsters["dracula"].location == "abbey" and game.state.heroes["mayor"].location == "abbey"


def test_the_other_reading_passes_the_event_monster_over() -> None:
    """``board.event_monster_moves`` false (the owner's setting): his symbol is passed over, no move."""
    game, seen = sunrise_at_the_abbey(rules_with_dracula_on_sunrise(event_monster_moves=False))
    assert [e.data["symbol"] for e in of_kind(seen, "symbol-ignored")] == ["dracula"]
    assert game.state.monsters["dracula"].location == "crypt"


def test_the_event_monster_setting_is_the_owner_s_to_change() -> None:
    data = owner_data(board={"set": {"event_monster_moves": {"value": False, "verified": True}}})
    game = new_game({**position({"dracula": "abbey"}, [hero("mayor", "abbey")]), "data": data})
    assert context(game).pack.board.event_monster_moves.value is False  # type: ignore[attr-defined]


# -- 5. no question with a single answer -------------------------------------------------------------------------------

def test_the_last_token_in_the_bag_is_drawn_without_a_question() -> None:
    """One token left in the bag: the Monster card's first item is that token, nobody is asked."""
    every = [item.id for item in OriginalRules().pack.items]
    last = "torch-1"
    game = new_game(position({"dracula": "abbey"}, [hero("mayor", "church")], phase="monster",
                             removed=[i for i in every if i != last]))
    assert game.state.haversack == [last]
    seen = game.apply({"key": "monster-card", "answer": "the-enthralled"}).effects
    assert game.prompt is None or game.prompt.key != "item"
    assert [e.data["item"] for e in of_kind(seen, "item-placed")] == [last]


# -- 6. data whose sources disagree ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", ["heroes.heroes.scientist", "monsters.monsters.dracula", "perks.perks.special-delivery",
                                 "perks.perks.conduct-an-investigation"])
def test_data_whose_sources_disagree_is_not_shown_as_agreed(key: str) -> None:
    """The status page shows each datum's confidence: these four notes say one source only, or two
    sources that read differently, so none may say "verified" (two or more sources agree)."""
    from companion.games.horrified.datadesk import HorrifiedDataDesk

    desk = HorrifiedDataDesk(OriginalRules())
    _, status = desk.check(desk.empty())
    elements = {e["key"]: e for e in status["elements"]}  # type: ignore[attr-defined]
    assert elements[key]["state"] == "guess" and elements[key]["confidence"] in ("unverified", "single-source")
    assert elements[key]["note"]


def test_the_last_perk_card_is_drawn_without_a_question() -> None:
    """Maria brought to the Camp, her safe place, earns a Perk card: with one card left in the deck
    (the heroes hold the other nineteen) it is that card, nobody is asked."""
    every = [perk.id for perk in OriginalRules().pack.perks]
    game = new_game(position({"dracula": "crypt"}, [hero("mayor", "bridge-west", perks=every[:10]),
                                                    hero("professor", "church", perks=every[10:19])],
                             villagers={"maria": "bridge-west"}))
    assert game.state.perk_deck == [every[19]]
    seen = act(game, action="move", to="camp", villagers=["maria"])
    assert game.prompt is not None and game.prompt.key == "hero-action"
    assert [e.data["perk"] for e in of_kind(seen, "perk-gained")] == [every[19]]


def test_special_delivery_of_a_single_item_asks_nothing_more() -> None:
    """Special Delivery with one hero holding one item and one hero to take it: nothing to choose."""
    game = new_game(position({"dracula": "crypt"}, [hero("mayor", "church", perks=["special-delivery"]),
                                                    hero("professor", "inn", "dart-1")]))
    seen = act(game, action="perk", hero="mayor", perk="special-delivery")
    assert game.prompt is not None and game.prompt.key == "hero-action"
    assert game.state.heroes["mayor"].items == ["dart-1"] and of_kind(seen, "item-shared")


def test_the_last_monster_card_the_owner_confirmed_is_drawn_without_a_question() -> None:
    """One card left, confirmed against the owner's box (so no "my card is not in this list"): it is
    that card. While it is still our guess, the players may say it is another: they are asked."""
    cards = [card.id for card in OriginalRules().pack.cards]
    last = "the-enthralled"
    data = {**owner_data(), "confirmed": [f"cards.cards.{last}"]}
    played = [c for c in cards if c != last]
    game = new_game({**position({"dracula": "crypt"}, [hero("mayor", "church")], phase="monster",
                                played_cards=played), "data": data})
    assert game.state.deck == [] and game.prompt is not None and game.prompt.key != "monster-card"
    assert [e.data["card"] for e in of_kind(game.opening_effects, "card-drawn")] == [last]
    guessed = new_game(position({"dracula": "crypt"}, [hero("mayor", "church")], phase="monster", played_cards=played))
    assert guessed.prompt is not None and guessed.prompt.key == "monster-card"


# -- 4. Share and Move as the players shape them (the tablet's forms send these: tests/browser/test_tablet_original_actions.py)

def test_a_share_each_way_and_a_move_with_some_villagers_are_played_as_chosen() -> None:
    """"Share Items between Heroes in your space", any items either way, one action; "You may take any
    number of Villagers in your Hero's space with you": one of two, then none."""
    game = new_game(position({"dracula": "crypt"}, [hero("mayor", "inn", "dart-1", "torch-1"), hero("professor", "inn", "rifle-1")],
                             villagers={"maria": "inn", "lucy": "inn"}))
    act(game, action="share", give=[{"item": "dart-1", "from": "mayor", "to": "professor"},
                                    {"item": "rifle-1", "from": "professor", "to": "mayor"}])
    assert game.state.heroes["mayor"].items == ["torch-1", "rifle-1"] and game.state.heroes["professor"].items == ["dart-1"]
    assert game.state.actions_left == 4
    act(game, action="move", to="fountain", villagers=["maria"])
    assert (game.state.villagers["maria"].location, game.state.villagers["lucy"].location) == ("fountain", "inn")
    act(game, action="move", to="inn", villagers=[])
    assert game.state.villagers["maria"].location == "fountain" and game.state.heroes["mayor"].location == "inn"
