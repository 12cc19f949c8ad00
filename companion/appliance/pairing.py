"""Which tablets may change a game: pairing, tokens, revocation, rate limits.

Why: the box sits on a home network where anyone's phone can open its page.
Watching a game is harmless, so anyone may; changing one (an answer, an undo,
a deleted game) needs a paired tablet. Pairing is proved by being at the
table, the way a Hue bridge's link button works:

* **link button**: a tablet asks to pair, and someone presses PAIR on the box
  within ``window_seconds`` (30 s). Each waiting tablet is given a number of
  presses (1 to 4) and shows it: "press PAIR twice". The presses in a row
  (each within 1.5 s of the last) are counted and pair the tablet with that
  number, among those that asked before the first press and within the window
  before it. So a stranger's request can neither ride along nor block the
  owner's: only someone at the box presses, and they press the number their
  own tablet shows. A number stays kept for a window after its request ended,
  so the owner's press for a request that just ran out never pairs a stranger
  who asked after it (the stranger has another number). One address has one
  request at a time.
* **code**: a paired tablet shows a short code; the new tablet types it. A
  code lasts ``code_seconds`` and pairs one tablet. Each address has
  ``code_tries`` guesses at a code, so a stranger's wrong guesses use up only
  their own tries: the code still works for the owner's tablet. The box's own
  console can issue a code too (the first tablet of a box without a PAIR
  button).

Every pairing attempt (asking, guessing) counts against a limit per address
(``client_attempts`` per ``attempt_window_seconds``); over it, the refusal
says when to try again. The limit for everyone (``global_attempts``) stops
only addresses that already guessed wrong in the window, so strangers
changing address cannot guess on and on, yet cannot lock the owner's new
tablet out either: an address that has not failed is never refused by it. A
pairing that cannot be saved (a full disk) changes nothing: the code still
works and no device is listed. A paired
tablet holds a token ``<device id>.<secret>`` (256 random bits); the state
directory keeps only a salted PBKDF2 hash of the secret, so a copied backup or
diagnostics bundle pairs nobody. A tablet may always unpair itself; removing
another device is the owner's (below). A revoked token is refused on its next
write.

**The owner's devices.** Some things are the owner's alone (the full backup,
marking devices, freeing another player's seat): a player's phone at the table
must not read every secret of the game it plays, nor take the box over. The
owner is the box's own screen (``Access`` trusts loopback) or a paired device
marked as the owner's. A device paired through the box itself is the owner's:
by the PAIR button, or with the code the box prints in its output and journal
(``console_code``). A device paired with a code shown on another tablet is a
player's, unless an owner's device asked for an owner's code
(``show_code(token, owner=True)``). An owner's device marks or unmarks others
(``set_owner``). Records from before the mark read as the owner's when paired
by the button, as a player's otherwise. With ``pairing.required`` off every
tablet may change games, but the owner is still only the box's own screen and
the owner's devices (tablets may pair all the same): turning pairing off trusts
the network to play, not every phone on it with every player's secrets.

Pure logic: the clock is injected, nothing here knows Socket.IO or GPIO.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import json
import logging
import os
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from companion.config import PairingSettings

TOKENS_FILE = "pairing.json"
FORMAT = "table-companion.pairing"
KDF = "pbkdf2-sha256"
#: The secret is 256 random bits, not a password: the hash's cost guards nothing
#: guessable, so it is kept low enough for a Pi Zero to check a token in a few ms.
ITERATIONS = 20_000
CONSOLE = "console"
MIN_CONSOLE_SECONDS = 600.0
NAME_LENGTH = 40
MOST_PRESSES = 4  # tablets waiting at once for the PAIR button: 1 to 4 presses
SERIES_GAP = 1.5  # seconds: presses closer than this are one series

log = logging.getLogger(__name__)
Clock = Callable[[], float]


class PairingRefused(Exception):
    """A refusal with a code for the tablet (docs/protocol.md): ``not-paired``,
    ``rate-limited`` (with ``retry_after`` seconds), ``no-request``,
    ``several-requests``, ``no-code``, ``wrong-code``, ``unknown-device``, ``not-owner`` (the
    owner's alone), ``last-owner`` (unmarking the only owner's device), and ``storage`` (the
    pairing could not be saved; nothing changed)."""

    def __init__(self, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.retry_after = retry_after


@dataclass(frozen=True)
class Device:
    """A paired tablet as shown in the list of devices: never its token."""

    id: str
    name: str
    paired_at: float
    how: str
    owner: bool = False  # the owner's device, not a player's (module docstring)

    def to_plain(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "paired_at": self.paired_at, "how": self.how, "owner": self.owner}


@dataclass(frozen=True)
class Grant:
    """A pairing that succeeded: the token goes to ``client`` and nowhere else."""

    client: str
    device: Device
    token: str


@dataclass(frozen=True)
class ShownCode:
    """A pairing code as a paired tablet (or the console) shows it."""

    code: str
    expires_at: float
    by: str
    owner: bool = False  # the tablet it pairs is the owner's

    def seconds_left(self, now: float) -> float:
        return max(0.0, self.expires_at - now)


@dataclass(frozen=True)
class _Request:
    client: str
    name: str
    address: str
    asked_at: float
    presses: int  # how many presses of PAIR in a row pair this request
    ended_at: float | None = None  # cancelled, or the tablet left


@dataclass
class _Series:
    """Presses of PAIR in a row. ``waiting``: the requests open at the first press, by their
    number of presses; ``done``: decided (a tablet paired, or none)."""

    last_at: float
    waiting: dict[int, _Request]
    presses: int = 1
    done: bool = False


class Throttle:
    """At most ``limit`` attempts per key in any ``window`` seconds."""

    def __init__(self, limit: int, window: float, clock: Clock) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self._times: dict[str, deque[float]] = {}

    def retry_after(self, key: str) -> float | None:
        """None if one more attempt is allowed now, else the seconds to wait."""
        times = self._pruned(key)
        if len(times) < self.limit:
            return None
        return max(0.0, times[0] + self.window - self.clock())

    def hit(self, key: str) -> None:
        self._pruned(key).append(self.clock())

    def _pruned(self, key: str) -> deque[float]:
        times = self._times.setdefault(key, deque())
        while times and times[0] <= self.clock() - self.window:
            times.popleft()
        return times


class TokenStore:
    """The paired devices in ``pairing.json``: id, name, salt and hash, never a token.

    A file that cannot be read is set aside (``pairing.json.broken``) and the box
    starts with no tablet paired: the owner pairs again, nobody is let in by a guess."""

    def __init__(self, path: Path, iterations: int = ITERATIONS) -> None:
        self.path = path
        self.iterations = iterations
        self.problem = ""
        self._records: dict[str, dict[str, object]] = self._load()

    def devices(self) -> list[Device]:
        return [_device(record) for record in self._records.values()]

    def add(self, device: Device, secret: str) -> None:
        """Saved first: a pairing the disk refused lists no phantom device (``PairingRefused`` storage)."""
        salt = secrets.token_bytes(16)
        record = {**device.to_plain(), "kdf": KDF, "iterations": self.iterations, "salt": salt.hex(),
                  "hash": _hash(secret, salt, self.iterations).hex()}
        records = {**self._records, device.id: record}
        self._save(records)
        self._records = records

    def remove(self, device_id: str) -> Device | None:
        record = self._records.get(device_id)
        if record is None:
            return None
        records = {key: value for key, value in self._records.items() if key != device_id}
        self._save(records)
        self._records = records
        return _device(record)

    def set_owner(self, device_id: str, owner: bool) -> Device | None:
        """Mark (or unmark) a device as the owner's; saved first, like ``add``."""
        record = self._records.get(device_id)
        if record is None:
            return None
        records = {**self._records, device_id: {**record, "owner": owner}}
        self._save(records)
        self._records = records
        return _device(records[device_id])

    def verify(self, device_id: str, secret: str) -> Device | None:
        record = self._records.get(device_id)
        if record is None:
            return None
        salt, iterations = bytes.fromhex(str(record["salt"])), int(str(record["iterations"]))
        expected = bytes.fromhex(str(record["hash"]))
        return _device(record) if hmac.compare_digest(_hash(secret, salt, iterations), expected) else None

    def _load(self) -> dict[str, dict[str, object]]:
        try:
            data = json.loads(self.path.read_text("utf-8"))
            return {_device(r).id: _stored(r) for r in data["devices"]}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, KeyError, TypeError) as problem:
            return self._set_aside(problem)

    def _set_aside(self, problem: Exception) -> dict[str, dict[str, object]]:
        self.problem = f"the pairing file {self.path} could not be read ({problem}); every tablet must pair again"
        log.error("%s", self.problem)
        try:
            os.replace(self.path, self.path.with_name(self.path.name + ".broken"))
        except OSError:
            pass
        return {}

    def _save(self, records: dict[str, dict[str, object]]) -> None:
        """Atomically (a power cut leaves the old file or the new one), readable by the service only;
        a write the disk refuses leaves no temporary file and raises ``PairingRefused`` (storage)."""
        data = json.dumps({"format": FORMAT, "version": 1, "devices": list(records.values())}, indent=1)
        temporary = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                _write_all(fd, data.encode())
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(temporary, self.path)
        except OSError as problem:
            temporary.unlink(missing_ok=True)
            why = problem.strerror or str(problem)
            advice = {errno.ENOSPC: "the box's card is full: free some space, then try again",
                      errno.EROFS: "the box's card is read-only: check it, then restart the box"}
            what = advice.get(problem.errno or 0, "check the box card")
            raise PairingRefused("storage", f"the pairing could not be saved in {self.path} ({why}), so nothing "
                                            f"changed; {what}") from None


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _hash(secret: str, salt: bytes, iterations: int) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", secret.encode(), salt, iterations)


