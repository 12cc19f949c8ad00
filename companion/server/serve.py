"""Start the service: print where to point the tablets, then serve until stopped."""

from __future__ import annotations

import argparse
import socket
from pathlib import Path

from .app import create_app, default_state_dir, services_of


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion serve", description="Run the table service.")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--state-dir", type=Path, default=default_state_dir(), help="where games are kept")
    args = parser.parse_args(argv)
    app = create_app({"STATE_DIR": args.state_dir})
    port = args.port or _free_port()
    for url in urls(args.host, port):
        print(f"Open {url} on a tablet", flush=True)
    print(f"Games are kept in {args.state_dir}", flush=True)
    print("READY", flush=True)
    services_of(app).socketio.run(app, host=args.host, port=port, debug=False, use_reloader=False,
                                  log_output=False, allow_unsafe_werkzeug=True)
    return 0


def urls(host: str, port: int) -> list[str]:
    """The addresses a tablet can use: this machine's IP, always, besides its name."""
    if host not in ("0.0.0.0", "::"):
        return [f"http://{host}:{port}/"]
    found = [f"http://127.0.0.1:{port}/"]
    address = _lan_address()
    if address:
        found.insert(0, f"http://{address}:{port}/")
    return found


def _lan_address() -> str | None:
    """This machine's own IPv4 address on the local network, from its host name."""
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    addresses = [str(info[4][0]) for info in found if not str(info[4][0]).startswith("127.")]
    return addresses[0] if addresses else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
