"""The readings: where the Siege of Barovia text leaves a case open or says two
things, the table chooses how to play it, per game (docs/siege-of-barovia.md,
"Readings").

Why settings and not one choice in the code: the rules are a short fan text
with no errata; each of these cases could honestly go either way, and a group
that reads it otherwise must be able to play their way. Every reading has our
default (marked, with why) and the text's other sense; a game's setup names
the ones it changes, and the tablet shows them all before the game starts and
during it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.engine.errors import SetupError


@dataclass(frozen=True)
class Choice:
    id: str
    text: str


@dataclass(frozen=True)
class Reading:
    """One open case: ``question`` in the players' words, ``why`` what in the text makes it
    open, ``choices`` (the first is ours, the default)."""

    id: str
    question: str
    why: str
    choices: tuple[Choice, ...]

    @property
    def default(self) -> str:
        return self.choices[0].id

    def to_plain(self) -> dict[str, object]:
        return {"id": self.id, "question": self.question, "why": self.why, "default": self.default,
                "choices": [{"id": c.id, "text": c.text} for c in self.choices]}


READINGS: tuple[Reading, ...] = (
    Reading("ghoul_summon", "Where does a summoned ghoul appear (a 5 on the summon roll)?",
            "Setup puts the graveyard at E8, but the summon table says \"the graveyard (space E11)\", "
            "and E11 is the Kolyana Estate.",
            (Choice("graveyard", "At the graveyard, E8, as in setup"),
             Choice("printed-e11", "At E11 as printed: the Kolyana Estate"))),
    Reading("militia_start", "Where may a newly recruited militia be placed?",
            "The militia is recruited during the game, yet the text says it \"begins the game\" at one of "
            "the three safe houses, and does not say whether a destroyed one still counts.",
            (Choice("any", "At any of the three safe houses, destroyed or not: destroying a house takes "
                           "away only its action"),
             Choice("standing", "Only at a safe house that still stands"))),
    Reading("dm_actor", "Must the creature that acts be the one the DM moved?",
            "The DM moves one creature \"and then\" performs an action; the text never ties the two.",
            (Choice("any", "No: any creature may attack or destroy"),
             Choice("moved", "Yes: after a move only the moved creature may attack or destroy"))),
    Reading("dm_pass", "May the Dungeon Master take no action?",
            "The DM \"may move one zombie, or one ghoul, or Count Strahd one space and then perform an action\"; "
            "the move is plainly optional, the action is not said to be (and Summon is always open).",
            (Choice("may-pass", "Yes: \"may\" covers the whole turn"),
             Choice("must-act", "No: after the move (or none) the DM always attacks, summons or destroys"))),
    Reading("strahd_barricades", "Do barricades stop Count Strahd?",
            "Fortify says nothing but Count Strahd crosses a barricade; the turn text says heroes and "
            "monsters only move through spaces no barricade protects.",
            (Choice("crosses", "No: Strahd crosses barricades (Fortify's exception)"),
             Choice("stopped", "Yes: barricades stop every figure"))),
    Reading("militia_rest", "How far does a militia heal when it rests?",
            "Rest regains \"all of their hit points\", but a militia has only 1.",
            (Choice("own", "Back to its own 1 hit point"),
             Choice("three", "To 3 hit points, as a hero"))),
    Reading("recruit_where", "Where may Ashlyn and Ireena be recruited?",
            "The text lets a hero in the town square (E3) or the Kolyana Estate (E11) recruit either; in "
            "Expedition to Castle Ravenloft Ashlyn is met at the town square and Ireena at her home.",
            (Choice("either", "Either of them at either square"),
             Choice("own", "Ashlyn at the Town Square, Ireena at the Kolyana Estate"))),
    Reading("recruit_for", "Who plays a recruited Ashlyn or Ireena?",
            "Recruiting \"creates a new hero for a player\", but every player may control only one "
            "figure at a time.",
            (Choice("free-player", "A player who controls no figure; none free, no recruit"),
             Choice("new-player", "A player with no figure, else a new player joins (up to six)"))),
    Reading("upgrade_vs_strahd", "Does the +1 of upgraded weapons count against Count Strahd?",
            "A hero hits on \"a total die roll\"; against Strahd it takes 6 or higher, which a d6 reaches "
            "with a 5 and the bonus.",
            (Choice("counts", "Yes: a 5 with upgraded weapons hurts him"),
             Choice("natural", "No: only a 6 on the die hurts him"))),
    Reading("hero_order", "May a hero act before moving?",
            "A hero \"may move their hero 1 space and perform an action\"; the DM's turn says \"and then\", "
            "the hero's does not.",
            (Choice("move-first", "Move first, then act (acting ends the turn)"),
             Choice("any-order", "Move and act in either order"))),
)

BY_ID: Mapping[str, Reading] = {r.id: r for r in READINGS}
Readings = Mapping[str, str]
DEFAULTS: Readings = {r.id: r.default for r in READINGS}


def parse_readings(value: object) -> dict[str, str]:
    """The readings of a game: ours, with the ones its setup changes; a wrong name or choice
    is refused with what it may be."""
    if value is None:
        return dict(DEFAULTS)
    if not isinstance(value, Mapping):
        raise SetupError("readings: must be an object of reading -> choice")
    chosen = dict(DEFAULTS)
    for key, choice in value.items():
        reading = BY_ID.get(str(key))
        if reading is None:
            raise SetupError(f"readings: no reading called {key!r} (the readings: {', '.join(BY_ID)})")
        ids = [c.id for c in reading.choices]
        if choice not in ids:
            raise SetupError(f"readings.{key}: {choice!r} is not a choice (choose {' or '.join(ids)})")
        chosen[reading.id] = str(choice)
    return chosen


def words(readings: Readings) -> list[str]:
    """Each reading as a line: the question and the choice in play (ours or not)."""
    lines = []
    for reading in READINGS:
        choice = next(c for c in reading.choices if c.id == readings[reading.id])
        mark = " (ours)" if choice.id == reading.default else ""
        lines.append(f"{reading.question} {choice.text}{mark}")
    return lines


__all__ = ["BY_ID", "DEFAULTS", "READINGS", "Reading", "Readings", "parse_readings", "words"]
