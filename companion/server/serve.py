"""Start the service: print where to point the tablets, then serve until stopped."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import signal
import socket
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from types import FrameType
from typing import Protocol, Sequence

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from companion.appliance.discovery import Advertiser, local_addresses
from companion.appliance.health import RecentErrors
from companion.appliance.notify import Notifier, start_watchdog
from companion.appliance.safemode import StartGuard, StartMode
from companion.config import DEFAULT_PATH, ENV_VAR, AppConfig, ConfigError, to_toml
from companion.config import load as load_config
from hardware.buttons import ButtonPanel
from hardware.leds.config import BACKEND_NAMES

from .app import Services, create_app, services_of
from .dice import camera_settings
from .dice import describe as describe_camera
from .leds import describe


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        config = load_config(args.config)
        overrides = _overrides(args)
    except ConfigError as problem:
        print(problem.report(), file=sys.stderr, flush=True)
        return CONFIG_REFUSED
    except ValueError as problem:
        parser.error(str(problem))
    return run(config, overrides, args.safe_mode)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion serve", description="Run the table service.")
    parser.add_argument("--config", type=Path, default=None,
                        help=f"the TOML configuration (default: ${ENV_VAR}, else {DEFAULT_PATH} if it exists)")
    parser.add_argument("--host", default=None, help="address to listen on (default: server.host, every interface)")
    parser.add_argument("--port", type=int, default=None, help="port to listen on (0: any free port; "
                                                               "default: server.port, 8000)")
    parser.add_argument("--state-dir", type=Path, default=None, help="where games are kept (default: state.dir)")
    parser.add_argument("--leds", choices=BACKEND_NAMES, default=None, metavar="BACKEND",
                        help=f"the LED strip: {', '.join(BACKEND_NAMES)} (default: leds.backend, simulated, shown on "
                             "the tablets); one that cannot start is reported and the game goes on without it")
    parser.add_argument("--camera", default=None, metavar="SOURCE",
                        help="the dice camera: none (default), picamera2, folder:PATH, video:PATH or "
                             "v4l2:/dev/v4l/by-id/...; it reads dice only once they are calibrated")
    parser.add_argument("--safe-mode", action="store_true",
                        help="start without the LEDs, camera and buttons (as after a start that did not finish)")
    return parser


def _overrides(args: argparse.Namespace) -> Overrides:
    """Command-line options win over the file, each only when given."""
    return Overrides(host=args.host, port=args.port, state_dir=args.state_dir, leds=args.leds,
                     camera=camera_settings(args.camera) if args.camera is not None else None)


def run(config: AppConfig, overrides: Overrides, force_safe: bool = False) -> int:
    """Start in order: the safe-mode marker, the app, the socket, the box's parts, READY."""
    state_dir = overrides.state_dir or config.state_dir
    guard = StartGuard(state_dir)
    mode = guard.begin(force_safe)
    errors = RecentErrors().install()
    app = create_app(app_settings(config, overrides, mode, errors))
    services = services_of(app)
    host = overrides.host or config.server.host
    port = config.server.port if overrides.port is None else overrides.port
    # Bound before READY is said: whoever waits for READY (systemd, tests) can connect at once.
    server = make_server(host, port, app, threaded=True, request_handler=_Handler)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request on the Pi's journal
    parts = start_parts(config, services, server.port, mode)
    announce(config, services, host, server.port, state_dir, mode)
    notifier = Notifier.from_env()
    notifier.ready("tablets can connect")
    guard.ready()
    watchdog = start_watchdog(notifier, lambda: _serving(server))
    return serve(server, services, [*parts, *([watchdog] if watchdog else []), notifier])


def app_settings(config: AppConfig, overrides: Overrides, mode: StartMode, errors: RecentErrors) -> dict[str, object]:
    """The app's settings: the file's, the options', and safe mode's hardware left off."""
    settings: dict[str, object] = {**config.app_settings(), "PAIRING": config.pairing, "START_MODE": mode,
                                   "ERRORS": errors, "CONFIG_TEXT": _config_text(config),
                                   "ALLOWED_ORIGINS": config.server.allowed_origins}
    if overrides.state_dir is not None:
        settings["STATE_DIR"] = overrides.state_dir
    if overrides.leds is not None:
        settings["LEDS"] = {**asdict(config.leds), "backend": overrides.leds}
    if overrides.camera is not None:
        settings["CAMERA"] = {**asdict(config.camera), **overrides.camera}
    if mode.safe:
        settings["LEDS"] = {**asdict(config.leds), "backend": "simulated"}
        settings["CAMERA"] = {**asdict(config.camera), "backend": "none"}
    return settings


