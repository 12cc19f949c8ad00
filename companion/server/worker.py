"""The service's gunicorn worker: gunicorn's threaded (``gthread``) worker with the
caps of ``connections.ConnectionGuard``.

Why gunicorn's threaded worker: Flask-SocketIO runs in ``threading`` mode here
(the LED animation, the dice camera and the buttons are real threads, which
gevent's or eventlet's monkey-patching would turn into green ones), and its
deployment notes name gunicorn with one worker process and many threads, with
simple-websocket for WebSocket, as the way to serve that mode in production.

What this subclass adds, each where gunicorn's worker decides it:

* ``accept``: a connection over a cap is answered ``503`` and closed at once;
  an admitted one waits on the worker's poller (no thread) until its first
  bytes arrive, and is closed there after the idle time
  (``keepalive``, which is also the idle time between requests);
* ``handle`` / ``handle_request``: the request's head is read under a
  deadline; the worker's loop shuts a late connection's socket, which ends the
  thread's read at once (a slow client cannot keep a thread);
* ``handle_request``: a request that will hold its thread for long (a
  WebSocket upgrade, a Socket.IO long-poll) over the guard's caps for such
  requests is answered ``503`` at once, before it is upgraded, so the threads
  kept in reserve stay free for the health check, the page and new tablets
  (or it takes the place of the busiest address's newest, which is shut);
* when the worker stops, its WebSockets are shut at once (a tablet's never ends
  by itself, and the tablet reconnects to the next start by itself), other
  requests get gunicorn's grace time, and whatever is still open after it is
  shut, so the threads end and the process exits - also when its master was
  killed;
* closing never lingers on the worker's loop: gunicorn's graceful close waits
  up to 2 s for the client's FIN on the loop's own thread, which a client that
  never closes would turn into a stall of every other connection. Here the
  write side is shut (the client still gets the whole response), what the
  client already sent is drained without waiting, and the socket is closed.
"""

from __future__ import annotations

import errno
import logging
import selectors
import socket
import time
from functools import partial
from typing import Any, ClassVar

from gunicorn.workers.gthread import ThreadWorker, TConn

from .connections import ConnectionGuard, address_key

OUT_OF_FILES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
log = logging.getLogger(__name__)
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Retry-After: 5\r\nConnection: close\r\nContent-Length: 58\r\n\r\n"
        b"Too many connections from this address; try again soon.\r\n")
_HELD_TEXT = b"Too many open connections to the game (WebSockets) from this address, or in all; try again soon.\r\n"
HELD_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 5\r\n"
             b"Connection: close\r\nContent-Length: " + str(len(_HELD_TEXT)).encode() + b"\r\n\r\n" + _HELD_TEXT)


class GuardedConnection(TConn):  # type: ignore[misc]  # gunicorn ships no type hints
    """A connection that releases its place in the guard when it closes, once."""

    def __init__(self, cfg: Any, sock: socket.socket, client: Any, server: Any, guard: ConnectionGuard,
                 key: str) -> None:
        super().__init__(cfg, sock, client, server)
        self.guard, self.key = guard, key
        self._released = False

    def close(self, graceful: bool = False) -> None:
        self.guard.forget(self)
        try:
            if graceful:
                _close_without_waiting(self.sock)
            else:
                self.sock.close()
        except OSError:
            pass
        finally:
            self.guard.done_reading(self)
            if not self._released:
                self._released = True
                self.guard.release(self.key)


class GuardedWorker(ThreadWorker):  # type: ignore[misc]
    """gunicorn's ``gthread`` worker under a ``ConnectionGuard`` (set by ``worker_class``)."""

    guard: ClassVar[ConnectionGuard]

    def accept(self, listener: socket.socket) -> None:
        try:
            client_sock, client_addr = listener.accept()
        except OSError as problem:
            if problem.errno in OUT_OF_FILES:  # the kernel's limit, not ours: wait, do not die
                log.warning("could not accept a connection: %s (raise LimitNOFILE)", problem)
                time.sleep(0.05)
                return
            if problem.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        key = address_key(client_addr)
        if not self.guard.admit(key):
            _refuse(client_sock)
            return
        self.nr_conns += 1
        client_sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn = GuardedConnection(self.cfg, client_sock, client_addr, listener.getsockname(), self.guard, key)
        self.guard.remember(conn)
        conn.timeout = time.monotonic() + self.cfg.keepalive  # idle until its first bytes: then closed
        self.pending_conns.append(conn)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_pending_socket_readable, conn))

    def handle(self, conn: GuardedConnection) -> Any:
        """On a thread: the head is read under the deadline (``murder_pending`` enforces it)."""
        self.guard.reading(conn)
        try:
            return super().handle(conn)
        finally:
            self.guard.done_reading(conn)

    def handle_request(self, req: Any, conn: GuardedConnection) -> Any:
        """The head is in: from here the request (or the WebSocket it becomes) has no deadline;
        one that will hold the thread for long must fit the guard's caps for those first."""
        self.guard.done_reading(conn)
        websocket = any(name.upper() == "UPGRADE" and value.lower() == "websocket" for name, value in req.headers)
        if not (websocket or _long_poll(req)):
            return super().handle_request(req, conn)
        taken, victim = self.guard.hold(conn, conn.key)
        if not taken:
            _answer_busy(conn.sock)
            return False
        _shut(victim)  # the busiest address's newest: its thread ends, and a thread is free again
        try:
            if websocket:
                self.guard.upgraded(conn)
            return super().handle_request(req, conn)
        finally:
            self.guard.unhold(conn)

    def set_accept_enabled(self, enabled: bool) -> None:
        """Called with False when the worker starts stopping (``alive`` is off by then)."""
        super().set_accept_enabled(enabled)
        if not enabled and not self.alive:
            for conn in self.guard.websockets():
                _shut(conn)

    def run(self) -> None:
        try:
            super().run()
        finally:
            for conn in self.guard.still_open():
                _shut(conn)

    def murder_pending(self) -> None:
        """Every turn of the worker's loop: idle connections (gunicorn's) and late heads (ours)."""
        super().murder_pending()
        for conn in self.guard.overdue():
            _shut(conn)  # the thread's read returns at once, and it closes the connection


def worker_class(guard: ConnectionGuard) -> type[GuardedWorker]:
    """The worker class gunicorn is given, bound to the service's guard."""
    return type("GuardedWorker", (GuardedWorker,), {"guard": guard})


def _shut(conn: object) -> None:
    if isinstance(conn, GuardedConnection):
        try:
            conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _long_poll(req: Any) -> bool:
    """A Socket.IO long-poll: a GET on an open polling session, answered only when there is news
    (up to the ping interval later)."""
    query = str(req.query or "")
    return bool(req.method == "GET" and str(req.path).startswith("/socket.io") and "transport=polling" in query
                and "sid=" in query)


def _answer_busy(sock: socket.socket) -> None:
    """On the request's thread: the short 503; the worker closes the connection after it."""
    try:
        sock.sendall(HELD_BUSY)
    except OSError:
        pass


def _refuse(sock: socket.socket) -> None:
    """Best effort and never blocking: a short 503, then closed."""
    try:
        sock.setblocking(False)
        sock.send(BUSY)
        sock.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    finally:
        sock.close()


def _close_without_waiting(sock: socket.socket) -> None:
    """Shut the write side (the response is complete), drain what has arrived, close."""
    try:
        sock.shutdown(socket.SHUT_WR)
        sock.setblocking(False)
        for _ in range(16):
            if not sock.recv(4096):
                break
    except OSError:
        pass
    finally:
        sock.close()
