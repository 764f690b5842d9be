"""Check that the blind simulator's accelerometer traces are bit-identical to another revision's.

    python benchmarks/check_blind_accel.py [--rev 1d06341] [--seeds 3]

Loads benchmarks/blind_sim.py as committed at REV (`git show REV:benchmarks/blind_sim.py`) next to the working copy,
simulates every scenario at every rate and noise level for a few seeds with both, and compares stamps, accelerometer
samples (bit for bit), labels and settles.  Made for the gyroscope's addition: its draws use streams of their own,
so nothing the accelerometer produced may change.  Exit status 1 on any difference.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import blind_sim  # noqa: E402


def load_rev(rev: str) -> ModuleType:
    """The simulator as committed at `rev`, imported under another name."""
    text = subprocess.run(["git", "show", f"{rev}:benchmarks/blind_sim.py"], cwd=HERE, check=True,
                          capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "blind_sim_rev.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("blind_sim_rev", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["blind_sim_rev"] = mod
    spec.loader.exec_module(mod)
    return mod


def same(a: blind_sim.Trace, b: Any) -> list[str]:
    """What differs between a working-copy trace and a trace of the other revision ([] when nothing does)."""
    diffs = []
    if not np.array_equal(a.t_us, b.t_us):
        diffs.append("stamps")
    if a.acc.shape != b.acc.shape or a.acc.tobytes() != b.acc.tobytes():
        diffs.append("accelerometer samples")
    lab_a = [(lb.kind, lb.t, lb.optional, lb.early, lb.info) for lb in a.labels]
    lab_b = [(lb.kind, lb.t, lb.optional, lb.early, lb.info) for lb in b.labels]
    if lab_a != lab_b:
        diffs.append("labels")
    if a.settle != b.settle or a.rate_hz != b.rate_hz:
        diffs.append("settles or rate")
    return diffs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rev", default="1d06341", help="the revision to compare with (default: before the gyro)")
    ap.add_argument("--seeds", type=int, default=3, help="seeds per scenario, rate and noise level (default 3)")
    args = ap.parse_args(argv)
    old = load_rev(args.rev)
    checked = bad = 0
    for sc in blind_sim.SCENARIOS:
        for rate in blind_sim.RATES:
            for noise in blind_sim.NOISE_LEVELS:
                for k in range(args.seeds):
                    seed = 7919 * checked + 17 + k
                    new = blind_sim.simulate(sc, rate, noise, seed)
                    diffs = same(new, old.simulate(sc, rate, noise, seed))
                    checked += 1
                    if diffs:
                        bad += 1
                        print(f"DIFFERENT {sc} {rate} Hz {noise} seed {seed}: {', '.join(diffs)}")
    print(f"{checked} traces compared with {args.rev}: {checked - bad} identical (stamps, accelerometer bits, labels), "
          f"{bad} different")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
