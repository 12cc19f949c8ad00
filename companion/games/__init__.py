"""Game packs. Each game kind names its rules and what a tablet needs from it;
kinds are made on demand (nothing is wired at import)."""

from __future__ import annotations

from typing import Callable, Protocol

from companion.engine.game import Game, Rules


class GameKind(Protocol):
    @property
    def name(self) -> str:
        ...

    @property
    def rules(self) -> Rules:
        ...

    def pack_view(self) -> dict[str, object]:
        ...

    def action_menu(self, game: Game) -> list[dict[str, object]]:
        ...


class RavenloftKind:
    name = "ravenloft"

    def __init__(self) -> None:
        from .ravenloft.rules import RavenloftRules

        self.rules = RavenloftRules()

    def pack_view(self) -> dict[str, object]:
        from .ravenloft.tablet import pack_view

        return pack_view(self.rules.pack)

    def action_menu(self, game: Game) -> list[dict[str, object]]:
        from .ravenloft.tablet import action_menu

        return action_menu(self.rules, game)


KINDS: dict[str, Callable[[], GameKind]] = {"ravenloft": RavenloftKind}
