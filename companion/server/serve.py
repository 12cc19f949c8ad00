"""Start the service: print where to point the tablets, then serve until stopped."""

from __future__ import annotations

import argparse
import ipaddress
import json
import logging
import os
import resource
import sys
import urllib.request
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Callable, Protocol

from gunicorn.app.base import BaseApplication

from companion.appliance.discovery import Advertiser, announcing_possible, local_addresses
from companion.appliance.health import RecentErrors, RepeatLimit
from companion.appliance.notify import ENV_SOCKET, Notifier, Watchdog, watchdog_interval
from companion.appliance.safemode import StartGuard, StartMode
from companion.config import DEFAULT_PATH, ENV_VAR, AppConfig, ConfigError, to_toml
from companion.config import load as load_config
from hardware.buttons import ButtonPanel
from hardware.leds.config import BACKEND_NAMES

from .app import Services, create_app, services_of
from .connections import ConnectionGuard, Limits
from .dice import camera_settings
from .dice import describe as describe_camera
from .leds import describe
from .worker import worker_class

#: Seconds a worker may stop turning its loop (a hang, or a slow start on a Pi Zero) before
#: gunicorn's master replaces it; systemd's watchdog usually acts first.
WORKER_TIMEOUT = 120
#: Seconds a stopping worker lets open requests finish.
GRACEFUL_SECONDS = 3
#: File descriptors kept beside the connections (SQLite, the LEDs, the camera, mDNS, logs).
FILES_RESERVED = 128
#: The watchdog's request waits at most this long for the answer.
PROBE_SECONDS = 5.0

log = logging.getLogger(__name__)


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
    """Serve with gunicorn until stopped: one worker process holds the whole service (the app,
    its one writer per game, the hardware threads); gunicorn's master only supervises it."""
    limits = fit_open_files(config.server.limits())
    start = Start(config, overrides, force_safe, SystemdLink.take())
    return TableService(start, ConnectionGuard(limits)).serve()


@dataclass(frozen=True)
class SystemdLink:
    """systemd's notify socket and watchdog interval, taken from the environment in the master
    (then removed from it, so gunicorn does not say READY before the service can answer; the
    worker says it, which is why the unit has NotifyAccess=all)."""

    notifier: Notifier
    watchdog_seconds: float | None

    @classmethod
    def take(cls) -> "SystemdLink":
        link = cls(Notifier.from_env(), watchdog_interval())
        for name in (ENV_SOCKET, "WATCHDOG_USEC", "WATCHDOG_PID"):
            os.environ.pop(name, None)
        return link


@dataclass(frozen=True)
class Start:
    """What the worker needs to start the service."""

    config: AppConfig
    overrides: Overrides
    force_safe: bool
    systemd: SystemdLink

    @property
    def state_dir(self) -> Path:
        return self.overrides.state_dir or self.config.state_dir

    @property
    def host(self) -> str:
        return self.overrides.host or self.config.server.host

    @property
    def port(self) -> int:
        return self.config.server.port if self.overrides.port is None else self.overrides.port


class TableService(BaseApplication):  # type: ignore[misc]  # gunicorn ships no type hints
    """gunicorn, configured in code: the app is made in the worker (``load``), never in the master,
    so no thread or device is opened before the fork."""

    def __init__(self, start: Start, guard: ConnectionGuard) -> None:
        self.start, self.guard = start, guard
        self.running: Running | None = None
        super().__init__()

    def load_config(self) -> None:
        for key, value in gunicorn_settings(self.start, self.guard).items():
            self.cfg.set(key, value)
        self.cfg.set("post_worker_init", self._worker_ready)
        self.cfg.set("worker_exit", self._worker_exit)

    def load(self) -> Any:
        self.running = Running(self.start, self.guard)
        return self.running.app

    def _worker_ready(self, worker: Any) -> None:
        assert self.running is not None
        self.running.ready(int(worker.sockets[0].getsockname()[1]))

    def _worker_exit(self, server: Any, worker: Any) -> None:
        if self.running is not None:
            self.running.close()

    def serve(self) -> int:
        """gunicorn's master loop; it ends by exiting, whose status is returned."""
        try:
            self.run()
        except SystemExit as done:
            return done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        return 0


