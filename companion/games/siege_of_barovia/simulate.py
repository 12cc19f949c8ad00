"""Who answers a simulated game: seeded random players, a "first option"
player, and the scripted heroes the benchmark plays the box DM against.

The dice of a simulated game are rolled by the policy's own seeded generator
(the table's d6, as a random source would); the box DM's own choices are made
inside the rules (policy.py), from the game's seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Callable

from companion.engine.errors import IllegalInput
from companion.engine.game import Game, Step
from companion.engine.prompts import Prompt
from companion.engine.randomsource import RandomSource

from . import dm
from .menu import Entry, dm_menu, hero_menu
from .rules import DM_TURN, HERO_TURN
from .state import MOVER, SiegeState

Policy = Callable[[Prompt, object], object]
RETRIES = 5
WEIGHTS: dict[str | None, float] = {"stop-plague": 100.0, "attack": 4.0, "move": 3.0, "hustle": 2.0, "recruit": 3.0,
                                    "recruit-militia": 3.0, "upgrade": 3.0, "rest": 2.0, "fortify": 0.3, "end": 0.5}
#: A random DM still plays the game: it destroys a house it stands on far more often than it idles.
DM_WEIGHTS: dict[str | None, float] = {"destroy": 30.0, "attack": 4.0, "summon": 2.0, None: 0.2}


def _state(state: object) -> SiegeState:
    assert isinstance(state, SiegeState), "a Siege of Barovia game's state"
    return state


def random_action(prompt: Prompt, state: object, rng: random.Random) -> object:
    """A random legal answer: heroes favour progress; a DM played at random favours acting over idling."""
    siege = _state(state)
    if prompt.key == DM_TURN:
        return _plain(_by_kind(dm_menu(siege), _act_kind, DM_WEIGHTS, rng))
    return _plain(_by_kind(hero_menu(siege), lambda e: str(e["action"]), WEIGHTS, rng))


def _by_kind(menu: list[Entry], kind_of: Callable[[Entry], str | None], weights: Mapping[str | None, float],
             rng: random.Random) -> Entry:
    """A kind of answer by its weight, then one of that kind: forty ways to move a barricade weigh
    no more than one way to attack."""
    kinds: dict[str | None, list[Entry]] = {}
    for entry in menu:
        kinds.setdefault(kind_of(entry), []).append(entry)
    names = list(kinds)
    chosen = rng.choices(names, [weights.get(name, 1.0) for name in names])[0]
    return rng.choice(kinds[chosen])


def _act_kind(entry: Entry) -> str | None:
    act = entry.get("act")
    return str(act["kind"]) if isinstance(act, Mapping) else None


def _plain(entry: Entry) -> dict[str, object]:
    return {k: v for k, v in entry.items() if k != "label"}


def random_policy(seed: int) -> Policy:
    return RandomSource(seed, choose_action=random_action)


def first_policy() -> Policy:
    """The first option everywhere, a stop of the plague when offered, and dice that go round 1 to 6."""
    faces = iter(range(10 ** 9))

    def answer(prompt: Prompt, state: object) -> object:
        if prompt.kind == "roll":
            return [next(faces) % 6 + 1 for _ in range(prompt.count)]
        if prompt.kind in ("choice", "draw"):
            return prompt.options[0].id
        menu = dm_menu(_state(state)) if prompt.key == DM_TURN else hero_menu(_state(state))
        best = next((e for e in menu if e["action"] == "stop-plague"), menu[0])
        return _plain(best)
    return answer


# -- the scripted heroes ---------------------------------------------------------------------------------

def scripted_heroes(seed: int) -> Policy:
    """Heroes with a plan, for the benchmark: make for the Church, upgrading on the way when it is
    close, kill what stands in the Church, rest when one hit from death and the Tavern is near, raise
    a militia when slain, recruit when they can; the dice are random (seeded)."""
    rng = random.Random(seed)

    def answer(prompt: Prompt, state: object) -> object:
        if prompt.kind == "roll":
            return [rng.randint(1, 6) for _ in range(prompt.count)]
        if prompt.kind in ("choice", "draw"):
            return rng.choice(prompt.option_ids())
        if prompt.key == DM_TURN:
            return random_action(prompt, state, rng)
        return _plain(plan(_state(state), hero_menu(_state(state))))
    return answer


def plan(state: SiegeState, menu: list[Entry]) -> Entry:
    kinds: dict[str, list[Entry]] = {}
    for entry in menu:
        kinds.setdefault(str(entry["action"]), []).append(entry)
    for wanted in ("stop-plague", "recruit", "recruit-militia"):
        if wanted in kinds:
            return _nearest_church(state, kinds[wanted]) if wanted == "recruit-militia" else kinds[wanted][0]
    figure = state.figure_of(state.player)
    if figure is None:
        return kinds["end"][0]
    for wanted in ("attack", "rest", "upgrade"):
        if wanted in kinds and _worth(state, wanted, figure.hp):
            return min(kinds[wanted], key=lambda e: _easiest(state, e))
    for wanted in ("move", "hustle"):
        toward = _toward_church(state, kinds.get(wanted, []))
        if toward is not None:
            return toward
    return kinds["end"][0]


def _worth(state: SiegeState, action: str, hp: int) -> bool:
    return action != "rest" or hp == 1


def _easiest(state: SiegeState, entry: Entry) -> int:
    target = state.figures.get(str(entry.get("target", "")))
    return {"zombie": 0, "ghoul": 1, "strahd": 2}.get(target.kind, 3) if target else 0


def _church_distance(state: SiegeState, square: str) -> int:
    distances = state.board().distances(state.map.square_of("church"), MOVER["hero"])
    return distances.get(square, 99)


def _toward_church(state: SiegeState, entries: list[Entry]) -> Entry | None:
    figure = state.figure_of(state.player)
    here = _church_distance(state, figure.square or "") if figure else 99
    closer = [e for e in entries if _church_distance(state, str(e["to"])) < here]
    return min(closer, key=lambda e: _church_distance(state, str(e["to"]))) if closer else None


def _nearest_church(state: SiegeState, entries: list[Entry]) -> Entry:
    return min(entries, key=lambda e: _church_distance(state, state.map.square_of(str(e["at"]))))


# -- playing it out ----------------------------------------------------------------------------------------

def play_out(game: Game, policy: Policy, max_inputs: int) -> list[Step]:
    """Answer until the game ends or has ``max_inputs`` inputs; a refused action is drawn again, and after
    a few refusals the turn is ended (a hero) or passed (the DM)."""
    steps = []
    while not game.over and game.version < max_inputs:
        steps.append(answer_one(game, policy))
    return steps


def answer_one(game: Game, policy: Policy) -> Step:
    prompt = game.prompt
    assert prompt is not None
    for _ in range(RETRIES):
        try:
            return game.apply({"key": prompt.key, "answer": policy(prompt, game.state)})
        except IllegalInput:
            continue
    fallback: Mapping[str, object] = ({"action": "end"} if prompt.key == HERO_TURN
                                      else dm.DmTurn(None, dm.DmAct(dm.SUMMON)).to_plain())
    return game.apply({"key": prompt.key, "answer": fallback})


__all__ = ["answer_one", "first_policy", "plan", "play_out", "random_action", "random_policy", "scripted_heroes"]
