"""End to end over a pty: virtual devices -> virtual receiver -> pyserial -> DeviceHost, incl. unplug/replug."""

from __future__ import annotations

import json
import queue
import re
import time
from collections.abc import Iterator

import pytest

from firmware_bridge.host import DeviceEvent, DeviceHost, LinkEvent, PairingError, PairingStore
from firmware_bridge.virtual import Radio, VirtualTable


def collect(host: DeviceHost, until, timeout: float) -> list:
    """Drain host.events until ``until(events)`` holds (fails after ``timeout`` seconds)."""
    out: list = []
    end = time.monotonic() + timeout
    while not until(out):
        left = end - time.monotonic()
        assert left > 0, f"timed out; got {out}"
        try:
            out.append(host.events.get(timeout=min(left, 0.05)))
        except queue.Empty:
            pass
    return out


def device_events(evs: list) -> list[DeviceEvent]:
    return [e for e in evs if isinstance(e, DeviceEvent)]


@pytest.fixture
def table(tmp_path) -> Iterator[tuple[VirtualTable, DeviceHost]]:
    vt = VirtualTable(link=tmp_path / "ttyBURRITO",
                      radio=Radio(delay_ms=(1, 6), loss=0.05, spike_p=0.02, spike_ms=100), seed=7)
    for _ in range(2):
        vt.add("burrito")
    for _ in range(3):
        vt.add("badge")
    store = PairingStore(tmp_path / "pairings.json")
    vt.pair_all(store)
    vt.start()
    host = DeviceHost(vt.path, store, offline_after_s=0.5).start()
    yield vt, host
    host.stop()
    vt.stop()


def test_a_battle_arrives_complete_once_each_and_on_table_time(table) -> None:
    """Lossy, spiky radio and drifting clocks: every event arrives exactly once, stamped within 3 ms of when it
    happened (arrival can be 100+ ms late), and the order of two hits 20 ms apart is right."""
    vt, host = table
    t0 = time.monotonic() + 0.5
    script = [(0.00, "burrito-1", "pickup", None), (0.30, "burrito-1", "launch", 1.2),
              (0.70, "burrito-1", "impact", 9.5), (0.70, "badge-2", "impact", 4.1),
              (0.72, "burrito-2", "impact", 8.0), (0.74, "badge-3", "impact", 3.9),
              (0.90, "burrito-1", "bounce", 2.0), (1.50, "burrito-1", "rest", None),
              (1.60, "badge-1", "impact", 2.2)]
    vt.play_script(script, start=t0)
    evs = device_events(collect(host, lambda out: len(device_events(out)) >= len(script), timeout=15))
    time.sleep(0.3)  # late duplicates would show up now
    evs += device_events([e for e in iter(lambda: host.events.get_nowait() if not host.events.empty() else None,
                                          None)])
    got = sorted((e.device, e.kind) for e in evs)
    assert got == sorted((d, k) for _, d, k, _ in script)
    truth = {(x.device, x.kind): x.t for x in vt.truth}
    errs = [abs(e.t - truth[(e.device, e.kind)]) for e in evs]
    assert max(errs) < 0.003, errs
    by = {(e.device, e.kind): e.t for e in evs}
    assert by[("badge-2", "impact")] < by[("badge-3", "impact")]
    assert {h.name: h.synced for h in host.health() if h.kind != "receiver"} == dict.fromkeys(vt.devices, True)


def test_unplug_mid_frame_and_replug_reconnects_within_a_second_and_loses_nothing(table) -> None:
    """USB pulled mid-frame: the reader survives, reopens the (re-pointed) path within 1 s of the replug, and
    events detected while unplugged arrive after it (devices resend until acked)."""
    vt, host = table
    collect(host, lambda out: all(h.synced for h in host.health() if h.kind != "receiver"), timeout=10)
    vt.unplug(mid_frame=True)
    collect(host, lambda out: any(isinstance(e, LinkEvent) and e.device == "receiver" and e.state == "offline"
                                  for e in out), timeout=3)
    vt.emit("burrito-2", "launch", peak_g=1.0)
    time.sleep(0.3)
    replugged = time.monotonic()
    vt.replug()
    evs = collect(host, lambda out: any(isinstance(e, LinkEvent) and e.device == "receiver" and e.state == "online"
                                        for e in out), timeout=3)
    up = next(e for e in evs if isinstance(e, LinkEvent) and e.state == "online")
    assert up.t - replugged < 1.0
    evs += collect(host, lambda out: any(e.kind == "launch" for e in device_events(out)), timeout=10)
    assert [e.device for e in device_events(evs)] == ["burrito-2"]
    c = host.counters
    assert c["reconnects"] == 1 and c["handler_errors"] == 0 and c["corrupt"] >= 1  # the cut frame was counted


