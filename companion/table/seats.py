"""Which device plays which seat of a game.

Why: in a game with secrets (Straszydła's pacts, planned moves, bids) a seat's
own view may reach only the phone of the player in that seat. The first
device to claim a free seat gets a token for it (kept by the device, stored
here only as a hash, so a copy of the database does not hand out seats); it
shows that token to watch or play that seat again, after a reload or a
restart. Another device cannot take a claimed seat unless the seat is freed
first (from a paired tablet, when a phone is lost). Claims live in the store,
so a restart keeps every seat where it was.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from companion.store import Store


class SeatTaken(ValueError):
    """The seat is played on another device."""


class SeatDesk:
    def __init__(self, store: Store) -> None:
        self.store = store

    def claim(self, game_id: str, seat: str, token: str | None = None) -> str:
        """The seat's token for this device: a new one for a free seat, the same one again
        for the device that holds it; SeatTaken for anyone else."""
        held = self.store.seat_claims(game_id).get(seat)
        if held is not None:
            if token is not None and _same(held, token):
                return token
            raise SeatTaken(f"the seat {seat!r} is played on another device; free it from a paired tablet first")
        fresh = secrets.token_urlsafe(24)
        self.store.claim_seat(game_id, seat, _hash(fresh))
        return fresh

    def holds(self, game_id: str, seat: str, token: object) -> bool:
        held = self.store.seat_claims(game_id).get(seat)
        return held is not None and isinstance(token, str) and _same(held, token)

    def release(self, game_id: str, seat: str) -> None:
        self.store.release_seat(game_id, seat)

    def claimed(self, game_id: str) -> list[str]:
        return sorted(self.store.seat_claims(game_id))


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _same(held: str, token: str) -> bool:
    return hmac.compare_digest(held, _hash(token))
