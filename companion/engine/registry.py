"""Named rule functions that game data refers to by kind (card events, perks,
hero specials): data says ``"kind": "pull_adjacent"``, the registry finds the
function. Used instead of if-chains over names."""

from __future__ import annotations

from typing import Callable, Generic, Iterator, TypeVar

F = TypeVar("F", bound=Callable[..., object])


class Registry(Generic[F]):
    def __init__(self, what: str) -> None:
        self.what = what
        self._entries: dict[str, F] = {}

    def register(self, kind: str) -> Callable[[F], F]:
        """Decorator: file ``fn`` under ``kind``."""
        def add(fn: F) -> F:
            if kind in self._entries:
                raise ValueError(f"two {self.what}s are both called {kind!r}")
            self._entries[kind] = fn
            return fn
        return add

    def __getitem__(self, kind: str) -> F:
        try:
            return self._entries[kind]
        except KeyError:
            raise KeyError(f"no {self.what} called {kind!r}") from None

    def __contains__(self, kind: object) -> bool:
        return kind in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)
