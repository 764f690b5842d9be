"""The calibration loop end to end over a pty: virtual devices throw, the host fetches the traces around every event,
the referee makes the call and it is journaled as the table app journals it, ``traces record`` turns the traces the
call covers into labelled recordings that ``detect`` reads, a parameter file is pushed with CONFIG, and every device
reports running the new version."""

from __future__ import annotations

import argparse
import json
import queue
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.cli import read_trace
from firmware_bridge.host import DeviceEvent, DeviceHost, HeartbeatEvent, LinkEvent, PairingStore, commands
from firmware_bridge.host.tracestore import TraceRecord, journal_labels, record
from firmware_bridge.traces import make_trace
from firmware_bridge.virtual import Radio, VirtualTable
from game.cli import main as detect_main
from game.journal import Journal, JournaledTable
from game.referee import Question, Referee

BURRITOS = {"burrito-1": 1, "burrito-2": 2}
BADGES = {f"badge-{s}": s for s in range(1, 5)}


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    commands.add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


class Journaling:
    """Writes table events the way the table app does: table time = host time - t0, evidence times shifted too."""

    def __init__(self, path: Path, t0: float) -> None:
        self.journal = Journal(str(path))
        self.live, _ = JournaledTable.new(self.journal, {"event": "setup", "game": "throw-throw-burrito", "seats": 4})
        self.t0 = t0

    def submit(self, ev: dict[str, Any]) -> None:
        obj = dict(ev)
        obj["t"] = max(round(obj["t"] - self.t0, 4), self.live.table.last_t)
        if isinstance(obj.get("evidence"), dict):
            obj["evidence"] = {k: round(v - self.t0, 6) if (k.endswith("_t") and type(v) in (int, float)) else v
                               for k, v in obj["evidence"].items()}
        self.live.submit(obj)


@pytest.fixture
def rig(tmp_path) -> Iterator[tuple[VirtualTable, DeviceHost, Path]]:
    vt = VirtualTable(link=tmp_path / "tty", radio=Radio(delay_ms=(1, 5), loss=0.05), seed=21)
    for name in BURRITOS:
        vt.add("burrito", name)
    for name in BADGES:
        vt.add("badge", name)
    pairings = tmp_path / "pairings.json"
    vt.pair_all(PairingStore(pairings))
    vt.start()
    host = DeviceHost(vt.path, PairingStore(pairings), status_path=None, trace_dir=tmp_path / "traces").start()
    end = time.monotonic() + 15
    while not (len(host.health()) == 7 and all(h.synced for h in host.health())):
        assert time.monotonic() < end, "virtual devices never synced"
        time.sleep(0.05)
    yield vt, host, pairings
    host.stop()
    vt.stop()


