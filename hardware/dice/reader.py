"""The dice reader: a camera frame in, each die's kind and top face out, or a refusal.

Steps (docs/dice.md has the why of each): the frame is turned into the
top-down tray view (calibrated homography); dice are found against the
empty-tray reference, touching ones split; each is matched to the nearest
calibrated kind; its top face is compared with that kind's reference photos
in any turn; pip dice get a second opinion from counting pips. Every read
carries a confidence (how far the best face beats the best other face) and is
refused below the die's threshold, with the reason: a wrong value costs the
players more than a tap on the tablet.
"""

from __future__ import annotations

import base64
import functools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.engine.dice import DICE

from .calibrated import KIND_NAMES, KIND_PLURALS, DiceCalibration, DieProfile
from .imaging import Image, Point, crop_around, encode_png
from .kinds import KindModel, classify
from .learned import FaceLearner, LearnedView, LearnSettings
from .looks import Tolerance, look_of
from .pipnet import NetView, PipNet, PipNetError, shipped_net
from .pips import PipCount, PipSettings, count_pips, die_fill
from .segment import Blob, TrayFinder
from .templates import BLANK, FaceScores, MatchSettings, TemplateMatcher

CROP_SIDE = 96  # px of the crops sent to the tablet
log = logging.getLogger(__name__)
Decision = tuple[bool, str, float, str]  # accepted, face, confidence, why


@dataclass(frozen=True)
class ReaderSettings:
    """``blank_at``/``marked_at``: blankness (0..1) at or above which a face is
    blank, at or below which it is marked; between them the die is refused.
    ``pip_confidence``: the least pip-count confidence a pip die is accepted on;
    ``pip_alone``: a count this sure is accepted even if the photos prefer other faces;
    ``net_veto``: a count the pip network gives less than this chance is refused;
    ``net_backing``: a count it gives at least this chance is accepted however unsure the
    count (if any face fits at all). Both were chosen on the train split of the public
    pip set (docs/dice.md): the middle of a flat stretch (veto 0.2-0.3, backing 0.5).
    ``recounts``: how a refused pip die is counted again, each as (pip length against the
    calibrated one, ``PipSettings.colour_rank``); ``()``: never. ``never_recounted``: faces
    a recount gives only if the pip network gives that face at least ``net_unbars`` chance and
    the found region holds the whole die (``pips.die_fill`` at most ``whole_die``); see
    ``barred``. Both chosen on the train folds of the public pip set (docs/dice.md), each the
    middle of the stretch where no recount read wrong (0.7-0.9; 0.95-1.15).
    ``learn``: the learned reader's settings; ``agree``: a face is taken only where it and the
    learned reader agree, for the faces it speaks for (False: it is not asked, as before it).
    ``tolerance``: how far a die may look from its face photos (``looks``)."""

    match: MatchSettings = MatchSettings()
    blank_at: float = 0.7
    marked_at: float = 0.3
    pip_confidence: float = 0.2
    pip_alone: float = 0.45
    net_veto: float = 0.2
    net_backing: float = 0.5
    recounts: tuple[tuple[float, int], ...] = ((0.7, 0), (0.85, 0), (1.2, 0), (1.4, 0), (1.0, 1))
    never_recounted: frozenset[str] = frozenset({"1", "2", "4"})
    net_unbars: float = 0.8
    whole_die: float = 1.05
    learn: LearnSettings = LearnSettings()
    agree: bool = True
    tolerance: Tolerance = Tolerance()


@dataclass(frozen=True)
class Expect:
    """What the engine asked for: ``count`` dice of ``kind`` ("d20", "monster", "d6")."""

    kind: str
    count: int


@dataclass(frozen=True)
class DieRead:
    kind: str | None  # None: not one of the calibrated dice
    label: str  # the best face ("" if none); the value only when accepted
    accepted: bool
    confidence: float
    score: float
    runner_up: str
    centre: Point
    diameter: float
    crop: Image = field(repr=False, compare=False)
    why: str = ""

    @property
    def value(self) -> int | str | None:
        """The face as the engine takes it (d20/d6: a number; Monster die: hit, pow, blank)."""
        if not self.accepted or self.kind is None:
            return None
        return engine_value(self.kind, self.label)

    def to_plain(self, crops: bool = True) -> dict[str, object]:
        plain: dict[str, object] = {
            "kind": self.kind, "value": self.value, "label": self.label, "accepted": self.accepted,
            "confidence": round(self.confidence, 3), "runner_up": self.runner_up, "why": self.why,
            "centre": [round(self.centre[0], 1), round(self.centre[1], 1)]}
        if crops:
            plain["crop"] = crop_data_url(self.crop)
        return plain


