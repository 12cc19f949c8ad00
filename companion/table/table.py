"""A running game. Everything that changes it goes through ``Table``, one at a
time (a lock): tablets, buttons and the dice camera never race. An input is
applied to the engine first (which refuses illegal ones without change), then
written to the store; only once it is on disk is it acknowledged and shown."""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, NamedTuple, Sequence

from companion.engine.effects import Effect
from companion.engine.errors import IllegalInput, Refusal, StaleInput
from companion.engine.game import Game, Resumable, Step
from companion.engine.plain import to_plain
from companion.engine.prompts import Prompt
from companion.engine.tabletop import Change, Tabletop, changes
from companion.games.gamepack import GamePack
from companion.store import CacheRow, JournalEntry, Store, StoreError, fold

from . import reopen, tabletops
from .seats import Claimant, Holder, SeatRefused, SeatTaken, Seating

#: Called with the table and its public view after each change (the seats' views: ``table.view(seat)``).
Listener = Callable[["Table", dict[str, object]], None]
HISTORY_SHOWN = 50
RECENT_SHOWN = 60  # inputs whose effects a view carries: a whole Monster Phase, with room to spare
TABLETOPS_KEPT = max(HISTORY_SHOWN, RECENT_SHOWN) + 1  # the tables a view's history and phase compare
#: The fields of a view that every seat and screen sees alike.
SHARED_FIELDS = ("game_id", "name", "game", "version", "seats", "state", "can_undo", "can_redo", "redo_count",
                 "last_change", "outcome", "dice", "undo_request", "tabletop", "put_back", "phase", "setup")

log = logging.getLogger(__name__)


