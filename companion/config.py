"""The service's configuration: one TOML file with a schema.

Why so strict: the box runs unattended, and a setting it misreads (a typo in a
key, a port out of range, a button on the LED strip's pin) shows up as a
silent misbehaviour at the table, far from the file. So the file is read
against a schema; every unknown section or key and every wrong value is
reported with the file, the key and why - all of them at once, so one edit
fixes them all - and loading refuses rather than guesses: the service does
not start on a file it does not fully understand.

Where the file is: ``--config PATH``, else ``$COMPANION_CONFIG``, else
``/etc/table-companion/config.toml``. A file named by the first two must
exist; the last is optional (a laptop or CI runs on the defaults).

Sections: ``server``, ``state``, ``leds`` (the fields of
``hardware.leds.config.LedConfig``), ``camera`` (of
``hardware.camera.config.CameraConfig``), ``buttons`` (of
``hardware.buttons.config.ButtonConfig``), ``discovery`` and ``pairing``.
``python -m companion.config defaults`` prints every key with its default and
meaning; ``python -m companion.config check`` checks a file (install.sh runs it).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import ipaddress
import json
import os
import re
import sys
import tomllib
import types
import typing
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from hardware.buttons.config import ButtonConfig
from hardware.leds.config import LedConfig, LedConfigError

if TYPE_CHECKING:
    from companion.server.connections import Limits
    from hardware.camera.config import CameraConfig

NAME = "table-companion"
DEFAULT_PATH = Path("/etc") / NAME / "config.toml"
ENV_VAR = "COMPANION_CONFIG"
INSTALLED_STATE_DIR = Path("/var/lib") / NAME
#: TOML line numbers come only inside the parser's message: "... (at line 3, column 7)".
_AT_LINE = re.compile(r"\(at line (\d+), column (\d+)\)")
_DNS_LABEL = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")
_ORIGIN = re.compile(r"^https?://[A-Za-z0-9.\-\[\]:]+$")
_HOST_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*\.?$")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the file: ``key`` is ``section.key`` (or a section, or
    empty for the file as a whole), ``line`` is known only for TOML syntax errors."""

    key: str
    why: str
    line: int | None = None

    def where(self, path: Path | None) -> str:
        name = str(path) if path is not None else "<defaults>"
        if self.line is not None:
            return f"{name}:{self.line}"
        return f"{name}: {self.key}" if self.key else name


class ConfigError(ValueError):
    """The file is refused; ``problems`` holds every reason, each with its key."""

    def __init__(self, path: Path | None, problems: Sequence[Problem]) -> None:
        self.path = path
        self.problems = list(problems)
        super().__init__(self.report())

    def lines(self) -> list[str]:
        return [f"{p.where(self.path)}: {p.why}" for p in self.problems]

    def report(self) -> str:
        count = len(self.problems)
        head = f"the configuration {self.path} has {count} problem{'s' if count != 1 else ''}; nothing was started"
        return "\n".join([head, *(f"  {line}" for line in self.lines())])


# -- the sections this module owns -----------------------------------------------------------

