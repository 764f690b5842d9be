"""Soak: seeded random presses from the joined seats of ``burrito-table play --sim``, for a long stretch of table time.

    python benchmarks/soak_play.py --minutes 30 --seed 1

The real loop (``run_play``) runs under SDL's dummy drivers on a stepped clock, 16-60x real time; every press is an
SDL key event through the keyboard panel, the MockFactory pins and the simulated MCP23017 expanders; F9/F10/F11 throw
through the virtual devices' detector, the pty and the device host to the referee. Every few table seconds a new
random choice: which panels join (2-6 of six), which game and variant; a won game is restarted from the table menu.
Prints one line of figures and exits 1 if the failsafe screen appeared or anything was logged at ERROR.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game.table.scripted import ErrorLog, Script, SoakStats, soak  # noqa: E402 - after the SDL drivers are chosen


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="table time to play (default 30)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    stats = SoakStats()
    with tempfile.TemporaryDirectory(prefix="burrito-soak-") as tmp:
        s = Script(Path(tmp) / "soak.db", limit_s=args.minutes * 60 + 120)
        t0 = time.monotonic()
        with ErrorLog(stats):
            s.run(soak(args.seed, args.minutes * 60, stats), lobby_seed=args.seed)
        real = time.monotonic() - t0
        print(f"soak seed {args.seed}: {stats.line(s, real)}")
        for what in s.failsafes + stats.errors + s.timeouts:
            print(f"  {what}")
        with __import__("sqlite3").connect(Path(tmp) / "soak.db") as db:
            n = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        print(f"  journal: {n} events; questions asked: {len(s.questions)}")
    return 1 if s.failsafes or stats.errors or s.timeouts else 0


if __name__ == "__main__":
    sys.exit(main())
