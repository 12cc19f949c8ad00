"""What a tablet draws of a Horrified game beside the state: the pack's drawing data and
names (sent once), each monster's mat in words, and the figures and tokens its plug-in
puts on the board. Plain data, for the pack's views (docs/protocol.md)."""

from __future__ import annotations

from companion.engine.plain import to_plain

from .context import GameContext
from .monsters import MonsterRegistry, View
from .pack_types import Pack
from .state import GameState


def pack_view(pack: Pack, plugins: MonsterRegistry) -> View:
    """The board, the components by name, and what each monster's plug-in adds (its Relics)."""
    board = pack.board
    view: View = {
        "board": {"locations": [{"id": l.id, "name": l.name, "number": l.number, "x": l.x, "y": l.y, "area": l.area}
                                for l in board.locations],
                  "connections": [[c.a, c.b] for c in board.connections],
                  "guessed_roads": [[c.a, c.b] for c in board.connections if not c.verified],
                  "guessed_places": [l.id for l in board.locations if not l.verified],
                  "terror_max": board.terror_max},
        "monsters": [{"id": m.id, "name": m.name, "frenzy_order": m.frenzy_order, "symbols": list(m.symbols),
                      "start": m.start, "complexity": m.complexity, "power": m.power} for m in pack.monsters],
        "heroes": [{"id": h.id, "name": h.name, "actions": h.actions, "start": h.start} for h in pack.heroes],
        "villagers": [{"id": v.id, "name": v.name, "safe_location": v.safe_location} for v in pack.villagers],
        "items": [{"id": i.id, "name": i.name, "type": i.type, "strength": i.strength, "location": i.location}
                  for i in pack.items],
        "perks": [{"id": p.id, "name": p.name, "text": p.effect.text} for p in pack.perks],
        "cards": [{"id": c.id, "name": c.name, "items": c.items} for c in pack.cards],
    }
    for rules in plugins.rules_for(pack).values():
        for key, entries in rules.pack_view().items():
            view.setdefault(key, [])
            extended = view[key]
            assert isinstance(extended, list)
            extended.extend(entries)
    return view


def mat_views(ctx: GameContext) -> dict[str, View]:
    """Each monster's mat as its plug-in tells it (``lines`` for the tablet, and its fields)."""
    return {monster: ctx.monster_rules[monster].mat_view(ctx) for monster in ctx.state.mats}


def board_figures(ctx: GameContext) -> list[View]:
    """The monsters' minions and tokens on the board (minions, relics ...), from every plug-in in play."""
    return [figure for monster in ctx.state.monsters_in_play() for figure in ctx.monster_rules[monster.id].board_figures(ctx)]


def state_view(state: GameState) -> View:
    """What every edition's public view shows of the state: the turn, the figures, and which cards
    and tokens are left (no secret: each deck and the bag hold what is nowhere else)."""
    return {**_turn(state), **_figures(state), **_cards_and_items(state)}


def _turn(state: GameState) -> View:
    return {"phase": state.phase, "turn": state.turn, "seats": list(state.seats), "active": state.active,
            "actions_left": state.actions_left, "terror": state.terror, "frenzy": state.frenzy}


def _figures(state: GameState) -> View:
    return {"heroes": {h: to_plain(hero) for h, hero in state.heroes.items()},
            "monsters": {m: to_plain(monster) for m, monster in state.monsters.items()},
            "villagers": {v: to_plain(villager) for v, villager in state.villagers.items()}}


def _cards_and_items(state: GameState) -> View:
    return {"deck": list(state.deck), "played_cards": list(state.played_cards),
            "entered_cards": to_plain(state.entered_cards), "items_at": dict(state.items_at),
            "item_discard": list(state.item_discard), "removed_items": list(state.removed_items),
            "haversack": list(state.haversack), "perk_deck": list(state.perk_deck),
            "perk_discard": list(state.perk_discard)}
