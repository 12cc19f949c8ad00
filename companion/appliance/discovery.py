"""Finding the box: an mDNS advert as ``<name>.local``, and the IP addresses to show.

Why both: a tablet should reach the box by a name that survives a new DHCP
lease (``table-companion.local``, as OctoPrint is ``octopi.local``), so the
service announces ``_http._tcp`` over mDNS with python-zeroconf, host name
``<name>.local``, whatever the Pi's own host name is. But Android tablets
still often fail to resolve ``.local`` names, so the addresses are always
listed too: printed at start, shown on the tablets' health view.

The addresses come from the network interfaces (ifaddr, which zeroconf
brings), leaving out loopback, link-local and container bridges. When they
change (a Wi-Fi reconnect, a new lease) the advert is updated by a small
thread with a stop event. zeroconf is imported only when the advert starts.
"""

from __future__ import annotations

import importlib
import importlib.util
import ipaddress
import logging
import socket
import threading
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from companion.config import DiscoverySettings

SERVICE_TYPE = "_http._tcp.local."
REFRESH_SECONDS = 30.0
#: Interfaces that never carry the table's network.
VIRTUAL_PREFIXES = ("lo", "docker", "veth", "br-", "virbr", "podman", "cni", "flannel", "tailscale", "zt")

log = logging.getLogger(__name__)
Addresses = Callable[[], list[str]]


# -- the addresses to show --------------------------------------------------------------------

def shown_addresses(found: Iterable[tuple[str, str]]) -> list[str]:
    """From (interface, address) pairs: the addresses a tablet can use, IPv4 first
    (what people type), then global IPv6; no loopback, link-local or virtual ones."""
    usable = {address for interface, address in found if _usable(interface, address)}
    return sorted(usable, key=lambda a: (ipaddress.ip_address(a).version, ipaddress.ip_address(a)))


