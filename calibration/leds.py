"""LED calibration: find out which LED sits under which part of the board.

The procedure is a pure state machine, so the tablet, a test or a command line
can drive it, and it can stop and resume at any point (progress is saved after
every answer):

1. LED ``index`` lights alone (``LedCalibrationSession`` asks the LED board).
2. The owner taps where it shines on the board view. ``resolve_tap`` turns the
   tap into a *target*: a location, or a point along a connection; for a step
   of one of the board's tracks (its kind is the track's name: ``terror``), a
   mat or a seat the tablet offers buttons. Or they skip it (an LED hidden
   under a frame, a spare at the end of the strip).
3. Next LED, until every LED is answered or skipped; ``back`` and ``goto`` fix
   a mistake.
4. ``layout()`` builds the layout (connection LEDs ordered by where along the
   connection they were tapped) and validates it like any layout file.

``LedCalibrationStore`` keeps the progress and the finished layout as JSON in
the state directory: atomic writes, the previous layout kept for ``revert``,
``export``/``restore`` for backups. The Socket.IO events the tablet will use
are listed in docs/leds.md ("Calibration API").
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

from companion.engine.errors import Refusal
from hardware.leds.board import BoardShape
from hardware.leds.layout import FORMAT, Layout, LayoutError, Problem, load_layout, parse_layout, shipped_layout
from hardware.leds.layout import VERSION as LAYOUT_VERSION

PROGRESS_FORMAT = "table-companion.led-calibration"
VERSION = 1
PLACES = ("location", "connection")  # targets tapped on the board picture
SPOTS = ("mat", "seat")  # targets off it, besides each track's steps
TAP_RADIUS = 0.04  # of the board picture's width: how near a tap must be to count


class LedCalibrationError(Refusal):
    """An answer or a saved file the LED calibration refuses, with why."""


@dataclass(frozen=True)
class Target:
    """Where one LED sits. ``kind``: location, connection, mat, seat, or the name of
    one of the board's tracks; ``name``: location id, connection's ``from`` end or
    mat name; ``to``: the connection's other end; ``at``: 0..1 from ``from`` to
    ``to``; ``step``: the track's step or the seat number."""

    kind: str
    name: str = ""
    to: str = ""
    at: float = 0.5
    step: int = 0

    def to_plain(self) -> dict[str, object]:
        plain: dict[str, object] = {"kind": self.kind}
        if self.kind in ("location", "mat", "connection"):
            plain["name"] = self.name
        if self.kind == "connection":
            plain.update(to=self.to, at=round(self.at, 4))
        if self.kind not in ("location", "mat", "connection"):
            plain["step"] = self.step  # a track's step or a seat
        return plain


def kinds(shape: BoardShape) -> tuple[str, ...]:
    """The kinds of target a board has: its places, its tracks, its mats and seats."""
    return (*PLACES, *shape.tracks, *SPOTS)


def target_from_plain(data: object, shape: BoardShape) -> Target:
    """A target from a tablet or a saved file, checked against the board."""
    if not isinstance(data, Mapping) or data.get("kind") not in kinds(shape):
        raise LedCalibrationError(f"a target needs a 'kind', one of {', '.join(kinds(shape))}")
    target = _build(data)
    _check(target, shape)
    return target


def _build(data: Mapping[str, object]) -> Target:
    name, to, at, step = data.get("name", ""), data.get("to", ""), data.get("at", 0.5), data.get("step", 0)
    if not isinstance(name, str) or not isinstance(to, str):
        raise LedCalibrationError("'name' and 'to' must be texts")
    if isinstance(at, bool) or not isinstance(at, (int, float)) or isinstance(step, bool) or not isinstance(step, int):
        raise LedCalibrationError("'at' must be a number and 'step' a whole number")
    return Target(str(data["kind"]), name, to, round(float(at), 4), step)


def _check(target: Target, shape: BoardShape) -> None:
    problem = _problem(target, shape)
    if problem:
        raise LedCalibrationError(problem)


def _problem(target: Target, shape: BoardShape) -> str:
    kind = target.kind
    if kind == "location" and target.name not in shape.locations:
        return f"{target.name!r} is not a location on the board"
    if kind == "connection" and not shape.connected(target.name, target.to):
        return f"the board has no connection {target.name!r} - {target.to!r}"
    if kind == "connection" and not 0.0 <= target.at <= 1.0:
        return "'at' must be from 0 to 1"
    if kind in shape.tracks and not 0 <= target.step < shape.steps(kind):
        return f"{kind.capitalize()} steps go from 0 to {shape.steps(kind) - 1}"
    if kind == "mat" and target.name not in shape.mats:
        return f"{target.name!r} has no mat in this game"
    if kind == "seat" and not 0 <= target.step < shape.seats:
        return f"seats go from 0 to {shape.seats - 1}"
    return ""


