"""Blind benchmark of the motion detector on traces from benchmarks/blind_sim.py (a simulator written apart from it).

    python benchmarks/bench_blind.py [--quick] [--n 4] [--budget 150] [--json out.json] [--save DIR] [--gyro [both]]

The detector is a black box: every trace goes through `firmware_bridge.cli.detect_events`, the function behind
`burrito-table detect` (PYTHONPATH may point at another checkout's firmware_bridge to score that one).

Matching: a detection matches a label of its kind inside the tolerance window (launch, impact, catch: +-50 ms from the
true first-touch or release sample; pickup: +-150 ms; rest: from 1.5 s late back to 250 ms early or, if longer, to
when the settling motion fell below 0.1 g), nearest first, one to one.
Optional labels (a set-down touch, a drop's release and landing, the rest a trace starts in) absorb detections without
counting either way.  Bounce detections are not scored.  Badges are scored on impact only.  A phantom pickup is a
pickup detected between a landing's first contact and 1 s after the rest it settles to.

--gyro also feeds the simulated gyroscope (rad/s, the accelerometer's axes) to the detector, sample by sample through
`Detector.feed(t, ax, ay, az, gx, gy, gz)` as `detect_events` does without it; `--gyro both` scores every trace both
ways, prints the accelerometer-only report, then the report with the gyro, then the two side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))
if "firmware_bridge" not in sys.modules:
    sys.path.append(str(Path(__file__).resolve().parents[1]))  # after PYTHONPATH, so a checkout there wins

import blind_sim  # noqa: E402
from blind_sim import NOISE_LEVELS, RATES, SCENARIOS, Trace, simulate  # noqa: E402

Cell = tuple[str, int, str]
Detections = list[tuple[int, str, float]]
MODE_TITLES = {"accel": "accelerometer only", "gyro": "accelerometer + gyroscope"}

TOLERANCE_S: dict[str, tuple[float, float]] = {
    "launch": (-0.05, 0.05),
    "impact": (-0.05, 0.05),
    "catch": (-0.05, 0.05),
    "pickup": (-0.15, 0.15),
    "rest": (-0.25, 1.5),
}
BURRITO_KINDS = ("pickup", "launch", "impact", "catch", "rest")
BADGE_KINDS = ("impact",)
PHANTOM_AFTER_REST_S = 1.0
NEAR_MISS_S = 2.0  # a missed label with an unmatched same-kind report this close was found, but at the wrong time


@dataclass
class KindStats:
    """Counts and timing errors of one event kind."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    errors_ms: list[float] = field(default_factory=list)

    def add(self, other: KindStats) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn
        self.errors_ms.extend(other.errors_ms)

    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    def f1(self) -> float | None:
        p, r = self.precision(), self.recall()
        if p is None or r is None:
            return p if r is None else r
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class CellStats:
    """Everything measured in one condition cell (scenario, rate, noise)."""

    traces: int = 0
    samples: int = 0
    kinds: dict[str, KindStats] = field(default_factory=lambda: defaultdict(KindStats))
    confusions: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    other: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # unscored kinds seen
    settles: int = 0
    phantom_pickups: int = 0
    bins: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))  # label bin -> hit, all
    near_miss_ms: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))  # missed label -> nearest

    def add(self, o: CellStats) -> None:
        self.traces += o.traces
        self.samples += o.samples
        for k, v in o.kinds.items():
            self.kinds[k].add(v)
        for k, n in o.confusions.items():
            self.confusions[k] += n
        for k, n in o.other.items():
            self.other[k] += n
        self.settles += o.settles
        self.phantom_pickups += o.phantom_pickups
        for k, (h, n) in o.bins.items():
            self.bins[k][0] += h
            self.bins[k][1] += n
        for k, xs in o.near_miss_ms.items():
            self.near_miss_ms[k].extend(xs)


def pct(xs: list[float], p: float) -> float | None:
    if not xs:
        return None
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(p * (len(s) - 1))))]


