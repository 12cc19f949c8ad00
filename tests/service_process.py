"""Shared by the service tests: the table service as a real process, Socket.IO
clients for it, and a simple way to answer any prompt.

The service is started exactly as on the Pi (``python -m companion.server``),
on port 0 (the kernel picks a free one, so parallel runs never clash), and is
ready when it prints READY: it binds its socket before printing that.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any, Mapping, Sequence

import requests
import socketio

ROOT = Path(__file__).resolve().parents[1]
SETUP: dict[str, Any] = {"monsters": ["baba-lysaga"], "heroes": [{"hero": "sorcerer", "player": "Sam"}]}
TIMEOUT = 10.0  # seconds: generous bounds, never a sleep
#: A start imports Flask, Socket.IO and OpenCV: on a busy 2-core machine that alone can take seconds.
START_TIMEOUT = 30.0
#: A box that trusts no address (every device pairs, even from the box itself) and announces nothing.
STRICT = "[pairing]\ntrust_loopback = false\n[discovery]\nenabled = false\n"


class Service:
    """``python -m companion.server`` on a state dir; stderr goes to a log file
    (a full pipe would stall the server). ``args``: more options (``--leds pi5``);
    ``output`` keeps what it printed up to READY."""

    def __init__(self, state_dir: Path, log_path: Path | None = None, args: Sequence[str] = (),
                 env: Mapping[str, str] | None = None) -> None:
        self.state_dir = state_dir
        self.args = list(args)
        self.env = {**os.environ, **(env or {})}
        self.output: list[str] = []
        self.log_path = log_path or state_dir.parent / f"{state_dir.name}-server.log"
        self.process: subprocess.Popen[str] | None = None
        self.url = ""
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._log: IO[str] | None = None

    def start(self) -> "Service":
        self._log = open(self.log_path, "a")
        self._lines = queue.Queue()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.server", "--host", "127.0.0.1", "--port", "0",
             "--state-dir", str(self.state_dir), *self.args],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=self._log, text=True, env=self.env, start_new_session=True)
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()
        try:
            self.url = self._wait_ready()
        except AssertionError:
            self.stop()  # a service that never got ready is not left running behind the failed test
            raise
        return self

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def _wait_ready(self) -> str:
        deadline = time.monotonic() + START_TIMEOUT
        url = ""
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"the service did not print READY in {START_TIMEOUT} s; see {self.log_path}")
            if line is None:
                raise AssertionError(f"the service exited before READY; see {self.log_path}:\n{self.log()}")
            self.output.append(line)
            found = re.match(r"Open (http://\S+?)/? on (a tablet|this machine)", line)
            if found:
                url = found.group(1)
            if line == "READY":
                assert url, "READY came before the address"
                return url

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """``kill -9`` of the server's master and worker at once: no chance to close anything,
        like a pulled plug."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=TIMEOUT)
        self._close_log()

    def stop(self) -> None:
        """As systemd stops it: SIGTERM to the master, which stops its worker; whatever is
        left of the process group after that is killed."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=TIMEOUT)
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._close_log()

    def _close_log(self) -> None:
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()
        if self._log is not None:
            self._log.close()
            self._log = None

    def log(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""

    def health(self) -> dict[str, Any]:
        response = requests.get(f"{self.url}/api/health", timeout=TIMEOUT)
        response.raise_for_status()
        result: dict[str, Any] = response.json()
        return result

    def export(self, game_id: str) -> dict[str, Any]:
        response = requests.get(f"{self.url}/api/games/{game_id}/export", timeout=TIMEOUT)
        response.raise_for_status()
        result: dict[str, Any] = response.json()
        return result

    def entries(self, game_id: str) -> list[Any]:
        """The inputs of a game's journal, oldest first."""
        return [e["entry"] for e in self.export(game_id)["journal"]]


class TableClient(socketio.SimpleClient):
    """A test's Socket.IO client that always lets go of its socket when it disconnects.

    The WebSocket library skips closing its socket when the server's close frame arrived
    first (a race with our own close), and the socket then lingers until garbage collection,
    where it warns in whichever later test happens to be running.

    It never reconnects by itself: a client whose box was stopped would otherwise go on
    retrying in a background thread that draws from the global ``random`` for its delays,
    and property tests running later (Hypothesis) take that as their own data changing."""

    def __init__(self, **options: Any) -> None:
        options.setdefault("reconnection", False)
        super().__init__(**options)

    def disconnect(self) -> None:
        engine = self.client.eio if self.client is not None else None
        super().disconnect()
        if engine is not None and engine.ws is not None:
            engine.ws.shutdown()


def configured(folder: Path, name: str, config: str, env: Mapping[str, str] | None = None) -> Service:
    """A service started on the state dir ``folder/name`` with ``config`` as its config file
    (written beside it as ``name.toml``), as the owner's edited config starts the box."""
    path = folder / f"{name}.toml"
    path.write_text(config)
    return Service(folder / name, args=["--config", str(path)], env=env).start()


