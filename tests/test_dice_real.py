"""The reader on real photos: calibrate through the owner's procedure, then read.

The dicetower set has one photo per face (a d20 with numerals; an orange d6
with numerals), top-down into a black tray, with a photo of the empty tray.
With one photo per face there is no second real photo to read, so "the rest"
are new throws made from each photo: the die cut out, turned to any angle,
moved elsewhere in the tray, under other light (brighter, dimmer, warmer,
colder, gamma), with noise, blur and sometimes a glare spot. The originals
are read too. Target (issue 5): accepted reads at least 99 % right, at most
10 % refused.

The pip d6 set (nell-byler: many dice of many colours, phone photos from
above) is calibrated on its train split and read on its test split (each
labelled box taken as the die), with the pip network's view beside the
count and the photos, as photographed and in new throws (each die turned
within its photo, other light). As photographed it meets the target against
the faces as seen (two labels of the test split are wrong: ``LABEL_FIXES``);
a third misread would fail it. In new throws it meets it with no die to spare:
61 refused of 616, the most the target allows (docs/dice.md, "Measured
accuracy").
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

from calibration.dice import KIND_FACES, DiceCalibration, DieProfile, FaceShot, build_profile
from dice_fixtures import (MAX_REFUSAL, MIN_ACCURACY, Score, nell_byler_crops, nell_byler_throw, nell_byler_throws,
                           read_throws, synthetic_calibration, tower_photo, tower_reader)
from hardware.dice.imaging import crop_around
from hardware.dice.pips import die_fill
from hardware.dice.reader import DiceReader, Expect, ReaderSettings
from hardware.dice.segment import middle_of
from hardware.dice.segment import Blob
from hardware.dice.synthetic import Changes, carry, photo_changes


def photo_of(die: str):  # type: ignore[no-untyped-def]
    return lambda label: tower_photo(die, label)


def test_d20_real_photos_and_new_throws_meet_the_target() -> None:
    score = read_throws(tower_reader(("d20",)), "d20", KIND_FACES["d20"], throws=6, seed=20, photo=photo_of("d20"))
    assert score.total == 20 * 7
    assert score.accuracy >= MIN_ACCURACY and score.refusal <= MAX_REFUSAL, str(score)


def test_d6_numeral_real_photos_and_new_throws_meet_the_target() -> None:
    score = read_throws(tower_reader(("d6",)), "d6", KIND_FACES["d6"], throws=12, seed=6, photo=photo_of("d6"))
    assert score.accuracy >= MIN_ACCURACY and score.refusal <= MAX_REFUSAL, str(score)


def test_the_d20_in_a_dimmer_warmer_room() -> None:
    """Light changes beyond the usual: a third darker or brighter, a strong colour cast."""
    harsh = Changes(gain=(0.65, 1.35), gamma=(0.75, 1.35), cast=0.15, noise=6.0, blur=1.2, glare=0.0)
    score = read_throws(tower_reader(("d20",)), "d20", KIND_FACES["d20"], throws=3, seed=7, photo=photo_of("d20"),
                        changes=harsh)
    assert score.wrong == 0, str(score)
    assert score.refusal <= MAX_REFUSAL, str(score)


def test_two_real_dice_touching_are_split_and_told_apart() -> None:
    """A d20 and a d6 from the real photos lying against each other: two dice, each kind and face read."""
    reader = tower_reader(("d20", "d6"))
    rng = np.random.default_rng(3)
    score = Score()
    for value20, value6 in [("7", "3"), ("16", "5"), ("20", "1"), ("11", "6"), ("2", "4"), ("14", "2")]:
        view, truth = _touching_pair(reader, value20, value6, rng)
        read = reader.read_view(view)
        kinds = sorted(d.kind or "?" for d in read.dice)
        assert kinds == ["d20", "d6"], f"{value20}+{value6}: found {kinds}"
        for die in read.dice:
            score.add(truth[die.kind or "?"], die.label, die.accepted)
    assert score.wrong == 0, str(score)
    assert score.refusal <= 2 / 12, str(score)


def _touching_pair(reader: DiceReader, value20: str, value6: str,
                   rng: np.random.Generator) -> tuple[np.ndarray, dict[str, str]]:
    tray = reader.calibration.tray
    d20_view, d6_view = tray.warp(tower_photo("d20", value20)), tray.warp(tower_photo("d6", value6))
    d20 = max(reader.finder.find(d20_view).blobs, key=lambda b: b.area)
    d6 = max(reader.finder.find(d6_view).blobs, key=lambda b: b.area)
    direction = rng.uniform(0, 2 * math.pi)
    gap = 0.46 * (d20.diameter + d6.diameter)  # a d20's corners and a d6's edge overlap in plan: they touch
    target = (d20.centre[0] + gap * math.cos(direction), d20.centre[1] + gap * math.sin(direction))
    view = reader.calibration.background.copy()
    carry(view, d20_view, d20.centre, d20.diameter, d20.centre, float(rng.uniform(0, 360)), shape=_shape(d20_view, d20))
    carry(view, d6_view, d6.centre, d6.diameter, target, float(rng.uniform(0, 360)), shape=_shape(d6_view, d6))
    return photo_changes(view, rng, Changes(glare=0.0)), {"d20": value20, "d6": value6}


def _shape(view: np.ndarray, blob: Blob) -> np.ndarray:
    """The die's own pixels (its found region, one pixel wider) as a 0/255 mask of the view."""
    mask = np.zeros(view.shape[:2], np.uint8)
    x, y, w, h = blob.box
    mask[y:y + h, x:x + w] = blob.mask.astype(np.uint8) * 255
    return np.asarray(cv2.dilate(mask, np.ones((3, 3), np.uint8)), dtype=np.uint8)


