"""A live table for the companion's tests: the real TableApp on simulated panels (MockFactory pins), stepped by
its own thread at 60 Hz on the host clock as ``burrito-table play`` steps it, with the real bridge and the real
uvicorn server on 127.0.0.1 (a free port). Tests look at the app only while holding ``lock``.

Run as a program (``python tests/webtable.py DIR [--nofile N]``) it is a table in a process of its own, with the
kiosk's descriptor limit when asked: it prints one JSON line (the address and every panel's join code), logs as
``burrito-table play`` does (nothing configured: warnings to stderr) and runs until its stdin closes."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from game.journal import Journal
from game.table.loop import TableApp
from game.table.runner import STEP_S
from game.table.sim import open_sim
from game.web.bridge import TableBridge
from game.web.server import WebServer
from game.web.tokens import PinGate

PIN = "4321"


class LiveTable:
    def __init__(self, tmp: Path, *, pin: PinGate | None = None, publish_s: float = 0.05, view: bool = True,
                 **server: Any) -> None:
        self.journal_path = str(tmp / "journal.db")
        self.rig = open_sim(time.monotonic, devices=False)
        self.bridge = TableBridge(self.rig.panels.pinmap.seats, publish_s=publish_s)
        self.bridge.woken = self.rig.panels.source.woken
        self.server = WebServer(self.bridge, host="127.0.0.1", port=0, pin=pin or PinGate(PIN),
                                journal_path=self.journal_path, settings={"port": 0}, **server)
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self.view = view
        self.frames = 0
        self.server.start()
        self.base = f"http://127.0.0.1:{self.server.port}"
        self.ws_base = f"ws://127.0.0.1:{self.server.port}"
        self.thread = threading.Thread(target=self._run, name="table", daemon=True)
        self.thread.start()
        assert self._ready.wait(10), "the table loop did not start"
        self.wait(lambda: self.bridge.snapshot.public.get("screen") == "lobby")

    def _run(self) -> None:
        # the journal's SQLite connection belongs to the loop's thread, as in ``burrito-table play``
        self.journal = Journal(self.journal_path)
        self.app = TableApp(panels=self.rig.panels, journal=self.journal, clock=time.monotonic,
                            seatmap=list(range(1, self.rig.panels.pinmap.seats + 1)), use_referee=False)
        self.app.lobby_seed = 5
        self.app.web = self.bridge
        self.app.open_lobby()
        self._ready.set()
        try:
            self._loop()
        finally:
            self.journal.close()

    def _loop(self) -> None:
        woken = self.rig.panels.source.woken
        next_step = time.monotonic()
        while not self._stop.is_set():
            now = time.monotonic()
            edge = woken.is_set()
            woken.clear()
            with self.lock:
                stepped = False
                while next_step <= now:
                    self.app.step(next_step)
                    next_step += STEP_S
                    stepped = True
                if next_step < now:
                    next_step = now
                if edge and not stepped:
                    self.app.step(now)
                if self.view:
                    self.app.view(now)
                for req in self.app.requests:
                    if req == "restart":
                        self.app.abandon()
                self.app.requests.clear()
                self.frames += 1
            delay = next_step - time.monotonic()
            if delay > 0:
                woken.wait(delay)

    def wait(self, cond: Any, timeout: float = 10.0, what: str = "") -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if cond():
                    return
            time.sleep(0.01)
        raise AssertionError(f"timed out waiting for {what or cond}")

    def join_code(self, panel: int) -> str:
        return self.bridge.book.join_code(panel)

    def join(self, panel: int) -> str:
        r = httpx.post(f"{self.base}/api/join", json={"code": self.join_code(panel)})
        assert r.status_code == 200, r.text
        return str(r.json()["token"])

    def seat_socket(self, token: str | None) -> Any:
        ws = open_ws(f"{self.ws_base}/ws/seat")
        if token is not None:
            ws.send(json.dumps({"op": "hello", "token": token}))
        return ws

    def close(self) -> None:
        self._stop.set()
        self.rig.panels.source.woken.set()
        self.thread.join(timeout=5)
        self.server.stop()
        self.rig.close()


def open_ws(url: str) -> Any:
    """A client socket the test closes itself (``connect`` used as its own context manager, entered by hand)."""
    return connect(url, open_timeout=5).__enter__()


def recv_state(ws: Any, cond: Any = None, timeout: float = 5.0) -> dict[str, Any]:
    """The next state message (that meets ``cond``) from a socket; errors and acks are skipped."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("no matching state message")
        msg = json.loads(ws.recv(timeout=left))
        if msg.get("type") == "state" and (cond is None or cond(msg)):
            return dict(msg)


def main(argv: list[str]) -> int:
    import argparse
    import resource
    import sys

    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--nofile", type=int, default=0, help="the soft RLIMIT_NOFILE (systemd's default: 1024)")
    args = parser.parse_args(argv)
    if args.nofile:
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (args.nofile, hard))
    table = LiveTable(Path(args.dir), view=False)
    try:
        codes = {p: table.join_code(p) for p in range(1, table.bridge.panels + 1)}
        print(json.dumps({"base": table.base, "ws": table.ws_base, "codes": codes}), flush=True)
        sys.stdin.read()
    finally:
        table.close()
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
