"""What the tablets see of a game of Straszydła (docs/protocol.md, "Straszydła's view").

The public view is what lies open on the table: the board and its cubes and markers, the
time of day, every player's resources (all open, says the rulebook), who has planned or bid
(never what), the plans and bids once revealed, the duel, the stacks. It never reads a
player's ``pact``, nor a ``plan`` or ``bid`` still sealed: those are in that seat's own
view alone. The pack view is the box's contents, for drawing and naming.
"""

from __future__ import annotations

from companion.engine.effects import EffectSink
from companion.games.gamepack import View

from .anytime import offered
from .context import Ctx
from .packdata import Pack
from .readings import described
from .state import Duel, GameState, Player


def public_view(pack: Pack, state: GameState) -> View:
    return {
        "phase": state.phase, "round": state.round, "round_in_time": state.round_in_time, "time": state.time,
        "card": state.card, "starting": state.starting, "order": state.from_starting(), "seats": list(state.order),
        "board": _board(state), "players": {seat: _player(p) for seat, p in state.players.items()},
        "pacts_in": list(state.pacts_in), "planned": list(state.planned), "plans": dict(state.plans),
        "paths": dict(state.paths), "duel": _duel(state.duel), "acting": state.acting,
        "stacks": {e: {"top": s.top, "left": s.left()} for e, s in state.stacks.items()},
        "imp_stacks": {e: list(imps) for e, imps in state.imp_stacks.items()}, "fed": dict(state.fed),
        "barred": list(state.barred), "winners": list(state.winners), "outcome": state.outcome,
        "readings": dict(state.readings), "data_id": state.pack_id,
        "colours": {tile: pack.colour(pack.tile(tile).element) for tile in state.layout.values()},
    }


def _board(state: GameState) -> View:
    return {"columns": state.columns, "rows": state.rows, "layout": dict(state.layout),
            "cubes": {place: {e: n for e, n in cubes.items() if n} for place, cubes in state.cubes.items()
                      if any(cubes.values())},
            "blockades": list(state.blockades), "stops": {p: list(s) for p, s in state.stops.items() if s}}


def _player(player: Player) -> View:
    """A player's open resources; their pact card, sealed plan and sealed bid are not here."""
    return {"name": player.name, "side": player.side, "at": player.at, "creatures": list(player.creatures),
            "energy": player.energy, "horror": player.horror,
            "cubes": {e: n for e, n in player.cubes.items() if n}, "imps": list(player.imps)}


def _duel(duel: Duel | None) -> View | None:
    if duel is None:
        return None
    return {"place": duel.place, "holder": duel.holder, "challenger": duel.challenger,
            "dice": {s: list(d) for s, d in duel.dice.items()}, "bids_in": list(duel.bids_in),
            "bids": dict(duel.bids), "step": duel.step}


def seat_view(pack: Pack, state: GameState, seat: str) -> View:
    """What ``seat`` alone sees: its pact card, its plan and its bid while they are sealed; and the moves its
    phone offers at any moment (anytime.py: trades at the bank, horror cubes, imps)."""
    player = state.players.get(seat)
    if player is None:
        return {}
    pact = pack.pact(player.pact) if player.pact else None
    return {"side": player.side,
            "pact": None if pact is None else {"id": pact.id, "name": pact.name, "elements": list(pact.elements)},
            "plan": list(player.plan) if player.plan is not None else None, "bid": player.bid,
            "anytime": offered(Ctx(pack, state, EffectSink()), seat)}


def pack_view(pack: Pack) -> View:
    """The box: elements and their cube colours, the tiles, creatures, imps, pact cards (the deck,
    not who holds which), the help card's tables, the board's size and the readings. ``guess``: a
    value still our guess (neither the rulebook's nor confirmed by the owner), marked where it is shown."""
    return {
        "secret_seats": True,
        "size": {"columns": pack.columns, "rows": pack.rows},
        "elements": [{"id": e.id, "name": e.name, "colour": e.colour} for e in pack.elements],
        "tiles": [{"id": t.id, "name": t.name, "kind": t.kind, "time": t.time, "produces": dict(t.produces),
                   "scare": t.scare, "summon": t.summon, "guess": t.guess} for t in pack.tiles],
        "creatures": [{"id": c.id, "name": c.name, "day": c.day, "night": c.night, "elements": list(c.elements),
                       "stack": c.stack, "starter": c.starter, "guess": c.guess} for c in pack.creatures],
        "imps": [{"id": i.id, "name": i.name, "element": i.element, "text": i.text} for i in pack.imps],
        "pacts": [{"id": p.id, "name": p.name, "elements": list(p.elements)} for p in pack.pacts],
        "scaring": [{"id": r.id, "from": r.low, "to": r.high, "cubes": r.cubes, "guess": r.guess}
                    for r in pack.scaring],
        "horror": [{"id": a.id, "name": a.name, "cost": a.cost, "kind": a.kind, "amount": a.amount, "guess": a.guess}
                   for a in pack.horror],
        "readings": described(),
    }


__all__ = ["pack_view", "public_view", "seat_view"]
