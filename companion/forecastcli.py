"""``companion forecast POSITION.json``: the threat forecast of a position's coming Monster
Phase, in words or (``--json``) as the plain data the tablet gets, for scripts.

The position is the table in a Hero Phase (docs/formats.md); ``--data`` plays it with the
owner's corrected game data. Exit codes as the other commands: 2 for a file or position the
engine refuses, with what and why.
"""

from __future__ import annotations

import argparse
import json
from functools import partial
from pathlib import Path
from typing import Callable, Mapping

from companion.engine.errors import IllegalInput, SetupError
from companion.engine.game import Game
from companion.games.gamepack import GamePack, PackForecast, View
from companion.games.registry import DEFAULT_PACK
from companion.terminal import CliError, say


PackLoader = Callable[[str], GamePack]


def add_forecast_parser(commands: "argparse._SubParsersAction[argparse.ArgumentParser]", load: PackLoader) -> None:
    """``load``: the command table's way of finding a game by its id (its errors and all)."""
    parser = commands.add_parser("forecast", help="the chances of the coming Monster Phase for a position")
    parser.add_argument("position", type=Path, metavar="POSITION.json")
    parser.add_argument("--game", default=DEFAULT_PACK, help=f"the game the position is of (default {DEFAULT_PACK})")
    parser.add_argument("--data", type=Path, metavar="OWNER.json", help="the owner's corrected game data")
    parser.add_argument("--json", action="store_true", help="print the forecast as JSON")
    parser.add_argument("--what-if", action="store_true", help="also the forecast after each action the hero may take")
    parser.add_argument("--seconds", type=float, default=None, metavar="S",
                        help="about how long the forecast may take (cards it cannot walk in time are estimated)")
    parser.set_defaults(run=partial(cmd_forecast, load=load))


def cmd_forecast(args: argparse.Namespace, load: PackLoader) -> int:
    pack = load(args.game)
    forecaster = _forecaster(pack)
    game = _game(pack, _read(args.position), _read(args.data) if args.data else None, str(args.position))
    found = forecaster.forecast(game, args.seconds)
    if found is None:
        raise CliError(str(args.position), "a forecast is for a Hero Phase, before the hero's next action "
                                           "(give the position \"phase\": \"hero\")")
    ifs = forecaster.what_ifs(game) if args.what_if else None
    if args.json:
        say(json.dumps(found if ifs is None else {**found, "what_if": ifs}, indent=2, sort_keys=True))
    else:
        for line in forecast_lines(found) + [line for each in ifs or [] for line in _what_if_lines(each)]:
            say(line)
    return 0


def _forecaster(pack: GamePack) -> PackForecast:
    found = pack.forecaster()
    if found is None:
        raise CliError("--game", f"{pack.title} has no forecast (it is for the Horrified games)")
    return found


def _read(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as problem:
        raise CliError(str(path), f"cannot be read ({problem})") from None
    except json.JSONDecodeError as problem:
        raise CliError(str(path), f"is not JSON (line {problem.lineno}: {problem.msg})") from None


def _game(pack: GamePack, position: object, data: object, where: str) -> Game:
    origin: dict[str, object] = {"position": position}
    if data is not None:
        origin["data"] = data
    try:
        return Game(pack.rules, origin)
    except (SetupError, IllegalInput) as problem:
        raise CliError(where, str(problem)) from None


def forecast_lines(found: View) -> list[str]:
    """The forecast in words: each chance as a percentage, a range where choices matter."""
    exact = "exact" if found.get("exact") else f"estimated for {', '.join(_strings(found.get('estimated')))}"
    lines = [f"== The coming Monster Phase ({found.get('cards_left')} cards left; {exact}) =="]
    for who in _records(found.get("characters")):
        lines.append(f"{who.get('name')} at {who.get('at')}: attacked {_percent(who.get('attacked'))}, "
                     f"defeated {_percent(who.get('defeated'))}"
                     + (f" ({_percent(who.get('defeated_keeping_items'))} keeping items)"
                        if who.get("kind") == "hero" else ""))
    lines.append(f"Terror rises by {_number(found.get('terror_rise'))} on average; "
                 f"the game is lost this turn {_percent(found.get('lose'))}")
    glow = found.get("glow")
    if isinstance(glow, Mapping) and glow:
        lines.append("Threat: " + ", ".join(f"{p} {round(float(v) * 100)}%" for p, v in glow.items()))
    return lines


def _what_if_lines(each: View) -> list[str]:
    head = f"-- what if: {json.dumps(each.get('action'), sort_keys=True)}"
    found = each.get("forecast")
    if not isinstance(found, Mapping):
        return ["", head, f"(no forecast: {each.get('refused')})"]
    return ["", head, *forecast_lines(dict(found))[1:]]


def _percent(ranged: object) -> str:
    low, high, mean = _range(ranged)
    lowest, highest = f"{low * 100:.0f}", f"{high * 100:.0f}"
    spread = f" (your choices: {lowest}–{highest}%)" if lowest != highest else ""
    return f"{mean * 100:.1f}%{spread}"


def _number(ranged: object) -> str:
    """A range is shown only where its ends differ as printed (0.52–0.52 says nothing)."""
    low, high, mean = _range(ranged)
    lowest, highest = f"{low:.2f}", f"{high:.2f}"
    return f"{mean:.2f}" + (f" ({lowest}–{highest})" if lowest != highest else "")


def _range(ranged: object) -> tuple[float, float, float]:
    if not isinstance(ranged, Mapping):
        return 0.0, 0.0, 0.0
    return float(ranged.get("low", 0.0)), float(ranged.get("high", 0.0)), float(ranged.get("random", 0.0))


def _records(value: object) -> list[Mapping[str, object]]:
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list) else []


def _strings(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []
