"""Game packs. Each game kind names its rules and what a tablet needs from it;
kinds are made on demand (nothing is wired at import)."""

from __future__ import annotations

from typing import Any, Callable, Protocol

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

    def pack_view_for(self, game: Game) -> dict[str, object]:
        """The pack as this game plays it (the owner's data it started with or was given)."""
        ...

    def data_id(self, game: Game) -> str:
        """Names the data a game plays with ("" for the shipped pack)."""
        ...

    def owner_data(self) -> OwnerDataDesk | None:
        """The owner's data editor for this kind, or None if its data cannot be corrected."""
        ...

    def action_menu(self, game: Game) -> list[dict[str, object]]:
        ...


class OwnerDataDesk(Protocol):
    """What the service needs to let an owner correct a kind's data (docs/game-data.md)."""

    def parse(self, data: object) -> Any:
        """A checked document (ValueError with ``problems`` when its shape is wrong)."""
        ...

    def check(self, data: object) -> tuple[dict[str, object], dict[str, object]]:
        """The effective pack files and the data status (ValueError with ``problems``)."""
        ...

    def pack_view(self, data: object) -> dict[str, object]:
        ...

    def empty(self) -> dict[str, object]:
        ...


class RavenloftKind:
    name = "ravenloft"

    def __init__(self) -> None:
        from .ravenloft.rules import RavenloftRules

        self.rules = RavenloftRules()

    def pack_view(self) -> dict[str, object]:
        from .ravenloft.tablet import pack_view

        return pack_view(self.rules.pack)

    def pack_view_for(self, game: Game) -> dict[str, object]:
        from .ravenloft.tablet import pack_view

        return pack_view(self.rules.pack_for(game.state))  # type: ignore[arg-type]

    def data_id(self, game: Game) -> str:
        return str(getattr(game.state, "data_id", ""))

    def owner_data(self) -> OwnerDataDesk:
        from .ravenloft.datadesk import RavenloftDataDesk

        return RavenloftDataDesk(self.rules)

    def action_menu(self, game: Game) -> list[dict[str, object]]:
        from .ravenloft.tablet import action_menu

        return action_menu(self.rules, game)


KINDS: dict[str, Callable[[], GameKind]] = {"ravenloft": RavenloftKind}
