"""A labelled menu of concrete actions for the current ``action`` prompt: what a tablet
shows as buttons (choices.py finds the actions; this names them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Mapping

from companion.engine.game import Game
from companion.engine.prompts import confirmation

from .choices import action_options
from .context import GameContext
from .simulate import context_for
from .state import GameState

if TYPE_CHECKING:
    from .rules import HorrifiedRules

Action = Mapping[str, object]


def action_menu(rules: HorrifiedRules, game: Game) -> list[dict[str, object]]:
    """The concrete actions for the current ``action`` prompt, each with a button label."""
    if game.prompt is None or game.prompt.kind != "action":
        return []
    state = game.state
    assert isinstance(state, GameState)
    ctx = context_for(rules, state)
    return [{**action, "label": label(ctx, action), **_confirm(ctx, action)} for action in action_options(ctx, game.prompt)]


def _confirm(ctx: GameContext, action: Action) -> dict[str, object]:
    """Ending the Hero Phase with actions left throws them away: the tablet asks first."""
    left = ctx.state.actions_left
    if action["action"] != "end" or left <= 0:
        return {}
    player = ctx.state.active_hero.player or "The player"
    return {"confirm": confirmation("End the Hero Phase?", f"{player} still has {left} action{'s' if left != 1 else ''} "
                                    "left; they are lost if the Hero Phase ends now.", "End the Hero Phase", "Keep playing")}


def label(ctx: GameContext, action: Action) -> str:
    name = str(action["action"])
    labeller = ctx.edition.labels.get(name) or _LABELS.get(name, _plain)
    return labeller(ctx, action)


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
    target = ctx.monster_rules[str(a["monster"])].advance_target(str(a.get("step")))
    return (f"Advance {ctx.monster(str(a['monster'])).name}: {a.get('step')}" + (f" with {items}" if items else "")
            + (f" (roll {target} or more)" if target is not None else ""))


def _defeat(ctx: GameContext, a: Action) -> str:
    target = ctx.monster_rules[str(a["monster"])].defeat_roll()
    return (f"Defeat {ctx.monster(str(a['monster'])).name} with {_names(ctx, a.get('items'))}"
            + (f" (roll {target} or more)" if target is not None else ""))


def _pick_up(ctx: GameContext, a: Action) -> str:
    relics = a.get("relics") or []
    return "Pick up " + ", ".join(filter(None, [_names(ctx, a.get("items")), *map(str, relics if isinstance(relics, list) else [])]))


_LABELS: dict[str, Callable[[GameContext, Action], str]] = {
    "move": _move,
    "guide": lambda ctx, a: f"Guide {ctx.pack.villager(str(a['villager'])).name} to {ctx.place_name(str(a['to']))}",
    "pick_up": _pick_up,
    "share": lambda ctx, a: "Share items",
    "advance": _advance,
    "defeat": _defeat,
    "perk": lambda ctx, a: f"Play {ctx.pack.perk(str(a['perk'])).name} ({ctx.state.heroes[str(a['hero'])].player})",
    "end": lambda ctx, a: "End the Hero Phase",
    "skip": lambda ctx, a: "Skip",
    "done": lambda ctx, a: "Done",
}
