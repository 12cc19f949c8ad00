"""A refused pip die counted again at other pip sizes and along another colour (``recounted``),
and the pip network's backing of the faces a recount otherwise never gives (``barred``);
docs/dice.md, "Recount".

The rule is held here on decisions as the reader makes them; that it turns a real refused
die into a right read is shown on a real photo in test_dice_real.py, and what it does to
the public set's figures in the real-photo tests there.
"""

from __future__ import annotations

from collections.abc import Callable

from hardware.dice.pipnet import NetView
from hardware.dice.reader import Decision, ReaderSettings, barred, cannot_agree, recounted

NEVER = ReaderSettings().never_recounted


def _taken(face: str, confidence: float = 0.6) -> Decision:
    return True, face, confidence, ""


def _refused(face: str) -> Decision:
    return False, face, 0.0, f"unsure of the pips ({face}?)"


def test_recounts_that_agree_give_their_face() -> None:
    assert recounted([_taken("5", 0.4), _refused("4"), _taken("5", 0.7), _refused("")], NEVER) == _taken("5", 0.4)
    assert recounted([_refused("3"), _taken("6")], NEVER) == _taken("6")


def test_recounts_that_disagree_leave_the_die_refused() -> None:
    assert recounted([_taken("5"), _taken("6")], NEVER) is None
    assert recounted([_taken("3"), _taken("1")], NEVER) is None  # a one is never taken, but it still disagrees


def test_no_recount_taken_leaves_the_die_refused() -> None:
    assert recounted([_refused("5"), _refused("6")], NEVER) is None
    assert recounted([], NEVER) is None


def test_a_recount_never_gives_a_one_a_two_or_a_four() -> None:
    """What a hidden middle pip (three, five) or a misfound die (one pip) looks like."""
    for face in ("1", "2", "4"):
        assert recounted([_taken(face), _taken(face)], NEVER) is None
    assert recounted([_taken("2")], frozenset()) == _taken("2")  # any face it is not told to refuse


def test_the_reader_recounts_at_smaller_and_larger_pips_and_along_another_colour() -> None:
    recounts = ReaderSettings().recounts
    assert (1.0, 0) not in recounts  # that is the first count
    assert any(size < 1.0 for size, _ in recounts) and any(size > 1.0 for size, _ in recounts)
    assert any(rank > 0 for _, rank in recounts)


def test_recounting_stops_once_no_face_can_be_agreed() -> None:
    """What ``cannot_agree`` says ends the recounts early; anything it lets go on can still agree."""
    assert cannot_agree([_taken("5"), _taken("6")], NEVER)
    assert cannot_agree([_refused("5"), _taken("2")], NEVER)
    assert not cannot_agree([_taken("5"), _refused("6"), _taken("5")], NEVER)
    assert not cannot_agree([_refused("2")], NEVER)
    rest: list[list[Decision]] = [[], [_taken("5")], [_taken("6")], [_refused("3")]]
    for stopped in ([_taken("5"), _taken("6")], [_taken("4")]):
        assert all(recounted(stopped + more, NEVER) is None for more in rest)


def _whole(answer: bool) -> Callable[[], bool]:
    return lambda: answer


def _never_asked() -> bool:
    raise AssertionError("the whole-die check is asked only when the network backs a barred face")


def test_the_pip_network_unbars_a_face_it_names_surely_on_a_whole_die() -> None:
    """A one, two or four the network gives at least ``net_unbars`` chance may be recounted, if the
    found region holds the whole die; a face it doubts, a die found in part (it shows the network
    one pip too), or no view, leave the faces barred."""
    settings = ReaderSettings()
    four_surely = NetView((0.0, 0.05, 0.05, 0.85, 0.05, 0.0))
    unbarred = barred(settings, four_surely, _whole(True))
    assert unbarred == NEVER - {"4"}
    assert recounted([_taken("4"), _refused(""), _taken("4")], unbarred) == _taken("4")
    assert barred(settings, four_surely, _whole(False)) == NEVER
    four_or_five = NetView((0.0, 0.0, 0.05, 0.55, 0.4, 0.0))
    assert barred(settings, four_or_five, _never_asked) == NEVER
    assert recounted([_taken("4")], barred(settings, four_or_five, _never_asked)) is None
    assert cannot_agree([_taken("4")], barred(settings, four_or_five, _never_asked))
    assert not cannot_agree([_taken("4")], unbarred)
    for face in ("1", "2"):
        surely = NetView(tuple(0.96 if str(count) == face else 0.008 for count in range(1, 7)))
        assert barred(settings, surely, _whole(True)) == NEVER - {face}
        assert barred(settings, surely, _whole(False)) == NEVER
    assert barred(settings, None, _never_asked) == NEVER
