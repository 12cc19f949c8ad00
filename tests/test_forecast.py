"""The forecast seen from outside: ``./run forecast`` (words, JSON, refusals), the what-if of a
planned action (the game untouched, the numbers moved the way the move says), the packs that
offer one, and the time budget (estimates marked as such)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine.effects import EffectSink
from companion.engine.errors import IllegalInput
from companion.engine.game import Game
from companion.games.horrified_core.choices import hero_actions
from companion.games.horrified_core.forecast import forecast, what_if
from companion.games.horrified_core.forecast.walk import Stopped
from companion.games.horrified_core.simulate import FirstOption
from companion.games.horrified_core.state import GameState
from companion.games.ravenloft.gamepack import RavenloftPack
from companion.games.ravenloft.ownerdata import FORMAT
from companion.games.ravenloft.rules import RavenloftRules
from companion.games.registry import pack_makers
from test_forecast_exact import ravenloft_position

SMALL = ["the-hut-walks", "rot-spreads"]  # two cards left: a walk of a few hundred replays


def _write(tmp_path: Path, data: object, name: str = "position.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _state(game: Game) -> GameState:
    assert isinstance(game.state, GameState)
    return game.state


def test_the_command_prints_the_forecast_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, ravenloft_position(SMALL))
    assert main(["forecast", str(path), "--json", "--seconds", "120"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["exact"] is True and found["cards_left"] == 2
    sorcerer = next(c for c in found["characters"] if c["id"] == "sorcerer")
    assert 0.0 < sorcerer["attacked"]["random"] <= 1.0
    assert sorcerer["defeated"]["random"] <= sorcerer["defeated_keeping_items"]["random"]
    assert set(found["glow"]) <= set(found["monster_ends"])


def test_the_command_in_words_and_with_what_ifs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, ravenloft_position(SMALL))
    assert main(["forecast", str(path), "--what-if", "--seconds", "120"]) == 0
    out = capsys.readouterr().out
    assert "2 cards left; exact" in out and "the Sorcerer at madam-evas-tent: attacked" in out
    assert out.count("-- what if:") >= 3


@pytest.mark.parametrize("game", ["ravenloft", "horrified"])
def test_the_shipped_hero_phase_examples_forecast(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).resolve().parents[1] / f"companion/games/{game}/examples/hero-phase.json"
    assert main(["forecast", str(path), "--game", game, "--seconds", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "== The coming Monster Phase (" in out and "attacked" in out
    # A range is printed only where its ends differ as printed.
    assert not re.search(r"\((\d+\.\d\d)–\1\)|your choices: (\d+)–\2%", out), out


@pytest.mark.parametrize("content, why", [
    ("{not json", "is not JSON"),
    (json.dumps({**ravenloft_position(SMALL), "phase": "monster"}), "a forecast is for a Hero Phase"),
    (json.dumps({**ravenloft_position(SMALL), "terror": 99}), "terror"),
])
def test_the_command_refuses_a_bad_position(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            content: str, why: str) -> None:
    path = tmp_path / "position.json"
    path.write_text(content, encoding="utf-8")
    assert main(["forecast", str(path)]) == 2
    assert why in capsys.readouterr().err


def test_a_game_without_a_forecast_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["forecast", str(_write(tmp_path, {})), "--game", "straszydla"]) == 2
    assert "has no forecast" in capsys.readouterr().err
    offering = sorted(p for p, make in pack_makers().items() if make().forecaster() is not None)
    assert offering == ["horrified", "ravenloft"]


def test_a_what_if_leaves_the_game_as_it_was_and_moves_the_threat() -> None:
    """Each move of the active Druid tried: the game stays as it was, and where the Druid goes
    changes the Druid's chance of being attacked (some moves walk into a monster's reach)."""
    rules = RavenloftRules()
    game = Game(rules, {"position": ravenloft_position(SMALL)})
    now = forecast(rules, _state(game), ways_per_card=10 ** 6)
    druid = now.layout.characters.index("hero:druid")
    moves = [a for a in hero_actions(rules.context(_state(game), EffectSink())) if a["action"] == "move"]
    chances = {str(m["to"]): what_if(rules, _state(game), m, ways_per_card=10 ** 6).value.mean[0][druid]
               for m in moves}
    assert game.version == 0 and _state(game) == Game(rules, {"position": ravenloft_position(SMALL)}).state
    assert len(chances) >= 2 and len({round(c, 6) for c in [now.value.mean[0][druid], *chances.values()]}) >= 2


def test_a_refused_what_if_names_why_and_changes_nothing() -> None:
    rules = RavenloftRules()
    game = Game(rules, {"position": ravenloft_position(SMALL)})
    with pytest.raises(IllegalInput, match="atlantis|not|no "):
        what_if(rules, _state(game), {"action": "move", "to": "atlantis", "villagers": []})
    assert game.version == 0


def test_the_pack_offers_it_only_in_a_hero_phase() -> None:
    pack = RavenloftPack()
    game = pack.rules.new_game({"position": ravenloft_position(SMALL)})
    forecaster = pack.forecaster()
    assert forecaster.forecast(game) is not None
    game.apply({"key": "hero-action", "answer": {"action": "end", "changes": []}})
    assert game.prompt is not None and game.prompt.key == "monster-card"
    assert forecaster.forecast(game) is None and forecaster.what_ifs(game) == []


def test_a_forecast_is_called_off_within_a_replay_of_its_stop_saying_so() -> None:
    rules = RavenloftRules()
    state = _state(Game(rules, {"position": ravenloft_position(None)}))
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 5

    with pytest.raises(Stopped):
        forecast(rules, state, seconds=30.0, stop=stop)
    assert len(asked) == 6  # asked before each replay: none after it said stop
    assert RavenloftPack().forecaster().forecast(Game(rules, {"position": ravenloft_position(None)}), stop=lambda: True) is None


def test_a_short_time_gives_estimates_marked_as_such() -> None:
    rules = RavenloftRules()
    state = _state(Game(rules, {"position": ravenloft_position(None)}))
    found = forecast(rules, state, seconds=0.01)
    assert found.estimated and found.estimate_error > 0.0
    assert len(found.estimated) <= found.cards_left


def test_the_owners_data_is_the_board_the_forecast_plays_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A road the owner added from the Druid's place to the Carrionette's brings the Druid in reach."""
    deck = ["ambush", "rot-spreads"]
    road = {"format": FORMAT, "version": 1, "game": "ravenloft", "confirmed": [],
            "changes": {"board": {"connections": {"add": [["gates-of-barovia", "vallaki"]]}}}}
    path = _write(tmp_path, ravenloft_position(deck))
    assert main(["forecast", str(path), "--json", "--seconds", "120"]) == 0
    shipped = json.loads(capsys.readouterr().out)
    assert main(["forecast", str(path), "--json", "--seconds", "120",
                 "--data", str(_write(tmp_path, road, "owner.json"))]) == 0
    owned = json.loads(capsys.readouterr().out)

    def druid(found: dict[str, object]) -> float:
        characters = found["characters"]
        assert isinstance(characters, list)
        return float(next(c for c in characters if c["id"] == "druid")["attacked"]["random"])

    assert shipped["exact"] and owned["exact"] and druid(owned) > druid(shipped)
    broken = {**road, "changes": {"board": {"connections": {"add": [["gates-of-barovia", "atlantis"]]}}}}
    assert main(["forecast", str(path), "--data", str(_write(tmp_path, broken, "broken.json"))]) == 2
    assert "atlantis" in capsys.readouterr().err


def test_a_mixed_game_has_its_forecast_too() -> None:
    """Dracula on the Ravenloft board: the mixed game's own state (a class made for the mix) is
    copied for the walk like any other, and its Hero Phase gets a forecast."""
    from companion.games.horrified.gamepack import HorrifiedPack
    from horrified_fixtures import pack_rules

    pack = HorrifiedPack(pack_rules())
    game = pack.rules.new_game({"setup": {"board": "ravenloft", "monsters": ["dracula", "carrionette"],
                                          "heroes": ["sorcerer", "druid"]}})
    while game.prompt is not None and game.prompt.key != "hero-action":  # the setup's draws and rolls
        game.apply({"key": game.prompt.key, "answer": FirstOption(pack_rules().for_state(game.state))(game.prompt,
                                                                                                       game.state)})
    found = pack.forecaster().forecast(game, seconds=2.0)
    assert found is not None and found["monster_phase"] is True
    assert {c["id"] for c in found["characters"] if c["kind"] == "hero"} == {"sorcerer", "druid"}  # type: ignore[index, union-attr]
    assert 0.0 < float(found["terror_rise"]["random"]) or found["glow"]  # type: ignore[index]
