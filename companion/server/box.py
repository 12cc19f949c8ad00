"""The box around the games: pairing, health, diagnostics, backup (docs/protocol.md, docs/install.md).

Why a module of its own: the service's core files deal with games; what makes
the service an appliance (who may change a game, how the owner sees a broken
part, one-file backups) is wired here, from the pieces in
``companion.appliance`` that know nothing of Flask or Socket.IO.

Who may change what: watching a game and the health view are open; every
Socket.IO event outside ``access.OPEN_EVENTS`` and every HTTP request that
writes or hands out private data (the games' list and files, diagnostics) needs
a paired tablet's token - in the connection's ``auth`` for Socket.IO, in the
``X-Companion-Token`` header for HTTP - or the box's own browser on loopback.
The full journal (backup and restore) is the owner's alone (``OWNER_PATHS``).
"""

from __future__ import annotations

import ipaddress
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

from flask import Blueprint, Response, current_app, jsonify, request
from flask_socketio import SocketIO

from companion.appliance.access import Access, origin_check
from companion.appliance.controls import BoxControls, CurrentGame
from companion.appliance.discovery import local_addresses
from companion.appliance.health import RecentErrors, diagnostics_bundle, health_view
from companion.appliance.pairing import Grant, Pairing
from companion.appliance.safemode import StartMode
from companion.config import PairingSettings
from companion.table import TableError, Tables

if TYPE_CHECKING:
    from companion.store import Store
    from .dice import Dice
    from .leds import Leds

TOKEN_HEADER = "X-Companion-Token"
PRIVATE_PATHS = ("/api/diagnostics", "/api/games")  # GETs that need a paired tablet too
PRIVATE_PREFIXES = ("/api/games/",)  # a game's file
#: The owner's alone: every game's whole journal, out (a backup) or in (a restore).
OWNER_PATHS = ("/api/backup", "/api/backup/restore")
Reply = dict[str, Any]


class BoxNeeds(Protocol):
    """What the box handlers and its health view use of the service.
    The app's ``Services`` has it all; a handler here reaches nothing else."""

    @property
    def box(self) -> Box: ...

    @property
    def dice(self) -> Dice: ...

    @property
    def leds(self) -> Leds: ...

    @property
    def store(self) -> Store: ...

    @property
    def state_dir(self) -> Path: ...


Part = Callable[[], Mapping[str, object]]

log = logging.getLogger(__name__)
blueprint = Blueprint("box", __name__)


@dataclass
class Box:
    """Pairing, the start mode and the parts the health view reports on."""

    pairing: Pairing
    access: Access
    current: CurrentGame
    start: StartMode = field(default_factory=lambda: StartMode(False))
    errors: RecentErrors | None = None
    config_text: str = ""
    allowed_origins: tuple[str, ...] = ()
    parts: dict[str, Part] = field(default_factory=dict)

    def add_part(self, name: str, health: Part) -> None:
        """A part started beside the app (buttons, discovery) shows in the health view."""
        self.parts[name] = health

    def pair_button(self) -> bool:
        """Whether a PAIR button is wired and working: only then is a tablet offered to wait for a press
        (on a box without one, the wait would count down for nothing)."""
        part = self.parts.get("buttons")
        found = part() if part is not None else {}
        pins = found.get("pins")
        return found.get("state") == "ok" and isinstance(pins, Mapping) and "pair_pin" in pins

    def controls(self, socketio: SocketIO) -> BoxControls:
        """What the box's buttons do: the current game, and PAIR pairing the tablet that asked."""
        return BoxControls(self.current, self.pairing, lambda grant: self.paired(socketio, grant))

    def paired(self, socketio: SocketIO, grant: Grant) -> None:
        """The tablet that asked gets its token, and nobody else."""
        self.access.granted(grant)
        socketio.emit("paired", {"token": grant.token, "device": grant.device.to_plain()}, to=grant.client)

    def origins(self) -> Callable[[str | None, Mapping[str, Any]], bool]:
        return origin_check(self.allowed_origins)