@dataclass(frozen=True)
class ServerSettings:
    """``host``: the address to listen on (0.0.0.0: every network); ``port``: the
    tablets' port (below 1024 works only through the unit's CAP_NET_BIND_SERVICE);
    ``allowed_origins``: other web origins allowed to open the Socket.IO
    connection (none: only pages the box serves itself); ``allowed_hosts``: more
    names the box answers to besides its own (a name the router gives it);
    ``threads``, ``max_connections``, ``max_connections_per_address``,
    ``idle_seconds``, ``header_seconds``, ``max_websockets_per_address``: the
    server's caps and timeouts (companion/server/connections.py says why);
    ``forecast_workers``: the processes that walk the threat forecast's cards side
    by side (0: one per core the box has)."""

    host: str = "0.0.0.0"
    port: int = 8000
    allowed_origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    threads: int = 64
    max_connections: int = 256
    max_connections_per_address: int = 24
    idle_seconds: int = 10
    header_seconds: int = 10
    max_websockets_per_address: int = 8
    forecast_workers: int = 0

    def problems(self) -> list[tuple[str, str]]:
        found = [] if _is_ip(self.host) else [("host", f"must be an IP address such as 0.0.0.0 or ::, "
                                                       f"got {self.host!r}")]
        if not 1 <= self.port <= 65535:
            found.append(("port", f"must be from 1 to 65535, got {self.port}"))
        found += [("allowed_origins", f"{o!r} is not an origin like http://tablet.local:8080 (no path)")
                  for o in self.allowed_origins if not _ORIGIN.match(o)]
        found += [("allowed_hosts", f"{h!r} is not a host name like games.lan (no port, no scheme)")
                  for h in self.allowed_hosts if not _HOST_NAME.match(h)]
        limits = {"threads": (4, 1000), "max_connections": (16, 10000), "max_connections_per_address": (2, 1000),
                  "idle_seconds": (1, 3600), "header_seconds": (1, 600), "max_websockets_per_address": (1, 1000),
                  "forecast_workers": (0, 64)}
        found += [(key, f"must be from {low} to {high}, got {getattr(self, key)!r}")
                  for key, (low, high) in limits.items() if not low <= getattr(self, key) <= high]
        if self.max_connections_per_address > self.max_connections:
            found.append(("max_connections_per_address", f"must not be more than max_connections "
                                                         f"({self.max_connections}), got "
                                                         f"{self.max_connections_per_address}"))
        return found

    def limits(self) -> "Limits":
        from companion.server.connections import Limits

        return Limits(self.threads, self.max_connections, self.max_connections_per_address, self.idle_seconds,
                      self.header_seconds, self.max_websockets_per_address)


@dataclass(frozen=True)
class StateSettings:
    """``dir``: where games, pairings and calibrations are kept. Empty: systemd's
    $STATE_DIRECTORY, else /var/lib/table-companion when the file is the
    installed one, else the XDG state directory (~/.local/state/table-companion)."""

    dir: str = ""

    def problems(self) -> list[tuple[str, str]]:
        if self.dir and not Path(self.dir).is_absolute():
            return [("dir", f"must be an absolute path, got {self.dir!r}")]
        return []


@dataclass(frozen=True)
class DiscoverySettings:
    """``enabled``: announce the box over mDNS; ``name``: the name tablets find it
    by, ``<name>.local`` (letters, digits and dashes)."""

    enabled: bool = True
    name: str = NAME

    def problems(self) -> list[tuple[str, str]]:
        if not _DNS_LABEL.match(self.name):
            why = (f"must be 1 to 63 lower-case letters, digits or dashes, not starting or ending with a dash "
                   f"(it becomes {self.name}.local), got {self.name!r}")
            return [("name", why)]
        return []


@dataclass(frozen=True)
class PairingSettings:
    """``required``: only paired tablets may change a game (others may watch);
    ``window_seconds``: how long after a tablet asks the PAIR button pairs it;
    ``code_digits``/``code_seconds``/``code_tries``: the code a paired tablet
    shows, how long it lasts and how many wrong guesses one address may make at
    it; ``client_attempts``/``global_attempts`` per ``attempt_window_seconds``:
    the rate limit on pairing attempts from one address, and from everyone for
    addresses that already guessed wrong;
    ``trust_loopback``: a browser on the box itself (127.0.0.1, ::1) may change
    games unpaired - whoever can open it already has the box's shell; on a
    laptop this is the simulation's own browser."""

    required: bool = True
    trust_loopback: bool = True
    window_seconds: float = 30.0
    code_digits: int = 6
    code_seconds: float = 120.0
    code_tries: int = 5
    client_attempts: int = 5
    global_attempts: int = 20
    attempt_window_seconds: float = 60.0

    def problems(self) -> list[tuple[str, str]]:
        limits = {"window_seconds": (5, 300), "code_digits": (4, 10), "code_seconds": (30, 3600),
                  "code_tries": (1, 20), "client_attempts": (1, 100), "global_attempts": (1, 1000),
                  "attempt_window_seconds": (1, 3600)}
        return [(key, f"must be from {low} to {high}, got {getattr(self, key)!r}")
                for key, (low, high) in limits.items() if not low <= getattr(self, key) <= high]


