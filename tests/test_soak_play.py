"""A short soak: seeded random presses from the joined seats of ``play --sim`` (every game, any panels), through the
real input path. No failsafe screen, no exception or error in the log. The long run is ``benchmarks/soak_play.py``."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from game.table.scripted import ErrorLog, Script, SoakStats, soak


@pytest.mark.parametrize("seed", [1, 2])
def test_random_presses_never_reach_the_failsafe_or_log_an_error(tmp_path: Path, seed: int) -> None:
    stats = SoakStats()
    s = Script(tmp_path / "soak.db", limit_s=400.0)
    t0 = time.monotonic()
    with ErrorLog(stats):
        assert s.run(soak(seed, 60.0, stats), lobby_seed=seed) == 0
    line = stats.line(s, time.monotonic() - t0)
    assert s.failsafes == [], line + f" {s.failsafes}"
    assert stats.errors == [], line + f" {stats.errors}"
    assert s.timeouts == [], line + f" {s.timeouts}"
    assert stats.presses >= 40 and stats.games >= 1, line
    assert len(s.events()) > 0, line