def test_a_device_switched_off_goes_offline_and_back_online_after_reboot(table) -> None:
    vt, host = table
    collect(host, lambda out: all(h.synced for h in host.health() if h.kind != "receiver"), timeout=10)
    vt.power("badge-1", False)
    collect(host, lambda out: any(isinstance(e, LinkEvent) and e.device == "badge-1" and e.state == "offline"
                                  for e in out), timeout=5)
    vt.power("badge-1", True)
    vt.emit("badge-1", "impact", time.monotonic() + 0.2, 3.0)
    evs = collect(host, lambda out: any(e.device == "badge-1" for e in device_events(out)), timeout=10)
    assert any(isinstance(e, LinkEvent) and e.device == "badge-1" and e.state == "online" for e in evs)
    truth = [x for x in vt.truth if x.device == "badge-1"][-1]
    assert abs(device_events(evs)[-1].t - truth.t) < 0.005  # the rebooted clock was synchronised afresh


def test_hwgrep_port_that_is_absent_keeps_retrying_without_crashing() -> None:
    """A receiver that is not plugged in: the host starts, stays disconnected, and records why."""
    host = DeviceHost("hwgrep://ffff:fffe", retry_s=0.02).start()
    try:
        time.sleep(0.2)
        assert not host.link.connected and host.link.last_open_error
    finally:
        host.stop()


# ------------------------------------------------------------------ pairing file


def test_pairing_file_round_trips_and_names_stay_stable(tmp_path) -> None:
    path = tmp_path / "p.json"
    s = PairingStore(path)
    a = s.pair(b"\x02\x00\x00\x00\x00\x01", "burrito", 1)
    b = s.pair(b"\x02\x00\x00\x00\x00\x02", "burrito", 2)
    again = s.pair(b"\x02\x00\x00\x00\x00\x01", "burrito", 5)  # re-paired at another seat
    assert (a.name, b.name, again.name, again.seat) == ("burrito-1", "burrito-2", "burrito-1", 5)
    assert PairingStore(path).all() == s.all()


@pytest.mark.parametrize("text, message", [
    ("{not json", "line 1: not JSON"),
    ('{"version": 2, "devices": []}', 'expected {"version": 1'),
    ('{"version": 1, "devices": [{"mac": "zz", "kind": "burrito", "name": "b"}]}', "devices[0]: bad or missing mac"),
    ('{"version": 1, "devices": [{"mac": "02:00:00:00:00:01", "kind": "taco", "name": "b"}]}', "kind must be"),
    ('{"version": 1, "devices": [{"mac": "02:00:00:00:00:01", "kind": "badge", "name": "b", "seat": -1}]}',
     "seat must be"),
])
def test_malformed_pairing_file_names_file_and_problem_and_is_left_untouched(tmp_path, text: str,
                                                                              message: str) -> None:
    path = tmp_path / "pairings.json"
    path.write_text(text)
    with pytest.raises(PairingError, match=re.escape(message)) as info:
        PairingStore(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)
    assert path.read_text() == text


def test_pairing_file_write_is_atomic_json(tmp_path) -> None:
    path = tmp_path / "sub" / "p.json"
    PairingStore(path).pair(b"\x02\x00\x00\x00\x00\x07", "badge", None)
    data = json.loads(path.read_text())
    assert data == {"version": 1, "devices": [{"mac": "02:00:00:00:00:07", "kind": "badge", "name": "badge-1",
                                               "seat": None}]}
    assert not list(path.parent.glob("*.tmp"))


def test_trace_driven_burrito_runs_the_real_detector_and_lands_on_table_time(table) -> None:
    """A simulated throw (part A's trace simulator) fed sample by sample through part A's detector inside a virtual
    burrito: launch and impact reach the host stamped where the trace says they happened, not when they arrived."""
    traces = pytest.importorskip("firmware_bridge.traces")
    pytest.importorskip("firmware_bridge.firmware.detector")
    vt, host = table
    collect(host, lambda out: all(h.synced for h in host.health() if h.kind != "receiver"), timeout=10)
    tr = traces.make_trace("throw_impact", 3)
    t_first = tr.samples[0][0]
    start = time.monotonic() + 0.1
    vt.play_trace("burrito-2", [(t - t_first, ax, ay, az) for t, ax, ay, az in tr.samples], start=start)
    evs = device_events(collect(host, lambda out: any(e.kind == "impact" for e in device_events(out)),
                                timeout=10))
    true_t = {kind: start + (t - t_first) / 1e6 for t, kind in tr.truth}
    got = {e.kind: e.t for e in evs if e.device == "burrito-2"}
    assert abs(got["launch"] - true_t["launch"]) < 0.010
    assert abs(got["impact"] - true_t["impact"]) < 0.010
