"""The companion's HTTP and WebSocket server: Starlette on uvicorn, in its own thread.

Pages are static files (``game/web/static``); everything live goes over one WebSocket per page:

=====================  ==========================================================================================
``/join/{code}``       a seat's QR code: the player page, which trades the code for a seat token (``POST /api/join``)
``/play``              the player page (token kept in the tab's ``sessionStorage``)
``/watch``             the spectator page: scoreboard and play-by-play, read-only (``/ws/watch``)
``/operator``          the operator page: PIN login (``POST /api/operator/login``), then ``/api/operator/*``
``/ws/seat``           first message ``{"op": "hello", "token": ...}``; then taps, moves, name and colour
=====================  ==========================================================================================

Every request body and socket message is bounded before it is parsed (``game.web.guard``) and checked field by
field (:func:`check_seat_message`, text through ``game.table.names.clean_text``); a bad one gets a one-line error
naming the field (HTTP 400). Seat sockets fail closed: a message naming another seat or panel, a token that is not
(or no longer) valid, or anything before ``hello`` closes the socket with a 44xx code; a binary frame closes it with
1003, a message over 4 KiB with 1009, a flood of messages with 1008. A seat socket only ever receives
``Snapshot.private`` of its own panel.

The server holds a bounded number of sockets and times out idle and slow ones (:class:`~game.web.guard.Limits`),
its thread is a supervised part named ``phones`` (an exception in it is logged once and the server is started
again on the same listening socket, with backoff), and its log lines are rate-limited.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import socket
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from firmware_bridge.supervise import Supervised, describe
from game.rules.base import brief
from game.table.names import TextError, clean_name, clean_text
from game.web.bridge import (
    BUTTONS,
    COLOUR_RE,
    MOVE_KEY_RE,
    MOVE_MAX_KEYS,
    OPERATOR_ACTIONS,
    Snapshot,
    TableBridge,
    WebEvent,
)
from game.web.guard import (
    BUSY,
    HELLO,
    SEAT,
    WAITING,
    WATCH,
    ConnectionGuard,
    JSONError,
    LimitedLog,
    Limits,
    guarded_protocol,
    limit_library_logs,
    load_json,
)
from game.web.tokens import PinGate, SeatGrant

log = logging.getLogger(__name__)
STATIC = Path(__file__).with_name("static")
MAX_MESSAGE = Limits.max_message
#: WebSocket close codes (4000-4999 are the application's; 1003 binary frame, 1008 flood, 1009 too big, 1011 fault)
CLOSE_NO_TOKEN, CLOSE_FORBIDDEN, CLOSE_BAD_INPUT = 4401, 4403, 4400
CLOSE_BINARY, CLOSE_POLICY, CLOSE_FAULT = 1003, 1008, 1011
#: a move's text values (a card's name, an option's label) are at most this long
MOVE_TEXT_MAX = 40


#: pages load only their own scripts and talk only to this server; a join code never leaves in a Referer
PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
}


class InputError(ValueError):
    """A page sent something malformed: the message says which field and why."""


class Refused(Exception):
    """A socket is closed with ``code``: a binary frame, a flood, a fault."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class Bucket:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self.t = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.t) * self.rate)
        self.t = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


