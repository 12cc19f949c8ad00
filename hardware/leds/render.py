"""The renderer: engine effects and state in, frames out.

Two layers. The *still* layer is drawn from the state after each change and
cached: a faint glow under every location, each monster's location in its
colour, the Terror bar, the mats (the frenzied one bright) and the active
player's seat. The *moving* layer plays the change's effects as animations,
one after another in the order they happened, and each leaves its still image
(a path, a target) until the next change that shows something new.

``frame(now)`` composes both at any moment; ``busy(now)`` says whether anything
still moves, which is what the animation thread runs on. All times are given,
never read, and a lock makes ``change`` (the table's thread) and ``frame``
(the animation thread) safe together.
"""

from __future__ import annotations

import threading
from typing import Mapping, Sequence

from .animations import Animation, fill
from .board import BoardShape
from .cues import Stage, State, Style, Timing, animations_for
from .layout import Layout
from .palette import VERMILLION, WHITE, YELLOW, monster_look, shade


class Renderer:
    def __init__(self, layout: Layout, shape: BoardShape, timing: Timing = Timing(), style: Style = Style(),
                 count: int | None = None) -> None:
        """``count``: the strip's size, when it has more LEDs than the layout uses."""
        self.stage = Stage(layout, shape, timing, style)
        self.count = max(layout.count, count or 0)
        self._lock = threading.Lock()
        self._still = bytes(3 * self.count)
        self._playing: list[tuple[float, Animation]] = []
        self._holds: list[Animation] = []

    def change(self, effects: Sequence[Mapping[str, object]], state: State, now: float) -> bool:
        """Fold one change in; True when it brought something new to animate."""
        planned = animations_for(self.stage, effects, state)
        still = still_frame(self.stage, state, self.count)
        with self._lock:
            self._still = still
            if planned:
                self._playing, self._holds = _schedule(planned, now), []
        return bool(planned)

    def show_state(self, state: State) -> None:
        """Only the still layer (when the LEDs attach to a game already under way)."""
        still = still_frame(self.stage, state, self.count)
        with self._lock:
            self._still = still

    def frame(self, now: float) -> bytes:
        with self._lock:
            self._retire(now)
            frame = bytearray(self._still)
            for hold in self._holds:
                hold.hold(frame)
            for start, animation in self._playing:
                if start <= now:
                    animation.draw(frame, now - start)
        return bytes(frame)

    def busy(self, now: float) -> bool:
        with self._lock:
            return any(start + animation.duration > now for start, animation in self._playing)

    def settles_at(self) -> float:
        """When the last animation of the show ends (its start if nothing plays)."""
        with self._lock:
            return max((start + a.duration for start, a in self._playing), default=0.0)

    def _retire(self, now: float) -> None:
        """Finished animations leave their still image behind."""
        done = [a for start, a in self._playing if start + a.duration <= now]
        if done:
            self._holds.extend(done)
            self._playing = [(s, a) for s, a in self._playing if s + a.duration > now]


def _schedule(animations: Sequence[Animation], now: float) -> list[tuple[float, Animation]]:
    """One after another, so the table follows each monster in turn."""
    playing, start = [], now
    for animation in animations:
        playing.append((start, animation))
        start += animation.duration
    return playing


# -- the still layer ----------------------------------------------------------------------

def still_frame(stage: Stage, state: State, count: int) -> bytes:
    frame = bytearray(3 * count)
    for draw in (_glow, _markers, _terror_bar, _mats, _seat):
        draw(stage, state, frame)
    return bytes(frame)


def _glow(stage: Stage, state: State, frame: bytearray) -> None:
    colour = shade(WHITE, stage.style.idle_glow)
    for leds in stage.layout.locations.values():
        fill(frame, leds, colour)


def _markers(stage: Stage, state: State, frame: bytearray) -> None:
    for monster, where in _figures(state):
        fill(frame, stage.layout.location(where), shade(monster_look(monster).colour, stage.style.marker))


def _figures(state: State) -> list[tuple[str, str]]:
    """(monster, location) of every monster figure and Twig Blight on the board."""
    found = []
    for monster_id, monster in _mapping(state.get("monsters")).items():
        monster = _mapping(monster)
        if not monster.get("defeated") and isinstance(monster.get("location"), str):
            found.append((str(monster_id), str(monster["location"])))
    for mat_id, mat in _mapping(state.get("mats")).items():
        blights = _mapping(mat).get("blights")
        found.extend((str(mat_id), b) for b in (blights if isinstance(blights, list) else []) if isinstance(b, str))
    return found


def _terror_bar(stage: Stage, state: State, frame: bytearray) -> None:
    """Steps 1..level lit; near the maximum the bar turns vermillion and hatched."""
    level = state.get("terror")
    if not isinstance(level, int):
        return
    warning = stage.warning(level)
    for step in range(1, min(level, stage.shape.terror_max) + 1):
        hatched = warning and (level - step) % 2 == 1  # the top step always bright
        level_of = stage.style.hatch if hatched else stage.style.terror
        fill(frame, stage.layout.terror_step(step), shade(VERMILLION if warning else YELLOW, level_of))


def _mats(stage: Stage, state: State, frame: bytearray) -> None:
    frenzied = state.get("frenzy")
    for monster_id, monster in _mapping(state.get("monsters")).items():
        if not _mapping(monster).get("defeated"):
            level = 1.0 if monster_id == frenzied else stage.style.mat_dim
            fill(frame, stage.layout.mat(str(monster_id)), shade(monster_look(monster_id).colour, level))


def _seat(stage: Stage, state: State, frame: bytearray) -> None:
    active = state.get("active")
    if isinstance(active, int) and not isinstance(active, bool) and state.get("phase") != "over":
        fill(frame, stage.layout.seat(active), shade(WHITE, stage.style.seat))


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}