def make_box(settings: Mapping[str, Any], state_dir: Path, tables: Tables) -> Box:
    """``settings``: the app's config (PAIRING, START_MODE, CONFIG_TEXT, ALLOWED_ORIGINS, ERRORS)."""
    pairing_settings = settings.get("PAIRING") or PairingSettings()
    if not isinstance(pairing_settings, PairingSettings):
        pairing_settings = PairingSettings(**dict(pairing_settings))
    pairing = Pairing(state_dir, pairing_settings)
    return Box(pairing, Access(pairing), CurrentGame(tables), settings.get("START_MODE") or StartMode(False),
               settings.get("ERRORS"), str(settings.get("CONFIG_TEXT", "")),
               tuple(settings.get("ALLOWED_ORIGINS", ())))


def health(services: "BoxNeeds") -> dict[str, object]:
    """The health view: each part as it reports itself, the disk, versions, errors, start mode."""
    box = services.box
    parts: dict[str, Mapping[str, object]] = {"leds": services.leds.health(), "camera": services.dice.health()}
    for name, part in box.parts.items():
        parts[name] = part()
    parts.setdefault("buttons", {"state": "off", "reason": "no buttons are configured"})
    parts.setdefault("discovery", {"state": "off", "reason": "not announced (only the service's own start does)"})
    parts["pairing"] = _pairing_health(box.pairing)
    parts["board"] = _board_health(services)
    parts["storage"] = services.store.health()
    return health_view(parts, services.state_dir, box.errors, box.start.to_plain())


def _board_health(services: "BoxNeeds") -> dict[str, object]:
    """The game the box's LEDs, buttons and camera follow: the one a paired tablet opened last."""
    table = services.box.current()
    leds = services.leds.board.following
    if table is None:
        return {"state": "off", "reason": "no game is on the board: it follows the game a paired tablet opens",
                "game_id": None, "leds": leds}
    return {"state": "ok", "reason": f"the LEDs, buttons and camera follow {table.name!r}", "game_id": table.game_id,
            "leds": leds}


def _pairing_health(pairing: Pairing) -> dict[str, object]:
    devices = len(pairing.devices())
    if pairing.store.problem:
        return {"state": "failed", "reason": pairing.store.problem, "devices": devices}
    if not pairing.settings.required:
        return {"state": "off", "reason": "pairing.required is false: every tablet may change games",
                "devices": devices}
    return {"state": "ok", "reason": f"{devices} tablet{'s' if devices != 1 else ''} paired", "devices": devices}


# -- Socket.IO events -------------------------------------------------------------------------------

def _sid() -> str:
    return str(getattr(request, "sid"))


def _address() -> str:
    return str(request.remote_addr or "")


def _status(services: "BoxNeeds", data: Mapping[str, Any]) -> Reply:
    return {**services.box.access.status(_sid()), "pair_button": services.box.pair_button()}


def _ask(services: "BoxNeeds", data: Mapping[str, Any]) -> Reply:
    return services.box.access.ask(_sid(), _address(), data)


def _cancel(services: "BoxNeeds", data: Mapping[str, Any]) -> Reply:
    services.box.pairing.cancel(_sid())
    return {}


def _code(services: "BoxNeeds", data: Mapping[str, Any]) -> Reply:
    return services.box.access.pair_with_code(_sid(), _address(), data)


def _show_code(services: "BoxNeeds", data: Mapping[str, Any]) -> Reply:
    return services.box.access.show_code(_sid(), data)


def _set_owner(services: "BoxNeeds", data: Mapping[str, Any]) -> Reply:
    return services.box.access.set_owner(_sid(), data)


def _devices(services: "BoxNeeds", data: Mapping[str, Any]) -> Reply:
    return services.box.access.devices(_sid())


def _revoke(services: "BoxNeeds", data: Mapping[str, Any]) -> Reply:
    return services.box.access.revoke(_sid(), data)


def _health(services: "BoxNeeds", data: Mapping[str, Any]) -> Reply:
    return health(services)


HANDLERS: dict[str, Callable[["BoxNeeds", Mapping[str, Any]], Reply]] = {
    "pair_status": _status, "pair_request": _ask, "pair_cancel": _cancel, "pair_code": _code,
    "pair_show_code": _show_code, "pair_devices": _devices, "pair_revoke": _revoke, "pair_set_owner": _set_owner,
    "health": _health,
}