def test_a_die_of_another_kind_in_the_tray_is_ignored() -> None:
    """The engine asks for the d20; an orange d6 left in the tray is not read as part of the roll."""
    reader = tower_reader(("d20", "d6"))
    tray = reader.calibration.tray
    d20_view, d6_view = tray.warp(tower_photo("d20", "9")), tray.warp(tower_photo("d6", "2"))
    d6 = max(reader.finder.find(d6_view).blobs, key=lambda b: b.area)
    view = d20_view.copy()
    carry(view, d6_view, d6.centre, d6.diameter, (60.0, 60.0), 30.0)
    read = reader.read_view(view, Expect("d20", 1))
    assert read.answer() == [9]
    assert [d.kind for d in read.others] == ["d6"]


# -- pip d6: the public set of many dice ---------------------------------------------------------

#: Test-split boxes whose label is not the die's top face, found by looking at every one of the
#: 308 test crops, side by side by label, before the reader with the pip network read any of
#: them: (photo, box number in its label file) -> (label given, face seen). docs/dice.md shows both.
LABEL_FIXES: dict[tuple[str, int], tuple[str, str]] = {
    ("IMG_20191209_095555", 5): ("5", "6"),  # two rows of three white pips on a purple die
    ("IMG_20191209_100002", 2): ("2", "3"),  # three yellow pips on a diagonal, green marbled die
}


def _pip_profile(crops: list[tuple[str, np.ndarray, tuple[str, int]]]) -> DieProfile:
    shots, blobs = [], []
    for label, crop, _ in crops:
        blob = middle_of(crop)
        shots.append(FaceShot(label, crop_around(crop, blob.centre, blob.diameter, 1.5), blob.diameter))
        blobs.append(blob)
    return build_profile("d6", "pips", shots, blobs)


def test_the_label_fixes_name_real_boxes_with_the_label_they_had() -> None:
    """A fix that no longer matches the dataset (moved, relabelled upstream) must not pass silently."""
    given = {where: label for label, _, where in nell_byler_crops("test")}
    for where, (label, _) in LABEL_FIXES.items():
        assert given.get(where) == label, where


@functools.lru_cache(maxsize=1)
def _pip_public_reader() -> DiceReader:
    """Calibrated on the train split (at most 40 boxes per face), once for both tests (reads
    change nothing in a reader); only the d6 profile matters."""
    profile = _pip_profile(nell_byler_crops("train", per_face=40))
    assert set(profile.net_faces) == set(KIND_FACES["d6"])  # the network reads every face of the train photos
    base = synthetic_calibration()  # only for its tray fields: crops are read one by one
    return DiceReader(DiceCalibration(base.tray, base.background, base.threshold, {"d6": profile}))


def _pip_scores(reader: DiceReader, crops: list[tuple[str, np.ndarray, tuple[str, int]]]) -> tuple[Score, Score]:
    """Against the faces as seen (``LABEL_FIXES``) and against the labels as given."""
    seen, as_given = Score(), Score()
    for label, crop, where in crops:
        read = reader.read_die(crop, middle_of(crop), "d6")
        seen.add(LABEL_FIXES.get(where, (label, label))[1], read.label, read.accepted)
        as_given.add(label, read.label, read.accepted)
    return seen, as_given