@dataclass(frozen=True)
class TrayRead:
    """One settled tray. ``problem``: why nothing could be read (a hand, the wrong number of
    dice, a camera that moved); ``moved``: the camera moved since the tray was calibrated, so
    nothing is read until it is calibrated again; ``off``: why the camera does not answer this
    roll by itself although it read it (the die's self-test has not passed)."""

    dice: tuple[DieRead, ...]  # of the kind asked for (all dice when nothing was asked)
    others: tuple[DieRead, ...] = ()  # other kinds and things that are not dice: ignored
    expect: Expect | None = None
    problem: str = ""
    millis: float = 0.0
    moved: bool = False
    off: str = ""

    def answer(self) -> list[int | str] | None:
        """The values to answer the prompt with, or None if the tablet must ask."""
        if self.problem or self.off or self.expect is None or any(not d.accepted for d in self.dice):
            return None
        values = [d.value for d in self.dice]
        return [v for v in values if v is not None]

    def to_plain(self, crops: bool = True) -> dict[str, object]:
        return {"dice": [d.to_plain(crops) for d in self.dice], "answer": self.answer(), "problem": self.problem,
                "ignored": len(self.others), "ms": round(self.millis, 1), "moved": self.moved, "off": self.off,
                "expect": None if self.expect is None else {"kind": self.expect.kind, "count": self.expect.count}}


def engine_value(kind: str, label: str) -> int | str:
    """What the rules take for a face read by its label (the die-kind registry says: "20" -> 20, "hit")."""
    return DICE[kind].value_of(label)


def crop_data_url(image: Image) -> str:
    """A small PNG of a die as a data: URL, ready for an <img> on the tablet."""
    side = max(image.shape[:2])
    if side > CROP_SIDE:
        scale = CROP_SIDE / side
        image = np.asarray(cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), dtype=np.uint8)
    return "data:image/png;base64," + base64.b64encode(encode_png(image)).decode("ascii")


