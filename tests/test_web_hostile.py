"""A phone can never stop the table: hostile text, hostile JSON, hostile sockets and hostile floods, tried against
the real server (uvicorn and Starlette on 127.0.0.1, port 0) with raw HTTP and WebSocket clients, and the real table
loop. Each case checks the table goes on and a real phone still joins and plays."""

from __future__ import annotations

import json
import logging
import random
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pygame
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from webtable import PIN, LiveTable, open_ws, recv_state

from firmware_bridge import supervise
from game.rules.base import parse_players
from game.table.screens import draw
from game.web.run import check_args

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LiveTable]:
    t = LiveTable(tmp_path)
    try:
        yield t
    finally:
        t.close()


def closed_code(ws: Any, timeout: float = 5.0) -> int | None:
    """Read until the server closes the socket: its close code (None: dropped without one, or still open)."""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ws.recv(timeout=deadline - time.monotonic())
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd is not None else None
    except TimeoutError:
        return None
    return None


def reply(ws: Any, kind: str = "error", timeout: float = 5.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        msg = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if msg.get("type") == kind:
            return dict(msg)


# -- text ------------------------------------------------------------------------------------------------------------


def test_any_string_is_either_refused_or_a_name_every_part_of_the_table_takes() -> None:
    """The name rule: 3,000 random strings (unpaired surrogates, control, format and private-use characters,
    combining marks, astral emoji, whitespace runs) are refused with a TextError, or come out NFC, at most 16
    characters, encodable, accepted by the setup line's parse_players, and drawn by pygame's font."""
    from game.table.names import TextError, clean_name

    pygame.font.init()
    font = pygame.font.Font(None, 30)
    rng = random.Random(7)
    good = [(0x20, 0x7F), (0xC0, 0x250), (0x300, 0x370), (0x1F600, 0x1F650), (0x4E00, 0x4E40)]
    bad = [(0, 0x20), (0x7F, 0xA0), (0x200B, 0x2030), (0xD800, 0xE000), (0xE000, 0xE010)]
    taken = refused = 0
    for _ in range(3000):
        raw = "".join(chr(rng.randrange(*rng.choice(bad if rng.random() < 0.04 else good)))
                      for _ in range(rng.randrange(0, 24)))
        if rng.random() < 0.3:
            raw = "  " + raw.replace("a", "a  ") + "\t"
        try:
            name = clean_name(raw)
        except TextError:
            refused += 1
            continue
        taken += 1
        name.encode("utf-8")
        assert 1 <= len(name) <= 16 and name == " ".join(name.split()) and name.isprintable()
        assert parse_players({"players": {"1": {"name": name}}}, 2)[1].name == name
        font.render(name, True, (255, 255, 255))
    assert taken > 300 and refused > 300, (taken, refused)


@pytest.mark.parametrize(("raw", "words"), [
    ("a\ud800b", "not text"),
    ("\udfff", "not text"),
    ("Ana\x07", "control or invisible"),
    ("An\u200dna", "control or invisible"),
    ("\x00", "control or invisible"),
    ("x" * 17, "at most 16"),
    (" \t ", "empty"),
    (12, "must be text"),
])
def test_a_bad_name_is_refused_with_the_reason(raw: object, words: str) -> None:
    from game.table.names import TextError, clean_text

    with pytest.raises(TextError, match=words):
        clean_text(raw, "'name'", 16)


def test_a_phone_name_that_is_not_text_never_reaches_the_screen(table: LiveTable) -> None:
    """An unpaired surrogate escaped in JSON, a control character, a zero-width joiner: each is refused with its
    reason on that phone and the lobby keeps the name it had; a decomposed accent is stored NFC. The lobby screen
    draws the whole time, and every phone's state stays encodable text."""
    pygame.font.init()
    ws = table.seat_socket(table.join(1))
    recv_state(ws)
    for raw, words in (('"Ana\\ud800"', "not text"), ('"Bo\\u0007"', "control"), ('"Cy\\u200dd"', "invisible"),
                       ('"\\udc00\\ud800"', "not text")):
        ws.send('{"op": "player", "name": ' + raw + ', "colour": "#123456"}')
        assert words in reply(ws)["error"], raw
    ws.send(json.dumps({"op": "player", "name": "Zoe\u0301  la  Reine", "colour": "#123456"}))
    reply(ws, "ack")
    table.wait(lambda: table.app.host.naming.card(1).name is not None)
    with table.lock:
        assert table.app.host.naming.card(1).name == "Zoé la Reine"
        draw(pygame.Surface((1280, 720)), table.app.view(time.monotonic()))
    state = recv_state(ws, lambda m: m["public"].get("lobby_players", {}).get("1"))
    assert state["public"]["lobby_players"]["1"]["name"] == "Zoé la Reine"
    json.dumps(state, ensure_ascii=False).encode("utf-8")
    ws.close()


# -- JSON ------------------------------------------------------------------------------------------------------------


DEEP = b"[" * 2000 + b"]" * 2000


@pytest.mark.parametrize(("path", "body", "status", "words"), [
    ("/api/join", DEEP, 400, "nested deeper"),
    ("/api/join", b'{"code": ' + b"[" * 1500 + b"]" * 1500 + b"}", 400, "nested deeper"),
    ("/api/join", b'{"code": "\\ud800"}', 400, "'code' must be"),
    ("/api/join", b'{"code": "\xff\xfe"}', 400, "not UTF-8"),
    ("/api/join", b'{"code": NaN}', 400, "NaN"),
    ("/api/operator/login", DEEP, 400, "nested deeper"),
    ("/api/operator/login", b'{"pin": "\\ud800\\ud800\\ud800\\ud800"}', 400, "'pin' must be"),
    ("/api/operator/login", "{\"pin\": \"\uff11\uff12\uff13\uff14\"}".encode(), 400, "'pin' must be"),
])
def test_bad_json_over_http_is_a_400_with_a_short_error_never_a_500(table: LiveTable, path: str, body: bytes,
                                                                    status: int, words: str) -> None:
    r = httpx.post(f"{table.base}{path}", content=body, headers={"Content-Type": "application/json"}, timeout=5)
    assert r.status_code == status, r.text[:300]
    assert words in r.json()["error"] and len(r.text) < 200
    assert httpx.get(f"{table.base}/api/public", timeout=5).status_code == 200


def test_deep_json_on_a_seat_socket_is_an_error_and_the_socket_lives(table: LiveTable) -> None:
    """2,000 levels of brackets (under the 4 KiB limit) after hello: an error naming the depth, then the phone plays
    on; as its hello, the socket is closed with 4401 and its reason, never dropped without a code."""
    ws = table.seat_socket(table.join(1))
    recv_state(ws)
    ws.send(DEEP.decode())
    assert "nested deeper" in reply(ws)["error"]
    ws.send(json.dumps({"op": "tap", "button": "SET"}))
    reply(ws, "ack")
    ws.close()
    first = open_ws(f"{table.ws_base}/ws/seat")
    first.send(DEEP.decode())
    assert closed_code(first) == 4401


# -- frames ----------------------------------------------------------------------------------------------------------


def test_binary_oversize_and_flooding_sockets_are_closed_with_their_codes(table: LiveTable) -> None:
    """A binary frame closes a seat socket (before or after hello) and a spectator's with 1003, a message over
    4 KiB with 1009, 200 messages at once with 1008; each is one log line, and a phone joins afterwards."""
    ws = table.seat_socket(table.join(1))
    recv_state(ws)
    ws.send(b"\x00\x01binary")
    assert closed_code(ws) == 1003
    first = open_ws(f"{table.ws_base}/ws/seat")
    first.send(b'{"op": "hello"}')
    assert closed_code(first) == 1003
    watch = open_ws(f"{table.ws_base}/ws/watch")
    recv_state(watch)
    watch.send(b"\xff" * 10)
    assert closed_code(watch) == 1003
    big = table.seat_socket(table.join(2))
    recv_state(big)
    big.send(json.dumps({"op": "ping", "pad": "x" * 5000}))
    assert closed_code(big) == 1009
    flood = table.seat_socket(table.join(3))
    recv_state(flood)
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(200):
            flood.send(json.dumps({"op": "ping"}))
        flood.recv(timeout=5)
        while True:
            flood.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    ws = table.seat_socket(table.join(4))
    recv_state(ws)
    ws.send(json.dumps({"op": "tap", "button": "SET"}))
    recv_state(ws, lambda m: m["me"]["joined"])
    ws.close()


# -- slow and idle sockets -------------------------------------------------------------------------------------------


def test_slow_and_idle_sockets_are_closed_in_time(tmp_path: Path) -> None:
    """A request sent a header line at a time (slowloris), a socket that sends nothing, a body sent a byte at a
    time and a seat socket that never says hello are each closed once their time is up (here 1 s); a spectator's
    socket stays."""
    from game.web.guard import Limits

    t = LiveTable(tmp_path, limits=Limits(request_s=1.0, hello_s=1.0))
    try:
        port = t.server.port
        slow, idle, body = (socket.create_connection(("127.0.0.1", port)) for _ in range(3))
        slow.sendall(b"GET /watch HTTP/1.1\r\nHost: x\r\n")
        body.sendall(b"POST /api/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{")
        mute = open_ws(f"{t.ws_base}/ws/seat")
        watch = open_ws(f"{t.ws_base}/ws/watch")
        recv_state(watch)
        start = time.monotonic()
        for s in (slow, idle, body):
            s.settimeout(0.3)
        done: dict[str, float] = {}
        while len(done) < 3 and time.monotonic() - start < 8:
            for name, s in (("slow", slow), ("idle", idle), ("body", body)):
                if name in done:
                    continue
                try:
                    if name == "slow":
                        s.sendall(b"X-Pad: 1\r\n")
                    got = s.recv(4096)
                except TimeoutError:
                    continue
                except OSError:
                    got = b""
                if not got or b"HTTP/1.1" in got:
                    done[name] = time.monotonic() - start
        assert set(done) == {"slow", "idle", "body"}, done
        assert all(v < 4.0 for v in done.values()), done
        assert closed_code(mute, timeout=4) == 4401
        watch.send(json.dumps({"op": "ping"}))  # a spectator may sit and watch as long as it likes
        ws = t.seat_socket(t.join(1))
        recv_state(ws)
        ws.close()
        watch.close()
    finally:
        t.close()


def _spawn_table(tmp_path: Path, nofile: int = 1024) -> tuple[subprocess.Popen[str], dict[str, Any], Path]:
    """The table and its server in a process of their own with the kiosk's descriptor limit (systemd's default
    soft limit is 1024); its stderr goes to a file."""
    err = tmp_path / "table.stderr"
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "webtable.py"), str(tmp_path), "--nofile",
                             str(nofile)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err.open("w"),
                            text=True, cwd=ROOT)
    assert proc.stdout is not None
    line = " "
    while line and not line.startswith("{"):  # pygame's banner comes first
        line = proc.stdout.readline()
    assert line, err.read_text()[-2000:]
    return proc, json.loads(line), err