def gunicorn_settings(start: Start, guard: ConnectionGuard) -> dict[str, object]:
    """One worker, threads, the caps and timeouts; errors to stderr (the journal), no access log."""
    limits = guard.limits
    return {"bind": [bind_address(start.host, start.port)], "workers": 1, "worker_class": worker_class(guard),
            "threads": limits.threads, "worker_connections": limits.total, "keepalive": limits.idle_seconds,
            "timeout": WORKER_TIMEOUT, "graceful_timeout": GRACEFUL_SECONDS, "limit_request_line": 8190,
            "limit_request_fields": 60, "limit_request_field_size": 8190, "accesslog": None, "errorlog": "-",
            "loglevel": "warning", "control_socket_disable": True, "preload_app": False,
            "proc_name": "table-companion"}


def bind_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def fit_open_files(limits: Limits) -> Limits:
    """The connection cap must fit in the process's file descriptors (systemd's default soft limit
    is 1024; the unit sets LimitNOFILE): the soft limit is raised as far as the hard one allows,
    and the cap lowered (and said so) if that is still too few."""
    wanted = limits.total + FILES_RESERVED
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return limits
    fitted = replace(limits, total=max(16, soft - FILES_RESERVED))
    log.warning("only %d open files are allowed, so at most %d connections are served (server.max_connections "
                "is %d): raise LimitNOFILE", soft, fitted.total, limits.total)
    return fitted


class Running:
    """The service inside the worker: started in order (the safe-mode marker, the app, the
    box's parts, READY, the watchdog) and closed in reverse."""

    def __init__(self, start: Start, guard: ConnectionGuard) -> None:
        log_to_stderr()
        self.start = start
        self.guard = guard
        self.marker = StartGuard(start.state_dir)
        self.mode = self.marker.begin(start.force_safe)
        self.errors = RecentErrors().install()
        self.app = create_app(app_settings(start.config, start.overrides, self.mode, self.errors, guard))
        self.services = services_of(self.app)
        self.parts: list[Closable] = []

    def ready(self, port: int) -> None:
        start = self.start
        self.parts = start_parts(start.config, self.services, port, self.mode)
        announce(start.config, self.services, start.host, port, start.state_dir, self.mode)
        notifier = start.systemd.notifier
        notifier.ready("tablets can connect")
        self.marker.ready()
        interval = start.systemd.watchdog_seconds
        if interval is not None and notifier.enabled:
            url = f"http://{bind_address(loopback_for(start.host), port)}/api/alive"
            self.parts.append(Watchdog(notifier, interval, answers(url, min(interval, PROBE_SECONDS))).start())
        self.parts.append(notifier)

    def close(self) -> None:
        """Safe to call twice."""
        parts, self.parts = self.parts, []
        for part in reversed(parts):
            part.close()
        self.services.close()


def loopback_for(host: str) -> str:
    """Where the watchdog asks the service: loopback when it listens on every address."""
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    return "::1" if host == "::" else host


def answers(url: str, timeout: float) -> Callable[[], bool]:
    """For the watchdog: a real request through the server and the app, answered ``ok`` in time."""
    def alive() -> bool:
        try:
            with urllib.request.urlopen(url, timeout=timeout) as reply:
                return bool(reply.status == 200 and json.loads(reply.read(4096)).get("ok") is True)
        except (OSError, ValueError):
            return False
    return alive


def log_to_stderr() -> None:
    """The service's log lines (with every traceback) go to stderr: the journal on the Pi; the
    same line over and over (a stranger's noise) only a few times a minute, gunicorn's too."""
    root = logging.getLogger()
    if not any(isinstance(h, _JournalHandler) for h in root.handlers):
        handler = _JournalHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        handler.addFilter(RepeatLimit())
        root.addHandler(handler)
        logging.getLogger("gunicorn.error").addFilter(RepeatLimit())
    root.setLevel(logging.INFO)


