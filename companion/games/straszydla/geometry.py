"""The board as laid out at setup, for moving: an 8-neighbour grid whose squares are named
by the tiles on them, the suburbs joined by free jumps, the blockades as the engine's
``Block`` changes; and the movement plans checked against it.

A plan is the player's three movement tokens, laid from left to right, in board
directions (``N`` ... ``NW``; the phone turns the board to the player's side and sends
what they laid in the board's terms), with the two extra moves the rulebook allows:

* ``jump:<suburb>``: right after an arrow reaches a suburb, on to any other suburb, for
  free ("If during your move you reach a suburb, you may automatically move to any other
  suburb and continue your move");
* ``suburb:<suburb>``: an arrow spent going to any suburb, only when no arrow can be laid
  ("If for some reason you cannot move ... you may move to any suburb, at the cost of one
  arrow"); ``stay``: an arrow spent standing still, when not even a suburb is open.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from companion.engine.board import Block, Board, jumps
from companion.engine.errors import IllegalInput
from companion.engine.grid import Direction, Grid

from .packdata import Pack
from .state import GameState

ARROWS = 3  # "Keep at hand 3 movement tokens"
DIRECTIONS = tuple(d.name for d in Direction)
JUMP, SUBURB, STAY = "jump:", "suburb:", "stay"
#: How much a seat at each side turns the board (eighths of a turn) so their side is at the bottom.
TURNS = {"S": 0, "W": 2, "N": 4, "E": 6}


def square_key(column: int, row: int) -> str:
    return f"{column},{row}"


def parse_square(key: str) -> tuple[int, int]:
    column, _, row = key.partition(",")
    return int(column), int(row)


@functools.lru_cache(maxsize=32)
def _base(columns: int, rows: int, layout: tuple[tuple[str, str], ...], suburbs: tuple[str, ...]) -> Board:
    names = {parse_square(square): tile for square, tile in layout}
    return Grid(columns, rows, diagonals=True, names=names).with_ways(jumps(suburbs))


@dataclass(frozen=True)
class Geometry:
    """The board of one game as it is now (its blockades)."""

    board: Board
    suburbs: tuple[str, ...]
    blockades: frozenset[str]

    @classmethod
    def of(cls, pack: Pack, state: GameState) -> "Geometry":
        suburbs = tuple(tile for tile in state.layout.values() if pack.tile(tile).kind == "suburb")
        base = _base(state.columns, state.rows, tuple(sorted(state.layout.items())), suburbs)
        return cls(base.changed(Block(place) for place in state.blockades), suburbs, frozenset(state.blockades))

    @property
    def grid(self) -> Grid:
        board = self.board
        assert isinstance(board, Grid)
        return board

    def step(self, place: str, direction: Direction) -> str | None:
        """Where one arrow takes a pawn, or None (off the board, or into a blockade)."""
        there = self.grid.toward(place, direction)
        return there if there is not None and there not in self.blockades else None

    def arrows(self, place: str) -> dict[str, str]:
        """Every arrow a pawn on ``place`` may lay now: direction -> where it goes."""
        return {d.name: there for d in Direction if (there := self.step(place, d)) is not None}

    def open_suburbs(self, besides: str | None = None) -> list[str]:
        return [s for s in self.suburbs if s not in self.blockades and s != besides]

    def withdrawals(self, place: str) -> list[str]:
        """The spaces next to ``place`` a duel's loser may withdraw to ("one onto which movement is allowed")."""
        return list(self.arrows(place).values())

    def facing(self, side: str, direction: str) -> str:
        """A direction as a player at ``side`` sees it on their turned board (N: straight ahead)."""
        return Direction[direction].turned(TURNS[side]).name


# -- plans ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Walk:
    """A checked plan: the districts the pawn goes through, the start first."""

    plan: tuple[str, ...]
    path: tuple[str, ...]

    @property
    def end(self) -> str:
        return self.path[-1]