def test_throw_fetch_call_record_push_every_device_reports_the_new_parameters(rig, tmp_path, capsys) -> None:
    vt, host, pairings = rig
    t0 = time.monotonic() - 50.0  # the game started 50 s ago: table time and host time differ
    jt = Journaling(tmp_path / "journal.db", t0)
    now = time.monotonic()
    jt.submit({"t": now, "event": "declare", "seat": 3, "battle": "duel"})
    jt.submit({"t": now + 0.01, "event": "pick", "seat": 3, "players": [1, 2]})
    ref = Referee(4, BURRITOS, BADGES)
    ref.context(True, frozenset({1, 2}), now)

    # burrito-1 is thrown at seat 2 and hits badge-2 at the instant of its impact
    tr = make_trace("throw_impact", 5)
    first = tr.samples[0][0]
    start = time.monotonic() + 0.2
    contact = start + (next(t for t, k in tr.truth if k == "impact") - first) / 1e6
    vt.play_trace("burrito-1", [(t - first, ax, ay, az) for t, ax, ay, az in tr.samples], start=start)
    bt = make_trace("badge_hit", 5)
    bfirst = bt.samples[0][0]
    bstart = contact - (next(t for t, k in bt.truth if k == "impact") - bfirst) / 1e6
    vt.play_trace("badge-2", [(t - bfirst, ax, ay, az) for t, ax, ay, az in bt.samples], start=bstart)
    end = start + (tr.samples[-1][0] - first) / 1e6

    calls: list[dict] = []
    deadline = end + 15
    while not (any(c["event"] == "hit" for c in calls) and time.monotonic() > end + 1.5):
        assert time.monotonic() < deadline, f"no hit was called: {calls}"
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
    hit = next(c for c in calls if c["event"] == "hit")
    assert hit["seat"] == 2 and hit["evidence"]["badge_device"] == "badge-2"

    # traces record: the hit's evidence labels the burrito's launch and impact and the badge's impact
    out = tmp_path / "recordings"
    assert run(["traces", "record", "--journal", str(tmp_path / "journal.db"), "--traces", str(tmp_path / "traces"),
                "--out", str(out)]) == 0
    assert "labelled recordings" in capsys.readouterr().out
    sidecars = {p.stem: json.loads(p.read_text()) for p in out.glob("*.json")}
    truth = {(x.device, x.kind): x.device_t_us for x in vt.truth}
    labelled: dict[tuple[str, str], float] = {}
    for stem, side in sidecars.items():
        assert set(side) >= {"device", "kind", "rate_hz", "events"} and side["rate_hz"] == 833
        rows = list(read_trace((out / f"{stem}.csv").read_text().splitlines(), stem))  # detect's own reader
        raw = TraceRecord.load(tmp_path / "traces" / f"{stem}.json")
        assert len(rows) == len(raw.samples) and rows[0][0] == 0
        for e in side["events"]:
            assert e["source"] == "confirmed" and e["kind"] in ("launch", "impact", "catch", "pickup", "rest")
            true_us = truth[(side["device"], e["kind"])]
            if raw.samples[0][0] <= true_us <= raw.samples[-1][0]:
                labelled[(side["device"], e["kind"])] = abs(e["t"] - (true_us - raw.samples[0][0]) / 1e6)
    assert set(labelled) >= {("burrito-1", "launch"), ("burrito-1", "impact"), ("badge-2", "impact")}
    assert max(labelled.values()) < 0.003, labelled  # the label sits on the true sample (clock sync error only)

    # tune: `detect --tune` fits the detector to the recordings just made and writes the parameter file
    params = tmp_path / "params.json"
    assert detect_main(["detect", "--tune", str(out), "--out", str(params), "--folds", "2", "--jobs", "1"]) == 0
    assert "cross-validation" in capsys.readouterr().out
    tuned = json.loads(params.read_text())
    assert tuned["version"] == 1 and isinstance(tuned["params"], dict)
    # push: a hand edit on top of the fit (as a table's owner may make) shows the values travel to every device
    tuned["params"]["hard_g"] = 4.2
    params.write_text(json.dumps(tuned))
    host.stop()  # the table frees the receiver; `traces push` opens it as its own host
    assert run(["traces", "push", str(params), "--port", vt.path, "--pairings", str(pairings)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 6 and all("runs version 1" in line and "applied" in line for line in lines)
    assert {d.params_version for d in vt.devices.values()} == {1}
    for name, value in tuned["params"].items():  # as float32 carries them
        assert all(abs(d.params[name] - value) <= 1e-6 * max(1.0, abs(value)) for d in vt.devices.values()), name


def test_labels_follow_the_final_call_answers_and_overturned_misses(tmp_path) -> None:
    """A call decided by people's answers is labelled "answer"; a miss the table overturned on challenge labels
    nothing; the game's start is recovered from the traces' event times."""
    t0 = 1000.0
    jt = Journaling(tmp_path / "j.db", t0)
    jt.submit({"t": 1001.0, "event": "declare", "seat": 3, "battle": "duel"})
    jt.submit({"t": 1001.01, "event": "pick", "seat": 3, "players": [1, 2]})
    jt.submit({"t": 1002.5, "event": "miss", "burrito": 1,
               "evidence": {"burrito_device": "burrito-1", "contact": "impact", "contact_t": 1002.5,
                            "launch_t": 1002.1, "question": "Did it touch you?", "answers": {"1": "no", "2": "no"},
                            "confirmed_by_people": True, "decided": "nobody said they were hit"}})
    jt.submit({"t": 1004.0, "event": "miss", "burrito": 2,
               "evidence": {"burrito_device": "burrito-2", "contact": "impact", "contact_t": 1004.0,
                            "decided": "impact with no badge impact within 10 ms"}})
    jt.submit({"t": 1005.0, "event": "foul", "seat": 1,
               "evidence": {"decided": "challenge overturned the miss at 1004.000: seat 1 says it was hit",
                            "confirmed_by_people": True}})
    jt.journal.close()
    labels, overturned = journal_labels(tmp_path / "j.db")
    assert {(lab.device, lab.kind, lab.source) for lab in labels} == {
        ("burrito-1", "impact", "answer"), ("burrito-1", "launch", "answer"), ("burrito-2", "impact", "confirmed")}

    def trace(device: str, events: list[tuple[str, float]]) -> TraceRecord:
        samples = [(1_000_000 + k * 1200, 0.0, 0.0, 1.0) for k in range(2500)]  # 3 s from host 1001.0
        return TraceRecord(device, "burrito", 1, 1, 833, samples, 1001.0, 1.2e-3 / 1200,
                           [{"kind": k, "t": t, "t_us": 0, "seq": 1} for k, t in events])

    traces = tmp_path / "traces"
    trace("burrito-1", [("launch", 1002.1), ("impact", 1002.5)]).save(traces)
    trace("burrito-2", [("impact", 1004.0)]).save(traces)
    summary = record(tmp_path / "j.db", traces, tmp_path / "out")
    assert summary.games == {1: pytest.approx(t0, abs=1e-6)}
    side = json.loads((tmp_path / "out" / "burrito-1-b0001-t1.json").read_text())
    assert sorted((e["kind"], round(e["t"], 3), e["source"]) for e in side["events"]) == [
        ("impact", 1.5, "answer"), ("launch", 1.1, "answer")]
    assert not (tmp_path / "out" / "burrito-2-b0001-t1.json").exists()  # overturned: no ground truth
    assert summary.unlabelled == 1


def test_traces_record_names_a_missing_journal_and_exits_2(tmp_path, capsys) -> None:
    (tmp_path / "traces").mkdir()
    assert run(["traces", "record", "--journal", str(tmp_path / "no.db"), "--traces", str(tmp_path / "traces"),
                "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "no.db" in err and err.count("\n") == 1