def console_code(service: "Service") -> str:
    """The pairing code the box printed in its own output for the first tablet (the owner's)."""
    for line in service.output:
        found = re.match(r"Pairing code for the first tablet: (\d+)", line)
        if found:
            return found.group(1)
    raise AssertionError(f"no pairing code printed: {service.output}")


def connect(url: str, transport: str = "websocket", auth: Mapping[str, Any] | None = None,
            headers: Mapping[str, str] | None = None, source: str | None = None) -> TableClient:
    """A Socket.IO client; ``source``: a loopback address of its own (127.0.0.3 ...), so the
    service sees another client address than 127.0.0.1 (WebSocket only)."""
    options: dict[str, Any] = {}
    if source is not None:
        port = int(url.rsplit(":", 1)[1].strip("/"))
        options["websocket_extra_options"] = {"socket": socket.create_connection(
            ("127.0.0.1", port), timeout=TIMEOUT, source_address=(source, 0))}
    client = TableClient(**options)
    client.connect(url, transports=[transport], wait_timeout=TIMEOUT, auth=dict(auth) if auth else None,
                   headers=dict(headers or {}))
    return client


def call(client: socketio.SimpleClient, event: str, data: Any = None) -> dict[str, Any]:
    reply: dict[str, Any] = client.call(event, data, timeout=TIMEOUT)
    return reply


def ok(client: socketio.SimpleClient, event: str, data: Any = None) -> dict[str, Any]:
    reply = call(client, event, data)
    assert reply.get("ok") is True, f"{event} {data!r} was refused: {reply}"
    return reply


def next_event(client: socketio.SimpleClient, name: str, timeout: float = TIMEOUT) -> Any:
    """The next ``name`` event, skipping others (e.g. ``games`` pushes)."""
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"no {name!r} event within {timeout} s")
        try:
            received = client.receive(timeout=remaining)
        except socketio.exceptions.TimeoutError:
            raise AssertionError(f"no {name!r} event within {timeout} s") from None
        if received[0] == name:
            return received[1] if len(received) > 1 else None


def drain(client: socketio.SimpleClient) -> list[list[Any]]:
    """Events already received; a short wait, since the push may still be on its way."""
    found = []
    while True:
        try:
            found.append(client.receive(timeout=0.2))
        except socketio.exceptions.TimeoutError:
            return found


def simple_answer(prompt: Mapping[str, Any]) -> Any:
    """A legal answer to any prompt: the first options, blank dice, end the Hero Phase."""
    kind = prompt["kind"]
    if kind in ("choice", "draw"):
        return prompt["options"][0]["id"]
    if kind == "pick":
        return [option["id"] for option in prompt["options"]][:prompt["min_picks"]]
    if kind == "roll":
        return ["blank" if prompt["die"] == "monster" else 10] * prompt["count"]
    return {"action": "end"}


def play_until(table: Any, key: str, limit: int = 100) -> None:
    """Answer a ``Table``'s prompts simply until it asks ``key``."""
    for _ in range(limit):
        view = table.view()
        if view["prompt"]["key"] == key:
            return
        table.act({"key": view["prompt"]["key"], "answer": simple_answer(view["prompt"])}, view["version"])
    raise AssertionError(f"no {key!r} prompt within {limit} inputs")


def play_socket_until(client: socketio.SimpleClient, view: dict[str, Any], key: str,
                      limit: int = 100) -> dict[str, Any]:
    """The same over Socket.IO; returns the view that asks ``key`` (from the pushes)."""
    for _ in range(limit):
        if view["prompt"]["key"] == key:
            return view
        prompt = view["prompt"]
        ok(client, "act", {"game_id": view["game_id"], "version": view["version"], "key": prompt["key"],
                           "answer": simple_answer(prompt)})
        view = next_event(client, "view")
    raise AssertionError(f"no {key!r} prompt within {limit} inputs")


def play_to_draw(url: str, setup: Mapping[str, Any] = SETUP, game: str | None = None,
                 game_id: str | None = None) -> dict[str, Any]:
    """A game (new, of ``game`` with ``setup``, or ``game_id``) played over Socket.IO up to its
    next Monster card draw: a draw asked now is played through to the next one."""
    client = connect(url)
    try:
        if game_id is None:
            start: dict[str, Any] = {"name": "Card check", "setup": dict(setup), **({"game": game} if game else {})}
            game_id = ok(client, "new_game", start)["game_id"]
        view = ok(client, "join", {"game_id": game_id})["view"]
        if view["prompt"]["key"] == "monster-card":
            view = play_socket_until(client, view, "hero-action")
        return play_socket_until(client, view, "monster-card")
    finally:
        client.disconnect()