def _stop(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.close()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)


def _raw_sockets(port: int, sources: list[str], each: int) -> list[socket.socket]:
    """``each`` idle TCP connections from each of these loopback addresses (all of 127/8 is this machine)."""
    out = []
    for src in sources:
        for _ in range(each):
            s = socket.socket()
            s.settimeout(3)
            s.bind((src, 0))
            try:
                s.connect(("127.0.0.1", port))
            except OSError:
                s.close()
                continue
            out.append(s)
    return out


def _phone_joins_and_plays(info: dict[str, Any], panel: int) -> None:
    """A real phone: the page, the join, the socket's hello, a tap that joins its seat in the lobby."""
    with httpx.Client(timeout=10) as http:
        assert http.get(f"{info['base']}/join/{info['codes'][str(panel)]}").status_code == 200
        r = http.post(f"{info['base']}/api/join", json={"code": info["codes"][str(panel)]})
        assert r.status_code == 200, r.text
        token = r.json()["token"]
    ws = open_ws(f"{info['ws']}/ws/seat")
    try:
        ws.send(json.dumps({"op": "hello", "token": token}))
        recv_state(ws, timeout=10)
        ws.send(json.dumps({"op": "tap", "button": "SET"}))
        recv_state(ws, lambda m: m["me"]["joined"], timeout=10)
    finally:
        ws.close()


