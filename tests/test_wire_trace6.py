"""PROTOCOL.md 1.2: traces with the angular rate. A device whose gyroscope is on keeps the rate in its trace ring and
sends TRACE6 chunks (samples `<Hhhhhhh`, rates in milli-rad/s clipped to +-32767, at most 15 to a 250-byte packet);
the host checks them like TRACE chunks, acknowledges them under their own type, reassembles them into traces with
the rate in rad/s, and counts a bad one `malformed`. Accelerometer-only devices keep sending TRACE."""

from __future__ import annotations

import struct
import time
from collections.abc import Iterator

import pytest
from wire_helpers import BOOT, FakeReceiver, frame

from firmware_bridge.firmware import proto, tracebuf
from firmware_bridge.host import DeviceHost, PairingStore
from firmware_bridge.host.tracestore import TraceRecord, load_traces

MAC = bytes.fromhex("02b077010001")
RX_MAC = bytes((2, 0xB0, 0x77, 0, 0, 1))


def chunk(n: int, idx: int = 0, count: int = 1, tid: int = 1, t0: int = 6_000_000) -> bytes:
    """A TRACE6 tail of ``n`` samples, 1200 us apart, every field different."""
    return b"".join(struct.pack(proto.SAMPLE6, 0 if k == 0 else 1200, k, -k, 1000 + k, 10 * k, -10 * k, 30000 + k)
                    for k in range(n))


def test_a_trace6_chunk_round_trips_and_fifteen_samples_fill_the_packet() -> None:
    body = proto.pack(proto.TRACE6, proto.KIND_BURRITO, MAC, 1, 3, (4, 0, 1, 6_000_000), tail=chunk(15))
    packet = proto.seal(body)
    assert proto.TRACE6_MAX_SAMPLES == 15 and len(packet) == 240 <= proto.MAX_PACKET
    [got] = proto.Deframer().feed(proto.frame(packet))
    assert proto.unpack(proto.unseal(got))[6] == (4, 0, 1, 6_000_000)
    samples = proto.trace_samples(proto.unseal(got))
    assert samples[0] == (6_000_000, 0, 0, 1000, 0, 0, 30000)
    assert samples[14] == (6_000_000 + 14 * 1200, 14, -14, 1014, 140, -140, 30014)
    sixteen = proto.seal(proto.pack(proto.TRACE6, proto.KIND_BURRITO, MAC, 1, 3, (4, 0, 1, 0), tail=chunk(16)))
    d = proto.Deframer()
    assert len(sixteen) == 254 and d.feed(proto.frame(sixteen)) == [] and d.oversize == 1


@pytest.mark.parametrize("fields, tail, reason", [
    ((1, 0, 1, 0), b"", "trace6 chunk with 0 sample bytes"),
    ((1, 0, 1, 0), struct.pack(proto.SAMPLE, 0, 1, 2, 3), "trace6 chunk with 8 sample bytes"),  # a TRACE sample
    ((1, 0, 1, 0), chunk(2)[:-1], "trace6 chunk with 27 sample bytes"),
    ((1, 1, 1, 0), chunk(1), "trace chunk 1 of 1"),
    ((1, 0, 0, 0), chunk(1), "trace chunk 0 of 0"),
])
def test_a_malformed_trace6_chunk_is_rejected_with_the_reason(fields: tuple, tail: bytes, reason: str) -> None:
    with pytest.raises(proto.ProtocolError, match=reason):
        proto.unpack(proto.pack(proto.TRACE6, proto.KIND_BURRITO, MAC, 1, 1, fields, tail=tail))


def _ring(gyro: bool) -> tuple[proto.Node, list[bytes], list[int]]:
    """A node with a trace ring, a capture around an event at 1.5 s, all chunks sent (ACKs given)."""
    sent: list[bytes] = []
    clock = [0]
    buf = tracebuf.TraceBuffer(833, gyro=gyro)
    node = proto.Node(MAC, proto.KIND_BURRITO, 5, lambda: clock[0], sent.append, traces=buf, heartbeat_us=10**12)
    for k in range(2500):
        t = 1_000_000 + k * 1200
        rate = (k / 100.0, -k / 200.0, 40.0 if k % 2 else -40.0) if gyro else ()
        buf.add(t, 0.001 * (k % 50), 0.0, 1.0, *rate)
        if k == 1250:
            node.event("impact", t, 5.0)
    clock[0] = 4_000_000
    types: list[int] = []
    for _ in range(200):
        node.poll()
        for p in sent:
            body = proto.unseal(p)
            if body[1] in (proto.TRACE, proto.TRACE6):
                types.append(body[1])
                seq = proto.unpack(body)[5]
                node.on_packet(proto.seal(proto.pack(proto.ACK, proto.KIND_HOST, MAC, 9, 1, (body[1], 5, seq))))
        if not node.tpending and buf._cur is None and not buf.ready:
            break
        clock[0] += 1000
    return node, sent, types


def test_a_gyro_trace_ring_sends_trace6_chunks_with_the_rate_in_milli_rad_clipped() -> None:
    node, sent, types = _ring(gyro=True)
    assert types and set(types) == {proto.TRACE6} and not node.tpending  # every chunk acked under TRACE6
    samples = [s for p in sent if proto.unseal(p)[1] == proto.TRACE6 for s in proto.trace_samples(proto.unseal(p))]
    assert all(len(proto.trace_samples(proto.unseal(p))) <= 15 for p in sent if proto.unseal(p)[1] == proto.TRACE6)
    assert len(samples) > 1000
    for t, x, _y, z, gx, gy, gz in samples:
        k = (t - 1_000_000) // 1200
        assert (x, z) == (k % 50, 1000)
        assert gx == min(32767, round(k * 10)) and gy == -round(k * 5) and gz == (32767 if k % 2 else -32767)


