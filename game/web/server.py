"""The companion's HTTP and WebSocket server: Starlette on uvicorn, in its own thread.

Pages are static files (``game/web/static``); everything live goes over one WebSocket per page:

=====================  ==========================================================================================
``/join/{code}``       a seat's QR code: the player page, which trades the code for a seat token (``POST /api/join``)
``/play``              the player page (token kept in the tab's ``sessionStorage``)
``/watch``             the spectator page: scoreboard and play-by-play, read-only (``/ws/watch``)
``/operator``          the operator page: PIN login (``POST /api/operator/login``), then ``/api/operator/*``
``/ws/seat``           first message ``{"op": "hello", "token": ...}``; then taps, moves, name and colour
=====================  ==========================================================================================

Every request body and socket message is checked (:func:`check_seat_message`); a bad one gets a one-line error
naming the field. Seat sockets fail closed: a message naming another seat or panel, a token that is not (or no
longer) valid, or anything before ``hello`` closes the socket with a 44xx code. A seat socket only ever receives
``Snapshot.private`` of its own panel.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
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

from game.web.bridge import (
    BUTTONS,
    COLOUR_RE,
    MOVE_KEY_RE,
    MOVE_MAX_KEYS,
    NAME_RE,
    OPERATOR_ACTIONS,
    Snapshot,
    TableBridge,
    WebEvent,
)
from game.web.tokens import PinGate

log = logging.getLogger(__name__)
STATIC = Path(__file__).with_name("static")
MAX_MESSAGE = 4096
#: WebSocket close codes (4000-4999 are the application's)
CLOSE_NO_TOKEN, CLOSE_FORBIDDEN, CLOSE_BAD_INPUT = 4401, 4403, 4400


#: pages load only their own scripts and talk only to this server; a join code never leaves in a Referer
PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
}


class InputError(ValueError):
    """A page sent something malformed: the message says which field and why."""


def check_seat_message(msg: Any, panel: int, seat: int | None) -> WebEvent | None:
    """A seat socket's message as a :class:`WebEvent` for ``panel``; raises :class:`InputError` if malformed and
    :class:`PermissionError` if it names another seat or panel. None for a ``ping``."""
    if not isinstance(msg, dict):
        raise InputError("a message must be a JSON object")
    if "panel" in msg and msg["panel"] != panel:
        raise PermissionError(f"this token is for panel {panel}, not panel {msg['panel']!r}")
    if "seat" in msg and msg["seat"] != seat:
        raise PermissionError(f"this token is for seat {seat}, not seat {msg['seat']!r}")
    op = msg.get("op")
    now = time.monotonic()
    sent = msg.get("sent")
    extra: dict[str, Any] = {"sent": float(sent)} if isinstance(sent, int | float) and not isinstance(sent, bool) else {}
    if op == "ping":
        return None
    if op == "tap":
        button = msg.get("button")
        if button not in BUTTONS:
            raise InputError(f"'button' must be one of {', '.join(BUTTONS)}, got {button!r}")
        return WebEvent("tap", panel, now, {"button": button, **extra})
    if op == "move":
        move = msg.get("move")
        if not isinstance(move, dict) or not move:
            raise InputError("'move' must be an object (one of the options the page lists)")
        if len(move) > MOVE_MAX_KEYS:
            raise InputError(f"'move' has more than {MOVE_MAX_KEYS} fields")
        for key, value in move.items():
            if not MOVE_KEY_RE.match(key):
                raise InputError(f"'move' has a bad field name {key[:20]!r}")
            if not (type(value) is int or isinstance(value, str) and len(value) <= 40):
                raise InputError(f"'move.{key}' must be a whole number or a short name, got {str(value)[:20]!r}")
        if move.get("seat") != seat:
            raise PermissionError(f"this token is for seat {seat}: a move for seat {move.get('seat')!r} is refused")
        return WebEvent("move", panel, now, {"move": dict(move), **extra})
    if op == "player":
        name, colour = msg.get("name"), msg.get("colour")
        if not isinstance(name, str) or not NAME_RE.match(name.strip()):
            raise InputError("'name' must be 1-16 characters, no < or >")
        if not isinstance(colour, str) or not COLOUR_RE.match(colour):
            raise InputError("'colour' must be #RRGGBB")
        return WebEvent("player", panel, now, {"name": name.strip(), "colour": colour.upper()})
    raise InputError(f"unknown 'op' {op!r} (tap, move, player, ping)")


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
             settings: dict[str, Any] | None = None) -> Starlette:
    """The ASGI app: pages, the JSON API and the sockets, over ``bridge``."""
    hub = Hub()
    bridge.listeners.append(hub.poke)
    bridge.book.on_revoke.append(hub.poke)
    settings = dict(settings or {})

    def seat_payload(snap: Snapshot, panel: int) -> str:
        """One socket's message: panel 0 is a spectator's (no ``me`` at all)."""
        if panel == 0:
            return json.dumps({"type": "state", "version": snap.version, "public": snap.public})
        return json.dumps({"type": "state", "version": snap.version, "public": snap.public,
                           "me": snap.private.get(panel)})

    cache: dict[tuple[int, int], str] = {}

    def cached(snap: Snapshot, panel: int) -> str:
        key = (snap.version, panel)
        text = cache.get(key)
        if text is None:
            if len(cache) > 64:
                cache.clear()
            text = cache[key] = seat_payload(snap, panel)
        return text

    async def body(request: Request) -> dict[str, Any]:
        raw = b""
        async for chunk in request.stream():  # stop reading at the limit: a huge body is not held in memory
            raw += chunk
            if len(raw) > MAX_MESSAGE:
                raise InputError("request body too large")
        try:
            obj = json.loads(raw or b"{}")
        except ValueError:
            raise InputError("the request body is not JSON") from None
        if not isinstance(obj, dict):
            raise InputError("the request body must be a JSON object")
        return obj

    def bearer(request: Request) -> str | None:
        auth = request.headers.get("authorization", "")
        return auth[7:] if auth.lower().startswith("bearer ") else None

    def err(status: int, text: str, **headers: str) -> JSONResponse:
        return JSONResponse({"error": text}, status_code=status, headers=headers or None)

    async def page(request: Request) -> Response:
        name = request.scope["route"].name
        return FileResponse(STATIC / f"{name}.html", headers=PAGE_HEADERS)

    async def join_page(request: Request) -> Response:
        return FileResponse(STATIC / "player.html", headers=PAGE_HEADERS)

    async def api_join(request: Request) -> Response:
        try:
            code = (await body(request)).get("code")
        except InputError as exc:
            return err(400, str(exc))
        if not isinstance(code, str) or not 1 <= len(code) <= 64:
            return err(400, "'code' must be the join code from a seat's QR code")
        got = bridge.book.join(code)
        if got is None:
            if bridge.book.sealed:
                return err(403, "the game has started: phones join in the lobby, before the next game")
            return err(403, "this join code is not valid (already used, or from an earlier game): scan the seat's QR code again")
        token, grant = got
        return JSONResponse({"token": token, "panel": grant.panel, "session": grant.session})

    async def api_seat(request: Request) -> Response:
        grant = bridge.book.check(bearer(request))
        if grant is None:
            return err(401, "no valid seat token: join from your seat's QR code")
        snap = bridge.snapshot
        return Response(cached(snap, grant.panel), media_type="application/json")

    async def api_public(request: Request) -> Response:
        return JSONResponse(bridge.snapshot.public)

    async def api_login(request: Request) -> Response:
        client = request.client.host if request.client else "?"
        wait = pin.retry_after(client)
        if wait > 0:
            return err(429, f"too many wrong PINs: try again in {wait:.0f} s", **{"Retry-After": str(int(wait) + 1)})
        try:
            given = (await body(request)).get("pin")
        except InputError as exc:
            return err(400, str(exc))
        if not isinstance(given, str) or not given.isdigit() or len(given) > 12:
            return err(400, "'pin' must be the operator PIN (digits)")
        token = pin.login(client, given)
        if token is None:
            return err(401, "wrong PIN")
        return JSONResponse({"token": token})

    def operator_ok(request: Request) -> bool:
        return pin.check(bearer(request))

    async def api_operator_state(request: Request) -> Response:
        if not operator_ok(request):
            return err(401, "operator login needed")
        snap = bridge.snapshot
        return JSONResponse({"operator": snap.operator, "public": snap.public, "settings": settings,
                             "history": match_history(journal_path)})

    async def api_operator_action(request: Request) -> Response:
        if not operator_ok(request):
            return err(401, "operator login needed")
        try:
            obj = await body(request)
        except InputError as exc:
            return err(400, str(exc))
        action = obj.get("action")
        if action == "free-seat":
            panel = obj.get("panel")
            if type(panel) is not int or not 1 <= panel <= bridge.panels:
                return err(400, f"'panel' must be a panel number 1-{bridge.panels}")
            return JSONResponse({"ok": True, "freed": bridge.book.revoke_panel(panel)})
        if action not in OPERATOR_ACTIONS:
            return err(400, f"'action' must be one of {', '.join(OPERATOR_ACTIONS + ('free-seat',))}")
        bridge.put(WebEvent("operator", 0, time.monotonic(), {"action": action}))
        return JSONResponse({"ok": True})

    async def ws_watch(ws: WebSocket) -> None:
        await ws.accept()
        seen = -1
        try:
            while True:
                wake = hub.current()
                snap = bridge.snapshot
                if snap.public_version != seen:  # a change in a seat's own view is not a spectator's business
                    seen = snap.public_version
                    await ws.send_text(cached(snap, 0))
                await wake.wait()
        except (WebSocketDisconnect, RuntimeError):
            return

    async def ws_seat(ws: WebSocket) -> None:
        await ws.accept()
        try:
            hello = json.loads(await asyncio.wait_for(ws.receive_text(), 10.0))
        except (TimeoutError, ValueError, WebSocketDisconnect, KeyError):
            await _close(ws, CLOSE_NO_TOKEN, "send {\"op\": \"hello\", \"token\": ...} first")
            return
        token = hello.get("token") if isinstance(hello, dict) and hello.get("op") == "hello" else None
        grant = bridge.book.check(token if isinstance(token, str) else None)
        if grant is None:
            await _close(ws, CLOSE_NO_TOKEN, "no valid seat token: join from your seat's QR code")
            return
        panel = grant.panel

        def alive() -> bool:
            return bridge.book.check(token) == grant

        async def sender() -> None:
            seen: tuple[int, Any] = (-1, None)
            while True:
                wake = hub.current()
                if not alive():
                    await _close(ws, CLOSE_NO_TOKEN, "this seat was joined again or the table restarted: rejoin")
                    return
                snap = bridge.snapshot
                mine = (snap.public_version, snap.private.get(panel))
                if mine != seen:  # only what this seat sees: another seat's change sends it nothing
                    seen = mine
                    await ws.send_text(cached(snap, panel))
                await wake.wait()

        async def receiver() -> None:
            while True:
                text = await ws.receive_text()
                if not alive():
                    await _close(ws, CLOSE_NO_TOKEN, "this seat was joined again or the table restarted: rejoin")
                    return
                try:
                    if len(text) > MAX_MESSAGE:
                        raise InputError("message too large")
                    try:
                        msg = json.loads(text)
                    except ValueError:
                        raise InputError("a message must be JSON") from None
                    me = bridge.snapshot.private.get(panel) or {}
                    ev = check_seat_message(msg, panel, me.get("seat"))
                except PermissionError as exc:
                    log.warning("seat socket of panel %s closed: %s", panel, exc)
                    await _close(ws, CLOSE_FORBIDDEN, str(exc))
                    return
                except InputError as exc:
                    await ws.send_text(json.dumps({"type": "error", "error": str(exc)}))
                    continue
                if ev is not None:
                    bridge.put(ev)
                    await ws.send_text(json.dumps({"type": "ack", "op": ev.kind}))

        tasks = [asyncio.ensure_future(sender()), asyncio.ensure_future(receiver())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            for t in tasks:
                t.cancel()
            for t in tasks:
                with contextlib.suppress(BaseException):
                    await t

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        hub.bind(asyncio.get_running_loop())
        yield

    routes = [
        Route("/", lambda request: RedirectResponse("/watch"), name="home"),
        Route("/play", page, name="player"),
        Route("/watch", page, name="spectator"),
        Route("/operator", page, name="operator"),
        Route("/join/{code}", join_page, name="join"),
        Route("/api/join", api_join, methods=["POST"]),
        Route("/api/seat", api_seat),
        Route("/api/public", api_public),
        Route("/api/operator/login", api_login, methods=["POST"]),
        Route("/api/operator/state", api_operator_state),
        Route("/api/operator/action", api_operator_action, methods=["POST"]),
        WebSocketRoute("/ws/seat", ws_seat),
        WebSocketRoute("/ws/watch", ws_watch),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return app


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


class WebServer:
    """uvicorn serving :func:`make_app` in a daemon thread. ``start`` returns once it listens (or raises)."""

    def __init__(self, bridge: TableBridge, *, host: str = "0.0.0.0", port: int = 8080, pin: PinGate,
                 journal_path: str | None = None, settings: dict[str, Any] | None = None) -> None:
        self.bridge = bridge
        self.app = make_app(bridge, pin=pin, journal_path=journal_path, settings=settings)
        self.config = uvicorn.Config(self.app, host=host, port=port, log_level="warning", ws_max_size=MAX_MESSAGE,
                                     lifespan="on", access_log=False, ws_ping_interval=10.0, ws_ping_timeout=10.0)
        self.server = uvicorn.Server(self.config)
        self.thread: threading.Thread | None = None
        self.failure: BaseException | None = None
        self.port = port

    def _run(self) -> None:
        try:
            self.server.run()
        except BaseException as exc:  # noqa: BLE001 - the server dying must not take the table with it
            self.failure = exc
            log.error("the phone companion stopped: %s", exc)

    def start(self, timeout: float = 10.0, on_ready: Callable[[int], None] | None = None) -> WebServer:
        self.thread = threading.Thread(target=self._run, name="web", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if self.failure is not None or not self.thread.is_alive():
                raise OSError(f"the phone companion could not listen on {self.config.host}:{self.config.port}")
            if time.monotonic() > deadline:
                raise OSError(f"the phone companion did not start within {timeout:.0f} s")
            time.sleep(0.02)
        servers = getattr(self.server, "servers", [])
        if servers and servers[0].sockets:
            self.port = int(servers[0].sockets[0].getsockname()[1])
        if on_ready is not None:
            on_ready(self.port)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout=5.0)
