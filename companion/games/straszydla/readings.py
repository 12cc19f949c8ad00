"""Where the rulebook leaves a case open or says two things, the box plays a *reading*: a
documented choice with a setting, our default shown to the players at setup, never a
silent one (docs/straszydla.md, "Readings").

Each reading has an id (the key in a setup's ``readings``), its question, its answers
(value and words) and our default, the first answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from companion.engine.errors import SetupError


@dataclass(frozen=True)
class Reading:
    id: str
    question: str
    answers: tuple[tuple[str, str], ...]  # (value, words); the first is our default
    why: str

    @property
    def default(self) -> str:
        return self.answers[0][0]

    def words(self, value: str) -> str:
        return dict(self.answers)[value]


READINGS: Final[tuple[Reading, ...]] = (
    Reading("retreat_cube", "The winner of a duel lets the loser choose where to withdraw: who takes the horror cube?",
            (("winner", "the winner, for giving the choice away"), ("loser", "the loser, who chooses")),
            "The rule's sentence gives it to the loser, its worked example to the winner (Syla); only the "
            "example gives the winner a reason to let the loser choose."),
    Reading("bid_dice", "The higher bidder changes dice by the difference: which dice?",
            (("any", "any dice of the duel, theirs or the other player's"), ("own", "only their own dice")),
            "\"may change the value of the rolled dice\" does not say whose."),
    Reading("blockades", "At the end of a round, where do blockade markers go?",
            (("own", "each player's on the district where they ended"),
             ("choose", "each player's on a district of their choice without a pawn")),
            "\"players place blockade markers on the districts\" does not say which."),
    Reading("two_player_clear", "Two players: when are the blockades removed?",
            (("two-rounds", "after every 2 rounds"), ("day-and-night", "after a full day and night")),
            "The variant says \"after 2 rounds have passed (a full day and night)\": 2 rounds are not a day "
            "and a night of 4 rounds each."),
    Reading("end_order", "At the end of a time of day, which comes first?",
            (("feed-first", "feeding, then summoning (a new creature first eats 4 rounds later)"),
             ("summon-first", "summoning, then feeding (the new creature must be fed at once)")),
            "The game notes say a creature is summoned at the beginning of the day with 4 full moves to "
            "feed it; the section on summoning puts it at the end of the fourth round."),
    Reading("win_tie", "Two players fulfil their pacts at the same end of a time of day: who wins?",
            (("shared", "they share the win"), ("order", "the first of them from the starting player")),
            "\"the player who first fulfils the condition\" names no one for the same moment."),
    Reading("imp_exchange", "An imp exchanged for a fear cube gives a cube of which colour?",
            (("imp-element", "its own element's colour"), ("any-colour", "any colour the player chooses")),
            "\"You may exchange each imp for one fear cube\" does not say which."),
    Reading("jump_last", "A move's last arrow reaches a suburb: may the pawn still jump to another suburb?",
            (("yes", "yes"), ("no", "no: the jump is only to go on moving")),
            "\"you may automatically move to any other suburb and continue your move\"."),
    Reading("stuck_retreat", "A duel's loser has no space to withdraw to: then what?",
            (("suburb", "they go to any suburb, as a pawn that cannot move"), ("stay", "they stay and take nothing")),
            "The rulebook has the loser withdraw to an adjacent space one may move onto, and says nothing of none."),
    Reading("retreat_back", "May a duel's loser be sent back into a district where they lost a duel this round?",
            (("no", "no: only into districts they have not lost in this round"), ("yes", "yes, anywhere next door")),
            "The rulebook chains duels (\"If the loser withdraws into a district where another player is, they "
            "will have to fight a further duel\") and says no more: two winners could send one loser back and forth "
            "between them for ever."),
    Reading("dead_end", "Every creature stack is empty and nobody's creatures can fulfil their pact any more: then what?",
            (("end", "the game ends with no winner"), ("play-on", "play on (the players stop when they like)")),
            "Creatures that flee leave the game for good, so the stacks can run out; the rulebook does not say "
            "what happens when no pact can be fulfilled any more."),
    Reading("scare_once", "How often a round may a player scare, and summon an imp?",
            (("once", "once each"), ("any", "as often as they like")),
            "\"any number of the actions listed below\" could be read as repeating one."),
)
BY_ID: Final = {reading.id: reading for reading in READINGS}

#: Questions once settings, now decided by the rulebook's bid example ("Przemo can change the result by only 1. He
#: therefore cannot reverse the outcome of the duel"): with Syla's 6, 5 against his 5, 3, 3, one point makes a pair
#: or the successes equal, so giving equal dice, or equal successes, to the player there first (Przemo) would
#: reverse it. The rule's answer is still accepted in a setup (older games named it); the other is refused.
RETIRED: Final = {"pair_tie": "nobody", "duel_tie": "reroll"}


def defaults() -> dict[str, str]:
    return {reading.id: reading.default for reading in READINGS}


def parse_readings(given: object) -> dict[str, str]:
    """The readings of a setup: ours, with the ones the players changed (SetupError naming a bad one)."""
    if given is None:
        return defaults()
    if not isinstance(given, Mapping):
        raise SetupError("'readings' must be an object of reading: answer")
    chosen = defaults()
    for key, value in given.items():
        if key in RETIRED:
            _retired(str(key), value)
            continue
        reading = BY_ID.get(str(key))
        if reading is None:
            raise SetupError(f"readings: no reading {key!r} (the readings: {', '.join(BY_ID)})")
        if value not in dict(reading.answers):
            raise SetupError(f"readings.{key}: {value!r} is not an answer (the answers: "
                             f"{', '.join(v for v, _ in reading.answers)})")
        chosen[str(key)] = str(value)
    return chosen


def _retired(key: str, value: object) -> None:
    if value != RETIRED[key]:
        raise SetupError(f"readings.{key}: {value!r} is not played: it would let the higher bidder reverse the "
                         f"rulebook's bid example (\"He therefore cannot reverse the outcome of the duel\"); "
                         f"the rule is {RETIRED[key]!r} (docs/straszydla.md, \"A round\")")


def described() -> list[dict[str, object]]:
    """The readings for the setup screen and the docs: question, answers, our default, why."""
    return [{"id": r.id, "question": r.question, "answers": [{"value": v, "words": w} for v, w in r.answers],
             "default": r.default, "why": r.why} for r in READINGS]


__all__ = ["BY_ID", "READINGS", "RETIRED", "Reading", "defaults", "described", "parse_readings"]
