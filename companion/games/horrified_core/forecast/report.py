"""The forecast as plain data, for the tablet, the LEDs and ``./run forecast --json``.

Every chance is given as a range: ``low`` and ``high`` are the lowest and the highest the
active player's choices in the phase (ties, orders) can make it, ``random`` the chance when
those choices are made at random. A card estimated from random plays has one number only
(its low and high are that number), and the forecast lists it under ``estimated``.
"""

from __future__ import annotations

from companion.engine.plain import to_plain

from ..context import GameContext
from .forecast import Forecast

Plain = dict[str, object]
#: Below this, a place does not glow at all (a dim glow everywhere would say nothing).
GLOW_FLOOR = 0.05


def report(forecast: Forecast, ctx: GameContext) -> Plain:
    """``ctx``: the game the forecast is of, to name its heroes, villagers and places."""
    layout, value = forecast.layout, forecast.value
    count, places = len(layout.characters), len(layout.places)

    def ranged(index: int, mode: int = 0) -> Plain:
        return {"low": _round(value.low[mode][index]), "high": _round(value.high[mode][index]),
                "random": _round(value.mean[mode][index])}

    characters = [_character(ctx, who, ranged(i), ranged(count + i), ranged(count + i, 1))
                  for i, who in enumerate(layout.characters)]
    ends = {p: ranged(2 * count + i) for i, p in enumerate(layout.places)}
    end = 2 * count + places
    return {"monster_phase": forecast.monster_phase, "cards_left": forecast.cards_left,
            "exact": not forecast.estimated, "estimated": list(forecast.estimated),
            "estimate_error": _round(forecast.estimate_error),
            "by_hand": list(forecast.by_hand), "characters": characters, "monster_ends": ends,
            "terror_rise": ranged(end), "lose": ranged(end + 1),
            "glow": glow(characters, ends), "replays": forecast.replays,
            "milliseconds": round(forecast.seconds * 1000, 1)}


def _character(ctx: GameContext, who: str, attacked: Plain, defeated: Plain, keeping: Plain) -> Plain:
    kind, _, ident = who.partition(":")
    if kind == "hero":
        name, at = ctx.hero_name(ident), ctx.state.heroes[ident].location
    else:
        name, at = ctx.pack.villager(ident).name, ctx.state.villagers[ident].location
    return {"kind": kind, "id": ident, "name": name, "at": at, "attacked": attacked,
            "defeated": defeated, "defeated_keeping_items": keeping}


def glow(characters: list[Plain], ends: dict[str, Plain]) -> dict[str, float]:
    """How brightly each place glows: the chance a monster ends there, or that someone
    standing there is attacked, whichever is higher (random choices)."""
    level = {place: _chance(r) for place, r in ends.items()}
    for who in characters:
        at = who["at"]
        if isinstance(at, str):
            level[at] = max(level.get(at, 0.0), _chance(who["attacked"]))
    return {place: round(v, 3) for place, v in sorted(level.items()) if v >= GLOW_FLOOR}


def _chance(ranged: object) -> float:
    assert isinstance(ranged, dict)
    found = ranged["random"]
    return float(found) if isinstance(found, (int, float)) else 0.0


def _round(number: float) -> float:
    return round(number, 4)


__all__ = ["report", "to_plain"]