class DiceReader:
    """Reads trays with one calibration; build once (it turns every reference), read often."""

    def __init__(self, calibration: DiceCalibration, settings: ReaderSettings = ReaderSettings(),
                 pip_net: PipNet | None = None) -> None:
        self.calibration = calibration
        self.settings = settings
        needs_net = any(p.net_faces for p in calibration.profiles.values())
        self.pip_net = (pip_net or _shipped_or_none()) if needs_net else None
        self.finder = TrayFinder(calibration.background, calibration.find_settings(), calibration.tray.inside())
        self.models = [KindModel(p.kind, p.diameter, p.fill, p.colour) for p in calibration.profiles.values()]
        self.matchers = {kind: TemplateMatcher(p.references(), settings.match)
                         for kind, p in calibration.profiles.items()}
        self.learners = {kind: FaceLearner(p.references(), self.matchers[kind].axis, settings.learn)
                         for kind, p in calibration.profiles.items() if p.learned_faces and settings.agree}

    def can_read(self, kind: str) -> bool:
        return kind in self.matchers

    def read(self, frame: Image, expect: Expect | None = None) -> TrayRead:
        """Read a camera frame: first whether it is the calibrated camera's view of the calibrated
        tray (size, and the tray's edges where they were), then the tray view."""
        start = time.perf_counter()
        height, width = frame.shape[:2]
        if (width, height) != self.calibration.tray.frame_size:
            size = self.calibration.tray.frame_size
            return TrayRead((), (), expect, f"the camera gives {width}x{height} pictures but the tray was "
                            f"calibrated on {size[0]}x{size[1]}: calibrate the tray again", _since(start), moved=True)
        scene = self.calibration.scene.check(frame) if self.calibration.scene is not None else None
        if scene is not None and scene.moved:
            return TrayRead((), (), expect, scene.why, _since(start), moved=True)
        return self.read_view(self.calibration.tray.warp(frame), expect)

    def read_view(self, view: Image, expect: Expect | None = None) -> TrayRead:
        """Read a top-down tray view: every die found, kept or ignored by what was asked; a die of
        the kind asked for that does not look like its face photos is refused, saying why."""
        start = time.perf_counter()
        if expect is not None and not self.can_read(expect.kind):
            return TrayRead((), (), expect, f"the {KIND_NAMES.get(expect.kind, expect.kind)} is not calibrated")
        found = self.finder.find(view)
        reads = [self._looked_at(view, blob, expect) for blob in found.blobs]
        wanted = tuple(r for r in reads if expect is None or r.kind == expect.kind)
        others = tuple(r for r in reads if not (expect is None or r.kind == expect.kind))
        problem = found.problem or _count_problem(wanted, expect)
        return TrayRead(wanted, others, expect, problem, _since(start), off=self._off(expect))

    def _looked_at(self, view: Image, blob: Blob, expect: Expect | None) -> DieRead:
        """A found region read, unless it is the kind asked for and does not look like it."""
        kind = classify(blob, self.models).kind
        profile = self.calibration.profiles.get(kind) if kind is not None else None
        if profile is None or profile.looks is None or (expect is not None and kind != expect.kind):
            return self.read_die(view, blob, kind, classified=True)
        look = look_of(view, blob, self.finder.settings.margin + 2, self.finder.rim,
                       self.calibration.tray.off_axis(blob.centre))
        why = profile.looks.problem(look,
                                    KIND_NAMES.get(profile.kind, profile.kind), self.settings.tolerance)
        if why:
            return DieRead(profile.kind, "", False, 0.0, 0.0, "", blob.centre, blob.diameter,
                           crop_around(view, blob.centre, blob.diameter, 1.3), why)
        return self.read_die(view, blob, kind, classified=True)

    def _off(self, expect: Expect | None) -> str:
        """Why the camera may not answer a roll of the kind asked for by itself ("" if it may)."""
        profile = self.calibration.profiles.get(expect.kind) if expect is not None else None
        if profile is None or profile.automatic:
            return ""
        name = KIND_NAMES.get(profile.kind, profile.kind)
        if profile.self_test is None:
            return f"the {name} has not had its self-test yet (Dice setup): confirm the dice on the tablet"
        advice = f" ({profile.self_test.advice[0]})" if profile.self_test.advice else ""
        return f"the {name}'s self-test did not pass{advice}: confirm the dice on the tablet"

    def read_die(self, view: Image, blob: Blob, kind: str | None = None, classified: bool = False) -> DieRead:
        """One found region: which kind (unless given; ``classified``: None means not a die),
        which face, how sure."""
        crop = crop_around(view, blob.centre, blob.diameter, 1.3)
        kind = kind if kind is not None or classified else classify(blob, self.models).kind
        if kind is None:
            return DieRead(None, "", False, 0.0, 0.0, "", blob.centre, blob.diameter, crop,
                           "not one of the calibrated dice")
        profile = self.calibration.profiles[kind]
        scores = self.matchers[kind].match(view, blob.centre, blob.diameter)
        pips = self._pips(profile, view, blob)
        net = self._net(profile, pips, view, blob)
        decision = decide(profile, scores, pips, self.settings, net)
        if not decision[0] and pips is not None:
            decision = self._recount(profile, scores, view, blob, net) or decision
        if decision[0] and kind in self.learners:
            decision = agreed(profile, decision, self.learners[kind].view(view, blob.centre, blob.diameter))
        accepted, label, confidence, why = decision
        return DieRead(kind, label, accepted, confidence, scores.score, scores.runner_up, blob.centre,
                       blob.diameter, crop, why)

    def _recount(self, profile: DieProfile, scores: FaceScores, view: Image, blob: Blob,
                 net: NetView | None) -> Decision | None:
        """A refused pip die counted again (``ReaderSettings.recounts``), each count judged as
        the first was (with the network's view, taken at most once); see ``recounted``."""
        decisions: list[Decision] = []
        never = self.settings.never_recounted
        whole = functools.cache(lambda: die_fill(view, blob.centre, blob.diameter) <= self.settings.whole_die)
        for grow, colour_rank in self.settings.recounts:
            pips = self._pips(profile, view, blob, grow, colour_rank)
            speaks = pips is not None and str(pips.count) in profile.net_faces
            net = net or (self._net(profile, pips, view, blob) if speaks else None)
            decisions.append(decide(profile, scores, pips, self.settings, net if speaks else None))
            never = barred(self.settings, net, whole)
            if cannot_agree(decisions, never):
                break  # the rest cannot change the outcome: spare their time
        return recounted(decisions, never)

    def _pips(self, profile: DieProfile, view: Image, blob: Blob, grow: float = 1.0,
              colour_rank: int = 0) -> PipCount | None:
        """The count at the calibrated pip size, or lengths ``grow`` times it (a recount)."""
        if profile.pip_area is None:
            return None
        settings = PipSettings(pip_area=profile.pip_area * grow * grow, colour_rank=colour_rank)
        return count_pips(view, blob.centre, blob.diameter, settings, blob.mask, (blob.box[0], blob.box[1]))

    def _net(self, profile: DieProfile, pips: PipCount | None, view: Image, blob: Blob) -> NetView | None:
        """The pip network's view, for a count of one of the faces it reads on this die."""
        if self.pip_net is None or pips is None or str(pips.count) not in profile.net_faces:
            return None
        return self.pip_net.view(view, blob.centre, blob.diameter)


