"""Engine effects turned into animations ("cues"), one small handler per
effect kind, registered by name like the monsters' rules, so a new kind is a
new function, not another branch.

A handler gets the effect's ``data`` and the plain state after the change and
returns the animation to play, or None when the effect shows nothing on the
LEDs (a die roll, a note). Effects of other kinds are ignored: the LEDs show
what is on the board; the tablet says everything else in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from .animations import Animation, Fade, Flash, Point, Pulse, Sweep, Together, Trail
from .board import BoardShape
from .layout import Layout, Leds
from .palette import BLACK, NEUTRAL, SKY_BLUE, VERMILLION, WHITE, YELLOW, Look, breathe, monster_look, shade
from .positions import led_positions

Data = Mapping[str, object]
State = Mapping[str, object]


@dataclass(frozen=True)
class Timing:
    """Seconds. The defaults are a readable pace at the table; ``scaled`` speeds
    everything up for tests and slows it down for a "steady" setting."""

    step: float = 0.5  # a trail advances one location
    dwell: float = 1.5  # the destination beats after the trail arrives
    pulse: float = 2.0  # the attack target
    flash: float = 1.2  # short signals: terror, frenzy, seat, rescue, defeat
    finale: float = 5.0  # won / lost

    def scaled(self, factor: float) -> "Timing":
        return Timing(*(value * factor for value in (self.step, self.dwell, self.pulse, self.flash, self.finale)))


@dataclass(frozen=True)
class Style:
    """Still levels (0..1 of a colour) of the board between animations."""

    idle_glow: float = 0.04  # every location, so the board looks alive
    marker: float = 0.3  # each monster's (and Twig Blight's) location
    mat_dim: float = 0.15  # the mats of monsters in play; the frenzied one is full
    seat: float = 0.6  # the active player's seat
    terror: float = 0.8  # the Terror bar
    hatch: float = 0.35  # every other bar LED in the warning look
    warn_within: int = 2  # warning look from terror_max - warn_within up


@dataclass(frozen=True)
class Stage:
    """What every handler may use: the layout, the board and the pace."""

    layout: Layout
    shape: BoardShape
    timing: Timing = Timing()
    style: Style = Style()
    _xs: dict[int, float] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        self._xs.update({p.index: p.x for p in led_positions(self.layout, self.shape)})

    def board_leds(self) -> tuple[list[int], list[float]]:
        """Every LED on the board picture, left to right, with its x."""
        ordered = sorted(self._xs.items(), key=lambda item: item[1])
        return [i for i, _ in ordered], [x for _, x in ordered]

    def warning(self, level: int) -> bool:
        return level >= self.shape.terror_max - self.style.warn_within


Handler = Callable[[Stage, Data, State], Animation | None]
HANDLERS: dict[str, Handler] = {}


def cue(*kinds: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        for kind in kinds:
            HANDLERS[kind] = handler
        return handler
    return register


def animations_for(stage: Stage, effects: Sequence[Mapping[str, object]], state: State) -> list[Animation]:
    """The show for one change, in the order the effects happened."""
    found = []
    for effect in effects:
        handler = HANDLERS.get(str(effect.get("kind")))
        data = effect.get("data")
        animation = handler(stage, data if isinstance(data, Mapping) else {}, state) if handler else None
        if animation is not None and animation.duration > 0:
            found.append(animation)
    return found


def trail_points(layout: Layout, path: Sequence[str], step: float) -> list[Point]:
    """Each LED along the path with the moment it lights: the start at once, a
    connection's LEDs spread over its step, each location at the step's end."""
    points: list[Point] = []
    seen: set[int] = set()

    def add(leds: Leds, at: float) -> None:
        for led in leds:
            if led not in seen:
                seen.add(led)
                points.append(Point(led, at, len(points)))

    add(layout.location(path[0]), 0.0)
    for k, (a, b) in enumerate(zip(path, path[1:])):
        segment = layout.segment(a, b)
        for j, led in enumerate(segment):
            add((led,), (k + (j + 1) / (len(segment) + 1)) * step)
        add(layout.location(b), (k + 1) * step)
    return points


def _text(data: Data, key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _path(data: Data) -> list[str]:
    path = data.get("path")
    return [p for p in path if isinstance(p, str)] if isinstance(path, list) else []


@cue("monster-moved", "figure-moved")
def _moved(stage: Stage, data: Data, state: State) -> Animation | None:
    path = _path(data)
    if len(path) < 2:
        return None
    look = monster_look(data["monster"]) if "monster" in data else NEUTRAL
    points = trail_points(stage.layout, path, stage.timing.step)
    glow = shade(WHITE, stage.style.idle_glow)
    return Trail(points, stage.layout.location(path[-1]), look, stage.timing.dwell, glow) if points else None


@cue("target")
def _target(stage: Stage, data: Data, state: State) -> Animation | None:
    leds = stage.layout.location(_text(data, "location") or "")
    return Pulse(leds, monster_look(data.get("monster")), stage.timing.pulse, hold_level=0.8) if leds else None


@cue("monster-stays", "monster-placed", "blight-placed")
def _here(stage: Stage, data: Data, state: State) -> Animation | None:
    leds = stage.layout.location(_text(data, "location") or "")
    return Pulse(leds, monster_look(data.get("monster")), stage.timing.flash) if leds else None


@cue("monster-defeated")
def _defeated(stage: Stage, data: Data, state: State) -> Animation | None:
    monster = _text(data, "monster") or ""
    look = monster_look(monster)
    flash = Flash(stage.layout.location(_text(data, "location") or ""), (WHITE, look.colour), 0.15,
                  stage.timing.flash * 2)
    return Together((flash, Fade(stage.layout.mat(monster), look.colour, stage.timing.flash * 2)))


@cue("villager-rescued")
def _rescued(stage: Stage, data: Data, state: State) -> Animation | None:
    leds = stage.layout.location(_text(data, "location") or "")
    return Flash(leds, (SKY_BLUE, WHITE, BLACK), 0.12, stage.timing.flash * 1.5, stagger=True) if leds else None


@cue("hero-defeated", "villager-defeated")
def _fallen(stage: Stage, data: Data, state: State) -> Animation | None:
    leds = stage.layout.location(_text(data, "location") or "")
    return Flash(leds, (VERMILLION, BLACK, VERMILLION, BLACK, BLACK, BLACK), 0.12, stage.timing.flash) if leds else None


@cue("terror")
def _terror(stage: Stage, data: Data, state: State) -> Animation | None:
    level, change = data.get("level"), data.get("change")
    if not isinstance(level, int) or not isinstance(change, int):
        return None
    if change < 0:
        return Fade(stage.layout.terror_step(level + 1), YELLOW, stage.timing.flash)
    colour = VERMILLION if stage.warning(level) else YELLOW
    return Flash(stage.layout.terror_step(level), (colour, BLACK), 0.2, stage.timing.flash)


@cue("frenzy")
def _frenzy(stage: Stage, data: Data, state: State) -> Animation | None:
    monster = _text(data, "monster")
    return Pulse(stage.layout.mat(monster), monster_look(monster), stage.timing.flash) if monster else None


@cue("turn")
def _turn(stage: Stage, data: Data, state: State) -> Animation | None:
    seats = state.get("seats")
    hero = data.get("hero")
    if not isinstance(seats, list) or hero not in seats:
        return None
    return Flash(stage.layout.seat(seats.index(hero)), (WHITE, BLACK), 0.2, stage.timing.flash)


@cue("game-won")
def _won(stage: Stage, data: Data, state: State) -> Animation | None:
    leds, xs = stage.board_leds()
    return Sweep(leds, xs, SKY_BLUE, stage.timing.finale, passes=2, hold_level=0.25)


@cue("game-lost")
def _lost(stage: Stage, data: Data, state: State) -> Animation | None:
    leds, _ = stage.board_leds()
    return Pulse(leds, Look(VERMILLION, breathe, "slow breathing"), stage.timing.finale, hold_level=0.12)

