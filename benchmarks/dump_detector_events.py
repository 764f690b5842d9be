"""Every event a detector reports on the project's trace sets, one line per trace, to compare two detectors exactly.

    python benchmarks/dump_detector_events.py OUT.txt [--detector PATH/detector.py] [--cache traces.pickle]
                                              [--seeds 6] [--blind-seeds 2]

The sets: physim (firmware_bridge.physim) seeds --first-seed.. (--seeds of them) of every scenario in bench_detect's
48 corner cells (every --cell-step-th), fed with and without the gyroscope; the labelled real phone drops (tests/data/phone_drops, fed as recordings.py feeds
them); the blind simulator (benchmarks/blind_sim.py) seeds 0..--blind-seeds-1 of every scenario at every rate and
noise level, with and without its gyroscope.  Each line is the trace's name, then every event as (t_us, kind, repr of
its peak) in the order reported, then the flush's.  --detector loads another copy of detector.py (e.g. one taken
from git history into a temporary folder) instead of the package's; --cache keeps the generated traces, so two
detectors are fed the same samples without simulating twice.  A refactor of the detector must leave the output
byte-identical.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import os
import pickle
import sys
import time
from typing import Any

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

Row = tuple[Any, ...]
Case = tuple[str, str, list[Row]]  # name, device kind, rows (t, ax, ay, az[, gx, gy, gz])


def load_detector(path: str | None) -> Any:
    """The Detector class of the package, or of the detector.py at path (its folder goes first on sys.path, so a
    split detector finds its sibling modules there)."""
    if path is None:
        from firmware_bridge.firmware.detector import Detector

        return Detector
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    spec = importlib.util.spec_from_file_location("detector_under_test", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.Detector


def physim_cases(seeds: int, first: int = 0, cell_step: int = 1) -> list[Case]:
    from bench_detect import cells

    from firmware_bridge import physim

    out: list[Case] = []
    for cond in cells(False)[::cell_step]:
        for scenario in physim.SCENARIOS:
            for seed in range(first, first + seeds):
                tr = physim.make_trace(scenario, seed, cond)
                name = f"physim {cond.label()} {scenario} {seed}"
                out.append((name, tr.device, [tuple(s) for s in tr.samples]))
                if tr.gyro:
                    out.append((name + " gyro", tr.device,
                                [tuple(s) + tuple(g) for s, g in zip(tr.samples, tr.gyro)]))
    return out


def phone_cases() -> list[Case]:
    from firmware_bridge.recordings import find_recordings, join_rows, load_recording

    folder = os.path.join(ROOT, "tests", "data", "phone_drops")
    out: list[Case] = []
    for path in find_recordings(folder):
        rec = load_recording(path)
        out.append((f"phone {os.path.basename(path)}", rec.kind, [tuple(r) for r in join_rows(rec.samples, rec.gyro)]))
    return out


def blind_cases(seeds: int) -> list[Case]:
    import blind_sim

    out: list[Case] = []
    for scenario in blind_sim.SCENARIOS:
        for rate in blind_sim.RATES:
            for noise in ("low", "high"):
                for seed in range(seeds):
                    tr = blind_sim.simulate(scenario, rate, noise, seed, gyro=True)
                    rows = tr.samples()
                    name = f"blind {scenario} {rate} {noise} {seed}"
                    out.append((name, tr.device, rows))
                    out.append((name + " gyro", tr.device, [r + g for r, g in zip(rows, tr.gyro_samples())]))
    return out


def run(det_cls: Any, cases: list[Case]) -> tuple[list[str], int, float]:
    """One line per case; the samples fed and the seconds spent feeding them."""
    lines = []
    n = 0
    spent = 0.0
    for name, kind, rows in cases:
        det = det_cls(kind)
        evs: list[Any] = []
        t0 = time.perf_counter()
        for row in rows:
            evs.extend(det.feed(*row))
        evs.extend(det.flush())
        spent += time.perf_counter() - t0
        n += len(rows)
        lines.append(name + " | " + " ".join("(%d,%s,%r)" % (e[0], e[1], e[2]) for e in evs))
    return lines, n, spent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--detector", help="path of a detector.py to load instead of the package's")
    ap.add_argument("--cache", help="pickle of the generated traces: written if missing, read if present")
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--blind-seeds", type=int, default=2)
    ap.add_argument("--first-seed", type=int, default=0, help="physim seeds from this one")
    ap.add_argument("--cell-step", type=int, default=1, help="every K-th of the 48 corner cells")
    ap.add_argument("--physim-only", action="store_true", help="leave out the phone drops and the blind simulator")
    args = ap.parse_args(argv)
    if args.cache and os.path.exists(args.cache):
        with open(args.cache, "rb") as fh:
            cases = pickle.load(fh)
    else:
        cases = physim_cases(args.seeds, args.first_seed, args.cell_step)
        if not args.physim_only:
            cases += phone_cases() + blind_cases(args.blind_seeds)
        if args.cache:
            with open(args.cache, "wb") as fh:
                pickle.dump(cases, fh)
    lines, n, spent = run(load_detector(args.detector), cases)
    text = "\n".join(lines) + "\n"
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write(text)
    events = sum(line.count("(") for line in lines)
    print(f"{len(cases)} traces, {n} samples, {events} events, {spent:.1f} s in the detector "
          f"({spent / max(n, 1) * 1e6:.1f} us/sample); sha256 {hashlib.sha256(text.encode()).hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