class _JournalHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """The service's own handler to stderr (told apart from any other when added again)."""


def app_settings(config: AppConfig, overrides: Overrides, mode: StartMode, errors: RecentErrors,
                 guard: ConnectionGuard | None = None) -> dict[str, object]:
    """The app's settings: the file's, the options', and safe mode's hardware left off."""
    settings: dict[str, object] = {**config.app_settings(), "PAIRING": config.pairing, "START_MODE": mode,
                                   "ERRORS": errors, "CONFIG_TEXT": _config_text(config),
                                   "ALLOWED_ORIGINS": config.server.allowed_origins,
                                   "ALLOWED_HOSTS": config.server.allowed_hosts,
                                   "DISCOVERY_NAME": config.discovery.name, "CONNECTIONS": guard}
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
    addresses = urls(host, port)
    for url in addresses:
        if "//127.0.0.1:" in url and trusted:
            print(f"Open {url} on this machine (its own browser may change games without pairing)", flush=True)
        else:
            print(f"Open {url} on a tablet", flush=True)
    if not any(lan_url(url) for url in addresses):
        print("No network address found: this machine is on no network a tablet could reach "
              "(or the service listens on loopback only: --host 0.0.0.0)", flush=True)
    print(discovery_line(config, port), flush=True)
    print_qr(next((url for url in addresses if lan_url(url)), None))
    print(f"Games are kept in {state_dir}", flush=True)
    if mode.safe:
        print(f"SAFE MODE: {mode.reason}", flush=True)
    print(describe(services.leds.health()), flush=True)
    print(describe_camera(services.dice.health()), flush=True)
    pairing = services.box.pairing
    devices = pairing.devices()
    if not any(device.owner for device in devices):  # pairing off too: the backup is still the owner's
        shown = pairing.console_code(owner=True)  # printed on the box itself: it pairs the owner's tablet
        whom = "the owner's tablet (no paired tablet is the owner's yet)" if devices else "the first tablet"
        print(f"Pairing code for {whom}: {shown.code} (open Pair on the tablet; it lasts "
              f"{round(shown.seconds_left(pairing.clock()) / 60)} minutes)", flush=True)
    print("READY", flush=True)


def lan_url(url: str) -> bool:
    """An address another device can open (not this machine's loopback)."""
    return "//127." not in url and "//[::1]" not in url and "//localhost" not in url


def discovery_line(config: AppConfig, port: int) -> str:
    """Whether the .local name is announced, and why not: a name nobody announces is no address."""
    name = f"http://{config.discovery.name}.local:{port}/"
    if not config.discovery.enabled:
        return f"The name {name} is not announced (discovery.enabled is false): use an address above"
    if not announcing_possible():
        return (f"The name {name} is not announced: zeroconf is not installed (pip install "
                "'table-companion[discovery]'); use an address above")
    return f"Or {name}, announced on the network, where the tablet resolves .local names"


def print_qr(url: str | None) -> None:
    """The first network address as a QR code in the terminal, for a tablet's camera to open."""
    if url is None or not sys.stdout.isatty():
        return
    import qrcode  # imported here: only a terminal start draws one

    code = qrcode.QRCode(border=1)
    code.add_data(url)
    print(f"Scan to open {url}:", flush=True)
    code.print_ascii(invert=True)
    sys.stdout.flush()


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


def urls(host: str, port: int) -> list[str]:
    """The addresses a tablet can use: this machine's IPv4 addresses on the
    network (read from its interfaces, so a Pi whose name resolves to 127.0.1.1
    still shows its real one), then loopback for a browser on this machine."""
    if host not in ("0.0.0.0", "::"):
        return [f"http://{host}:{port}/"]
    network = [a for a in local_addresses() if ipaddress.ip_address(a).version == 4]
    return [f"http://{a}:{port}/" for a in network] + [f"http://127.0.0.1:{port}/"]
