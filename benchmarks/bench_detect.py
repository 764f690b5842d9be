"""Detection quality and speed on simulated traces.

    python benchmarks/bench_detect.py [--throws 200] [--rate 833] [--scenario NAME ...]

For every scenario, simulate N seeded traces (firmware_bridge.traces), run the detector, pair detections with the truth
(same kind, within the kind's tolerance), and print precision, recall and timing error (p50/p99 of |found - true| in ms)
per event kind, then the detector's throughput in samples/s on this machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from firmware_bridge.firmware.detector import Detector  # noqa: E402
from firmware_bridge.traces import BADGE_SCENARIOS, BURRITO_SCENARIOS, TOLERANCE_US, make_trace, match_events  # noqa: E402


def detect(trace) -> list[tuple[int, str]]:  # type: ignore[no-untyped-def]
    det = Detector(trace.device)
    found: list[tuple[int, str]] = []
    for t, ax, ay, az in trace.samples:
        for ev in det.feed(t, ax, ay, az):
            found.append((ev[0], ev[1]))
    for ev in det.flush():
        found.append((ev[0], ev[1]))
    return found


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throws", type=int, default=200, help="traces per scenario")
    ap.add_argument("--rate", type=float, default=833.0, help="sample rate in Hz")
    ap.add_argument("--scenario", action="append", help="only these scenarios")
    ap.add_argument("--verbose", action="store_true", help="list every miss and false detection")
    args = ap.parse_args(argv)
    scenarios = args.scenario or list(BURRITO_SCENARIOS + BADGE_SCENARIOS)

    tp: dict[str, int] = defaultdict(int)
    fn: dict[str, int] = defaultdict(int)
    fp: dict[str, int] = defaultdict(int)
    errs: dict[str, list[float]] = defaultdict(list)
    per_scenario: list[tuple[str, int, int, int]] = []
    n_samples = 0
    det_time = 0.0
    for sc in scenarios:
        ok = miss = false = 0
        for seed in range(args.throws):
            tr = make_trace(sc, seed, args.rate)
            t0 = time.perf_counter()
            found = detect(tr)
            det_time += time.perf_counter() - t0
            n_samples += len(tr.samples)
            matches, missed, falses = match_events(tr.truth, found, TOLERANCE_US)
            for kind, err in matches:
                tp[kind] += 1
                errs[kind].append(abs(err) / 1000.0)
            for _, kind in missed:
                fn[kind] += 1
            for _, kind in falses:
                fp[kind] += 1
            ok += len(matches)
            miss += len(missed)
            false += len(falses)
            if args.verbose and (missed or falses):
                print(f"  {sc} seed {seed}: missed {missed} false {falses} truth {tr.truth} found {found}")
        per_scenario.append((sc, ok, miss, false))

    print(f"machine: {platform.machine()}, {os.cpu_count()} cpus, Python {platform.python_version()}; "
          f"{args.throws} traces/scenario at {args.rate:g} Hz")
    print()
    print(f"{'kind':8} {'truth':>6} {'found':>6} {'precision':>9} {'recall':>7} {'p50 ms':>7} {'p99 ms':>7}")
    for kind in ("pickup", "launch", "impact", "catch", "bounce", "rest"):
        t, f, n = tp[kind], fp[kind], fn[kind]
        if t + f + n == 0:
            continue
        prec = t / (t + f) if t + f else float("nan")
        rec = t / (t + n) if t + n else float("nan")
        print(f"{kind:8} {t + n:6d} {t + f:6d} {prec:9.3f} {rec:7.3f} "
              f"{percentile(errs[kind], 0.5):7.2f} {percentile(errs[kind], 0.99):7.2f}")
    print()
    print(f"{'scenario':20} {'matched':>7} {'missed':>6} {'false':>6}")
    for sc, ok, miss, false in per_scenario:
        print(f"{sc:20} {ok:7d} {miss:6d} {false:6d}")
    print()
    print(f"throughput: {n_samples / det_time:,.0f} samples/s ({n_samples:,} samples in {det_time:.1f} s, CPython, one core)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
