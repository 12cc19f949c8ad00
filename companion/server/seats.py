"""Seats over Socket.IO: a device claims a seat of a game and then sees that
seat's view, and only that seat's (docs/protocol.md, "Seats").

Each game has a room every socket of the game is in (for what everyone sees:
the dice camera's reports), one for the shared screens' views and one per
seat for that seat's views; a socket is in exactly one view room per game, so
a seat's secrets are only ever emitted to the sockets that showed its token.
"""

from __future__ import annotations

import threading
from typing import Any, Mapping, Protocol

from flask_socketio import SocketIO, join_room, leave_room

from companion.table import Table, TableError
from companion.table.seats import SeatDesk, SeatTaken

Reply = dict[str, Any]


class SeatNeeds(Protocol):
    """What claiming a seat uses of the service: the seats of the sockets.
    The app's ``Services`` has it all; a handler here reaches nothing else."""

    @property
    def seats(self) -> SeatSockets: ...


def room(game_id: str, seat: str | None) -> str:
    """The room of the views ``seat`` sees (None: the shared screens')."""
    return f"{game_id}#public" if seat is None else f"{game_id}#seat:{seat}"


class SeatSockets:
    """Which seat each connected socket plays in each game it joined (None: a shared screen)."""

    def __init__(self, desk: SeatDesk) -> None:
        self.desk = desk
        self._seats: dict[tuple[str, str], str | None] = {}
        self._pushed: set[str] = set()
        self._lock = threading.Lock()

    def push_from(self, socketio: SocketIO, table: Table) -> None:
        """From now on every change of ``table`` goes to its rooms, once: two tablets joining at
        the same moment must not double every push."""
        with self._lock:
            if table.game_id in self._pushed:
                return
            self._pushed.add(table.game_id)
        table.subscribe(lambda t, view: push_views(socketio, t, view, self.seats_in(t.game_id)))

    def enter(self, sid: str, table: Table, seat: str | None, token: object) -> None:
        """Put ``sid`` in the room of ``seat`` (checked against its token) in ``table``'s game."""
        if seat is not None:
            _check_seat(table, seat)
            if not self.desk.holds(table.game_id, seat, token):
                raise TableError("not-your-seat", f"this device has not claimed the seat {seat!r} (claim_seat)")
        with self._lock:
            before = self._seats.get((sid, table.game_id), "")
            self._seats[(sid, table.game_id)] = seat
        if before != "" and before != seat:
            leave_room(room(table.game_id, before))
        join_room(table.game_id)
        join_room(room(table.game_id, seat))

    def seat_of(self, sid: str, game_id: str) -> str | None:
        with self._lock:
            return self._seats.get((sid, game_id))

    def seats_in(self, game_id: str) -> set[str]:
        """The seats of ``game_id`` some socket plays now (a view for an empty room is not built)."""
        with self._lock:
            return {seat for (_, game), seat in self._seats.items() if game == game_id and seat is not None}

    def left(self, sid: str) -> None:
        with self._lock:
            for key in [k for k in self._seats if k[0] == sid]:
                del self._seats[key]


def _check_seat(table: Table, seat: str) -> None:
    seats = table.seats()
    if seat not in seats:
        raise TableError("bad-request", f"this game has no seat {seat!r} (its seats: {', '.join(seats)})")


def push_views(socketio: SocketIO, table: Table, public: Mapping[str, object], seats: set[str]) -> None:
    """A change: the public view to the shared screens, each seat's own view to that seat
    (the seats a socket plays now: ``seats``; a seat nobody plays gets its view when it joins)."""
    socketio.emit("view", dict(public), to=room(table.game_id, None))
    for seat, view in table.views([s for s in table.seats() if s in seats], public).items():
        socketio.emit("view", view, to=room(table.game_id, seat))


def claim(services: "SeatNeeds", table: Table, seat: str, token: object) -> Reply:
    _check_seat(table, seat)
    try:
        given = services.seats.desk.claim(table.game_id, seat, token if isinstance(token, str) else None)
    except SeatTaken as taken:
        raise TableError("seat-taken", str(taken)) from None
    return {"seat": seat, "token": given}


def release(services: "SeatNeeds", table: Table, seat: str) -> Reply:
    _check_seat(table, seat)
    services.seats.desk.release(table.game_id, seat)
    return {"seat": seat}
