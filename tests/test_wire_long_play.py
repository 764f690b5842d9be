"""Long and ordinary play never kills the wire: back-to-back throws on the virtual table, gappy sample streams in the
firmware's trace ring, and traces too long for one message set (cut, and said so; never an exception)."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator

import pytest

from firmware_bridge.firmware import proto, tracebuf
from firmware_bridge.host import DeviceEvent, DeviceHost, PairingStore
from firmware_bridge.traces import make_trace
from firmware_bridge.virtual import Radio, VirtualTable


def drain(host: DeviceHost, until, timeout: float) -> list:
    out: list = []
    end = time.monotonic() + timeout
    while not until(out):
        left = end - time.monotonic()
        assert left > 0, f"timed out; got {[e for e in out if isinstance(e, DeviceEvent)]}"
        try:
            out.append(host.events.get(timeout=min(left, 0.05)))
        except queue.Empty:
            pass
    return out


def chunks_of(ring: tracebuf.TraceBuffer) -> list[tuple]:
    out: list[tuple] = []
    while True:
        c = ring.next_chunk()
        if c is None:
            return out
        out.append(c)


@pytest.fixture
def table(tmp_path) -> Iterator[tuple[VirtualTable, DeviceHost]]:
    vt = VirtualTable(link=tmp_path / "ttyBURRITO", radio=Radio(delay_ms=(1, 4)), seed=11)
    vt.add("burrito")
    vt.add("badge")
    store = PairingStore(tmp_path / "pairings.json")
    vt.pair_all(store)
    vt.start()
    host = DeviceHost(vt.path, store, offline_after_s=1.0, status_path=None).start()
    yield vt, host
    host.stop()
    vt.stop()


def test_throws_played_back_to_back_on_one_burrito_keep_every_device_talking(table) -> None:
    """F9, then F10 and F11 a second or two later, as `play --sim` plays them: the burrito's traces overlap. Every
    trace reaches the host whole (no chunk count past one byte), and afterwards every device still talks."""
    vt, host = table
    drain(host, lambda out: all(h.synced for h in host.health() if h.kind != "receiver"), timeout=10)
    traces: list = []
    host.on_trace.append(traces.append)
    start = time.monotonic() + 0.05
    for k, (scenario, delay) in enumerate((("throw_impact", 0.0), ("throw_impact", 1.2), ("throw_catch", 2.4))):
        tr = make_trace(scenario, 40 + k)
        first = tr.samples[0][0]
        vt.play_trace("burrito-1", [(t - first, ax, ay, az) for t, ax, ay, az in tr.samples], start=start + delay)
    time.sleep(6.5)  # every trace has played and its captures have closed
    vt.emit("badge-1", "impact", peak_g=3.0)
    vt.emit("burrito-1", "pickup")
    evs = drain(host, lambda out: {("badge-1", "impact"), ("burrito-1", "pickup")} <= {
        (e.device, e.kind) for e in out if isinstance(e, DeviceEvent)}, timeout=10)
    assert evs
    assert vt.part is not None and vt.part.alive and vt.part.failures == 0
    assert all(h.online for h in host.health())
    assert traces, "the throws' traces reached the host"
    for rec in traces:
        times = [s[0] for s in rec.samples]
        assert times == sorted(times)
        assert times[-1] - times[0] <= tracebuf.MAX_SPAN_US + tracebuf.POST_US


def test_a_ring_fed_two_interleaved_streams_sends_chunks_that_fit_the_wire() -> None:
    """Samples that step back in time (two sources interleaved, or a sensor FIFO back-dated past the last read) never
    make a trace of hundreds of chunks: every chunk packs, its time runs forward, and the count fits one byte."""
    ring = tracebuf.TraceBuffer(833)
    base = 10_000_000
    for i in range(1500):  # two 833 Hz streams 0.4 s apart, fed 2 ms of each in turn, as the table's loop did
        for offset in (0, 400_000):
            t = base + i * 1200 + offset
            ring.add(t - (i % 2) * 2400, 0.0, 0.0, 1.0)
        if i == 900:
            ring.mark(base + i * 1200)
    ring.poll(base + 10_000_000)
    chunks = chunks_of(ring)
    assert chunks
    for tid, idx, count, t0, tail, _cut in chunks:
        assert count <= 255 and idx < count
        proto.pack(proto.TRACE, proto.KIND_BURRITO, b"\x02" * 6, 1, 1, (tid, idx, count, t0), tail=tail)
    assert len(chunks) == chunks[0][2]


def test_a_trace_with_more_chunks_than_one_byte_counts_is_cut_and_says_so() -> None:
    """A fast sensor (6.6 kHz, gyroscope on) fills a capture with far more than 255 chunks' worth: the trace goes out
    as 255 chunks, its last one flagged cut, the ring counts it, and the heartbeat reports the count."""
    sent: list[bytes] = []
    clock = [0]
    ring = tracebuf.TraceBuffer(6664, gyro=True)
    node = proto.Node(b"\x02\x01\x02\x03\x04\x05", proto.KIND_BURRITO, 5, lambda: clock[0], sent.append, traces=ring,
                      trace_window=1000, heartbeat_us=10**12)
    for i in range(6664 * 3):
        clock[0] = 1_000_000 + i * 150
        ring.add(clock[0], 0.1, 0.2, 1.0, 0.0, 0.0, 0.5)
        if i == 6664 * 2:
            node.event("impact", clock[0], 5.0)
    clock[0] += 1_000_000
    node.poll()
    bodies = [proto.unseal(p) for p in sent]
    chunks = [proto.unpack(b) for b in bodies if b[1] == proto.TRACE6]
    assert len(chunks) == 255 and {c[6][2] for c in chunks} == {255}
    cut = [c for c in chunks if c[2] & proto.FLAG_TRACE_CUT]
    assert [c[6][1] for c in cut] == [254]
    assert ring.cut == 1
    node.heartbeat()
    hb = proto.unpack(proto.unseal(sent[-1]))
    assert hb[0] == proto.HEARTBEAT and hb[6][9] == 1
