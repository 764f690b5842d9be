"""PROTOCOL.md 1.1 sections 10-11 over a real pty: virtual devices keep a ring of raw samples and send the stretch
around every event as TRACE chunks until acknowledged; the host pushes detector parameters with CONFIG and reports
which device runs which version."""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Iterator

import pytest

from firmware_bridge.firmware import proto, tracebuf
from firmware_bridge.host import DeviceHost, PairingStore, commands
from firmware_bridge.host.tracestore import TraceRecord, load_traces
from firmware_bridge.traces import make_trace
from firmware_bridge.virtual import Radio, VirtualTable


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    commands.add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def wait_for(cond, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, what
        time.sleep(0.05)


@pytest.fixture
def table(tmp_path) -> Iterator[tuple[VirtualTable, DeviceHost, PairingStore]]:
    """Two burritos and two badges behind a lossy radio (20 % of packets lost each way): chunks must be resent."""
    vt = VirtualTable(link=tmp_path / "tty", radio=Radio(delay_ms=(1, 5), loss=0.2), seed=9)
    for _ in range(2):
        vt.add("burrito")
    for _ in range(2):
        vt.add("badge")
    store = PairingStore(tmp_path / "pairings.json")
    vt.pair_all(store)
    vt.start()
    host = DeviceHost(vt.path, store, status_path=None, trace_dir=tmp_path / "traces").start()
    wait_for(lambda: len(host.health()) == 5 and all(h.synced for h in host.health()), 15, "devices never synced")
    yield vt, host, store
    host.stop()
    vt.stop()


def _play(vt: VirtualTable, device: str, scenario: str, seed: int) -> tuple[list, float]:
    tr = make_trace(scenario, seed)
    first = tr.samples[0][0]
    rows = [(t - first, ax, ay, az) for t, ax, ay, az in tr.samples]
    start = time.monotonic() + 0.1
    vt.play_trace(device, rows, start=start)
    return rows, start + rows[-1][0] / 1e6


def test_a_throw_comes_back_as_traces_holding_the_samples_around_each_event(table, tmp_path) -> None:
    """Section 10: every event's window -- 1 s before its stamp to 0.5 s after -- reaches the host sample for sample
    (to the milli-g the wire carries), although a fifth of all packets are lost, and events still arrive."""
    vt, host, _ = table
    rows, end = _play(vt, "burrito-1", "throw_impact", 3)
    ring = vt.devices["burrito-1"].traces
    assert ring is not None

    def every_trace_home() -> bool:
        """Chunks of several traces are in flight at once, so a later trace can land first: wait for all it made."""
        if time.monotonic() < end + 1.0 or ring.capture is not None or ring.traces < 2:
            return False
        return len([t for t in load_traces(tmp_path / "traces") if t.device == "burrito-1"]) >= ring.traces
    wait_for(every_trace_home, 20, "not every trace came back")
    assert ring.dropped == 0
    traces = [t for t in load_traces(tmp_path / "traces") if t.device == "burrito-1"]
    truth = [x for x in vt.truth if x.device == "burrito-1"]
    assert {x.kind for x in truth} >= {"launch", "impact"}
    off = _offset(traces[0], rows)  # device time of the first played row
    last = off + round(rows[-1][0])
    for ev in truth:
        cover = [t for t in traces if t.samples[0][0] <= ev.device_t_us <= t.samples[-1][0]]
        assert cover, f"no trace holds the {ev.kind}"
        before = max(ev.device_t_us - t.samples[0][0] for t in cover)
        after = max(t.samples[-1][0] - ev.device_t_us for t in cover)
        assert before >= min(tracebuf.PRE_US, ev.device_t_us - off) - 2000, (ev.kind, before)
        if ev.kind not in ("bounce", "rest"):  # those come late in a widened capture, which stops at 1.8 s
            assert after >= min(tracebuf.POST_US, last - ev.device_t_us) - 2000, (ev.kind, after)
    # sample for sample: every trace is a run of the played rows, values to 1 mg
    played = {round(r[0]): r[1:] for r in rows}
    for t in traces:
        offset = _offset(t, rows)
        for t_us, ax, ay, az in t.samples:
            ref = played[t_us - offset]
            assert max(abs(ax - ref[0]), abs(ay - ref[1]), abs(az - ref[2])) <= 0.0006
    c = host.counters
    assert c["traces_incomplete"] == 0 and c["trace_chunks"] >= sum(len(t.samples) for t in traces) / 27
    assert c["events"] >= len(truth)


def _offset(tr: TraceRecord, rows: list) -> int:
    """Device time minus trace-row time, found from the first sample (unique: the rows are noisy)."""
    t0, ax, ay, az = tr.samples[0]
    for r in rows:
        if abs(r[1] - ax) <= 0.0006 and abs(r[2] - ay) <= 0.0006 and abs(r[3] - az) <= 0.0006:
            off = t0 - round(r[0])
            if all(abs(tr.samples[k][0] - off - round(rows[i][0])) == 0
                   for k, i in ((1, rows.index(r) + 1), (2, rows.index(r) + 2))):
                return off
    raise AssertionError("trace samples are not the played samples")


def test_the_trace_ring_keeps_memory_bounded_and_counts_what_it_drops() -> None:
    """Section 10's bound on the device: a fixed ring, at most MAX_TRACES waiting, the rest dropped and counted."""
    buf = tracebuf.TraceBuffer(833)
    ring = len(buf.ring)
    t = 0
    for _k in range(40):  # an event every 2 s for 80 s, nothing sent
        for _ in range(1666):
            t += 1200
            buf.add(t, 0.0, 0.0, 1.0)
        buf.mark(t - 600_000)
    assert len(buf.ring) == ring == (833 * 2 + 1) * tracebuf.REC
    assert len(buf.ready) == tracebuf.MAX_TRACES and buf.dropped >= 30
    size = sum(len(r[1]) for r in buf.ready)
    assert size <= tracebuf.MAX_TRACES * 1.8 * 833 * tracebuf.REC + tracebuf.REC * 2


def test_config_is_pushed_until_every_device_runs_it_and_survives_a_reboot(table) -> None:
    """Section 11 over a lossy radio: every burrito and badge answers "applied" and reports the version; a device
    that reboots comes back running it (it kept the parameters); a set with an unknown name is rejected and the
    devices keep what they ran."""
    vt, host, store = table
    host.push_config(7, {"hard_g": 5.5, "still_t": 240000})
    wait_for(lambda: set(host.config_report().values()) == {(7, "applied")}, 15, str(host.config_report()))
    assert [d.params.get("hard_g") for d in vt.devices.values()] == [5.5] * 4  # 5.5 is exact in float32
    vt.power("badge-1", False)
    time.sleep(0.3)
    vt.power("badge-1", True)
    wait_for(lambda: host.config_report()["badge-1"] == (7, "applied")
             and next(h for h in host.health() if h.name == "badge-1").synced, 10, "badge-1 did not come back")
    host.push_config(8, {"NOT_A_PARAMETER": 1.0})
    wait_for(lambda: all(s == "rejected" for _, s in host.config_report().values()), 15, str(host.config_report()))
    assert {v for v, _ in host.config_report().values()} == {7}


def test_traces_push_command_reports_which_device_runs_which_version(tmp_path) -> None:
    """``burrito-table traces push PARAMS.json`` against a receiver: exit 0 once every paired device runs it."""
    vt = VirtualTable(link=tmp_path / "tty", seed=2)
    vt.add("burrito")
    vt.add("badge")
    store_path = tmp_path / "p.json"
    vt.pair_all(PairingStore(store_path))
    vt.start()
    try:
        params = tmp_path / "params.json"
        params.write_text(json.dumps({"version": 3, "params": {"hard_g": 4.0}}))
        assert run(["traces", "push", str(params), "--port", vt.path, "--pairings", str(store_path),
                    "--timeout", "10"]) == 0
        assert {d.params_version for d in vt.devices.values()} == {3}
    finally:
        vt.stop()


@pytest.mark.parametrize("text, problem", [
    ("{", "line 1: not JSON"),
    ('{"version": 0, "params": {}}', "version must be an integer 1-65535"),
    ('{"version": 2, "params": {"hard_g": "high"}}', "params.hard_g: must be a number"),
    ('{"params": {}}', "version must be"),
])
def test_a_bad_parameter_file_exits_2_naming_it(tmp_path, capsys, text: str, problem: str) -> None:
    params = tmp_path / "params.json"
    params.write_text(text)
    assert run(["traces", "push", str(params), "--port", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert str(params) in err and problem in err and err.count("\n") == 1


def test_config_parts_split_and_round_trip_every_parameter() -> None:
    """Many parameters span several 250-byte packets and come back whole (names sorted, values as float32)."""
    params = {f"P{k:02d}_SOMEWHAT_LONG_NAME": k * 0.25 for k in range(40)}
    parts = proto.config_parts(1, params)
    assert len(parts) > 1 and all(len(p) <= proto.CONFIG_MAX_ENTRIES_BYTES for p in parts)
    back: dict[str, float] = {}
    for p in parts:
        back.update(proto.config_entries(p))
    assert back == params


def test_traces_push_reaches_a_running_table_through_its_parameter_file(tmp_path, capsys) -> None:
    """While a table owns the receiver, ``traces push`` installs the file where the table's host watches it; the host
    pushes it and the command follows the published status until every device runs it. A later version replaces it;
    a broken file is reported in the status and changes nothing."""
    vt = VirtualTable(link=tmp_path / "tty", seed=6)
    vt.add("burrito")
    vt.add("badge")
    store = PairingStore(tmp_path / "p.json")
    vt.pair_all(store)
    vt.start()
    status, watched = tmp_path / "status.json", tmp_path / "cfg" / "detector-params.json"
    host = DeviceHost(vt.path, store, status_path=status, params_path=watched).start()
    try:
        wait_for(lambda: status.exists() and len(host.health()) == 3, 10, "the table never published its status")
        for version in (4, 5):
            params = tmp_path / f"p{version}.json"
            params.write_text(json.dumps({"version": version, "params": {"hard_g": 4.0 + version / 10}}))
            assert run(["traces", "push", str(params), "--status", str(status)]) == 0
            out = capsys.readouterr().out
            assert f"installed as {watched}" in out and out.count(f"runs version {version}") == 2
            assert {d.params_version for d in vt.devices.values()} == {version}
        watched.write_text("{not json")
        wait_for(lambda: "not JSON" in json.loads(status.read_text()).get("params_error", ""), 5,
                 "a broken parameter file was not reported")
        assert host.counters["params_errors"] == 1 and set(host.config_report().values()) == {(5, "applied")}
        assert host.link.connects == 1  # the command never opened the receiver
    finally:
        host.stop()
        vt.stop()


def test_a_parameter_file_caught_mid_write_is_not_reported_as_broken(tmp_path) -> None:
    """A writer truncates the file, then writes it: a poll that lands in between sees an empty file. The host reads
    the file only once its stat held still for one poll, so that moment is neither pushed nor counted as an error."""
    watched = tmp_path / "detector-params.json"
    host = DeviceHost(str(tmp_path / "tty"), PairingStore(tmp_path / "p.json"), params_path=watched)
    watched.write_text("")
    host._watch_params(watched)  # the poll that catches the truncated file
    watched.write_text(json.dumps({"version": 7, "params": {"hard_g": 5.0}}))
    os.utime(watched, ns=(1, 2))  # a different stat from the empty file's, whatever the clock's resolution
    host._watch_params(watched)
    assert host.counters["params_errors"] == 0 and host.params_error == ""
    host._watch_params(watched)  # held still: read and pushed
    assert host.counters["params_errors"] == 0 and host._config is not None and host._config[0] == 7
    watched.write_text("{not json")
    host._watch_params(watched)
    host._watch_params(watched)
    assert host.counters["params_errors"] == 1 and "not JSON" in host.params_error
