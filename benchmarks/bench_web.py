"""Phone companion speed: a phone's press to the table event, and the table's frame time with phones connected.

    python benchmarks/bench_web.py [--seconds 8] [--rounds 3]

The table: the real TableApp on the twelve-seat pin map (MockFactory pins), a six-seat Taco vs Burrito game played
by bots on every seat, stepped at 60 Hz on time.monotonic and drawn at 1920x1080 (SDL dummy driver) as
``burrito-table play`` does it. Frame time = one frame's steps + view + draw (the sleep to the next tick excluded).

Phases alternate, ``--rounds`` times each, ``--seconds`` long: *none* (no server at all) and *phones* (the server
on 127.0.0.1, 12 seat sockets on panels 1-12 and 20 spectator sockets, all in a separate client process as real
phones are other machines). In *phones*, one phone taps a button every 50-150 ms with its send time; the press
latency is from that send (time.monotonic, the same clock in both processes on Linux) to the moment the loop hands
it to ``TableApp.seat_event``. Aims: press p99 < one 60 Hz frame; frame time with phones within 5% of none.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


# -- the phones (a separate process) ------------------------------------------------------------------------------


async def phones(base: str, codes: list[str], spectators: int, seconds: float) -> dict[str, Any]:
    import httpx
    import websockets

    counts = {"seat_msgs": 0, "watch_msgs": 0, "taps": 0, "bytes": 0}
    stop = time.monotonic() + seconds
    async with httpx.AsyncClient() as client:
        tokens = []
        for code in codes:
            r = await client.post(f"{base}/api/join", json={"code": code})
            r.raise_for_status()
            tokens.append(r.json()["token"])
    ws_base = base.replace("http://", "ws://")

    async def reader(ws: Any, key: str) -> None:
        while time.monotonic() < stop:
            try:
                msg = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop - time.monotonic()))
            except TimeoutError:
                return
            counts[key] += 1
            counts["bytes"] += len(msg)

    async def seat(token: str, tapper: bool) -> None:
        async with websockets.connect(f"{ws_base}/ws/seat", max_size=2**22) as ws:
            await ws.send(json.dumps({"op": "hello", "token": token}))
            if not tapper:
                await reader(ws, "seat_msgs")
                return
            task = asyncio.ensure_future(reader(ws, "seat_msgs"))
            rng = random.Random(3)
            while time.monotonic() < stop - 0.2:
                await asyncio.sleep(rng.uniform(0.05, 0.15))
                await ws.send(json.dumps({"op": "tap", "button": "BRAWL", "sent": time.monotonic()}))
                counts["taps"] += 1
            await task

    async def watch() -> None:
        async with websockets.connect(f"{ws_base}/ws/watch", max_size=2**22) as ws:
            await reader(ws, "watch_msgs")

    await asyncio.gather(*(seat(t, i == len(tokens) - 1) for i, t in enumerate(tokens)),
                         *(watch() for _ in range(spectators)))
    return counts


# -- the table -------------------------------------------------------------------------------------------------------


def run(seconds: float, rounds: int, spectators: int) -> None:
    import pygame

    from game.games.taco_vs_burrito.buttons import TacoMapper
    from game.journal import Journal
    from game.registry import GAMES
    from game.table.loop import TableApp
    from game.table.runner import STEP_S
    from game.table.screens import draw
    from game.table.sim import open_sim
    from game.web.bridge import TableBridge
    from game.web.server import WebServer
    from game.web.tokens import PinGate
    from hardware.pinmap import load_pinmap

    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((1920, 1080))
    tmp = tempfile.TemporaryDirectory()
    pinmap = load_pinmap(str(ROOT / "hardware" / "pinmaps" / "twelve-seats.toml"))
    rig = open_sim(time.monotonic, pinmap, devices=False)
    journal = Journal(str(Path(tmp.name) / "bench.db"))
    app = TableApp(panels=rig.panels, journal=journal, clock=time.monotonic, seatmap=list(range(1, 7)),
                   use_referee=False)
    woken = rig.panels.source.woken

    def new_game(seed: int) -> None:
        app.start(GAMES["taco-vs-burrito"].setup(6, 0, seed=seed))
        app.mapper = TacoMapper(app.seatmap, bot_seats=lambda n: set(range(1, n + 1)), seed=seed)

    new_game(1)
    bridge = TableBridge(pinmap.seats)
    bridge.woken = woken
    server = WebServer(bridge, host="127.0.0.1", port=0, pin=PinGate("1234"), journal_path=None)
    server.start()
    base = f"http://127.0.0.1:{server.port}"

    cpu: list[float] = []  # the same frames' CPU time on the loop's thread (what other processes' load does not add)

    def frames(secs: float, keep: bool = True) -> list[float]:
        out: list[float] = []
        next_step = time.monotonic()
        end = next_step + secs
        seed = 2
        while True:
            now = time.monotonic()
            if now >= end:
                return out
            t0 = time.perf_counter()
            c0 = time.thread_time()
            edge = woken.is_set()
            woken.clear()
            steps = 0
            while next_step <= now and steps < 5:
                app.step(next_step)
                next_step += STEP_S
                steps += 1
            if next_step < now:
                next_step = now
            if edge and steps == 0:
                app.step(now)
            draw(screen, app.view(now))
            out.append((time.perf_counter() - t0) * 1000)
            if keep:
                cpu.append((time.thread_time() - c0) * 1000)
            if app.over:
                new_game(seed)
                seed += 1
            delay = next_step - time.monotonic()
            if delay > 0:
                woken.wait(delay)

    none_ms: list[float] = []
    with_ms: list[float] = []
    lat_ms: list[float] = []
    srv_ms: list[float] = []  # from the server's receipt of the tap (its thread) to the loop applying it
    counts: list[dict[str, Any]] = []
    cpu_none: list[float] = []
    cpu_with: list[float] = []
    for _ in range(rounds):
        app.web = None
        cpu.clear()
        none_ms += frames(seconds)
        cpu_none += cpu
        app.web = bridge
        bridge.publish(app, time.monotonic(), force=True)
        bridge.book.new_session()  # as a new lobby would: this round's phones join (joins are sealed in a game)
        codes = [bridge.book.join_code(p) for p in range(1, 13)]
        bridge.pump(app, time.monotonic())  # nothing left over from the last round
        bridge.latency.clear()
        bridge.record_latency = True
        proc = subprocess.Popen([sys.executable, __file__, "--phones", base, json.dumps(codes), str(spectators),
                                 str(seconds + 1.5)], stdout=subprocess.PIPE, text=True)
        frames(1.0, keep=False)  # the phones join and connect before frames are measured (the table runs on)
        cpu.clear()
        with_ms += frames(seconds)
        cpu_with += cpu
        while proc.poll() is None:  # the table keeps running (unmeasured) until the phones are done
            frames(0.1, keep=False)
        out, _ = proc.communicate(timeout=30)
        counts.append(json.loads(out.strip().splitlines()[-1]))
        bridge.record_latency = False
        lat_ms += [(applied - sent) * 1000 for _, applied, sent in bridge.latency if sent is not None]
        srv_ms += [(applied - got) * 1000 for got, applied, _ in bridge.latency]
    server.stop()
    rig.close()
    journal.close()
    mean_none, mean_with = statistics.fmean(none_ms), statistics.fmean(with_ms)
    med_none, med_with = statistics.median(none_ms), statistics.median(with_ms)
    print(f"machine: {os.cpu_count()} cores {platform.machine()}, Python {platform.python_version()}, "
          f"pygame-ce {pygame.version.ver}, load average {os.getloadavg()[0]:.1f}")
    print(f"phones: 12 seat sockets + {spectators} spectators, per round: "
          + "; ".join(f"{c['taps']} taps, {c['seat_msgs']} seat + {c['watch_msgs']} watch messages" for c in counts))
    print("| measure | n | p50 ms | p99 ms | mean ms | aim |")
    print("|---|---|---|---|---|---|")
    print(f"| frame, no server | {len(none_ms)} | {med_none:.2f} | {pct(none_ms, 99):.2f} | {mean_none:.2f} | |")
    print(f"| frame, 12 phones + {spectators} spectators | {len(with_ms)} | {med_with:.2f} | {pct(with_ms, 99):.2f} | "
          f"{mean_with:.2f} | within 5% |")
    cn, cw = statistics.fmean(cpu_none), statistics.fmean(cpu_with)
    print(f"| frame CPU on the loop thread, no server | {len(cpu_none)} | {statistics.median(cpu_none):.2f} | "
          f"{pct(cpu_none, 99):.2f} | {cn:.2f} | |")
    print(f"| frame CPU on the loop thread, with phones | {len(cpu_with)} | {statistics.median(cpu_with):.2f} | "
          f"{pct(cpu_with, 99):.2f} | {cw:.2f} | within 5% |")
    print(f"| phone press -> TableApp.seat_event | {len(lat_ms)} | {statistics.median(lat_ms):.2f} | "
          f"{pct(lat_ms, 99):.2f} | {statistics.fmean(lat_ms):.2f} | p99 < 16.7 |")
    print(f"| server receipt -> TableApp.seat_event | {len(srv_ms)} | {statistics.median(srv_ms):.2f} | "
          f"{pct(srv_ms, 99):.2f} | {statistics.fmean(srv_ms):.2f} | |")
    print(f"frame time with phones vs none: median {100 * (med_with / med_none - 1):+.1f}%, "
          f"mean {100 * (mean_with / mean_none - 1):+.1f}%; loop-thread CPU: median "
          f"{100 * (statistics.median(cpu_with) / statistics.median(cpu_none) - 1):+.1f}%, mean {100 * (cw / cn - 1):+.1f}%")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--phones":
        base, codes, spectators, seconds = sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
        print(json.dumps(asyncio.run(phones(base, codes, spectators, seconds))))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=8.0, help="length of each phase")
    ap.add_argument("--rounds", type=int, default=3, help="none/phones phase pairs")
    ap.add_argument("--spectators", type=int, default=20)
    a = ap.parse_args()
    run(a.seconds, a.rounds, a.spectators)


if __name__ == "__main__":
    main()
