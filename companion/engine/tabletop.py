"""What is physically on the table at one moment of a game: its **tabletop**.

Why: the box's promise is that the real table and the game never drift apart. A pack
declares, for any moment, what any player could see on the table (like a chess
position's piece placement beside the rules' state): each **piece** and where it is
(a place on the board, a player's hand or area, a pile, or off the board), **counts**
of pieces nobody tells apart (zombies on a square, cubes in a district, cards in a
hand), and **tracks** (Terror, day or night, hit points). Everything else is worked
out here, once, for every pack: the **changes** between two tabletops, in words a
player can act on, which are the list of pieces to put back after an undo, a phase's
summary, the setup checklist (the changes from an empty table) and a step's history.

A tabletop is public: a secret card in a hand is a count ("cards in Ana's hand"),
never its name, so a tabletop may go to every seat and screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping, Union

#: Where a piece is that is on no place of the table (in the box, out of the game).
OFF = ""
TrackValue = Union[int, str, bool, None]


@dataclass(frozen=True)
class Piece:
    """One piece players tell apart (a figure, a named card, a numbered token): ``name`` as the
    table says it ("the Mummy", "Zombie 3"), ``at`` a key of the tabletop's ``places`` (OFF: off
    the board)."""

    name: str
    at: str = OFF


@dataclass(frozen=True)
class Count:
    """How many pieces of one kind lie at one place (``noun`` for one, ``plural`` for several)."""

    noun: str
    plural: str
    at: str
    value: int


@dataclass(frozen=True)
class Track:
    """A marker on a track or a setting of the table (Terror 3, night, 2 hit points)."""

    name: str
    value: TrackValue


@dataclass(frozen=True)
class Tabletop:
    """``places``: where-key -> words ("the Crypt", "Ana's hand", "the Haversack"). Keys the
    pieces and counts use must be named here; OFF needs no name."""

    places: Mapping[str, str] = field(default_factory=dict)
    pieces: Mapping[str, Piece] = field(default_factory=dict)
    counts: Mapping[str, Count] = field(default_factory=dict)
    tracks: Mapping[str, Track] = field(default_factory=dict)

    def where(self, key: str) -> str:
        """A place key in words (OFF: "off the board"; an unnamed key as it is, never hidden)."""
        return "off the board" if key == OFF else self.places.get(key, key)

    def problems(self) -> list[str]:
        """What makes this tabletop unusable (a piece at an unnamed place ...): a pack's bug."""
        unnamed = [f"piece {pid!r} is at {p.at!r}, which is not among the places"
                   for pid, p in self.pieces.items() if p.at != OFF and p.at not in self.places]
        unnamed += [f"count {cid!r} is at {c.at!r}, which is not among the places"
                    for cid, c in self.counts.items() if c.at != OFF and c.at not in self.places]
        unnamed += [f"count {cid!r} is negative ({c.value})" for cid, c in self.counts.items() if c.value < 0]
        return unnamed


EMPTY = Tabletop()


@dataclass(frozen=True)
class Change:
    """One thing to do with the real pieces to go from one tabletop to another.

    ``what``: "piece", "count" or "track"; ``id``: the piece's, count's or track's id;
    ``before``/``after``: where the piece was and goes (place keys), or the count's or
    track's value; ``text``: the instruction in words."""

    what: str
    id: str
    before: object
    after: object
    text: str

    def to_plain(self) -> dict[str, object]:
        return {"what": self.what, "id": self.id, "before": self.before, "after": self.after, "text": self.text}


def changes(now: Tabletop, then: Tabletop) -> list[Change]:
    """What to do on the table to turn ``now`` into ``then``: every piece that moves, every
    count and track that differs. Empty exactly when the two tabletops show the same table."""
    return [*_piece_changes(now, then), *_count_changes(now, then), *_track_changes(now, then)]


def _piece_changes(now: Tabletop, then: Tabletop) -> Iterable[Change]:
    for pid in _keys(now.pieces, then.pieces):
        a, b = now.pieces.get(pid), then.pieces.get(pid)
        start, end = a.at if a else OFF, b.at if b else OFF
        if start != end:
            name = (b or a).name  # type: ignore[union-attr]  # one of them is there
            yield Change("piece", pid, start, end, _move_words(name, now.where(start), then.where(end), start, end))


