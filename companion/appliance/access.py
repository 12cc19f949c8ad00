"""Pairing at the Socket.IO layer: which connection may change games, and the
pairing events' answers - kept out of companion/server so the service only
wires them in.

Why per connection and per event: a tablet gives its token once, in the
Socket.IO ``auth`` of its connection (``io({auth: {token}})``); every event
that changes something is checked against the pairing desk again, so a
revoked tablet is refused at its very next change, not at its next
reconnection. Refusals are ``TableError``s with the protocol's codes
(``not-paired``, ``rate-limited``, ...), so the service's one error path
answers them like any other refusal. Watching a game (``join`` without a seat)
never needs a token: unpaired visitors may watch the shared screen's view. The
list of the games needs a paired tablet (``check_read``): it names every game
on the box and leads to their files.

The owner's authority (``is_owner``; docs/protocol.md, "The owner"): the box's
own screen (``trusted``) or a paired device marked as the owner's (pairing.py
says which are). The full journal (backup, restore), marking devices and
removing another's are the owner's alone.
"""

from __future__ import annotations

import ipaddress
import threading
from typing import Any, Callable, Mapping, Sequence, TypeVar

from companion.table import TableError

from .pairing import Grant, Pairing, PairingRefused

#: The events anyone may send: watching, asking to pair, reading the box's health and
#: downloading calibrations (``games`` checks ``check_read`` itself, for its own words).
#: Every other event changes something and needs a paired tablet - an event added later
#: is protected unless it is listed here.
OPEN_EVENTS = frozenset({"games", "join", "pair_status", "pair_request", "pair_code", "pair_cancel", "health",
                         "leds_layout_export", "dice_export", "dice_setup_leave", "data_get", "data_check"})
Reply = dict[str, Any]
T = TypeVar("T")


