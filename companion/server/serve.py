"""Start the service: print where to point the tablets, then serve until stopped."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import signal
import socket
from pathlib import Path
from types import FrameType

from werkzeug.serving import WSGIRequestHandler, make_server

from hardware.leds.config import BACKEND_NAMES

from companion.appliance.discovery import local_addresses

from .app import create_app, default_state_dir, services_of
from .dice import camera_settings
from .dice import describe as describe_camera
from .leds import describe


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion serve", description="Run the table service.")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (0: any free port)")
    parser.add_argument("--state-dir", type=Path, default=default_state_dir(), help="where games are kept")
    parser.add_argument("--leds", choices=BACKEND_NAMES, default="simulated", metavar="BACKEND",
                        help=f"the LED strip: {', '.join(BACKEND_NAMES)} (default: simulated, shown on the tablets); "
                             "one that cannot start is reported and the game goes on without it")
    parser.add_argument("--camera", default="none", metavar="SOURCE",
                        help="the dice camera: none (default), picamera2, folder:PATH, video:PATH or "
                             "v4l2:/dev/v4l/by-id/...; it reads dice only once they are calibrated")
    args = parser.parse_args(argv)
    try:
        camera = camera_settings(args.camera)
    except ValueError as problem:
        parser.error(str(problem))
    app = create_app({"STATE_DIR": args.state_dir, "LEDS": {"backend": args.leds}, "CAMERA": camera})
    # Bound before READY is printed: whoever waits for READY (systemd, tests) can connect at once.
    server = make_server(args.host, args.port, app, threaded=True, request_handler=_Handler)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request on the Pi's journal
    for url in urls(args.host, server.port):
        print(f"Open {url} on a tablet", flush=True)
    print(f"Games are kept in {args.state_dir}", flush=True)
    print(describe(services_of(app).leds.health()), flush=True)
    print(describe_camera(services_of(app).dice.health()), flush=True)
    print("READY", flush=True)
    signal.signal(signal.SIGTERM, _stop)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        services_of(app).close()
    return 0


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