def _move_words(name: str, start: str, end: str, start_key: str, end_key: str) -> str:
    if start_key == OFF:
        return _sentence(f"bring {name} to {end}.")
    if end_key == OFF:
        return _sentence(f"take {name} off the table (from {start}).")
    return _sentence(f"move {name} from {start} to {end}.")


def _count_changes(now: Tabletop, then: Tabletop) -> Iterable[Change]:
    for cid in _keys(now.counts, then.counts):
        a, b = now.counts.get(cid), then.counts.get(cid)
        start, end = a.value if a else 0, b.value if b else 0
        if start != end:
            count = b or a
            assert count is not None
            where = (then if b else now).where(count.at)
            yield Change("count", cid, start, end, _count_words(count, where, start, end))


def _count_words(count: Count, where: str, start: int, end: int) -> str:
    step = abs(end - start)
    noun = count.noun if step == 1 else count.plural
    if start == 0:
        return _sentence(f"add {step} {noun} to {where}.")
    if end == 0:
        return _sentence(f"take {step} {noun} from {where} (none left there).")
    verb = f"add {step} {noun} to" if end > start else f"take {step} {noun} from"
    return _sentence(f"{verb} {where} ({end} {count.noun if end == 1 else count.plural} there, not {start}).")


def _track_changes(now: Tabletop, then: Tabletop) -> Iterable[Change]:
    for tid in _keys(now.tracks, then.tracks):
        a, b = now.tracks.get(tid), then.tracks.get(tid)
        start, end = _value(a), _value(b)
        if start != end:
            name = (b or a).name  # type: ignore[union-attr]
            flag = isinstance(start, bool) or isinstance(end, bool)
            was = "" if start is None and not flag else f" (not {_value_words(start, flag)})"
            yield Change("track", tid, start, end, _sentence(f"{name}: {_value_words(end, flag)}{was}."))


def _value(track: Track | None) -> TrackValue:
    """A track's value; unset, None and False are alike (a mark not made)."""
    return None if track is None or track.value is None or track.value is False else track.value


def _value_words(value: TrackValue, flag: bool) -> str:
    if value is None:
        return "no" if flag else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _keys(a: Mapping[str, object], b: Mapping[str, object]) -> list[str]:
    """The ids of both, in a stable order: ``a``'s first, then those only ``b`` has."""
    return [*a, *(k for k in b if k not in a)]


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def apply_changes(table: Tabletop, done: Iterable[Change], names: Tabletop) -> Tabletop:
    """``table`` after ``done``: how a run of steps adds up (a phase's summary is the changes
    from its start to its end). ``names``: a tabletop with the names of what ``done`` brings
    (a piece or count that ``table`` lacks), usually the later one."""
    pieces, counts, tracks = dict(table.pieces), dict(table.counts), dict(table.tracks)
    for change in done:
        if change.what == "piece":
            piece = pieces.get(change.id) or names.pieces[change.id]
            pieces[change.id] = replace(piece, at=str(change.after))
        elif change.what == "count":
            count = counts.get(change.id) or names.counts[change.id]
            counts[change.id] = replace(count, value=int(str(change.after)))
        else:
            track = tracks.get(change.id) or names.tracks[change.id]
            tracks[change.id] = replace(track, value=change.after)  # type: ignore[arg-type]
    return Tabletop({**names.places, **table.places}, pieces, counts, tracks)


def layout(table: Tabletop) -> tuple[dict[str, str], dict[str, int], dict[str, TrackValue]]:
    """What a table shows, without the words: where each piece on the table is, each count
    above 0, each track that has a value (off the board and absent are alike, as are a count
    of 0 and none, and a track unset, None or False). Two tabletops show the same table exactly when their layouts are equal."""
    return ({pid: p.at for pid, p in table.pieces.items() if p.at != OFF},
            {cid: c.value for cid, c in table.counts.items() if c.value},
            {tid: t.value for tid, t in table.tracks.items() if t.value is not None and t.value is not False})


def to_plain(table: Tabletop) -> dict[str, object]:
    """The tabletop as the protocol sends it (docs/protocol.md, "The tabletop")."""
    return {"places": dict(table.places),
            "pieces": {pid: {"name": p.name, "at": p.at} for pid, p in table.pieces.items()},
            "counts": {cid: {"noun": c.noun, "plural": c.plural, "at": c.at, "value": c.value}
                       for cid, c in table.counts.items()},
            "tracks": {tid: {"name": t.name, "value": t.value} for tid, t in table.tracks.items()}}
