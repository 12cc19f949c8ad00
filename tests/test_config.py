"""The configuration file (companion/config.py): broken files are refused with
the file, the key and why - every problem at once -, a good file round-trips,
the defaults are documented key by key, and the file is found where the unit
and the owner expect it."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from companion import config as cfg
from companion.config import ConfigError, load, to_toml

ROOT = Path(__file__).resolve().parents[1]
NO_ENV: dict[str, str] = {"HOME": "/home/nobody"}


def write(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def refused(tmp_path: Path, text: str) -> ConfigError:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load(path, NO_ENV)
    assert caught.value.path == path
    return caught.value


def lines_of(error: ConfigError) -> list[str]:
    return error.lines()


# -- broken files, one problem each --------------------------------------------------------------

BROKEN = {
    "unknown section": ("[sound]\nvolume = 3\n", "sound: unknown section (known: server, state, leds"),
    "unknown key": ("[server]\ncolour = \"red\"\n", "server.colour: unknown key (known: host, port, allowed_origins, "
                    "allowed_hosts, threads, max_connections, max_connections_per_address, idle_seconds, "
                    "header_seconds, max_websockets_per_address, forecast_workers)"),
    "wrong type": ("[server]\nport = \"8000\"\n", "server.port: must be a whole number, got '8000'"),
    "bool is not a number": ("[leds]\ncount = true\n", "leds.count: must be a whole number, got True"),
    "port out of range": ("[server]\nport = 70000\n", "server.port: must be from 1 to 65535, got 70000"),
    "host not an address": ("[server]\nhost = \"my box\"\n", "server.host: must be an IP address"),
    "reserved pin": ("[buttons]\nnext_pin = 0\n", "buttons.next_pin: GPIO 0 is reserved for the HAT ID EEPROM"),
    "pin off the header": ("[buttons]\nundo_pin = 28\n", "buttons.undo_pin: there is no GPIO 28 on the 40-pin header"),
    "pin shared": ("[buttons]\nnext_pin = 5\npair_pin = 5\n", "buttons.pair_pin: GPIO 5 is already used by next_pin"),
    "pin on the LED strip's SPI": ("[leds]\nbackend = \"rpi_ws281x\"\n[buttons]\npair_pin = 9\n",
                                   "buttons.pair_pin: GPIO 9 is on SPI0 (GPIO 7-11), which the LED strip uses"),
    "pin on the LED strip's PWM": ("[leds]\nbackend = \"rpi_ws281x\"\npin = 18\n[buttons]\nnext_pin = 18\n",
                                   "buttons.next_pin: GPIO 18 is on the LED strip's data pin 18"),
    "LED value": ("[leds]\nbrightness = 1.5\n", "leds.brightness: must be from 0 to 1, got 1.5"),
    "LED backend": ("[leds]\nbackend = \"ws2812\"\n", "leds.backend: unknown backend 'ws2812'"),
    "LED keys together": ("[leds]\ncount = 2000\nfps = 60\n", "leds.fps: must be from 1 to 16 for 2000 LEDs"),
    "camera value": ("[camera]\nat_end = \"rewind\"\n", "camera.at_end: 'rewind' is not one of hold, loop, stop"),
    "camera keys together": ("[camera]\nbackend = \"folder\"\n", "camera.path: the folder backend needs a path"),
    "relative state dir": ("[state]\ndir = \"games\"\n", "state.dir: must be an absolute path, got 'games'"),
    "mDNS name": ("[discovery]\nname = \"Table Box\"\n", "discovery.name: must be 1 to 63 lower-case letters"),
    "pairing window": ("[pairing]\nwindow_seconds = 1\n", "pairing.window_seconds: must be from 5 to 300, got 1.0"),
    "origin with a path": ("[server]\nallowed_origins = [\"http://x.local/app\"]\n",
                           "server.allowed_origins: 'http://x.local/app' is not an origin"),
    "list of the wrong things": ("[server]\nallowed_origins = [1]\n",
                                 "server.allowed_origins: must be a list of texts"),
    "section not a table": ("server = 3\n", "server: must be a table ([server]), got 3"),
    "value is a table": ("[server.port]\nx = 1\n", "server.port: must be a whole number, got a table"),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_a_broken_file_is_refused_with_the_file_the_key_and_why(tmp_path: Path, name: str) -> None:
    text, expected = BROKEN[name]
    error = refused(tmp_path, text)
    assert len(error.problems) == 1, error.report()
    assert lines_of(error)[0].startswith(f"{tmp_path / 'config.toml'}: {expected}"), lines_of(error)


def test_invalid_toml_is_refused_with_its_line_number(tmp_path: Path) -> None:
    error = refused(tmp_path, "[server]\nport = 8000\nhost = = \"0.0.0.0\"\n")
    assert lines_of(error) == [f"{tmp_path / 'config.toml'}:3: invalid TOML: Invalid value (column 8)"]


def test_a_duplicate_key_is_invalid_toml_with_its_line(tmp_path: Path) -> None:
    error = refused(tmp_path, "[server]\nport = 8000\n\nport = 8001\n")
    assert lines_of(error)[0].startswith(f"{tmp_path / 'config.toml'}:4: invalid TOML")


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    error = refused(tmp_path, "[server]\nport = 0\ncolour = 1\nhost = 5\n[leds]\ncount = 0\nfps = \"fast\"\n"
                              "[buttons]\nnext_pin = 1\n[nonsense]\n[discovery]\nenabled = \"yes\"\n")
    keys = [p.key for p in error.problems]
    assert keys == ["nonsense", "server.colour", "server.host", "server.port", "leds.fps", "leds.count",
                    "buttons.next_pin", "discovery.enabled"], error.report()
    head = f"the configuration {tmp_path / 'config.toml'} has 8 problems; nothing was started"
    assert error.report().startswith(head)


def test_a_named_file_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file \\(named by --config\\)"):
        load(tmp_path / "missing.toml", NO_ENV)
    with pytest.raises(ConfigError, match="no such file \\(named by \\$COMPANION_CONFIG\\)"):
        load(None, {**NO_ENV, "COMPANION_CONFIG": str(tmp_path / "missing.toml")})


def test_a_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"[server]\nhost = \"\xff\"\n")
    with pytest.raises(ConfigError, match="cannot be read"):
        load(path, NO_ENV)


# -- good files ----------------------------------------------------------------------------------

GOOD = """
[server]
host = "::"
port = 80
allowed_origins = ["http://kitchen-tablet.local:8080"]