def _stored(record: dict[str, object]) -> dict[str, object]:
    """A record as read from the file, refused (ValueError, KeyError) unless it can be checked."""
    if record.get("kdf") != KDF or int(str(record["iterations"])) < 1:
        raise ValueError(f"device {record.get('id')!r}: unknown hash {record.get('kdf')!r}")
    bytes.fromhex(str(record["salt"]))
    bytes.fromhex(str(record["hash"]))
    return dict(record)


def _device(record: object) -> Device:
    """A record as a device; one saved before the owner's mark existed is the owner's when it
    was paired by the button (someone at the box), a player's when by a code (anyone's code)."""
    if not isinstance(record, dict):
        raise TypeError(f"a device must be an object, got {record!r}")
    how = str(record["how"])
    owner = record.get("owner", how == "button")
    if not isinstance(owner, bool):
        raise TypeError(f"device {record.get('id')!r}: 'owner' must be true or false, got {owner!r}")
    return Device(str(record["id"]), str(record["name"]), float(record["paired_at"]), how, owner)


class Pairing:
    """The box's pairing desk; every method is safe to call from any thread."""

    def __init__(self, state_dir: Path, settings: PairingSettings, clock: Clock = time.monotonic,
                 wall: Clock = time.time, iterations: int = ITERATIONS) -> None:
        self.settings = settings
        self.clock, self.wall = clock, wall
        self.store = TokenStore(state_dir / TOKENS_FILE, iterations)
        self._per_address = Throttle(settings.client_attempts, settings.attempt_window_seconds, clock)
        self._everyone = Throttle(settings.global_attempts, settings.attempt_window_seconds, clock)
        self._failed = Throttle(1, settings.attempt_window_seconds, clock)  # addresses that guessed wrong
        self._requests: dict[str, _Request] = {}
        self._series: _Series | None = None
        self._code: ShownCode | None = None
        self._tries: dict[str, int] = {}  # wrong guesses left at the open code, per address
        self._verified: dict[str, str] = {}  # sha256 of a checked token -> device id; memory only
        self._lock = threading.RLock()

    # -- access -----------------------------------------------------------------------
    def device_of(self, token: object) -> Device | None:
        """The paired device holding ``token``, or None (missing, malformed, revoked)."""
        if not isinstance(token, str) or "." not in token:
            return None
        with self._lock:
            return self._known(token)

    def verified(self, token: object) -> bool:
        """Whether ``token`` was checked already and its device is still paired; never hashes."""
        if not isinstance(token, str) or "." not in token:
            return False
        with self._lock:
            device_id = self._verified.get(hashlib.sha256(token.encode()).hexdigest())
            return device_id is not None and any(d.id == device_id for d in self.store.devices())

    def names_a_device(self, token: object) -> bool:
        """Whether ``token`` names a paired device (its secret not checked: that takes the hash)."""
        if not isinstance(token, str) or "." not in token:
            return False
        device_id = token.partition(".")[0]
        with self._lock:
            return any(d.id == device_id for d in self.store.devices())

    def _known(self, token: str) -> Device | None:
        digest = hashlib.sha256(token.encode()).hexdigest()
        devices = {d.id: d for d in self.store.devices()}
        if self._verified.get(digest) in devices:
            return devices[self._verified[digest]]
        device_id, _, secret = token.partition(".")
        device = self.store.verify(device_id, secret)
        if device is not None:
            self._verified[digest] = device.id
        return device

    def may_change(self, token: object) -> bool:
        return not self.settings.required or self.device_of(token) is not None

    def check_change(self, token: object) -> None:
        """Raise ``not-paired`` unless the holder of ``token`` may change a game."""
        if not self.may_change(token):
            raise PairingRefused("not-paired", "this tablet is not paired with the box, so it can watch but not "
                                               "change the game: pair it (PAIR button or a code from a paired tablet)")

    def devices(self) -> list[Device]:
        with self._lock:
            return self.store.devices()

    def is_owner(self, token: object) -> bool:
        """Whether the holder of ``token`` is an owner's device (pairing off or not)."""
        device = self.device_of(token)
        return device is not None and device.owner

    def check_owner(self, token: object, what: str) -> None:
        """Raise ``not-paired`` (no paired device) or ``not-owner`` (a player's) unless the owner asks."""
        if self.is_owner(token):
            return
        if self.device_of(token) is None:
            raise PairingRefused("not-paired", f"only the owner's paired tablet can {what}: pair this tablet first")
        raise PairingRefused("not-owner", f"only the owner can {what}: this tablet is a player's (the box's own "
                                          "screen, or a tablet the owner marked as the owner's, can)")

    def set_owner(self, device_id: str, owner: bool, token: object, trusted: bool = False) -> Device:
        """An owner's device (or the box's own screen: ``trusted``) marks a device as the owner's
        or a player's. Unmarking the last owner's device is left to the box's own screen: a box
        without a PAIR button would have no way back to an owner."""
        with self._lock:
            if not trusted:
                self.check_owner(token, "mark devices as the owner's")
            found = {d.id: d for d in self.store.devices()}
            if device_id not in found:
                raise PairingRefused("unknown-device", f"no paired device {device_id!r}")
            others = [d for d in found.values() if d.owner and d.id != device_id]
            if not owner and not trusted and not others:
                raise PairingRefused("last-owner", f"{found[device_id].name} is the only owner's device: mark "
                                                   "another one as the owner's first")
            changed = self.store.set_owner(device_id, owner)
            assert changed is not None
            log.info("%s (%s) is %s", changed.name, changed.id, "the owner's" if owner else "a player's")
            return changed

    def revoke(self, device_id: str, token: object, trusted: bool = False) -> Device:
        """A tablet removes itself; the owner (an owner's device, or the box's own browser:
        ``trusted``) removes any device. Its token stops working at once."""
        with self._lock:
            device = self.device_of(token)
            if not trusted and device is None:
                raise PairingRefused("not-paired", "only a paired tablet can remove a paired device")
            if not trusted and device is not None and device.id != device_id:
                self.check_owner(token, "remove another paired device")
            removed = self.store.remove(device_id)
            if removed is None:
                raise PairingRefused("unknown-device", f"no paired device {device_id!r}")
            self._verified = {k: v for k, v in self._verified.items() if v != device_id}
            return removed

    # -- the link button --------------------------------------------------------------
    def ask(self, client: str, name: str, address: str) -> dict[str, float | int]:
        """A tablet asks to pair: the seconds PAIR may be pressed in, and how many presses pair it.
        A new request from the same address replaces its earlier one (and keeps its number)."""
        with self._lock:
            self._attempt(address)
            self._prune()
            presses = self._presses_for(address)
            for key in [k for k, r in self._requests.items() if r.address == address or k == client]:
                del self._requests[key]
            self._requests[client] = _Request(client, _clean_name(name), address, self.clock(), presses)
            return {"seconds": self.settings.window_seconds, "presses": presses}

    def _presses_for(self, address: str) -> int:
        """The address's own number if it has one (open or kept), else the lowest number nobody
        else holds: a number stays kept for a window after its request ended, so a press meant for
        a request that just ran out never pairs a newcomer."""
        now = self.clock()
        own = [r.presses for r in self._requests.values() if r.address == address]
        if own:
            return own[0]
        taken = {r.presses for r in self._requests.values() if self._kept_until(r) > now}
        free = [n for n in range(1, MOST_PRESSES + 1) if n not in taken]
        if not free:
            wait = min(self._kept_until(r) for r in self._requests.values()) - now
            raise PairingRefused("several-requests", f"{MOST_PRESSES} tablets are waiting for the PAIR button "
                                                     f"already; ask again in {int(wait) + 1} s", retry_after=wait)
        return free[0]

    def _kept_until(self, request: _Request) -> float:
        ended = request.ended_at if request.ended_at is not None else request.asked_at + self.settings.window_seconds
        return ended + self.settings.window_seconds

    def _prune(self) -> None:
        now = self.clock()
        for key in [k for k, r in self._requests.items() if self._kept_until(r) <= now]:
            del self._requests[key]

    def cancel(self, client: str) -> None:
        """The tablet gave up or left (its number stays kept for a window)."""
        with self._lock:
            request = self._requests.get(client)
            if request is not None and request.ended_at is None:
                self._requests[client] = replace(request, ended_at=self.clock())

    def request_of(self, client: str) -> dict[str, object] | None:
        """The asking tablet's own request (and nobody else's: who waits is no stranger's business)."""
        with self._lock:
            request = self._requests.get(client)
            now = self.clock()
            if request is None or not self._open(request, now):
                return None
            return {"name": request.name, "seconds_left": round(self._left(request, now), 1),
                    "presses": request.presses}

    def waiting_count(self) -> int:
        with self._lock:
            return len(self._open_requests())

    def button_pressed(self, at: float | None = None) -> None:
        """PAIR was pressed (``at``: when, on the desk's clock). Presses in a row are counted;
        ``series_over`` decides once they stop. The tablets that may be paired are those whose
        request was open at the first press (asked before it, within the window before it)."""
        with self._lock:
            now = self.clock() if at is None else at
            series = self._series
            if series is not None and not series.done and now - series.last_at < SERIES_GAP:
                series.presses, series.last_at = series.presses + 1, now
                return
            waiting = {r.presses: r for r in self._requests.values() if r.asked_at <= now and self._open(r, now)}
            if not waiting:
                self._series = None
                raise PairingRefused("no-request", "PAIR was pressed but no tablet asked to pair in the last "
                                                   f"{self.settings.window_seconds:g} s")
            self._series = _Series(now, waiting)

    def series_over(self, now: float | None = None) -> Grant | None:
        """``SERIES_GAP`` after the last press: pair the tablet whose number of presses was pressed
        (None: no series, or it is not over yet)."""
        with self._lock:
            now = self.clock() if now is None else now
            series = self._series
            if series is None or series.done or now - series.last_at < SERIES_GAP:
                return None
            series.done = True
            request = series.waiting.get(series.presses)
            current = self._requests.get(request.client) if request is not None else None
            if request is None or current is None or current.ended_at is not None:
                shown = " or ".join(str(n) for n in sorted(series.waiting))
                raise PairingRefused("no-request", f"PAIR was pressed {_times(series.presses)}, but the tablets "
                                                   f"waiting asked for {shown} presses: none was paired")
            return self._grant(request.client, request.name, "button", owner=True)

    def _open_requests(self) -> list[_Request]:
        now = self.clock()
        return [r for r in self._requests.values() if self._open(r, now)]

    def _open(self, request: _Request, now: float) -> bool:
        return request.ended_at is None and self._left(request, now) > 0

    def _left(self, request: _Request, now: float) -> float:
        return request.asked_at + self.settings.window_seconds - now

    # -- codes ------------------------------------------------------------------------
    def show_code(self, token: object, owner: bool = False) -> ShownCode:
        """A new code for a paired tablet to show (it replaces any earlier one); it pairs a
        player's device, or with ``owner`` (an owner's device asks) an owner's device."""
        with self._lock:
            device = self.device_of(token)
            if device is None:
                raise PairingRefused("not-paired", "only a paired tablet can show a pairing code")
            if owner:
                self.check_owner(token, "show a code that pairs an owner's tablet")
            return self._new_code(device.id, self.settings.code_seconds, owner)

    def console_code(self, owner: bool = True) -> ShownCode:
        """A code issued on the box itself (its output and journal, or its own screen): the first
        tablet of a box without a PAIR button; lasts at least ten minutes, so there is time to read
        it. The code printed in the journal pairs an owner's device; the box's own screen shows a
        player's code unless the owner asks it for an owner's."""
        with self._lock:
            return self._new_code(CONSOLE, max(self.settings.code_seconds, MIN_CONSOLE_SECONDS), owner)

    def pair_with_code(self, client: str, name: str, address: str, code: str) -> Grant:
        """The code pairs the tablet, unless this address has used its tries at it; the code is
        used up only once the pairing is saved."""
        with self._lock:
            self._attempt(address)
            shown = self._live_code()
            left = self._tries.get(address, self.settings.code_tries)
            if left <= 0:
                raise PairingRefused("wrong-code", "this tablet has no more tries at this code: show a new code on "
                                                   "a paired tablet")
            if not hmac.compare_digest(_digits(code).encode(), shown.code.encode()):
                raise self._wrong_guess(address, left - 1)
            grant = self._grant(client, name, "code", owner=shown.owner)
            self._code, self._tries = None, {}
            return grant

    def _new_code(self, by: str, seconds: float, owner: bool) -> ShownCode:
        digits = self.settings.code_digits
        self._code = ShownCode(f"{secrets.randbelow(10 ** digits):0{digits}d}", self.clock() + seconds, by, owner)
        self._tries = {}
        return self._code

    def _live_code(self) -> ShownCode:
        shown = self._code
        if shown is None or shown.seconds_left(self.clock()) <= 0:
            self._code = None
            raise PairingRefused("no-code", "no pairing code is open: show a new one on a paired tablet")
        return shown

    def _wrong_guess(self, address: str, left: int) -> PairingRefused:
        self._tries[address] = left
        self._failed.hit(address)
        if left > 0:
            return PairingRefused("wrong-code", f"wrong code ({left} more tries for this code from this tablet)")
        return PairingRefused("wrong-code", "wrong code; that was this tablet's last try at it: show a new code "
                                            "on a paired tablet")

    # -- shared -----------------------------------------------------------------------
    def _attempt(self, address: str) -> None:
        """Count one pairing attempt, or refuse it: over the address's own limit, or over the
        limit for everyone when this address has already guessed wrong."""
        waits = [self._per_address.retry_after(address)]
        if self._failed.retry_after(address) is not None:
            waits.append(self._everyone.retry_after("*"))
        found = [w for w in waits if w is not None]
        if found:
            raise PairingRefused("rate-limited", f"too many pairing attempts; try again in {int(max(found)) + 1} s",
                                 retry_after=max(found))
        self._per_address.hit(address)
        self._everyone.hit("*")

    def _grant(self, client: str, name: str, how: str, owner: bool) -> Grant:
        """Saved before anything else changes (``storage`` if it cannot be)."""
        device = Device(secrets.token_hex(6), _clean_name(name), self.wall(), how, owner)
        secret = secrets.token_urlsafe(32)
        self.store.add(device, secret)
        self._requests.pop(client, None)  # its number is free again; a code's pairing ends its PAIR request
        log.info("paired %s (%s) by %s, as %s", device.name, device.id, how, "the owner's" if owner else "a player's")
        return Grant(client, device, f"{device.id}.{secret}")


def _clean_name(name: object) -> str:
    """A tablet names itself; kept short and printable for the list of devices."""
    text = " ".join("".join(c for c in str(name) if c.isprintable()).split())
    return text[:NAME_LENGTH] or "Tablet"


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _digits(code: object) -> str:
    """``123 456`` and ``123-456`` are the code ``123456``."""
    return "".join(c for c in str(code) if c.isdigit())
