"""Browser tests: a real companion process on a free port with its own state
folder, and Debian's Chromium driven by Playwright (sync API).

Set COMPANION_CHROMIUM to use another Chromium binary. The tests are skipped
(with the reason shown) when no Chromium is found; Playwright's own browser
downloads are never used.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from ui_helpers import Server

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
TABLET = {"width": 1280, "height": 800}  # a 10" tablet, landscape
START_TIMEOUT_S = 30


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def companion(running: Server, args: list[str], on_line: Callable[[str], None] = lambda line: None,
              env: dict[str, str] | None = None) -> Iterator[None]:
    """``python -m companion.server`` on ``running``'s port and state folder with ``args``,
    ready (READY printed and /api/health answering) for the ``with`` block, then stopped.
    Its output is kept in ``running.output`` (read all along, so the pipe never fills)."""
    port = int(running.url.rstrip("/").rsplit(":", 1)[1])
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.server", *args, "--host", "127.0.0.1", "--port", str(port),
         "--state-dir", str(running.state_dir)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, **(env or {})})
    running.process = process
    ready = threading.Event()

    def drain() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            running.output.append(line.rstrip())
            on_line(line)
            if line.strip() == "READY":
                ready.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        _wait_until_answering(running, ready)
        yield
    finally:
        _stop(process)
        reader.join(timeout=5)
        if process.stdout is not None:
            process.stdout.close()


def _wait_until_answering(running: Server, ready: threading.Event) -> None:
    if not ready.wait(START_TIMEOUT_S):
        raise RuntimeError("the companion did not print READY:\n" + "\n".join(running.output))
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:  # READY comes just before the socket is bound
        try:
            if running.get_json("/api/health").get("ok"):
                return
        except (urllib.error.URLError, ConnectionError, OSError):
            if time.monotonic() > deadline or running.process.poll() is not None:
                raise RuntimeError("the companion does not answer:\n" + "\n".join(running.output)) from None
            time.sleep(0.05)


def _stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(f"http://127.0.0.1:{_free_port()}/", tmp_path_factory.mktemp("companion-state"), None)
    with companion(running, []):
        yield running


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set COMPANION_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    try:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()
    finally:
        playwright.stop()


@pytest.fixture
def new_tablet(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """Open a tablet (its own browser context, like a separate device). Any
    uncaught script error on a page fails the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_tablet(viewport: dict[str, int] | None = None, **options: Any) -> Any:
        context = browser.new_context(viewport=viewport or TABLET, has_touch=True, **options)
        context.set_default_timeout(30_000)  # generous: a busy 2-core CI machine runs the service and Chromium together
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield open_tablet
    for context in contexts:
        context.close()
    assert not errors, f"script errors on the page: {errors}"


@pytest.fixture
def tablet(new_tablet: Callable[..., Any]) -> Any:
    """One tablet page (uncaught script errors fail the test)."""
    return new_tablet()


@pytest.fixture
def own_service(tmp_path: Path) -> Iterator[Any]:
    """A companion of its own (its own state folder, on a free port), for tests whose
    saved data must not reach other tests: the service tests' ``Service``."""
    sys.path.insert(0, str(ROOT / "tests"))
    from service_process import Service

    running = Service(tmp_path / "state").start()
    try:
        yield running
    finally:
        running.stop()


STRICT_CONFIG = """\
[pairing]
trust_loopback = false
[discovery]
enabled = false
[buttons]
pair_pin = 13
"""
#: Its PAIR button on gpiozero's mock pins (no Pi needed): the box offers "Ask the box" as a wired one would.
STRICT_ENV = {"GPIOZERO_PIN_FACTORY": "mock"}
FIRST_CODE = re.compile(r"Pairing code for the first tablet: (\d+)")


@dataclass
class StrictServer(Server):
    first_code: str = ""  # the code the service prints for the first tablet (nobody paired yet)


@pytest.fixture
def strict_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StrictServer]:
    """A companion that trusts nobody, not even a browser on the box itself: a
    tablet must pair before it may change a game. Its own state folder, so
    nobody is paired at the start; ``server.first_code`` is the pairing code it
    prints for the first tablet."""
    state_dir = tmp_path_factory.mktemp("companion-strict-state")
    config = state_dir.parent / f"{state_dir.name}.toml"
    config.write_text(STRICT_CONFIG)
    running = StrictServer(f"http://127.0.0.1:{_free_port()}/", state_dir, None)

    def remember_code(line: str) -> None:
        found = FIRST_CODE.search(line)
        if found:
            running.first_code = found.group(1)

    with companion(running, ["--config", str(config)], remember_code, env=STRICT_ENV):
        yield running