# -- the whole file ---------------------------------------------------------------------------

@dataclass(frozen=True)
class AppConfig:
    """The checked configuration. ``source`` is the file read (None: defaults only)."""

    server: ServerSettings
    state: StateSettings
    leds: LedConfig
    camera: CameraConfig
    buttons: ButtonConfig
    discovery: DiscoverySettings
    pairing: PairingSettings
    source: Path | None = field(default=None, compare=False)
    state_dir: Path = field(default=Path("."), compare=False)

    def app_settings(self) -> dict[str, object]:
        """The settings ``companion.server.app.create_app`` takes today."""
        return {"STATE_DIR": self.state_dir, "LEDS": asdict(self.leds), "CAMERA": asdict(self.camera),
                "FORECAST_WORKERS": self.server.forecast_workers or os.cpu_count() or 1}


def section_classes() -> dict[str, type]:
    """Every section and the record its table becomes, in file order."""
    return {"server": ServerSettings, "state": StateSettings, "leds": LedConfig, "camera": _camera_types()[0],
            "buttons": ButtonConfig, "discovery": DiscoverySettings, "pairing": PairingSettings}


def defaults(env: Mapping[str, str] | None = None) -> AppConfig:
    return from_mapping({}, None, env)


def load(path: Path | None = None, env: Mapping[str, str] | None = None) -> AppConfig:
    """The configuration from ``path``, ``$COMPANION_CONFIG`` or the default file."""
    env = os.environ if env is None else env
    found = locate(path, env)
    if found is None:
        return defaults(env)
    return from_mapping(parse(found), found, env)


def locate(path: Path | None, env: Mapping[str, str]) -> Path | None:
    """A file someone named must exist; the default one may be missing."""
    named = path or (Path(env[ENV_VAR]) if env.get(ENV_VAR) else None)
    if named is not None:
        if not named.is_file():
            why = "no such file" if not named.exists() else "not a file"
            raise ConfigError(named, [Problem("", f"{why} (named by {'--config' if path else '$' + ENV_VAR})")])
        return named
    return DEFAULT_PATH if DEFAULT_PATH.is_file() else None


