"""Straszydła's table as a tabletop (companion/engine/tabletop.py): the district tiles laid out,
the pawns, STOP markers and blockades on them, the fear cubes in each district, each player's
creatures, imps and cubes in front of them, the creature and imp stacks, the day/night card and
its horror cubes. A player's pact card is a card in front of them, never which one (it is their
secret); sealed plans and bids are on their phones, not on the table."""

from __future__ import annotations

from companion.engine.tabletop import Count, Piece, Tabletop, Track

from .packdata import Pack
from .state import GameState


class _Laying:
    def __init__(self, pack: Pack, state: GameState) -> None:
        self.pack, self.state = pack, state
        self.places: dict[str, str] = {}
        self.pieces: dict[str, Piece] = {}
        self.counts: dict[str, Count] = {}

    def district(self, tile: str) -> str:
        self.places.setdefault(tile, self.pack.tile(tile).name)
        return tile

    def area(self, seat: str) -> str:
        key = f"area:{seat}"
        self.places.setdefault(key, f"in front of {self.state.players[seat].name}")
        return key

    def pile(self, key: str, name: str) -> str:
        self.places.setdefault(key, name)
        return key

    def cubes(self, at: str, key: str, colour: str, value: int) -> None:
        self.counts[f"cubes:{at}:{key}"] = Count(f"{colour} cube", f"{colour} cubes", at, value)


def tabletop(pack: Pack, state: GameState) -> Tabletop:
    laying = _Laying(pack, state)
    _board(laying)
    _players(laying)
    _stacks(laying)
    card = laying.area(state.starting)
    laying.pieces["day-night-card"] = Piece("the day/night card", card)
    laying.counts["cubes:day-night-card"] = Count("black horror cube", "black horror cubes",
                                                  laying.pile("day-night-card", "the day/night card"), state.card)
    return Tabletop(laying.places, laying.pieces, laying.counts, {"time": Track("The day/night card shows", state.time)})


def _board(laying: _Laying) -> None:
    pack, state = laying.pack, laying.state
    for cell, tile in state.layout.items():
        column, _, row = cell.partition(",")
        at = laying.pile(f"cell:{cell}", f"column {int(column) + 1}, row {int(row) + 1} of the board")
        laying.pieces[f"tile:{tile}"] = Piece(f"the {pack.tile(tile).name} tile", at)
    for district, cubes in state.cubes.items():
        for element, n in cubes.items():
            laying.cubes(laying.district(district), element, pack.colour(element), n)
    for district in state.blockades:
        laying.counts[f"blockade:{district}"] = Count("blockade", "blockades", laying.district(district), 1)
    for district, seats in state.stops.items():
        for seat in seats:
            laying.pieces[f"stop:{seat}"] = Piece(f"{state.players[seat].name}'s STOP marker", laying.district(district))


def _players(laying: _Laying) -> None:
    pack, state = laying.pack, laying.state
    for seat, player in state.players.items():
        laying.pieces[f"pawn:{seat}"] = Piece(f"{player.name}'s pawn", laying.district(player.at))
        area = laying.area(seat)
        for creature in player.creatures:
            laying.pieces[f"creature:{creature}"] = Piece(f"the {pack.creature(creature).name} card", area)
        for imp in player.imps:
            laying.pieces[f"imp:{imp}"] = Piece(f"the imp {pack.imp(imp).name}", area)
        laying.cubes(area, "energy", "white", player.energy)
        laying.cubes(area, "horror", "black", player.horror)
        for element, n in player.cubes.items():
            laying.cubes(area, element, pack.colour(element), n)
        laying.counts[f"pact:{seat}"] = Count("face-down pact card", "face-down pact cards", area,
                                              1 if player.pact else 0)


def _stacks(laying: _Laying) -> None:
    pack, state = laying.pack, laying.state
    for element, stack in state.stacks.items():
        at = laying.pile(f"stack:{element}", f"the {pack.element(element).name} creature stack")
        for creature in stack.left():
            laying.pieces[f"creature:{creature}"] = Piece(f"the {pack.creature(creature).name} card", at)
    for element, imps in state.imp_stacks.items():
        at = laying.pile(f"imps:{element}", f"the {pack.element(element).name} imp stack")
        for imp in imps:
            laying.pieces[f"imp:{imp}"] = Piece(f"the imp {pack.imp(imp).name}", at)