[state]
dir = "/srv/games"

[leds]
backend = "rpi_ws281x"
count = 300
pin = 10
brightness = 1
budget_ma = 3000

[camera]
backend = "v4l2"
device = "/dev/v4l/by-id/usb-Logitech_C920-video-index0"
fps = 15

[buttons]
next_pin = 5
undo_pin = 6
pair_pin = 13
status_led_pin = 26
hold_seconds = 2

[discovery]
name = "ravenloft"

[pairing]
code_digits = 8
"""


def test_a_good_file_loads_with_its_values(tmp_path: Path) -> None:
    config = load(write(tmp_path, GOOD), NO_ENV)
    assert (config.server.host, config.server.port) == ("::", 80)
    assert config.leds.count == 300 and config.leds.brightness == 1.0 and isinstance(config.leds.brightness, float)
    assert config.camera.device.endswith("video-index0")
    assert config.buttons.pins() == {"next_pin": 5, "undo_pin": 6, "pair_pin": 13, "status_led_pin": 26}
    assert config.buttons.hold_seconds == 2.0
    assert config.discovery.name == "ravenloft" and config.pairing.code_digits == 8
    assert config.state_dir == Path("/srv/games")
    leds = config.app_settings()["LEDS"]
    assert isinstance(leds, dict) and (leds["backend"], leds["count"]) == ("rpi_ws281x", 300)


def test_a_good_file_round_trips(tmp_path: Path) -> None:
    first = load(write(tmp_path, GOOD), NO_ENV)
    again = load(write(tmp_path, to_toml(first), "again.toml"), NO_ENV)
    assert again == first
    assert to_toml(again) == to_toml(first)


def test_the_documented_defaults_round_trip_and_load_to_the_defaults(tmp_path: Path) -> None:
    text = to_toml(cfg.defaults(NO_ENV), documented=True)
    assert load(write(tmp_path, text), NO_ENV) == cfg.defaults(NO_ENV)
    assert load(write(tmp_path, "", "empty.toml"), NO_ENV) == cfg.defaults(NO_ENV)


def test_odd_text_values_survive_the_round_trip(tmp_path: Path) -> None:
    odd = replace(cfg.defaults(NO_ENV), camera=replace(cfg.defaults(NO_ENV).camera, backend="folder",
                                                           path="/srv/tray \"shots\"\\\tnew\x7fé"))
    assert load(write(tmp_path, to_toml(odd)), NO_ENV) == odd


def test_every_key_is_documented_with_its_default() -> None:
    text = to_toml(cfg.defaults(NO_ENV), documented=True)
    for key in cfg.documented_keys():
        assert key in cfg.KEY_DOCS, f"{key} has no line in KEY_DOCS"
        assert f"# {cfg.KEY_DOCS[key]}" in text
    assert set(cfg.KEY_DOCS) == set(cfg.documented_keys()), "KEY_DOCS names keys the schema does not have"


def test_docs_install_lists_every_key_with_its_default() -> None:
    """docs/install.md's configuration tables name each key as `key` in its section."""
    text = (ROOT / "docs" / "install.md").read_text("utf-8")
    for key in cfg.documented_keys():
        section, name = key.split(".")
        table = text.split(f"### `[{section}]`")[1].split("###")[0]
        assert f"| `{name}` |" in table, f"{key} is not in docs/install.md"


