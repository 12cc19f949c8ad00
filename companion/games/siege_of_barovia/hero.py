"""A hero's turn: one move and one action (Hustle, Attack, Fortify, Upgrade
Weapons, Rest, Recruit Militia, Recruit Hero, Stop the Zombie Plague), or, for
a player whose figure was slain, a militia of their own.

Each answer is checked whole before anything changes (``IllegalInput`` says
what the rules refuse and why), then carried out; an attack asks for its d6.
The answers are documented in docs/siege-of-barovia.md ("Hero turn").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Callable, Final

from companion.engine.effects import EffectSink
from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.grid import Direction
from companion.engine.prompts import Prompt, faces

from .mapdata import SAFE_HOUSES, Line, line_of
from .state import (GHOUL, HERO, HERO_HP, LOCAL_HEROES, MILITIA, MILITIA_HP, MOST_PLAYERS, MOVER, STRAHD, ZOMBIE,
                    Figure, Player, SiegeState)
from .words import SIDE_WORDS, line_words, said, the, the_place, where

#: What a hero's total must reach to hit each enemy (zombie and ghoul: killed; Strahd: 1 damage).
HITS_ON: Final[dict[str, int]] = {ZOMBIE: 3, GHOUL: 4, STRAHD: 6}
SIDES: Final = {name: Direction[name] for name in SIDE_WORDS}
RECRUIT_SQUARES: Final = ("town-square", "estate")


class GameEnded(Exception):
    """Raised inside the rules when a win condition is met; the game's coroutine ends there."""


Action = Mapping[str, object]


# -- the turn's flow ----------------------------------------------------------------------------------

def turn_over(state: SiegeState) -> bool:
    """After the action (move first) or after both (any order); a player with no figure acts once.
    Hustle is "one additional space": a hero who hustles before moving still has their own move."""
    if state.figure_of(state.player) is None:
        return state.acted
    return state.acted and (state.moved or (state.readings["hero_order"] == "move-first" and not state.hustled))


def may_move(state: SiegeState) -> bool:
    """The hero's own move is open: not taken yet, and (moving first) no action but Hustle taken."""
    return not state.moved and (not state.acted or state.hustled or state.readings["hero_order"] == "any-order")


def take(state: SiegeState, answer: Action, sink: EffectSink) -> Flow[None]:
    """Carry out one answer of the hero's turn (checked first: nothing changes on a refusal)."""
    name = answer.get("action")
    handler = HANDLERS.get(str(name))
    if handler is None:
        raise IllegalInput(f"{name!r} is not a hero's action (the actions: {', '.join(HANDLERS)})")
    yield from handler(state, answer, sink)


def _end(state: SiegeState, answer: Action, sink: EffectSink) -> Flow[None]:
    state.moved = state.acted = True
    sink.emit("turn-ended", f"{state.player.name} ends the turn.", player=state.player.id)
    return
    yield  # a generator, like every handler


# -- checks shared by the actions ---------------------------------------------------------------------

def acting_figure(state: SiegeState) -> Figure:
    figure = state.figure_of(state.player)
    if figure is None or figure.square is None:
        raise IllegalInput(f"{state.player.name} has no hero on the board: recruit a militia, or end the turn")
    return figure


def _may_act(state: SiegeState) -> Figure:
    figure = acting_figure(state)
    if state.acted:
        raise IllegalInput(f"{figure.name} has already taken this turn's action")
    return figure


def _may_move(state: SiegeState) -> Figure:
    figure = acting_figure(state)
    if state.moved:
        raise IllegalInput(f"{figure.name} has already moved this turn (Hustle moves one square more)")
    if not may_move(state):
        raise IllegalInput("the hero moves before the action, and has acted (reading: move first)")
    return figure


def _step(state: SiegeState, figure: Figure, answer: Action) -> str:
    to = answer.get("to")
    assert figure.square is not None
    steps = state.board().steps(figure.square, MOVER[figure.kind])
    if not isinstance(to, str) or to not in steps:
        reason = "a barricade stands in the way" if isinstance(to, str) and to in state.map.grid.steps(figure.square) \
            else "a hero moves one square up, down, left or right"
        raise IllegalInput(f"{figure.name} cannot move to {said(state, to)}: {reason}")
    return to