class TableError(ValueError):
    """A request the table refuses, with a code from docs/protocol.md."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Refused(TableError, Refusal):
    """A table refusal listing every problem (an LED layout, a game data file, a backup),
    with its protocol code (docs/protocol.md)."""

    def __init__(self, message: str, problems: Sequence[object], code: str = "illegal") -> None:
        Refusal.__init__(self, message, problems)
        self.code = code


class Table:
    def __init__(self, store: Store, kind: GamePack, game_id: str) -> None:
        self.store = store
        self.kind = kind
        self.game_id = game_id
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._seating_listeners: list[Listener] = []
        self.dice_report: dict[str, object] | None = None  # the camera's last report (not in the journal)
        record = store.game(game_id)
        self.name = record.name
        self.origin = record.origin
        self._saved_outcome = record.outcome
        self.journal = store.journal(game_id)
        self.seating = Seating(store, game_id, self.seat_name)
        self.undo_request: UndoRequest | None = None
        self._stamp = reopen.code_stamp(kind, kind.rules)
        self._resumes = isinstance(kind.rules, Resumable)  # only such games keep a reopen cache
        self._replay()
        self.put_back: list[Change] | None = self._last_put_back()

    # -- reading ----------------------------------------------------------------------
    @property
    def version(self) -> int:
        return len(self.journal)

    @property
    def data_id(self) -> str:
        """Names the game data this game plays with now ("" for the shipped pack)."""
        with self._lock:
            return self.kind.data_id(self.game)

    def pack_view(self) -> dict[str, object]:
        with self._lock:
            return self.kind.pack_view(self.game)

    def view(self, seat: str | None = None) -> dict[str, object]:
        """What ``seat`` sees of the game (None: the shared screen): the pack's public view,
        the question if it may see it, the effects and history meant for it, and, for a seat,
        its own view (``private``). Nothing meant for another seat is in it (docs/protocol.md)."""
        with self._lock:
            return self._seen_by(seat, self._shared())

    def views(self, seats: Iterable[str | None], public: Mapping[str, object]) -> dict[str | None, dict[str, object]]:
        """The views of ``seats`` after the change whose shared-screen view is ``public`` (given to
        listeners): what every seat sees alike is worked out once, not once per seat."""
        with self._lock:
            shared = {key: public[key] for key in SHARED_FIELDS}
            return {seat: self._seen_by(seat, shared) for seat in seats}

    def _shared(self) -> dict[str, object]:
        """The part of the view that is the same for every seat and screen."""
        game = self.game
        return {
            "game_id": self.game_id, "name": self.name, "game": self.kind.id, "version": self.version,
            "seats": [{"id": s.id, "name": s.name} for s in self.kind.seats(game)],
            "state": self.kind.public_view(game), "can_undo": bool(game.inputs), "can_redo": bool(self.redo_stack),
            "redo_count": len(self.redo_stack), "last_change": self.journal[-1].kind if self.journal else None,
            "outcome": self.kind.outcome(game), "dice": self._dice(), **self._tabletop_fields(),
            "undo_request": self.undo_request.to_plain() if self.undo_request else None,
        }

    def _tabletop_fields(self) -> dict[str, object]:
        """The tabletop now and what the shell derives from it (docs/protocol.md, "The tabletop"):
        the pieces to put back after an undo (None: not after an undo), the phase under way and
        its changes so far, the setup checklist while nothing has been answered."""
        tops = self.tabletops
        return {"tabletop": tabletops.plain_tabletop(tops[-1]),
                "put_back": None if self.put_back is None else [c.to_plain() for c in self.put_back],
                "phase": self._phase(),
                "setup": tabletops.setup_list(tops[0]) if len(tops) == 1 else None}

    def box_view(self) -> dict[str, object]:
        """The view the box's own camera and buttons follow: the shared screen's, with a question for
        everyone's eyes whole whoever's it is (they read the real table; ``act(physical=True)``)."""
        with self._lock:
            return self._seen_by(None, self._shared(), physical=True)

    def _seen_by(self, seat: str | None, shared: Mapping[str, object], physical: bool = False) -> dict[str, object]:
        """``shared`` with what only ``seat`` may see: the question, its menu, effects, history."""
        game, prompt = self.game, self.game.prompt
        answers = self._may_answer(prompt, seat) or (physical and prompt is not None and prompt.audience is None)
        view: dict[str, object] = {
            **shared, "seat": seat, "prompt": _prompt_for(prompt, seat, answers),
            "actions": self.kind.action_menu(game, seat) if answers else [],
            "effects": [e.to_plain(self.kind.effect_natures) for e in self.last_effects if e.seen_by(seat)],
            "recent_effects": self._recent_effects(seat), "history": self._history(seat),
        }
        if seat is not None:
            view["private"] = self.kind.seat_view(game, seat)
        return view

    def peek(self, count: int, version: int) -> dict[str, object]:
        """The public state ``count`` inputs back, changing nothing: a tablet compares it with
        the game now to list the pieces to put back before it asks to go back that far."""
        with self._lock:
            self._check_version(version)
            if not 1 <= count <= len(self.game.inputs):
                raise TableError("illegal", f"cannot look {count} step(s) back: there are {len(self.game.inputs)}")
            earlier = self._game_at(len(self.game.inputs) - count)
            then = self.tabletops[-count - 1]
            return {"version": self.version - count, "state": self.kind.public_view(earlier),
                    "tabletop": tabletops.plain_tabletop(then),
                    "put_back": tabletops.change_list(self.tabletops[-1], then)}

    def copy(self, version: int | None = None) -> tuple[int, Game]:
        """The game as it stands, as a game of its own, and its version: a forecast works on it for
        seconds while the table plays on. Only the inputs are taken under the lock; the copy is
        replayed outside it. ``version``: the one the asker saw (refused ``stale`` if it is not)."""
        with self._lock:
            if version is not None:
                self._check_version(version)
            now, inputs, snapshots = self.version, [dict(entry) for entry in self.game.inputs], self.game.snapshots
        return now, Game(self.kind.rules, self.origin, inputs, snapshots=snapshots)

    def seats(self) -> list[str]:
        with self._lock:
            return [seat.id for seat in self.kind.seats(self.game)]

    def seat_name(self, seat: str) -> str:
        """A seat as the table calls it ("Sam (Fighter)", "Dungeon Master"), for messages to people."""
        with self._lock:
            return next((s.name for s in self.kind.seats(self.game) if s.id == seat), seat)

    # -- seats and who answers ------------------------------------------------------------
    def claim_seat(self, seat: str, claimant: Claimant, token: str | None = None, several: bool = False) -> str:
        """The token of ``seat`` for this device (companion/table/seats.py), checked and written as one
        step under the table's lock. Every screen is shown the change: who may answer depends on it."""
        with self._lock:
            self._check_seat(seat)
            try:
                given = self.seating.claim(seat, claimant, token, several)
            except SeatTaken as taken:
                raise TableError("seat-taken", str(taken)) from None
            except SeatRefused as refused:
                raise TableError(refused.code, str(refused)) from None
            self._seating_changed()
            return given

    def release_seat(self, seat: str, claimant: Claimant, token: object = None) -> Holder | None:
        """Free ``seat`` (its holder gives it up, or the owner frees it); who held it, or None."""
        with self._lock:
            self._check_seat(seat)
            try:
                held = self.seating.release(seat, claimant, token)
            except SeatRefused as refused:
                raise TableError(refused.code, str(refused)) from None
            if held is not None:
                self._seating_changed()
            return held

    def on_seating(self, listener: Listener) -> None:
        """``listener`` gets the shared screens' view each time a seat is claimed or freed: whether
        a shared screen may answer a seat's question depends on whether a device plays it."""
        with self._lock:
            self._seating_listeners.append(listener)

    def _seating_changed(self) -> None:
        view = self.view()
        for listener in list(self._seating_listeners):
            try:
                listener(self, view)
            except Exception:
                log.exception("a seating listener of game %s failed", self.game_id)

    def holds_seat(self, seat: str, token: object) -> bool:
        with self._lock:
            return self.seating.holds(seat, token)

    def seat_holders(self) -> dict[str, Holder]:
        """Each seat some device plays, and who holds it."""
        with self._lock:
            return {seat: holder for seat in self.seating.held() if (holder := self.seating.holder(seat))}

    def _check_seat(self, seat: str) -> None:
        seats = [s.id for s in self.kind.seats(self.game)]
        if seat not in seats:
            raise TableError("bad-request", f"this game has no seat {seat!r} (its seats: {', '.join(seats)})")

    def _may_answer(self, prompt: Prompt | None, seat: str | None) -> bool:
        """Whether a device playing ``seat`` (None: a shared screen) may answer ``prompt``."""
        return prompt is not None and _refusal(prompt.answered_by(), seat, self.seating.held(),
                                               prompt.audience is not None) is None

    def _dice(self) -> dict[str, object] | None:
        """The camera's last report while it is news: up to the answer it gave (its version + 1).
        A refused read stays while its prompt is open; after that the game has moved on."""
        report = self.dice_report
        if report is None:
            return None
        made = report.get("version")
        if not isinstance(made, int) or self.version > made + 1:
            return None
        return report
    def _recent_effects(self, seat: str | None) -> list[dict[str, object]]:
        """Oldest first: the effects of each of the last live inputs meant for ``seat``, with the
        version after it, so a tablet can keep a whole phase's steps on screen (and a tablet
        that joins mid-phase sees them too). They start at the newest input that begins a phase
        (the pack's ``phase_marks``): every view carries them, so none older than that."""
        start = self._phase_start()
        natures = self.kind.effect_natures
        return [{"version": self.versions[i], "effects": [e.to_plain(natures) for e in self.step_effects[i] if e.seen_by(seat)]}
                for i in range(start, len(self.step_effects))]

    def _phase(self) -> dict[str, object] | None:
        """The newest phase the pack marks (docs/protocol.md, "The tabletop"), None before any."""
        marks = self.kind.phase_marks
        begun = self._phase_start()
        if not marks or begun >= len(self.step_effects) or not any(e.kind in marks for e in self.step_effects[begun]):
            return None
        ends = self.kind.phase_ends
        if not ends and begun == len(self.step_effects) - 1:  # it began just now, ending the one before
            before = self._phase_begun_before(begun)
            if before is not None:
                return tabletops.phase_of(self.kind.phase_name, self.tabletops, before, begun, self.versions)
        ended = tabletops.phase_end(self.step_effects, begun, marks, ends)
        return tabletops.phase_of(self.kind.phase_name, self.tabletops, begun, ended, self.versions)

    def _phase_begun_before(self, index: int) -> int | None:
        """The input that began the phase before the one input ``index`` began (a day of Straszydła is
        longer than the view's recent effects reach: its table then is worked out again, once)."""
        marks = self.kind.phase_marks
        return next((i for i in range(index - 1, -1, -1) if any(e.kind in marks for e in self.step_effects[i])), None)

    def _phase_start(self) -> int:
        oldest = max(0, len(self.step_effects) - RECENT_SHOWN)
        marks = self.kind.phase_marks
        for i in range(len(self.step_effects) - 1, oldest - 1, -1):
            if any(e.kind in marks for e in self.step_effects[i]):
                return i
        return oldest

    def _history(self, seat: str | None) -> list[dict[str, object]]:
        """Newest first: the version after each live input and the undo count that goes back to it;
        an answer to a question ``seat`` may not see shows only that it was given."""
        count = len(self.labels)
        return [{"version": self.versions[i], "undo_count": count - i - 1, "label": self.labels[i].for_seat(seat),
                 "moves": self._moves(i), **({"aside": self.labels[i].aside} if self.labels[i].aside else {})}
                for i in range(count - 1, max(-1, count - 1 - HISTORY_SHOWN), -1)]

    def _moves(self, index: int) -> list[str]:
        """What input ``index`` changed on the table (the same for every seat: worked out once)."""
        found = self._moves_of.get(index)
        if found is None:
            found = self._moves_of[index] = tabletops.step_moves(self.tabletops, index)
        return found

    # -- changing ------------------------------------------------------------------------
    def act(self, entry: Mapping[str, object], version: int, seat: str | None = None,
            physical: bool = False) -> dict[str, object]:
        """Apply one input from a tablet, button or camera; ``seat``: the seat the tablet plays
        (None: a shared screen), which must be one the question names as answering it (refused
        before the rules see it). ``physical``: the box's own camera or button, which read what
        is on the table itself (a public question only)."""
        with self._lock:
            self._check_version(version)
            prompt = self.game.prompt
            self._check_answerer(prompt, entry, seat, physical)
            try:
                step = self.game.apply(_with_seat(prompt, entry, seat))
            except IllegalInput as problem:
                raise TableError("game-over" if prompt is None else "illegal", str(problem)) from None
            done = self._done([(prompt, self.game.inputs[-1], step, self.kind.tabletop(self.game))])
            rows, prefixes = self._cache_rows(done)
            self._write(JournalEntry("input", dict(self.game.inputs[-1])), undo_engine=1, cache=rows)
            self._record(done, prefixes)
            self.versions.append(self.version)
            self.redo_stack.clear()
            self.put_back = None
            self.last_effects = step.effects
            return self._changed()

    def undo(self, count: int, version: int, seat: str | None = None) -> dict[str, object]:
        """Go back ``count`` inputs. Going back past a reveal (sealed bids, planned moves shown to
        all) takes back what every seat has seen, so it needs the consent of each seat that answered
        in secret there: asked from ``seat``, the request stands (in every view) until they have all
        asked the same, and is refused with who is still to agree; any change of the game drops it."""
        with self._lock:
            self._check_version(version)
            if not 1 <= count <= len(self.game.inputs):
                raise TableError("illegal", f"cannot undo {count} step(s): there are {len(self.game.inputs)}")
            self._check_consent(count, version, seat)
            before = self.tabletops[-1]
            self._write(JournalEntry("undo", count=count))
            self._take_back(count)
            self.put_back = tabletops.put_back(before, self.tabletops[-1])
            return self._changed()

    def _check_consent(self, count: int, version: int, seat: str | None) -> None:
        """Refuse (``needs-consent``) an undo across a reveal until each seat that answered in secret
        in the steps it takes back has asked for it, at this version and count."""
        needed = self._secret_answerers(count)
        if not needed:
            return
        request = self.undo_request
        if request is None or (request.count, request.version) != (count, version):
            request = self.undo_request = UndoRequest(count, version, needed)
        if seat in needed:
            request.agreed.add(seat)
        waiting = sorted(needed - request.agreed)
        if waiting:
            self._changed()
            raise TableError("needs-consent", f"going back {count} step(s) takes back what was revealed to everyone; "
                                              f"it needs the agreement of {', '.join(waiting)} (each asks for the "
                                              "same on their own device)")

    def _secret_answerers(self, count: int) -> set[str]:
        """The seats whose secret answers a reveal among the last ``count`` inputs showed (those given
        since the reveal before it): empty when none of those inputs reveals anything."""
        start = len(self.step_effects) - count
        reveals = [i for i in range(len(self.step_effects)) if any(e.reveals for e in self.step_effects[i])]
        undone = [i for i in reveals if i >= start]
        if not undone:
            return set()
        first = max((i for i in reveals if i < start), default=-1) + 1
        return {seat for label in self.labels[first:undone[-1] + 1] for seat in (label.audience or ())}

    def redo(self, count: int, version: int) -> dict[str, object]:
        """Apply the undone inputs again, forward: no replay of the whole game
        (which an undo needs, and which grows with the game's length)."""
        with self._lock:
            self._check_version(version)
            if not 1 <= count <= len(self.redo_stack):
                raise TableError("illegal", f"cannot redo {count} step(s): there are {len(self.redo_stack)}")
            redone = self.redo_stack[-count:][::-1]  # the next redo is the last item
            try:
                steps = [self._apply_again(entry) for entry in redone]
            except Exception:
                self._replay()  # cannot happen to a deterministic engine; if it does, back to the journal
                raise
            done = self._done(steps)
            rows, prefixes = self._cache_rows(done)
            self._write(JournalEntry("redo", count=count), undo_engine=count, cache=rows)
            del self.redo_stack[-count:]
            self._record(done, prefixes)
            self.versions.extend([self.version] * count)
            self.put_back = None
            self.last_effects = steps[-1][2].effects
            return self._changed()

    def again_after(self, entry: Mapping[str, object], version: int) -> dict[str, object]:
        """Work the last step out again after ``entry`` (a change of the game's data): the last
        answer is taken back (with what came after it), ``entry`` goes in, and the same inputs are
        given again, so what the answer set off (a monster's move, the question of its paths)
        follows the new data instead of standing as the old data made it. A data change after
        that answer is left out: ``entry`` replaces it. Tried first: refused, nothing changes;
        then on disk in one write."""
        with self._lock:
            self._check_version(version)
            inputs = self.game.inputs
            start = next((i for i in range(len(inputs) - 1, -1, -1) if "data" not in inputs[i]), None)
            if start is None:
                raise TableError("illegal", "nothing has been answered yet: there is no step to work out again")
            again = [dict(e) for e in inputs[start:] if "data" not in e]
            try:
                Game(self.kind.rules, self.origin, [*inputs[:start], entry, *again],
                     snapshots=[s for s in self.game.snapshots if s.played <= start])
            except IllegalInput as problem:
                raise TableError("illegal", f"the last step cannot be worked out again: {problem}") from None
            items = [JournalEntry("undo", count=len(inputs) - start), JournalEntry("input", dict(entry)),
                     *(JournalEntry("input", e) for e in again)]
            try:
                self.store.append_all(self.game_id, items)
            except StoreError as problem:
                raise TableError("storage", f"could not save the change, so nothing changed: {problem}") from None
            self.journal.extend(items)
            self.undo_request = None
            done = {_effect_key(e) for effects in self.step_effects[start:] for e in effects}
            self._replay()
            self._show_only_new(done, len(again))
            return self._changed()

    def _show_only_new(self, done: set[str], count: int) -> None:
        """After steps worked out again (the last ``count``): what to do now is what differs from what
        the table already did (the item it put out stays put), after the data change. The steps' record
        (the history, the phase's steps) keeps them whole, as a replay of the journal gives them."""
        fresh = [e for effects in self.step_effects[-count:] for e in effects if _effect_key(e) not in done]
        self.last_effects = (*self.step_effects[-count - 1], *fresh)

    def _apply_again(self, entry: Mapping[str, object]) -> tuple[Prompt | None, Mapping[str, object], Step, Tabletop]:
        prompt = self.game.prompt
        step = self.game.apply(entry)
        return prompt, self.game.inputs[-1], step, self.kind.tabletop(self.game)

    def note_dice(self, report: Mapping[str, object]) -> None:
        """Keep the dice camera's last report for the view (a tablet joining late sees it).

        No journal entry and no view push: a read that answered the prompt is
        already an input (whose view went out), and the report itself reaches
        the tablets as a ``dice`` event; replaying the game never needs it."""
        with self._lock:
            self.dice_report = dict(report)

    def subscribe(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)

    # -- internals ----------------------------------------------------------------------
    def _check_answerer(self, prompt: Prompt | None, entry: Mapping[str, object], seat: str | None,
                        physical: bool = False) -> None:
        """Only the seats a question names answer it, and a move made at any time is made by its own
        seat (the pack says whose it is): the same rule for every game, before its rules see it. The
        box's camera and buttons read the table itself: any question for everyone's eyes."""
        if prompt is None:
            return
        if physical:
            if prompt.audience is not None and "answer" in entry:
                raise TableError("not-your-seat", "this question is answered in secret, on the device of the seat "
                                                  "it is for, not with the box's camera or buttons")
            return
        answerers: tuple[str, ...] | None
        if "anytime" in entry:
            by = self.kind.anytime_by(self.game, entry["anytime"])
            answerers, secret = (None if by is None else (by,)), False
        elif "answer" in entry:
            answerers, secret = prompt.answered_by(), prompt.audience is not None
        else:
            return
        why = _refusal(answerers, seat, self.seating.held(), secret)
        if why is not None:
            raise TableError("not-your-seat", why)

    def _check_version(self, version: int) -> None:
        if version != self.version:
            raise TableError("stale", str(StaleInput(version, self.version)))

    def _write(self, item: JournalEntry, undo_engine: int = 0, cache: Sequence[CacheRow] = ()) -> None:
        """On disk before anyone is told; if the disk refuses, the engine forgets
        the ``undo_engine`` inputs it was just given, so nothing changed. ``cache``: the reopen
        cache's rows for those inputs, in the same transaction."""
        try:
            self.store.append(self.game_id, item, cache)
        except StoreError as problem:
            if undo_engine:
                self.game.undo(undo_engine)
            raise TableError("storage", f"could not save the change, so nothing changed: {problem}") from None
        self.journal.append(item)
        self.undo_request = None  # the game changed: a request to go back was about another moment

    def _replay(self) -> None:
        """The game as its journal gives it (a table opened, after a restart too): from the reopen
        cache's last snapshot when it matches the journal (companion/table/reopen.py), else the whole
        journal replayed; what was worked out here and not yet cached is cached (a later write)."""
        folded = fold(self.journal)
        self.redo_stack = folded.redo
        self.versions = folded.versions
        live = [dict(entry) for entry in folded.live]
        # the chained hashes that key the reopen cache: none kept for rules that do not resume
        self._prefixes = reopen.prefixes(self._stamp, self.origin, live) if self._resumes else []
        cached = self._cached(len(live))
        if cached is not None:
            try:
                self._play(live, cached)
                return
            except Exception as problem:  # a snapshot of this very code should never fail; if one does, the journal
                # rules. Said by its kind alone: a message from within the game might quote what it hides.
                log.error("game %s opens by replaying its whole journal: going on from its reopen cache failed (%s)",
                          self.game_id, type(problem).__name__)
        self._play(live, None)

    def _play(self, live: list[dict[str, object]], cached: reopen.Cached | None) -> None:
        """The game, its steps' record and tables after ``live``: from the last snapshot of ``cached``
        and the records of the inputs before it, or (None) from the origin."""
        start = cached.snapshots[-1].played if cached else 0
        self.game = Game(self.kind.rules, self.origin, live[:start], snapshots=cached.snapshots if cached else ())
        records = cached.steps[:start] if cached else []
        self.labels: list[Label] = [Label(*record.label) for record in records]
        self.step_effects: list[tuple[Effect, ...]] = [record.effects for record in records]
        known = cached.steps if cached else []
        self._moves_of: dict[int, list[str]] = {i: list(r.moves) for i, r in enumerate(known) if r.moves is not None}
        laid_from = len(live) - (1 if cached else TABLETOPS_KEPT)  # from a snapshot: older tables when asked
        self.tabletops = tabletops.Record(None if cached else self.kind.tabletop(self.game), self._tabletop_after,
                                          TABLETOPS_KEPT)
        for i in range(start):  # only the table the game stands at is at hand: the others when asked
            self.tabletops.append(self.kind.tabletop(self.game) if i == start - 1 and i >= laid_from else None)
        for i, entry in enumerate(live[start:], start=start):
            prompt = self.game.prompt
            step = self.game.apply(entry)
            self.labels.append(self._label(prompt, self.game.inputs[-1], step))
            self.step_effects.append(step.effects)
            self.tabletops.append(self.kind.tabletop(self.game) if i >= laid_from else None)
        self.last_effects = self.step_effects[-1] if self.step_effects else self.game.opening_effects
        self.put_back = None
        self._cache_replayed(start, len(known), cached is None)

    def _cached(self, live: int) -> reopen.Cached | None:
        """The usable part of the game's reopen cache, or None (the whole journal is replayed): rules
        that do not resume keep none, and a cache that cannot be used is logged with why."""
        if not self._resumes or not live:
            return None
        try:
            cached = reopen.usable(self.store.cache(self.game_id), self._stamp, self._prefixes)
            reopen.check_snapshot(cached.snapshots[-1])
        except reopen.Unusable as why:
            log.log(why.level, "game %s opens by replaying its whole journal: %s", self.game_id, why)
            return None
        except StoreError as problem:
            log.warning("game %s opens by replaying its whole journal: its reopen cache cannot be read (%s)",
                        self.game_id, problem)
            return None
        return cached

    def _cache_replayed(self, start: int, known: int, whole: bool) -> None:
        """Cache what ``_replay`` worked out from input ``start`` on that the cache did not hold (its
        first ``known`` steps; ``whole``: the cache is made again from nothing). A store that cannot
        write leaves the cache as it was: it only saves time."""
        if not self._resumes:
            return
        shown = len(self.labels) - HISTORY_SHOWN  # the moves of the steps the history shows, worked out now
        rows = [reopen.snapshot_row(self._stamp, s, self._prefixes[s.played])
                for s in self.game.snapshots if whole or s.played > start]
        for i in range(known, len(self.labels)):
            record = _record_of(self.labels[i], self.step_effects[i], self._moves(i) if i >= shown else None)
            rows.append(reopen.step_row(self._stamp, i, record, self._prefixes[i + 1]))
        if not rows:
            return
        try:
            self.store.save_cache(self.game_id, rows, replace=whole)
        except StoreError as problem:
            log.warning("could not save the reopen cache of game %s (%s): it opens by replaying its journal",
                        self.game_id, problem)

    def _done(self, steps: Sequence[tuple[Prompt | None, Mapping[str, object], Step, Tabletop]]) -> list["_Done"]:
        """What the table keeps of inputs the engine just took (each one's question, entry, step and
        table after it): its label, effects, table and the pieces it moved."""
        done, before = [], self.tabletops[-1]
        for prompt, entry, step, top in steps:
            done.append(_Done(self._label(prompt, entry, step), step, top, [c.text for c in changes(before, top)]))
            before = top
        return done

    def _cache_rows(self, done: Sequence["_Done"]) -> tuple[list[CacheRow], list[str]]:
        """The reopen cache's rows for inputs the engine just took (``done``), the snapshots taken on
        the way among them: written with their journal entry; and the chained hashes with those
        inputs, a new list (the table keeps it only once the rows are saved)."""
        if not self._resumes:
            return [], self._prefixes
        played = len(self.game.inputs) - len(done)
        found = self._prefixes[:played + 1]
        reopen.extend(found, self.game.inputs[played:])
        rows = [reopen.snapshot_row(self._stamp, s, found[s.played]) for s in self.game.snapshots if s.played > played]
        rows += [reopen.step_row(self._stamp, played + n, _record_of(d.label, d.step.effects, d.moves),
                                 found[played + n + 1]) for n, d in enumerate(done)]
        return rows, found

    def _record(self, done: Sequence["_Done"], prefixes: list[str]) -> None:
        """The table's record of inputs taken and saved (``done``), with their chained hashes."""
        for item in done:
            self._moves_of[len(self.labels)] = item.moves
            self.labels.append(item.label)
            self.step_effects.append(item.step.effects)
            self.tabletops.append(item.top)
        self._prefixes = prefixes

    def _take_back(self, count: int) -> None:
        """The game ``count`` inputs back, in memory: the engine goes on from its last snapshot
        (engine/game.py), so an undo does not grow with the game's length as a replay of the whole
        journal does; the history, the steps' effects and tables lose their last ``count``."""
        folded = fold(self.journal)
        self.game.undo(count)
        if [dict(e) for e in folded.live] != self.game.inputs:  # cannot happen; if it does, the journal rules
            self._replay()
            return
        self.redo_stack = folded.redo
        self.versions = folded.versions
        del self.labels[-count:]
        del self.step_effects[-count:]
        del self._prefixes[-count:]
        self.tabletops.drop(count)
        self._moves_of = {i: moves for i, moves in self._moves_of.items() if i < len(self.labels)}
        self.last_effects = self.step_effects[-1] if self.step_effects else self.game.opening_effects
        self.put_back = None

    def _tabletop_after(self, count: int) -> Tabletop:
        """The table after the first ``count`` live inputs, worked out again (an old step's)."""
        return self.kind.tabletop(self._game_at(count))

    def _game_at(self, count: int, then: Sequence[Mapping[str, object]] = ()) -> Game:
        """A game of its own after the first ``count`` live inputs (and ``then``), from the game's last
        snapshot before them when it keeps any: an old step does not cost a replay of the whole game."""
        return Game(self.kind.rules, self.origin, [*self.game.inputs[:count], *then],
                    snapshots=[s for s in self.game.snapshots if s.played <= count])

    def _last_put_back(self) -> list[Change] | None:
        """After a replay that ends in an undo (a restart): the pieces that undo put back, from the
        inputs it took back (the top of the redo stack). None when the last change was no undo."""
        last = self.journal[-1] if self.journal else None
        if last is None or last.kind != "undo" or len(self.redo_stack) < last.count:
            return None
        undone = self.redo_stack[-last.count:][::-1]
        before = self._game_at(len(self.game.inputs), undone)
        return tabletops.put_back(self.kind.tabletop(before), self.tabletops[-1])


    def _label(self, prompt: Prompt | None, entry: Mapping[str, object], step: Step) -> "Label":
        return label_of(prompt, entry, step, self.kind.quiet_effects)

    def _changed(self) -> dict[str, object]:
        """The one view of this change, shown to every listener in turn.

        Called under the lock, so listeners see versions in order (a tablet never
        gets version 7 after 8). The change is already on disk: a listener that
        fails or a game-list status that cannot be saved is logged, not refused."""
        view = self.view()
        self._save_outcome(view["outcome"])
        for listener in list(self._listeners):
            try:
                listener(self, view)
            except Exception:
                log.exception("a listener of game %s failed", self.game_id)
        return view

    def _save_outcome(self, outcome: object) -> None:
        """Keep the game list's outcome in step with the game (an undo can clear it)."""
        current = outcome if isinstance(outcome, str) else None
        if current == self._saved_outcome:
            return
        try:
            self.store.set_outcome(self.game_id, current)
            self._saved_outcome = current
        except StoreError as problem:  # the card, not a bug: the game list catches up at the next change
            log.warning("could not save the outcome of game %s: %s", self.game_id, problem)


