"""The box as Dungeon Master: picks one of the DM's legal turns (dm.turns) by a
score, at three levels, and says in one sentence why.

How it plays. The DM wins by destroying the three safe houses and loses the
moment a hero stands in the Church with no creature there, so a good DM does
two things at once: keeps the Church guarded against the heroes who could
reach it, and sends its other creatures at the houses (and at heroes with
few hit points: a slain hero rises as a zombie). Each turn it scores every
legal (move, action): the position after the move (how near its creatures are
to the standing houses, how well the Church is held against how near the
heroes are, which heroes it stands beside) plus what the action is worth on
average (a Destroy Site, an attack's chance to hit times the harm, a summon's
table). ``hard`` takes the best; ``normal`` adds noise to the scores and
guards the Church only when a hero is close; ``easy`` guards nothing, often
plays an ordinary turn at random and scores with much noise. Normal and hard
never pass up a house they can destroy this turn, and no level passes when an
action is open (Summon always is, and never harms the DM).

The reason is built from the turn chosen, never written beside it: the moved
creature and the square it went to, then the action with its creature and
square, each clause a fact of the position (tests/test_siege_rulebook.py
checks every reason of many games against its turn).

Deterministic for a seed: every random draw comes from a generator seeded by
the game's seed and the DM turn's number, so the same game replays the same.
A turn takes a few milliseconds (benchmarks/bench_siege.py prints the time).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .dm import ATTACK, DESTROY, DM_HITS_ON, SUMMON, DmAct, DmMove, DmTurn, acts, turns
from .state import GHOUL, MOVER, STRAHD, ZOMBIE, Figure, SiegeState
from .words import the, the_place, where

FAR: Final = 24  # a square no creature can reach counts as this far


@dataclass(frozen=True)
class Level:
    """How a level plays: its weights and its noise."""

    guard: float  # the Church held, times how near the heroes are
    guard_from: int  # heroes farther than this from the Church are no threat to this level
    houses: float  # each square nearer the standing safe houses
    hunt: float  # a creature beside a hero
    noise: float  # added to each score, uniformly from 0 to this
    wander: float  # the chance of an ordinary turn at random instead
    takes_win: bool = True  # a winning turn (the last safe house) is never passed up
    takes_house: bool = True  # a house it can destroy this turn is never passed up (the best such turn is played)


LEVELS: Final[dict[str, Level]] = {
    "easy": Level(guard=0.0, guard_from=0, houses=1.0, hunt=1.0, noise=30.0, wander=0.55, takes_win=False,
                  takes_house=False),
    "normal": Level(guard=18.0, guard_from=1, houses=2.0, hunt=3.0, noise=12.0, wander=0.15),
    "hard": Level(guard=60.0, guard_from=4, houses=3.0, hunt=4.0, noise=0.0, wander=0.0),
}
DESTROY_VALUE: Final = 80.0
LAST_HOUSE: Final = 1000.0
HIT_VALUE: Final = 10.0
SLAY_VALUE: Final = 25.0
STRAHD_VALUE: Final = 14.0
SUMMONED_VALUE: Final = 6.0


@dataclass(frozen=True)
class Choice:
    turn: DmTurn
    why: str


def rng_for(state: SiegeState, salt: str = "") -> random.Random:
    """The generator of this DM turn: the game's seed and the turn's number (and what it is for)."""
    return random.Random(f"siege:{state.seed}:{state.dm_turns}:{salt}")


class _Look:
    """What a turn's score reads, worked out once per DM turn: each creature's distance to the Church
    and to each standing house, how near the heroes are, the position's parts before any move (a move
    changes one creature's part only, so a village full of zombies is scored as quickly as an empty one)."""

    def __init__(self, state: SiegeState, level: Level) -> None:
        self.state, self.level = state, level
        board = state.board()
        self.church = state.map.square_of("church")
        self.houses = {h: state.map.square_of(h) for h in state.standing()}
        targets = [self.church, *self.houses.values()]
        self.to: dict[tuple[str, str], Mapping[str, int]] = {
            (mover, t): board.distances(t, mover) for mover in ("hero", ZOMBIE, GHOUL, STRAHD) for t in targets}
        self.heroes = state.heroes()
        self.hero_squares: dict[str, int] = {}
        for h in self.heroes:
            self.hero_squares[h.square or ""] = self.hero_squares.get(h.square or "", 0) + 1
        self.enemies = {e.id: e for e in state.enemies()}
        self.danger = self._danger()
        self.exposed_to = self._next_hero_near()
        self._closest = {h: self._two_closest(square) for h, square in self.houses.items()}
        self._counts = self._count(None, "", "")

    def far(self, mover: str, target: str, square: str) -> int:
        return self.to[(mover, target)].get(square, FAR)

    def far_from(self, creature: Figure, target: str, square: str) -> int:
        return self.far(MOVER[creature.kind], target, square)

    def _danger(self) -> float:
        """How near the heroes are to the Church: 1 for one next to it, less the farther the nearest is."""
        if not self.heroes:
            return 0.0
        nearest = min(self.far("hero", self.church, h.square or "") for h in self.heroes)
        if nearest > self.level.guard_from:
            return 0.0
        return {0: 1.0, 1: 1.0, 2: 0.6, 3: 0.35}.get(nearest, 0.2)

    def _next_hero_near(self) -> Figure | None:
        """The hero who plays next, if the Church is within their one move."""
        players = self.state.players
        upcoming = players[(self.state.active + 1) % len(players)]
        figure = self.state.figure_of(upcoming)
        if figure is None or figure.square is None:
            return None
        return figure if self.far("hero", self.church, figure.square) <= 1 else None

    def _two_closest(self, house: str) -> list[tuple[int, str]]:
        ranked = sorted((self.far_from(e, house, e.square or ""), e.id) for e in self.enemies.values())
        return ranked[:2]

    def _count(self, moved: str | None, start: str, end: str) -> tuple[int, int, int]:
        """Guards on the Church, creatures one step from it, creatures beside a hero: before any move, or
        the change one creature's move makes."""
        if moved is None:
            squares = [(e, e.square or "") for e in self.enemies.values()]
            return (sum(self._part(e, s)[0] for e, s in squares), sum(self._part(e, s)[1] for e, s in squares),
                    sum(self._part(e, s)[2] for e, s in squares))
        creature = self.enemies[moved]
        before, after = self._part(creature, start), self._part(creature, end)
        return tuple(b - a + c for a, b, c in zip(before, after, self._counts))  # type: ignore[return-value]

    def _part(self, creature: Figure, square: str) -> tuple[int, int, int]:
        return (1 if square == self.church else 0, 1 if self.far_from(creature, self.church, square) == 1 else 0,
                self.hero_squares.get(square, 0))

    def pressure(self, move: DmMove | None) -> int:
        """Less the sum, over the standing houses, of the nearest creature's distance to each, and less
        the nearest of those once more: one creature between two houses must still close in on one
        (a step toward one house and away from the other leaves the sum as it was)."""
        nearest = []
        for house, square in self.houses.items():
            ranked = self._closest[house]
            best = next((d for d, e in ranked if move is None or e != move.figure), FAR)
            if move is not None:
                best = min(best, self.far_from(self.enemies[move.figure], square, move.to))
            nearest.append(best)
        return -sum(nearest) - min(nearest, default=0)

    def counts(self, move: DmMove | None) -> tuple[int, int, int]:
        if move is None:
            return self._counts
        return self._count(move.figure, self.enemies[move.figure].square or "", move.to)


