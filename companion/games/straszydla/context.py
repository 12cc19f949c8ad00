"""What the rules of a running game share: its data, its state, where its effects go, and
the words for what happens (names of players, districts, cubes).

The bank is not counted: the rulebook sets no limit on it, so taking from it always works.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from companion.engine.effects import EffectSink
from companion.engine.errors import IllegalInput

from .geometry import Geometry
from .packdata import Pack, Tile
from .state import GameState, Player

ENERGY = "energy"  # a payment's key for white energy cubes (the fear cubes are keyed by element)


@dataclass
class Ctx:
    """``base``: the pack the game began with; ``pack`` follows the owner's data when it
    changes during the game (``data_pack`` builds the pack of a data document)."""

    base: Pack
    state: GameState
    sink: EffectSink
    data_pack: Callable[[Mapping[str, object]], Pack] | None = None
    _built: tuple[str, Pack] | None = None

    @property
    def pack(self) -> Pack:
        data = self.state.data
        if data is None or self.data_pack is None:
            return self.base
        if self._built is None or self._built[0] != self.state.pack_id:
            self._built = (self.state.pack_id, self.data_pack(data))
        return self._built[1]

    # -- reading -------------------------------------------------------------------------------------
    @property
    def geometry(self) -> Geometry:
        return Geometry.of(self.pack, self.state)

    def reading(self, reading_id: str) -> str:
        return self.state.readings[reading_id]

    def player(self, seat: str) -> Player:
        return self.state.players[seat]

    def name(self, seat: str) -> str:
        return self.state.players[seat].name

    def tile_at(self, seat: str) -> Tile:
        return self.pack.tile(self.state.players[seat].at)

    def place(self, tile_id: str) -> str:
        return self.pack.tile(tile_id).name

    def strength(self, seat: str, time: str | None = None) -> int:
        return sum(self.pack.creature(c).strength(time or self.state.time) for c in self.player(seat).creatures)

    # -- words ---------------------------------------------------------------------------------------
    def cube_words(self, cubes: Mapping[str, int]) -> str:
        """``{"fire": 2, "energy": 1}`` as "2 orange cubes and 1 white cube"."""
        parts = [_count(n, "white" if key == ENERGY else self.pack.colour(key)) for key, n in cubes.items() if n]
        return " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts) or "no cubes"

    def creature_name(self, creature_id: str) -> str:
        return self.pack.creature(creature_id).name

    # -- resources -----------------------------------------------------------------------------------
    def pay(self, seat: str, payment: Mapping[str, int], wanted: int, why: str) -> None:
        """Take exactly ``wanted`` cubes (fear cubes by element, white ones as ``energy``; never horror
        cubes) from a player, or IllegalInput saying what is missing."""
        player = self.player(seat)
        given = sum(payment.values())
        if given != wanted:
            raise IllegalInput(f"{why} costs {wanted} cubes; this payment gives {given}")
        for key, n in payment.items():
            held = player.energy if key == ENERGY else player.fear(key)
            if n > held:
                raise IllegalInput(f"{player.name} has {_count(held, self._colour(key))}, not {n}")
        for key, n in payment.items():
            self.take(seat, key, n)

    def take(self, seat: str, key: str, n: int) -> None:
        player = self.player(seat)
        if key == ENERGY:
            player.energy -= n
        else:
            player.cubes[key] = player.fear(key) - n

    def give(self, seat: str, key: str, n: int) -> None:
        self.take(seat, key, -n)

    def horror(self, seat: str, change: int) -> int:
        """Horror cubes gained (or returned, never below none); returns the change made."""
        player = self.player(seat)
        made = max(change, -player.horror)
        player.horror += made
        return made

    def _colour(self, key: str) -> str:
        return "white" if key == ENERGY else self.pack.colour(key)


def _count(n: int, colour: str) -> str:
    return f"{n} {colour} cube{'s' if n != 1 else ''}"


def dice_words(n: int) -> str:
    """"1 die", "3 dice"."""
    return f"{n} {'die' if n == 1 else 'dice'}"


def horror_words(n: int) -> str:
    """"1 horror cube", "4 horror cubes"."""
    return f"{n} horror cube{'' if n == 1 else 's'}"


def a_or_an(word: str) -> str:
    """The article for ``word`` as the table says it: "an Ogień imp", "a Woda imp" (by its first letter)."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def payment_of(value: object, keys: set[str]) -> dict[str, int]:
    """A payment as sent (``{"fire": 2, "energy": 1}``), checked for shape."""
    if not isinstance(value, Mapping):
        raise IllegalInput("a payment is an object of cubes, e.g. {\"fire\": 2, \"energy\": 1}")
    payment: dict[str, int] = {}
    for key, n in value.items():
        if key not in keys:
            raise IllegalInput(f"{key!r} cannot pay (cubes: {', '.join(sorted(keys))}; never horror cubes)")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise IllegalInput(f"{key}: pay a whole number of cubes, not {n!r}")
        if n:
            payment[str(key)] = n
    return payment


__all__ = ["Ctx", "ENERGY", "a_or_an", "dice_words", "horror_words", "payment_of"]
