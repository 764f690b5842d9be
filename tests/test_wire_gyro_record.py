"""The calibration loop with the gyroscope on, over a pty: a burrito whose gyroscope is on throws a physim trace (6
axes), its detector gets the angular rate, its traces come back as TRACE6 chunks, the referee calls the hit, and
`traces record` writes a recording with gx,gy,gz columns holding the rates it sent (to the milli-rad/s the wire
carries), which `detect` reads with its gyro; the badge beside it, accelerometer only, still records 4 columns."""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_wire_calibration import Journaling, run

from firmware_bridge import physim
from firmware_bridge.host import DeviceEvent, DeviceHost, HeartbeatEvent, LinkEvent, PairingStore
from firmware_bridge.host.tracestore import TraceRecord
from firmware_bridge.tracefile import read_rows
from firmware_bridge.traces import make_trace
from firmware_bridge.virtual import Radio, VirtualTable
from game.referee import Question, Referee

CLIP = 32.767  # rad/s: the int16 milli-rad/s of a TRACE6 sample


@pytest.fixture
def rig(tmp_path) -> Iterator[tuple[VirtualTable, DeviceHost]]:
    vt = VirtualTable(link=tmp_path / "tty", radio=Radio(delay_ms=(1, 5), loss=0.05), seed=33)
    vt.add("burrito", "burrito-1", gyro=True)
    vt.add("badge", "badge-2")
    pairings = tmp_path / "pairings.json"
    vt.pair_all(PairingStore(pairings))
    vt.start()
    host = DeviceHost(vt.path, PairingStore(pairings), status_path=None, trace_dir=tmp_path / "traces").start()
    end = time.monotonic() + 15
    while not (len(host.health()) == 3 and all(h.synced for h in host.health())):
        assert time.monotonic() < end, "virtual devices never synced"
        time.sleep(0.05)
    yield vt, host
    host.stop()
    vt.stop()


def test_a_six_axis_trace_recorded_over_the_pty_keeps_its_gyro_columns(rig, tmp_path: Path) -> None:
    vt, host = rig
    assert {h.name: h.gyro for h in host.health()} == {"burrito-1": True, "badge-2": False, "receiver": False}
    t0 = time.monotonic() - 30.0
    jt = Journaling(tmp_path / "journal.db", t0)
    now = time.monotonic()
    jt.submit({"t": now, "event": "declare", "seat": 3, "battle": "duel"})
    jt.submit({"t": now + 0.01, "event": "pick", "seat": 3, "players": [1, 2]})
    ref = Referee(4, {"burrito-1": 1}, {"badge-2": 2})
    ref.context(True, frozenset({1, 2}), now)

    tr = physim.make_trace("throw_impact", 1)
    assert len(tr.gyro) == len(tr.samples) and max(abs(v) for g in tr.gyro for v in g) > 5.0
    first = tr.samples[0][0]
    rows = [(t - first, ax, ay, az, gx, gy, gz) for (t, ax, ay, az), (gx, gy, gz) in zip(tr.samples, tr.gyro)]
    start = time.monotonic() + 0.2
    contact = start + (next(t for t, k in tr.truth if k == "impact") - first) / 1e6
    vt.play_trace("burrito-1", rows, start=start)
    bt = make_trace("badge_hit", 5)
    bfirst = bt.samples[0][0]
    bstart = contact - (next(t for t, k in bt.truth if k == "impact") - bfirst) / 1e6
    vt.play_trace("badge-2", [(t - bfirst, ax, ay, az) for t, ax, ay, az in bt.samples], start=bstart)
    base = vt.devices["burrito-1"].device_us(start)  # the device time of row 0, as the virtual burrito stamps it
    end = start + rows[-1][0] / 1e6

    calls: list[dict] = []
    while not (any(c["event"] == "hit" for c in calls) and time.monotonic() > end + 1.5):
        assert time.monotonic() < end + 15, f"no hit was called: {calls}"
        try:
            ev = host.events.get(timeout=0.02)
        except queue.Empty:
            ev = None
        if isinstance(ev, (DeviceEvent, LinkEvent, HeartbeatEvent)):
            ref.device(ev)
        for item in ref.poll(time.monotonic()):
            if isinstance(item, Question):
                continue
            calls.append(item)
            jt.submit(item)
            st = jt.live.table.state
            ref.context(st.battle is not None, frozenset(st.battle.fighters) if st.battle else frozenset(),
                        time.monotonic())
    jt.journal.close()
    assert host.counters["malformed"] == 0 and host.counters["traces_incomplete"] == 0

    out = tmp_path / "recordings"
    assert run(["traces", "record", "--journal", str(tmp_path / "journal.db"), "--traces", str(tmp_path / "traces"),
                "--out", str(out)]) == 0
    stems = {p.stem: json.loads(p.read_text())["device"] for p in out.glob("*.json")}
    assert set(stems.values()) == {"burrito-1", "badge-2"}
    checked = 0
    for stem, device in stems.items():
        text = (out / f"{stem}.csv").read_text()
        raw = TraceRecord.load(tmp_path / "traces" / f"{stem}.json")
        got = list(read_rows(text.splitlines(), stem))
        if device == "badge-2":
            assert text.startswith("t_us,ax,ay,az\n") and all(len(r) == 4 for r in got) and not raw.gyro
            continue
        assert text.startswith("t_us,ax,ay,az,gx,gy,gz\n") and len(got) == len(raw.samples) == len(raw.gyro)
        played = {r[0]: r for r in rows}
        for row in got:
            want = played[row[0] + raw.samples[0][0] - base]
            for k in (4, 5, 6):
                assert abs(row[k] - max(-CLIP, min(CLIP, want[k]))) <= 0.0005 + 1e-9, (row, want)
            for k in (1, 2, 3):
                assert abs(row[k] - want[k]) <= 0.0005 + 1e-9
            checked += 1
    assert checked > 1000  # a trace holds ~1.5 s at 833 Hz
    # and detect reads the recording with its gyro columns
    burrito_csv = next(out / f"{s}.csv" for s, d in stems.items() if d == "burrito-1")
    from game.cli import main

    assert main(["detect", str(burrito_csv)]) == 0
