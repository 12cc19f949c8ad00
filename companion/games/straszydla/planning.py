"""Planning in secret and moving (rulebook, "Planning moves" and "Moving").

"Plan your move in secret, covering it with your help card ... When you are ready, reveal
your tokens. From that moment you may not change your plan." Every player plans on their
own phone at the same time (one ``each`` prompt, engine/simultaneous.py): a plan is
checked the moment it is laid (a token into a blockade is refused on that phone), kept
for that seat's eyes, and all plans are shown together once the last player has planned.
Until then a player who has planned may look at their plan and lay another (a
``revisable`` gather): the tokens are still under the help card.
Then "Each player moves their pawn across the board, starting with the starting player",
and the order the pawns arrive in a district is the order its duels are fought in.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.engine.errors import IllegalInput
from companion.engine.game import Flow
from companion.engine.prompts import Prompt
from companion.engine.simultaneous import gather

from .context import Ctx
from .geometry import JUMP, STAY, SUBURB, Walk, walk

PLAN_KEY = "plan"


def plan_and_move(ctx: Ctx) -> Flow[None]:
    state = ctx.state
    state.phase, state.planned, state.plans, state.paths = "planning", [], {}, {}
    walks = yield from gather(state.from_starting(), lambda pending: _ask(ctx, pending),
                              lambda seat, answer: _accept(ctx, seat, answer), revisable=True)
    _reveal(ctx, {seat: w for seat, w in walks.items() if isinstance(w, Walk)})
    _move(ctx)


def _ask(ctx: Ctx, pending: tuple[str, ...]) -> Prompt:
    waiting = ", ".join(ctx.name(seat) for seat in pending)
    return Prompt("action", PLAN_KEY, f"Round {ctx.state.round}: lay your 3 movement tokens in secret; you may "
                  f"change them until everyone has planned (still planning: {waiting}).",
                  audience=tuple(ctx.state.from_starting()), each=True, context={"round": ctx.state.round})


def _accept(ctx: Ctx, seat: str, answer: object) -> Walk:
    assert isinstance(answer, Mapping)
    if answer.get("action") != "plan":
        raise IllegalInput("answer with your plan: {\"action\": \"plan\", \"moves\": [\"N\", \"NE\", \"E\"]}")
    player = ctx.player(seat)
    found = walk(ctx.geometry, player.at, answer.get("moves"), ctx.reading("jump_last") == "yes")
    changed = seat in ctx.state.planned
    player.plan = list(found.plan)
    ctx.sink.tell((seat,), "plan-laid", f"Your {'new ' if changed else ''}plan: {plan_words(ctx, found)}.", seat=seat,
                  moves=list(found.plan), path=list(found.path))
    if not changed:
        ctx.state.planned.append(seat)
        ctx.sink.emit("planned", f"{player.name} has planned.", seat=seat)
    return found


def plan_words(ctx: Ctx, found: Walk) -> str:
    """``N, NE, jump to Przedmieście wschodnie, E`` ending "→ Kuźnia"."""
    words = [_token_words(ctx, token) for token in found.plan]
    return f"{', '.join(words)} → {ctx.place(found.end)}"


def _token_words(ctx: Ctx, token: str) -> str:
    if token.startswith(JUMP):
        return f"jump to {ctx.place(token[len(JUMP):])}"
    if token.startswith(SUBURB):
        return f"cannot move: to {ctx.place(token[len(SUBURB):])}"
    return "stand still" if token == STAY else token


def _reveal(ctx: Ctx, walks: Mapping[str, Walk]) -> None:
    state = ctx.state
    for seat in state.from_starting():
        state.plans[seat] = list(walks[seat].plan)
        state.paths[seat] = list(walks[seat].path)
        state.players[seat].plan = None
    lines = "; ".join(f"{ctx.name(s)}: {plan_words(ctx, walks[s])}" for s in state.from_starting())
    ctx.sink.reveal("plans-revealed", f"Every plan is revealed: {lines}.", plans=dict(state.plans),
                  paths=dict(state.paths))


def _move(ctx: Ctx) -> None:
    state = ctx.state
    state.phase, state.entered = "moving", {}
    for seat in state.from_starting():
        path = state.paths[seat]
        state.players[seat].at = path[-1]
        state.entered.setdefault(path[-1], []).append(seat)
        ctx.sink.emit("pawn-moved", f"Move {ctx.name(seat)}'s pawn to {ctx.place(path[-1])} "
                      f"({' → '.join(ctx.place(p) for p in path)}).", seat=seat, path=list(path))


__all__ = ["PLAN_KEY", "plan_and_move", "plan_words"]
