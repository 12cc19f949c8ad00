"""A game of Siege of Barovia as plain data: the players, every figure on the
village map (heroes, militia, zombies, ghouls, Count Strahd), the barricades,
the destroyed safe houses, who was recruited, whose turn it is and what the
Dungeon Master did last. The rules change it; the views read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Mapping

from companion.engine.board import Board, Wall

from .mapdata import SAFE_HOUSES, Line, SiegeMap

HERO: Final = "hero"
MILITIA: Final = "militia"
ZOMBIE: Final = "zombie"
GHOUL: Final = "ghoul"
STRAHD: Final = "strahd"
ENEMIES: Final = (ZOMBIE, GHOUL, STRAHD)
#: The figure kinds by what stops them: the board's movers (a hero and a militia walk alike).
MOVER: Final[dict[str, str]] = {HERO: HERO, MILITIA: HERO, ZOMBIE: ZOMBIE, GHOUL: GHOUL, STRAHD: STRAHD}
HERO_HP: Final = 3
MILITIA_HP: Final = 1
STRAHD_HP: Final = 3
LOCAL_HEROES: Final[dict[str, str]] = {"ashlyn": "Ashlyn", "ireena": "Ireena Kolyana"}
MOST_PLAYERS: Final = 6
DM_SEAT: Final = "dm"
KIND_WORDS: Final[dict[str, str]] = {HERO: "hero", MILITIA: "militia", ZOMBIE: "zombie", GHOUL: "ghoul",
                                     STRAHD: "Count Strahd"}


@dataclass
class Figure:
    """One figure. ``square`` None: off the board (Strahd before he arrives or after he fled)."""

    id: str
    kind: str
    name: str
    square: str | None
    hp: int = 1
    max_hp: int = 1
    player: str | None = None
    upgraded: bool = False

    @property
    def enemy(self) -> bool:
        return self.kind in ENEMIES

    @property
    def on_board(self) -> bool:
        return self.square is not None


@dataclass
class Player:
    id: str
    name: str
    figure: str | None = None


@dataclass
class DmDid:
    """The Dungeon Master's last turn, as the tablet draws it and the LEDs light it."""

    by: str  # "box" or "person"
    figure: str | None = None  # the creature moved
    path: tuple[str, ...] = ()
    act: str = "nothing"  # attack, summon, destroy, nothing
    actor: str | None = None
    target: str | None = None  # the hero attacked, or the place destroyed
    why: str = ""


@dataclass
class SiegeState:
    map: SiegeMap
    readings: Mapping[str, str]
    dm: str  # "box" or "person"
    level: str
    seed: int
    players: list[Player]
    figures: dict[str, Figure]
    barricades: list[Line]
    destroyed: list[str] = field(default_factory=list)
    recruited: list[str] = field(default_factory=list)
    turn: int = 1
    active: int = 0
    phase: str = "hero"  # hero, dm, over
    moved: bool = False
    acted: bool = False
    hustled: bool = False  # the action was Hustle: the hero's own move is still open, whatever the order
    last_dm: DmDid | None = None
    dm_turns: int = 0
    outcome: str | None = None
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def data_id(self) -> str:
        return self.map.data_id

    @property
    def player(self) -> Player:
        return self.players[self.active]

    def figure_of(self, player: Player) -> Figure | None:
        return self.figures.get(player.figure) if player.figure else None

    def player_named(self, player_id: str) -> Player:
        return next(p for p in self.players if p.id == player_id)

    def on_board(self, *kinds: str) -> list[Figure]:
        return [f for f in self.figures.values() if f.on_board and (not kinds or f.kind in kinds)]

    def enemies(self) -> list[Figure]:
        return self.on_board(*ENEMIES)

    def heroes(self) -> list[Figure]:
        return self.on_board(HERO, MILITIA)

    def at(self, square: str, *kinds: str) -> list[Figure]:
        return [f for f in self.on_board(*kinds) if f.square == square]

    def standing(self) -> list[str]:
        """The safe houses not destroyed, in the rules' order."""
        return [p for p in SAFE_HOUSES if p not in self.destroyed]

    def next_id(self, kind: str) -> str:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        return f"{kind}-{self.counts[kind]}"

    @property
    def strahd(self) -> Figure:
        return self.figures[STRAHD]

    def board(self) -> Board:
        """The village as it is now: the grid with today's barricades (Strahd crossing them or not)."""
        passes = {STRAHD} if self.readings["strahd_barricades"] == "crosses" else set()
        return self.map.grid.changed(Wall(a, b, frozenset(passes)) for a, b in self.barricades)


__all__ = ["DM_SEAT", "DmDid", "ENEMIES", "Figure", "GHOUL", "HERO", "HERO_HP", "KIND_WORDS", "LOCAL_HEROES",
           "MILITIA", "MILITIA_HP", "MOST_PLAYERS", "MOVER", "Player", "STRAHD", "STRAHD_HP", "SiegeState", "ZOMBIE"]