# -- scoring ----------------------------------------------------------------------------------------------

def _position(look: _Look, move: DmMove | None) -> float:
    level = look.level
    guards, reserve, beside = look.counts(move)
    held = look.danger * (min(guards, 2) + 0.5 * min(reserve, 2))
    exposed = -500.0 if guards == 0 and look.exposed_to is not None and level.guard else 0.0
    return level.houses * look.pressure(move) + level.guard * held + level.hunt * beside + exposed


def _act_value(look: _Look, act: DmAct | None, move: DmMove | None) -> float:
    state = look.state
    if act is None:
        return 0.0
    if act.kind == DESTROY:
        return DESTROY_VALUE + (LAST_HOUSE if len(state.standing()) == 1 else 0.0)
    if act.kind == ATTACK:
        creature, hero = state.figures[act.by or ""], state.figures[act.target or ""]
        chance = (7 - DM_HITS_ON[creature.kind]) / 6
        near = 1.5 if look.far("hero", look.church, hero.square or "") <= 2 else 1.0
        return chance * (HIT_VALUE + (SLAY_VALUE if hero.hp == 1 else 0.0)) * near
    unguarded = look.counts(move)[0] == 0
    zombie = SUMMONED_VALUE + look.level.guard * look.danger * (1.0 if unguarded else 0.3)
    strahd = 0.0 if state.strahd.on_board else STRAHD_VALUE
    return zombie / 3 + SUMMONED_VALUE / 6 + strahd / 6


def score(look: _Look, turn: DmTurn) -> float:
    return _position(look, turn.move) + _act_value(look, turn.act, turn.move)


# -- choosing ------------------------------------------------------------------------------------------------

def choose(state: SiegeState) -> Choice:
    """The box's DM turn and why, for the game's level; the same for the same state and seed."""
    level = LEVELS[state.level]
    rng = rng_for(state)
    look = _Look(state, level)
    every = _acting(turns(state))
    destroys = [t for t in every if t.act is not None and t.act.kind == DESTROY]
    if destroys and len(state.standing()) == 1 and level.takes_win:
        return Choice(destroys[0], reason(look, destroys[0]))
    if destroys and level.takes_house:
        turn = _best(look, destroys, rng)
        return Choice(turn, reason(look, turn))
    if rng.random() < level.wander:
        ordinary = [t for t in every if t.act is not None and t.act.kind != DESTROY] or every
        turn = rng.choice(ordinary)
        return Choice(turn, reason(look, turn, wandering=True))
    best = _best(look, every, rng)
    return Choice(best, reason(look, best))


def _acting(every: list[DmTurn]) -> list[DmTurn]:
    """The turns with an action, when there are any: Summon is always open and never harms the DM, so
    the box never passes it up for no action at all."""
    return [t for t in every if t.act is not None] or every