def resolve_tap(shape: BoardShape, x: float, y: float, radius: float = TAP_RADIUS) -> Target | None:
    """A tap on the board picture: the nearest location within ``radius``, else
    the nearest connection within it (with where along it), else None."""
    near = min(shape.locations.items(), key=lambda item: math.dist(item[1], (x, y)), default=None)
    if near is not None and math.dist(near[1], (x, y)) <= radius:
        return Target("location", near[0])
    best = min(((_along(shape, a, b, x, y), a, b) for a, b in shape.connections), default=None)
    if best is None or best[0][0] > radius:
        return None
    (_, at), a, b = best
    return Target("connection", a, b, round(at, 4))  # saved as tapped: resume gives the same answer


def _along(shape: BoardShape, a: str, b: str, x: float, y: float) -> tuple[float, float]:
    """Distance from (x, y) to the segment a-b, and where along it (0 at a)."""
    (ax, ay), (bx, by) = shape.locations[a], shape.locations[b]
    length2 = (bx - ax) ** 2 + (by - ay) ** 2 or 1e-12
    at = min(1.0, max(0.0, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / length2))
    return math.dist((x, y), (ax + at * (bx - ax), ay + at * (by - ay))), at


class LedCalibration:
    """The state machine: the LED being asked about and every answer so far
    (``None`` for a skipped LED)."""

    def __init__(self, shape: BoardShape, count: int, answers: Mapping[int, Target | None] | None = None,
                 index: int = 0) -> None:
        if not 1 <= count <= 2700:
            raise LedCalibrationError(f"the strip must have 1 to 2700 LEDs, not {count}")
        self.shape = shape
        self.count = count
        self.answers: dict[int, Target | None] = dict(answers or {})
        self._index: int | None = min(max(index, 0), count - 1)

    @property
    def index(self) -> int | None:
        """The LED to light now; None once every LED has an answer (review)."""
        return self._index

    @property
    def done(self) -> bool:
        return len(self.answers) == self.count

    def answer(self, target: Target) -> None:
        _check(target, self.shape)
        self._settle(target)

    def skip(self) -> None:
        self._settle(None)

    def back(self) -> None:
        current = self.count if self._index is None else self._index
        self._index = max(0, current - 1)

    def goto(self, index: int) -> None:
        if not 0 <= index < self.count:
            raise LedCalibrationError(f"there is no LED {index}: the strip has {self.count}")
        self._index = index

    def _settle(self, target: Target | None) -> None:
        if self._index is None:
            raise LedCalibrationError("every LED is answered: go to one to change it, or finish")
        self.answers[self._index] = target
        self._index = self._next_open(self._index)

    def _next_open(self, after: int) -> int | None:
        """The next LED without an answer, wrapping round; None when all have one."""
        for step in range(1, self.count + 1):
            candidate = (after + step) % self.count
            if candidate not in self.answers:
                return candidate
        return None

    # -- the result ------------------------------------------------------------------------
    def layout(self) -> Layout:
        """The layout so far, validated (``LayoutError`` lists every problem)."""
        return parse_layout(self.layout_plain(), self.shape)

    def problems(self) -> list[Problem]:
        try:
            self.layout()
        except LayoutError as trouble:
            return list(trouble.found)
        return []

    def layout_plain(self) -> dict[str, object]:
        answered = sorted((i, t) for i, t in self.answers.items() if t is not None)
        return {
            "format": FORMAT, "version": LAYOUT_VERSION, "board": self.shape.name, "count": self.count,
            "locations": _grouped(answered, "location", lambda t: t.name),
            "connections": _connections(answered),
            **{track: _stepped(answered, track) for track in self.shape.tracks},
            "mats": _grouped(answered, "mat", lambda t: t.name),
            "seats": _stepped(answered, "seat"),
        }

    def view(self) -> dict[str, object]:
        """What the tablet shows: where we are, how far, and what this LED was answered."""
        current = None if self._index is None else self.answers.get(self._index, "open")
        return {
            "board": self.shape.name, "count": self.count, "index": self._index, "done": self.done,
            "answered": sum(1 for t in self.answers.values() if t is not None),
            "skipped": sum(1 for t in self.answers.values() if t is None),
            "current": current.to_plain() if isinstance(current, Target) else current,
            "problems": [str(p) for p in self.problems()] if self.done else [],
        }

    # -- saving --------------------------------------------------------------------------------
    def to_plain(self) -> dict[str, object]:
        return {"format": PROGRESS_FORMAT, "version": VERSION, "board": self.shape.name, "count": self.count,
                "index": self._index,
                "answers": {str(i): None if t is None else t.to_plain() for i, t in sorted(self.answers.items())}}

    @classmethod
    def from_plain(cls, data: object, shape: BoardShape) -> "LedCalibration":
        if not isinstance(data, Mapping) or data.get("format") != PROGRESS_FORMAT or data.get("version") != VERSION:
            raise LedCalibrationError(f"not a saved LED calibration ({PROGRESS_FORMAT} version {VERSION})")
        if data.get("board") != shape.name:
            raise LedCalibrationError(f"this calibration is for {data.get('board')!r}, not {shape.name!r}")
        count, answers = data.get("count"), data.get("answers")
        if not isinstance(count, int) or not isinstance(answers, Mapping):
            raise LedCalibrationError("a saved calibration needs 'count' and 'answers'")
        parsed = {_led(key, count): None if value is None else target_from_plain(value, shape)
                  for key, value in answers.items()}
        calibration = cls(shape, count, parsed)
        index = data.get("index")
        calibration._index = index if isinstance(index, int) and 0 <= index < count else calibration._next_open(-1)
        return calibration