def _enemies_here(state: SiegeState, figure: Figure) -> list[Figure]:
    return state.at(figure.square or "", ZOMBIE, GHOUL, STRAHD)


def _at_place(state: SiegeState, figure: Figure, place: str, what: str) -> None:
    if figure.square != state.map.square_of(place):
        raise IllegalInput(f"{what} only at {the_place(state, place)}; {figure.name} is at "
                           f"{where(state, figure.square)}")
    if place in state.destroyed:
        raise IllegalInput(f"{the_place(state, place)} was destroyed: its action is lost for the rest of the game")


# -- moving ---------------------------------------------------------------------------------------------

def _move(state: SiegeState, answer: Action, sink: EffectSink) -> Flow[None]:
    figure = _may_move(state)
    to = _step(state, figure, answer)
    _walk(state, figure, to, sink)
    state.moved = True
    return
    yield


def _hustle(state: SiegeState, answer: Action, sink: EffectSink) -> Flow[None]:
    figure = _may_act(state)
    to = _step(state, figure, answer)
    _walk(state, figure, to, sink, hustle=True)
    state.acted = state.hustled = True
    return
    yield


def _walk(state: SiegeState, figure: Figure, to: str, sink: EffectSink, hustle: bool = False) -> None:
    start, figure.square = figure.square, to
    verb = "hustles" if hustle else "moves"
    sink.emit("hero-moved", f"{figure.name} {verb} from {where(state, start)} to {where(state, to)}.", figure=figure.id,
              path=[start, to],
              hustle=hustle)


# -- attacking ------------------------------------------------------------------------------------------

def attack_needs(state: SiegeState, figure: Figure, target: Figure) -> int:
    """The d6 face that hits: the threshold less the upgrade (unless it may not count against Strahd)."""
    bonus = 1 if figure.upgraded else 0
    if target.kind == STRAHD and state.readings["upgrade_vs_strahd"] == "natural":
        bonus = 0
    return HITS_ON[target.kind] - bonus


def _attack(state: SiegeState, answer: Action, sink: EffectSink) -> Flow[None]:
    figure = _may_act(state)
    target = state.figures.get(str(answer.get("target")))
    if target is None or target not in _enemies_here(state, figure):
        raise IllegalInput(f"{figure.name} can attack only an enemy in the same square, not {answer.get('target')!r}")
    needs = attack_needs(state, figure, target)
    state.acted = True
    sink.emit("hero-attack", f"{figure.name} attacks {the(target)}.", figure=figure.id, target=target.id,
              square=figure.square)
    rolled = yield Prompt("roll", "hero-attack", f"Roll a d6 for {figure.name}'s attack on {the(target)} "
                          f"(it hits on {needs} or more{' with the +1' if figure.upgraded else ''}).",
                          state.player.id, die="d6", count=1,
                          context={"figure": figure.id, "target": target.id, "needs": needs})
    value = int(str(faces(rolled)[0]))
    sink.emit("die", f"The d6 shows {value}.", die="d6", value=value)
    if value < needs:
        sink.emit("miss", f"{figure.name} misses {the(target)}.", figure=figure.id, target=target.id)
        return
    _hit(state, target, sink)


def _hit(state: SiegeState, target: Figure, sink: EffectSink) -> None:
    if target.kind != STRAHD:
        square, target.square = target.square, None
        sink.emit("enemy-killed", f"{target.name} is destroyed: take it off the board.", figure=target.id,
                  kind=target.kind, square=square)
        return
    target.hp -= 1
    if target.hp > 0:
        sink.emit("strahd-hurt", f"Count Strahd is hit: {target.hp} hit point{'s' if target.hp > 1 else ''} left.",
                  figure=STRAHD, hp=target.hp, square=target.square)
        return
    square, target.square = target.square, None
    sink.emit("strahd-fled", "Count Strahd is down to 0 hit points and flees back to his castle: take him off "
                             "the board.", figure=STRAHD, square=square)