def parse(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as problem:
        raise ConfigError(path, [Problem("", f"cannot be read: {problem}")]) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as problem:
        raise ConfigError(path, [_syntax_problem(problem)]) from None


def _syntax_problem(problem: tomllib.TOMLDecodeError) -> Problem:
    message = str(problem)
    at = _AT_LINE.search(message)
    why = f"invalid TOML: {_AT_LINE.sub('', message).strip()}"
    return Problem("", f"{why} (column {at.group(2)})" if at else why, int(at.group(1)) if at else None)


def from_mapping(data: Mapping[str, object], source: Path | None = None,
                 env: Mapping[str, str] | None = None) -> AppConfig:
    """Check every section; raise one ConfigError listing every problem."""
    problems = [Problem(str(name), f"unknown section (known: {', '.join(section_classes())})")
                for name in data if name not in section_classes()]
    records: dict[str, Any] = {}
    for name in section_classes():
        record, found = read_section(name, data.get(name, {}))
        records[name], problems = record, problems + found
    problems += _cross_problems(records)
    if problems:
        raise ConfigError(source, problems)
    return _assemble(records, source, os.environ if env is None else env)


def _assemble(records: dict[str, Any], source: Path | None, env: Mapping[str, str]) -> AppConfig:
    """Every record was checked above; the state directory is settled once, here."""
    state_dir = resolve_state_dir(records["state"].dir, source, env)
    return AppConfig(source=source, state_dir=state_dir, **records)


def resolve_state_dir(configured: str, source: Path | None, env: Mapping[str, str]) -> Path:
    """The state directory: configured, else systemd's, else the installed one, else XDG."""
    if configured:
        return Path(configured)
    if env.get("STATE_DIRECTORY"):
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    if source == DEFAULT_PATH:
        return INSTALLED_STATE_DIR
    base = env.get("XDG_STATE_HOME") or str(Path(env.get("HOME") or Path.home()) / ".local" / "state")
    return Path(base) / NAME


# -- one section ------------------------------------------------------------------------------

def read_section(name: str, table: object) -> tuple[object | None, list[Problem]]:
    """The section's record, or every problem that stops it being made: a key of the
    wrong type is left out so the other keys' values are still checked."""
    if not isinstance(table, Mapping):
        return None, [Problem(name, f"must be a table ([{name}]), got {_shown(table)}")]
    cls = section_classes()[name]
    values, problems = _typed_values(name, cls, table)
    if name in ("leds", "camera"):
        error = LedConfigError if name == "leds" else _camera_types()[1]
        record, found = _record_raising(name, cls, error, values, together=not problems)
    else:
        record, found = _record_checked(name, cls, values)
    problems += found
    return (None if problems else record), problems


def _typed_values(name: str, cls: type, table: Mapping[str, object]) -> tuple[dict[str, object], list[Problem]]:
    hints = typing.get_type_hints(cls)
    values: dict[str, object] = {}
    problems = []
    for key, value in table.items():
        if key not in hints:
            problems.append(Problem(f"{name}.{key}", f"unknown key (known: {', '.join(hints)})"))
            continue
        converted, why = convert(value, hints[key])
        if why:
            problems.append(Problem(f"{name}.{key}", why))
        else:
            values[key] = converted
    return values, problems


def _record_checked(name: str, cls: type, values: dict[str, object]) -> tuple[object | None, list[Problem]]:
    """Sections whose record lists its own problems (``problems()``)."""
    record = cls(**values)
    found = [Problem(f"{name}.{key}", why) for key, why in record.problems()]
    return (None, found) if found else (record, [])


def _record_raising(name: str, cls: type, error: type[Exception], values: dict[str, object],
                    together: bool) -> tuple[object | None, list[Problem]]:
    """Records that raise on their first problem (LedConfig, CameraConfig): each key
    is tried alone over the defaults so every single-key problem is listed, then
    (``together``: no key was dropped) all at once, for the problems between keys
    (fps against count ...)."""
    found = []
    for key, value in values.items():
        problem = _raised(name, cls, error, {key: value})
        if problem is not None and problem.key == f"{name}.{key}":
            found.append(problem)
    if found or not together:
        return None, found
    problem = _raised(name, cls, error, values)
    return (None, [problem]) if problem else (cls(**values), [])


def _raised(name: str, cls: type, error: type[Exception], values: dict[str, object]) -> Problem | None:
    try:
        cls(**values)
    except error as refused:
        return Problem(f"{name}.{getattr(refused, 'field', '')}", str(getattr(refused, "why", refused)))
    return None


def _camera_types() -> tuple[type, type[Exception]]:
    """The camera's record. ``hardware.camera`` imports OpenCV and numpy with it, and
    the file must be checkable without them (install.sh checks it before the venv
    exists; a box whose OpenCV broke must still say what is wrong with its file),
    so without them the record's own module is loaded alone: it needs neither."""
    try:
        module = importlib.import_module("hardware.camera.config")
    except ImportError:
        module = _load_alone("hardware.camera.config", Path(__file__).parents[1] / "hardware" / "camera" / "config.py")
    return module.CameraConfig, module.CameraConfigError


def _load_alone(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# -- values -----------------------------------------------------------------------------------

_NOUNS: dict[object, str] = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}


def convert(value: object, hint: object) -> tuple[object, str | None]:
    """A TOML value as the field's type, or why it cannot be (ints are fine as floats;
    true/false are never numbers; a list of texts becomes a tuple)."""
    wanted = _plain_type(hint)
    if wanted == "texts":
        return _texts(value)
    if wanted is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value), None
    if not _is_a(value, wanted):
        return value, f"must be {_NOUNS[wanted]}, got {_shown(value)}"
    return value, None


def _is_a(value: object, wanted: object) -> bool:
    """TOML's true is an int to Python; here it is never a number."""
    if wanted is bool or isinstance(value, bool):
        return wanted is bool and isinstance(value, bool)
    return isinstance(wanted, type) and isinstance(value, wanted)


def _texts(value: object) -> tuple[object, str | None]:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value), None
    return value, f"must be a list of texts, got {_shown(value)}"


