"""Two copies of the firmware's detector, timed against each other under real MicroPython (the WebAssembly port).

    python benchmarks/bench_mpy_compare.py OLD_DIR NEW_DIR [--rounds 6] [--accel-only]

Each DIR holds a detector.py (and, for a detector split into parts, its det_*.py modules); e.g. OLD_DIR from
`git show REV:firmware_bridge/firmware/detector.py`.  Both run benchmarks/mpy_detector_loop.py over bench_mpy_cost's
four traces (physim throw-and-impact and throw-and-catch with the gyroscope, traces.py drop, a badge hit), --passes
times in one MicroPython process, alternately OLD, NEW, OLD, NEW... in one session, so load on the machine falls on
both alike.  Each pass is timed alone (wall microseconds per sample, the detector alone): the least pass of a run is
the one the machine's load disturbed least.  Prints each run's least pass and node's CPU time per fed sample (user +
system for the whole process, start-up and CSV reading included), the best and median of each over the runs, and
whether the two detectors reported the same events.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from firmware_bridge import physim  # noqa: E402
from firmware_bridge.traces import make_trace  # noqa: E402

MPY = os.path.join(ROOT, "tests", "mpy")
LOOP = os.path.join(ROOT, "benchmarks", "mpy_detector_loop.py")


def _puts(folder: str) -> list[str]:
    return [f"{p}=/fw/{os.path.basename(p)}" for p in sorted(glob.glob(os.path.join(folder, "*.py")))
            if os.path.basename(p) == "detector.py" or os.path.basename(p).startswith("det_")]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--accel-only", action="store_true", help="feed no gyroscope (physim traces as 4 columns)")
    args = ap.parse_args(argv)
    node = shutil.which("node")
    if not node or not os.path.exists(os.path.join(MPY, "node_modules")):
        print("needs node and `npm ci` in tests/mpy (tests/install-system-deps.sh does both)", file=sys.stderr)
        return 1
    tmp = tempfile.mkdtemp()
    cond = physim.Condition(6.0, 833.0, 30.0, "normal", "rigid")
    cases = [(physim.make_trace("throw_impact", 0, cond), "burrito"),
             (physim.make_trace("throw_catch", 1, cond), "burrito"),
             (make_trace("drop", 2, 833.0), "burrito"), (make_trace("badge_hit", 0, 833.0), "badge")]
    data = []
    mp_args = ["/fw", str(args.passes)]
    for i, (tr, kind) in enumerate(cases):
        path = os.path.join(tmp, f"t{i}.csv")
        if args.accel_only:
            tr.gyro = []
        with open(path, "w") as fh:
            fh.writelines(tr.csv_lines())
        data.append(f"{path}=/t{i}.csv")
        mp_args += [f"/t{i}.csv", kind]
    costs: dict[str, list[float]] = {"old": [], "new": []}
    cpus: dict[str, list[float]] = {"old": [], "new": []}
    n = sum(len(tr.samples) for tr, _ in cases)
    env = dict(os.environ, MPY_CPU_REPORT="1")
    outs: dict[str, list[str]] = {}
    for r in range(args.rounds):
        for name, folder in (("old", args.old), ("new", args.new)):
            proc = subprocess.run([node, "run_mpy.mjs", LOOP, *_puts(folder), *data, "--", *mp_args],
                                  cwd=MPY, capture_output=True, text=True, timeout=900, env=env)
            if proc.returncode != 0:
                raise SystemExit(f"bench_mpy_compare: {name} failed: {proc.stderr.strip().splitlines()[-1:]}")
            lines = proc.stdout.splitlines()
            costs[name].append(min(float(x.split()[1]) for x in lines if x.startswith("PASS ")))
            cpu = [x for x in proc.stderr.splitlines() if x.startswith("CPU_US ")]
            cpus[name].append(int(cpu[0].split()[1]) / (n * args.passes))
            outs[name] = [x for x in lines if x.startswith("EVENTS ")]
            print(f"round {r + 1} {name}: {costs[name][-1]:.2f} us/sample wall, {cpus[name][-1]:.2f} CPU", flush=True)
    for label, d in (("wall, least pass", costs), ("CPU, whole process", cpus)):
        for name in ("old", "new"):
            c = d[name]
            print(f"{label}: {name} best {min(c):.2f}, median {statistics.median(c):.2f} us/sample over {len(c)} runs")
        print(f"{label}: new/old best {min(d['new']) / min(d['old']):.3f}, "
              f"median {statistics.median(d['new']) / statistics.median(d['old']):.3f}")
    print(f"events identical: {outs['old'] == outs['new']} ({outs['new']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
