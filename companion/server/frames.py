"""Socket.IO frames that are not messages of the protocol get an answer.

Why: python-socketio decodes each frame before any handler of ours runs, and a
frame it cannot decode (bad JSON, JSON nested thousands deep, an event that is
not ``[name, data]``, a binary attachment, an unknown packet type) ends in a
traceback in the log and no answer at all: the tablet that sent it waits for
an acknowledgement that never comes, and a stranger sending such frames fills
the log with tracebacks. So every frame is checked first, here, and a frame
that fails is answered in the protocol's error shape (``bad-request`` with what
is wrong): through its acknowledgement when it carries an id, else as an
``error`` event. A connection that keeps sending them (``STRIKES``) is told why
and closed.

Wired in by re-registering the Engine.IO ``message`` handler (python-socketio's
public ``eio.on``) in front of python-socketio's own. With a ``gate`` (the
budgets per client, ``budgets.EventGate``), an event that passes is handed to
it, not handled here: it is refused at once (its answer sent from here, on the
connection's reading thread) or queued for the gate's threads, and the server
is made with ``async_handlers=False`` so that python-socketio starts no thread
of its own per event.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any, Callable, Protocol

import socketio
from socketio import packet

from .uploads import MAX_JSON_DEPTH, depth

STRIKES = 20  # malformed frames one connection may send before it is closed
log = logging.getLogger(__name__)
_HEAD = re.compile(r"^(\d)(?:(\d{1,3})-)?(/[^,]*,)?(\d{1,20})?")
#: Packet types a tablet may send (CONNECT, DISCONNECT, EVENT, ACK).
ALLOWED = frozenset({packet.CONNECT, packet.DISCONNECT, packet.EVENT, packet.ACK})


class Gate(Protocol):
    """Who decides whether an event is worked out, and where (``budgets.EventGate``)."""

    def admit(self, eio_sid: str, namespace: str | None, event: str, size: int,
              work: Callable[[], object]) -> dict[str, Any] | None: ...

    def left(self, eio_sid: str) -> None: ...


def guard(server: socketio.Server, gate: Gate | None = None) -> None:
    """Put the check (and the ``gate``) in front of the server's own handling of every frame."""
    handled: Callable[[str, Any], Any] = server.eio.handlers["message"]
    strikes: dict[str, int] = {}
    attachments: dict[str, int] = {}  # binary frames still to come of a message already refused
    lock = threading.Lock()

    def on_message(eio_sid: str, data: Any) -> Any:
        with lock:
            if not isinstance(data, str) and attachments.get(eio_sid, 0) > 0:
                attachments[eio_sid] -= 1
                return None  # part of a message that was answered already
        problem, decoded = _checked(server, data)
        if problem is None:
            if gate is None or decoded is None or decoded.packet_type != packet.EVENT:
                return handled(eio_sid, data)
            refusal = gate.admit(eio_sid, decoded.namespace, str(decoded.data[0]), len(data),
                                 lambda: handled(eio_sid, data))
            if refusal is not None:
                _send(server, eio_sid, decoded.namespace, decoded.id, refusal)
            return None
        with lock:
            strikes[eio_sid] = strikes.get(eio_sid, 0) + 1
            count = strikes[eio_sid]
            attachments[eio_sid] = _attachments(data)
        _answer(server, eio_sid, data, problem, count >= STRIKES)
        return None

    def on_disconnect(eio_sid: str, *args: Any) -> Any:
        with lock:
            strikes.pop(eio_sid, None)
            attachments.pop(eio_sid, None)
        if gate is not None:
            gate.left(eio_sid)
        return disconnect(eio_sid, *args)

    disconnect: Callable[..., Any] = server.eio.handlers["disconnect"]
    server.eio.on("message", on_message)
    server.eio.on("disconnect", on_disconnect)


def malformed(server: socketio.Server, data: Any) -> str | None:
    """What is wrong with a frame, or None for one the protocol's handlers can take."""
    return _checked(server, data)[0]


def _checked(server: socketio.Server, data: Any) -> tuple[str | None, Any]:
    """What is wrong with a frame (None: nothing), and the packet it decodes to."""
    if not isinstance(data, str):
        return "binary frames are not part of the protocol: send JSON text", None
    try:
        decoded = server.packet_class(encoded_packet=data)
    except RecursionError:
        return "the message is nested too deeply", None
    except (ValueError, TypeError, IndexError) as problem:
        return f"the message cannot be read ({str(problem)[:80] or type(problem).__name__})", None
    return _wrong(decoded), decoded


def _wrong(decoded: Any) -> str | None:
    if decoded.packet_type in (packet.BINARY_EVENT, packet.BINARY_ACK):
        return "binary attachments are not part of the protocol: send plain JSON"
    if decoded.packet_type not in ALLOWED:
        return f"packets of type {decoded.packet_type!r} are not accepted here"
    if depth(decoded.data) > MAX_JSON_DEPTH:
        return f"the message is nested more than {MAX_JSON_DEPTH} levels deep"
    if decoded.packet_type == packet.EVENT and not (isinstance(decoded.data, list) and decoded.data
                                                     and isinstance(decoded.data[0], str)):
        return "an event must be a list: its name (text), then its data"
    return None


def _attachments(data: Any) -> int:
    """How many binary frames follow this one (a binary event says so in its head)."""
    head = _HEAD.match(data) if isinstance(data, str) else None
    return int(head.group(2)) if head and head.group(2) else 0


def _answer(server: socketio.Server, eio_sid: str, data: Any, problem: str, last: bool) -> None:
    """Through the acknowledgement the frame asked for, else an ``error`` event; the last strike
    also closes the connection."""
    head = _HEAD.match(data) if isinstance(data, str) else None
    namespace = head.group(3)[:-1] if head and head.group(3) else None
    events = (str(packet.EVENT), str(packet.BINARY_EVENT))
    ack = int(head.group(4)) if head and head.group(4) and head.group(1) in events else None
    reason = problem + ("; this connection is closed after too many malformed messages" if last else "")
    reply = {"ok": False, "error": {"code": "bad-request", "message": reason}}
    log.warning("a malformed Socket.IO message was refused: %s", problem)
    _send(server, eio_sid, namespace, ack, reply, last)


def _send(server: socketio.Server, eio_sid: str, namespace: str | None, ack: int | None, reply: dict[str, Any],
          close: bool = False) -> None:
    """A refusal through the acknowledgement the frame asked for, else as an ``error`` event."""
    if ack is not None:
        frame = server.packet_class(packet.ACK, namespace=namespace, data=[reply], id=ack)
    else:
        frame = server.packet_class(packet.EVENT, namespace=namespace, data=["error", reply])
    try:
        server.eio.send(eio_sid, frame.encode())
        if close:
            server.eio.disconnect(eio_sid)
    except (KeyError, ValueError, OSError):  # the connection is gone already
        pass
