"""The renderer: engine effects and the pack's public view in, frames out.

Two layers. The *still* layer is the pack's ``Scene`` of the view after each
change, drawn and cached: a faint glow under every location, the threat glow (a
forecast of the coming automatic phase: how likely something bad happens at each
location, 0..1, drawn dim in vermillion, the colour of danger; every change clears
it, as a forecast is of one moment of the game), the markers in
their colours, the lit connections, each track's steps (in the warning look near its end), the
mats (bright when on, dim otherwise) and the active player's seat. The
*moving* layer plays the change's effects as the pack's cues, one after
another in the order they happened, and each leaves its still image (a path,
a target) until the next change that shows something new.

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
from .cues import Stage, Style, Timing, View
from .layout import Layout
from .looks import Looks
from .palette import VERMILLION, WHITE, YELLOW, shade
from .scene import EMPTY, Scene

#: How likely trouble is at each location (0..1): a forecast's threat glow.
Threat = Mapping[str, float]


class Renderer:
    def __init__(self, layout: Layout, shape: BoardShape, looks: Looks, timing: Timing = Timing(),
                 style: Style = Style(), count: int | None = None) -> None:
        """``looks``: the pack's cues and scene; ``count``: the strip's size, when it has
        more LEDs than the layout uses."""
        self.stage = Stage(layout, shape, timing, style)
        self.looks = looks
        self.count = max(layout.count, count or 0)
        self._lock = threading.Lock()
        self._still = bytes(3 * self.count)
        self._scene: Scene = EMPTY
        self._changes = 0  # counts the changes folded in: a threat glow worked out before one is dropped
        self._playing: list[tuple[float, Animation]] = []
        self._holds: list[Animation] = []

    def change(self, effects: Sequence[Mapping[str, object]], view: View, now: float) -> bool:
        """Fold one change in (its effects, and the public view after it); True when it
        brought something new to animate."""
        planned = self.looks.cues.animations(self.stage, effects, view)
        scene = self.looks.scene(view, self.stage.shape)
        still = still_frame(self.stage, scene, self.count)
        with self._lock:
            self._still, self._scene, self._changes = still, scene, self._changes + 1
            if planned:
                self._playing, self._holds = _schedule(planned, now), []
        return bool(planned)

    def show_state(self, view: View) -> None:
        """Only the still layer (when the LEDs attach to a game already under way)."""
        scene = self.looks.scene(view, self.stage.shape)
        still = still_frame(self.stage, scene, self.count)
        with self._lock:
            self._still, self._scene, self._changes = still, scene, self._changes + 1

    def threaten(self, threat: Threat) -> None:
        """The threat glow over the still picture of the last change, until the next change
        (which clears it: a forecast is of one moment of the game). Empty: no glow."""
        with self._lock:
            scene, changes = self._scene, self._changes
        still = still_frame(self.stage, scene, self.count, threat)
        with self._lock:
            if self._changes == changes:  # no change came in between
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

def still_frame(stage: Stage, scene: Scene, count: int, threat: Threat | None = None) -> bytes:
    frame = bytearray(3 * count)
    _glow(stage, scene, frame)
    _threat(stage, threat or {}, frame)
    for draw in (_markers, _lines, _tracks, _mats, _seat):
        draw(stage, scene, frame)
    return bytes(frame)


def _glow(stage: Stage, scene: Scene, frame: bytearray) -> None:
    colour = shade(WHITE, stage.style.idle_glow)
    for leds in stage.layout.locations.values():
        fill(frame, leds, colour)


def _threat(stage: Stage, threat: Threat, frame: bytearray) -> None:
    """Each threatened location dimly, brighter the likelier (one the layout has no LEDs under
    lights nothing)."""
    for place, level in threat.items():
        if level > 0:
            fill(frame, stage.layout.location(place), shade(VERMILLION, stage.style.threat * min(1.0, level)))


def _markers(stage: Stage, scene: Scene, frame: bytearray) -> None:
    for marker in scene.markers:
        fill(frame, stage.layout.location(marker.location), shade(marker.colour, stage.style.marker))


def _lines(stage: Stage, scene: Scene, frame: bytearray) -> None:
    for line in scene.lines:
        fill(frame, stage.layout.segment(line.a, line.b), shade(line.colour, stage.style.line))


def _tracks(stage: Stage, scene: Scene, frame: bytearray) -> None:
    """Steps 1..level lit; in the warning look the bar turns vermillion and hatched."""
    for track, shown in scene.tracks.items():
        level, warning = shown.level, shown.warning
        for step in range(1, min(level, stage.shape.steps(track) - 1) + 1):
            hatched = warning and (level - step) % 2 == 1  # the top step always bright
            level_of = stage.style.hatch if hatched else stage.style.track
            fill(frame, stage.layout.step(track, step), shade(VERMILLION if warning else YELLOW, level_of))


def _mats(stage: Stage, scene: Scene, frame: bytearray) -> None:
    for name, light in scene.mats.items():
        fill(frame, stage.layout.mat(name), shade(light.colour, 1.0 if light.on else stage.style.mat_dim))


def _seat(stage: Stage, scene: Scene, frame: bytearray) -> None:
    if scene.seat is not None:
        fill(frame, stage.layout.seat(scene.seat), shade(WHITE, stage.style.seat))