def _plain_type(hint: object) -> object:
    """``int | None`` is an int that may be left out; ``tuple[str, ...]`` a list of texts."""
    if typing.get_origin(hint) is tuple:
        return "texts"
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return next(arg for arg in typing.get_args(hint) if arg is not type(None))
    return hint


def _shown(value: object) -> str:
    if isinstance(value, Mapping):
        return "a table"
    return repr(value)


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _cross_problems(records: Mapping[str, object]) -> list[Problem]:
    """A button on the LED strip's data pin (or on SPI0, which the strip then owns)."""
    leds, buttons = records.get("leds"), records.get("buttons")
    if not isinstance(leds, LedConfig) or not isinstance(buttons, ButtonConfig) or leds.backend != "rpi_ws281x":
        return []
    taken = {7, 8, 9, 10, 11} if leds.pin == 10 else {leds.pin}
    what = "SPI0 (GPIO 7-11), which the LED strip uses" if leds.pin == 10 else f"the LED strip's data pin {leds.pin}"
    return [Problem(f"buttons.{key}", f"GPIO {pin} is on {what}")
            for key, pin in buttons.pins().items() if pin in taken]


# -- writing ----------------------------------------------------------------------------------

def to_toml(config: AppConfig, documented: bool = False) -> str:
    """The file that loads back to ``config``; ``documented`` adds each key's meaning."""
    blocks = [_section_toml(name, getattr(config, name), documented) for name in section_classes()]
    head = [f"# {NAME} configuration; every key, its default and meaning: docs/install.md", ""] if documented else []
    return "\n".join(head + blocks)


def _section_toml(name: str, record: Any, documented: bool) -> str:
    lines = [f"[{name}]"]
    for item in fields(record):
        value = getattr(record, item.name)
        if documented:
            lines.append(f"# {KEY_DOCS[f'{name}.{item.name}']}")
        if value is None or (name == "state" and value == ""):
            lines.append(f"# {item.name} = {_example(name, item.name)}")
        else:
            lines.append(f"{item.name} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


def _example(section: str, key: str) -> str:
    return {"state.dir": json.dumps(str(INSTALLED_STATE_DIR))}.get(f"{section}.{key}", str(EXAMPLE_PINS.get(key, "")))


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False).replace("\x7f", "\\u007f")


#: Where docs/install.md suggests wiring the buttons (none clashes with SPI0 or PWM0).
EXAMPLE_PINS = {"next_pin": 5, "undo_pin": 6, "pair_pin": 13, "status_led_pin": 26}

