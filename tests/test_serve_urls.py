"""The addresses the service prints for the tablets: always the machine's
network IP (some Android tablets cannot resolve .local), then loopback."""

from __future__ import annotations

import pytest

from companion.server import serve


def test_every_network_ipv4_address_comes_first_then_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "local_addresses", lambda: ["192.168.1.23", "2001:db8::23", "10.0.0.5"])
    assert serve.urls("0.0.0.0", 8000) == ["http://192.168.1.23:8000/", "http://10.0.0.5:8000/",
                                           "http://127.0.0.1:8000/"]


def test_a_chosen_host_is_the_only_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "local_addresses", lambda: ["192.168.1.23"])
    assert serve.urls("127.0.0.1", 8123) == ["http://127.0.0.1:8123/"]
