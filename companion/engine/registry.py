"""Named rule functions that game data refers to by kind (card events, perks,
hero specials): data says ``"kind": "pull_adjacent"``, the registry finds the
function (or the record that holds it). Used instead of if-chains over names.
A game that shares a library with another extends a copy of it."""

from __future__ import annotations

from typing import Callable, Generic, Iterator, TypeVar

F = TypeVar("F")


class Registry(Generic[F]):
    def __init__(self, what: str) -> None:
        self.what = what
        self._entries: dict[str, F] = {}

    def register(self, kind: str) -> Callable[[F], F]:
        """Decorator: file ``fn`` under ``kind``."""
        def add(fn: F) -> F:
            self.add(kind, fn)
            return fn
        return add

    def add(self, kind: str, entry: F) -> None:
        if kind in self._entries:
            raise ValueError(f"two {self.what}s are both called {kind!r}")
        self._entries[kind] = entry

    def extended(self, what: str | None = None) -> "Registry[F]":
        """A copy to add more kinds to, leaving this one as it is."""
        copy: Registry[F] = Registry(what or self.what)
        copy._entries.update(self._entries)
        return copy

    def __getitem__(self, kind: str) -> F:
        try:
            return self._entries[kind]
        except KeyError:
            raise KeyError(f"no {self.what} called {kind!r}") from None

    def __contains__(self, kind: object) -> bool:
        return kind in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)
