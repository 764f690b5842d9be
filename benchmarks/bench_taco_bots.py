"""Taco vs Burrito bots: the hard bot's win rate against normal and easy over seeded games.

Run: ``python benchmarks/bench_taco_bots.py [--games 1000] [--variant open]``

Each game is played by ``game.games.taco_vs_burrito.bots.play_game`` through the real rules (every event is checked).
Heads-up games swap seats every game so neither side always moves first. In the four-seat games one
hard bot sits with three of the other level (a fair share would be 25 %). A shared top score is a tie,
counted apart from wins. ``--jobs`` spreads the games over worker processes (games/s is wall-clock). On a
terminal each match draws a progress bar (tqdm); redirected output stays free of it.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from firmware_bridge.progress import progress  # noqa: E402
from game.games.taco_vs_burrito import rules as tvb  # noqa: E402
from game.games.taco_vs_burrito.bots import run_game  # noqa: E402


def one_game(job: tuple[str, int, int, str]) -> str:
    """One seeded game with the hard bot in seat ``seed % seats + 1``: "win", "tie" or "loss"."""
    opponent, seats, seed, variant = job
    hard_seat = seed % seats + 1
    levels = [opponent] * seats
    levels[hard_seat - 1] = "hard"
    _, state = run_game(levels, seed, variant=variant)
    win = tvb.winners(state)
    return "win" if win == [hard_seat] else "tie" if hard_seat in win else "loss"


def match(opponent: str, seats: int, games: int, variant: str, pool: Pool | None) -> dict[str, float]:
    """Games are independent and seeded, so a process pool gives the same counts as one process."""
    start = time.perf_counter()
    jobs = [(opponent, seats, seed, variant) for seed in range(games)]
    games = pool.imap(one_game, jobs, chunksize=8) if pool is not None else map(one_game, jobs)
    results = list(progress(games, total=len(jobs), desc=f"hard vs {opponent}, {seats} seats"))
    seconds = time.perf_counter() - start
    return {
        "wins": results.count("win"),
        "ties": results.count("tie"),
        "losses": results.count("loss"),
        "seconds": seconds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--variant", choices=tvb.VARIANTS, default="open")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: all cpus)")
    args = parser.parse_args(argv)
    print(
        f"machine: {os.cpu_count()} cpus, Python {platform.python_version()}, variant {args.variant},"
        f" {args.jobs} worker process(es)"
    )
    pool = Pool(args.jobs) if args.jobs > 1 else None
    print(f"{'match':<22}{'games':>6}{'hard wins':>11}{'ties':>6}{'losses':>8}{'win rate':>10}{'games/s':>9}")
    for opponent in ("normal", "easy"):
        for seats in (2, 4):
            r = match(opponent, seats, args.games, args.variant, pool)
            label = f"hard vs {opponent}" + (" x3" if seats == 4 else "")
            rate = 100.0 * r["wins"] / args.games
            print(
                f"{label:<22}{args.games:>6}{r['wins']:>11}{r['ties']:>6}{r['losses']:>8}"
                f"{rate:>9.1f}%{args.games / r['seconds']:>9.0f}"
            )
    if pool is not None:
        pool.close()
        pool.join()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
