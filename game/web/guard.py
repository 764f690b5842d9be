"""What keeps a phone (or anything else on the network) from stopping the table through the companion.

* **JSON is bounded before it is parsed**: :func:`load_json` refuses a text over ``max_bytes`` or nested deeper than
  ``max_depth`` without handing it to ``json`` (whose recursion a few thousand ``[`` would exhaust).
* **Connections are capped and timed**: :class:`ConnectionGuard` sees every accepted socket before uvicorn does
  (:func:`guarded_protocol`). It holds at most ``max_connections`` in all and ``per_client`` per address, so the
  process never runs out of file descriptors; a socket that has not sent a whole request within ``request_s`` (a
  slowloris), a request answered for longer than ``busy_s`` (a client that never reads) and a seat socket that has not
  said hello within ``hello_s`` are closed. When the cap is reached, the oldest socket that is doing nothing for anyone
  (waiting for a request, a seat socket before its hello, then a spectator) makes room: a seat's socket and a request
  being answered are never dropped for a newcomer, so no number of idle sockets locks the players out.
* **Log lines are rate-limited** (:class:`LimitedLog`, over ``firmware_bridge.supervise.LineLimiter``): a flood of
  bad input writes a few lines a minute per kind of line, and a traceback once per kind.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from firmware_bridge.supervise import LineLimiter

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limits:
    """The companion's bounds. File descriptors: ``max_connections + backlog`` sockets at most (640 by default),
    beside the table's own (about 60 in simulation mode): the kiosk unit's ``LimitNOFILE=2048`` fits them with room."""

    max_connections: int = 512
    #: a phone's browser opens up to 6 connections for a page plus its socket; a test or benchmark runs 32 phones
    #: and spectators on one address
    per_client: int = 64
    #: connections the kernel holds before they are accepted (asyncio accepts up to this many at once)
    backlog: int = 128
    request_s: float = 10.0
    busy_s: float = 60.0
    hello_s: float = 10.0
    max_message: int = 4096
    max_depth: int = 8
    #: a socket may send this many messages a second on average, in bursts of ``burst`` (a person taps far slower)
    messages_per_s: float = 20.0
    burst: int = 40


class JSONError(ValueError):
    """Text that is not a JSON message the companion takes: the message says why, in a few words."""


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """How deep ``[`` and ``{`` nest in ``text``, strings left out (linear, no recursion)."""
    depth = deepest = 0
    for b in _BRACKET.findall(_STRING.sub("", text)):
        if b in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _no_constant(name: str) -> Any:
    raise JSONError(f"{name} is not a number JSON allows")


def load_json(raw: str | bytes, *, max_bytes: int, max_depth: int) -> Any:
    """``raw`` parsed, or :class:`JSONError`: too large, not UTF-8, nested deeper than ``max_depth``, not JSON."""
    if isinstance(raw, bytes):
        if len(raw) > max_bytes:
            raise JSONError(f"larger than {max_bytes} bytes")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise JSONError("not UTF-8 text") from None
    else:
        text = raw
        if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
            raise JSONError(f"larger than {max_bytes} bytes")
    if json_depth(text) > max_depth:
        raise JSONError(f"nested deeper than {max_depth} levels")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except JSONError:
        raise
    except (ValueError, RecursionError):
        raise JSONError("not JSON") from None


class LimitedLog:
    """One logger's lines through a :class:`LineLimiter`, keyed by kind: the same line repeated is a few lines a
    minute and a count, and its traceback is written the first time only."""

    def __init__(self, logger: logging.Logger, per_minute: int = 5) -> None:
        self.logger = logger
        self.limiter = LineLimiter(per_minute)

    def line(self, level: int, key: str, msg: str, *args: object) -> bool:
        return self.limiter.log(self.logger, level, key, msg, *args)


class LimitFilter(logging.Filter):
    """A filter for a library's logger (uvicorn's, asyncio's): each kind of record (its logger and message template)
    a few times a minute, its traceback only once."""

    def __init__(self, per_minute: int = 5) -> None:
        super().__init__()
        self.limiter = LineLimiter(per_minute)
        self._traced: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        key = f"{record.name}:{record.msg}"[:200]
        ok, held = self.limiter.allow(key)
        if not ok:
            return False
        if record.exc_info:
            if key in self._traced or len(self._traced) >= 64:
                exc = record.exc_info[1]
                record.msg = f"{record.getMessage()} ({type(exc).__name__}: {str(exc)[:160]})"
                record.args = None
                record.exc_info = None
                record.exc_text = None
            self._traced.add(key)
        if held:
            record.msg = f"{record.getMessage()} ({held} more like it held back)"
            record.args = None
        return True


def limit_library_logs(names: tuple[str, ...] = ("uvicorn", "uvicorn.error", "uvicorn.access", "asyncio")) -> None:
    """Put a :class:`LimitFilter` on each logger once (a filter applies to its own logger's records only)."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, LimitFilter) for f in logger.filters):
            logger.addFilter(LimitFilter())


#: what a connection is doing, as far as the guard is concerned
WAITING, BUSY, HELLO, SEAT, WATCH = "waiting", "busy", "hello", "seat", "watch"
#: the order in which connections make room for a newcomer (a seat and a request being answered never do)
_EVICTABLE = (WAITING, HELLO, WATCH)


@dataclass(eq=False)
class Conn:
    transport: asyncio.BaseTransport
    client: str
    peer: tuple[str, int]
    state: str
    since: float


class ConnectionGuard:
    """Every open socket of the server, by transport and by peer address; runs on the server's event loop only."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.conns: dict[asyncio.BaseTransport, Conn] = {}
        self.by_peer: dict[tuple[str, int], Conn] = {}
        self.per_client: dict[str, set[Conn]] = {}
        self.refused = 0
        self.evicted = 0
        self.timed_out = 0
        self.log = LimitedLog(log)

    # -- admission (``connection_made``) -------------------------------------------------------------

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """True to serve this new socket; False when it is refused (the caller aborts it at once)."""
        peer = transport.get_extra_info("peername")
        host, port = (str(peer[0]), int(peer[1])) if isinstance(peer, tuple) and len(peer) >= 2 else ("?", 0)
        mine = self._prune_client(host)
        if len(mine) >= self.limits.per_client and not self._evict(mine, f"{host} has too many connections"):
            self.refused += 1
            self.log.line(logging.WARNING, "per-client", "phones: refused a connection from %s: it has %d open "
                          "(at most %d an address)", host, len(mine), self.limits.per_client)
            return False
        if len(self.conns) >= self.limits.max_connections:
            self._prune_all()
            if len(self.conns) >= self.limits.max_connections and \
                    not self._evict(self.conns.values(), "the server is full"):
                self.refused += 1
                self.log.line(logging.WARNING, "total", "phones: refused a connection from %s: %d open (at most %d)",
                              host, len(self.conns), self.limits.max_connections)
                return False
        conn = Conn(transport, host, (host, port), WAITING, self.clock())
        self.conns[transport] = conn
        self.by_peer[conn.peer] = conn
        self.per_client.setdefault(host, set()).add(conn)
        return True

    def _evict(self, among: Any, why: str) -> bool:
        """Close the oldest idle connection ``among`` these to make room; False when every one is in use."""
        for state in _EVICTABLE:
            idle = [c for c in among if c.state == state and not c.transport.is_closing()]
            if idle:
                victim = min(idle, key=lambda c: c.since)
                self._drop(victim)
                victim.transport.close()
                self.evicted += 1
                self.log.line(logging.WARNING, "evicted", "phones: closed an idle connection from %s (%s): %s",
                              victim.client, victim.state, why)
                return True
        return False

    def _drop(self, conn: Conn) -> None:
        self.conns.pop(conn.transport, None)
        if self.by_peer.get(conn.peer) is conn:
            del self.by_peer[conn.peer]
        mine = self.per_client.get(conn.client)
        if mine is not None:
            mine.discard(conn)
            if not mine:
                del self.per_client[conn.client]

    def _prune_client(self, host: str) -> set[Conn]:
        mine = self.per_client.get(host, set())
        for c in [c for c in mine if c.transport.is_closing()]:
            self._drop(c)
        return self.per_client.get(host, set())

    def _prune_all(self) -> None:
        for c in [c for c in self.conns.values() if c.transport.is_closing()]:
            self._drop(c)

    # -- what a connection is doing (the app tells, by the peer address in its scope) -----------------

    def mark(self, peer: Any, state: str) -> None:
        conn = self.by_peer.get(tuple(peer)) if isinstance(peer, tuple | list) and len(peer) == 2 else None
        if conn is not None:
            conn.state = state
            conn.since = self.clock()

    # -- deadlines -------------------------------------------------------------------------------------

    def sweep(self) -> None:
        """Forget closed sockets; close those past their state's deadline (called a few times a second)."""
        now = self.clock()
        limits = {WAITING: self.limits.request_s, BUSY: self.limits.busy_s, HELLO: self.limits.hello_s}
        for c in list(self.conns.values()):
            if c.transport.is_closing():
                self._drop(c)
                continue
            limit = limits.get(c.state)
            if limit is not None and now - c.since > limit:
                self._drop(c)
                c.transport.close()
                self.timed_out += 1
                self.log.line(logging.INFO, f"timeout-{c.state}", "phones: closed a connection from %s: %s for "
                              "more than %.0f s", c.client, c.state, limit)

    def close_all(self) -> None:
        """Abort every socket (the server is going down and its event loop with it)."""
        for c in list(self.conns.values()):
            self._drop(c)
            c.transport.abort()  # type: ignore[attr-defined]

    def count(self, client: str | None = None) -> int:
        if client is None:
            return len(self.conns)
        return len(self.per_client.get(client, ()))


def guarded_protocol(guard: ConnectionGuard) -> type[H11Protocol]:
    """uvicorn's HTTP protocol, with every new socket put to ``guard`` before anything is read from it."""

    class GuardedH11(H11Protocol):
        refused = False

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            try:
                admitted = guard.admit(transport)
            except Exception as exc:  # noqa: BLE001 - a fault in the count must not cost this socket its answer
                guard.log.line(logging.ERROR, "admit", "phones: connection count failed: %s", exc)
                admitted = True
            if not admitted:
                self.refused = True
                transport.abort()  # type: ignore[attr-defined]  # its descriptor is freed at once
                return
            super().connection_made(transport)  # type: ignore[arg-type]

        def data_received(self, data: bytes) -> None:
            if not self.refused:
                super().data_received(data)

        def connection_lost(self, exc: Exception | None) -> None:
            if not self.refused:
                super().connection_lost(exc)

    return GuardedH11