#: One line per key: shown in ``defaults`` and checked against docs/install.md by the tests.
KEY_DOCS = {
    "server.host": "address to listen on; 0.0.0.0 = every network of the box",
    "server.port": "the tablets' port (1-65535; below 1024 needs the unit's CAP_NET_BIND_SERVICE)",
    "server.allowed_origins": "other web origins that may open the Socket.IO connection; [] = only the box's pages",
    "server.allowed_hosts": "more names the box answers to (e.g. games.lan); its own names and addresses work",
    "server.threads": "requests and WebSockets served at once (each tablet holds one)",
    "server.max_connections": "open connections from all clients together (the unit's LimitNOFILE must allow them)",
    "server.max_connections_per_address": "open connections from one client address (the box's own 127.0.0.1: no cap)",
    "server.idle_seconds": "a connection that sends nothing for this long is closed",
    "server.header_seconds": "a request whose headers take longer than this to arrive is closed",
    "server.max_websockets_per_address": "tablet connections (WebSockets) open at once from one client address; "
                                         "all of them together leave a quarter of the threads free",
    "server.forecast_workers": "processes that walk the threat forecast's cards side by side (0-64; "
                               "0 = one per core of the box)",
    "state.dir": "games, pairings, calibrations; unset = $STATE_DIRECTORY, /var/lib/table-companion or ~/.local/state",
    "leds.backend": "simulated, rpi_ws281x (Pi 4/3/Zero 2 W), pi5 (ws2812-pio overlay) or none (docs/leds.md)",
    "leds.count": "LEDs on the strip (1-2700)",
    "leds.pin": "rpi_ws281x data pin: 10 = SPI (no root), 12/18 PWM0, 13/19 PWM1, 21 PCM (these need root)",
    "leds.dma": "rpi_ws281x DMA channel (never 5)",
    "leds.order": "colour order of the LED chips (WS2812B: GRB)",
    "leds.device": "the Pi 5 driver's node",
    "leds.brightness": "0 to 1, scales every frame",
    "leds.budget_ma": "the most current the LEDs' light may draw, in mA",
    "leds.board": "the game whose board the LEDs lie under: its id as `./run games` lists it (empty: the box's first game)",
    "leds.ma_per_led": "one LED at full white, in mA (WS2812B: 60)",
    "leds.fps": "frames a second while animating",
    "leds.pace": "animation speed: 2 = twice as slow (0.25-4)",
    "camera.backend": "v4l2 (USB webcam), picamera2 (camera module), folder, video or none (docs/dice.md)",
    "camera.device": "the webcam's stable path, /dev/v4l/by-id/usb-...-video-index0",
    "camera.camera_num": "which camera module (picamera2)",
    "camera.path": "a folder of images or a video file (folder, video)",
    "camera.width": "frame width asked of the camera",
    "camera.height": "frame height asked of the camera",
    "camera.fps": "frames a second (0 = as fast as read)",
    "camera.fourcc": "the webcam's pixel format, e.g. MJPG or YUYV",
    "camera.at_end": "after a folder's or video's last frame: hold, loop or stop",
    "camera.stale_after": "seconds without a good frame before the camera counts as lost",
    "buttons.next_pin": "GPIO of NEXT (accept the prompt's default answer); unset = not wired",
    "buttons.undo_pin": "GPIO of UNDO (acts when held); unset = not wired",
    "buttons.pair_pin": "GPIO of PAIR (the link button for pairing a tablet); unset = not wired",
    "buttons.status_led_pin": "GPIO of the status LED (lit when running, blinks on a refused press); unset = none",
    "buttons.hold_seconds": "how long UNDO is held before it acts (0.3-10)",
    "buttons.bounce_ms": "ignore contact chatter shorter than this (0-500)",
    "discovery.enabled": "announce the box over mDNS as <name>.local",
    "discovery.name": "the box's name on the network: <name>.local",
    "pairing.required": "only paired tablets may change a game; others may watch",
    "pairing.trust_loopback": "a browser on the box itself (127.0.0.1) may change games unpaired",
    "pairing.window_seconds": "how long after a tablet asks the PAIR button pairs it",
    "pairing.code_digits": "digits of the pairing code a paired tablet shows",
    "pairing.code_seconds": "how long a pairing code lasts",
    "pairing.code_tries": "wrong guesses one address may make at a pairing code (the code stays good for others)",
    "pairing.client_attempts": "pairing attempts allowed from one address per attempt window",
    "pairing.global_attempts": ("pairing attempts allowed from everyone per attempt window, for addresses that "
                                "already guessed wrong"),
    "pairing.attempt_window_seconds": "the attempt window, in seconds",
}


def documented_keys() -> list[str]:
    """Every key of every section, as ``section.key``."""
    return [f"{name}.{f.name}" for name, cls in section_classes().items() for f in fields(cls)]


# -- command line -----------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    """``check``: exit 0 or print every problem and exit 2; ``defaults``: the documented
    default file; ``show``: the configuration in force, defaults filled in."""
    parser = argparse.ArgumentParser(prog="python -m companion.config", description="Check or print the configuration.")
    parser.add_argument("command", choices=("check", "defaults", "show"))
    parser.add_argument("--config", type=Path, help=f"the file (default: ${ENV_VAR}, else {DEFAULT_PATH})")
    args = parser.parse_args(argv)
    if args.command == "defaults":
        print(to_toml(defaults({}), documented=True), end="")
        return 0
    return _check_or_show(args.config, args.command == "show", print)


def _check_or_show(path: Path | None, show: bool, say: Callable[[str], None]) -> int:
    try:
        config = load(path)
    except ConfigError as refused:
        print(refused.report(), file=sys.stderr)
        return 2
    say(to_toml(config) if show else f"ok: {config.source or 'no file, the defaults'} (state in {config.state_dir})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