def _led(key: object, count: int) -> int:
    if not isinstance(key, str) or not key.isdigit() or not int(key) < count:
        raise LedCalibrationError(f"{key!r} is not an LED of a {count}-LED strip")
    return int(key)


Answered = list[tuple[int, Target]]


def _grouped(answered: Answered, kind: str, key: Callable[[Target], str]) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for index, target in answered:
        if target.kind == kind:
            found.setdefault(key(target), []).append(index)
    return found


def _stepped(answered: Answered, kind: str) -> list[list[int]]:
    steps = [t.step for _, t in answered if t.kind == kind]
    found: list[list[int]] = [[] for _ in range(max(steps) + 1)] if steps else []
    for index, target in answered:
        if target.kind == kind:
            found[target.step].append(index)
    return found


def _connections(answered: Answered) -> list[dict[str, object]]:
    """Group by connection, facing the way it was first tapped, LEDs in order along it."""
    found: dict[frozenset[str], tuple[str, str, list[tuple[float, int]]]] = {}
    for index, target in answered:
        if target.kind != "connection":
            continue
        a, b, leds = found.setdefault(frozenset((target.name, target.to)), (target.name, target.to, []))
        leds.append((target.at if target.name == a else 1.0 - target.at, index))
    return [{"from": a, "to": b, "leds": [i for _, i in sorted(leds)]} for a, b, leds in found.values()]


# -- the store ----------------------------------------------------------------------------------

class LedCalibrationStore:
    """Files under ``<state_dir>/calibration/``: ``leds-<board>.json`` (the layout
    in use), ``leds-<board>.previous.json`` (the one before) and
    ``leds-<board>.progress.json`` (a calibration under way)."""

    def __init__(self, state_dir: Path) -> None:
        self.folder = Path(state_dir) / "calibration"

    def _path(self, board: str, part: str = "") -> Path:
        return self.folder / f"leds-{board}{part}.json"

    def save_progress(self, calibration: LedCalibration) -> None:
        _write_json(self._path(calibration.shape.name, ".progress"), calibration.to_plain())

    def load_progress(self, shape: BoardShape) -> LedCalibration | None:
        path = self._path(shape.name, ".progress")
        return LedCalibration.from_plain(_read_json(path), shape) if path.exists() else None

    def discard_progress(self, shape: BoardShape) -> None:
        self._path(shape.name, ".progress").unlink(missing_ok=True)

    def save_layout(self, layout: Layout, shape: BoardShape) -> Layout:
        """Validate, write the new one aside, then keep the current one as ``previous`` and put the
        new one in its place: a write the disk refuses leaves the layout in use as it was."""
        checked = parse_layout(layout.to_plain(), shape)
        current, previous = self.layout_paths(shape)
        fresh = current.with_name(f".{current.name}.new")
        _write_json(fresh, checked.to_plain())
        try:
            if current.exists():
                os.replace(current, previous)
            os.replace(fresh, current)
        except BaseException:
            fresh.unlink(missing_ok=True)
            raise
        return checked

    def layout_paths(self, shape: BoardShape) -> tuple[Path, Path]:
        """The layout in use and the one kept before it (a backup's restore swaps them itself)."""
        return self._path(shape.name), self._path(shape.name, ".previous")

    def layout(self, shape: BoardShape) -> Layout | None:
        """The owner's saved layout, or None (then the shipped default applies)."""
        path = self._path(shape.name)
        return load_layout(path, shape) if path.exists() else None

    def layout_or_default(self, shape: BoardShape) -> Layout:
        return self.layout(shape) or shipped_layout(shape)

    def export(self, shape: BoardShape) -> dict[str, object]:
        """The layout in use as JSON-ready data, for a backup file."""
        return self.layout_or_default(shape).to_plain()

    def restore(self, data: object, shape: BoardShape) -> Layout:
        """A backup (or any layout file) back in use, refused whole if invalid."""
        return self.save_layout(parse_layout(data, shape), shape)

    def revert(self, shape: BoardShape) -> Layout:
        previous = self._path(shape.name, ".previous")
        if not previous.exists():
            raise LedCalibrationError("there is no previous LED layout to go back to")
        return self.save_layout(load_layout(previous, shape), shape)


