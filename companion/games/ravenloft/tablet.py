"""What a tablet needs from Ravenloft beyond the state: the pack's drawing data and
names (sent once), a labelled menu of concrete actions, each monster's mat in words and
the minions and tokens on the board (horrified_core.views, .menu)."""

from __future__ import annotations

from companion.engine.game import Game
from companion.games.horrified_core import menu, views
from companion.games.horrified_core.context import GameContext
from companion.games.horrified_core.monsters import View

from .monsters import REGISTRY
from .pack_types import SYMBOL_COLOURS, Pack, board_of, tile
from .rules import RavenloftRules

#: Every colour symbol also has its own shape, so colour is never the only signal.
SYMBOL_SHAPES = {"chest": "square", "sword": "diamond", "wand": "star", "skull": "circle", "hat": "triangle",
                 "spellbook": "book", "potion": "drop", "shield": "shield"}


def pack_view(pack: Pack) -> View:
    view = views.pack_view(pack, REGISTRY)
    board = view["board"]
    assert isinstance(board, dict)
    board["gates"] = board_of(pack).gates
    heroes = view["heroes"]
    assert isinstance(heroes, list)
    for hero in heroes:
        hero["gift"] = tile(pack, str(hero["id"])).gift.name
    view["symbols"] = {s: {"colour": SYMBOL_COLOURS[s], "shape": SYMBOL_SHAPES[s]} for s in SYMBOL_COLOURS}
    view.setdefault("relics", [])
    return view


def action_menu(rules: RavenloftRules, game: Game) -> list[dict[str, object]]:
    """The concrete actions for the current ``action`` prompt, each with a button label."""
    return menu.action_menu(rules, game)


def mat_views(ctx: GameContext) -> dict[str, View]:
    return views.mat_views(ctx)


def board_figures(ctx: GameContext) -> list[View]:
    return views.board_figures(ctx)


label = menu.label