class Access:
    """The token each live connection (``sid``) presented, and which connections are
    the box's own browser (``trusted``: loopback, when ``pairing.trust_loopback``)."""

    def __init__(self, pairing: Pairing) -> None:
        self.pairing = pairing
        self._tokens: dict[str, str] = {}
        self._trusted: set[str] = set()
        self._lock = threading.Lock()

    def connected(self, sid: str, auth: object, address: str | None = None) -> None:
        token = auth.get("token") if isinstance(auth, Mapping) else None
        with self._lock:
            if isinstance(token, str) and token:
                self._tokens[sid] = token
            else:
                self._tokens.pop(sid, None)
            if self.trusts(address):
                self._trusted.add(sid)
            else:
                self._trusted.discard(sid)

    def trusts(self, address: str | None) -> bool:
        """A request from the box itself, when the settings trust it."""
        return self.pairing.settings.trust_loopback and is_loopback(address)

    def disconnected(self, sid: str) -> None:
        """The tablet left: forget its token and any pairing request it had open."""
        with self._lock:
            self._tokens.pop(sid, None)
            self._trusted.discard(sid)
        self.pairing.cancel(sid)

    def trusted(self, sid: str) -> bool:
        with self._lock:
            return sid in self._trusted

    def token_of(self, sid: str) -> str | None:
        with self._lock:
            return self._tokens.get(sid)

    def is_owner(self, sid: str) -> bool:
        """Whether this connection speaks for the box's owner: the box's own screen (loopback,
        while trusted) or a paired device marked as the owner's (with pairing off too)."""
        return self.trusted(sid) or self.pairing.is_owner(self.token_of(sid))

    def check_owner(self, sid: str, what: str) -> None:
        """Raise ``not-paired`` or ``not-owner`` unless the owner asks (``what``: the thing asked)."""
        if not self.trusted(sid):
            refused(lambda: self.pairing.check_owner(self.token_of(sid), what))

    def owner_request(self, token: object, address: str | None) -> bool:
        """``is_owner`` for an HTTP request (token in a header, address of the caller)."""
        return self.trusts(address) or self.pairing.is_owner(token)

    def check_owner_request(self, token: object, address: str | None, what: str) -> None:
        if not self.trusts(address):
            refused(lambda: self.pairing.check_owner(token, what))

    def check_read(self, sid: str) -> None:
        """Raise ``not-paired`` unless this connection may see the list of the games."""
        if not self.trusted(sid) and not self.pairing.may_change(self.token_of(sid)):
            raise TableError("not-paired", "pair this tablet to see the games: an unpaired tablet may only watch "
                                           "a game (the one on the board)")

    def readers(self) -> list[str] | None:
        """The connections that may see the games' list now (the news of a game created or
        archived goes to them alone); None: every connection (pairing off)."""
        if not self.pairing.settings.required:
            return None
        with self._lock:
            tokens, trusted = dict(self._tokens), set(self._trusted)
        return sorted(trusted | {sid for sid, token in tokens.items() if self.pairing.device_of(token) is not None})

    def may_change(self, sid: str) -> bool:
        """Whether this connection may change games (paired, the box's own browser, or no pairing)."""
        return self.trusted(sid) or self.pairing.may_change(self.token_of(sid))

    def check_change(self, sid: str) -> None:
        """Raise ``not-paired`` unless this connection may change a game."""
        if not self.trusted(sid):
            refused(lambda: self.pairing.check_change(self.token_of(sid)))

    def check_request(self, token: object, address: str | None) -> None:
        """The same check for an HTTP request (token in a header)."""
        if not self.trusts(address):
            refused(lambda: self.pairing.check_change(token))

    def known_to_change(self, sid: str) -> bool:
        """``may_change`` without working a token out: True only for the box's own browser, a box
        that needs no pairing, or a token already checked (a stranger's made-up token costs a hash
        that takes a while: this answer never does, so it can be asked for every frame)."""
        return (self.trusted(sid) or not self.pairing.settings.required
                or self.pairing.verified(self.token_of(sid)))

    def strange_token(self, sid: str) -> bool:
        """This connection shows a token that names no paired device (made up, or revoked)."""
        token = self.token_of(sid)
        return token is not None and not self.pairing.names_a_device(token)

    def granted(self, grant: Grant) -> None:
        """A pairing succeeded: the connection that asked is paired from now on."""
        with self._lock:
            self._tokens[grant.client] = grant.token

    # -- the pairing events ------------------------------------------------------------
    def status(self, sid: str) -> Reply:
        """How this connection stands, and its own request for the PAIR button (no one else's)."""
        device = self.pairing.device_of(self.token_of(sid))
        return {"paired": device is not None, "device": device.to_plain() if device else None,
                "required": self.pairing.settings.required, "trusted": self.trusted(sid),
                "owner": self.is_owner(sid), "request": self.pairing.request_of(sid)}

    def ask(self, sid: str, address: str, data: Mapping[str, Any]) -> Reply:
        """The seconds PAIR may be pressed in and the number of presses that pair this tablet."""
        return dict(refused(lambda: self.pairing.ask(sid, str(data.get("name", "")), address)))

    def pair_with_code(self, sid: str, address: str, data: Mapping[str, Any]) -> Reply:
        grant = refused(lambda: self.pairing.pair_with_code(sid, str(data.get("name", "")), address,
                                                            str(data.get("code", ""))))
        self.granted(grant)
        return {"token": grant.token, "device": grant.device.to_plain()}

    def show_code(self, sid: str, data: Mapping[str, Any] | None = None) -> Reply:
        """A paired tablet's code, or the box's own (console) code for its own browser: a
        player's code, unless ``owner`` is true (the owner's devices only)."""
        owner = (data or {}).get("owner", False)
        if not isinstance(owner, bool):
            raise TableError("bad-request", "'owner' must be true or false")
        if self.trusted(sid):
            shown = self.pairing.console_code(owner)
        else:
            shown = refused(lambda: self.pairing.show_code(self.token_of(sid), owner))
        return {"code": shown.code, "seconds": round(shown.seconds_left(self.pairing.clock())), "owner": shown.owner}

    def devices(self, sid: str) -> Reply:
        self.check_paired(sid)
        return {"devices": [d.to_plain() for d in self.pairing.devices()]}

    def set_owner(self, sid: str, data: Mapping[str, Any]) -> Reply:
        """An owner's device marks another device as the owner's (``owner``: true) or a player's."""
        owner = data.get("owner")
        if not isinstance(owner, bool):
            raise TableError("bad-request", "'owner' must be true (the owner's device) or false (a player's)")
        device = refused(lambda: self.pairing.set_owner(str(data.get("device_id", "")), owner, self.token_of(sid),
                                                         self.trusted(sid)))
        return {"device": device.to_plain()}

    def revoke(self, sid: str, data: Mapping[str, Any]) -> Reply:
        device = refused(lambda: self.pairing.revoke(str(data.get("device_id", "")), self.token_of(sid),
                                                      self.trusted(sid)))
        return {"revoked": device.to_plain()}

    def check_paired(self, sid: str) -> None:
        """Listing devices needs a paired tablet even when pairing is not required."""
        if not self.trusted(sid) and self.pairing.device_of(self.token_of(sid)) is None:
            raise TableError("not-paired", "only a paired tablet can see the paired devices")


def origin_check(extra: Sequence[str]) -> Callable[[str | None, Mapping[str, Any]], bool]:
    """For Socket.IO's ``cors_allowed_origins``: a browser page may connect only
    from the box's own origin (the scheme and Host it was reached by: the
    ``.local`` name or an IP) or from an origin in ``server.allowed_origins``;
    never "*". Clients that send no Origin (not browsers) are not a CSRF risk."""
    others = frozenset(origin.rstrip("/") for origin in extra)

    def allowed(origin: str | None, environ: Mapping[str, Any]) -> bool:
        if not origin:
            return True
        own = f"{environ.get('wsgi.url_scheme', 'http')}://{environ.get('HTTP_HOST', '')}"
        return origin == own or origin in others

    return allowed


def is_loopback(address: str | None) -> bool:
    try:
        return address is not None and ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def refused(work: Callable[[], T]) -> T:
    """Run ``work``; a pairing refusal becomes the protocol's ``TableError``."""
    try:
        return work()
    except PairingRefused as problem:
        raise TableError(problem.code, str(problem)) from None