# -- fortifying -----------------------------------------------------------------------------------------

def _line_on(state: SiegeState, figure: Figure, side: object) -> Line:
    if not isinstance(side, str) or side not in SIDES:
        raise IllegalInput(f"a side of the hero's square is N, E, S or W, not {side!r}")
    assert figure.square is not None
    there = state.map.grid.toward(figure.square, SIDES[side])
    if there is None:
        raise IllegalInput(f"the {SIDE_WORDS[side]} side of {where(state, figure.square)} is the board's edge: "
                           "a barricade stands between two squares")
    return line_of(figure.square, there)


def _fortify(state: SiegeState, answer: Action, sink: EffectSink) -> Flow[None]:
    figure = _may_act(state)
    forms = [key for key in ("build", "destroy", "move") if key in answer]
    if len(forms) != 1:
        raise IllegalInput("Fortify either builds, destroys or moves barricades: give exactly one of build, destroy, move")
    FORTIFY[forms[0]](state, figure, answer[forms[0]], sink)
    state.acted = True
    return
    yield


def _build(state: SiegeState, figure: Figure, side: object, sink: EffectSink) -> None:
    line = _line_on(state, figure, side)
    if line in state.barricades:
        raise IllegalInput(f"a barricade already stands on {line_words(state, *line)}")
    state.barricades = sorted([*state.barricades, line])
    sink.emit("barricade-built", f"{figure.name} builds a barricade on {line_words(state, *line)}.", line=list(line))


def _destroy(state: SiegeState, figure: Figure, side: object, sink: EffectSink) -> None:
    line = _line_on(state, figure, side)
    if line not in state.barricades:
        raise IllegalInput(f"no barricade stands on {line_words(state, *line)}")
    state.barricades = [b for b in state.barricades if b != line]
    sink.emit("barricade-removed", f"{figure.name} tears down the barricade on {line_words(state, *line)}.",
              line=list(line))


def _relocate(state: SiegeState, figure: Figure, moves: object, sink: EffectSink) -> None:
    pairs = _moves(state, figure, moves)
    kept = [b for b in state.barricades if b not in {old for old, _ in pairs}]
    for old, new in pairs:
        sink.emit("barricade-moved", f"{figure.name} moves the barricade from {line_words(state, *old)} to the "
                                     f"{SIDE_WORDS[_side(state, figure, new)]} side of {where(state, figure.square)}.",
                  line=list(new), old=list(old))
    state.barricades = sorted([*kept, *(new for _, new in pairs)])


def _moves(state: SiegeState, figure: Figure, moves: object) -> list[tuple[Line, Line]]:
    if not isinstance(moves, list) or not moves or not all(isinstance(m, Mapping) for m in moves):
        raise IllegalInput("moving barricades: a list of {'from': [square, square], 'to': side}, at least one")
    olds = [_existing(state, m.get("from")) for m in moves]
    news = [_line_on(state, figure, m.get("to")) for m in moves]
    if len(set(olds)) != len(olds) or len(set(news)) != len(news):
        raise IllegalInput("each barricade moves once, and each line takes one barricade")
    still = [old for old, new in zip(olds, news) if old == new]
    if still:
        raise IllegalInput(f"the barricade on {line_words(state, *still[0])} already stands there: move it to "
                           "another line of the hero's square")
    staying = set(state.barricades) - set(olds)
    taken = [n for n in news if n in staying]
    if taken:
        raise IllegalInput(f"a barricade already stands on {line_words(state, *taken[0])}")
    return list(zip(olds, news))


def _existing(state: SiegeState, value: object) -> Line:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)):
        raise IllegalInput("a barricade to move is named by its two squares, e.g. ['3,4', '3,5']")
    line = line_of(str(value[0]), str(value[1]))
    if line not in state.barricades:
        raise IllegalInput(f"no barricade stands between {said(state, value[0])} and {said(state, value[1])}")
    return line


