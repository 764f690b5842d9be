"""Wire benchmarks: decode throughput, pty-to-queue latency, clock-sync error.

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
