"""Replay throughput and per-event latency of the Throw Throw Burrito rules engine.

    python benchmarks/bench_replay.py [--events 200000] [--seed 1]

Builds seeded random valid games (every event kind, time gaps around the tie and
declaration windows), then measures:

- engine: check + advance + step over already-parsed events, in events/s;
- replay: the whole ``run_log`` path from JSON Lines text, in events/s;
- latency: one event through check + advance + step, p50 / p99 / max in ms;
- journal: one ``JournaledTable.submit`` (SQLite WAL, synchronous=FULL), p50 / p99 in ms;
- JSON decoding alone, to show how much of replay is parsing.

Machines here are noisy: compare figures within one run, not across runs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.games.throw_throw_burrito import rules as ttb  # noqa: E402
from game.journal import Journal, JournaledTable  # noqa: E402
from game.log import Table, parse_line, run_log  # noqa: E402

GAPS = [0.01, 0.03, 0.05, 0.2, 0.6, 1.5]
KINDS = ["set", "set", "declare", "pick", "grab", "throw", "throw", "hit", "hit", "miss", "catch", "foul"]


def random_game(rng: random.Random) -> list[dict[str, Any]]:
    """One valid game log, played until it is won or 400 events."""
    two = rng.random() < 0.2
    seats = rng.randint(2, 12 if two else 6)
    setup = {"event": "setup", "game": ttb.name, "seats": seats, "options": {"two_decks": two, "seed": rng.randrange(1 << 30)}}
    table, _ = Table.start(dict(setup))
    log = [setup]
    t = 0.0
    for _ in range(400):
        t = round(t + rng.choice(GAPS), 3)
        kind = rng.choice(KINDS)
        event: dict[str, Any] = {"t": t, "event": kind}
        if kind != "miss":
            event["seat"] = rng.randint(1, seats)
        if kind in ("grab", "throw", "hit", "miss", "catch"):
            event["burrito"] = rng.randint(1, 4 if two else 2)
        if kind == "declare":
            event["battle"] = rng.choice(ttb.BATTLE_KINDS)
            event["valid"] = rng.random() < 0.9
        if kind == "pick":
            event["players"] = rng.sample(range(1, seats + 1), 2)
        try:
            table.apply(table.check(dict(event)))
        except ValueError:
            break
        log.append(event)
        if table.rules.is_over(table.state):
            break
    return log


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--journal-events", type=int, default=500)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    games: list[list[dict[str, Any]]] = []
    total = 0
    while total < args.events:
        games.append(random_game(rng))
        total += len(games[-1]) - 1
    texts = [[json.dumps(e) for e in g] for g in games]

    # Engine: events already parsed (copies made outside the timed region).
    copies = [[dict(e) for e in g] for g in games]
    latencies: list[float] = []
    start = time.perf_counter()
    for g in copies:
        table, _ = Table.start(g[0])
        for e in g[1:]:
            table.apply(table.check(e))
        table.finish()
    engine_s = time.perf_counter() - start

    copies = [[dict(e) for e in g] for g in games]
    clock = time.perf_counter_ns
    for g in copies:
        table, _ = Table.start(g[0])
        for e in g[1:]:
            t0 = clock()
            table.apply(table.check(e))
            latencies.append((clock() - t0) / 1e6)

    start = time.perf_counter()
    for lines in texts:
        run_log(lines)
    replay_s = time.perf_counter() - start

    start = time.perf_counter()
    for lines in texts:
        for line in lines:
            parse_line(line, 0)
    parse_s = time.perf_counter() - start

    journal_ms: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, Journal(os.path.join(tmp, "bench.db")) as journal:
        live = None
        for g in games:
            live, _ = JournaledTable.new(journal, g[0])
            for e in g[1:]:
                t0 = clock()
                live.submit(dict(e))
                journal_ms.append((clock() - t0) / 1e6)
                if len(journal_ms) >= args.journal_events:
                    break
            if len(journal_ms) >= args.journal_events:
                break

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}")
    print(f"{len(games)} games, {total} events\n")
    print("| measure | result |")
    print("|---|---|")
    print(f"| engine throughput (check + advance + step) | {total / engine_s:,.0f} events/s |")
    print(f"| replay throughput (JSON Lines text -> summary) | {total / replay_s:,.0f} events/s |")
    print(f"| JSON decoding alone (for scale) | {(total + len(games)) / parse_s:,.0f} lines/s |")
    print(f"| per-event latency p50 / p99 / max | {statistics.median(latencies):.4f} / {pct(latencies, 0.99):.4f} / "
          f"{max(latencies):.3f} ms |")
    print(f"| journaled event (SQLite WAL, synchronous=FULL) p50 / p99 | {statistics.median(journal_ms):.3f} / "
          f"{pct(journal_ms, 0.99):.3f} ms |")


if __name__ == "__main__":
    main()
