"""A game of Straszydła as plain data: the board as laid out, the cubes and markers on it,
the players' resources, the stacks, the time of day and what the round has come to.

Why plain data: a game is its inputs folded over its origin (docs/engine.md), and the
views are built from this state. Three things in it are one player's secret: their
``pact``, their ``plan`` before the reveal, their ``bid`` before the reveal. Only the seat
view (view.py) ever reads them for that seat; the public view never does.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Player:
    seat: str
    name: str
    side: str  # the board edge they sit at: N, E, S or W
    at: str  # the district their pawn stands on
    creatures: list[str] = field(default_factory=list)
    energy: int = 0  # white cubes
    horror: int = 0  # black cubes
    cubes: dict[str, int] = field(default_factory=dict)  # fear cubes by element
    imps: list[str] = field(default_factory=list)
    pact: str | None = None  # secret: the pact card in their hand
    plan: list[str] | None = None  # secret until every plan is revealed
    bid: int | None = None  # secret until both bids are revealed

    def fear(self, element: str) -> int:
        return self.cubes.get(element, 0)


@dataclass
class Stack:
    """A creature stack of one element: the creature known to be on top (a 3/3 at setup),
    and the others still in it, in no known order."""

    top: str | None = None
    rest: list[str] = field(default_factory=list)

    def left(self) -> list[str]:
        return ([self.top] if self.top else []) + list(self.rest)


@dataclass
class Duel:
    """A duel under way: ``holder`` entered the district first, ``challenger`` after."""

    place: str
    holder: str
    challenger: str
    dice: dict[str, list[int]] = field(default_factory=dict)
    bids_in: list[str] = field(default_factory=list)  # who has bid (their amounts stay in Player.bid)
    bids: dict[str, int] = field(default_factory=dict)  # revealed
    step: str = "roll"  # roll, bid, change, retreat

    @property
    def sides(self) -> tuple[str, str]:
        return self.holder, self.challenger


@dataclass
class GameState:
    pack_id: str  # "" for the shipped data, else the owner's data fingerprint
    readings: dict[str, str]
    columns: int
    rows: int
    layout: dict[str, str]  # "column,row" -> tile id
    order: list[str]  # the seats, clockwise
    players: dict[str, Player]
    starting: str  # who holds the day/night card
    time: str  # day or night
    card: int = 4  # horror cubes on the day/night card
    round: int = 0  # rounds played so far, in all
    round_in_time: int = 0  # 1 to 4
    rounds_since_clear: int = 0  # for the two-player variant
    phase: str = "setup"
    cubes: dict[str, dict[str, int]] = field(default_factory=dict)  # district -> element -> fear cubes on it
    blockades: list[str] = field(default_factory=list)
    stops: dict[str, list[str]] = field(default_factory=dict)  # district -> seats whose STOP marker is there
    stacks: dict[str, Stack] = field(default_factory=dict)
    imp_stacks: dict[str, list[str]] = field(default_factory=dict)  # element -> imps, top first
    planned: list[str] = field(default_factory=list)  # who has planned this round (not what)
    plans: dict[str, list[str]] = field(default_factory=dict)  # this round's plans, once revealed
    paths: dict[str, list[str]] = field(default_factory=dict)  # the districts each pawn went through
    entered: dict[str, list[str]] = field(default_factory=dict)  # district -> seats in the order they came
    duel: Duel | None = None
    acting: str | None = None  # whose actions these are
    done: dict[str, list[str]] = field(default_factory=dict)  # seat -> actions taken this round (once-a-round ones)
    fed: dict[str, list[str]] = field(default_factory=dict)  # this feeding: seat -> creatures fed
    pacts_in: list[str] = field(default_factory=list)  # who has named their pact card (not which)
    winners: list[str] = field(default_factory=list)
    outcome: str | None = None
    data: dict[str, object] | None = None  # the owner's data the game plays with
    barred: list[str] = field(default_factory=list)  # duel losers left with nowhere to go: no district actions
    lost: dict[str, list[str]] = field(default_factory=dict)  # this round: seat -> districts they lost a duel in
    drawing: str | None = None  # the imp stack whose top the box is asking about (no imp taken from it meanwhile)

    def player(self, seat: str) -> Player:
        return self.players[seat]

    def from_starting(self) -> list[str]:
        """The seats in turn order, the starting player first."""
        at = self.order.index(self.starting)
        return self.order[at:] + self.order[:at]

    def on(self, place: str) -> list[str]:
        return [seat for seat in self.from_starting() if self.players[seat].at == place]
