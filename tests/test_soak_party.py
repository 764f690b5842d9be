"""The party soak (``benchmarks/soak_party.py``): ten minutes of table time with every game kind and the Quick Draw
plugin, phones on the real companion server tapping and sending junk, the venue publisher on a real mosquitto that is
restarted half-way, radio loss and device power cycles, back-to-back throws through the real detector. The table
never reaches the failsafe screen, logs nothing at ERROR, does not grow its memory by 10 % after the warm-up, and
ends with as many file descriptors and threads as it had then. The four-hour run is the same on demand."""

from __future__ import annotations

import multiprocessing
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import soak_party  # noqa: E402 - benchmarks/ is not a package

WARM = {"t": 100.0, "rss_mib": 80.0, "fds": 50, "threads": 12, "tasks": 12}


def summary(end: dict[str, float], **over: object) -> dict[str, object]:
    """A summary as ``summarise`` writes it, for the warm-up and end samples given."""
    sm: dict[str, object] = {
        "failsafes": [], "errors": 0, "timeouts": [],
        "rss_growth_pct": round((end["rss_mib"] / WARM["rss_mib"] - 1) * 100, 2),
        "fds": {"warm": WARM["fds"], "end": end["fds"]},
        "threads": {"warm": WARM["threads"], "end": end["threads"], "os_warm": WARM["tasks"], "os_end": end["tasks"]},
    }
    sm.update(over)
    return sm


def test_the_goals_hold_for_a_flat_run_and_name_each_one_missed() -> None:
    assert soak_party.missed(summary(dict(WARM, rss_mib=85.0, fds=53))) == []
    leak = soak_party.missed(summary(dict(WARM, rss_mib=88.0, fds=80, threads=20, tasks=20),
                                     failsafes=["boom"], errors=2))
    assert [m.split(" ")[0] for m in leak] == ["1", "2", "RSS", "fds", "threads"], leak


@pytest.mark.slow
def test_ten_minutes_of_party_no_failsafe_no_error_no_growth(tmp_path: Path) -> None:
    opts = soak_party.Options(seed=1, table_s=600.0, speed=8.0, game_s=(30.0, 75.0), sample_s=20.0)  # = --minutes 10 --speed 8
    # in a fresh interpreter, as the table runs: a test worker's own open fonts and threads are not the table's
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        sm = pool.apply(soak_party.run_party, (opts, tmp_path))
    text = soak_party.screen(sm)
    # it held up
    assert sm["failsafes"] == [], text
    assert sm["errors"] == 0, text
    assert sm["timeouts"] == [], text
    assert sm["rss_growth_pct"] < 10.0, text
    assert sm["fds"]["end"] <= sm["fds"]["warm"] + soak_party.FD_MARGIN, text
    assert sm["threads"]["end"] <= sm["threads"]["warm"] + soak_party.THREAD_MARGIN, text
    assert sm["threads"]["os_end"] <= sm["threads"]["os_warm"] + soak_party.THREAD_MARGIN, text
    # it did what a party does: every game kind, phones and the venue busy, throws and faults
    assert set(sm["games_started"]) >= {"throw-throw-burrito", "zombie-burrito", "taco-vs-burrito", "quick-draw"}, text
    assert sm["throws"] >= 20 and sm["back_to_back"] >= 1 and sm["presses"] >= 100, text
    assert sm["phone"]["taps"] >= 50 and sm["phone"]["junk"] >= 5 and sm["phone"]["disconnects"] >= 1, text
    assert sm["bridge"]["applied"] >= 50, text
    assert sm["broker_restarts"] == 1 and sm["mqtt_received"] >= 50, text
    assert sm["power_cycles"] + sm["radio_changes"] >= 2, text