def _side(state: SiegeState, figure: Figure, line: Line) -> str:
    other = line[1] if line[0] == figure.square else line[0]
    direction = state.map.grid.direction(figure.square or "", other)
    return direction.name if direction else ""


FORTIFY: Final[dict[str, Callable[[SiegeState, Figure, object, EffectSink], None]]] = {
    "build": _build, "destroy": _destroy, "move": _relocate}


# -- the places' actions ------------------------------------------------------------------------------

def _upgrade(state: SiegeState, answer: Action, sink: EffectSink) -> Flow[None]:
    figure = _may_act(state)
    if figure.kind != HERO:
        raise IllegalInput("a militia cannot upgrade its weapons")
    if figure.upgraded:
        raise IllegalInput(f"{figure.name} has already upgraded their weapons (once only)")
    _at_place(state, figure, "mercantile", "Weapons are upgraded")
    if _enemies_here(state, figure):
        raise IllegalInput(f"weapons are upgraded only with no enemy at {the_place(state, 'mercantile')}")
    figure.upgraded, state.acted = True, True
    sink.emit("upgraded", f"{figure.name} upgrades their weapons: +1 to every attack roll from now on.",
              figure=figure.id)
    return
    yield


def rest_to(state: SiegeState, figure: Figure) -> int:
    if figure.kind == MILITIA and state.readings["militia_rest"] == "three":
        return HERO_HP
    return figure.max_hp


def _rest(state: SiegeState, answer: Action, sink: EffectSink) -> Flow[None]:
    figure = _may_act(state)
    _at_place(state, figure, "tavern", "Heroes rest")
    figure.hp = rest_to(state, figure)
    figure.max_hp = max(figure.max_hp, figure.hp)
    state.acted = True
    sink.emit("rested", f"{figure.name} rests: back to {figure.hp} hit point{'s' if figure.hp > 1 else ''}.",
              figure=figure.id, hp=figure.hp)
    return
    yield


def _stop_plague(state: SiegeState, answer: Action, sink: EffectSink) -> Flow[None]:
    figure = _may_act(state)
    if figure.square != state.map.square_of("church"):
        raise IllegalInput(f"the plague is stopped at {the_place(state, 'church')}; {figure.name} is at "
                           f"{where(state, figure.square)}")
    if _enemies_here(state, figure):
        raise IllegalInput(f"{the_place(state, 'church')} is sanctified only with no enemy in it")
    state.acted = True
    state.outcome = "won"
    sink.emit("game-won", f"{figure.name} sanctifies {the_place(state, 'church')}: the plague of undeath "
                          "is stopped. The heroes win!", outcome="won", figure=figure.id)
    raise GameEnded()
    yield


# -- recruiting -----------------------------------------------------------------------------------------

def free_players(state: SiegeState) -> list[Player]:
    return [p for p in state.players if p.figure is None]


def recruit_squares(state: SiegeState, hero: str) -> list[str]:
    """Where a local hero may be recruited now: the reading's squares, less a destroyed estate."""
    places = [p for p in RECRUIT_SQUARES if p not in state.destroyed]
    if state.readings["recruit_where"] == "own":
        places = [p for p in places if p == ("town-square" if hero == "ashlyn" else "estate")]
    return [state.map.square_of(p) for p in places]


def _recruit(state: SiegeState, answer: Action, sink: EffectSink) -> Flow[None]:
    figure = _may_act(state)
    hero = str(answer.get("hero"))
    if hero not in LOCAL_HEROES:
        raise IllegalInput(f"the local heroes are {', '.join(LOCAL_HEROES)}, not {hero!r}")
    _check_recruit(state, figure, hero)
    player = _recruit_player(state, answer.get("for"))
    recruited = Figure(hero, HERO, LOCAL_HEROES[hero], figure.square, HERO_HP, HERO_HP, player.id)
    state.figures[hero], player.figure = recruited, hero
    state.recruited.append(hero)
    state.acted = True
    sink.emit("recruited", f"{figure.name} recruits {recruited.name} at {where(state, figure.square)}: "
                           f"{player.name} plays her from now on.", figure=hero, player=player.id, square=figure.square)
    return
    yield