class _Done(NamedTuple):
    """One input the engine took, as the table keeps it (``Table._done``)."""

    label: "Label"
    step: Step
    top: Tabletop
    moves: list[str]


def _record_of(label: "Label", effects: tuple[Effect, ...], moves: Sequence[str] | None) -> reopen.StepRecord:
    """What the reopen cache keeps of one input (a label as its fields: no class of the table is pickled)."""
    return reopen.StepRecord((label.text, label.audience, label.aside), effects,
                             None if moves is None else tuple(moves))


def _effect_key(effect: Effect) -> str:
    return json.dumps(effect.to_plain(), sort_keys=True, default=str)


def _prompt_for(prompt: Prompt | None, seat: str | None, answers: bool) -> dict[str, object] | None:
    """The question as ``seat`` may see it: whole when it may answer it; else only whom it waits for,
    with the question's words when they are for everyone's eyes (no options: nothing to tap)."""
    if prompt is None:
        return None
    if answers:
        return dict(to_plain(prompt))
    answerers = prompt.answered_by()
    return {"kind": "waiting", "key": prompt.key, "text": prompt.text if prompt.seen_by(seat) else "",
            "player": prompt.player, "audience": list(prompt.audience or ()),
            "answerers": list(answerers or ()), "secret": not prompt.seen_by(seat)}