def walk(geometry: Geometry, start: str, plan: object, jump_last: bool = True) -> Walk:
    """The plan laid out from ``start``, or IllegalInput saying which token cannot be laid and why."""
    tokens = _tokens(plan)
    here, arrows, reached_suburb, path = start, 0, False, [start]
    for n, token in enumerate(tokens, 1):
        if token.startswith(JUMP):
            if arrows == ARROWS and not jump_last:
                raise IllegalInput(f"token {n}: a jump only goes on with a move, and all {ARROWS} arrows are laid")
            here, reached_suburb = _jump(geometry, here, token[len(JUMP):], reached_suburb, n), False
        else:
            if arrows == ARROWS:
                raise IllegalInput(f"token {n}: a plan has {ARROWS} movement tokens, and they are all laid")
            here = _arrow(geometry, here, token, n)
            arrows += 1
            reached_suburb = token in DIRECTIONS and here in geometry.suburbs
        path.append(here)
    if arrows != ARROWS:
        raise IllegalInput(f"lay all {ARROWS} movement tokens (this plan has {arrows})")
    return Walk(tuple(tokens), tuple(path))


def _tokens(plan: object) -> list[str]:
    if not isinstance(plan, (list, tuple)) or not all(isinstance(t, str) for t in plan):
        raise IllegalInput("a plan is a list of movement tokens like [\"N\", \"NE\", \"E\"]")
    return list(plan)


def _arrow(geometry: Geometry, here: str, token: str, n: int) -> str:
    if token in DIRECTIONS:
        there = geometry.step(here, Direction[token])
        if there is None:
            why = "off the board" if geometry.grid.toward(here, Direction[token]) is None else "into a blockade"
            raise IllegalInput(f"token {n}: {token} from {here} goes {why}")
        return there
    if geometry.arrows(here):
        raise IllegalInput(f"token {n}: the pawn can still move from {here}; an arrow to any suburb (or standing "
                           "still) is only for a pawn that cannot move")
    if token.startswith(SUBURB):
        return _open_suburb(geometry, here, token[len(SUBURB):], n)
    if token == STAY and not geometry.open_suburbs(here):
        return here
    raise IllegalInput(f"token {n}: {token!r} is not a movement token (a direction N ... NW, "
                       f"'{SUBURB}<suburb>' or '{JUMP}<suburb>')")


def _jump(geometry: Geometry, here: str, there: str, reached: bool, n: int) -> str:
    if not reached:
        raise IllegalInput(f"token {n}: a jump to another suburb comes right after an arrow that reaches a suburb")
    return _open_suburb(geometry, here, there, n)


def _open_suburb(geometry: Geometry, here: str, there: str, n: int) -> str:
    if there not in geometry.suburbs:
        raise IllegalInput(f"token {n}: {there!r} is not a suburb")
    if there == here or there in geometry.blockades:
        raise IllegalInput(f"token {n}: {there} is {'where the pawn is' if there == here else 'blockaded'}")
    return there


def plans_to_each_end(geometry: Geometry, start: str, jump_last: bool = True) -> dict[str, tuple[str, ...]]:
    """One plan to every district a pawn on ``start`` can end on (the first found, fewest tokens):
    the menu of a terminal and the random player's choices."""
    found: dict[str, tuple[str, ...]] = {}
    todo: list[tuple[tuple[str, ...], str, int, bool]] = [((), start, 0, False)]
    seen: set[tuple[str, int, bool]] = set()
    while todo:
        plan, here, arrows, reached = todo.pop(0)
        if arrows == ARROWS:
            found.setdefault(here, plan)
        for token, there, used, now_reached in _next_tokens(geometry, here, arrows, reached, jump_last):
            key = (there, arrows + used, now_reached)
            if key not in seen:
                seen.add(key)
                todo.append((plan + (token,), there, arrows + used, now_reached))
    return found


def _next_tokens(geometry: Geometry, here: str, arrows: int, reached: bool,
                 jump_last: bool) -> list[tuple[str, str, int, bool]]:
    moves: list[tuple[str, str, int, bool]] = []
    if reached and (arrows < ARROWS or jump_last):
        moves += [(JUMP + s, s, 0, False) for s in geometry.open_suburbs(here)]
    if arrows == ARROWS:
        return moves
    steps = geometry.arrows(here)
    moves += [(d, there, 1, there in geometry.suburbs) for d, there in steps.items()]
    if not steps:
        suburbs = geometry.open_suburbs(here)
        moves += [(SUBURB + s, s, 1, False) for s in suburbs] or [(STAY, here, 1, False)]
    return moves


__all__ = ["ARROWS", "DIRECTIONS", "Geometry", "JUMP", "STAY", "SUBURB", "TURNS", "Walk", "parse_square",
           "plans_to_each_end", "square_key", "walk"]
