"""Wire benchmarks: decode throughput, pty-to-queue latency, clock-sync error, sync request rates, trace fetch time.

    python benchmarks/bench_wire.py [--quick]

Prints one small table. Goals: >= 50,000 frames/s decoded; clock-sync error < 2 ms p99 with +-100 ppm drift,
1-20 ms one-way delays, 100 ms spikes and 5% loss (simulated clock, no sleeping).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.firmware import proto  # noqa: E402
from firmware_bridge.host import DeviceEvent, DeviceHost, PairingStore  # noqa: E402
from firmware_bridge.virtual import Radio, VirtualTable, simulate_clock_sync  # noqa: E402

MAC = bytes.fromhex("02b077010001")


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))]


def event_stream(n: int) -> bytes:
    return b"".join(proto.frame(proto.seal(proto.pack(proto.EVENT, proto.KIND_BURRITO, MAC, 1, 100 + i,
                                                      (3, 10_000_000 + i, 1234)))) for i in range(n))


def bench_decode(n: int) -> float:
    """Deframe + COBS + CRC + unpack, fed in 4 KiB reads as from a serial port."""
    stream = event_stream(n)
    best = 0.0
    for _ in range(3):
        d = proto.Deframer()
        t = time.perf_counter()
        count = 0
        for i in range(0, len(stream), 4096):
            for packet in d.feed(stream[i:i + 4096]):
                proto.unpack(packet[:-2])
                count += 1
        best = max(best, count / (time.perf_counter() - t))
    assert count == n
    return best


def bench_host_pipeline(n: int) -> float:
    """DeviceHost.process: decode, dedupe, table-time conversion, queue put and the framed ack (port closed, so the
    write itself is skipped)."""
    store = PairingStore(None)
    store.pair(MAC, "burrito")
    host = DeviceHost("/nonexistent/bench", store)
    for k in range(8):  # a synchronised clock, 1 ms round trips
        t1 = k * 50_000
        host.process(proto.frame(proto.seal(proto.pack(proto.TSYNC_RESP, proto.KIND_BURRITO, MAC, 1, k + 1,
                                                       (t1, t1 + 500, t1 + 500)))), (t1 + 1000) / 1e6)
    stream = event_stream(n)
    t = time.perf_counter()
    for i in range(0, len(stream), 4096):
        host.process(stream[i:i + 4096], 1.0)
    rate = n / (time.perf_counter() - t)
    assert host.counters["events"] == n, host.counters
    return rate


def bench_latency(samples: int) -> tuple[float, float]:
    """Last byte of an EVENT frame written to the pty -> the DeviceEvent taken from host.events."""
    with tempfile.TemporaryDirectory() as tmp:
        vt = VirtualTable(link=Path(tmp) / "rx", radio=Radio(delay_ms=(0.0, 0.0)), seed=1)
        vt.add("burrito")
        store = PairingStore(None)
        vt.pair_all(store)
        vt.start()
        host = DeviceHost(vt.path, store).start()
        try:
            deadline = time.monotonic() + 10
            while not all(h.synced for h in host.health() if h.kind == "burrito"):
                assert time.monotonic() < deadline, "never synced"
                time.sleep(0.01)
            lat = []
            for _ in range(samples):
                vt.emit("burrito-1", "impact", peak_g=2.0)
                while True:
                    ev = host.events.get(timeout=5)
                    got = time.monotonic()
                    if isinstance(ev, DeviceEvent):
                        break
                wrote = vt.wire_times.get(("burrito-1", ev.seq), 0.0)
                if wrote:
                    lat.append(got - wrote)
                time.sleep(0.005)
        finally:
            host.stop()
            vt.stop()
    return pct(lat, 0.5), pct(lat, 0.99)


def bench_sync_rates(seconds: float) -> tuple[float, float]:
    """Time-sync requests per second per device (a burrito and the receiver), before and after convergence, counted
    at the host over a pty (PROTOCOL.md 7.3: 20 Hz, then 4 Hz)."""
    with tempfile.TemporaryDirectory() as tmp:
        vt = VirtualTable(link=Path(tmp) / "rx", seed=2)
        vt.add("burrito")
        store = PairingStore(None)
        vt.pair_all(store)
        vt.start()
        host = DeviceHost(vt.path, store, status_path=None).start()
        try:
            deadline = time.monotonic() + 10
            while len(host.health()) < 2:
                assert time.monotonic() < deadline, "devices never seen"
                time.sleep(0.01)
            rates = []
            for converge in (False, True):
                if converge:
                    with host._lock:
                        for d in [*host._devices.values(), host._receiver]:
                            assert d is not None
                            d.sync.min_span_us = 0
                    time.sleep(0.5)
                n0, t0 = host.counters["tsync_sent"], time.monotonic()
                time.sleep(seconds)
                rates.append((host.counters["tsync_sent"] - n0) / (time.monotonic() - t0) / 2)
        finally:
            host.stop()
            vt.stop()
    return rates[0], rates[1]


def bench_traces(throws: int) -> tuple[float, float, int]:
    """Throws through the real detector on a virtual burrito (5 % loss): how long after a trace's window ends the host
    has all of it (p50, max), and how many traces came back."""
    from firmware_bridge.traces import make_trace

    with tempfile.TemporaryDirectory() as tmp:
        vt = VirtualTable(link=Path(tmp) / "rx", radio=Radio(delay_ms=(1.0, 3.0), loss=0.05), seed=3)
        vt.add("burrito")
        store = PairingStore(None)
        vt.pair_all(store)
        vt.start()
        host = DeviceHost(vt.path, store, status_path=None).start()
        done: list[float] = []
        host.on_trace.append(lambda rec: done.append(time.monotonic() - (rec.host_t(rec.samples[-1][0]) or 0.0)))
        try:
            deadline = time.monotonic() + 10
            while not all(h.synced for h in host.health() if h.kind == "burrito") or len(host.health()) < 2:
                assert time.monotonic() < deadline, "never synced"
                time.sleep(0.01)
            for seed in range(throws):
                tr = make_trace("throw_impact", seed)
                first = tr.samples[0][0]
                vt.play_trace("burrito-1", [(t - first, ax, ay, az) for t, ax, ay, az in tr.samples])
                time.sleep((tr.samples[-1][0] - first) / 1e6 + 1.5)
        finally:
            host.stop()
            vt.stop()
    return pct(done, 0.5), max(done), len(done)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer frames and seeds")
    a = ap.parse_args()
    n = 20_000 if a.quick else 100_000
    seeds = 5 if a.quick else 20
    rows = []
    rows.append(("decode throughput (deframe+CRC+unpack)", f"{bench_decode(n):,.0f} frames/s", ">= 50,000"))
    rows.append(("host pipeline throughput (to queue + ack)", f"{bench_host_pipeline(n):,.0f} frames/s", ""))
    p50, p99 = bench_latency(100 if a.quick else 300)
    rows.append(("latency pty last byte -> queue, p50", f"{p50 * 1e3:.2f} ms", ""))
    rows.append(("latency pty last byte -> queue, p99", f"{p99 * 1e3:.2f} ms", ""))
    errs: list[float] = []
    steady: list[float] = []
    for seed in range(seeds):
        drift = 100.0 if seed % 2 else -100.0
        errs += simulate_clock_sync(seed, duration_s=300.0, drift_ppm=drift)
        steady += simulate_clock_sync(seed, duration_s=300.0, drift_ppm=drift, settle_s=60.0)
    rows.append(("clock-sync error from first sync, p50", f"{pct(errs, 0.5) * 1e3:.3f} ms", ""))
    rows.append(("clock-sync error from first sync, p99", f"{pct(errs, 0.99) * 1e3:.3f} ms", "< 2 ms"))
    rows.append(("clock-sync error from first sync, max", f"{max(errs) * 1e3:.3f} ms", ""))
    rows.append(("clock-sync error after 60 s, p99", f"{pct(steady, 0.99) * 1e3:.3f} ms", "< 2 ms"))
    fast, slow = bench_sync_rates(3.0 if a.quick else 10.0)
    rows.append(("time-sync requests per device, until converged", f"{fast:.2f} Hz", "20 Hz"))
    rows.append(("time-sync requests per device, converged", f"{slow:.2f} Hz", "4 Hz"))
    t50, tmax, ntr = bench_traces(2 if a.quick else 6)
    rows.append((f"trace whole at the host after its window ends ({ntr} traces), p50", f"{t50 * 1e3:.0f} ms", ""))
    rows.append(("trace whole at the host after its window ends, max", f"{tmax * 1e3:.0f} ms", ""))
    print(f"machine: {os.cpu_count()} CPUs, {platform.machine()}, Python {platform.python_version()}")
    print("sync conditions: +-100 ppm drift, one-way 1-20 ms + 3% 100 ms spikes, 5% loss, "
          f"{seeds} devices x 300 s")
    w = max(len(r[0]) for r in rows)
    print(f"{'measure':<{w}}  {'result':>18}  goal")
    for name, value, goal in rows:
        print(f"{name:<{w}}  {value:>18}  {goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