def connected(services: "BoxNeeds", auth: object = None) -> None:
    """Socket.IO's connect: remember the token the tablet brought, and whether it is the box's own browser."""
    services.box.access.connected(_sid(), auth, request.remote_addr)


# -- HTTP -------------------------------------------------------------------------------------------

def _services() -> "BoxNeeds":
    found: "BoxNeeds" = current_app.extensions["companion"]
    return found


@blueprint.before_app_request
def guard() -> Response | None:
    """HTTP writes and private downloads: a paired tablet's token (the owner's, for the whole
    journal), from the box's own origin."""
    path = request.path
    owner = path in OWNER_PATHS
    private = owner or path in PRIVATE_PATHS or path.startswith(PRIVATE_PREFIXES)
    if request.method in ("GET", "HEAD", "OPTIONS") and not private:
        return None
    box = _services().box
    origin = request.headers.get("Origin")
    if origin and not box.origins()(origin, request.environ):
        return _refusal(403, "bad-origin", f"requests from the web page at {origin} are not accepted by the box")
    token = request.headers.get(TOKEN_HEADER)
    try:
        if owner:
            box.access.check_owner_request(token, request.remote_addr, "download or restore the box's backup "
                                                                        "(it holds every game's secrets)")
        else:
            box.access.check_request(token, request.remote_addr)
    except TableError as problem:
        return _refusal(403, problem.code, str(problem))
    return None


def request_by_owner() -> bool:
    """Whether this HTTP request speaks for the owner (the box's own screen, an owner's device)."""
    return _services().box.access.owner_request(request.headers.get(TOKEN_HEADER), request.remote_addr)


@blueprint.get("/api/alive")
def alive() -> Response:
    """What systemd's watchdog asks, through the real server: the service still answers requests."""
    return jsonify(ok=True)


@blueprint.get("/api/health")
def health_route() -> Response:
    from importlib.metadata import version

    services = _services()
    view = health(services)
    parts = view["parts"]
    assert isinstance(parts, dict)
    return jsonify(ok=True, version=version("table-companion"), leds=parts["leds"], camera=parts["camera"], **view)


@blueprint.get("/api/diagnostics")
def diagnostics() -> Response:
    services = _services()
    bundle = diagnostics_bundle(health(services), services.box.config_text)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Response(bundle, mimetype="application/zip",
                    headers={"Content-Disposition": f'attachment; filename="diagnostics-{stamp}.zip"'})


def tablet_urls(port: int | None, addresses: list[str] | None = None) -> list[str]:
    """The addresses a tablet on the network opens (this machine's IPv4 addresses, as ``./run``
    prints them): the box's own screen shows them, and a QR code of the first, beside its games."""
    found = local_addresses() if addresses is None else addresses
    network = [a for a in found if ipaddress.ip_address(a).version == 4 and not ipaddress.ip_address(a).is_loopback]
    suffix = "" if port in (None, 80) else f":{port}"
    return [f"http://{a}{suffix}/" for a in network]


def _port() -> int | None:
    """The port this request came in on: the one a tablet uses too."""
    host = request.host.rsplit("]", 1)[-1]
    return int(host.rsplit(":", 1)[1]) if ":" in host else None


@blueprint.get("/api/tablet-address")
def tablet_address() -> Response:
    urls = tablet_urls(_port())
    return jsonify(ok=True, urls=urls, qr="/api/tablet-address.svg" if urls else None)


@blueprint.get("/api/tablet-address.svg")
def tablet_address_qr() -> Response:
    """The first network address as a QR code (an SVG with its white margin), for a tablet's camera."""
    urls = tablet_urls(_port())
    if not urls:
        return _refusal(404, "no-network", "this machine is on no network a tablet could reach")
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(urls[0], image_factory=qrcode.image.svg.SvgPathFillImage, border=2)
    return Response(image.to_string(), mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"})


def _refusal(status: int, code: str, message: str) -> Response:
    response = jsonify(ok=False, error={"code": code, "message": message})
    response.status_code = status
    return response
