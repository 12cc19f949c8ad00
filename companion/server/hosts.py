"""The names the box answers to, and the headers every answer carries.

Why the Host is checked: a web page elsewhere can make a browser on the
table's network resolve a name of its own to the box's address (DNS
rebinding). The browser then treats the box as that page's own site and lets
the page read its answers - and when the browser is the box's own (trusted on
loopback), change games too. Such a request still names the stranger's site in
its ``Host`` header, so the box answers only requests that name the box: its
mDNS name (``<discovery.name>.local``), its host name, ``localhost``, its own
IP addresses (read again from its interfaces when an unknown one is asked
for: a DHCP lease may change) and the names in ``server.allowed_hosts``.
Everything else gets a ``421`` that says which names work.

Why the headers: the box's pages must not be framed by another site (a
click-jacked "Undo"), a file it serves must never be taken for another type
(``nosniff``: a photo that is really HTML stays a photo), the page may load
scripts, styles and connections only from the box itself (CSP), and its
addresses are not told to other sites (``Referrer-Policy``).

Plain WSGI, outermost, so it covers Socket.IO's handshake and the Flask
routes alike.
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket
import threading
import time
from typing import Any, Callable, Iterable, Sequence

from companion.appliance.discovery import interface_addresses

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
WsgiApp = Callable[[Environ, StartResponse], Iterable[bytes]]
_HOST = re.compile(r"^(\[[0-9a-f:.]+\]|[a-z0-9][a-z0-9.-]*)(?::[0-9]{1,5})?$")
ADDRESSES_FRESH_FOR = 10.0  # seconds before an unknown IP in a Host makes the interfaces be read again

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self' {sockets}; font-src 'self'; manifest-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
FIXED_HEADERS = (("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
                 ("Referrer-Policy", "no-referrer"), ("Cross-Origin-Resource-Policy", "same-origin"),
                 ("Cross-Origin-Opener-Policy", "same-origin"))


class AllowedHosts:
    """Is ``Host`` one of the box's own names or addresses? Thread-safe."""

    def __init__(self, names: Sequence[str] = (), discovery_name: str = "",
                 addresses: Callable[[], Iterable[str]] | None = None, clock: Callable[[], float] = time.monotonic,
                 host_name: str | None = None) -> None:
        own = host_name if host_name is not None else socket.gethostname()
        found = {"localhost", own, f"{own}.local", *names}
        if discovery_name:
            found.add(f"{discovery_name}.local")
        self.names = frozenset(name.lower().rstrip(".") for name in found if name)
        self._addresses = addresses or _interface_ips
        self._known: frozenset[str] = frozenset()
        self._read_at = float("-inf")
        self.clock = clock
        self._lock = threading.Lock()

    def __call__(self, host: str) -> bool:
        name = host_name_of(host)
        if not name:
            return False
        if name in self.names:
            return True
        try:
            ip = ipaddress.ip_address(name)
        except ValueError:
            return False
        return ip.is_loopback or str(ip) in self._ips(str(ip))

    def _ips(self, wanted: str) -> frozenset[str]:
        """The box's addresses, read again when ``wanted`` is not among them (at most every 10 s)."""
        with self._lock:
            if wanted not in self._known and self.clock() - self._read_at >= ADDRESSES_FRESH_FOR:
                self._known = frozenset(_normal(a) for a in self._addresses())
                self._read_at = self.clock()
            return self._known

    def shown(self) -> list[str]:
        """The names, for the refusal and the health view (addresses are shown by the box)."""
        return sorted(self.names)


def host_name_of(host: str) -> str:
    """``Host`` without its port, lower-case, without a final dot; IPv6 without brackets.
    "" for anything that is not a name or an address with an optional port."""
    found = _HOST.match(host.strip().lower())
    if found is None:
        return ""
    return found.group(1).strip("[]").rstrip(".")


def _normal(address: str) -> str:
    try:
        return str(ipaddress.ip_address(address.split("%", 1)[0]))
    except ValueError:
        return address


def _interface_ips() -> list[str]:
    return [address for _, address in interface_addresses()]


class HostGuard:
    """WSGI middleware: refuse a foreign ``Host``; add the security headers to every answer."""

    def __init__(self, app: WsgiApp, allowed: AllowedHosts) -> None:
        self.app = app
        self.allowed = allowed

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        host = str(environ.get("HTTP_HOST", ""))
        if not self.allowed(host):
            return self._refuse(environ, host, start_response)

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            return start_response(status, secured(headers, host.strip()), exc_info)

        return self.app(environ, start)

    def _refuse(self, environ: Environ, host: str, start_response: StartResponse) -> Iterable[bytes]:
        names = ", ".join(self.allowed.shown())
        message = (f"this box does not answer to the name {host_name_of(host) or '(none)'!r}: open it by one of its "
                   f"own names ({names}) or its IP address; another name can be added to server.allowed_hosts")
        body = json.dumps({"ok": False, "error": {"code": "bad-host", "message": message}}).encode()
        start_response("421 Misdirected Request", secured([("Content-Type", "application/json"),
                                                           ("Content-Length", str(len(body)))], ""))
        return [body]


def secured(headers: list[tuple[str, str]], host: str) -> list[tuple[str, str]]:
    """``headers`` with the security headers it does not set itself."""
    present = {name.lower() for name, _ in headers}
    sockets = f"ws://{host} wss://{host}" if host else ""
    wanted = [("Content-Security-Policy", CONTENT_SECURITY_POLICY.format(sockets=sockets).replace("  ", " ")),
              *FIXED_HEADERS]
    return [*headers, *((name, value) for name, value in wanted if name.lower() not in present)]