def score(trace: Trace, detections: list[tuple[int, str, float]]) -> CellStats:
    """Match one trace's detections to its labels (see the module docstring for the rules)."""
    st = CellStats(traces=1, samples=len(trace.t_us))
    kinds = BADGE_KINDS if trace.device == "badge" else BURRITO_KINDS
    dets = [(t / 1e6, k) for t, k, _ in detections]
    leftovers: dict[str, list[float]] = {}
    missed: dict[str, list[float]] = {}
    for kind in kinds:
        lo, hi = TOLERANCE_S[kind]
        labels = [lb for lb in trace.labels if lb.kind == kind]
        ds = [t for t, k in dets if k == kind]
        pairs = sorted((abs(d - lb.t), i, j) for i, lb in enumerate(labels) for j, d in enumerate(ds)
                       if min(lo, -(lb.early or 0.0)) <= d - lb.t <= hi)
        used_l: set[int] = set()
        used_d: set[int] = set()
        ks = st.kinds[kind]
        for _, i, j in pairs:
            if i in used_l or j in used_d:
                continue
            used_l.add(i)
            used_d.add(j)
            if not labels[i].optional:
                ks.tp += 1
                ks.errors_ms.append((ds[j] - labels[i].t) * 1e3)
        ks.fn += sum(1 for i, lb in enumerate(labels) if i not in used_l and not lb.optional)
        ks.fp += sum(1 for j in range(len(ds)) if j not in used_d)
        leftovers[kind] = [ds[j] for j in range(len(ds)) if j not in used_d]
        for i, lb in enumerate(labels):
            b = physics_bin(trace.device, lb.kind, lb.info)
            if b and not lb.optional:
                st.bins[b][0] += int(i in used_l)
                st.bins[b][1] += 1
        missed[kind] = [lb.t for i, lb in enumerate(labels) if i not in used_l and not lb.optional]
        for t in missed[kind]:
            near = [d - t for d in leftovers[kind] if abs(d - t) <= NEAR_MISS_S]
            if near:
                st.near_miss_ms[kind].append(min(near, key=abs) * 1e3)
    for _t, k in dets:
        if k not in kinds:
            st.other[k] += 1
    for a, b in (("catch", "impact"), ("impact", "catch")):
        if a in missed and b in leftovers:
            st.confusions[f"{a}->{b}"] += sum(1 for t in missed[a] if any(abs(d - t) <= 0.05 for d in leftovers[b]))
    if trace.device == "burrito":
        st.settles = len(trace.settle)
        for start, rest in trace.settle:
            st.phantom_pickups += sum(1 for t, k in dets if k == "pickup" and start <= t <= rest + PHANTOM_AFTER_REST_S)
    return st


RISE_BINS_MS: tuple[tuple[float, float, str], ...] = ((0, 10, "hard, rise < 10 ms"), (10, 30, "rise 10-30 ms"), (30, 80, "soft, rise 30-80 ms"),
                (80, 1e9, "soft, rise 80-150 ms"))
W2R_BINS_G: tuple[tuple[float, float, str], ...] = ((0, 0.5, "w2r < 0.5 g"), (0.5, 1.5, "w2r 0.5-1.5 g"), (1.5, 1e9, "w2r >= 1.5 g"))


def physics_bin(device: str, kind: str, info: dict[str, float]) -> str | None:
    """Which physical condition a label belongs to, for recall by condition (contact softness, spin reading)."""
    if kind in ("impact", "catch") and "rise_ms" in info:
        for lo, hi, name in RISE_BINS_MS:
            if lo <= info["rise_ms"] < hi:
                return f"{device} {kind}: {name}"
    if kind == "launch" and "w2r_g" in info:
        for wlo, whi, wname in W2R_BINS_G:
            if wlo <= info["w2r_g"] < whi:
                return f"launch: {wname} at release"
    if kind == "pickup" and "pre_rest_s" in info:
        return f"pickup: still for {'< 2' if info['pre_rest_s'] < 2 else '>= 2'} s before"
    return None


