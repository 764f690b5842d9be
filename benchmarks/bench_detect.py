"""Detection quality over a matrix of conditions, on two independent simulators, and speed.

    python benchmarks/bench_detect.py [--seeds 2] [--full] [--jobs 2] [--params FILE] [--old-sim 20]

The matrix (firmware_bridge.physim, a rigid body under forces read by a modelled sensor) crosses sensor noise
(2-15 mg rms per axis), output rate (200-1666 Hz), contact rise time (2-150 ms), handling before the throw (still,
normal, pump fakes) and the landing surface (rigid, rocking). Each cell runs every physim scenario (throw and impact,
throw and catch, drop, handling then put down, a table knock that rocks it, rest from the start) for --seeds seeds.
The default is a 48-cell corner design (2 x 3 x 2 x 2 x 2 levels: the extremes of every axis); --full is all 216 cells.

It prints, per kind, precision and recall over the whole matrix and in the worst cell, the contact-onset error
(|found - true| for impact and catch: p50, p95, max), the phantom pickups (reported while nothing held it), then the
worst cell per axis level, the same figures on firmware_bridge.traces (the first simulator) at 833 Hz, and on the
labelled real recordings in tests/data/phone_drops (public CC0 phone drops and tosses, ~200 Hz).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from firmware_bridge import physim  # noqa: E402
from firmware_bridge.firmware.detector import Detector  # noqa: E402
from firmware_bridge.progress import progress  # noqa: E402
from firmware_bridge.recordings import find_recordings, load_recording, merge, pickups_while_settling, tally  # noqa: E402
from firmware_bridge.recordings import run_detector as run_rec  # noqa: E402
from firmware_bridge.recordings import score as score_rec  # noqa: E402
from firmware_bridge.traces import BURRITO_SCENARIOS, TOLERANCE_US, Trace, make_trace  # noqa: E402

KINDS = ("pickup", "launch", "impact", "catch", "bounce", "rest")
GOAL_KINDS = ("launch", "impact", "catch")
GOAL = 0.97  # precision and recall of each goal kind, in every cell

Counts = dict[str, list[Any]]  # kind -> [tp, fn, fp, [onset errors us]]


def detect(trace: Trace, params: dict[str, float] | None = None, gyro: bool = False) -> list[tuple[int, str]]:
    """The detector's (t_us, kind) calls on a trace; with gyro, fed the trace's angular rate too."""
    det = Detector(trace.device, params) if params else Detector(trace.device)
    found: list[tuple[int, str]] = []
    if gyro and trace.gyro:
        for (t, ax, ay, az), (gx, gy, gz) in zip(trace.samples, trace.gyro):
            for ev in det.feed(t, ax, ay, az, gx, gy, gz):
                found.append((ev[0], ev[1]))
    else:
        for t, ax, ay, az in trace.samples:
            for ev in det.feed(t, ax, ay, az):
                found.append((ev[0], ev[1]))
    for ev in det.flush():
        found.append((ev[0], ev[1]))
    return found


def score(trace: Trace, found: list[tuple[int, str]]) -> Counts:
    """Every kind within its tolerance of its label; a rest also from when the landing's rocking read under 0.1 g
    (physim labels rest where it reads under 5 mg, far under any part's noise)."""
    rests = {t for t, k in trace.truth if k == "rest"}
    windows = {(r, "rest"): (min(s, r - TOLERANCE_US["rest"]), r + TOLERANCE_US["rest"])
               for s, r in trace.settle if r in rests}
    return tally(trace.truth, found, KINDS, windows)


def _cell_job(args: tuple[physim.Condition, int, dict[str, float] | None, bool, int]
              ) -> tuple[physim.Condition, Counts, int, int, float]:
    cond, seeds, params, gyro, first = args
    total: Counts = {}
    phantom = 0
    n = 0
    t_det = 0.0
    for scenario in physim.SCENARIOS:
        for seed in range(first, first + seeds):
            tr = physim.make_trace(scenario, seed, cond)
            t0 = time.perf_counter()
            found = detect(tr, params, gyro)
            t_det += time.perf_counter() - t0
            n += len(tr.samples)
            c = score(tr, found)
            merge(total, c)
            # a phantom pickup: reported where no hand took it (before the true pickup, or in a trace without one)
            picks = [t for t, k in tr.truth if k == "pickup"]
            for t, k in found:
                if k == "pickup" and (not picks or t < picks[0] - TOLERANCE_US["pickup"]):
                    phantom += 1
    return cond, total, phantom, n, t_det


def _pr(c: list[Any]) -> tuple[float, float]:
    tp, fn, fp = c[0], c[1], c[2]
    prec = tp / (tp + fp) if tp + fp else 1.0
    rec = tp / (tp + fn) if tp + fn else 1.0
    return prec, rec


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def cells(full: bool) -> list[physim.Condition]:
    axes: tuple[tuple[Any, ...], ...]
    if full:
        axes = (physim.NOISE_MG, physim.RATES_HZ, physim.RISE_MS, physim.HANDLING, physim.SURFACES)
    else:
        axes = ((2.0, 15.0), (200.0, 833.0, 1666.0), (2.0, 150.0), ("still", "pump"), ("rigid", "rocking"))
    return [physim.Condition(*c) for c in itertools.product(*axes)]


def run_matrix(conds: list[physim.Condition], seeds: int, params: dict[str, float] | None, jobs: int,
               gyro: bool = False, first: int = 0) -> dict[str, Any]:
    per_cell: list[tuple[physim.Condition, Counts, int]] = []
    n_samples = 0
    t_det = 0.0
    work = [(c, seeds, params, gyro, first) for c in conds]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for cond, counts, phantom, n, td in progress(pool.map(_cell_job, work), total=len(work), desc="matrix cells"):
            per_cell.append((cond, counts, phantom))
            n_samples += n
            t_det += td
    return {"cells": per_cell, "samples": n_samples, "det_s": t_det}


def report(res: dict[str, Any]) -> dict[str, Any]:
    """Print the matrix summary; return the figures as a dict (for --json)."""
    total: Counts = {}
    phantom = 0
    for _, c, ph in res["cells"]:
        merge(total, c)
        phantom += ph
    summary: dict[str, Any] = {"kinds": {}, "phantom_pickups": phantom}
    print(f"{'kind':8} {'truth':>6} {'prec':>6} {'recall':>6} | {'worst-cell prec':>15} {'worst-cell rec':>14} "
          f"| {'onset p50':>9} {'p95':>6} {'max ms':>6}")
    for kind in KINDS:
        c = total.get(kind)
        if not c or c[0] + c[1] + c[2] == 0:
            continue
        prec, rec = _pr(c)
        worst_p = min((_pr(cc[kind])[0], cond.label()) for cond, cc, _ in res["cells"] if kind in cc)
        worst_r = min((_pr(cc[kind])[1], cond.label()) for cond, cc, _ in res["cells"] if kind in cc)
        errs = [abs(e) / 1000.0 for e in c[3]]
        summary["kinds"][kind] = {"truth": c[0] + c[1], "precision": prec, "recall": rec,
                                  "worst_precision": worst_p, "worst_recall": worst_r,
                                  "err_p50_ms": pct(errs, 0.5), "err_p95_ms": pct(errs, 0.95),
                                  "err_max_ms": max(errs) if errs else float("nan")}
        print(f"{kind:8} {c[0] + c[1]:6d} {prec:6.3f} {rec:6.3f} | {worst_p[0]:15.3f} {worst_r[0]:14.3f} "
              f"| {pct(errs, 0.5):9.2f} {pct(errs, 0.95):6.2f} {summary['kinds'][kind]['err_max_ms']:6.2f}")
    print(f"phantom pickups (no hand took it): {phantom}")
    onset = [abs(e) / 1000.0 for k in ("impact", "catch") for e in total.get(k, [0, 0, 0, []])[3]]
    summary["contact_onset_p95_ms"] = pct(onset, 0.95)
    print(f"contact onset (impact + catch) |error| p95: {pct(onset, 0.95):.2f} ms, max {max(onset) if onset else float('nan'):.2f} ms")
    for kind in GOAL_KINDS:
        if kind in summary["kinds"]:
            k = summary["kinds"][kind]
            print(f"  worst cell for {kind}: precision {k['worst_precision'][0]:.3f} in {k['worst_precision'][1]}, "
                  f"recall {k['worst_recall'][0]:.3f} in {k['worst_recall'][1]}")
    # the goal is per cell: count the cells where precision or recall is under it
    for kind in GOAL_KINDS:
        short = [cond.label() for cond, cc, _ in res["cells"] if kind in cc and min(_pr(cc[kind])) < GOAL]
        summary["kinds"].setdefault(kind, {})["cells_under_goal"] = len(short)
        print(f"  cells with {kind} precision or recall under {GOAL}: {len(short)} of {len(res['cells'])}")
    # per axis level: pool every cell at that level (more events than one cell, so the figures are steadier)
    print()
    print("per axis level (cells pooled), recall / precision of launch, impact, catch; phantom pickups; rest recall; "
          "contact-onset |error| p95:")
    axes = {"noise_mg": lambda c: c.noise_mg, "rate_hz": lambda c: c.rate_hz, "rise_ms": lambda c: c.rise_ms,
            "handling": lambda c: c.handling, "surface": lambda c: c.surface}
    summary["levels"] = {}
    for name, get in axes.items():
        levels: dict[Any, tuple[Counts, list[int]]] = {}
        for cond, cc, ph in res["cells"]:
            acc, phl = levels.setdefault(get(cond), ({}, [0]))
            merge(acc, cc)
            phl[0] += ph
        for lvl, (acc, phl) in levels.items():
            parts = []
            for kind in GOAL_KINDS:
                if kind in acc:
                    p, r = _pr(acc[kind])
                    parts.append(f"{kind} {r:.3f}/{p:.3f}")
            rest_r = _pr(acc["rest"])[1] if "rest" in acc else float("nan")
            ons = [abs(e) / 1000.0 for k in ("impact", "catch") for e in acc.get(k, [0, 0, 0, []])[3]]
            print(f"  {name}={lvl!s:8} " + "  ".join(parts) + f"  phantom {phl[0]}  rest {rest_r:.3f}"
                  f"  onset p95 {pct(ons, 0.95):.1f} ms")
            summary["levels"][f"{name}={lvl}"] = {k: _pr(acc[k]) for k in acc}
    return summary


def run_old_sim(throws: int, rate: float, params: dict[str, float] | None) -> None:
    total: Counts = {}
    for sc in progress(BURRITO_SCENARIOS, desc="traces.py scenarios"):
        for seed in range(throws):
            tr = make_trace(sc, seed, rate)
            merge(total, score(tr, detect(tr, params)))
    print(f"firmware_bridge.traces (first simulator), {throws} traces per scenario at {rate:g} Hz:")
    for kind in KINDS:
        c = total.get(kind)
        if c and c[0] + c[1] + c[2]:
            p, r = _pr(c)
            errs = [abs(e) / 1000.0 for e in c[3]]
            print(f"  {kind:8} truth {c[0] + c[1]:5d}  precision {p:.3f}  recall {r:.3f}  |err| p50 {pct(errs, .5):.2f} ms "
                  f"p95 {pct(errs, .95):.2f} ms")


REAL_DEFAULT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "phone_drops")


