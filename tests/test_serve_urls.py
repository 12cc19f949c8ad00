"""The addresses the service prints for the tablets: always the machine's
network IP (some Android tablets cannot resolve .local), then loopback."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.server import box, serve
from companion.server.app import create_app, services_of


def test_every_network_ipv4_address_comes_first_then_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "local_addresses", lambda: ["192.168.1.23", "2001:db8::23", "10.0.0.5"])
    assert serve.urls("0.0.0.0", 8000) == ["http://192.168.1.23:8000/", "http://10.0.0.5:8000/",
                                           "http://127.0.0.1:8000/"]


def test_a_chosen_host_is_the_only_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "local_addresses", lambda: ["192.168.1.23"])
    assert serve.urls("127.0.0.1", 8123) == ["http://127.0.0.1:8123/"]


def test_without_ifaddr_the_address_the_machine_routes_from_is_still_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A laptop without zeroconf (and so without ifaddr) whose name resolves to 127.0.1.1 only
    still prints its LAN address: the source address of its route to the network."""
    import importlib
    import socket

    from companion.appliance import discovery

    real_import = importlib.import_module

    def no_ifaddr(name: str, *args: object) -> object:
        if name == "ifaddr":
            raise ImportError("no ifaddr here")
        return real_import(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(discovery.importlib, "import_module", no_ifaddr)
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [(socket.AF_INET, 0, 0, "", ("127.0.1.1", 0))])
    routed = discovery._outgoing_addresses()
    if not any(not a.startswith("127.") for a in routed):
        pytest.skip("this machine has no route to any network: there is no LAN address to show")
    shown = discovery.local_addresses()
    assert "127.0.1.1" not in shown
    assert [a for a in routed if not a.startswith(("127.", "::1"))][0] in shown


def test_the_start_says_whether_the_local_name_is_announced(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.config import defaults

    config = defaults({})
    monkeypatch.setattr(serve, "announcing_possible", lambda: False)
    line = serve.discovery_line(config, 8000)
    assert "not announced" in line and "zeroconf is not installed" in line and ".local:8000" in line
    monkeypatch.setattr(serve, "announcing_possible", lambda: True)
    assert "announced on the network" in serve.discovery_line(config, 8000)


def test_the_first_network_address_is_drawn_as_a_qr_code(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    serve.print_qr("http://192.168.1.23:8000/")
    out = capsys.readouterr().out
    assert "Scan to open http://192.168.1.23:8000/" in out
    rows = [row for row in out.splitlines()[1:] if row.strip()]
    assert len(rows) >= 10 and len({len(row) for row in rows}) == 1, "not a square block of the code"
    serve.print_qr(None)  # no network address: nothing to draw
    assert capsys.readouterr().out == ""


def _modules(svg: bytes) -> "np.ndarray":
    """The dark modules of the QR code's SVG path (each ``Mx,yH..V..H..z`` is one module), as a picture."""
    cells = [(int(x), int(y)) for x, y in re.findall(rb"M(\d+),(\d+)H", svg)]
    size = int(re.search(rb'viewBox="0 0 (\d+) ', svg).group(1))  # type: ignore[union-attr]
    picture = np.full((size, size), 255, np.uint8)
    for x, y in cells:
        picture[y, x] = 0
    return np.kron(picture, np.ones((8, 8), np.uint8))


def test_the_box_screen_shows_the_tablet_address_as_a_qr_code_a_camera_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(box, "local_addresses", lambda: ["127.0.0.1", "192.168.1.23", "fe80::1", "10.0.0.5"])
    assert box.tablet_urls(80) == ["http://192.168.1.23/", "http://10.0.0.5/"]
    app = create_app({"STATE_DIR": tmp_path / "state"})
    try:
        client = app.test_client()
        listed = client.get("/api/tablet-address", base_url="http://127.0.0.1:8123").get_json()
        assert listed["urls"] == ["http://192.168.1.23:8123/", "http://10.0.0.5:8123/"]
        drawn = client.get(listed["qr"], base_url="http://127.0.0.1:8123")
        assert drawn.mimetype == "image/svg+xml"
        text, _, _ = cv2.QRCodeDetector().detectAndDecode(_modules(drawn.data))
        assert text == "http://192.168.1.23:8123/"
        monkeypatch.setattr(box, "local_addresses", lambda: ["127.0.0.1"])
        assert client.get("/api/tablet-address").get_json()["urls"] == []
        assert client.get("/api/tablet-address.svg").status_code == 404
    finally:
        services_of(app).close()