def start_parts(config: AppConfig, services: Services, port: int, mode: StartMode) -> list[Closable]:
    """The buttons and the mDNS advert, each reporting in the health view; neither can stop the start."""
    box = services.box
    buttons = ButtonPanel(config.buttons, box.controls(services.socketio))
    if mode.safe:
        box.add_part("buttons", lambda: {"state": "off", "reason": "safe mode: the buttons are left off"})
    else:
        buttons.start()
        box.add_part("buttons", buttons.health.to_plain)
    advertiser = Advertiser(config.discovery, port, _version()).start()
    box.add_part("discovery", advertiser.health)
    return [buttons, advertiser]


def announce(config: AppConfig, services: Services, host: str, port: int, state_dir: Path, mode: StartMode) -> None:
    """What the owner reads in the terminal or the journal before READY."""
    trusted = config.pairing.trust_loopback or not config.pairing.required
    for url in urls(host, port):
        if "//127.0.0.1:" in url and trusted:
            print(f"Open {url} on this machine (its own browser may change games without pairing)", flush=True)
        else:
            print(f"Open {url} on a tablet", flush=True)
    if config.discovery.enabled:
        print(f"Or http://{config.discovery.name}.local:{port}/ where the tablet resolves .local names", flush=True)
    print(f"Games are kept in {state_dir}", flush=True)
    if mode.safe:
        print(f"SAFE MODE: {mode.reason}", flush=True)
    print(describe(services.leds.health()), flush=True)
    print(describe_camera(services.dice.health()), flush=True)
    pairing = services.box.pairing
    if pairing.settings.required and not pairing.devices():
        shown = pairing.console_code()
        print(f"Pairing code for the first tablet: {shown.code} (open Pair on the tablet; it lasts "
              f"{round(shown.seconds_left(pairing.clock()) / 60)} minutes)", flush=True)
    print("READY", flush=True)


def serve(server: BaseWSGIServer, services: Services, parts: Sequence[Closable]) -> int:
    signal.signal(signal.SIGTERM, _stop)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        for part in parts:
            part.close()
        services.close()
    return 0


def _serving(server: BaseWSGIServer) -> bool:
    """For the watchdog: the listening socket is still open."""
    return server.socket.fileno() >= 0


def _config_text(config: AppConfig) -> str:
    """The file as it was read, for the diagnostics bundle; the defaults when there is none."""
    if config.source is not None:
        try:
            return config.source.read_text("utf-8")
        except OSError as problem:
            return f"# {config.source} could not be read again: {problem}\n"
    return "# no configuration file: every setting is its default\n" + to_toml(config)


def _version() -> str:
    from importlib.metadata import version

    return version("table-companion")


class _Handler(WSGIRequestHandler):
    """Werkzeug's handler, tuned for small WebSocket messages.

    TCP_NODELAY: an ``act`` answers with a ``view`` push and then its
    acknowledgement, two small writes back to back; with Nagle's algorithm the
    second waits for the tablet's delayed ACK, about 40 ms on Linux.

    A WebSocket that ends closes the TCP connection: simple-websocket ends it by
    raising a "dropped connection" error; werkzeug would then keep the
    connection open and read the tablet's closing frames as a new HTTP request,
    so the tablet waits (3 s for the Python client) for a close that never comes."""

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def connection_dropped(self, error: BaseException, environ: object = None) -> None:
        self.close_connection = True


#: The exit status for a configuration refused: the unit's RestartPreventExitStatus,
#: since restarting cannot fix a file.
CONFIG_REFUSED = 78  # EX_CONFIG


@dataclass(frozen=True)
class Overrides:
    host: str | None = None
    port: int | None = None
    state_dir: Path | None = None
    leds: str | None = None
    camera: dict[str, object] | None = None


class Closable(Protocol):
    def close(self) -> None: ...


def _stop(signum: int, frame: FrameType | None) -> None:
    """SIGTERM (systemd stop) ends like Ctrl-C: the store is closed on the way out."""
    raise KeyboardInterrupt


def urls(host: str, port: int) -> list[str]:
    """The addresses a tablet can use: this machine's IPv4 addresses on the
    network (read from its interfaces, so a Pi whose name resolves to 127.0.1.1
    still shows its real one), then loopback for a browser on this machine."""
    if host not in ("0.0.0.0", "::"):
        return [f"http://{host}:{port}/"]
    network = [a for a in local_addresses() if ipaddress.ip_address(a).version == 4]
    return [f"http://{a}:{port}/" for a in network] + [f"http://127.0.0.1:{port}/"]