def run_real(folder: str, params: dict[str, float] | None) -> dict[str, Any]:
    """Score the detector on labelled real recordings (only the kinds each recording labels)."""
    total: Counts = {}
    settling = 0
    n = 0
    for path in find_recordings(folder):
        rec = load_recording(path)
        found = run_rec(rec, params)
        merge(total, score_rec(rec, found))
        settling += pickups_while_settling(rec, found)
        n += 1
    print(f"real recordings in {os.path.normpath(folder)} ({n} recordings):")
    out: dict[str, Any] = {"recordings": n, "pickups_while_settling": settling}
    for kind in KINDS:
        c = total.get(kind)
        if c and c[0] + c[1] + c[2]:
            p, r = _pr(c)
            errs = [abs(e) / 1000.0 for e in c[3]]
            out[kind] = {"truth": c[0] + c[1], "precision": p, "recall": r, "p95_ms": pct(errs, 0.95)}
            print(f"  {kind:8} truth {c[0] + c[1]:4d}  precision {p:.3f}  recall {r:.3f}  |err| p50 {pct(errs, .5):6.2f} ms "
                  f"p95 {pct(errs, .95):6.2f} ms  max {max(errs) if errs else float('nan'):6.2f} ms")
    print(f"  pickups reported while it lay settling after an impact: {settling}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seeds", type=int, default=2, help="traces per scenario per cell")
    ap.add_argument("--full", action="store_true", help="all 216 cells instead of the 48 corners")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--params", help="a parameter file (JSON {version: 1, params: {...}}) to run instead of DEFAULTS")
    ap.add_argument("--old-sim", type=int, default=20, metavar="N", help="traces per traces.py scenario (0: skip)")
    ap.add_argument("--json", help="also write the matrix figures to this file")
    ap.add_argument("--real", default=REAL_DEFAULT, help="folder of labelled real recordings ('' to skip)")
    ap.add_argument("--only-real", action="store_true", help="skip the simulators")
    ap.add_argument("--gyro", action="store_true", help="feed physim's gyroscope (angular rate) to the detector too")
    ap.add_argument("--first-seed", type=int, default=0, help="seeds run from here (15: ones never read in tuning)")
    args = ap.parse_args(argv)
    params = None
    if args.params:
        with open(args.params, encoding="utf-8") as fh:
            params = json.load(fh)["params"]
    if args.only_real:
        run_real(args.real, params)
        return 0
    conds = cells(args.full)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cpus, Python {platform.python_version()}; "
          f"{len(conds)} cells x {len(physim.SCENARIOS)} scenarios x {args.seeds} seeds from {args.first_seed}"
          f"{', with the gyroscope' if args.gyro else ', accelerometer only'}")
    t0 = time.perf_counter()
    res = run_matrix(conds, args.seeds, params, args.jobs, args.gyro, args.first_seed)
    summary = report(res)
    print(f"detector throughput: {res['samples'] / res['det_s']:,.0f} samples/s (CPython, one core); "
          f"wall {time.perf_counter() - t0:.0f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(summary, fh, indent=1, default=str)
    if args.old_sim:
        print()
        run_old_sim(args.old_sim, 833.0, params)
    if args.real:
        print()
        run_real(args.real, params)
    return 0


if __name__ == "__main__":
    sys.exit(main())
