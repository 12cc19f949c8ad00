"""What the forecast counts at the end of each way a Monster Phase can go, and how the
counts of several ways are put together.

Every way ends in a *tally*: one number per thing the table asks about (was this hero
attacked, defeated; does a monster stand at this place; how far did terror rise; is the
game lost). A node's value holds, for each of the two ways a hit hero may answer (discard
items, or never), three tallies: the lowest and the highest the active player's choices can
make each number, and the number when they choose at random.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from companion.engine.effects import EffectSink

from ..context import GameContext
from ..state import GameState

#: The two ways a hit hero may answer in the forecast: discard items when they can, or never.
MODES = ("discarding", "keeping")


class LedgerSink(EffectSink):
    """An effect sink that keeps only who was attacked and who was defeated, in words the
    tally reads: ``hero:<id>`` and ``villager:<id>``."""

    def __init__(self, attacked: Iterable[str] = (), defeated: Iterable[str] = ()) -> None:
        super().__init__()
        self.attacked: set[str] = set(attacked)
        self.defeated: set[str] = set(defeated)
        self.rerolls = 0  # "reroll" effects: the rules ask for a roll again, its face counting for nothing

    def emit(self, kind: str, text: str, /, **data: object) -> None:
        if kind == "target":
            self.attacked.add(f"{data.get('target_kind')}:{data.get('target')}")
        elif kind == "hero-defeated":
            self.defeated.add(f"hero:{data.get('hero')}")
        elif kind == "villager-defeated":
            self.defeated.add(f"villager:{data.get('villager')}")
        elif kind == "reroll":
            self.rerolls += 1

    def tell(self, seats: tuple[str, ...], kind: str, text: str, /, **data: object) -> None:
        self.emit(kind, text, **data)


@dataclass(frozen=True)
class Layout:
    """Where each number sits in a tally."""

    characters: tuple[str, ...]  # "hero:<id>" / "villager:<id>"
    places: tuple[str, ...]
    start_terror: int

    @property
    def size(self) -> int:
        return 2 * len(self.characters) + len(self.places) + 2

    def tally(self, ctx: GameContext, sink: LedgerSink) -> list[float]:
        """The numbers of one finished way."""
        standing = {ctx.where(f) for f in ctx.monster_figures()}
        state = ctx.state
        return ([1.0 if c in sink.attacked else 0.0 for c in self.characters]
                + [1.0 if c in sink.defeated else 0.0 for c in self.characters]
                + [1.0 if p in standing else 0.0 for p in self.places]
                + [float(state.terror - self.start_terror), 1.0 if _lost(state) else 0.0])


def _lost(state: GameState) -> bool:
    return state.outcome is not None and state.outcome.startswith("lost")


def layout_of(ctx: GameContext, places: Iterable[str]) -> Layout:
    heroes = [f"hero:{h}" for h in ctx.state.heroes]
    villagers = [f"villager:{v}" for v, s in ctx.state.villagers.items() if s.location is not None]
    return Layout(tuple(heroes + villagers), tuple(places), ctx.state.terror)


Tally = list[float]


@dataclass
class Value:
    """Per answering mode: the lowest, highest and random-choice tally below a node."""

    low: list[Tally]
    high: list[Tally]
    mean: list[Tally]

    @classmethod
    def leaf(cls, tally: Tally) -> Value:
        return cls([tally, tally], [tally, tally], [tally, tally])


def chance(children: Sequence[tuple[float, Value]]) -> Value:
    """Each way weighted by its chance (the weights sum to one)."""
    return Value([_weighted([(w, v.low[m]) for w, v in children]) for m in range(2)],
                 [_weighted([(w, v.high[m]) for w, v in children]) for m in range(2)],
                 [_weighted([(w, v.mean[m]) for w, v in children]) for m in range(2)])


def choice(children: Sequence[tuple[float, Value]]) -> Value:
    """The active player's answer: each number at its lowest and highest over the answers,
    and the random-choice value weighted as a random player would choose."""
    return Value([_lowest([v.low[m] for _, v in children]) for m in range(2)],
                 [_highest([v.high[m] for _, v in children]) for m in range(2)],
                 [_weighted([(w, v.mean[m]) for w, v in children]) for m in range(2)])


def defend(discard: Value | None, fall: Value) -> Value:
    """Discarding mode follows the discard (when the hero can), keeping mode the fall."""
    spent = discard or fall
    return Value([spent.low[0], fall.low[1]], [spent.high[0], fall.high[1]], [spent.mean[0], fall.mean[1]])


def _weighted(parts: Sequence[tuple[float, Tally]]) -> Tally:
    """The weighted sum of the tallies; a tally shared by several parts is added once."""
    weights: dict[int, float] = {}
    tallies: dict[int, Tally] = {}
    for weight, tally in parts:
        weights[id(tally)] = weights.get(id(tally), 0.0) + weight
        tallies[id(tally)] = tally
    out: Tally | None = None
    for key, tally in tallies.items():
        weight = weights[key]
        out = [weight * x for x in tally] if out is None else [a + weight * x for a, x in zip(out, tally)]
    assert out is not None, "a weighted sum of nothing"
    return out


def _lowest(tallies: Sequence[Tally]) -> Tally:
    return [min(column) for column in zip(*tallies)]


def _highest(tallies: Sequence[Tally]) -> Tally:
    return [max(column) for column in zip(*tallies)]