def check_seat_message(msg: Any, panel: int, seat: int | None) -> WebEvent | None:
    """A seat socket's message as a :class:`WebEvent` for ``panel``; raises :class:`InputError` if malformed and
    :class:`PermissionError` if it names another seat or panel. None for a ``ping``."""
    if not isinstance(msg, dict):
        raise InputError("a message must be a JSON object")
    if "panel" in msg and msg["panel"] != panel:
        raise PermissionError(f"this token is for panel {panel}, not panel {brief(msg['panel'], 24)}")
    if "seat" in msg and msg["seat"] != seat:
        raise PermissionError(f"this token is for seat {seat}, not seat {brief(msg['seat'], 24)}")
    op = msg.get("op")
    now = time.monotonic()
    sent = msg.get("sent")
    extra: dict[str, Any] = {"sent": float(sent)} if isinstance(sent, int | float) and not isinstance(sent, bool) else {}
    if op == "ping":
        return None
    if op == "tap":
        button = msg.get("button")
        if button not in BUTTONS:
            raise InputError(f"'button' must be one of {', '.join(BUTTONS)}, got {brief(button, 24)}")
        return WebEvent("tap", panel, now, {"button": button, **extra})
    if op == "move":
        move = _check_move(msg.get("move"))
        if move.get("seat") != seat:
            raise PermissionError(f"this token is for seat {seat}: a move for seat {brief(move.get('seat'), 24)} "
                                  "is refused")
        return WebEvent("move", panel, now, {"move": move, **extra})
    if op == "player":
        return WebEvent("player", panel, now, _check_player(msg))
    raise InputError(f"unknown 'op' {brief(op, 24)} (tap, move, player, ping)")


def _check_player(msg: dict[str, Any]) -> dict[str, str]:
    """A name (the one rule for a phone's text) and a colour."""
    colour = msg.get("colour")
    try:
        name = clean_name(msg.get("name"))
    except TextError as exc:
        raise InputError(str(exc)) from None
    if not isinstance(colour, str) or not COLOUR_RE.fullmatch(colour):
        raise InputError("'colour' must be #RRGGBB")
    return {"name": name, "colour": colour.upper()}


def _check_move(move: Any) -> dict[str, Any]:
    """A move's fields: known-shaped names, whole numbers or short text (cleaned as every text from a phone)."""
    if not isinstance(move, dict) or not move:
        raise InputError("'move' must be an object (one of the options the page lists)")
    if len(move) > MOVE_MAX_KEYS:
        raise InputError(f"'move' has more than {MOVE_MAX_KEYS} fields")
    clean: dict[str, Any] = {}
    for key, value in move.items():
        if not MOVE_KEY_RE.fullmatch(key):
            raise InputError(f"'move' has a bad field name {brief(key, 24)}")
        if type(value) is int:
            clean[key] = value
        elif isinstance(value, str):
            try:
                clean[key] = clean_text(value, f"'move.{key}'", MOVE_TEXT_MAX)
            except TextError as exc:
                raise InputError(str(exc)) from None
        else:
            raise InputError(f"'move.{key}' must be a whole number or a short name, got {brief(value, 24)}")
    return clean