def _fmt(x: float | None, nd: int = 3) -> str:
    return "-" if x is None else f"{x:.{nd}f}"


def _fmt_ms(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def kind_row(name: str, ks: KindStats) -> str:
    abs_err = [abs(e) for e in ks.errors_ms]
    return (f"| {name} | {_fmt(ks.precision())} | {_fmt(ks.recall())} | {ks.tp} | {ks.fp} | {ks.fn} | "
            f"{_fmt_ms(pct(ks.errors_ms, 0.5))} | {_fmt_ms(pct(abs_err, 0.5))} / {_fmt_ms(pct(abs_err, 0.95))} |")


KIND_HEADER = ("| kind | precision | recall | TP | FP | FN | signed p50 ms | abs p50 / p95 ms |\n"
               "|---|---|---|---|---|---|---|---|")


def summary_table(title: str, cs: CellStats, kinds: tuple[str, ...]) -> str:
    lines = [f"\n{title}  ({cs.traces} traces, {cs.samples} samples)", KIND_HEADER]
    for k in kinds:
        if k in cs.kinds:
            lines.append(kind_row(k, cs.kinds[k]))
    extra = []
    if cs.settles:
        extra.append(f"phantom pickups during settling: {cs.phantom_pickups} in {cs.settles} settles")
    if cs.confusions:
        extra.append("confusions: " + ", ".join(f"{k} {v}" for k, v in sorted(cs.confusions.items()) if v))
    if cs.other:
        extra.append("unscored detections: " + ", ".join(f"{k} {v}" for k, v in sorted(cs.other.items())))
    return "\n".join(lines + extra)


def cell_line(key: tuple[str, int, str], cs: CellStats) -> str:
    parts = []
    for k, ks in cs.kinds.items():
        if ks.tp + ks.fp + ks.fn == 0:
            continue
        abs_err = [abs(e) for e in ks.errors_ms]
        timing = f" {_fmt_ms(pct(abs_err, 0.5))}/{_fmt_ms(pct(abs_err, 0.95))}ms" if abs_err else ""
        parts.append(f"{k} P{_fmt(ks.precision(), 2)} R{_fmt(ks.recall(), 2)} ({ks.tp}/{ks.fp}/{ks.fn}){timing}")
    if cs.settles:
        parts.append(f"phantom {cs.phantom_pickups}/{cs.settles}")
    return f"| {key[0]} | {key[1]} | {key[2]} | {cs.traces} | {'; '.join(parts) or 'no events, no detections'} |"


def cell_f1(cs: CellStats) -> float:
    """The cell's micro F1 over its scored kinds: 2 TP / (2 TP + FP + FN); 1.0 for a cell with nothing to find."""
    tp = sum(ks.tp for ks in cs.kinds.values())
    bad = sum(ks.fp + ks.fn for ks in cs.kinds.values())
    return 2 * tp / (2 * tp + bad) if tp + bad else 1.0


def detect_with_gyro(trace: Trace, device: str) -> Detections:
    """`detect_events` with the gyro: every sample through Detector.feed(t, ax, ay, az, gx, gy, gz), then flush."""
    from firmware_bridge.firmware.detector import Detector

    det = Detector(device, None)
    events: Detections = []
    for (t, ax, ay, az), (gx, gy, gz) in zip(trace.samples(), trace.gyro_samples()):
        events.extend(det.feed(t, ax, ay, az, gx, gy, gz))
    events.extend(det.flush())
    return events


def pooled(stats: dict[Cell, CellStats], pred: Any) -> CellStats:
    acc = CellStats()
    for key, cs in stats.items():
        if pred(key):
            acc.add(cs)
    return acc


def print_report(stats: dict[Cell, CellStats], cells: list[Cell], rates: tuple[int, ...], scenarios: list[str]) -> None:
    """Every table of one scoring pass (per cell, overall, by rate and noise, by scenario, by condition, worst)."""
    print("\n## Per cell (per kind: precision, recall (TP/FP/FN), |onset error| p50/p95; phantom pickups / settles)")
    print("| scenario | Hz | noise | traces | figures |\n|---|---|---|---|---|")
    for key in cells:
        print(cell_line(key, stats[key]))

    in_spec = pooled(stats, lambda k: k[1] >= 400 and not k[0].startswith("badge"))
    print("\n## Overall")
    print(summary_table("burrito, rates >= 400 Hz (the documented range)", in_spec, BURRITO_KINDS))
    print(summary_table("badge, rates >= 400 Hz", pooled(stats, lambda k: k[1] >= 400 and k[0].startswith("badge")),
                        BADGE_KINDS))
    if 200 in rates:
        print(summary_table("burrito at 200 Hz (below the documented 400 Hz)",
                            pooled(stats, lambda k: k[1] == 200 and not k[0].startswith("badge")), BURRITO_KINDS))
        print(summary_table("badge at 200 Hz", pooled(stats, lambda k: k[1] == 200 and k[0].startswith("badge")),
                            BADGE_KINDS))
    print("\n## By rate and by noise (burrito, all scenarios)")
    for r in rates:
        print(summary_table(f"{r} Hz", pooled(stats, lambda k, r=r: k[1] == r and not k[0].startswith("badge")),
                            BURRITO_KINDS))
    for nz, (lo, hi) in NOISE_LEVELS.items():
        print(summary_table(f"noise {nz} ({lo:g}-{hi:g} mg rms), >= 400 Hz",
                            pooled(stats, lambda k, nz=nz: k[2] == nz and k[1] >= 400 and not k[0].startswith("badge")),
                            BURRITO_KINDS))
    print("\n## By scenario (rates >= 400 Hz)")
    for sc in scenarios:
        kinds = BADGE_KINDS if sc.startswith("badge") else BURRITO_KINDS
        print(summary_table(sc, pooled(stats, lambda k, sc=sc: k[0] == sc and k[1] >= 400), kinds))
    print("\n## Recall by physical condition (rates >= 400 Hz)")
    print("| label condition | detected | labels | recall |\n|---|---|---|---|")
    allin = pooled(stats, lambda k: k[1] >= 400)
    for b in sorted(allin.bins):
        h, n = allin.bins[b]
        print(f"| {b} | {h} | {n} | {h / n:.3f} |")
    print("\n## Missed labels that were reported at the wrong time (an unmatched same-kind report within 2 s)")
    print("| kind | missed | reported elsewhere | offset p50 ms | offset range ms |\n|---|---|---|---|---|")
    for k in BURRITO_KINDS:
        ks = in_spec.kinds.get(k)
        xs = in_spec.near_miss_ms.get(k, [])
        if ks and ks.fn:
            rng_txt = f"{min(xs):.0f} .. {max(xs):.0f}" if xs else "-"
            print(f"| {k} | {ks.fn} | {len(xs)} | {_fmt_ms(pct(xs, 0.5))} | {rng_txt} |")
    for title, pred in (("burrito", lambda k: not k[0].startswith("badge")), ("badge", lambda k: k[0].startswith("badge"))):
        worst = sorted((cell_f1(cs), key) for key, cs in stats.items() if cs.traces and pred(key))[:8]
        print(f"\n## Worst {title} cells (lowest micro F1 over the kinds scored in the cell)")
        print("| scenario | Hz | noise | F1 | figures |\n|---|---|---|---|---|")
        for f1, key in worst:
            print(f"| {key[0]} | {key[1]} | {key[2]} | {f1:.2f} | {cell_line(key, stats[key]).split('| ', 5)[-1]}")


def _cmp_row(name: str, a: KindStats, b: KindStats) -> str:
    def fig(ks: KindStats) -> str:
        abs_err = [abs(e) for e in ks.errors_ms]
        return (f"{_fmt(ks.precision())} | {_fmt(ks.recall())} | {ks.tp}/{ks.fp}/{ks.fn} | "
                f"{_fmt_ms(pct(abs_err, 0.5))} / {_fmt_ms(pct(abs_err, 0.95))}")

    return f"| {name} | {fig(a)} | {fig(b)} |"


def print_comparison(acc: dict[Cell, CellStats], gyr: dict[Cell, CellStats], rates: tuple[int, ...]) -> None:
    """The accelerometer-only and with-gyro passes side by side: pooled kinds, then the cells whose F1 moved."""
    print("\n# Accelerometer only vs with the gyroscope (same traces)")
    groups: list[tuple[str, Any, tuple[str, ...]]] = [
        ("burrito, rates >= 400 Hz", lambda k: k[1] >= 400 and not k[0].startswith("badge"), BURRITO_KINDS),
        ("badge, rates >= 400 Hz", lambda k: k[1] >= 400 and k[0].startswith("badge"), BADGE_KINDS)]
    if 200 in rates:
        groups += [("burrito at 200 Hz", lambda k: k[1] == 200 and not k[0].startswith("badge"), BURRITO_KINDS),
                   ("badge at 200 Hz", lambda k: k[1] == 200 and k[0].startswith("badge"), BADGE_KINDS)]
    for title, pred, kinds in groups:
        a, b = pooled(acc, pred), pooled(gyr, pred)
        print(f"\n{title}  ({a.traces} traces)")
        print("| kind | P accel | R accel | TP/FP/FN accel | abs p50 / p95 ms accel "
              "| P +gyro | R +gyro | TP/FP/FN +gyro | abs p50 / p95 ms +gyro |\n" + "|---" * 9 + "|")
        for k in kinds:
            if k in a.kinds or k in b.kinds:
                print(_cmp_row(k, a.kinds[k], b.kinds[k]))
        if a.settles:
            print(f"phantom pickups during settling: {a.phantom_pickups} -> {b.phantom_pickups} in {a.settles} settles")
    changes = sorted(((cell_f1(gyr[c]) - cell_f1(acc[c]), c) for c in acc if acc[c].traces), key=lambda x: x[0])
    moved = [(d, c) for d, c in changes if abs(d) > 1e-9]
    print(f"\n## Cells whose micro F1 changed with the gyro ({len(moved)} of {len(changes)})")
    print("| scenario | Hz | noise | F1 accel | F1 +gyro | change |\n|---|---|---|---|---|---|")
    for d, c in moved:
        print(f"| {c[0]} | {c[1]} | {c[2]} | {cell_f1(acc[c]):.2f} | {cell_f1(gyr[c]):.2f} | {d:+.2f} |")


def _cells_json(stats: dict[Cell, CellStats]) -> list[dict[str, Any]]:
    return [{"scenario": k[0], "rate": k[1], "noise": k[2], "traces": cs.traces,
             "kinds": {kk: {"tp": v.tp, "fp": v.fp, "fn": v.fn, "errors_ms": [round(e, 2) for e in v.errors_ms]}
                       for kk, v in cs.kinds.items()},
             "confusions": dict(cs.confusions), "bins": dict(cs.bins),
             "near_miss_ms": {kk: [round(x, 1) for x in v] for kk, v in cs.near_miss_ms.items()}, "other": dict(cs.other),
             "settles": cs.settles, "phantom_pickups": cs.phantom_pickups} for k, cs in stats.items()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=6, help="traces per condition cell (default 6)")
    ap.add_argument("--quick", action="store_true", help="1 trace per cell at 400 and 1666 Hz (seconds)")
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--budget", type=float, default=150.0, help="stop starting traces after this many seconds")
    ap.add_argument("--json", type=Path, help="write every cell's figures here")
    ap.add_argument("--save", type=Path, help="also write each trace as CSV + sidecar JSON into this folder "
                    "(with gx,gy,gz columns under --gyro)")
    ap.add_argument("--scenarios", nargs="*", choices=SCENARIOS, default=list(SCENARIOS))
    ap.add_argument("--gyro", nargs="?", const="on", choices=("on", "both"),
                    help="also feed the gyroscope to the detector; 'both': score each trace without and with it and "
                         "print both reports and a comparison (the detector runs twice, so it takes twice as long)")
    args = ap.parse_args(argv)
    try:
        from firmware_bridge.cli import detect_events
    except ImportError as exc:
        print(f"bench_blind: cannot import the detector's entry point firmware_bridge.cli.detect_events: {exc}",
              file=sys.stderr)
        return 1
    import firmware_bridge.cli as fb_cli

    modes = {None: ("accel",), "on": ("gyro",), "both": ("accel", "gyro")}[args.gyro]
    rates = (400, 1666) if args.quick else RATES
    n_per = 1 if args.quick else args.n
    cells = [(sc, r, nz) for sc in args.scenarios for r in rates for nz in NOISE_LEVELS]
    jobs = [(rep, ci) for rep in range(n_per) for ci in range(len(cells))]  # round-robin: a budget cut is even
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    all_stats: dict[str, dict[Cell, CellStats]] = {m: {c: CellStats() for c in cells} for m in modes}
    bar: Any = None
    if sys.stderr.isatty():
        try:
            from tqdm import tqdm

            bar = tqdm(total=len(jobs), unit="trace", file=sys.stderr)
        except ImportError:
            bar = None
    t_start = time.perf_counter()
    t_detect = dict.fromkeys(modes, 0.0)
    done = 0
    for rep, ci in jobs:
        if time.perf_counter() - t_start > args.budget:
            break
        sc, rate, noise = cells[ci]
        seed = args.seed * 1000 + ci * 97 + rep
        tr = simulate(sc, rate, noise, seed, gyro=args.gyro is not None)
        rows = tr.samples()
        for mode in modes:
            t0 = time.perf_counter()
            if mode == "accel":
                dets = detect_events(rows, tr.device)
            else:
                try:
                    dets = detect_with_gyro(tr, tr.device)
                except TypeError as exc:
                    print(f"bench_blind: the detector's feed() does not take a gyroscope reading: {exc}",
                          file=sys.stderr)
                    return 1
            t_detect[mode] += time.perf_counter() - t0
            all_stats[mode][cells[ci]].add(score(tr, dets))
        if args.save:
            tr.write(args.save / f"{sc}_{rate}_{noise}_{rep}.csv", gyro=args.gyro is not None)
        done += 1
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    wall = time.perf_counter() - t_start

    for mode in modes:
        stats = all_stats[mode]
        n_samples = sum(c.samples for c in stats.values())
        print("# Blind detector benchmark" + ("" if args.gyro is None else f" ({MODE_TITLES[mode]})"))
        print(f"detector: {fb_cli.__file__}")
        print(f"machine: {platform.machine()}, {os.cpu_count()} cpus, Python {platform.python_version()}; "
              f"{done}/{len(jobs)} traces ({n_per} per cell requested), {n_samples} samples, wall {wall:.1f} s, "
              f"detector {t_detect[mode]:.1f} s ({n_samples / max(t_detect[mode], 1e-9):,.0f} samples/s); "
              f"seed {args.seed}")
        print("tolerances: " + ", ".join(f"{k} {lo * 1e3:+.0f}..{hi * 1e3:+.0f} ms" for k, (lo, hi) in TOLERANCE_S.items()))
        print_report(stats, cells, rates, args.scenarios)
        if len(modes) > 1:
            print()
    if len(modes) > 1:
        print_comparison(all_stats["accel"], all_stats["gyro"], rates)
    if args.json:
        out: dict[str, Any] = {
            "detector": fb_cli.__file__, "seed": args.seed, "traces": done, "wall_s": wall,
            "sim": blind_sim.__file__,
            "cells": _cells_json(all_stats[modes[0]]),
        }
        if args.gyro is not None:
            out["gyro"] = args.gyro
        if args.gyro == "both":
            out["cells_gyro"] = _cells_json(all_stats["gyro"])
        args.json.write_text(json.dumps(out) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