def test_an_accelerometer_only_ring_still_sends_trace_chunks_of_27() -> None:
    node, sent, types = _ring(gyro=False)
    assert types and set(types) == {proto.TRACE} and not node.tpending
    sizes = [len(proto.trace_samples(proto.unseal(p))) for p in sent if proto.unseal(p)[1] == proto.TRACE]
    assert max(sizes) == 27 and all(len(s) == 4 for p in sent if proto.unseal(p)[1] == proto.TRACE
                                    for s in proto.trace_samples(proto.unseal(p)))


def test_a_gyro_ring_takes_16_bytes_a_sample_and_refuses_one_without_the_rate() -> None:
    buf = tracebuf.TraceBuffer(833, gyro=True)
    assert len(buf.ring) == (833 * 2 + 1) * tracebuf.REC6 == (833 * 2 + 1) * 16
    with pytest.raises(ValueError, match="angular rate"):
        buf.add(1000, 0.0, 0.0, 1.0)


# ------------------------------------------------------------------ the host


@pytest.fixture
def rig(tmp_path) -> Iterator[tuple[FakeReceiver, DeviceHost]]:
    rx = FakeReceiver()
    store = PairingStore(tmp_path / "pairings.json")
    store.pair(MAC, "burrito", seat=None, name="burrito-1")
    host = DeviceHost(rx.path, store, status_path=None, trace_dir=tmp_path / "traces", sync_fast_hz=100,
                      sync_hz=50).start()
    deadline = time.monotonic() + 3
    while not host.link.connected:
        assert time.monotonic() < deadline, host.link.last_open_error
        time.sleep(0.01)
    rx.sync_macs.add(MAC)
    rx.send(frame(proto.HELLO, MAC, 1, (1, 2, 0, proto.CAP_ACCEL | proto.CAP_GYRO, 833, 0)))
    rx.pump(lambda r: bool(r.acks(MAC, proto.HELLO)))
    deadline = time.monotonic() + 5
    while not all(h.synced for h in host.health() if h.name == "burrito-1"):
        assert time.monotonic() < deadline
        rx.read(0.05)
    yield rx, host
    host.stop()
    rx.close()


def test_the_host_reassembles_trace6_chunks_into_a_trace_with_the_rate_in_rad_s(rig, tmp_path) -> None:
    rx, host = rig
    got: list[TraceRecord] = []
    host.on_trace.append(got.append)
    assert next(h for h in host.health() if h.name == "burrito-1").gyro
    # two chunks of trace 7, the second first; 15 + 4 samples
    rx.send(frame(proto.TRACE6, MAC, 11, (7, 1, 2, 6_000_000 + 15 * 1200), tail=chunk(4)))
    rx.send(frame(proto.TRACE6, MAC, 10, (7, 0, 2, 6_000_000), tail=chunk(15)))
    rx.pump(lambda r: r.acks(MAC, proto.TRACE6) == {10, 11} and len(got) == 1)
    assert not rx.acks(MAC, proto.TRACE)  # acknowledged under the chunk's own type
    [rec] = got
    assert len(rec.samples) == len(rec.gyro) == 19
    assert rec.samples[1] == (6_001_200, 0.001, -0.001, 1.001) and rec.gyro[1] == (0.01, -0.01, 30.001)
    assert rec.gyro[15] == (0.0, 0.0, 30.0)  # the second chunk's first sample
    [saved] = load_traces(tmp_path / "traces")
    assert saved.gyro == rec.gyro and saved.samples == rec.samples
    assert host.counters["malformed"] == 0


def test_a_trace_whose_chunks_mix_trace_and_trace6_is_malformed_and_the_odd_chunk_unacked(rig) -> None:
    rx, host = rig
    m0 = host.counters["malformed"]
    rx.send(frame(proto.TRACE6, MAC, 20, (8, 0, 2, 6_000_000), tail=chunk(3)))
    rx.send(frame(proto.TRACE, MAC, 21, (8, 1, 2, 6_010_000), tail=struct.pack(proto.SAMPLE, 0, 1, 2, 3)))
    rx.send(frame(proto.TRACE6, MAC, 22, (9, 0, 1, 6_000_000), tail=chunk(2)[:-2]))  # not whole samples
    rx.pump(lambda r: host.counters["malformed"] == m0 + 2 and 20 in r.acks(MAC, proto.TRACE6))
    assert 21 not in rx.acks(MAC, proto.TRACE) | rx.acks(MAC, proto.TRACE6)
    assert 22 not in rx.acks(MAC, proto.TRACE6) and host.counters["traces"] == 0


def test_a_trace6_from_the_receiver_is_malformed(rig) -> None:
    rx, host = rig
    m0 = host.counters["malformed"]
    rx.send(frame(proto.TRACE6, RX_MAC, 5, (1, 0, 1, 0), proto.KIND_RECEIVER, tail=chunk(1)))
    rx.pump(lambda r: host.counters["malformed"] == m0 + 1)
    assert not rx.acks(RX_MAC, proto.TRACE6)


def test_trace_files_without_the_rate_load_as_before_and_a_short_gyro_list_is_refused(tmp_path) -> None:
    rec = TraceRecord("burrito-1", "burrito", BOOT, 1, 833, [(0, 0.0, 0.0, 1.0), (1200, 0.0, 0.0, 1.0)], None, 1e-6)
    path = rec.save(tmp_path)
    assert "gyro" not in path.read_text() and TraceRecord.load(path).gyro == []
    rec.gyro = [(0.1, 0.2, 0.3)]
    rec.save(tmp_path)
    from firmware_bridge.host.tracestore import TraceStoreError

    with pytest.raises(TraceStoreError, match="1 gyro readings for 2 samples"):
        TraceRecord.load(path)
