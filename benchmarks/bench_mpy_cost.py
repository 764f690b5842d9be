"""The detector's cost per sample under real MicroPython (the WebAssembly port in tests/mpy), next to CPython's.

    python benchmarks/bench_mpy_cost.py [--repeat 5] [--accel-only]

Runs tests/mpy/check_firmware.py (detector + protocol on four traces: physim throw-and-impact and throw-and-catch,
traces.py drop, a badge hit) under node + MicroPython and under CPython, and prints the best of --repeat runs in
microseconds per sample. The physim traces carry the gyroscope (its attitude update runs per sample); --accel-only
leaves it out, for the cost without it. The events must be identical (the test suite checks that too). docs/devices.md turns the
MicroPython figure into an ESP32-S3 CPU budget estimate.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from typing import Any

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from firmware_bridge import physim  # noqa: E402
from firmware_bridge.traces import make_trace  # noqa: E402

MPY = os.path.join(ROOT, "tests", "mpy")
FW = os.path.join(ROOT, "firmware_bridge", "firmware")


def _run(cmd: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
    """Run one harness; a failure ends the benchmark with its last line of stderr, not a traceback."""
    proc = subprocess.run(cmd, **kw)
    if proc.returncode != 0:
        last = (proc.stderr or "").strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
        raise SystemExit(f"bench_mpy_cost: {os.path.basename(cmd[0])} {' '.join(cmd[1:3])} failed: {last[0]}")
    return proc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--accel-only", action="store_true", help="feed no gyroscope (physim traces as 4 columns)")
    args = ap.parse_args(argv)
    node = shutil.which("node")
    if not node or not os.path.exists(os.path.join(MPY, "node_modules")):
        print("needs node and `npm ci` in tests/mpy (tests/install-system-deps.sh does both)", file=sys.stderr)
        return 1
    tmp = tempfile.mkdtemp()
    cases = [(physim.make_trace("throw_impact", 0, physim.Condition(6.0, 833.0, 30.0, "normal", "rigid")), "burrito"),
             (physim.make_trace("throw_catch", 1, physim.Condition(6.0, 833.0, 30.0, "normal", "rigid")), "burrito"),
             (make_trace("drop", 2, 833.0), "burrito"), (make_trace("badge_hit", 0, 833.0), "badge")]
    fw = [f"{FW}/{m}.py=/fw/{m}.py" for m in (  # what check_firmware.py imports
        "detector", "det_attitude", "det_contact", "det_flight", "det_hand", "det_look", "det_noise", "det_release",
        "det_resolve", "det_rest", "det_ring", "det_tremor", "proto", "tracebuf")]
    puts = list(fw)
    mp_args = ["/fw"]
    cp_args = [FW]
    n = 0
    for i, (tr, kind) in enumerate(cases):
        path = os.path.join(tmp, f"t{i}.csv")
        if args.accel_only:
            tr.gyro = []
        with open(path, "w") as fh:
            fh.writelines(tr.csv_lines())
        n += len(tr.samples)
        puts.append(f"{path}=/t{i}.csv")
        mp_args += [f"/t{i}.csv", kind]
        cp_args += [path, kind]
    best_m = best_c = best_cpu = float("inf")
    env = dict(os.environ, MPY_CPU_REPORT="1")
    # fixed cost (starting the WebAssembly module, importing): a run over a two-sample trace
    tiny = os.path.join(tmp, "tiny.csv")
    with open(tiny, "w") as fh:
        fh.write("t_us,ax,ay,az\n1000,0,0,1\n2200,0,0,1\n")
    fixed = float("inf")
    for _ in range(args.repeat):
        proc = _run([node, "run_mpy.mjs", "check_firmware.py", *fw, f"{tiny}=/tiny.csv", "--",
                               "/fw", "/tiny.csv", "burrito"], cwd=MPY, capture_output=True, text=True, timeout=600,
                              env=env)
        fixed = min(fixed, int([x for x in proc.stderr.splitlines() if x.startswith("CPU_US ")][0].split()[1]))
    for _ in range(args.repeat):
        proc = _run([node, "run_mpy.mjs", "check_firmware.py", *puts, "--", *mp_args], cwd=MPY,
                              capture_output=True, text=True, timeout=600, env=env)
        out = proc.stdout.splitlines()
        best_m = min(best_m, float(out[-1].split()[1]))
        cpu = [line for line in proc.stderr.splitlines() if line.startswith("CPU_US ")]
        best_cpu = min(best_cpu, (int(cpu[0].split()[1]) - fixed) / n)
        out_c = _run([sys.executable, os.path.join(MPY, "check_firmware.py"), *cp_args],
                               capture_output=True, text=True, timeout=600).stdout.splitlines()
        best_c = min(best_c, float(out_c[-1].split()[1]))
        same = [x for x in out if not x.startswith("COST")] == [x for x in out_c if not x.startswith("COST")]
    print(f"machine: {platform.machine()}, {os.cpu_count()} cpus, node {subprocess.run([node, '--version'], capture_output=True, text=True).stdout.strip()}, "
          f"Python {platform.python_version()}; {n} samples, best of {args.repeat}; "
          f"{'accelerometer only' if args.accel_only else 'physim traces with the gyroscope'}")
    print(f"MicroPython (WebAssembly port): {best_m:.1f} us per sample (wall, detector loop only)")
    print(f"MicroPython (WebAssembly port): {best_cpu:.1f} us per sample (CPU time less the start-up's "
          f"{fixed / 1000:.0f} ms: reading the CSV, detector, protocol; an upper bound that load does not inflate)")
    print(f"CPython:                        {best_c:.1f} us per sample")
    print(f"events and frames identical: {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
