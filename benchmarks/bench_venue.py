"""A venue with many tables on one local mosquitto: message rate and the venue service's lag.

    python benchmarks/bench_venue.py --tables 50 --seconds 40 --speed 1

Each simulated table is the real publisher fed by a real journaled table (an in-memory SQLite journal) replaying
seeded sample games at ``speed`` times real time, one driver thread for all tables; the venue is the real
``burrito-table venue`` in its own process; the broker is Debian's mosquitto with a venue's persistence settings.
Lag is venue receive time minus the time the table queued the message (same machine, same clock), over every
started/call/ended message. The tables' side also reports how long ``table_changed`` (the app's hook) takes.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import platform
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


from game.journal import Journal, JournaledTable  # noqa: E402
from game.venue.publisher import Publisher  # noqa: E402
from tests.mosquitto import Mosquitto  # noqa: E402
from tests.venue_sample import sample_games  # noqa: E402


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q / 100 * len(s)))]


class SimTable:
    def __init__(self, n: int, url: str, games: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> None:
        self.journal = Journal(":memory:")
        self.publisher = Publisher(url, "bench", f"t{n:02d}", client_id=f"bench-t{n:02d}").start()
        self.games = games
        self.live: JournaledTable | None = None
        self.app = types.SimpleNamespace(live=None, journal=self.journal)
        self.hook: list[float] = []
        self.events = 0

    def begin(self, index: int) -> list[dict[str, Any]]:
        setup, events = self.games[index % len(self.games)]
        self.live, _ = JournaledTable.new(self.journal, setup)
        self.app.live = self.live
        self._tell()
        return events

    def submit(self, event: dict[str, Any]) -> None:
        assert self.live is not None
        self.live.submit(event)
        self.events += 1
        self._tell()

    def end(self) -> None:
        assert self.live is not None
        self.live.finish()
        self._tell()

    def _tell(self) -> None:
        t = time.perf_counter()
        self.publisher.table_changed(self.app)
        self.hook.append(time.perf_counter() - t)


def drive(tables: list[SimTable], seconds: float, speed: float, rng: random.Random) -> None:
    """Every table plays its games back to back, events due at their table time / speed."""
    start = time.monotonic()
    heap: list[tuple[float, int, int, int]] = []  # (due, table, game index, event index)
    scripts: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for i, _ in enumerate(tables):
        heapq.heappush(heap, (start + rng.uniform(0, 5) / speed, i, 0, -1))
    while heap:
        due, i, g, e = heapq.heappop(heap)
        if due - start > seconds:
            break
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        table = tables[i]
        if e == -1:
            events = scripts[(i, g)] = table.begin(g)
            t0 = due
        else:
            events = scripts[(i, g)]
            table.submit(events[e])
            t0 = due - events[e]["t"] / speed
        if e + 1 < len(events):
            heapq.heappush(heap, (t0 + events[e + 1]["t"] / speed, i, g, e + 1))
        else:
            table.end()
            del scripts[(i, g)]
            heapq.heappush(heap, (due + rng.uniform(5, 15) / speed, i, g + 1, -1))  # a new game after a break


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=40.0, help="how long the tables play (wall clock)")
    ap.add_argument("--speed", type=float, default=1.0, help="table time per wall-clock second")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--screenshot", metavar="PNG", help="draw the venue's leaderboard at the end")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="bench-venue-"))
    broker = Mosquitto(work / "broker", save_every_change=False).start()
    db = work / "venue.db"
    venue = subprocess.Popen([sys.executable, "-m", "game", "venue", "--broker", broker.url, "--db", str(db),
                              "--venue", "bench", "--json", "--seconds", str(args.seconds + 15)],
                             cwd=ROOT, stdout=subprocess.PIPE, text=True)
    time.sleep(1.5)  # the venue subscribes first: a venue is always there before its tables
    games = sample_games(40, seed=args.seed)
    tables = [SimTable(n + 1, broker.url, games[n % 40:] + games[:n % 40]) for n in range(args.tables)]
    time.sleep(1.0)
    cpu0 = time.process_time()
    t0 = time.monotonic()
    drive(tables, args.seconds, args.speed, rng)
    wall = time.monotonic() - t0
    cpu = time.process_time() - cpu0
    flushed = all(t.publisher.flush(10) for t in tables)
    stats = [t.publisher.stats() for t in tables]
    if args.screenshot:  # while the tables are still up: the venue as its screen shows it during play
        time.sleep(1.0)
        from game.venue.screen import save_png
        from game.venue.service import VenueStore

        store = VenueStore(str(db))
        save_png(store.report(), args.screenshot)
        store.close()
    for t in tables:
        t.publisher.stop(1.0)
    out, _ = venue.communicate(timeout=60)
    broker_cpu = cpu_seconds(broker.proc.pid) if broker.proc is not None else float("nan")
    broker.stop()
    report = json.loads(out)
    con = sqlite3.connect(db)
    lags = [(r - s) * 1000 for r, s in con.execute("SELECT received, sent FROM messages WHERE sent IS NOT NULL")]
    size = con.execute("SELECT AVG(LENGTH(body)) FROM messages WHERE kind = 'call'").fetchone()[0] or 0
    kinds = dict(con.execute("SELECT kind, COUNT(*) FROM messages GROUP BY kind").fetchall())
    span = con.execute("SELECT MIN(received), MAX(received) FROM messages").fetchone()
    con.close()
    published = sum(s["acked"] for s in stats)
    events = sum(t.events for t in tables)
    hook = [h * 1e6 for t in tables for h in t.hook]
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f} at the end; mosquitto {broker_version()}")
    print(f"{args.tables} tables x {args.seconds:g} s at speed {args.speed:g}: {events} events journaled, "
          f"{published} messages acknowledged by the broker ({published / wall:.0f} msg/s, "
          f"{events / wall:.0f} events/s); all flushed: {flushed}")
    print(f"venue stored: {kinds} (calls expected {events}); duplicates {report['counters'].get('duplicates', 0)}; "
          f"dropped at tables {sum(s['dropped'] for s in stats)}; finished games {report['games_finished']}")
    if span[0] is not None:
        print(f"venue receive span {span[1] - span[0]:.1f} s")
    print(f"venue lag (table queued -> venue stored), ms: p50 {pct(lags, 50):.1f}  p99 {pct(lags, 99):.1f}  "
          f"max {max(lags, default=float('nan')):.1f}  over {len(lags)} messages")
    print(f"broker CPU {broker_cpu:.1f} s over the run ({broker_cpu / wall * 100:.0f}% of one core); "
          f"a call's JSON about {size:.0f} bytes")
    print(f"table hook (table_changed), us: p50 {pct(hook, 50):.0f}  p99 {pct(hook, 99):.0f}  max {max(hook):.0f}; "
          f"tables' process CPU {cpu / wall * 100:.0f}% of one core")
    if args.screenshot:
        print(f"wrote {args.screenshot}")
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def broker_version() -> str:
    from tests.mosquitto import MOSQUITTO

    try:
        out = subprocess.run([str(MOSQUITTO), "-h"], capture_output=True, text=True, timeout=5).stdout
        return out.split("version", 1)[1].split()[0]
    except (IndexError, OSError, subprocess.SubprocessError):
        return "?"


if __name__ == "__main__":
    sys.exit(main())
