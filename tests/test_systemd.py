"""systemd/: the unit passes ``systemd-analyze verify`` (in a temporary root that
holds the venv's entry point, so ExecStart is checked too) and keeps the
settings the appliance relies on; install.sh and uninstall.sh pass bash's and
shellcheck's checks, and their dry runs print every step and change nothing
(every command that could change the machine is a stub that records a call)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "table-companion.service"
INSTALL = ROOT / "systemd" / "install.sh"
UNINSTALL = ROOT / "systemd" / "uninstall.sh"
EXEC_START = "/opt/table-companion/venv/bin/companion"
#: Everything the scripts could change the machine with.
MUTATING = ("apt-get", "systemctl", "useradd", "usermod", "groupadd", "userdel", "udevadm", "rsync", "install",
            "rm", "chown", "chmod", "pip", "pip3", "mkdir", "cp", "mv")


def unit_settings(text: str) -> dict[str, dict[str, list[str]]]:
    """Section -> key -> every value (a unit may repeat a key)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1]
        elif line and not line.startswith("#") and "=" in line:
            key, _, value = line.partition("=")
            sections.setdefault(current, {}).setdefault(key, []).append(value)
    return sections


# -- the unit ----------------------------------------------------------------------------------------

def verify(unit_text: str, root: Path) -> subprocess.CompletedProcess[str]:
    """``systemd-analyze verify`` in ``root``: the host's unit library, the venv's entry point, our unit."""
    units = next((p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")) if p.is_dir()), None)
    if units is None:
        pytest.skip("systemd-analyze is here but no systemd unit library to verify against")
    shutil.copytree(units, root / "usr" / "lib" / "systemd" / "system", symlinks=True, dirs_exist_ok=True)
    entry = root / EXEC_START.lstrip("/")
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text("#!/bin/sh\n")
    entry.chmod(0o755)
    (root / "etc" / "systemd" / "system").mkdir(parents=True, exist_ok=True)
    (root / "etc" / "systemd" / "system" / UNIT.name).write_text(unit_text)
    return subprocess.run(["systemd-analyze", "verify", "--man=no", "--generators=no", f"--root={root}",
                           f"/etc/systemd/system/{UNIT.name}"], capture_output=True, text=True, timeout=60)


needs_systemd_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                           reason="systemd-analyze is not installed (Debian: apt-get install systemd)")


@needs_systemd_analyze
def test_systemd_analyze_verify_passes_without_a_warning(tmp_path: Path) -> None:
    done = verify(UNIT.read_text(), tmp_path)
    assert done.returncode == 0 and done.stdout + done.stderr == "", done.stdout + done.stderr


@needs_systemd_analyze
def test_verify_would_catch_a_mistake(tmp_path: Path) -> None:
    """The check above is meaningful: a misspelt key and a bad value are reported."""
    broken = UNIT.read_text().replace("Restart=on-failure", "Restart=sometimes\nWatchdogSecs=30")
    done = verify(broken, tmp_path)
    assert "Unknown key" in done.stderr and "sometimes" in done.stderr


def test_the_unit_runs_the_service_as_the_appliance_needs() -> None:
    service = unit_settings(UNIT.read_text())["Service"]
    # gunicorn's worker (not the main process) says READY and pings the watchdog
    assert service["Type"] == ["notify"] and service["NotifyAccess"] == ["all"]
    assert service["KillMode"] == ["mixed"]
    # room for the server's connection cap (256 by default) beside SQLite, LEDs, camera
    assert int(service["LimitNOFILE"][0]) >= 256 + 128
    assert int(service["WatchdogSec"][0]) >= 10 and service["Restart"] == ["on-failure"]
    assert service["User"] == ["companion"]
    assert set(service["SupplementaryGroups"][0].split()) == {"gpio", "spi", "video"}
    assert service["ExecStart"][0].split()[:2] == [EXEC_START, "serve"]
    assert "--config /etc/table-companion/config.toml" in service["ExecStart"][0]
    assert "COMPANION_CONFIG=/etc/table-companion/config.toml" in service["Environment"]
    assert service["StateDirectory"] == ["table-companion"] and service["ProtectSystem"] == ["strict"]


def test_the_hardening_leaves_gpio_spi_video_and_the_led_node_reachable() -> None:
    """These would hide /dev/gpiochip*, /dev/spidev*, /dev/video*, /dev/leds0 or drop the groups."""
    service = unit_settings(UNIT.read_text())["Service"]
    for setting in ("PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock", "PrivateUsers", "DynamicUser"):
        assert setting not in service, f"{setting}= would cut the service off from its hardware"
    assert service["NoNewPrivileges"] == ["yes"] and service["CapabilityBoundingSet"] == ["CAP_NET_BIND_SERVICE"]


# -- the scripts --------------------------------------------------------------------------------------

@pytest.mark.parametrize("script", [INSTALL, UNINSTALL], ids=["install", "uninstall"])
def test_the_scripts_are_strict_and_pass_the_checkers(script: Path) -> None:
    text = script.read_text()
    assert text.startswith("#!/usr/bin/env bash\n") and "\nset -euo pipefail\n" in text
    assert os.access(script, os.X_OK)
    assert subprocess.run(["bash", "-n", str(script)], timeout=30).returncode == 0
    if shutil.which("shellcheck"):
        for checked in (script, script.with_name("common.sh")):  # the helpers both scripts source
            done = subprocess.run(["shellcheck", str(checked)], capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, done.stdout


def stubbed_path(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """A PATH whose commands that change things only record that they were called;
    ``python3`` is this interpreter and ``apt-cache`` finds nothing (the same on any machine)."""
    stubs, log = tmp_path / "stubs", tmp_path / "called.log"
    stubs.mkdir(exist_ok=True)
    for name in MUTATING:
        write_stub(stubs / name, f'echo "{name} $*" >> "{log}"\nexit 0\n')
    write_stub(stubs / "apt-cache", "exit 100\n")
    write_stub(stubs / "python3", f'exec "{sys.executable}" "$@"\n')
    env = {**os.environ, "PATH": f"{stubs}:{os.environ.get('PATH', '/usr/bin:/bin')}"}
    return env, log


def write_stub(path: Path, body: str) -> None:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def dry_run(script: Path, tmp_path: Path, *options: str) -> str:
    env, log = stubbed_path(tmp_path)
    done = subprocess.run(["bash", str(script), "--dry-run", *options], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not log.exists(), f"the dry run changed something: {log.read_text()}"
    return done.stdout


def test_the_install_dry_run_prints_every_step_and_changes_nothing(tmp_path: Path) -> None:
    watched = (Path("/opt/table-companion"), Path("/etc/systemd/system/table-companion.service"))
    before = {p: p.exists() for p in watched}
    out = dry_run(INSTALL, tmp_path)
    for expected in (
        "dry run: nothing is changed",
        ("+ env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-venv python3-pip "
         "python3-numpy python3-opencv rsync"),
        "python3-picamera2 is not in the apt sources",
        "+ usermod -a -G gpio\\,spi\\,video companion",
        "+ python3 -m venv --system-site-packages /opt/table-companion/venv",
        ("+ /opt/table-companion/venv/bin/pip install --disable-pip-version-check --quiet --editable "
         "/opt/table-companion/app\\[appliance\\]"),
        "+ write /etc/table-companion/config.toml (mode 0640, owner root:companion):",
        '    | KERNEL=="leds[0-9]*", GROUP="gpio", MODE="0660"',
        "(not written: run again with --apply-config-txt to write these lines, then reboot)",
        "+ write /etc/systemd/system/table-companion.service (mode 0644, owner root:root):",
        "+ systemctl enable table-companion.service",
        "http://table-companion.local:8000/",
    ):
        assert expected in out, f"missing from the dry run: {expected!r}\n{out}"
    # lgpio from apt where the Raspberry Pi OS archive has it, else its wheel with pip (a plain Debian)
    from_apt = "rsync python3-lgpio" in out
    from_pip = ("python3-lgpio is not in the apt sources" in out
                and "pip install --disable-pip-version-check --quiet lgpio\\>=0.2.2" in out)
    assert from_apt != from_pip, out
    if not Path("/etc/table-companion/config.toml").exists():
        assert "    | [pairing]" in out and "    | required = true" in out  # the whole default file is shown
    assert {p: p.exists() for p in before} == before


def test_the_install_dry_run_shows_the_options(tmp_path: Path) -> None:
    out = dry_run(INSTALL, tmp_path, "--apply-config-txt", "--with-rpi-ws281x")
    assert "--editable /opt/table-companion/app\\[appliance\\,leds\\]" in out
    assert "rsync gcc python3-dev" in out
    assert "-m companion.appliance.bootconfig --boot-dir" in out and out.rstrip().count("--apply") >= 1


def test_the_uninstall_dry_run_keeps_the_games_unless_purged(tmp_path: Path) -> None:
    kept = dry_run(UNINSTALL, tmp_path)
    assert "games, pairings and calibrations: /var/lib/table-companion" in kept and "userdel" not in kept
    purged = dry_run(UNINSTALL, tmp_path, "--purge", "--revert-config-txt")
    assert "purge: games, pairings, calibrations, configuration and the user" in purged
    assert "-m companion.appliance.bootconfig --boot-dir" in purged and "--remove" in purged


@pytest.mark.parametrize("script", [INSTALL, UNINSTALL], ids=["install", "uninstall"])
def test_an_unknown_option_is_refused(script: Path) -> None:
    done = subprocess.run(["bash", str(script), "--dry-run", "--frobnicate"], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 2 and "unknown option: --frobnicate" in done.stderr


def test_the_apt_lists_are_read_afresh_before_any_package_is_looked_up(tmp_path: Path) -> None:
    """On a fresh card the lists are empty: a lookup before ``apt-get update`` finds nothing, even
    on Raspberry Pi OS, and the camera module would be left out for no reason."""
    out = dry_run(INSTALL, tmp_path)
    update = out.index("+ apt-get update")
    looked_up = min(out.index("python3-lgpio is not in the apt sources"),
                    out.index("python3-picamera2 is not in the apt sources"))
    assert update < looked_up < out.index("+ env DEBIAN_FRONTEND=noninteractive apt-get install"), out
    assert out.count("+ apt-get update") == 1, out


def model_file(tmp_path: Path, model: str) -> dict[str, str]:
    """The device tree's model file as a Pi has it (NUL-terminated), for ``COMPANION_MODEL_FILE``."""
    path = tmp_path / "model"
    path.write_bytes(model.encode() + b"\0")
    return {"COMPANION_MODEL_FILE": str(path)}


@pytest.mark.parametrize("model", ["Raspberry Pi 5 Model B Rev 1.0", "Raspberry Pi 500 Rev 1.0",
                                   "Raspberry Pi Compute Module 5 Rev 1.0"])
def test_rpi_ws281x_is_refused_on_a_pi5_before_anything_is_done(tmp_path: Path, model: str) -> None:
    env, log = stubbed_path(tmp_path)
    done = subprocess.run(["bash", str(INSTALL), "--dry-run", "--with-rpi-ws281x"], capture_output=True, text=True,
                          env={**env, **model_file(tmp_path, model)}, cwd=tmp_path, timeout=60)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"--with-rpi-ws281x is not for this board ({model})" in done.stderr
    assert "kernel's LED driver" in done.stderr
    assert "apt-get" not in done.stdout and not log.exists()


def test_rpi_ws281x_is_kept_on_a_pi4_and_a_pi5_installs_without_it(tmp_path: Path) -> None:
    env, _ = stubbed_path(tmp_path)
    pi4 = subprocess.run(["bash", str(INSTALL), "--dry-run", "--with-rpi-ws281x"], capture_output=True, text=True,
                         env={**env, **model_file(tmp_path, "Raspberry Pi 4 Model B Rev 1.5")}, cwd=tmp_path, timeout=120)
    assert pi4.returncode == 0 and "rsync gcc python3-dev" in pi4.stdout, pi4.stdout + pi4.stderr
    pi5 = subprocess.run(["bash", str(INSTALL), "--dry-run"], capture_output=True, text=True,
                         env={**env, **model_file(tmp_path, "Raspberry Pi 5 Model B Rev 1.0")}, cwd=tmp_path, timeout=120)
    assert pi5.returncode == 0 and "gcc" not in pi5.stdout, pi5.stdout + pi5.stderr
