"""Referee accuracy on simulated battles, the measured hit window, and how long calls wait.

    python benchmarks/bench_referee.py                 # 1,000 battles per scenario, event level, 2 processes
    python benchmarks/bench_referee.py --battles 200 --jobs 1

1. Measures the timestamp errors the referee lives with: the real detector on simulated traces (burrito impact and
   catch, badge impact) and clock sync (``simulate_clock_sync``), then the burrito-to-badge gap of one contact -- the
   hit window (R1) must hold all of it; and how long the detector takes to decide a badge impact or a bounce (the
   heartbeat rule R2 allows for it).
2. Runs every scenario of the issue at the event level with those errors, through the referee and the real rules
   engine, and prints per scenario: correct automatic calls, questions asked, wrong calls, and call delay.

On a terminal each scenario's battles draw a progress bar (tqdm); redirected output stays free of it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.firmware.detector import Detector  # noqa: E402
from firmware_bridge.progress import progress  # noqa: E402
from firmware_bridge.traces import make_trace  # noqa: E402
from firmware_bridge.virtual import simulate_clock_sync  # noqa: E402
from game.referee import referee as R  # noqa: E402
from game.referee.battlesim import SCENARIOS, ErrorModel, make_battle, run_battle  # noqa: E402

#: kind -> how long after its stamp the detector decided each event, ms (R2/R3: BADGE_DETECT_S, BURRITO_DETECT_S)
DECIDED_AFTER: dict[str, list[float]] = {}


def _stamp_errors(scenario: str, kind: str, n: int) -> list[float]:
    out = []
    for seed in range(n):
        tr = make_trace(scenario, 10_000 + seed)
        det = Detector(tr.device)
        found = []
        for s in tr.samples:
            new = det.feed(*s)
            for t_us, k, _ in new:
                DECIDED_AFTER.setdefault(f"{tr.device} {k}", []).append((s[0] - t_us) / 1000.0)
            found += new
        truth = [t for t, k in tr.truth if k == kind]
        got = [t for t, k, _ in found if k == kind]
        if truth and got:
            out.append((got[0] - truth[0]) / 1000.0)
    return out


def after_contact(n: int) -> None:
    """What a burrito tells of its first contact (R3, fumbles): the reported peak and the gap to its next event."""
    print("\n| after the first contact (burrito) | impact peak reported, g: min / p50 / max | next event after, ms: "
          "min / p50 / max |\n|---|---|---|")
    for scenario in ("throw_impact", "body_hit_fall", "fumbled_catch"):
        peaks, gaps = [], []
        for seed in range(n):
            tr = make_trace(scenario, 20_000 + seed)
            det = Detector(tr.device)
            found = [e for s in tr.samples for e in det.feed(*s)]
            first = next((e for e in found if e[1] == "impact"), None)
            if first is None:
                continue
            peaks.append(first[2])
            nxt = [e[0] for e in found if e[0] > first[0]]
            if nxt:
                gaps.append((min(nxt) - first[0]) / 1000.0)
        print(f"| {scenario} | {min(peaks):.1f} / {pct(peaks, 50):.1f} / {max(peaks):.1f} | "
              f"{min(gaps):.0f} / {pct(gaps, 50):.0f} / {max(gaps):.0f} |")


def measure(n: int) -> ErrorModel:
    burrito = _stamp_errors("throw_impact", "impact", n) + _stamp_errors("body_hit_fall", "impact", n)
    badge = _stamp_errors("badge_hit", "impact", n) + _stamp_errors("badge_hit_running", "impact", n)
    catch = _stamp_errors("throw_catch", "catch", n)
    clock: list[float] = []
    for seed in range(6):
        errs = simulate_clock_sync(seed, duration_s=120.0, settle_s=20.0)
        rng = random.Random(seed)
        clock += [e * 1000 * rng.choice((-1, 1)) for e in errs]
    return ErrorModel(burrito, badge, catch, clock)


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else float("nan")


def _one(args: tuple[str, int, ErrorModel, bool]) -> tuple[bool, bool, bool, list[float], str]:
    scenario, seed, err, heartbeats = args
    r = run_battle(make_battle(scenario, seed, err, heartbeats=heartbeats))
    return r.automatic, r.correct and bool(r.questions), not r.correct, r.call_delays, r.why


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--battles", type=int, default=1000, help="battles per scenario")
    ap.add_argument("--traces", type=int, default=60, help="traces per kind for the error measurement")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--scenario", action="append", help="only these scenarios")
    ap.add_argument("--no-heartbeats", action="store_true",
                    help="devices' heartbeats do not reach the referee (a host that does not pass them on): R2 falls "
                         "back to the fixed miss settle")
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cpus, Python {platform.python_version()}")
    t0 = time.perf_counter()
    err = measure(args.traces)
    rng = random.Random(1)
    gaps = [rng.choice(err.badge_ms) + rng.choice(err.clock_ms) - rng.choice(err.burrito_ms) - rng.choice(err.clock_ms)
            for _ in range(20_000)]
    print(f"\nmeasured in {time.perf_counter() - t0:.1f} s ({len(err.burrito_ms)} burrito, {len(err.badge_ms)} badge "
          f"traces through the detector; {len(err.clock_ms)} clock-sync samples)")
    print("| error | p50 ms | p99 ms | max ms |\n|---|---|---|---|")
    for name, xs in (("burrito impact stamp", err.burrito_ms), ("badge impact stamp", err.badge_ms),
                     ("catch stamp", err.catch_ms), ("clock sync |error|", [abs(x) for x in err.clock_ms]),
                     ("one contact's badge-burrito gap |g|", [abs(g) for g in gaps])):
        print(f"| {name} | {pct(xs, 50):.2f} | {pct(xs, 99):.2f} | {max(xs, key=abs):.2f} |")
    print(f"hit window R1 = {R.HIT_WINDOW_MS:g} ms; tie band R6 = +-{R.TIE_MARGIN_MS:g} ms around the tie window")
    print("\n| detector decides, after the stamp | p50 ms | p99 ms | max ms | referee allows |\n|---|---|---|---|---|")
    for key, allow in (("badge impact", f"BADGE_DETECT_S = {R.BADGE_DETECT_S * 1000:g} ms"),
                       ("burrito bounce", f"BURRITO_DETECT_S = {R.BURRITO_DETECT_S * 1000:g} ms")):
        xs = DECIDED_AFTER.get(key, [])
        print(f"| {key} | {pct(xs, 50):.1f} | {pct(xs, 99):.1f} | {max(xs, default=float('nan')):.1f} | {allow} |")

    after_contact(args.traces)

    scenarios = args.scenario or list(SCENARIOS)
    t1 = time.perf_counter()
    hb = "no heartbeats (fixed miss settle)" if args.no_heartbeats else "heartbeats every 1 s"
    print(f"\n{args.battles} battles per scenario, event level, {hb}, {args.jobs} process(es)\n")
    print("| scenario | automatic, correct | asked, correct | wrong | automatic % | call delay p50 / p99 s |")
    print("|---|---|---|---|---|---|")
    with multiprocessing.Pool(args.jobs) as pool:
        for sc in scenarios:
            jobs = [(sc, seed, err, not args.no_heartbeats) for seed in range(args.battles)]
            rows = list(progress(pool.imap(_one, jobs, chunksize=25), total=len(jobs), desc=sc))
            auto = sum(r[0] for r in rows)
            asked = sum(r[1] for r in rows)
            wrong = sum(r[2] for r in rows)
            delays = [d for r in rows for d in r[3]]
            goal = "" if sc == "badge offline" or auto >= 0.95 * len(rows) else " (goal 95 %)"
            print(f"| {sc} | {auto} | {asked} | {wrong} | {100 * auto / len(rows):.1f}{goal} | "
                  f"{pct(delays, 50):.2f} / {pct(delays, 99):.2f} |")
            for r in rows:
                if r[2]:
                    print(f"|   wrong: {r[4]} | | | | | |")
                    break
    print(f"\nbattles: {len(scenarios) * args.battles} in {time.perf_counter() - t1:.0f} s")


if __name__ == "__main__":
    main()
