"""The detector split into parts reports exactly the events the single class did.

tests/data/detector_events_presplit.json holds every event (stamp, kind, peak) that detector.py reported before it was
split into parts (git 92df02f), on physim traces (throws, a drop, a knock) with and without the gyroscope, every
burrito scenario of the first simulator at 200 Hz, two real phone drops and badge hits.  benchmarks/dump_detector_events.py compares the two on the full
trace sets; this pins a small set of them in the suite.
"""

from __future__ import annotations

import json
import os
from typing import Any

from firmware_bridge import physim
from firmware_bridge.firmware.detector import Detector
from firmware_bridge.recordings import find_recordings, load_recording
from firmware_bridge.tracefile import join_rows
from firmware_bridge.traces import BURRITO_SCENARIOS, make_trace

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "data", "detector_events_presplit.json")
COND = physim.Condition(6.0, 416.0, 30.0, "normal", "rigid")
PHYSIM = ("throw_impact", "throw_catch", "drop", "knock_settle")


def cases() -> list[tuple[str, str, list[tuple[Any, ...]]]]:
    """(name, device kind, rows for feed) of the pinned traces."""
    out: list[tuple[str, str, list[tuple[Any, ...]]]] = []
    for scenario in PHYSIM:
        tr = physim.make_trace(scenario, 0, COND)
        name = f"physim {COND.label()} {scenario} 0"
        out.append((name, tr.device, [tuple(s) for s in tr.samples]))
        out.append((name + " gyro", tr.device, [tuple(s) + tuple(g) for s, g in zip(tr.samples, tr.gyro)]))
    for scenario in BURRITO_SCENARIOS:
        tr = make_trace(scenario, 1, 200.0)
        out.append((f"traces {scenario} 1 200Hz", "burrito", [tuple(s) for s in tr.samples]))
    for path in find_recordings(os.path.join(HERE, "data", "phone_drops"))[:2]:
        rec = load_recording(path)
        out.append((f"phone {os.path.basename(path)}", rec.kind, [tuple(r) for r in join_rows(rec.samples, rec.gyro)]))
    for seed in range(2):
        tr = make_trace("badge_hit", seed, 833.0)
        out.append((f"traces badge_hit {seed}", "badge", [tuple(s) for s in tr.samples]))
    return out


def test_the_split_detector_reports_the_events_of_the_single_class() -> None:
    """Every event, its stamp and its peak, equal to the pre-split detector's on every pinned trace."""
    with open(FIXTURE, encoding="utf-8") as fh:
        want = json.load(fh)
    got: dict[str, list[list[Any]]] = {}
    for name, kind, rows in cases():
        det = Detector(kind)
        evs: list[Any] = []
        for r in rows:
            evs.extend(det.feed(*r))
        evs.extend(det.flush())
        got[name] = [[e[0], e[1], e[2]] for e in evs]
    assert sorted(got) == sorted(want)
    assert sum(len(v) for v in want.values()) > 50  # the pinned set has events of every kind to compare
    assert {e[1] for v in want.values() for e in v} >= {"pickup", "launch", "impact", "catch", "rest", "bounce"}
    for name in want:
        assert got[name] == want[name], name
