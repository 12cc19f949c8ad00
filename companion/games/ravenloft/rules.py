"""Ravenloft's rules as the engine runs them: build the starting state from an
origin (a new game's setup, a position, or a saved state) and play it."""

from __future__ import annotations

from typing import Mapping

from companion.engine.effects import EffectSink
from companion.engine.errors import SetupError
from companion.engine.game import Flow, Game, Input
from companion.engine.graph import Graph
from companion.engine.plain import PlainDataError, from_plain

from .context import GameContext, GameEnded, board_graph
from .hero_phase import hero_phase
from .monster_phase import monster_phase
from .monsters import MonsterRules, rules_for
from .pack import load_pack
from .pack_types import Pack
from .position import state_from_position
from .setup import initial_state, parse_setup, setup_table
from .state import GameState
from .turns import pass_turn, start_turn

Origin = Mapping[str, object]


class RavenloftRules:
    """The Rules the generic :class:`Game` runner plays."""

    name = "ravenloft"

    def __init__(self, pack: Pack | None = None) -> None:
        self.pack = pack or load_pack()
        self.monster_rules: dict[str, MonsterRules] = rules_for(self.pack)
        self._graphs = {flag: board_graph(self.pack, flag) for flag in (False, True)}

    def graph_for(self, state: GameState) -> Graph:
        return self._graphs["strahd" in state.monsters]

    def begin(self, origin: Origin, sink: EffectSink) -> tuple[GameState, Flow[None]]:
        state = self.starting_state(origin)
        monster_rules = {m: self.monster_rules[m] for m in state.monsters}
        ctx = GameContext(self.pack, state, sink, monster_rules, self.graph_for(state))
        return state, play(ctx)

    def starting_state(self, origin: Origin) -> GameState:
        if "setup" in origin:
            return initial_state(self.pack, parse_setup(self.pack, origin["setup"]))
        if "position" in origin:
            return state_from_position(self.pack, self.monster_rules, origin["position"])
        if "state" in origin:
            try:
                return from_plain(GameState, origin["state"], "state")
            except PlainDataError as problem:
                raise SetupError(str(problem)) from None
        raise SetupError("a game starts from a 'setup', a 'position' or a saved 'state'")

    def new_game(self, origin: Origin, inputs: list[Input] | None = None) -> Game:
        return Game(self, origin, inputs or [])


def play(ctx: GameContext) -> Flow[None]:
    """The whole game: setup if new, then turns until it is won or lost."""
    try:
        if ctx.state.phase == "setup":
            yield from setup_table(ctx)
            yield from start_turn(ctx)
        while True:
            if ctx.state.phase == "hero":
                yield from hero_phase(ctx)
            yield from monster_phase(ctx)
            pass_turn(ctx)
            yield from start_turn(ctx)
    except GameEnded as end:
        finish(ctx, end)


def finish(ctx: GameContext, end: GameEnded) -> None:
    """RL-END-1 .. RL-END-3: the game ends at once."""
    ctx.state.outcome = end.outcome
    ctx.state.phase = "over"
    kind = "game-won" if end.outcome == "won" else "game-lost"
    text = "You win! " if end.outcome == "won" else "You lose: "
    ctx.emit(kind, text + end.why + ".", outcome=end.outcome)