def _check_recruit(state: SiegeState, figure: Figure, hero: str) -> None:
    name = LOCAL_HEROES[hero]
    if hero in state.recruited:
        raise IllegalInput(f"{name} has already been recruited (once a game)")
    if hero == "ireena" and "estate" in state.destroyed:
        raise IllegalInput(f"{name} cannot be recruited: {the_place(state, 'estate')} was destroyed")
    if figure.square not in recruit_squares(state, hero):
        places = " or ".join(where(state, s) for s in recruit_squares(state, hero)) or "nowhere now"
        raise IllegalInput(f"{name} is recruited at {places}; {figure.name} is at {where(state, figure.square)}")


def _recruit_player(state: SiegeState, named: object) -> Player:
    free = free_players(state)
    if named is not None:
        found = [p for p in free if p.id == named]
        if not found:
            raise IllegalInput(f"{named!r} is not a player without a figure (they are: "
                               f"{', '.join(p.id for p in free) or 'none'})")
        return found[0]
    if len(free) == 1:
        return free[0]
    if len(free) > 1:
        raise IllegalInput(f"say which player takes the new hero ('for': {', '.join(p.id for p in free)})")
    if state.readings["recruit_for"] != "new-player" or len(state.players) >= MOST_PLAYERS:
        raise IllegalInput("every player already controls a figure, so nobody can take a new hero")
    player = Player(f"p{len(state.players) + 1}", f"Player {len(state.players) + 1}")
    state.players.append(player)
    return player


def militia_places(state: SiegeState) -> list[str]:
    return list(SAFE_HOUSES) if state.readings["militia_start"] == "any" else state.standing()


def _militia_refused(state: SiegeState, place: str) -> str:
    """Why a militia may not begin at ``place``: not a safe house, or (the other reading) a destroyed one."""
    open_now = " or ".join(the_place(state, p) for p in militia_places(state)) or "none is left"
    if place in SAFE_HOUSES:
        return (f"{the_place(state, place)} was destroyed, and by this game's reading a militia begins only at a "
                f"safe house still standing (militia_start: standing): {open_now}")
    return f"a militia begins at one of the three safe houses ({', '.join(SAFE_HOUSES)}), not {place!r}: {open_now}"


def _recruit_militia(state: SiegeState, answer: Action, sink: EffectSink) -> Flow[None]:
    player = state.player
    if state.figure_of(player) is not None:
        raise IllegalInput(f"{player.name} already controls a figure: a player has one at a time")
    if state.acted:
        raise IllegalInput(f"{player.name} has already spent this turn")
    place = str(answer.get("at"))
    if place not in militia_places(state):
        raise IllegalInput(_militia_refused(state, place))
    figure_id = state.next_id(MILITIA)
    square = state.map.square_of(place)
    state.figures[figure_id] = Figure(figure_id, MILITIA, f"{player.name}'s militia", square, MILITIA_HP,
                                      MILITIA_HP, player.id)
    player.figure, state.acted = figure_id, True
    sink.emit("militia-recruited", f"{player.name} raises a peasant militia at {the_place(state, place)}.",
              figure=figure_id, player=player.id, square=square)
    return
    yield


HANDLERS: Final[dict[str, Callable[[SiegeState, Action, EffectSink], Flow[None]]]] = {
    "move": _move, "hustle": _hustle, "attack": _attack, "fortify": _fortify, "upgrade": _upgrade, "rest": _rest,
    "recruit": _recruit, "recruit-militia": _recruit_militia, "stop-plague": _stop_plague, "end": _end,
}

__all__ = ["GameEnded", "HANDLERS", "HITS_ON", "RECRUIT_SQUARES", "SIDES", "acting_figure", "attack_needs",
           "free_players", "may_move", "militia_places", "recruit_squares", "rest_to", "take", "turn_over"]