class Hub:
    """Wakes every open socket when the loop publishes a snapshot or a token is revoked. The only cross-thread
    call is :meth:`poke`; a socket takes :meth:`current` *before* reading the snapshot, so no wake-up is missed."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._event = asyncio.Event()

    def poke(self, *_: Any) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the server is shutting down
                loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        ev = self._event
        self._event = asyncio.Event()
        if ev is not None:
            ev.set()

    def current(self) -> asyncio.Event:
        assert self._event is not None
        return self._event


def make_app(bridge: TableBridge, *, pin: PinGate, journal_path: str | None = None,
             settings: dict[str, Any] | None = None, limits: Limits | None = None,
             guard: ConnectionGuard | None = None) -> Starlette:
    """The ASGI app: pages, the JSON API and the sockets, over ``bridge``; ``guard`` is told what each connection
    is doing (waiting, answering, a seat, a spectator) so that it knows which ones may be timed out or make room."""
    return Site(bridge, pin=pin, journal_path=journal_path, settings=settings, limits=limits, guard=guard).app()


def _err(status: int, text: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status, headers=headers or None)


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    return auth[7:] if auth.lower().startswith("bearer ") else None


async def _page(request: Request) -> Response:
    name = request.scope["route"].name
    return FileResponse(STATIC / f"{name}.html", headers=PAGE_HEADERS)


async def _join_page(request: Request) -> Response:
    return FileResponse(STATIC / "player.html", headers=PAGE_HEADERS)


async def _failed(request: Request, exc: Exception) -> Response:
    return _err(500, "the server failed on this request")


class Site:
    """The companion's endpoints over one bridge: each method is a route (see :meth:`app`)."""

    def __init__(self, bridge: TableBridge, *, pin: PinGate, journal_path: str | None = None,
                 settings: dict[str, Any] | None = None, limits: Limits | None = None,
                 guard: ConnectionGuard | None = None) -> None:
        self.bridge = bridge
        self.pin = pin
        self.journal_path = journal_path
        self.settings = dict(settings or {})
        self.limits = limits or Limits()
        self.guard = guard or ConnectionGuard(self.limits)
        self.hub = Hub()
        bridge.listeners.append(self.hub.poke)
        bridge.book.on_revoke.append(self.hub.poke)
        self.say = LimitedLog(log)
        self._cache: dict[tuple[int, int], str] = {}

    def app(self) -> Starlette:
        routes = [
            Route("/", lambda request: RedirectResponse("/watch"), name="home"),
            Route("/play", _page, name="player"),
            Route("/watch", _page, name="spectator"),
            Route("/operator", _page, name="operator"),
            Route("/join/{code}", _join_page, name="join"),
            Route("/api/join", self.api_join, methods=["POST"]),
            Route("/api/seat", self.api_seat),
            Route("/api/public", self.api_public),
            Route("/api/operator/login", self.api_login, methods=["POST"]),
            Route("/api/operator/state", self.api_operator_state),
            Route("/api/operator/action", self.api_operator_action, methods=["POST"]),
            WebSocketRoute("/ws/seat", self.ws_seat),
            WebSocketRoute("/ws/watch", self.ws_watch),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
        app = Starlette(routes=routes, lifespan=self.lifespan, exception_handlers={Exception: _failed})
        app.state.hub = self.hub
        app.state.guard = self.guard
        return app

    # -- what is sent ----------------------------------------------------------------------------------

    @staticmethod
    def seat_payload(snap: Snapshot, panel: int) -> str:
        """One socket's message: panel 0 is a spectator's (no ``me`` at all)."""
        if panel == 0:
            return json.dumps({"type": "state", "version": snap.version, "public": snap.public})
        return json.dumps({"type": "state", "version": snap.version, "public": snap.public,
                           "me": snap.private.get(panel)})

    def cached(self, snap: Snapshot, panel: int) -> str:
        key = (snap.version, panel)
        text = self._cache.get(key)
        if text is None:
            if len(self._cache) > 64:
                self._cache.clear()
            text = self._cache[key] = self.seat_payload(snap, panel)
        return text

    # -- HTTP ------------------------------------------------------------------------------------------

    async def read_body(self, request: Request) -> bytes:
        raw = b""
        async for chunk in request.stream():  # stop reading at the limit: a huge body is not held in memory
            raw += chunk
            if len(raw) > self.limits.max_message:
                raise InputError("request body too large")
        return raw

    async def body(self, request: Request) -> dict[str, Any]:
        """The request's JSON object: size, time (a body sent a byte at a time) and depth bounded before parsing."""
        limits = self.limits
        try:
            raw = await asyncio.wait_for(self.read_body(request), limits.request_s)
        except TimeoutError:
            raise InputError("the request body took too long") from None
        try:
            obj = load_json(raw or b"{}", max_bytes=limits.max_message, max_depth=limits.max_depth)
        except JSONError as exc:
            raise InputError(f"the request body is {exc}" if str(exc) == "not JSON" else
                             f"the request body is not usable JSON: {exc}") from None
        if not isinstance(obj, dict):
            raise InputError("the request body must be a JSON object")
        return obj

    async def api_join(self, request: Request) -> Response:
        try:
            code = (await self.body(request)).get("code")
        except InputError as exc:
            return _err(400, str(exc))
        if not isinstance(code, str) or not 1 <= len(code) <= 64 or not code.isascii():
            return _err(400, "'code' must be the join code from a seat's QR code")
        book = self.bridge.book
        got = book.join(code)
        if got is None:
            if book.sealed:
                return _err(403, "the game has started: phones join in the lobby, before the next game")
            return _err(403, "this join code is not valid (already used, or from an earlier game): scan the seat's "
                        "QR code again")
        token, grant = got
        return JSONResponse({"token": token, "panel": grant.panel, "session": grant.session})

    async def api_seat(self, request: Request) -> Response:
        grant = self.bridge.book.check(_bearer(request))
        if grant is None:
            return _err(401, "no valid seat token: join from your seat's QR code")
        return Response(self.cached(self.bridge.snapshot, grant.panel), media_type="application/json")

    async def api_public(self, request: Request) -> Response:
        return JSONResponse(self.bridge.snapshot.public)

    async def api_login(self, request: Request) -> Response:
        client = request.client.host if request.client else "?"
        wait = self.pin.retry_after(client)
        if wait > 0:
            return _err(429, f"too many wrong PINs: try again in {wait:.0f} s", **{"Retry-After": str(int(wait) + 1)})
        try:
            given = (await self.body(request)).get("pin")
        except InputError as exc:
            return _err(400, str(exc))
        if not isinstance(given, str) or not given.isascii() or not given.isdigit() or len(given) > 12:
            return _err(400, "'pin' must be the operator PIN (digits)")
        token = self.pin.login(client, given)
        if token is None:
            return _err(401, "wrong PIN")
        return JSONResponse({"token": token})

    async def api_operator_state(self, request: Request) -> Response:
        if not self.pin.check(_bearer(request)):
            return _err(401, "operator login needed")
        snap = self.bridge.snapshot
        return JSONResponse({"operator": snap.operator, "public": snap.public, "settings": self.settings,
                             "history": match_history(self.journal_path)})

    async def api_operator_action(self, request: Request) -> Response:
        if not self.pin.check(_bearer(request)):
            return _err(401, "operator login needed")
        try:
            obj = await self.body(request)
        except InputError as exc:
            return _err(400, str(exc))
        action = obj.get("action")
        if action == "free-seat":
            panel = obj.get("panel")
            if type(panel) is not int or not 1 <= panel <= self.bridge.panels:
                return _err(400, f"'panel' must be a panel number 1-{self.bridge.panels}")
            return JSONResponse({"ok": True, "freed": self.bridge.book.revoke_panel(panel)})
        if action not in OPERATOR_ACTIONS:
            return _err(400, f"'action' must be one of {', '.join(OPERATOR_ACTIONS + ('free-seat',))}")
        self.bridge.put(WebEvent("operator", 0, time.monotonic(), {"action": action}))
        return JSONResponse({"ok": True})

    # -- sockets ---------------------------------------------------------------------------------------

    def bucket(self) -> Bucket:
        return Bucket(self.limits.messages_per_s, self.limits.burst)

    async def receive_text(self, ws: WebSocket, bucket: Bucket) -> str:
        """The next text message; :class:`Refused` for a binary frame or a flood."""
        msg = await ws.receive()
        if msg["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(int(msg.get("code") or 1000))
        if not bucket.take():
            raise Refused(CLOSE_POLICY, f"more than {self.limits.messages_per_s:.0f} messages a second")
        text = msg.get("text")
        if text is None:
            raise Refused(CLOSE_BINARY, "binary frames are not taken: send JSON text")
        return str(text)

    async def refuse(self, ws: WebSocket, exc: BaseException) -> None:
        """Close a socket over what went wrong with it, in one rate-limited line."""
        client = ws.client.host if ws.client else "?"
        if isinstance(exc, Refused):
            code, reason = exc.code, exc.reason
        else:
            code, reason = CLOSE_FAULT, "the server failed on this socket"
            self.say.line(logging.ERROR, f"fault:{type(exc).__name__}", "phones: a socket from %s failed: %s",
                          client, describe(exc))
        self.say.line(logging.WARNING, f"close:{code}", "phones: closed a socket from %s with %d: %s", client, code,
                      reason)
        with contextlib.suppress(Exception):
            await ws.close(code=code, reason=reason[:120])

    async def run_socket(self, ws: WebSocket, *jobs: Any) -> None:
        """Run a socket's sender and receiver until either ends; a refusal or a fault closes it with its code."""
        tasks = [asyncio.ensure_future(job) for job in jobs]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for t in done:
                exc = t.exception()
                if exc is not None and not isinstance(exc, WebSocketDisconnect | RuntimeError):
                    await self.refuse(ws, exc)
        finally:
            for t in tasks:
                t.cancel()
            for t in tasks:
                with contextlib.suppress(BaseException):
                    await t

    async def watch_reader(self, ws: WebSocket) -> None:
        """A spectator's messages are read and dropped (so a flood or a binary frame is seen, and a close)."""
        bucket = self.bucket()
        while True:
            await self.receive_text(ws, bucket)

    async def watch_sender(self, ws: WebSocket) -> None:
        seen = -1
        while True:
            wake = self.hub.current()
            snap = self.bridge.snapshot
            if snap.public_version != seen:  # a change in a seat's own view is not a spectator's business
                seen = snap.public_version
                await ws.send_text(self.cached(snap, 0))
            await wake.wait()

    async def ws_watch(self, ws: WebSocket) -> None:
        await ws.accept()
        self.guard.mark(ws.scope.get("client"), WATCH)
        await self.run_socket(ws, self.watch_sender(ws), self.watch_reader(ws))

    async def hello(self, ws: WebSocket) -> tuple[str, SeatGrant] | None:
        """The seat socket's first message: its token and grant, or None once the socket is closed."""
        limits = self.limits
        try:
            text = await asyncio.wait_for(self.receive_text(ws, self.bucket()), limits.hello_s)
            first = load_json(text, max_bytes=limits.max_message, max_depth=limits.max_depth)
        except Refused as exc:
            await self.refuse(ws, exc)
            return None
        except (TimeoutError, JSONError, WebSocketDisconnect):
            await _close(ws, CLOSE_NO_TOKEN, "send {\"op\": \"hello\", \"token\": ...} first")
            return None
        token = first.get("token") if isinstance(first, dict) and first.get("op") == "hello" else None
        grant = self.bridge.book.check(token if isinstance(token, str) else None)
        if grant is None:
            await _close(ws, CLOSE_NO_TOKEN, "no valid seat token: join from your seat's QR code")
            return None
        return str(token), grant

    async def ws_seat(self, ws: WebSocket) -> None:
        await ws.accept()
        peer = ws.scope.get("client")
        self.guard.mark(peer, HELLO)
        got = await self.hello(ws)
        if got is None:
            return
        self.guard.mark(peer, SEAT)
        await self.run_socket(ws, self.seat_sender(ws, *got), self.seat_receiver(ws, *got))

    async def seat_sender(self, ws: WebSocket, token: str, grant: SeatGrant) -> None:
        seen: tuple[int, Any] = (-1, None)
        while True:
            wake = self.hub.current()
            if self.bridge.book.check(token) != grant:
                await _close(ws, CLOSE_NO_TOKEN, "this seat was joined again or the table restarted: rejoin")
                return
            snap = self.bridge.snapshot
            mine = (snap.public_version, snap.private.get(grant.panel))
            if mine != seen:  # only what this seat sees: another seat's change sends it nothing
                seen = mine
                await ws.send_text(self.cached(snap, grant.panel))
            await wake.wait()

    async def seat_receiver(self, ws: WebSocket, token: str, grant: SeatGrant) -> None:
        bucket = self.bucket()
        panel = grant.panel
        while True:
            text = await self.receive_text(ws, bucket)
            if self.bridge.book.check(token) != grant:
                await _close(ws, CLOSE_NO_TOKEN, "this seat was joined again or the table restarted: rejoin")
                return
            try:
                ev = self.seat_event(text, panel)
            except PermissionError as exc:
                self.say.line(logging.WARNING, "forbidden", "phones: seat socket of panel %s closed: %s", panel, exc)
                await _close(ws, CLOSE_FORBIDDEN, str(exc))
                return
            except InputError as exc:
                await ws.send_text(json.dumps({"type": "error", "error": str(exc)}))
                continue
            if ev is not None:
                self.bridge.put(ev)
                await ws.send_text(json.dumps({"type": "ack", "op": ev.kind}))

    def seat_event(self, text: str, panel: int) -> WebEvent | None:
        """A seat socket's message, bounded, parsed and checked (:func:`check_seat_message`)."""
        try:
            msg = load_json(text, max_bytes=self.limits.max_message, max_depth=self.limits.max_depth)
        except JSONError as exc:
            raise InputError("a message must be JSON" if str(exc) == "not JSON" else
                             f"a message must be small, shallow JSON: {exc}") from None
        me = self.bridge.snapshot.private.get(panel) or {}
        return check_seat_message(msg, panel, me.get("seat"))

    # -- the event loop --------------------------------------------------------------------------------

    def loop_fault(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """asyncio's own faults (an accept that failed for want of descriptors, a callback that raised): one
        rate-limited line each, never a traceback per occurrence."""
        exc = context.get("exception")
        what = str(context.get("message", "asyncio fault"))
        self.say.line(logging.ERROR, f"loop:{what}:{type(exc).__name__}", "phones: %s%s", what,
                      f" ({describe(exc)})" if exc is not None else "")

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> Any:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self.loop_fault)
        self.hub.bind(loop)
        yield


class Marked:
    """ASGI middleware telling the guard when an HTTP connection is answering a request (never timed out for
    waiting) and when it is waiting again (its next request must come within ``Limits.request_s``)."""

    def __init__(self, app: Any, guard: ConnectionGuard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        self.guard.mark(scope.get("client"), BUSY)
        try:
            await self.app(scope, receive, send)
        finally:
            self.guard.mark(scope.get("client"), WAITING)


async def _close(ws: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps({"type": "error", "error": reason}))
        await ws.close(code=code, reason=reason[:120])


def match_history(journal_path: str | None, limit: int = 20) -> list[dict[str, Any]]:
    """The newest games in the journal, read on the server's own read-only connection (never the loop's)."""
    if not journal_path:
        return []
    try:
        db = sqlite3.connect(f"file:{journal_path}?mode=ro", uri=True, timeout=0.5)
    except sqlite3.Error:
        return []
    try:
        rows = db.execute("SELECT g.id, g.setup, g.started, g.finished, (SELECT COUNT(*) FROM events e "
                          "WHERE e.game_id = g.id) FROM games g ORDER BY g.id DESC LIMIT ?", (limit,)).fetchall()
    except sqlite3.Error:
        return []
    finally:
        db.close()
    out = []
    for gid, setup, started, finished, n in rows:
        try:
            s = json.loads(setup)
        except ValueError:
            s = {}
        out.append({"id": gid, "game": s.get("game", "?"), "seats": s.get("seats"), "started": started,
                    "finished": bool(finished), "events": n, "players": s.get("players") or {}})
    return out


class StartError(OSError):
    """The companion cannot listen: the message names the option (``--web-port``, ``--web-host``) and the cause."""


def open_listener(host: str, port: int, backlog: int) -> socket.socket:
    """The listening socket, bound here rather than by uvicorn so that a failure is one line naming the option,
    and so that a restarted server listens on the very same socket (and port) as before."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        cause = exc.strerror if isinstance(exc, socket.gaierror) else "not a host name"
        raise StartError(f"--web-host {brief(host)}: not an address this machine can listen on ({cause})") from None
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(backlog)
    except OSError as exc:
        sock.close()
        raise StartError(_listen_failure(host, port, exc)) from None
    return sock


def _listen_failure(host: str, port: int, exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return f"--web-port {port}: the port is in use on {host} (another program, or another table, listens on it)"
    if exc.errno == errno.EACCES:
        return f"--web-port {port}: this user may not listen on ports below 1024 (pick one above, e.g. 8080)"
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"--web-host {brief(host)}: not an address of this machine"
    return f"--web-host {brief(host)} --web-port {port}: cannot listen ({exc.strerror or exc})"


class _Uvicorn(uvicorn.Server):
    """uvicorn's server, ending when the part is stopped, sweeping the guard's deadlines twice a second."""

    def __init__(self, config: uvicorn.Config, stop: threading.Event, guard: ConnectionGuard) -> None:
        super().__init__(config)
        self.stop = stop
        self.guard = guard

    async def on_tick(self, counter: int) -> bool:
        if counter % 5 == 0:
            self.guard.sweep()
        return await super().on_tick(counter) or self.stop.is_set()


class WebServer:
    """uvicorn serving :func:`make_app`, as the supervised part ``phones``. ``start`` returns once it listens (or
    raises :class:`StartError`); a failure of the server afterwards is logged once and it starts again."""

    def __init__(self, bridge: TableBridge, *, host: str = "0.0.0.0", port: int = 8080, pin: PinGate,
                 journal_path: str | None = None, settings: dict[str, Any] | None = None,
                 limits: Limits | None = None, backoff: tuple[float, float] = (0.5, 10.0)) -> None:
        self.bridge = bridge
        self.limits = limits or Limits()
        self.guard = ConnectionGuard(self.limits)
        self.app = make_app(bridge, pin=pin, journal_path=journal_path, settings=settings, limits=self.limits,
                            guard=self.guard)
        limit_library_logs()
        self.config = uvicorn.Config(
            Marked(self.app, self.guard), host=host, port=port, http=guarded_protocol(self.guard),
            ws_max_size=self.limits.max_message, backlog=self.limits.backlog, lifespan="on", log_config=None,
            log_level="warning", access_log=False, proxy_headers=False, ws_ping_interval=10.0, ws_ping_timeout=10.0,
            timeout_keep_alive=5, timeout_graceful_shutdown=2)
        self.host, self.port = host, port
        self.backoff = backoff
        self.server: _Uvicorn | None = None
        self.part: Supervised | None = None
        self._listener: socket.socket | None = None

    @property
    def thread(self) -> threading.Thread | None:
        return self.part._thread if self.part is not None else None

    def start(self, timeout: float = 10.0, on_ready: Callable[[int], None] | None = None) -> WebServer:
        self._listener = open_listener(self.host, self.port, self.limits.backlog)
        self.port = int(self._listener.getsockname()[1])
        self.part = Supervised("phones", self._serve, backoff=self.backoff).start()
        deadline = time.monotonic() + timeout
        while self.server is None or not self.server.started:
            if not self.part.alive or time.monotonic() > deadline:
                self.stop()
                raise StartError(f"the phone companion did not start within {timeout:.0f} s")
            time.sleep(0.02)
        if on_ready is not None:
            on_ready(self.port)
        return self

    def _serve(self, stop: threading.Event) -> None:
        """One run of the server on a duplicate of the listening socket (uvicorn closes the one it is given)."""
        assert self._listener is not None
        server = self.server = _Uvicorn(self.config, stop, self.guard)
        sock = socket.socket(fileno=os.dup(self._listener.fileno()))
        try:
            asyncio.run(self._main(server, sock))
        except SystemExit as exc:  # uvicorn's way to say its startup failed: a failure like any other here
            raise RuntimeError(f"the server's startup failed (status {exc.code})") from None
        finally:
            sock.close()
        if not stop.is_set():
            raise RuntimeError("the server stopped by itself")

    async def _main(self, server: _Uvicorn, sock: socket.socket) -> None:
        try:
            await server.serve(sockets=[sock])
        except BaseException:
            # uvicorn's shutdown did not run: close what this run opened while its event loop is still there
            for listening in getattr(server, "servers", []):
                listening.close()
            self.guard.close_all()
            lifespan = getattr(server, "lifespan", None)
            if lifespan is not None:  # ended, not cancelled (a cancelled lifespan logs a traceback of its own)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(lifespan.shutdown(), 2.0)
            raise

    def stop(self) -> None:
        if self.server is not None:
            self.server.should_exit = True
        if self.part is not None:
            self.part.stop(timeout=5.0)
        if self._listener is not None:
            self._listener.close()
            self._listener = None
