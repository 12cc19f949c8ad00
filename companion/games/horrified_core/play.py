"""The whole game as one coroutine: setup if new, then turns until it is won or lost
(RL-TU-1, RL-END-1 .. RL-END-3)."""

from __future__ import annotations

from companion.engine.game import Flow

from .context import GameContext, GameEnded
from .hero_phase import hero_phase
from .monster_phase import PhasePoint, monster_phase
from .setup import setup_table
from .turns import pass_turn, start_turn


def play(ctx: GameContext, at: PhasePoint | None = None) -> Flow[None]:
    """From the state as it is (a new game, a Hero Phase, ...), or (``at``) from a boundary of
    its Monster Phase."""
    try:
        if at is not None:
            yield from monster_phase(ctx, at)
            pass_turn(ctx)
            yield from start_turn(ctx)
        elif ctx.state.phase == "setup":
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
    """The game ends at once: its outcome is kept in the state."""
    ctx.state.outcome = end.outcome
    ctx.state.phase = "over"
    kind = "game-won" if end.outcome == "won" else "game-lost"
    text = "You win! " if end.outcome == "won" else "You lose: "
    ctx.emit(kind, text + end.why + ".", outcome=end.outcome)