# -- where the file and the state are ---------------------------------------------------------------

def test_no_file_anywhere_means_the_defaults_and_the_xdg_state_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cfg, "DEFAULT_PATH", Path("/nonexistent/config.toml"))
    config = load(None, {"HOME": "/home/sam"})
    assert config.source is None
    assert config.state_dir == Path("/home/sam/.local/state/table-companion")
    assert load(None, {"XDG_STATE_HOME": "/xdg"}).state_dir == Path("/xdg/table-companion")


def test_the_installed_file_keeps_state_in_var_lib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    installed = write(tmp_path, "[server]\nport = 8080\n")
    monkeypatch.setattr(cfg, "DEFAULT_PATH", installed)
    assert load(None, NO_ENV).source == installed
    assert load(None, NO_ENV).state_dir == Path("/var/lib/table-companion")
    assert load(None, {**NO_ENV, "STATE_DIRECTORY": "/run/state/x"}).state_dir == Path("/run/state/x")


def test_the_environment_names_the_file_and_the_option_wins_over_it(tmp_path: Path) -> None:
    by_env = write(tmp_path, "[server]\nport = 8001\n", "env.toml")
    by_option = write(tmp_path, "[server]\nport = 8002\n", "option.toml")
    env = {**NO_ENV, "COMPANION_CONFIG": str(by_env)}
    assert load(None, env).server.port == 8001
    assert load(by_option, env).server.port == 8002


def test_check_on_the_command_line_prints_every_problem_and_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, "[server]\nport = 0\n[leds]\ncount = -1\n")
    done = subprocess.run([sys.executable, "-m", "companion.config", "check", "--config", str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2
    assert f"{path}: server.port: must be from 1 to 65535, got 0" in done.stderr
    assert f"{path}: leds.count: must be a whole number from 1 to 2700, got -1" in done.stderr
    good = subprocess.run([sys.executable, "-m", "companion.config", "check", "--config", str(write(tmp_path, GOOD))],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert good.returncode == 0 and good.stdout.startswith("ok: "), good.stderr


def test_the_forecast_workers_are_one_per_core_unless_the_file_says(tmp_path: Path) -> None:
    import os

    assert cfg.defaults(NO_ENV).app_settings()["FORECAST_WORKERS"] == (os.cpu_count() or 1)
    chosen = load(write(tmp_path, "[server]\nforecast_workers = 3\n"), NO_ENV)
    assert chosen.app_settings()["FORECAST_WORKERS"] == 3
    assert "server.forecast_workers: must be from 0 to 64, got 65" in refused(
        tmp_path, "[server]\nforecast_workers = 65\n").report()
