"""Seats over Socket.IO: a device claims a seat of a game and then sees that
seat's view, and only that seat's (docs/protocol.md, "Seats").

Each game has a room every socket of the game is in (for what everyone sees:
the dice camera's reports), one for the shared screens' views and one per
seat for that seat's views; a socket is in exactly one view room per game, so
a seat's secrets are only ever emitted to the sockets that showed its token.
Who holds a seat is the table's (companion/table/seats.py): claims are checked
and written under the table's lock. When a seat is freed, every socket that
played it is moved to the shared screens' room at once and told (``seat_lost``):
it neither sees nor answers for that seat again.
"""

from __future__ import annotations

import threading
from typing import Any, Mapping, Protocol

from flask_socketio import SocketIO, join_room, leave_room

from companion.appliance.access import Access
from companion.table import Table, TableError
from companion.table.seats import BOX_DEVICE, Claimant

Reply = dict[str, Any]


class SeatNeeds(Protocol):
    """What claiming a seat uses of the service: the seats of the sockets, who each device is and
    the Socket.IO server (to tell a device it lost its seat). The app's ``Services`` has it all."""

    @property
    def seats(self) -> SeatSockets: ...

    @property
    def socketio(self) -> SocketIO: ...

    @property
    def access(self) -> Access: ...


def room(game_id: str, seat: str | None) -> str:
    """The room of the views ``seat`` sees (None: the shared screens')."""
    return f"{game_id}#public" if seat is None else f"{game_id}#seat:{seat}"


class SeatSockets:
    """Which seat each connected socket plays in each game it joined (None: a shared screen)."""

    def __init__(self) -> None:
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
        table.on_seating(lambda t, view: socketio.emit("view", dict(view), to=room(t.game_id, None)))

    def enter(self, sid: str, table: Table, seat: str | None, token: object) -> None:
        """Put ``sid`` in the room of ``seat`` (checked against its token) in ``table``'s game."""
        if seat is not None:
            _check_seat(table, seat)
            if not table.holds_seat(seat, token):
                raise TableError("not-your-seat", f"this device has not claimed the seat “{table.seat_name(seat)}” (claim_seat), "
                                                  "or it was freed since")
        self.move(sid, table.game_id, seat)

    def move(self, sid: str, game_id: str, seat: str | None) -> None:
        """``sid`` sees ``seat``'s views of ``game_id`` from now on (None: the shared screens')."""
        with self._lock:
            before = self._seats.get((sid, game_id), "")
            self._seats[(sid, game_id)] = seat
        if before != "" and before != seat:
            leave_room(room(game_id, before), sid=sid, namespace="/")
        join_room(game_id, sid=sid, namespace="/")
        join_room(room(game_id, seat), sid=sid, namespace="/")

    def seat_of(self, sid: str, game_id: str) -> str | None:
        with self._lock:
            return self._seats.get((sid, game_id))

    def seats_in(self, game_id: str) -> set[str]:
        """The seats of ``game_id`` some socket plays now (a view for an empty room is not built)."""
        with self._lock:
            return {seat for (_, game), seat in self._seats.items() if game == game_id and seat is not None}

    def playing(self, game_id: str, seat: str) -> list[str]:
        """The sockets that play ``seat`` of ``game_id`` now."""
        with self._lock:
            return [sid for (sid, game), held in self._seats.items() if game == game_id and held == seat]

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


def claimant(access: Access, sid: str) -> Claimant:
    """Who is asking, for the seats: the paired device (``box`` for the box's own screen) and
    whether it speaks for the box's owner."""
    if access.trusted(sid):
        return Claimant(BOX_DEVICE, True)
    device = access.pairing.device_of(access.token_of(sid))
    return Claimant(device.id if device else None, access.is_owner(sid))


def claim(services: SeatNeeds, table: Table, sid: str, data: Mapping[str, Any]) -> Reply:
    seat, token = data.get("seat"), data.get("token")
    if not isinstance(seat, str):
        raise TableError("bad-request", "'seat' must be the id of a seat of the game")
    several = data.get("several") is True
    given = table.claim_seat(seat, claimant(services.access, sid), token if isinstance(token, str) else None,
                             several)
    return {"seat": seat, "token": given}


def release(services: SeatNeeds, table: Table, sid: str, seat: str, token: object) -> Reply:
    """Free ``seat`` (its holder, showing its token, or the owner); every other socket that played it
    is moved to the shared screens at once and told why (``seat_lost``)."""
    who = claimant(services.access, sid)
    held = table.release_seat(seat, who, token)
    if held is not None:
        by_owner = not held.shown_by(token)
        for other in services.seats.playing(table.game_id, seat):
            services.seats.move(other, table.game_id, None)
            if other != sid:
                services.socketio.emit("seat_lost", _lost(table, seat, by_owner), to=other)
    return {"seat": seat, "freed": held is not None}


def _lost(table: Table, seat: str, by_owner: bool) -> dict[str, object]:
    why = "the box's owner freed it" if by_owner else "its player gave it up"
    return {"game_id": table.game_id, "seat": seat, "view": table.view(None),
            "message": f"This device no longer plays the seat “{table.seat_name(seat)}”: {why}. It now shows the shared screen."}


def listing(services: SeatNeeds, table: Table, sid: str, token: object) -> Reply:
    """The game's seats, who holds each (the device's name, never a token), the one this device plays
    (``token``: the seat token it keeps, if any) and whether it may free the others (the owner)."""
    names = {device.id: device.name for device in services.access.pairing.devices()}
    names[BOX_DEVICE] = "the box's own screen"
    who, holders = claimant(services.access, sid), table.seat_holders()
    rows = []
    for seat in table.seats():
        held = holders.get(seat)
        rows.append({"id": seat, "held": held is not None,
                     "device": (names.get(held.device) or "a device no longer paired") if held else None,
                     "yours": held is not None and held.shown_by(token)})
    return {"seats": rows, "owner": who.owner}