def _refusal(answerers: tuple[str, ...] | None, seat: str | None, held: frozenset[str],
             secret: bool = False) -> str | None:
    """Why a device playing ``seat`` (None: a shared screen) may not answer for ``answerers``
    (None: the table, anyone at it), or None when it may. A shared screen answers for a seat no
    device holds (a player without a phone plays on the table's tablet), never for a held one,
    and never a ``secret`` question (for its seats' eyes only)."""
    if answerers is None or seat in answerers:
        return None
    names = _either(answerers)
    if seat is not None:
        return f"this question is for {names} to answer, and this device plays {seat}"
    if secret:
        return f"this question is for {names} to answer in secret, on the device that plays the seat"
    if any(s not in held for s in answerers):
        return None
    return f"this question is for {names} to answer on the device that plays the seat, not on a shared screen"


def _either(seats: Sequence[str]) -> str:
    return seats[0] if len(seats) == 1 else f"{', '.join(seats[:-1])} or {seats[-1]}"


def _with_seat(prompt: Prompt | None, entry: Mapping[str, object], seat: str | None) -> Mapping[str, object]:
    """An answer to a question each seat answers for itself is that device's seat's answer:
    the table names the seat (whatever the request said), so no device answers for another."""
    if prompt is None or not prompt.each or "answer" not in entry:
        return entry
    return {**entry, "seat": seat}


