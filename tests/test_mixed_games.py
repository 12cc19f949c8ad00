"""Mixed games (docs/horrified.md, "Mixed games") as a table meets them: ``play`` says the mix is our
combination, a "mixed" game with none of this box's monsters is refused with the reason, a mixed
position given with the owner's data plays with that data (it was refused as an unknown hero), and
the random player is dealt its hero badges at random, as the rules deal them."""

from __future__ import annotations

import argparse

import pytest

from companion.cli import main
from companion.engine.errors import SetupError
from companion.games.horrified.cli import HorrifiedCli

from horrified_fixtures import context, hero, new_game, pack_rules, position

MIXED = {"board": "ravenloft", "monsters": ["dracula", "carrionette"], "heroes": ["sorcerer", "druid"]}


def test_play_says_the_mix_is_our_combination(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "--game", "horrified", "--board", "ravenloft", "--monsters", "dracula,carrionette",
                 "--policy", "random", "--seed", "3", "--max-inputs", "4"])
    out = capsys.readouterr().out
    assert code == 0 and out.count("our combination, not the publisher's") == 2  # at the start, and on the table
    opening = new_game({"setup": MIXED}).opening_effects
    assert opening[0].kind == "mixed-game" and "Dracula" in opening[0].text


def test_a_mixed_game_without_a_monster_of_this_box_is_refused_with_the_reason() -> None:
    with pytest.raises(SetupError, match="none of strahd, carrionette is one of them .*start a game of Horrified"):
        new_game({"setup": {**MIXED, "monsters": ["strahd", "carrionette"]}})
    game = new_game({"setup": MIXED})
    with pytest.raises(SetupError, match="mix.guests: a mixed game has at least one of this box's monsters"):
        new_game({**position({"carrionette": "vallaki"}, [hero("sorcerer", "vallaki")]),
                  "mix": {**game.state.mix, "guests": {}}})  # type: ignore[attr-defined]


def test_a_mixed_position_with_the_owner_s_data_plays_with_it() -> None:
    """The data beside a mixed position is this box's (the guests'): it rides in the mix, and the
    position's heroes are the host's (it was read as the original's data: "unknown hero 'sorcerer'")."""
    data = {"format": "table-companion.owner-data", "version": 1, "game": "horrified",
            "changes": {"monsters": {"monsters": {"dracula": {"name": "Count Dracula"}}}}}
    mix = new_game({"setup": MIXED}).state.mix  # type: ignore[attr-defined]
    start = mix["guests"]["dracula"]["places"]["start"]
    game = new_game({**position({"dracula": start, "carrionette": start}, [hero("sorcerer", start)]),
                     "mix": mix, "data": data})
    assert game.prompt is not None and game.prompt.key == "hero-action"
    assert context(game).monster("dracula").name == "Count Dracula" and game.state.mix["data"] == data  # type: ignore[attr-defined]
    with pytest.raises(SetupError, match="not the data the mix was made with"):
        new_game({**position({"dracula": start}, [hero("sorcerer", start)]), "mix": {**mix, "data": data},
                  "data": {**data, "changes": {}}})


def setup_args(policy: str, seed: int, board: str = "horrified") -> argparse.Namespace:
    return argparse.Namespace(monsters="dracula,creature" if board == "horrified" else "dracula,carrionette",
                              heroes=None, difficulty=None, board=board, policy=policy, seed=seed)


@pytest.mark.parametrize("board", ["horrified", "ravenloft"])
def test_the_random_player_is_dealt_hero_badges_at_random(board: str) -> None:
    """"Randomly assign Hero Badges to each player": by its seed, so a game can be played again."""
    cli = HorrifiedCli(pack_rules())
    dealt = [tuple(s["hero"] for s in cli.setup(setup_args("random", seed, board))["heroes"])  # type: ignore[index, union-attr]
             for seed in range(1, 9)]
    assert len(set(dealt)) > 2 and all(len(set(pair)) == 2 for pair in dealt)
    assert dealt == [tuple(s["hero"] for s in cli.setup(setup_args("random", seed, board))["heroes"])  # type: ignore[index, union-attr]
                     for seed in range(1, 9)]
    first = cli.setup(setup_args("first", 5, board))["heroes"]
    assert [s["hero"] for s in first][:2] == (["mayor", "scientist"] if board == "horrified" else  # type: ignore[index, union-attr]
                                              [h.id for h in cli.rules.host("ravenloft").rules.pack.heroes[:2]])


def test_the_pack_new_games_start_with_offers_mixed_games_with_the_owners_data_too() -> None:
    """Once the owner has data, new games start with the desk's pack: it keeps the other boards (the
    wizard's mixed game), the guests' places landed from the owner's board, and each monster's start."""
    from companion.games.horrified.gamepack import HorrifiedPack

    box = HorrifiedPack(pack_rules())
    desk = box.owner_data()
    data = desk.empty()
    data["confirmed"] = ["cards.cards.sunrise"]
    owned = desk.pack_view(data)
    assert [b["id"] for b in owned["boards"]] == [b["id"] for b in box.pack_view()["boards"]] == ["ravenloft"]
    assert owned["boards"][0]["places"]["dracula"]["start"]["from"] == "crypt"
    assert {m["id"]: m["start"] for m in owned["monsters"]}["dracula"] == "crypt"