def _nofile_at_least(n: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < n:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(n, hard), hard))
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] >= n, "this test needs 4,096 descriptors"


def test_a_thousand_idle_sockets_lock_no_phone_out(tmp_path: Path) -> None:
    """1,100 idle sockets from one address, then 700 from 35 addresses (20 each, more than the 512 cap in all),
    against a table whose process may hold 1,024 descriptors: it never runs out, a real phone on another address
    joins and plays, and the log stays a few lines."""
    _nofile_at_least(4096)
    proc, info, err = _spawn_table(tmp_path)
    port = int(info["base"].rsplit(":", 1)[1])
    held: list[socket.socket] = []
    try:
        held += _raw_sockets(port, ["127.0.0.2"], 1100)
        _phone_joins_and_plays(info, 1)
        held += _raw_sockets(port, [f"127.0.1.{i}" for i in range(1, 36)], 20)
        _phone_joins_and_plays(info, 2)
        assert proc.poll() is None
        assert len(held) > 1000
    finally:
        for s in held:
            s.close()
        _stop(proc)
    log = err.read_text()
    assert len(log.encode()) < 4096, log[:3000]
    assert "Traceback" not in log and "Too many open files" not in log, log[:3000]


def test_a_flood_of_bad_input_writes_a_few_lines_of_log(tmp_path: Path) -> None:
    """300 malformed HTTP requests, 300 bodies nested too deep, 150 sockets closed for binary frames and 100 for
    messages naming another panel: the table's log stays under 4 KB, and a phone joins afterwards."""
    proc, info, err = _spawn_table(tmp_path, nofile=0)
    port = int(info["base"].rsplit(":", 1)[1])
    try:
        for _ in range(300):
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                s.sendall(b"BLAH \x00 nonsense\r\n\r\n")
                s.recv(1024)
        with httpx.Client(timeout=5) as http:
            for _ in range(300):
                assert http.post(f"{info['base']}/api/join", content=DEEP).status_code == 400
        for _ in range(150):
            ws = open_ws(f"{info['ws']}/ws/watch")
            ws.send(b"\x00")
            closed_code(ws)
        with httpx.Client(timeout=5) as http:
            token = http.post(f"{info['base']}/api/join", json={"code": info["codes"]["3"]}).json()["token"]
        for _ in range(100):
            ws = open_ws(f"{info['ws']}/ws/seat")
            ws.send(json.dumps({"op": "hello", "token": token}))
            ws.send(json.dumps({"op": "tap", "button": "SET", "panel": 1}))
            assert closed_code(ws) == 4403
        _phone_joins_and_plays(info, 1)
    finally:
        _stop(proc)
    log = err.read_text()
    assert len(log.encode()) < 4096, f"{len(log)} characters: {log[:2000]}"