def _write_json(path: Path, data: object) -> None:
    """Atomic: a pulled plug leaves the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as problem:
        raise LedCalibrationError(f"cannot read {path}: {problem}") from None


def layout_in_use(store: LedCalibrationStore, shape: BoardShape) -> tuple[Layout, str]:
    """The layout to start the LEDs with: the owner's, else the shipped default.
    A saved layout that no longer validates (a pack update removed a location)
    falls back to the default, with the problem to show in the health view."""
    try:
        return store.layout_or_default(shape), ""
    except LayoutError as trouble:
        return shipped_layout(shape), f"the saved LED layout is invalid, using the default: {trouble}"


# -- the session the tablet drives ------------------------------------------------------------

class LedCalibrationSession:
    """A calibration tied to the LEDs and the store: every step saves progress
    and lights the next LED. ``light`` is ``LedBoard.light_only``; ``resume`` is
    ``LedBoard.resume`` (the game's picture comes back)."""

    def __init__(self, calibration: LedCalibration, store: LedCalibrationStore,
                 light: Callable[[int | None], None], resume: Callable[[], None]) -> None:
        self.calibration = calibration
        self.store = store
        self._light = light
        self._resume = resume
        self._step()

    def answer(self, target: object) -> dict[str, object]:
        self.calibration.answer(target_from_plain(target, self.calibration.shape))
        return self._step()

    def tap(self, x: float, y: float) -> dict[str, object]:
        """The owner tapped the board picture at (x, y)."""
        target = resolve_tap(self.calibration.shape, x, y)
        if target is None:
            raise LedCalibrationError("that tap is not near a location or a connection: tap closer, or skip")
        self.calibration.answer(target)
        return self._step()

    def skip(self) -> dict[str, object]:
        self.calibration.skip()
        return self._step()

    def back(self) -> dict[str, object]:
        self.calibration.back()
        return self._step()

    def goto(self, index: int) -> dict[str, object]:
        self.calibration.goto(index)
        return self._step()

    def finish(self) -> Layout:
        """Save the layout (refused with every problem if invalid) and end."""
        layout = self.store.save_layout(self.calibration.layout(), self.calibration.shape)
        self.store.discard_progress(self.calibration.shape)
        self._resume()
        return layout

    def cancel(self) -> None:
        """Stop for now; the progress stays saved and resumes next time."""
        self._resume()

    def _step(self) -> dict[str, object]:
        self.store.save_progress(self.calibration)
        self._light(self.calibration.index)
        return self.calibration.view()


def start_session(shape: BoardShape, count: int, store: LedCalibrationStore,
                  light: Callable[[int | None], None], resume: Callable[[], None]) -> LedCalibrationSession:
    """Resume the saved calibration for this board and strip size, or begin one."""
    saved = store.load_progress(shape)
    calibration = saved if saved is not None and saved.count == count else LedCalibration(shape, count)
    return LedCalibrationSession(calibration, store, light, resume)


__all__ = ["LedCalibrationError", "LedCalibration", "LedCalibrationSession", "LedCalibrationStore", "Target", "kinds",
           "layout_in_use", "resolve_tap", "start_session", "target_from_plain"]
