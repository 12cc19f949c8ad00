"""Saved games: a game log is the origin a game started from plus the inputs
it accepted, which is all the engine needs to rebuild it (see docs/formats.md).

The command line and the table service both read and write logs, so every
check lives here and every problem comes back as one ``GameLogError`` that
names the file and says what is wrong with it, in words a player can act on.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from companion.engine.errors import IllegalInput, SetupError
from companion.engine.game import Game, Rules, Step
from companion.engine.plain import to_plain
from companion.engine.prompts import Prompt

FORMAT = "companion-game-log"
VERSION = 1
#: The keys an origin may start from; exactly one must be given.
ORIGIN_KEYS = ("setup", "position", "state")

StepSeen = Callable[[Prompt, Mapping[str, object], Step], None]


class GameLogError(ValueError):
    """A log (or JSON file) that cannot be read or replayed: ``where`` is the file."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"{where}: {why}")
        self.where = where
        self.why = why


@dataclass(frozen=True)
class GameLog:
    """One saved game: enough to rebuild it exactly."""

    game: str
    origin: Mapping[str, object]
    inputs: list[dict[str, object]] = field(default_factory=list)


# -- plain data --------------------------------------------------------------------------

def log_to_plain(log: GameLog) -> dict[str, object]:
    return {"format": FORMAT, "version": VERSION, "game": log.game,
            "origin": to_plain(log.origin), "inputs": to_plain(log.inputs)}


def log_from_plain(data: object, where: str = "log") -> GameLog:
    """Check every field before anything is built, so a bad log never half-loads."""
    if not isinstance(data, Mapping):
        raise GameLogError(where, "a game log must be a JSON object")
    _check_header(data, where)
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise GameLogError(where, "'game' must name the game: a pack id, as 'companion games' lists them")
    return GameLog(game, check_origin(data.get("origin"), where), _check_inputs(data.get("inputs"), where))


def _check_header(data: Mapping[str, object], where: str) -> None:
    if data.get("format") != FORMAT:
        raise GameLogError(where, f"not a game log ('format' must be {FORMAT!r}, got {data.get('format')!r})")
    version = data.get("version")
    if version != VERSION:
        raise GameLogError(where, f"log version {version!r} is not one this companion reads (it reads {VERSION})")


#: What an input may be: an answer to the prompt, the game data changed, a move made at any time.
INPUT_KINDS = ("answer", "data", "anytime")


def check_origin(origin: object, where: str) -> dict[str, object]:
    """An origin is one of ``{"setup": ...}``, ``{"position": ...}`` or ``{"state": ...}``, with the
    owner's game data beside it (``"data"``) when the game plays with it; the rules check the rest."""
    if not isinstance(origin, Mapping):
        raise GameLogError(where, "'origin' must be an object like {\"setup\": ...} or {\"position\": ...}")
    keys = sorted(str(k) for k in origin if k != "data")
    if len(keys) != 1 or keys[0] not in ORIGIN_KEYS:
        raise GameLogError(where, f"'origin' must have exactly one of {', '.join(ORIGIN_KEYS)} (and 'data' beside it, "
                                  f"if any); it has {keys or 'none'}")
    return dict(origin)


def _check_inputs(inputs: object, where: str) -> list[dict[str, object]]:
    if not isinstance(inputs, list):
        raise GameLogError(where, "'inputs' must be a list of {\"key\": ..., \"answer\": ...}")
    for number, entry in enumerate(inputs, 1):
        if not isinstance(entry, Mapping) or not any(k in entry for k in INPUT_KINDS):
            raise GameLogError(where, f"input {number} must be an object with an 'answer' (or a 'data' change, or "
                                      f"an 'anytime' move), got {entry!r}")
        if not isinstance(entry.get("key", ""), str):
            raise GameLogError(where, f"input {number}: 'key' must be text, got {entry.get('key')!r}")
    return [dict(entry) for entry in inputs]


# -- files --------------------------------------------------------------------------------

def read_json(path: Path) -> object:
    """A JSON file's data, or a GameLogError saying why it could not be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GameLogError(str(path), "no such file") from None
    except (OSError, UnicodeDecodeError) as problem:
        raise GameLogError(str(path), f"cannot be read ({problem.__class__.__name__}: {problem})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as problem:
        raise GameLogError(str(path), f"not valid JSON (line {problem.lineno}, column {problem.colno}: "
                                      f"{problem.msg})") from None


def load_log(path: Path) -> GameLog:
    return log_from_plain(read_json(path), str(path))


def save_log(path: Path, log: GameLog) -> None:
    """Write to a temporary file first, so a crash never leaves half a log behind."""
    text = json.dumps(log_to_plain(log), indent=1, ensure_ascii=False) + "\n"
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    except OSError as problem:
        raise GameLogError(str(path), f"cannot be written ({problem.strerror or problem})") from None


def log_of(game: Game, name: str) -> GameLog:
    """The log of a running game, as it stands now."""
    return GameLog(name, dict(game.origin), [dict(entry) for entry in game.inputs])


# -- replay ---------------------------------------------------------------------------------

def start(rules: Rules, origin: Mapping[str, object], where: str) -> Game:
    """A new game from ``origin``; a refused setup or position becomes a GameLogError."""
    try:
        return Game(rules, origin)
    except SetupError as problem:
        raise GameLogError(where, str(problem)) from None


def replay(rules: Rules, log: GameLog, where: str, seen: StepSeen | None = None,
           opened: Callable[[Game], None] | None = None) -> Game:
    """Rebuild the game input by input, so a refused input can be named.

    ``opened`` is shown the new game before any input (its opening effects);
    ``seen`` is told each prompt, the input that answered it and what followed.
    """
    game = start(rules, log.origin, where)
    if opened is not None:
        opened(game)
    for number, entry in enumerate(log.inputs, 1):
        prompt = game.prompt
        try:
            step = game.apply(entry)
        except IllegalInput as problem:
            asked = f" (the game was asking {prompt.key!r})" if prompt else ""
            raise GameLogError(where, f"input {number} of {len(log.inputs)} was refused{asked}: {problem}") from None
        if seen is not None and prompt is not None:
            seen(prompt, entry, step)
    return game


__all__ = ["FORMAT", "VERSION", "GameLog", "GameLogError", "check_origin", "load_log", "log_from_plain",
           "log_of", "log_to_plain", "read_json", "replay", "save_log", "start"]