def _best(look: _Look, every: list[DmTurn], rng: random.Random) -> DmTurn:
    """The best-scored turn, with the level's noise (drawn once per turn, in order: the same seed, the same)."""
    scored = [(score(look, t) + rng.uniform(0.0, look.level.noise), n, t) for n, t in enumerate(every)]
    return max(scored, key=lambda entry: (entry[0], -entry[1]))[2]


def arrival(state: SiegeState) -> str:
    """Where Strahd lands, for the box: the edge square nearest a standing house, then nearest a hero."""
    edge = list(state.map.edge)
    if LEVELS[state.level].wander >= 0.5:
        return rng_for(state, "arrival").choice(edge)
    look = _Look(state, LEVELS[state.level])
    targets = [*look.houses.values()] or [look.church]
    heroes = [h.square or "" for h in look.heroes]
    board = state.board()

    def key(square: str) -> tuple[int, int, str]:
        house = min(look.far(STRAHD, t, square) for t in targets)
        hero = min((board.distances(square, STRAHD).get(h, FAR) for h in heroes), default=FAR)
        return house, hero, square

    return min(edge, key=key)


# -- why, in one sentence -------------------------------------------------------------------------------------
# Built from the turn it explains, part by part: the moved figure and the square it steps onto (with what
# that square is: the Church, a safe house, a hero's square, nearer a house), then the action played by its
# figure on its square. Every clause is a fact of the position, never a guess of intent.

def reason(look: _Look, turn: DmTurn, wandering: bool = False) -> str:
    parts = [_move_words(look, turn.move)] if turn.move else []
    parts.append(_act_words(look, turn))
    text = "; then ".join(parts)
    if wandering:
        text += f" (on a whim: the {look.state.level} DM plays a turn at random {look.level.wander:.0%} of the time)"
    return text[:1].upper() + text[1:] + "."


def _move_words(look: _Look, move: DmMove) -> str:
    state = look.state
    creature = state.figures[move.figure]
    mover = MOVER[creature.kind]
    start = creature.square or ""
    place = state.map.place_at(move.to)
    goes = f"{the(creature)} {'steps onto' if place else 'moves to'} {where(state, move.to)}"
    if move.to == look.church:
        return f"{goes}: {_nearest_hero_words(look)}" if look.heroes else goes
    if place is not None and place.id in look.houses:
        return f"{goes}, a safe house still standing"
    hero = next((h for h in look.heroes if h.square == move.to), None)
    if hero is not None:
        return f"{goes}, onto {hero.name}, who has {hero.hp} hit point{'s' if hero.hp != 1 else ''}"
    for house, square in look.houses.items():
        after, before = look.far(mover, square, move.to), look.far(mover, square, start)
        if after < before:
            return f"{goes}, {after} square{'s' if after != 1 else ''} from {the_place(state, house)}"
    return goes


def _nearest_hero_words(look: _Look) -> str:
    near = min(look.heroes, key=lambda h: look.far("hero", look.church, h.square or ""))
    distance = look.far("hero", look.church, near.square or "")
    return (f"{near.name} is {distance} square{'s' if distance != 1 else ''} from stopping the plague"
            if distance else f"{near.name} stands in it")


def _act_words(look: _Look, turn: DmTurn) -> str:
    state, act, move = look.state, turn.act, turn.move
    if act is None:
        return f"the DM takes no action: {_pass_words(look, move)}"
    if act.kind == SUMMON:
        return f"the DM summons: {_summon_words(look, move)}"
    creature = state.figures[act.by or ""]
    square = move.to if move and move.figure == creature.id else creature.square or ""
    subject = "it" if move and move.figure == creature.id else the(creature)
    if act.kind == DESTROY:
        left = len(state.standing()) - 1
        tail = "the last safe house" if left == 0 else f"{left} safe house{'s' if left != 1 else ''} will be left"
        return f"{subject} destroys {where(state, square)}: {tail}"
    hero = state.figures[act.target or ""]
    why = "one more hit slays them" if hero.hp == 1 else f"it hits on {DM_HITS_ON[creature.kind]} or more"
    return f"{subject} attacks {hero.name} on {where(state, square)}: {why}"


def _pass_words(look: _Look, move: DmMove | None) -> str:
    """Why the DM passes: only ever said when no action is open (the box never passes one up)."""
    return "no action is open" if not acts(look.state, move) else "the DM may pass and does"


def _summon_words(look: _Look, move: DmMove | None) -> str:
    state = look.state
    if look.danger > 0 and look.counts(move)[0] == 0:
        return f"a 3 or 4 puts a new zombie on {the_place(state, 'church')}, which no creature guards"
    if not state.strahd.on_board:
        return "a 6 brings Count Strahd onto the board"
    only = all(a.kind == SUMMON for a in acts(state, move))
    return "a 3, 4 or 5 brings a new creature" + (" (no creature can attack or destroy)" if only else "")


__all__ = ["Choice", "LEVELS", "Level", "arrival", "choose", "reason", "rng_for", "score"]
