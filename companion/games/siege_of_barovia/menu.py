"""The concrete answers open now, each with a label: the hero turn's big
buttons, the DM's whole turns (for the DM's phone), and the menus the
simulator and the terminal number. Every entry is an answer the rules accept
(tests/test_siege_rules.py plays each one)."""

from __future__ import annotations

from typing import Final

from companion.engine.prompts import confirmation

from . import dm, hero
from .mapdata import line_of
from .state import HERO, LOCAL_HEROES, MOST_PLAYERS, MOVER, Figure, SiegeState
from .words import SIDE_WORDS, the, the_place, where

Entry = dict[str, object]
ARROWS: Final = {"N": "↑", "E": "→", "S": "↓", "W": "←"}


def hero_menu(state: SiegeState) -> list[Entry]:
    figure = state.figure_of(state.player)
    if figure is None or figure.square is None:
        return _militia_entries(state) + [{"action": "end", "label": "Pass"}]
    found = _move_entries(state, figure) + (_action_entries(state, figure) if not state.acted else [])
    return found + [{"action": "end", "label": "End the turn", **_end_confirm(state, figure)}]


def _end_confirm(state: SiegeState, figure: Figure) -> Entry:
    """Ending the turn with the move or the action not taken gives it up: the tablet asks first."""
    left = [what for what, done in (("move", state.moved), ("action", state.acted)) if not done]
    if not left:
        return {}
    return {"confirm": confirmation("End the turn?", f"{figure.name} has not taken {' or '.join(f'a {w}' for w in left)} "
                                    "this turn; it is lost if the turn ends now.", "End the turn", "Keep playing")}


def _militia_entries(state: SiegeState) -> list[Entry]:
    if state.acted:
        return []
    return [{"action": "recruit-militia", "at": place, "label": f"Raise a militia at {the_place(state, place)}"
             + (" (destroyed)" if place in state.destroyed else "")}
            for place in hero.militia_places(state)]


def _sides(state: SiegeState, figure: Figure) -> dict[str, str]:
    """Side (N, E, S, W) -> the square beyond it, for the hero's square's lines."""
    lines = state.map.grid.lines(figure.square or "")
    return {direction.name: there for direction, there in lines.items()}


def _steps(state: SiegeState, figure: Figure) -> list[tuple[str, str]]:
    open_to = set(state.board().steps(figure.square or "", MOVER[figure.kind]))
    return [(side, there) for side, there in _sides(state, figure).items() if there in open_to]


def _move_entries(state: SiegeState, figure: Figure) -> list[Entry]:
    if not hero.may_move(state):
        return []
    return [{"action": "move", "to": there, "label": f"Move {ARROWS[side]} to {where(state, there)}"}
            for side, there in _steps(state, figure)]


def _action_entries(state: SiegeState, figure: Figure) -> list[Entry]:
    return (_hustles(state, figure) + _attacks(state, figure) + _fortify_entries(state, figure)
            + _place_entries(state, figure) + _recruit_entries(state, figure) + _plague_entries(state, figure))


def _hustles(state: SiegeState, figure: Figure) -> list[Entry]:
    return [{"action": "hustle", "to": there, "label": f"Hustle {ARROWS[side]} to {where(state, there)}"}
            for side, there in _steps(state, figure)]


def _attacks(state: SiegeState, figure: Figure) -> list[Entry]:
    targets = state.at(figure.square or "", "zombie", "ghoul", "strahd")
    return [{"action": "attack", "target": t.id,
             "label": f"Attack {the(t)} (hits on {hero.attack_needs(state, figure, t)}+)"} for t in targets]


def _fortify_entries(state: SiegeState, figure: Figure) -> list[Entry]:
    square = figure.square or ""
    found: list[Entry] = []
    free = []
    for side, there in _sides(state, figure).items():
        if line_of(square, there) in state.barricades:
            found.append({"action": "fortify", "destroy": side,
                          "label": f"Tear down the barricade on the {SIDE_WORDS[side]} side"})
        else:
            free.append(side)
            found.append({"action": "fortify", "build": side,
                          "label": f"Build a barricade on the {SIDE_WORDS[side]} side"})
    for line in state.barricades:  # any barricade, one of this square's own included, to a free side
        found += [{"action": "fortify", "move": [{"from": list(line), "to": side}],
                   "label": f"Move the barricade between {where(state, line[0])} and {where(state, line[1])} "
                            f"to the {SIDE_WORDS[side]} side"} for side in free]
    return found


def _place_entries(state: SiegeState, figure: Figure) -> list[Entry]:
    found: list[Entry] = []
    here = figure.square
    clear = not state.at(here or "", "zombie", "ghoul", "strahd")
    if (figure.kind == HERO and not figure.upgraded and clear and "mercantile" not in state.destroyed
            and here == state.map.square_of("mercantile")):
        found.append({"action": "upgrade", "label": "Upgrade weapons (+1 to attacks)"})
    if here == state.map.square_of("tavern") and "tavern" not in state.destroyed \
            and figure.hp < hero.rest_to(state, figure):
        found.append({"action": "rest", "label": f"Rest (back to {hero.rest_to(state, figure)} hit points)"})
    return found


def _recruit_entries(state: SiegeState, figure: Figure) -> list[Entry]:
    found: list[Entry] = []
    for local, name in LOCAL_HEROES.items():
        if local in state.recruited or (local == "ireena" and "estate" in state.destroyed):
            continue
        if figure.square not in hero.recruit_squares(state, local):
            continue
        free = hero.free_players(state)
        if free:
            found += [{"action": "recruit", "hero": local, "for": p.id, "label": f"Recruit {name} for {p.name}"}
                      for p in free]
        elif state.readings["recruit_for"] == "new-player" and len(state.players) < MOST_PLAYERS:
            found.append({"action": "recruit", "hero": local, "label": f"Recruit {name} for a new player"})
    return found


def _plague_entries(state: SiegeState, figure: Figure) -> list[Entry]:
    church = state.map.square_of("church")
    if figure.square == church and not state.at(church, "zombie", "ghoul", "strahd"):
        return [{"action": "stop-plague", "label": "Stop the Zombie Plague!"}]
    return []


# -- the Dungeon Master -----------------------------------------------------------------------------------

def dm_menu(state: SiegeState) -> list[Entry]:
    """Every whole DM turn, labelled (the DM's phone groups them by the creature moved)."""
    return [{**turn.to_plain(), "label": dm_label(state, turn)} for turn in dm.turns(state)]


def dm_label(state: SiegeState, turn: dm.DmTurn) -> str:
    parts = []
    if turn.move:
        parts.append(f"{state.figures[turn.move.figure].name} to {where(state, turn.move.to)}")
    act = turn.act
    if act is None:
        parts.append("no action")
    elif act.kind == dm.ATTACK:
        parts.append(f"{state.figures[act.by or ''].name} attacks {state.figures[act.target or ''].name}")
    elif act.kind == dm.DESTROY:
        creature = state.figures[act.by or ""]
        square = turn.move.to if turn.move and turn.move.figure == creature.id else creature.square or ""
        parts.append(f"{creature.name} destroys {where(state, square)}")
    else:
        parts.append("summon")
    return ", then ".join(parts) if turn.move else parts[0][:1].upper() + parts[0][1:]


__all__ = ["dm_label", "dm_menu", "hero_menu"]
