"""The firmware's Python runs under real MicroPython, not only CPython: the WebAssembly port of MicroPython (npm
package @micropython/micropython-webassembly-pyscript, pinned in tests/mpy/package-lock.json) runs the detector and
the protocol module and the trace ring on traces, and every event, frame and checksum must equal CPython's. Traces
with the angular rate (physim's gyroscope) are fed with it and their rings send TRACE6 chunks; accelerometer-only
traces are fed and sent as before.

Needs node and npm (Debian package nodejs); a missing node or a failed `npm ci` fails the test, it never skips.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge import physim
from firmware_bridge.cli import detect_events
from firmware_bridge.firmware import proto
from firmware_bridge.tracefile import read_rows
from firmware_bridge.traces import make_trace

ROOT = Path(__file__).resolve().parent.parent
MPY = ROOT / "tests" / "mpy"
FIRMWARE = ROOT / "firmware_bridge" / "firmware"
PKG = MPY / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"


@pytest.fixture(scope="module")
def node() -> str:
    exe = shutil.which("node")
    assert exe, "node is not installed (Debian package nodejs; tests/install-system-deps.sh installs it)"
    if not PKG.exists():
        npm = shutil.which("npm")
        assert npm, "npm is not installed (it comes with nodejs)"
        proc = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=MPY, capture_output=True, text=True,
                              timeout=300)
        assert proc.returncode == 0 and PKG.exists(), "npm ci in tests/mpy failed: " + proc.stderr[-800:]
    return exe


def traces(tmp: Path) -> list[tuple[Path, str]]:
    out = []
    cases = [
        (physim.make_trace("throw_impact", 0, physim.Condition(6.0, 833.0, 150.0, "normal", "rocking")), "burrito"),
        (physim.make_trace("throw_catch", 1, physim.Condition(15.0, 416.0, 30.0, "pump", "rigid")), "burrito"),
        (make_trace("drop", 2, 833.0), "burrito"),
        (make_trace("badge_hit", 0, 833.0), "badge"),
    ]
    for i, (tr, kind) in enumerate(cases):
        p = tmp / f"t{i}.csv"
        with open(p, "w") as fh:
            fh.writelines(tr.csv_lines())
        out.append((p, kind))
    return out


def firmware_puts() -> list[str]:
    return [f"{FIRMWARE / name}=/fw/{name}" for name in (
        "detector.py", "det_attitude.py", "det_contact.py", "det_flight.py", "det_hand.py", "det_look.py",
        "det_noise.py", "det_release.py", "det_resolve.py", "det_rest.py", "det_ring.py", "det_tremor.py", "proto.py",
        "tracebuf.py")]


def run_micropython(node: str, csvs: list[tuple[Path, str]]) -> list[str]:
    puts = firmware_puts()
    args = ["/fw"]
    for i, (p, kind) in enumerate(csvs):
        puts.append(f"{p}=/t{i}.csv")
        args += [f"/t{i}.csv", kind]
    proc = subprocess.run([node, "run_mpy.mjs", "check_firmware.py", *puts, "--", *args], cwd=MPY,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.splitlines()


def run_cpython(csvs: list[tuple[Path, str]]) -> list[str]:
    args = [str(FIRMWARE)]
    for p, kind in csvs:
        args += [str(p), kind]
    proc = subprocess.run([sys.executable, str(MPY / "check_firmware.py"), *args], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.splitlines()


def test_detector_and_protocol_under_micropython_equal_cpython(node: str, tmp_path: Path) -> None:
    """Same events (time, kind, peak), same framed packets, CRCs and COBS bytes under MicroPython as under CPython."""
    csvs = traces(tmp_path)
    mpy = run_micropython(node, csvs)
    cpy = run_cpython(csvs)
    body_m = [line for line in mpy if not line.startswith("COST")]
    body_c = [line for line in cpy if not line.startswith("COST")]
    events = [line.split()[2] for line in body_c if line.startswith("E ")]
    # the check has teeth: the traces do produce the events that decide a game, and their packets
    assert {"pickup", "launch", "impact", "catch"} <= set(events)
    assert sum(1 for line in body_c if line.startswith("P ")) == len(events) + len(csvs)  # + one HELLO each
    # the physim traces carry the gyro (7 columns) and their rings send TRACE6; the others 4 columns and TRACE
    assert [line.split()[2] for line in body_c if line.startswith("R ")] == ["7", "7", "4", "4"]
    chunks = [line.split() for line in body_c if line.startswith("T ")]
    assert {c[1] for c in chunks} == {str(proto.TRACE6), str(proto.TRACE)}
    assert max(int(c[7]) for c in chunks if c[1] == str(proto.TRACE6)) == proto.TRACE6_MAX_SAMPLES
    assert max(int(c[7]) for c in chunks if c[1] == str(proto.TRACE)) == proto.TRACE_MAX_SAMPLES
    # the harness feeds what the detect command feeds: with the angular rate where the file has it
    per_trace = "\n".join(body_c).split("R ")[1:]
    for (path, kind), block in zip(csvs, per_trace):
        with open(path) as fh:
            want = ["E %d %s %.3f" % e for e in detect_events(read_rows(fh, str(path)), kind)]
        assert [x for x in block.splitlines() if x.startswith("E ")] == want, path
    assert body_m == body_c
    cost = float(mpy[-1].split()[1])
    assert 0.0 < cost < 10_000.0
    print(f"MicroPython (WebAssembly) detector cost: {cost:.1f} us per sample")


def test_the_comparison_catches_a_difference(node: str, tmp_path: Path) -> None:
    """The harness compares real outputs: a detector changed under MicroPython only gives different lines."""
    csvs = traces(tmp_path)[:1]
    changed = tmp_path / "fw"
    changed.mkdir()
    src = (FIRMWARE / "detector.py").read_text()
    (changed / "detector.py").write_text(src.replace('"windup_g": 2.0,', '"windup_g": 40.0,'))
    assert '"windup_g": 40.0,' in (changed / "detector.py").read_text()
    puts = [f"{changed / 'detector.py'}=/fw/detector.py", f"{FIRMWARE / 'proto.py'}=/fw/proto.py",
            f"{FIRMWARE / 'tracebuf.py'}=/fw/tracebuf.py", f"{csvs[0][0]}=/t0.csv"] + \
        [f"{FIRMWARE / name}=/fw/{name}" for name in (
            "det_attitude.py", "det_contact.py", "det_flight.py", "det_hand.py", "det_look.py", "det_noise.py",
            "det_release.py", "det_resolve.py", "det_rest.py", "det_ring.py", "det_tremor.py")]
    proc = subprocess.run([node, "run_mpy.mjs", "check_firmware.py", *puts, "--", "/fw", "/t0.csv", "burrito"],
                          cwd=MPY, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert [x for x in proc.stdout.splitlines() if not x.startswith("COST")] != \
        [x for x in run_cpython(csvs) if not x.startswith("COST")]


def test_a_python_error_under_micropython_fails_the_run(node: str, tmp_path: Path) -> None:
    """A module MicroPython cannot run (here: one importing a CPython-only module) exits non-zero with the error."""
    bad = tmp_path / "bad.py"
    bad.write_text("import dataclasses\n")
    proc = subprocess.run([node, "run_mpy.mjs", str(bad)], cwd=MPY, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "dataclasses" in proc.stderr


def test_lockfile_pins_the_webassembly_port() -> None:
    """CI installs exactly what was tested: the package is pinned in a committed lockfile."""
    lock = (MPY / "package-lock.json").read_text()
    assert "@micropython/micropython-webassembly-pyscript" in lock and os.path.exists(MPY / "package.json")


def test_long_random_streams_through_the_firmware_give_the_same_packets_under_micropython(node: str,
                                                                                         tmp_path: Path) -> None:
    """Hypothesis draws long sample streams -- back-to-back and overlapping captures, samples stepping back, gaps of
    any length up to hours, the clock and sequence numbers starting before their 32-bit wrap, lost acks, fast
    sensors whose traces must be cut -- and the firmware's Node and trace ring play each under MicroPython and
    CPython: no check fails (chunk counts fit a byte, chunk times run forward) and every packet is the same."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    drawn: list[dict] = []
    segment = st.tuples(st.one_of(st.integers(0, 100_000), st.integers(65_000, 3_000_000),
                                  st.integers(0, 3 * 3600 * 10**6)),
                        st.integers(0, 1000), st.sampled_from([150, 1200, 9615, 70_000]),
                        st.sampled_from([0, 2, 7, 50]),
                        st.lists(st.tuples(st.integers(0, 999), st.integers(0, 1_000_000),
                                           st.sampled_from(proto.EVENT_KINDS)), max_size=6))

    @settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(st.fixed_dictionaries({
        "gyro": st.booleans(), "rate": st.sampled_from([104, 833, 6664]),
        "start": st.one_of(st.integers(0, 2**40), st.integers(2**32 - 4_000_000, 2**32)),
        "seq": st.one_of(st.just(0), st.integers(2**32 - 300, 2**32 - 1)),
        "drop": st.sampled_from([0, 0, 5, 13]), "segments": st.lists(segment, min_size=1, max_size=4)}))
    def draw(sc: dict) -> None:
        drawn.append(sc)

    draw()
    # and one that must be cut: 6.6 kHz with the gyroscope, a capture of ~670 chunks
    drawn.append({"gyro": True, "rate": 6664, "start": 2**32 - 1_000_000, "seq": 2**32 - 5, "drop": 0,
                  "segments": [[0, 12000, 150, 0, [[11000, 0, "impact"]]]]})
    import json

    path = tmp_path / "streams.json"
    path.write_text("".join(json.dumps(sc) + "\n" for sc in drawn))
    mpy = subprocess.run([node, "run_mpy.mjs", "stream_firmware.py", f"{FIRMWARE / 'proto.py'}=/fw/proto.py",
                          f"{FIRMWARE / 'tracebuf.py'}=/fw/tracebuf.py", f"{path}=/streams.json", "--", "/fw",
                          "/streams.json"], cwd=MPY, capture_output=True, text=True, timeout=600)
    assert mpy.returncode == 0, mpy.stderr[-2000:]
    cpy = subprocess.run([sys.executable, str(MPY / "stream_firmware.py"), str(FIRMWARE), str(path)],
                         capture_output=True, text=True, timeout=600)
    assert cpy.returncode == 0, cpy.stderr[-2000:]
    summary = [line.split() for line in cpy.stdout.splitlines() if line.startswith("S ")]
    assert len(summary) == len(drawn)
    assert int(summary[-1][3]) == 1  # the fast sensor's trace was cut
    assert sum(int(s[1]) for s in summary) >= 10  # traces were made and sent
    assert mpy.stdout == cpy.stdout
    print(f"{len(drawn)} streams, {sum(int(s[6]) for s in summary)} packets, identical under MicroPython")