def _since(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0


def agreed(profile: DieProfile, decision: Decision, learned: LearnedView) -> Decision:
    """An accepted read stands only if the learned reader names the same face, where it speaks for
    the face read or for the face it sees itself (``DieProfile.learned_faces``); a blank face is
    told by its ink energy, not by marks, so the learned reader (which learns marks) has no say.

    Why: the template match and the learned reader see the face differently (ink lined up
    against gradients learned to tell the faces apart), so they seldom err together; on the
    faces whose held-out photos it reads right, a disagreement is a die to ask about."""
    accepted, label, confidence, why = decision
    speaks = label in profile.learned_faces or learned.label in profile.learned_faces
    if not accepted or not speaks or learned.label == label or label == BLANK:
        return decision
    return False, label, 0.0, f"the photos say {label} but the learned reader sees {learned.label}"


def _shipped_or_none() -> PipNet | None:
    """The shipped pip network, or None (pip dice read by count and photos alone, as before the
    network) with the why in the log, which the box health view shows: a damaged file must not
    stop a game's dice."""
    try:
        return shipped_net()
    except PipNetError as problem:
        log.warning("pip d6 are read without the pip network: %s", problem)
        return None


def barred(settings: ReaderSettings, net: NetView | None, whole: Callable[[], bool]) -> frozenset[str]:
    """The faces a recount may not give: ``never_recounted``, but for those the pip network gives
    at least ``net_unbars`` chance when ``whole()`` says the found region holds the whole die
    (asked only then). None without the network's view: a die it does not read."""
    if net is None:
        return settings.never_recounted
    backed = {face for face in settings.never_recounted if net.of(int(face)) >= settings.net_unbars}
    if not backed or not whole():
        return settings.never_recounted
    return settings.never_recounted - backed


def recounted(decisions: list[Decision], never: frozenset[str]) -> Decision | None:
    """The face a refused pip die's recounts agree on, or None: every recount the reader would
    accept must name the same face, and it must not be one of ``never``.

    Why recount: the pip size scales every length the counter uses, and the calibrated size
    misses a die found a little too large or small in the tray, a slanted die, or (on the
    public set, dozens of dice read with one calibration) a die with other pips; and the
    strongest mark, whose colour the pips are counted along, may be a glare spot. Why never a
    one, two or four: those are what other faces look like with a pip hidden or misfound (a
    glare spot or shadow on the middle pip turns a three into a two and a five into a four;
    a misfound region shows one pip), and a recount is a second chance, so it must not take
    the likeliest mistakes; unless the pip network, which sees the whole face rather than
    marks, also names that face surely, and the found region holds the whole die (``barred``).
    Measured on held-out train folds of the public pip set (docs/dice.md, "Recount"): about a
    fifth of the refused new throws became right reads, for one more wrong read in about 2800
    (a four read as a three under a glare spot); the network's backing about a seventh of the
    rest, none wrong. Without the whole-die check, dice found in their crops as a tray finder
    would find them misread: threes found in part, or not split from the tray.
    """
    taken = [decision for decision in decisions if decision[0]]
    if len({decision[1] for decision in taken}) != 1 or taken[0][1] in never:
        return None
    return min(taken, key=lambda decision: decision[2])  # as sure as its least sure recount


def cannot_agree(decisions: list[Decision], never: frozenset[str]) -> bool:
    """Whether ``recounted`` gives None however the remaining recounts go: two accepted recounts
    name different faces, or one names a face in ``never``."""
    taken = {decision[1] for decision in decisions if decision[0]}
    return len(taken) > 1 or bool(taken & never)


def decide(profile: DieProfile, scores: FaceScores, pips: PipCount | None,
           settings: ReaderSettings, net: NetView | None = None) -> Decision:
    """Accept or refuse one die: (accepted, face, confidence, why)."""
    if BLANK in profile.faces:
        blank = _blank_decision(scores, settings)
        if blank is not None:
            return blank
    accepted, why = _face_accepted(profile, scores)
    if pips is not None and net is not None:
        return _with_net(scores, pips, net, settings)
    if pips is not None:
        return _with_pips(scores, pips, settings)
    return accepted, scores.label, scores.margin, why


def _blank_decision(scores: FaceScores, settings: ReaderSettings) -> Decision | None:
    if scores.blankness >= settings.blank_at:
        return True, BLANK, scores.blankness, ""
    if scores.blankness > settings.marked_at:
        return False, scores.label, 1.0 - scores.blankness, "too faint to tell a blank face from a marked one"
    return None


def _face_accepted(profile: DieProfile, scores: FaceScores) -> tuple[bool, str]:
    if scores.score < profile.min_score:
        return False, f"looks like none of the face photos (best {scores.label}, {scores.score:.2f})"
    if scores.margin < profile.min_margin:
        return False, f"cannot tell {scores.label} from {scores.runner_up}"
    return True, ""


def _with_pips(scores: FaceScores, pips: PipCount, settings: ReaderSettings) -> Decision:
    """A pip die is accepted only on a sure count (pips on a d6's pattern, clearly stronger than
    any other mark) that the photo comparison backs as its best or second-best face, or on
    a very sure count alone.

    Why both: measured on the public pip set (docs/dice.md), the photo comparison alone is
    right about 4 times in 5 on dice other than the photographed one, and the count
    alone misses pips in shadow; their agreement is far surer than either.
    """
    counted = str(pips.count)
    if pips.confidence < settings.pip_confidence:
        return False, scores.label, 0.0, pips.why or f"unsure of the pips ({counted}?)"
    if counted in (scores.label, scores.runner_up) or pips.confidence >= settings.pip_alone:
        return True, counted, pips.confidence, ""
    return False, scores.label, 0.0, f"the photo says {scores.label} but I count {counted} pips"


def _with_net(scores: FaceScores, pips: PipCount, net: NetView,
              settings: ReaderSettings) -> Decision:
    """The count as ``_with_pips`` takes it, unless the pip network all but rules it out;
    and a count it backs strongly, even when the count alone is unsure.

    Why: the network errs where the counter does not (it sees the whole face, not
    marks), so it catches a glare spot or a side face's pips joining the count, and it
    vouches for a face whose pips are faint but in their place.
    """
    counted, chance = str(pips.count), net.of(pips.count)
    if chance < settings.net_veto:
        pips_word = "pip" if pips.count == 1 else "pips"
        return False, scores.label, 0.0, f"I count {counted} {pips_word}, but the face looks more like {net.best}"
    accepted = _with_pips(scores, pips, settings)
    if accepted[0] or pips.confidence <= 0.0 or chance < settings.net_backing:
        return accepted
    return True, counted, chance, ""


def _count_problem(dice: tuple[DieRead, ...], expect: Expect | None) -> str:
    if expect is None or len(dice) == expect.count:
        return ""
    names = KIND_NAMES if len(dice) == 1 else KIND_PLURALS
    return f"{expect.count} asked for, but I see {len(dice)} {names.get(expect.kind, expect.kind)} in the tray"
