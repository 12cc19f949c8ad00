"""Browser tests: a real companion process on a free port with its own state
folder, and Debian's Chromium driven by Playwright (sync API).

Set COMPANION_CHROMIUM to use another Chromium binary. The tests are skipped
(with the reason shown) when no Chromium is found; Playwright's own browser
downloads are never used.
"""

from __future__ import annotations

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


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    state_dir = tmp_path_factory.mktemp("companion-state")
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.server", "--host", "127.0.0.1", "--port", str(port), "--state-dir", str(state_dir)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    running = Server(f"http://127.0.0.1:{port}/", state_dir, process)
    ready = threading.Event()

    def drain() -> None:  # keep reading so the pipe never fills; remember the lines for failures
        assert process.stdout is not None
        for line in process.stdout:
            running.output.append(line.rstrip())
            if line.strip() == "READY":
                ready.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        if not ready.wait(START_TIMEOUT_S):
            raise RuntimeError("the companion did not print READY:\n" + "\n".join(running.output))
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:  # READY comes just before the socket is bound
            try:
                if running.get_json("/api/health").get("ok"):
                    break
            except (urllib.error.URLError, ConnectionError, OSError):
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("the companion does not answer:\n" + "\n".join(running.output)) from None
                time.sleep(0.05)
        yield running
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        reader.join(timeout=5)
        if process.stdout is not None:
            process.stdout.close()


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


STRICT_CONFIG = """\
[pairing]
trust_loopback = false
[discovery]
enabled = false
"""
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
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.server", "--config", str(config), "--host", "127.0.0.1", "--port", str(port),
         "--state-dir", str(state_dir)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    running = StrictServer(f"http://127.0.0.1:{port}/", state_dir, process)
    ready = threading.Event()

    def drain() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            running.output.append(line.rstrip())
            found = FIRST_CODE.search(line)
            if found:
                running.first_code = found.group(1)
            if line.strip() == "READY":
                ready.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        if not ready.wait(START_TIMEOUT_S):
            raise RuntimeError("the strict companion did not print READY:\n" + "\n".join(running.output))
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                if running.get_json("/api/health").get("ok"):
                    break
            except (urllib.error.URLError, ConnectionError, OSError):
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("the strict companion does not answer:\n" + "\n".join(running.output)) from None
                time.sleep(0.05)
        yield running
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        reader.join(timeout=5)
        if process.stdout is not None:
            process.stdout.close()