@dataclass
class UndoRequest:
    """A standing request to go back ``count`` inputs from ``version`` across a reveal: the seats
    whose agreement it needs (``needed``) and those that gave it."""

    count: int
    version: int
    needed: set[str]
    agreed: set[str] = field(default_factory=set)

    def to_plain(self) -> dict[str, object]:
        return {"count": self.count, "version": self.version, "agreed": sorted(self.agreed),
                "waiting": sorted(self.needed - self.agreed)}


@dataclass(frozen=True)
class Label:
    """How an input shows in the history; ``audience``: who may read ``text`` (None: everyone);
    ``aside``: an input beside the play ("data": the owner's game data taken in), which a tablet
    may fold under the move that followed it."""

    text: str
    audience: tuple[str, ...] | None = None
    aside: str = ""

    def for_seat(self, seat: str | None) -> str:
        return self.text if self.audience is None or seat in self.audience else "An answer given in secret"


def label_of(prompt: Prompt | None, entry: Mapping[str, object], step: Step, quiet: frozenset[str]) -> Label:
    """What an input made happen (its first effect worth naming), else what was answered."""
    audience = _answer_audience(prompt, entry)
    telling = [e.text for e in step.effects if e.kind not in quiet and _readable(e.audience, audience)]
    aside = "data" if "data" in entry else ""
    if telling:
        return Label(_sentence(telling[0].rstrip(".")), audience, aside)
    if aside:
        return Label("The game data changed", None, aside)
    if prompt is None:
        return Label("Input")
    return Label(_sentence(f"{prompt.text} → {_answer_words(prompt, entry.get('answer'))}"), audience)


