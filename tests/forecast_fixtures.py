"""The position the forecast's service and browser tests play: Ravenloft with two Monster cards
left (each forecast takes a few hundredths of a second), and the pack's own forecast of it,
worked out in the test, that what the service sends and the tablet shows must match."""

from __future__ import annotations

from typing import Any

from companion.engine.game import Game
from companion.games.gamepack import View
from companion.games.registry import pack_makers

PACK = pack_makers("")["ravenloft"]()
LEFT = ("ambush", "mists-roll-in")  # the deck: the forecast walks every way these two can go
POSITION: dict[str, Any] = {
    "phase": "hero", "monsters": {"carrionette": "vallaki", "baba-lysaga": "ruins-of-berez"},
    "heroes": [{"hero": "sorcerer", "player": "Sam", "at": "vallaki", "items": ["grimoire"]},
               {"hero": "druid", "player": "Beau", "at": "krezk"}],
    "villagers": {"bildrath": "svalich-woods"},
    "played_cards": [c["id"] for c in PACK.pack_view()["cards"] if c["id"] not in LEFT],  # type: ignore[union-attr, index]
}
AWAY = {"action": "move", "to": "lake-zarovich", "villagers": []}  # the Sorcerer leaves the Carrionette's place


def expected(action: dict[str, Any] | None = None) -> View:
    """The pack's forecast of the position (after ``action``), worked out here."""
    forecaster = PACK.forecaster()
    assert forecaster is not None
    game = Game(PACK.rules, {"position": POSITION})
    found = forecaster.forecast(game) if action is None else forecaster.what_if(game, action)
    assert found is not None
    return found
