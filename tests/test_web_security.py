"""The phone companion's security cases, tried against the real server (uvicorn on 127.0.0.1) and the real table
loop: no token, another seat's token, a replayed token or join code, socket messages forged for another seat, the
rate-limited operator PIN, and input validation. Every case must fail closed."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from webtable import PIN, LiveTable, open_ws, recv_state

from game.games.taco_vs_burrito import rules as tvb
from game.web.tokens import PinGate


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LiveTable]:
    t = LiveTable(tmp_path)
    try:
        yield t
    finally:
        t.close()


def start_taco(t: LiveTable, panels: tuple[int, ...] = (1, 2), label: str = "super secret") -> None:
    """The lobby as the panels would leave it: these panels joined, a Taco vs Burrito variant chosen, started."""
    with t.lock:
        lobby = t.app.lobby
        assert lobby is not None
        lobby.joined = set(panels)
        lobby.variant = next(i for i, ((game, v), _) in enumerate(lobby.choices)
                             if game == tvb.name and lobby.mode.variants and _label(game, v) == label)
        lobby.choice = "start"
    t.wait(lambda: t.app.live is not None and t.bridge.snapshot.public.get("screen") == "game", what="game start")


def _label(game: str, variant: int) -> str:
    from game.registry import GAMES

    return str(GAMES[game].variants[variant][0])


def live(t: LiveTable) -> Any:
    assert t.app.live is not None, "no game running"
    return t.app.live


def closed_code(ws: Any, timeout: float = 5.0) -> int | None:
    """Read until the server closes the socket; its close code."""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ws.recv(timeout=deadline - time.monotonic())
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd is not None else None
    except TimeoutError:
        return None
    return None


def card_names(obj: Any) -> set[str]:
    """Every string in a payload that is the name of a Taco vs Burrito card."""
    names = set(tvb.load_catalog().names)
    out: set[str] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            out |= card_names(k) | card_names(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= card_names(v)
    elif isinstance(obj, str) and obj in names:
        out.add(obj)
    return out


def test_no_token_is_refused_on_the_api_and_the_socket(table: LiveTable) -> None:
    """No token, an empty one, a made-up one, or no hello at all: 401 / close 4401, and no seat data sent."""
    assert httpx.get(f"{table.base}/api/seat").status_code == 401
    r = httpx.get(f"{table.base}/api/seat", headers={"Authorization": "Bearer made-up"})
    assert r.status_code == 401 and "QR code" in r.json()["error"]
    for hello in ({"op": "hello"}, {"op": "hello", "token": ""}, {"op": "hello", "token": "x" * 43}, {"op": "tap"}):
        ws = table.seat_socket(None)
        ws.send(json.dumps(hello))
        assert closed_code(ws) == 4401, hello


def test_a_seat_token_only_ever_carries_its_own_hand(table: LiveTable) -> None:
    """Super Secret (every meal face down): all that panel 1's phone receives names only cards of seat 1's hand,
    whatever it asks; the public part has hand sizes, never cards; asking the API for another panel is ignored."""
    t1, t2 = table.join(1), table.join(2)
    start_taco(table)
    with table.lock:
        st = table.app.state
        hands = [list(h) for h in st.hands]
    assert set(hands[0]) != set(hands[1]), "the test needs two different hands"
    ws = table.seat_socket(t1)
    msg = recv_state(ws, lambda m: m["me"] and "taco" in m["me"])
    assert msg["me"]["seat"] == 1 and [c["card"] for c in msg["me"]["taco"]["hand"]] == hands[0]
    assert card_names(msg) <= set(hands[0])
    assert card_names(msg["public"]) == set()
    forged = httpx.get(f"{table.base}/api/seat?panel=2&seat=2", headers={"Authorization": f"Bearer {t1}"}).json()
    assert forged["me"]["seat"] == 1 and card_names(forged) <= set(hands[0])
    other = httpx.get(f"{table.base}/api/seat", headers={"Authorization": f"Bearer {t2}"}).json()
    assert other["me"]["seat"] == 2 and [c["card"] for c in other["me"]["taco"]["hand"]] == hands[1]
    ws.close()


@pytest.mark.parametrize("forged", [
    {"op": "tap", "button": "DUEL", "panel": 2},
    {"op": "tap", "button": "DUEL", "seat": 2},
    {"op": "move", "move": {"event": "discard", "seat": 2, "card": "no-bueno"}},
])
def test_socket_messages_forged_for_another_seat_close_the_socket(table: LiveTable, forged: dict[str, Any]) -> None:
    """A message naming another panel or seat (or a move for another seat) is refused: close 4403, nothing queued."""
    t1 = table.join(1)
    table.join(2)
    start_taco(table)
    ws = table.seat_socket(t1)
    recv_state(ws)
    with table.lock:
        events = len(live(table).table.events)
        applied = table.bridge.applied
    ws.send(json.dumps(forged))
    assert closed_code(ws) == 4403
    time.sleep(0.3)
    with table.lock:
        assert table.bridge.applied == applied and len(live(table).table.events) == events


def test_replayed_join_codes_and_tokens_are_refused(table: LiveTable) -> None:
    """A join code works once (a photo of the QR code joins nobody); a second join of a panel logs the first phone
    out; after a restart every token of the old game is refused, on the API and the socket."""
    code = table.join_code(1)
    first = httpx.post(f"{table.base}/api/join", json={"code": code})
    assert first.status_code == 200
    again = httpx.post(f"{table.base}/api/join", json={"code": code})
    assert again.status_code == 403 and "already used" in again.json()["error"]
    old = first.json()["token"]
    ws_old = table.seat_socket(old)
    recv_state(ws_old)
    new = table.join(1)  # the QR code now shows a fresh code: a new phone takes the seat
    assert closed_code(ws_old) == 4401
    assert httpx.get(f"{table.base}/api/seat", headers={"Authorization": f"Bearer {old}"}).status_code == 401
    assert httpx.get(f"{table.base}/api/seat", headers={"Authorization": f"Bearer {new}"}).status_code == 200
    table.join(2)
    start_taco(table)
    ws = table.seat_socket(new)
    recv_state(ws, lambda m: m["me"] and m["me"]["seat"] == 1)
    with table.lock:
        table.app.requests.append("restart")  # the table menu's restart: the lobby again, a new session
    assert closed_code(ws) == 4401
    assert httpx.get(f"{table.base}/api/seat", headers={"Authorization": f"Bearer {new}"}).status_code == 401
    ws2 = table.seat_socket(new)
    assert closed_code(ws2) == 4401


def test_operator_pin_is_rate_limited_and_guards_every_operator_call(tmp_path: Path) -> None:
    """Five wrong PINs lock logins (429 with Retry-After), even for the right PIN, until the lockout ends;
    operator calls without a session are 401."""
    now = [1000.0]
    gate = PinGate(PIN, max_fails=5, window_s=60, lockout_s=30, clock=lambda: now[0])
    t = LiveTable(tmp_path, pin=gate)
    try:
        login = f"{t.base}/api/operator/login"
        assert httpx.get(f"{t.base}/api/operator/state").status_code == 401
        assert httpx.post(f"{t.base}/api/operator/action", json={"action": "pause"}).status_code == 401
        for _ in range(5):
            assert httpx.post(login, json={"pin": "0000"}).status_code == 401
        locked = httpx.post(login, json={"pin": PIN})
        assert locked.status_code == 429 and int(locked.headers["Retry-After"]) >= 30
        now[0] += 31
        ok = httpx.post(login, json={"pin": PIN})
        assert ok.status_code == 200
        headers = {"Authorization": f"Bearer {ok.json()['token']}"}
        state = httpx.get(f"{t.base}/api/operator/state", headers=headers).json()
        assert state["operator"]["paused"] is False and isinstance(state["history"], list)
        start_taco(t)
        assert httpx.post(f"{t.base}/api/operator/action", headers=headers, json={"action": "pause"}).json()["ok"]
        t.wait(lambda: t.app.paused_at is not None, what="pause")
        bad = httpx.post(f"{t.base}/api/operator/action", headers=headers, json={"action": "explode"})
        assert bad.status_code == 400 and "'action' must be one of" in bad.json()["error"]
    finally:
        t.close()


def test_pin_lock_counts_guessers_on_many_addresses_too() -> None:
    """The table-wide limit (4x the per-address one) locks out a guesser who changes address."""
    gate = PinGate("123456", max_fails=2, window_s=60, lockout_s=60, clock=lambda: 5.0)
    for i in range(8):
        assert gate.login(f"10.0.0.{i}", "000000") is None
    assert gate.retry_after("10.9.9.9") > 0


@pytest.mark.parametrize(("body", "status", "words"), [
    (b"not json", 400, "not JSON"),
    (b"[1, 2]", 400, "JSON object"),
    (b'{"code": 7}', 400, "'code' must be"),
    (b'{"code": "nope"}', 403, "not valid"),
    (b"{" + b'"code": "' + b"x" * 5000 + b'"}', 400, "too large"),
])
def test_join_input_is_validated_with_clear_errors(table: LiveTable, body: bytes, status: int, words: str) -> None:
    r = httpx.post(f"{table.base}/api/join", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == status and words in r.json()["error"]


@pytest.mark.parametrize(("msg", "words"), [
    ("not json", "must be JSON"),
    (json.dumps([1]), "JSON object"),
    (json.dumps({"op": "fly"}), "unknown 'op'"),
    (json.dumps({"op": "tap", "button": "JUMP"}), "'button' must be one of"),
    (json.dumps({"op": "move", "move": {"event": "discard", "seat": 1, "card": [3]}}), "'move.card' must be"),
    (json.dumps({"op": "move", "move": {"event": "discard", "seat": 1, "Bad-Key": 1}}), "bad field name"),
    (json.dumps({"op": "player", "name": "<script>", "colour": "#ffffff"}), "'name' must not hold <"),
    (json.dumps({"op": "player", "name": "Ann", "colour": "red"}), "'colour' must be #RRGGBB"),
])
def test_bad_socket_messages_get_a_clear_error_and_change_nothing(table: LiveTable, msg: str, words: str) -> None:
    t1 = table.join(1)
    ws = table.seat_socket(t1)
    recv_state(ws)
    ws.send(msg)
    while True:
        reply = json.loads(ws.recv(timeout=5))
        if reply["type"] == "error":
            break
    assert words in reply["error"]
    ws.send(json.dumps({"op": "ping"}))  # the socket is still open
    assert table.bridge.applied == 0
    ws.close()


def test_oversized_socket_message_closes_the_socket(table: LiveTable) -> None:
    ws = table.seat_socket(table.join(1))
    recv_state(ws)
    ws.send(json.dumps({"op": "tap", "button": "SET", "pad": "x" * 10000}))
    assert closed_code(ws) == 1009  # uvicorn's ws_max_size: message too big


def test_spectator_socket_is_read_only_and_public(table: LiveTable) -> None:
    """/ws/watch sends the public view only (hand sizes, never cards) and ignores whatever it is sent."""
    table.join(1)
    table.join(2)
    start_taco(table)
    ws = open_ws(f"{table.ws_base}/ws/watch")
    msg = recv_state(ws, lambda m: m["public"].get("screen") == "game")
    assert "me" not in msg and card_names(msg) == set()
    ws.send(json.dumps({"op": "tap", "button": "DUEL", "panel": 1}))
    time.sleep(0.3)
    assert table.bridge.applied == 0
    ws.close()


def test_pages_load_only_their_own_scripts_and_leak_no_join_code(table: LiveTable) -> None:
    """Every page forbids scripts and connections to anywhere else (CSP) and sends no Referer, so a join code in
    the address bar never reaches another site."""
    for path in ("/play", "/watch", "/operator", f"/join/{table.join_code(1)}"):
        r = httpx.get(f"{table.base}{path}")
        assert r.status_code == 200
        assert "default-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["referrer-policy"] == "no-referrer"
        assert "<script>" not in r.text  # no inline script for the policy to allow


def test_once_the_game_starts_no_phone_joins_until_the_next_lobby(table: LiveTable) -> None:
    """A photo of a lobby QR code (a seat nobody joined, or a seat's fresh code after its phone joined) joins
    nobody once the game is on, so it cannot be used to read that seat's hand; the joined phone keeps its token."""
    t1 = table.join(1)
    table.join(2)
    photos = {1: table.join_code(1), 3: table.join_code(3)}
    start_taco(table, panels=(1, 2, 3))
    for panel, code in photos.items():
        r = httpx.post(f"{table.base}/api/join", json={"code": code})
        assert r.status_code == 403 and "lobby" in r.json()["error"], panel
    r = httpx.post(f"{table.base}/api/join", json={"code": table.join_code(3)})  # even today's code
    assert r.status_code == 403
    assert httpx.get(f"{table.base}/api/seat", headers={"Authorization": f"Bearer {t1}"}).json()["me"]["seat"] == 1
    with table.lock:
        table.app.requests.append("restart")
    table.wait(lambda: table.bridge.snapshot.public.get("screen") == "lobby" and not table.bridge.book.sealed)
    assert httpx.post(f"{table.base}/api/join", json={"code": table.join_code(3)}).status_code == 200


def test_the_game_goes_on_when_the_server_dies(table: LiveTable) -> None:
    """Isolation: the server's thread ends mid-game (as after a crash); the table loop keeps stepping, writes the
    moves the seat buttons make, and never lands on its failsafe screen."""
    from game.games.taco_vs_burrito.buttons import seat_moves

    table.join(1)
    start_taco(table)
    table.server.stop()
    assert table.server.thread is not None and not table.server.thread.is_alive()
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{table.base}/api/public", timeout=2)
    with table.lock:
        frames = table.frames
        st = table.app.state
        move = next(m for m in seat_moves(st, st.turn) if m["event"] == "place")
        table.app.inject({"t": table.app.clock(), **move})
        events = len(live(table).table.events)
    table.wait(lambda: len(live(table).table.events) > events and table.frames > frames + 10, what="the game to go on")
    with table.lock:
        assert table.app.error is None
