"""What a tablet needs from Ravenloft beyond the state: the pack's drawing
data and names (sent once), and a labelled menu of concrete actions."""

from __future__ import annotations

from typing import Callable, Mapping

from companion.engine.game import Game

from .choices import action_options
from .context import GameContext
from .pack_types import SYMBOL_COLOURS, Pack, StrahdDetails
from .rules import RavenloftRules
from .simulate import context_for

#: Every colour symbol also has its own shape, so colour is never the only signal.
SYMBOL_SHAPES = {"chest": "square", "sword": "diamond", "wand": "star", "skull": "circle", "hat": "triangle",
                 "spellbook": "book", "potion": "drop", "shield": "shield"}

Action = Mapping[str, object]


def pack_view(pack: Pack) -> dict[str, object]:
    board = pack.board
    return {
        "board": {"locations": [{"id": l.id, "name": l.name, "number": l.number, "x": l.x, "y": l.y, "area": l.area}
                                for l in board.locations],
                  "connections": [[c.a, c.b] for c in board.connections],
                  "terror_max": board.terror_max, "gates": board.gates},
        "monsters": [{"id": m.id, "name": m.name, "frenzy_order": m.frenzy_order, "symbols": list(m.symbols),
                      "complexity": m.complexity, "power": m.power} for m in pack.monsters],
        "heroes": [{"id": h.id, "name": h.name, "actions": h.actions, "start": h.start, "gift": h.gift.name}
                   for h in pack.heroes],
        "villagers": [{"id": v.id, "name": v.name, "safe_location": v.safe_location} for v in pack.villagers],
        "items": [{"id": i.id, "name": i.name, "type": i.type, "strength": i.strength, "location": i.location}
                  for i in pack.items],
        "perks": [{"id": p.id, "name": p.name, "text": p.effect.text} for p in pack.perks],
        "cards": [{"id": c.id, "name": c.name, "items": c.items} for c in pack.cards],
        "symbols": {s: {"colour": SYMBOL_COLOURS[s], "shape": SYMBOL_SHAPES[s]} for s in SYMBOL_COLOURS},
        # Strahd's Relics by name: the state holds only their ids (heroes' hands, the mat).
        "relics": [{"id": r.id, "name": r.name, "return_to": r.return_to}
                   for m in pack.monsters if isinstance(m.details, StrahdDetails) for r in m.details.relics],
    }


def action_menu(rules: RavenloftRules, game: Game) -> list[dict[str, object]]:
    """The concrete actions for the current ``action`` prompt, each with a button label."""
    if game.prompt is None or game.prompt.kind != "action":
        return []
    ctx = context_for(rules, game.state)  # type: ignore[arg-type]
    return [{**action, "label": label(ctx, action)} for action in action_options(ctx, game.prompt)]


def label(ctx: GameContext, action: Action) -> str:
    return _LABELS.get(str(action["action"]), _plain)(ctx, action)


def _plain(ctx: GameContext, action: Action) -> str:
    return str(action["action"]).replace("_", " ").capitalize()


def _names(ctx: GameContext, ids: object) -> str:
    return ", ".join(ctx.pack.item(i).name for i in ids if isinstance(i, str)) if isinstance(ids, list) else ""


def _move(ctx: GameContext, a: Action) -> str:
    who = a.get("villagers") or []
    along = f" with {', '.join(ctx.pack.villager(str(v)).name for v in who)}" if isinstance(who, list) and who else ""
    return f"Move to {ctx.place_name(str(a['to']))}{along}"


def _advance(ctx: GameContext, a: Action) -> str:
    items = _names(ctx, a.get("items")) or (ctx.pack.item(str(a["item"])).name if isinstance(a.get("item"), str) else "")
    return f"Advance {ctx.monster(str(a['monster'])).name}: {a.get('step')}" + (f" with {items}" if items else "")


_LABELS: dict[str, Callable[[GameContext, Action], str]] = {
    "move": _move,
    "guide": lambda ctx, a: f"Guide {ctx.pack.villager(str(a['villager'])).name} to {ctx.place_name(str(a['to']))}",
    "pick_up": lambda ctx, a: "Pick up " + ", ".join(filter(None, [_names(ctx, a.get("items")), *map(str, a.get("relics") or [])])),  # type: ignore[call-overload]
    "share": lambda ctx, a: "Share items",
    "advance": _advance,
    "defeat": lambda ctx, a: f"Defeat {ctx.monster(str(a['monster'])).name} with {_names(ctx, a.get('items'))}",
    "special": lambda ctx, a: "Special action (roll the d20)",
    "perk": lambda ctx, a: f"Play {ctx.pack.perk(str(a['perk'])).name} ({ctx.state.heroes[str(a['hero'])].player})",
    "gift": lambda ctx, a: f"Accept the Dark Gift of {ctx.hero_name(str(a['hero']))}",
    "end": lambda ctx, a: "End the Hero Phase",
    "skip": lambda ctx, a: "Skip",
    "done": lambda ctx, a: "Done",
}
