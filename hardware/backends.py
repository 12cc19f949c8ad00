"""Opening a device by the backend its configuration names: shared by the LED
strip and the dice camera.

Why one place: both look the backend up in a table, and any ordinary failure of
the device library while it starts (a missing module, a busy or absent device)
must become the device's own error saying which backend failed and why, so the
caller can carry on without the device and tell the owner."""

from __future__ import annotations

from typing import Callable, Mapping, Protocol, TypeVar

T = TypeVar("T")
C = TypeVar("C", bound="Configured")


class Configured(Protocol):
    @property
    def backend(self) -> str: ...


def open_backend(config: C, table: Mapping[str, Callable[[C], T]], error: type[Exception], device: str) -> T:
    """``table[config.backend](config)``, or ``error`` naming the backend and why.
    ``device``: what it is in words ("camera", "LED")."""
    opener = table.get(config.backend)
    if opener is None:
        raise error(f"unknown {device} backend {config.backend!r} (known: {', '.join(table)})")
    try:
        return opener(config)
    except error:
        raise
    except (OSError, RuntimeError, ImportError) as problem:
        raise error(f"the {config.backend} {device} backend failed to start: {problem}") from problem