def _usable(interface: str, address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified:
        return False
    return not interface.startswith(VIRTUAL_PREFIXES)


def interface_addresses() -> list[tuple[str, str]]:
    """Every (interface, address) of this machine; from the host name when ifaddr is missing."""
    try:
        ifaddr = importlib.import_module("ifaddr")
    except ImportError:
        return _from_host_name()
    return [(adapter.nice_name, _address_text(ip.ip)) for adapter in ifaddr.get_adapters() for ip in adapter.ips]


def _address_text(ip: object) -> str:
    """ifaddr gives IPv4 as text and IPv6 as (address, flowinfo, scope)."""
    return str(ip[0]) if isinstance(ip, tuple) else str(ip)


def _from_host_name() -> list[tuple[str, str]]:
    """Without ifaddr: the host name's addresses (often only 127.0.1.1 on a laptop), and the
    address this machine would use to reach the network (no packet is sent), so a tablet
    always gets a LAN address to open."""
    try:
        found = [("host", str(info[4][0])) for info in socket.getaddrinfo(socket.gethostname(), None)]
    except OSError:
        found = []
    return found + [("route", address) for address in _outgoing_addresses()]


#: Addresses that are never contacted: a UDP "connect" only picks the route and its source.
_PROBES = (("192.0.2.1", socket.AF_INET), ("2001:db8::1", socket.AF_INET6))


def _outgoing_addresses() -> list[str]:
    found = []
    for target, family in _PROBES:
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.connect((target, 9))
                found.append(str(probe.getsockname()[0]))
        except OSError:
            continue  # no route of that kind
    return found


def announcing_possible() -> bool:
    """Whether the .local name can be announced at all (zeroconf installed)."""
    return importlib.util.find_spec("zeroconf") is not None


def local_addresses() -> list[str]:
    return shown_addresses(interface_addresses())


def urls(name: str, addresses: Sequence[str], port: int) -> list[str]:
    """What to open on a tablet: the name first, then each address."""
    hosts = [f"{name}.local", *(f"[{a}]" if ":" in a else a for a in addresses)]
    return [f"http://{host}{'' if port == 80 else f':{port}'}/" for host in hosts]


# -- the advert -------------------------------------------------------------------------------

def service_fields(name: str, port: int, addresses: Sequence[str], version: str = "") -> dict[str, Any]:
    """The keyword arguments of zeroconf's ServiceInfo for the box's advert."""
    properties = {"path": "/", "app": "table-companion", **({"version": version} if version else {})}
    return {"type_": SERVICE_TYPE, "name": f"{name}.{SERVICE_TYPE}", "port": port, "properties": properties,
            "server": f"{name}.local.", "parsed_addresses": list(addresses)}


def service_info(name: str, port: int, addresses: Sequence[str], version: str = "") -> Any:
    zeroconf = importlib.import_module("zeroconf")
    return zeroconf.ServiceInfo(**service_fields(name, port, addresses, version))


class Advertiser:
    """The box's mDNS advert while the service runs. ``interfaces``: zeroconf's
    choice (default: every interface; the tests use ``["127.0.0.1"]``)."""

    def __init__(self, settings: DiscoverySettings, port: int, version: str = "",
                 interfaces: list[str] | None = None, addresses: Addresses = local_addresses,
                 refresh_seconds: float = REFRESH_SECONDS) -> None:
        self.settings, self.port, self.version = settings, port, version
        self.interfaces, self.addresses = interfaces, addresses
        self.refresh_seconds = refresh_seconds
        self.shown: list[str] = []
        self.reason = "" if settings.enabled else "discovery.enabled is false"
        self._zeroconf: Any = None
        self._info: Any = None
        self._stop = threading.Event()
        self._registered = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, wait: bool = False) -> "Advertiser":
        """Announce on a thread of its own: registering probes the network for a
        couple of seconds, which must not hold up the start (tablets can use the
        address at once). ``wait``: until it is announced (or failed). A failure
        (no zeroconf, no network) is reported, never raised."""
        if not self.settings.enabled:
            return self
        self._registered = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mdns", daemon=True)
        self._thread.start()
        if wait:
            self._registered.wait()
        return self

    def _announce(self) -> bool:
        try:
            self._register(self.addresses())
        except Exception as problem:  # the game goes on without the advert
            self.reason = f"mDNS advert failed: {problem}"
            log.warning("%s", self.reason)
            return False
        finally:
            self._registered.set()
        return True

    def _register(self, addresses: list[str]) -> None:
        """The advert is built before any socket is opened, and a failed
        registration closes its sockets again."""
        zeroconf = importlib.import_module("zeroconf")
        info = service_info(self.settings.name, self.port, addresses, self.version)
        choice = self.interfaces if self.interfaces is not None else zeroconf.InterfaceChoice.All
        running = zeroconf.Zeroconf(interfaces=choice)
        try:
            running.register_service(info, allow_name_change=True)
        except BaseException:
            running.close()
            raise
        self._zeroconf, self._info, self.shown = running, info, addresses

    def _run(self) -> None:
        if not self._announce():
            return
        while not self._stop.wait(self.refresh_seconds):
            self.refresh()

    def refresh(self) -> bool:
        """Re-announce if the addresses changed; True if they did."""
        addresses = self.addresses()
        if addresses == self.shown or self._zeroconf is None:
            return False
        try:
            self._info = service_info(self.settings.name, self.port, addresses, self.version)
            self._zeroconf.update_service(self._info)
            self.shown = addresses
        except Exception as problem:
            log.warning("could not update the mDNS advert: %s", problem)
            return False
        return True

    def health(self) -> dict[str, object]:
        """For the health view: the advert's state and what to open on a tablet."""
        running = self._zeroconf is not None
        starting = self._thread is not None and not self._registered.is_set()
        state = "ok" if running else "off" if not self.settings.enabled else "starting" if starting else "failed"
        addresses = list(self.shown or self.addresses())
        return {"state": state, "name": f"{self.settings.name}.local", "addresses": addresses,
                "urls": urls(self.settings.name, addresses, self.port), "reason": self.reason}

    def close(self) -> None:
        """Withdraw the advert and stop the thread; safe to call twice."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=5)
        running, self._zeroconf = self._zeroconf, None
        if running is not None:
            self._withdraw(running)

    def _withdraw(self, running: Any) -> None:
        try:
            running.unregister_service(self._info)
        finally:
            running.close()


def main(argv: list[str] | None = None) -> int:
    """Print where a tablet finds the box (install.sh ends with this)."""
    import argparse

    from companion.config import ConfigError, load

    parser = argparse.ArgumentParser(prog="python -m companion.appliance.discovery",
                                     description="Print the addresses to open on a tablet.")
    parser.add_argument("--config", type=Path, help="the configuration file (default: as the service finds it)")
    try:
        config = load(parser.parse_args(argv).config)
    except ConfigError as refused:
        print(refused.report())
        return 2
    name = config.discovery.name if config.discovery.enabled else socket.gethostname()
    print("Open one of these on a tablet (the name may not work on some Android tablets):")
    for url in urls(name, local_addresses(), config.server.port):
        print(f"  {url}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
