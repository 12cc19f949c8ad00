"""A toy game on the pack seam, for the tests: "Secret words".

Two seats, North and South. Each round both write a word in secret; once
both have written, the two words are revealed together and the longer one
scores. First to two points wins.

It is here to prove what docs/engine.md promises: a game is a pack, plugged in
with no change outside its own folder (it is loaded through
``COMPANION_EXTRA_PACKS=toy_pack:ToyPack``), and one seat's secret (its word
before the reveal) reaches that seat only.
"""

from __future__ import annotations

import argparse
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from companion.engine.dice import DiceSet
from companion.engine.defaults import Suggestion, no_default, physical
from companion.engine.effects import EffectSink, natures_of
from companion.engine.errors import IllegalInput, SetupError
from companion.engine.game import Flow, Game, Step
from companion.engine.prompts import Prompt
from companion.engine.tabletop import Count, Tabletop, Track
from companion.games.gamepack import GamePack, PackWeb, Policy, Seat, View

SEATS = {"north": "North", "south": "South"}
WORD = re.compile(r"[A-Za-z0-9-]{1,40}")
TO_WIN = 2


@dataclass
class ToyState:
    round: int = 1
    scores: dict[str, int] = field(default_factory=lambda: {seat: 0 for seat in SEATS})
    words: dict[str, str] = field(default_factory=dict)  # this round's secret words
    revealed: dict[str, str] = field(default_factory=dict)  # the last round's, once shown
    winner: str | None = None


class ToyRules:
    def begin(self, origin: Mapping[str, object], sink: EffectSink) -> tuple[ToyState, Flow[None]]:
        if "setup" not in origin:
            raise SetupError("a game of secret words starts from a 'setup'")
        state = ToyState()
        return state, self._play(state, sink)

    def _play(self, state: ToyState, sink: EffectSink) -> Flow[None]:
        while state.winner is None:
            for seat in SEATS:
                yield from self._choose(state, sink, seat)
            self._reveal(state, sink)

    def _choose(self, state: ToyState, sink: EffectSink, seat: str) -> Flow[None]:
        answer = yield Prompt("action", "secret-word", f"{SEATS[seat]}: write your word for round {state.round}.",
                              seat, audience=(seat,))
        assert isinstance(answer, Mapping)
        word = answer.get("word")
        if not isinstance(word, str) or not WORD.fullmatch(word):
            raise IllegalInput("write one word of letters, digits and dashes (at most 40)")
        state.words[seat] = word
        sink.tell((seat,), "word-chosen", f"You wrote {word}.", word=word)
        sink.emit("seat-ready", f"{SEATS[seat]} has written.", seat=seat)

    def _reveal(self, state: ToyState, sink: EffectSink) -> None:
        state.revealed, state.words = dict(state.words), {}
        values = {seat: len(word) for seat, word in state.revealed.items()}
        best = max(values.values())
        leaders = [seat for seat, value in values.items() if value == best]
        sink.reveal("revealed", "Revealed: " + ", ".join(f"{SEATS[s]} {w}" for s, w in state.revealed.items()) + ".",
                  words=dict(state.revealed))
        if len(leaders) == 1:
            state.scores[leaders[0]] += 1
            if state.scores[leaders[0]] >= TO_WIN:
                state.winner = leaders[0]
                sink.emit("game-won", f"{SEATS[leaders[0]]} wins.", outcome=f"{SEATS[leaders[0]]} wins")
        state.round += 1


class ToyCli:
    def add_play_options(self, parser: argparse.ArgumentParser) -> None:
        return None

    def setup(self, args: argparse.Namespace) -> Mapping[str, object]:
        return {}

    def policy(self, name: str, seed: int) -> Policy:
        rng = random.Random(seed)
        return lambda prompt, state: {"action": "write", "word": "x" * rng.randint(1, 9)}

    def step(self, game: Game, policy: Policy) -> Step:
        assert game.prompt is not None
        return game.apply({"key": game.prompt.key, "answer": policy(game.prompt, game.state)})

    def summary(self, game: Game) -> list[str]:
        state = _state(game)
        return [f"Round {state.round}: " + ", ".join(f"{SEATS[s]} {n}" for s, n in state.scores.items())]

    def add_commands(self, commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
        return None


class ToyPack:
    id = "secret-words"
    title = "Secret words (a toy game for the tests)"
    quiet_effects: frozenset[str] = frozenset()
    phase_marks = frozenset({"revealed"})
    phase_ends: frozenset[str] = frozenset()
    phase_name = "the round"
    effect_natures = natures_of(notes=("word-chosen", "seat-ready", "game-won"), results=("revealed",))

    def __init__(self) -> None:
        self.rules = ToyRules()

    def pack_view(self, game: Game | None = None) -> View:
        return {"seats": dict(SEATS), "to_win": TO_WIN, "secret_seats": True}

    def data_id(self, game: Game) -> str:
        return ""

    def public_view(self, game: Game) -> View:
        state = _state(game)
        return {"round": state.round, "scores": dict(state.scores), "chosen": sorted(state.words),
                "revealed": dict(state.revealed), "winner": state.winner}

    def seat_view(self, game: Game, seat: str) -> View:
        return {"my_word": _state(game).words.get(seat)}

    def seats(self, game: Game) -> list[Seat]:
        return [Seat(seat, name) for seat, name in SEATS.items()]

    def anytime_by(self, game: Game, move: object) -> str | None:
        """No moves at any time here."""
        return None

    def tabletop(self, game: Game) -> Tabletop:
        """Each seat's score marker and the last words shown; a word written this round lies face
        down in front of its writer: a slip everyone sees, never its word."""
        state = _state(game)
        places = {f"area:{seat}": f"in front of {name}" for seat, name in SEATS.items()}
        slips = {f"slip:{seat}": Count("face-down slip", "face-down slips", f"area:{seat}", 1 if seat in state.words else 0)
                 for seat in SEATS}
        tracks = {"round": Track("Round", state.round),
                  **{f"score:{seat}": Track(f"{name}'s score", state.scores[seat]) for seat, name in SEATS.items()},
                  **{f"shown:{seat}": Track(f"{name}'s word shown", state.revealed.get(seat)) for seat, name in SEATS.items()}}
        return Tabletop(places, {}, slips, tracks)

    def outcome(self, game: Game) -> str | None:
        winner = _state(game).winner
        return None if winner is None else f"{SEATS[winner]} wins"

    def action_menu(self, game: Game, seat: str | None) -> list[View]:
        return []

    def next_answer(self, prompt: Prompt | None) -> Suggestion:
        return (physical(prompt) if prompt else None) or no_default(prompt, "NEXT never chooses a secret word")

    def owner_data(self) -> None:
        return None

    def dice_sets(self) -> tuple[DiceSet, ...]:
        return ()

    def leds(self) -> None:
        return None

    def forecaster(self) -> None:
        return None

    def cli(self) -> ToyCli:
        return ToyCli()

    def web(self) -> PackWeb:
        return PackWeb(Path(__file__).resolve().with_name("web"))


def _state(game: Game) -> ToyState:
    state = game.state
    assert isinstance(state, ToyState)
    return state


def _as_game_pack(pack: ToyPack) -> GamePack:
    return pack