# -- the server's thread ---------------------------------------------------------------------------------------------


def test_a_failure_in_the_server_is_logged_once_and_phones_connect_again(
        table: LiveTable, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """An exception escapes the server's loop mid-lobby: it is one log line naming the part 'phones' and the cause,
    the server starts again on the same port, a phone joins and plays, and the table never stopped stepping."""
    original = uvicorn.Server.on_tick
    fired: list[int] = []

    async def once(self: uvicorn.Server, counter: int) -> bool:
        if not fired:
            fired.append(counter)
            raise RuntimeError("injected fault in the server loop")
        return await original(self, counter)

    frames = table.frames
    with caplog.at_level(logging.ERROR):
        monkeypatch.setattr(uvicorn.Server, "on_tick", once)
        table.wait(lambda: bool(fired), what="the injected fault")
        deadline = time.monotonic() + 15
        joined = False
        while not joined and time.monotonic() < deadline:
            try:
                ws = table.seat_socket(table.join(1))
                recv_state(ws)
                ws.send(json.dumps({"op": "tap", "button": "SET"}))
                recv_state(ws, lambda m: m["me"]["joined"])
                ws.close()
                joined = True
            except (httpx.TransportError, OSError, AssertionError):
                time.sleep(0.2)
    assert joined, "no phone could join after the server's failure"
    lines = [r for r in caplog.records if "injected fault" in r.getMessage()]
    assert len(lines) == 1 and "phones failed" in lines[0].getMessage(), [r.getMessage() for r in lines]
    assert "phones" in [p.name for p in supervise.parts()]
    assert table.frames > frames + 10
    with table.lock:
        assert table.app.error is None


# -- the web flags ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("flag", "value", "words"), [
    ("--web-host", "not a host!", "--web-host 'not a host!': not an address or a host name"),
    ("--web-host", "999.1.1.1", "--web-host '999.1.1.1': not an IPv4 address"),
    ("--web-host", "192.0.2.1", "--web-host '192.0.2.1': not an address of this machine"),
    ("--web-url", "ftp://table.local", "--web-url 'ftp://table.local': must be http:// or https://"),
    ("--web-url", "http://table.local:99999", "--web-url 'http://table.local:99999': Port out of range"),
    ("--web-url", "http://x/" + "y" * 100, "--web-url 'http://x/yyy"),
])
def test_a_bad_web_flag_is_one_line_naming_it_and_the_table_plays_on(tmp_path: Path, flag: str, value: str,
                                                                      words: str) -> None:
    args = [sys.executable, "-m", "game", "play", "--sim", "--headless", "--mute", "--journal",
            str(tmp_path / "j.db"), "--max-frames", "5", "--web-port", "0", "--web-pin", PIN]
    if flag != "--web-host":
        args += ["--web-host", "127.0.0.1"]
    done = subprocess.run([*args, flag, value], capture_output=True, text=True, cwd=ROOT, timeout=60,
                          env={**dict(__import__("os").environ), "SDL_VIDEODRIVER": "dummy",
                               "SDL_AUDIODRIVER": "dummy"})
    assert done.returncode == 0, done.stderr[-800:]
    assert done.stderr.count("\n") == 1 and words in done.stderr, done.stderr
    assert done.stderr.startswith("burrito-table: phone companion off: ") and "Phones:" not in done.stdout


@pytest.mark.parametrize(("args", "words"), [
    ((8080, "\uff11\uff12\uff13\uff14", None, None), "--web-pin: the operator PIN must be 4-12 digits"),
    ((8080, None, "", None), "--web-host '': not an address"),
    ((8080, None, "-bad-.local", None), "--web-host '-bad-.local'"),
    ((8080, None, None, "http://user:pw@table.local"), "no user"),
    ((8080, None, None, "http://table.local/?x=1"), "no user, ? query"),
    ((8080, None, None, "http://table.local/\x00"), "only plain ASCII"),
])
def test_check_args_names_the_flag(args: tuple[Any, ...], words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("?", r"\?")):
        check_args(*args)


def test_check_args_takes_good_values() -> None:
    for host in ("0.0.0.0", "::", "127.0.0.1", "fe80::1", "table.local", "localhost", "burrito-table"):
        check_args(8080, "2468", host, "http://192.168.1.20:8080")
    for url in ("http://table.local", "https://table.example.org/burrito", "http://[fe80::1]:9000"):
        check_args(0, None, "0.0.0.0", url)
