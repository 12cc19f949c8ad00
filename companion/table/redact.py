"""A game file for someone who may not read every seat's secrets: the answers given in secret
left out while the game is in play.

Why: a game file is the whole journal, and the journal holds every answer as it was given - a
Straszydła pact named on one phone, a plan laid, a sealed bid, a person DM's turn. A player's
phone that downloads the file of the game it plays would read them all. So a game whose
secrets are not all out yet is exported whole to the owner only (docs/protocol.md, "Who may
read what"); anyone else gets the file with every *secret answer* left out: an input that
answered a question with an ``audience`` (a question for some seats' eyes), given in a game
that is not over. Answers the rules have revealed since (plans shown together) are left out
too: the file cannot tell which the rules revealed, and all of them are in the views already.
An undone answer is one too (the undo took it off the table, not out of the journal).

Such a file cannot be replayed, so it is marked (``redacted``) and import refuses it with
the reason (``companion.store.sqlite.parse_game_file``) instead of failing on a missing answer.
A finished game's file is redacted the same way: the rules never reveal some secrets even at the
end (Straszydła shows only the winner's pact), and the file cannot tell which they did.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from companion.engine.game import Game
from companion.games.gamepack import GamePack
from companion.store import JournalEntry
from companion.store.sqlite import REDACTED, parse_game_file

WHY = ("some answers in this game were given in secret (for one seat's eyes): "
       "they are left out of this file, so it is a record to read, not a game to import; "
       "the owner's tablet exports the whole game")


def secret_answers(kind: GamePack, origin: Mapping[str, object], journal: Sequence[JournalEntry]) -> list[int]:
    """The indexes in ``journal`` of the answers to questions with an audience, undone ones
    too, whether or not the game is over. The journal is walked as the table replays it (undo takes
    the last live inputs back, redo gives the undone ones again), so each input is matched with
    the question it answered."""
    game = Game(kind.rules, origin)
    secret: list[int] = []
    live: list[int] = []
    undone: list[int] = []
    for n, item in enumerate(journal):
        if item.kind == "input":
            assert item.entry is not None
            prompt = game.prompt
            if prompt is not None and prompt.audience is not None and "answer" in item.entry:
                secret.append(n)
            game.apply(item.entry)
            live.append(n)
            undone.clear()
        elif item.kind == "undo":
            game.undo(item.count)
            undone.extend(live.pop() for _ in range(item.count))
        else:
            for _ in range(item.count):
                again = undone.pop()
                entry = journal[again].entry
                assert entry is not None
                game.apply(entry)
                live.append(again)
    return secret


def for_players(kind: GamePack, data: Mapping[str, object]) -> dict[str, object]:
    """The game file ``data`` (as the store exports it) as anyone but the owner may read it:
    whole when no secret answer is in it, else with each one's ``answer`` left out (its
    question's ``key`` and the answering ``seat`` kept: the shared screen showed both) and the
    file marked ``redacted``."""
    _, _, origin, journal = parse_game_file(data)
    hidden = set(secret_answers(kind, origin, journal))
    if not hidden:
        return dict(data)
    entries = data["journal"]
    assert isinstance(entries, list)
    kept = [_without_answer(item) if n in hidden else item for n, item in enumerate(entries)]
    return {**data, REDACTED: {"why": WHY, "answers_left_out": len(hidden)}, "journal": kept}


def _without_answer(item: Mapping[str, object]) -> dict[str, object]:
    entry = item["entry"]
    assert isinstance(entry, Mapping)
    return {**item, "entry": {key: entry[key] for key in ("key", "seat") if key in entry}}
