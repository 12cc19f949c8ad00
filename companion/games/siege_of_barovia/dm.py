"""The Dungeon Master's turn, after each hero turn: move one zombie, one ghoul
or Count Strahd one square (or none), then one action - Attack, Summon
Monster or Destroy Site - or none.

The same rules serve both ways of playing the DM: a person sends a whole turn
from their own phone (``parse_turn``: checked before anything happens), the
box's policy picks one of ``turns`` (policy.py). ``carry_out`` then plays it:
the figure moves, the d6 is asked for, hits land, the slain rise, houses fall.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Callable, Final

from companion.engine.effects import EffectSink
from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.prompts import Option, Prompt, faces

from .hero import GameEnded
from .state import DM_SEAT, GHOUL, MOVER, STRAHD, STRAHD_HP, ZOMBIE, DmDid, Figure, SiegeState
from .words import said, the, the_place, where

#: The d6 face an enemy needs to hit a hero (1 damage).
DM_HITS_ON: Final[dict[str, int]] = {ZOMBIE: 6, GHOUL: 5, STRAHD: 4}
ATTACK, SUMMON, DESTROY = "attack", "summon", "destroy"


@dataclass(frozen=True)
class DmMove:
    figure: str
    to: str


@dataclass(frozen=True)
class DmAct:
    kind: str  # attack, summon, destroy
    by: str | None = None
    target: str | None = None  # the hero attacked


@dataclass(frozen=True)
class DmTurn:
    move: DmMove | None = None
    act: DmAct | None = None

    def to_plain(self) -> dict[str, object]:
        plain: dict[str, object] = {"action": "dm"}
        if self.move:
            plain["move"] = {"figure": self.move.figure, "to": self.move.to}
        if self.act:
            plain["act"] = {k: v for k, v in (("kind", self.act.kind), ("by", self.act.by),
                                               ("target", self.act.target)) if v is not None}
        return plain


# -- what the DM may do -------------------------------------------------------------------------------

def moves(state: SiegeState) -> list[DmMove]:
    """Every creature on the board, one square on (barricades stop all but Strahd, by the reading)."""
    board = state.board()
    return [DmMove(f.id, to) for f in state.enemies() for to in board.steps(f.square or "", MOVER[f.kind])]


def acts(state: SiegeState, move: DmMove | None) -> list[DmAct]:
    """The actions open after ``move``: attacks by a creature sharing a hero's square, Destroy Site by one
    on a standing safe house, Summon always (the acting creature by the ``dm_actor`` reading)."""
    return [DmAct(SUMMON)] + [a for c in _actors(state, move) for a in creature_acts(state, c, _square_after(c, move))]


def creature_acts(state: SiegeState, creature: Figure, square: str) -> list[DmAct]:
    """What one creature could do from ``square``: attack each hero there, destroy a standing house there."""
    found = [DmAct(ATTACK, creature.id, h.id) for h in state.at(square, "hero", "militia")]
    place = state.map.place_at(square)
    if place and place.id in state.standing():
        found.append(DmAct(DESTROY, creature.id))
    return found


def turns(state: SiegeState) -> list[DmTurn]:
    """Every whole turn the DM may take (no move and no action included). The acts of the creatures
    that do not move are worked out once: a village full of zombies stays quick."""
    standing = {c.id: creature_acts(state, c, c.square or "") for c in state.enemies()}
    still = [a for found in standing.values() for a in found]
    idle = state.readings["dm_pass"] == "may-pass"
    every = [DmTurn(None, None)] * idle + [DmTurn(None, a) for a in [DmAct(SUMMON), *still]]
    only_moved = state.readings["dm_actor"] == "moved"
    for move in moves(state):
        moved = creature_acts(state, state.figures[move.figure], move.to)
        others = [] if only_moved else [a for a in still if a.by != move.figure]
        every += [DmTurn(move, None)] * idle + [DmTurn(move, a) for a in [DmAct(SUMMON), *others, *moved]]
    return every


def _actors(state: SiegeState, move: DmMove | None) -> list[Figure]:
    if move is not None and state.readings["dm_actor"] == "moved":
        return [state.figures[move.figure]]
    return state.enemies()


def _square_after(creature: Figure, move: DmMove | None) -> str:
    return move.to if move is not None and move.figure == creature.id else creature.square or ""


# -- a person's turn, checked --------------------------------------------------------------------------

def parse_turn(state: SiegeState, answer: Mapping[str, object]) -> DmTurn:
    """The DM's answer ``{"action": "dm", "move": {"figure", "to"}, "act": {"kind", "by", "target"}}``
    (both parts optional), refused whole if the rules do not allow it."""
    if answer.get("action") != "dm":
        raise IllegalInput(f"the Dungeon Master's turn is {{'action': 'dm', 'move': ..., 'act': ...}}, "
                           f"not {answer.get('action')!r}")
    move = _parse_move(state, answer.get("move"))
    act = _parse_act(state, move, answer.get("act"))
    return DmTurn(move, act)


def _parse_move(state: SiegeState, value: object) -> DmMove | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise IllegalInput("the DM's move is {'figure': ..., 'to': square}")
    figure = state.figures.get(str(value.get("figure")))
    if figure is None or not figure.enemy or not figure.on_board:
        raise IllegalInput(f"the DM moves a zombie, a ghoul or Count Strahd on the board, not {value.get('figure')!r}")
    move = DmMove(figure.id, str(value.get("to")))
    if move not in moves(state):
        barred = move.to in state.map.grid.steps(figure.square or "")
        raise IllegalInput(f"{figure.name} cannot move to {said(state, value.get('to'))}: "
                           + ("a barricade stands in the way" if barred else "one square up, down, left or right"))
    return move


def _parse_act(state: SiegeState, move: DmMove | None, value: object) -> DmAct | None:
    if value is None and state.readings["dm_pass"] == "must-act":
        raise IllegalInput("the DM must take an action: attack, summon or destroy (reading: the DM always acts)")
    if value is None:
        return None
    if not isinstance(value, Mapping) or value.get("kind") not in (ATTACK, SUMMON, DESTROY):
        raise IllegalInput("the DM's action is {'kind': 'attack' | 'summon' | 'destroy', 'by': ..., 'target': ...}")
    kind = str(value["kind"])
    act = DmAct(kind, None if kind == SUMMON else _text(value.get("by")),
                _text(value.get("target")) if kind == ATTACK else None)
    if act not in acts(state, move):
        raise IllegalInput(_why_not(state, move, act))
    return act


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _why_not(state: SiegeState, move: DmMove | None, act: DmAct) -> str:
    creature = state.figures.get(act.by or "")
    if creature is None or not creature.enemy or not creature.on_board:
        return f"{act.by!r} is no creature on the board"
    if creature not in _actors(state, move):
        return f"only the creature moved may act this turn (reading: the moved creature acts), not {creature.name}"
    if act.kind == ATTACK:
        return f"{creature.name} can attack only a hero in its own square, not {act.target!r}"
    return f"{creature.name} is not on a safe house still standing"


# -- carrying it out ------------------------------------------------------------------------------------

Arrival = Callable[[SiegeState], Flow[str]]


def carry_out(state: SiegeState, turn: DmTurn, did: DmDid, sink: EffectSink, arrive: Arrival) -> Flow[None]:
    """Play a checked turn; ``arrive`` asks (or decides) the edge square where Strahd lands on a 6."""
    state.last_dm = did
    if turn.move:
        _move(state, turn.move, did, sink)
    if turn.act is None:
        sink.emit("dm-passes", "The Dungeon Master takes no action.")
        return
    did.act, did.actor = turn.act.kind, turn.act.by
    if turn.act.kind == ATTACK:
        yield from _attack(state, turn.act, did, sink)
    elif turn.act.kind == DESTROY:
        _destroy(state, turn.act, did, sink)
    else:
        yield from _summon(state, sink, arrive)


def _move(state: SiegeState, move: DmMove, did: DmDid, sink: EffectSink) -> None:
    figure = state.figures[move.figure]
    start, figure.square = figure.square or "", move.to
    did.figure, did.path = figure.id, (start, move.to)
    sink.emit("dm-move", f"Move {the(figure)} from {where(state, start or None)} to {where(state, move.to)}.",
              figure=figure.id, kind=figure.kind,
              path=[start, move.to], why=did.why)


def _attack(state: SiegeState, act: DmAct, did: DmDid, sink: EffectSink) -> Flow[None]:
    creature, hero = state.figures[act.by or ""], state.figures[act.target or ""]
    needs = DM_HITS_ON[creature.kind]
    did.target = hero.id
    sink.emit("dm-attack", f"{creature.name} attacks {hero.name}.", figure=creature.id, kind=creature.kind,
              target=hero.id, square=hero.square)
    words = "on a 6" if needs == 6 else f"on {', '.join(str(n) for n in range(needs, 6))} or 6"
    rolled = yield Prompt("roll", "dm-attack", f"Roll a d6 for {the(creature)}'s attack on {hero.name} "
                          f"(it hits {words}).", DM_SEAT, die="d6", count=1,
                          context={"figure": creature.id, "target": hero.id, "needs": needs})
    value = int(str(faces(rolled)[0]))
    sink.emit("die", f"The d6 shows {value}.", die="d6", value=value)
    if value < needs:
        sink.emit("dm-miss", f"{creature.name} misses {hero.name}.", figure=creature.id, target=hero.id)
        return
    _wound(state, hero, sink)


def _wound(state: SiegeState, hero: Figure, sink: EffectSink) -> None:
    hero.hp -= 1
    if hero.hp > 0:
        sink.emit("hero-hurt", f"{hero.name} loses a hit point: {hero.hp} left.", figure=hero.id, hp=hero.hp,
                  square=hero.square)
        return
    square, hero.square = hero.square or "", None
    owner = next((p for p in state.players if p.figure == hero.id), None)
    if owner is not None:
        owner.figure = None
    zombie = _new(state, ZOMBIE, square)
    sink.emit("hero-slain", f"{hero.name} is slain and rises as {zombie.name}: put a zombie in their place.",
              figure=hero.id, zombie=zombie.id, square=square)


def _new(state: SiegeState, kind: str, square: str) -> Figure:
    figure_id = state.next_id(kind)
    figure = Figure(figure_id, kind, f"{kind.capitalize()} {state.counts[kind]}", square)
    state.figures[figure_id] = figure
    return figure


def _destroy(state: SiegeState, act: DmAct, did: DmDid, sink: EffectSink) -> None:
    creature = state.figures[act.by or ""]
    place = state.map.place_at(creature.square or "")
    assert place is not None
    state.destroyed.append(place.id)
    did.target = place.id
    lost = {"tavern": "no hero may rest", "mercantile": "no hero may upgrade weapons",
            "estate": "Ireena cannot be recruited and no hero recruits there"}[place.id]
    sink.emit("site-destroyed", f"{creature.name} destroys {the_place(state, place.id)}: from now on {lost}.",
              place=place.id, square=place.square, figure=creature.id)
    if not state.standing():
        state.outcome = "lost: the Dungeon Master destroyed every safe house"
        sink.emit("game-lost", "Every safe house is destroyed: the Dungeon Master wins.", outcome=state.outcome)
        raise GameEnded()


# -- summoning ------------------------------------------------------------------------------------------

def summon_result(roll: int) -> str:
    """The summon table: 1-2 nothing, 3-4 a zombie, 5 a ghoul, 6 Count Strahd (if he is not on the board)."""
    return "nothing" if roll <= 2 else ZOMBIE if roll <= 4 else GHOUL if roll == 5 else STRAHD


def ghoul_square(state: SiegeState) -> str:
    """The graveyard (as in setup), or E11 as the table prints it: by the ``ghoul_summon`` reading."""
    place = "graveyard" if state.readings["ghoul_summon"] == "graveyard" else "estate"
    return state.map.square_of(place)


def _summon(state: SiegeState, sink: EffectSink, arrive: Arrival) -> Flow[None]:
    rolled = yield Prompt("roll", "summon", "Roll a d6 to summon: 1-2 nothing, 3-4 a zombie at the church, "
                          "5 a ghoul, 6 Count Strahd at the board's edge (if he is not on it).", DM_SEAT,
                          die="d6", count=1)
    value = int(str(faces(rolled)[0]))
    sink.emit("die", f"The d6 shows {value}.", die="d6", value=value)
    result = summon_result(value)
    if result in (ZOMBIE, GHOUL):
        square = state.map.square_of("church") if result == ZOMBIE else ghoul_square(state)
        figure = _new(state, result, square)
        sink.emit("summoned", f"A new {result} rises: put {figure.name} on {where(state, square)}.",
                  figure=figure.id, kind=result, square=square)
    elif result == STRAHD and not state.strahd.on_board:
        square = yield from arrive(state)
        state.strahd.square, state.strahd.hp = square, STRAHD_HP
        sink.emit("strahd-arrives", f"Count Strahd arrives: put him on {where(state, square)}, with all "
                                    f"{STRAHD_HP} hit points.", figure=STRAHD, square=square)
    else:
        why = "Count Strahd is already on the board" if result == STRAHD else "the roll brings nobody"
        sink.emit("summon-nothing", f"Nothing happens: {why}.")


def edge_prompt(state: SiegeState) -> Prompt:
    """The DM's choice of the edge square where Strahd lands (for the DM's eyes until made)."""
    options = tuple(Option(square, where(state, square)) for square in state.map.edge)
    return Prompt("choice", "strahd-arrives", "Count Strahd arrives: on which edge square?", DM_SEAT, options,
                  audience=(DM_SEAT,))


__all__ = ["ATTACK", "DESTROY", "DM_HITS_ON", "DmAct", "DmMove", "DmTurn", "SUMMON", "acts", "carry_out",
           "edge_prompt", "ghoul_square", "moves", "parse_turn", "summon_result", "turns"]