def _readable(told: tuple[str, ...] | None, readers: tuple[str, ...] | None) -> bool:
    """Whether everyone who may read a label (``readers``, None: everyone) may see an effect told to ``told``."""
    return told is None or (readers is not None and set(readers) <= set(told))


def _answer_audience(prompt: Prompt | None, entry: Mapping[str, object]) -> tuple[str, ...] | None:
    """Who may read what an answer made happen: the question's audience, and for a question each
    seat answers for itself, the seat that answered alone."""
    if prompt is None or "answer" not in entry:
        return None
    if prompt.each:
        return (str(entry.get("seat")),)
    return prompt.audience


def _answer_words(prompt: Prompt, answer: object) -> str:
    """An answer as the tablet showed it: option texts, dice faces, an action's name."""
    names = {option.id: option.text for option in prompt.options}
    if isinstance(answer, str):
        return names.get(answer, answer)
    if isinstance(answer, list) and prompt.kind == "roll":
        faces = [str(a).upper() if prompt.die == "monster" else str(a) for a in answer]
        return "rolled " + (", ".join(faces) or "nothing")
    if isinstance(answer, list):
        return ", ".join(names.get(a, str(a)) if isinstance(a, str) else str(a) for a in answer) or "none"
    if isinstance(answer, Mapping):
        return _action_words(str(answer.get("action", "")))
    return str(answer)


#: Answers that close a question rather than do something.
_FINISHER_WORDS = {"end": "Ended", "skip": "Skipped", "done": "Done"}


def _action_words(action: str) -> str:
    """"special" -> "the Special action"; "end" -> "Ended"."""
    if action in _FINISHER_WORDS:
        return _FINISHER_WORDS[action]
    return f"the {action.replace('-', ' ').replace('_', ' ').title()} action" if action else "an action"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]