#: Train-split dice outside the reader's calibration boxes that the first count refuses (a
#: slanted six, a three on a slanted white die, a marbled five) and a recount reads, with
#: their faces as seen.
RECOUNTED = {("IMG_20191208_112127", 0): "6", ("IMG_20191208_112251", 5): "3", ("IMG_20191208_112458", 1): "5"}


def test_a_pip_die_refused_at_its_calibrated_size_is_read_by_a_recount() -> None:
    reader = _pip_public_reader()
    first_count_only = DiceReader(reader.calibration, ReaderSettings(recounts=()), reader.pip_net)
    dice = {where: crop for _, crop, where in nell_byler_crops("train") if where in RECOUNTED}
    assert set(dice) == set(RECOUNTED)
    for where, face in RECOUNTED.items():
        blob = middle_of(dice[where])
        assert not first_count_only.read_die(dice[where], blob, "d6").accepted, where
        read = reader.read_die(dice[where], blob, "d6")
        assert (read.accepted, read.label) == (True, face), (where, read.why)


#: Train-split dice outside the calibration boxes, as photographed (seed None) or in a new throw
#: (``nell_byler_throw``), whose recounts agree on a one, two or four, the faces a recount gives
#: only with the pip network's backing; with their faces.
UNBARRED = {(("IMG_20191208_112005", 8), None): "1", (("IMG_20191209_095701", 2), None): "2",
            (("IMG_20191209_095604", 3), 11): "4", (("IMG_20191209_095641", 3), 1): "4"}


def test_a_recounted_one_two_or_four_is_read_only_with_the_pip_networks_backing() -> None:
    reader = _pip_public_reader()
    unbacked = DiceReader(reader.calibration, ReaderSettings(net_unbars=1.01), reader.pip_net)
    photographed = {where: crop for _, crop, where in nell_byler_crops("train")
                    if (where, None) in UNBARRED}
    for (where, seed), face in UNBARRED.items():
        crop = photographed[where] if seed is None else nell_byler_throw("train", where, seed)[1]
        blob = middle_of(crop)
        assert not unbacked.read_die(crop, blob, "d6").accepted, where
        read = reader.read_die(crop, blob, "d6")
        assert (read.accepted, read.label) == (True, face), (where, read.why)


def test_a_region_found_on_part_of_a_die_is_not_taken_for_the_whole_die() -> None:
    """``die_fill``, which keeps the network from unbarring a face of a die found in part: on the
    real train dice of the calibration, a region half the die's size and off its middle reaches
    past the die almost always; the labelled box mostly holds it (the rest: dice the counter
    cannot split from the tray, whose faces simply stay barred)."""
    most = ReaderSettings().whole_die
    whole, part = [], []
    for _, crop, _ in nell_byler_crops("train", per_face=40):
        blob = middle_of(crop)
        whole.append(die_fill(crop, blob.centre, blob.diameter) <= most)
        part.append(die_fill(crop, (blob.centre[0] + 0.2 * blob.diameter, blob.centre[1]), 0.5 * blob.diameter) <= most)
    assert sum(part) <= 0.02 * len(part) and sum(whole) >= 0.7 * len(whole), (sum(part), sum(whole), len(whole))


def test_pip_d6_public_set_meets_the_target() -> None:
    """Every box of the test split read as it was photographed. Each labelled box is read as the
    die (the dataset gives the boxes: finding dice is tested on the tray sets above), so this
    measures reading the face, not finding it. The target holds against the faces as seen
    (``LABEL_FIXES``); the score against the labels as given is shown."""
    seen, as_given = _pip_scores(_pip_public_reader(), nell_byler_crops("test"))
    assert seen.accuracy >= MIN_ACCURACY and seen.refusal <= MAX_REFUSAL, f"{seen}; as labelled: {as_given}"


def test_pip_d6_public_set_new_throws_meet_the_target() -> None:
    """The issue's "augmented versions" for the pip set: every die of the test split turned to a
    new angle within its photo (neighbours and shadows turn with it) and put in other light,
    twice, each read in its labelled box as above. Measured 99.28 % of accepted reads right (4
    wrong of 555) and 9.90 % refused (61 of 616): no die to spare (docs/dice.md)."""
    seen, as_given = _pip_scores(_pip_public_reader(), nell_byler_throws("test", throws=2, seed=66))
    assert seen.accuracy >= MIN_ACCURACY and seen.refusal <= MAX_REFUSAL, f"{seen}; as labelled: {as_given}"
