"""Which device plays which seat of a game.

Why: in a game with secrets (Straszydła's pacts, planned moves, bids) a seat's
own view may reach only the phone of the player in that seat, and only that
phone may answer for the seat. The first device to claim a free seat gets a
token for it (kept by the device, stored here only as a hash, so a copy of the
database does not hand out seats); it shows that token to play that seat again,
after a reload or a restart. A seat belongs to one device at a time, and a
device plays one seat of a game (the box's owner may let a device play more).
Another device takes a held seat only once it is free again: its holder gives
it up, or the box's owner frees it (a lost phone). Claims live in the store, so
a restart keeps every seat where it was.

A ``Seating`` is used under its table's lock: a claim is checked and written
as one step, so two phones claiming a free seat at once never both get it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Callable

from companion.store import Store

#: The device id of the box's own screen (its browser on loopback).
BOX_DEVICE = "box"


class SeatTaken(ValueError):
    """The seat is played on another device."""


class SeatRefused(ValueError):
    """A claim or release this device may not make; ``code`` is the protocol's."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Holder:
    """Who holds a seat: the hash of its token and the device that claimed it (a paired device's
    id, ``box`` for the box's own screen; "" for a claim recorded before devices were)."""

    token_hash: str
    device: str

    def shown_by(self, token: object) -> bool:
        return isinstance(token, str) and hmac.compare_digest(self.token_hash, _hash(token))


@dataclass(frozen=True)
class Claimant:
    """The device asking: its id (None: not known, e.g. pairing is switched off) and whether it
    speaks for the box's owner (who may free any seat and let a device play several)."""

    device: str | None
    owner: bool = False


class Seating:
    def __init__(self, store: Store, game_id: str, name_of: Callable[[str], str] = str) -> None:
        self.store = store
        self.game_id = game_id
        self.name_of = name_of  # a seat as people call it, for the refusals' words
        self._held = {seat: Holder(token_hash, device) for seat, (token_hash, device)
                      in store.seat_claims(game_id).items()}

    def held(self) -> frozenset[str]:
        """The seats some device plays now."""
        return frozenset(self._held)

    def holder(self, seat: str) -> Holder | None:
        return self._held.get(seat)

    def holds(self, seat: str, token: object) -> bool:
        held = self._held.get(seat)
        return held is not None and held.shown_by(token)

    def seats_of(self, device: str) -> list[str]:
        return sorted(seat for seat, held in self._held.items() if held.device == device)

    def claim(self, seat: str, claimant: Claimant, token: str | None = None, several: bool = False) -> str:
        """The seat's token for this device: a new one for a free seat, the same one again for the
        device that shows it; SeatTaken for anyone else. A device that plays another seat of the
        game already is refused, unless the owner asks for it (``several``)."""
        held = self._held.get(seat)
        if held is not None:
            if held.shown_by(token):
                return str(token)
            raise SeatTaken(f"the seat “{self.name_of(seat)}” is played on another device: its player can give it up on their "
                            "phone, or the box's owner can free it (Seats, on the game screen)")
        self._check_one_seat(seat, claimant, several)
        fresh = secrets.token_urlsafe(24)
        holder = Holder(_hash(fresh), claimant.device or "")
        self.store.claim_seat(self.game_id, seat, holder.token_hash, holder.device)
        self._held[seat] = holder
        return fresh

    def _check_one_seat(self, seat: str, claimant: Claimant, several: bool) -> None:
        """One seat per device; the owner's own devices may play several (the box's screen passed
        round a table), and ``several`` is refused to anyone else."""
        if claimant.device is None or claimant.owner:
            return
        others = [s for s in self.seats_of(claimant.device) if s != seat]
        if several:
            raise SeatRefused("not-owner", "only the box's owner's devices may play several seats")
        if others:
            raise SeatRefused("one-seat", f"this device plays the seat “{self.name_of(others[0])}” already: one seat per device "
                                          "(give that one up first, on the Seats screen)")

    def release(self, seat: str, claimant: Claimant, token: object) -> Holder | None:
        """Free ``seat``: by the device that holds it (showing its token) or by the owner. Returns
        who held it (None: it was free)."""
        held = self._held.get(seat)
        if held is None:
            return None
        if not held.shown_by(token) and not claimant.owner:
            raise SeatRefused("not-your-seat", f"the seat “{self.name_of(seat)}” is played on another device: only its player "
                                               "(on that device) or the box's owner can free it")
        self.store.release_seat(self.game_id, seat)
        del self._held[seat]
        return held


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
