"""The host keeps PROTOCOL.md 1.1 where 1.0 left it room to go wrong: boots, sync rates, the receiver's clock, frame
and packet sizes, host-to-device types from a device, and garbage on the wire. Every test plays the receiver on a pty."""

from __future__ import annotations

import queue
import random
import time
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wire_helpers import BOOT, FakeReceiver, event_frame, frame

from firmware_bridge.firmware import proto
from firmware_bridge.host import DeviceEvent, DeviceHost, PairingStore

RX_MAC = bytes((2, 0xB0, 0x77, 0, 0, 1))


def drain(q: queue.Queue) -> list:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


def start(rx: FakeReceiver, store: PairingStore, **kw) -> DeviceHost:
    host = DeviceHost(rx.path, store, status_path=None, **kw).start()
    deadline = time.monotonic() + 3
    while not host.link.connected:
        assert time.monotonic() < deadline, host.link.last_open_error
        time.sleep(0.01)
    return host


@pytest.fixture
def rig(tmp_path) -> Iterator[tuple[FakeReceiver, DeviceHost, PairingStore]]:
    rx = FakeReceiver()
    store = PairingStore(tmp_path / "pairings.json")
    host = start(rx, store, sync_fast_hz=100, sync_hz=50)
    yield rx, host, store
    host.stop()
    rx.close()


def health(host: DeviceHost, name: str):
    return next((h for h in host.health() if h.name == name), None)


def boot_device(rx: FakeReceiver, host: DeviceHost, mac: bytes, boot: int, name: str) -> None:
    """The device (re)boots with ``boot``: HELLO, then answers time-sync until the host trusts this boot's clock."""
    rx.boots[mac] = boot
    rx.sync_macs.add(mac)
    n = len(rx.ack_list(mac, proto.HELLO, boot))
    rx.send(frame(proto.HELLO, mac, 1, (1, 1, 0, 1, 800), boot=boot))
    rx.pump(lambda r: len(r.ack_list(mac, proto.HELLO, boot)) > n)
    rx.pump(lambda r: (h := health(host, name)) is not None and h.synced)


# ------------------------------------------------------------------ a new boot is a boot id never seen before


def test_a_late_resend_of_an_earlier_boot_does_not_make_the_next_resend_a_second_delivery(rig) -> None:
    """PROTOCOL.md 1.1 section 7: a new boot is an id never seen before, not one that differs from the last.
    Boot A delivers (A,1); the device reboots as B and (B,2) is delivered and acked; a RESEND of (A,2) arrives late;
    then (B,2) is resent (its ack was lost). (B,2) is acknowledged again and delivered once, and (A,2) -- an event
    boot A never got acked -- is delivered once on boot A's clock."""
    rx, host, store = rig
    mac = bytes((2, 0, 0, 0, 0, 0x13))
    store.pair(mac, "burrito", seat=1)
    a, b = 0x0A0A, 0x0B0B
    boot_device(rx, host, mac, a, "burrito-1")
    rx.send(event_frame(mac, 1, boot=a))
    rx.pump(lambda r: 1 in r.acks(mac, boot=a))
    boot_device(rx, host, mac, b, "burrito-1")
    rx.send(event_frame(mac, 2, boot=b))
    rx.pump(lambda r: 2 in r.acks(mac, boot=b))
    rx.send(event_frame(mac, 2, boot=a, flags=proto.FLAG_RESEND, t_us=7_777_000))
    end = time.monotonic() + 5
    while rx.ack_list(mac, boot=b).count(2) < 2:  # the device resends until it hears the ack
        assert time.monotonic() < end, "the resent (B,2) was never acknowledged"
        rx.send(event_frame(mac, 2, boot=b, flags=proto.FLAG_RESEND))
        rx.pump(lambda r: True)
        rx.read(0.1)
    time.sleep(0.2)
    stamps = [e.device_t_us for e in drain(host.events) if isinstance(e, DeviceEvent)]
    assert stamps.count(5_002_000) == 1, "boot B's event was delivered twice"
    assert stamps.count(7_777_000) == 1 and 2 in rx.acks(mac, boot=a)


def test_stale_frames_of_an_earlier_boot_leave_the_current_clock_sync_alone(rig) -> None:
    """A late heartbeat or time-sync answer of boot A after the device came back as B is counted ``stale``; B stays
    synced, so B's next event is acknowledged at once (with no sync answers left to rebuild a reset clock)."""
    rx, host, store = rig
    mac = bytes((2, 0, 0, 0, 0, 0x15))
    store.pair(mac, "burrito", seat=1)
    a, b = 0x0A0B, 0x0B0C
    boot_device(rx, host, mac, a, "burrito-1")
    boot_device(rx, host, mac, b, "burrito-1")
    rx.sync_macs.discard(mac)
    stale0 = host.counters["stale"]
    rx.send(frame(proto.HEARTBEAT, mac, 7, (1, 3700, 50, 90, -60, 0, 0), boot=a, flags=proto.FLAG_RESEND))
    rx.send(frame(proto.TSYNC_RESP, mac, 8, (1, 2, 3), boot=a))
    rx.pump(lambda r: host.counters["stale"] == stale0 + 2)
    rx.send(event_frame(mac, 3, boot=b))
    rx.pump(lambda r: 3 in r.acks(mac, boot=b), timeout=2)
    h = health(host, "burrito-1")
    assert h is not None and h.boot == b and h.synced and h.stale == 2


def test_a_first_hello_that_reuses_a_remembered_boot_id_starts_afresh(rig) -> None:
    """A 16-bit random boot id can repeat: a HELLO with seq 1 and no RESEND flag is a fresh boot even if the id was
    seen, so its low sequence numbers are new events, not duplicates of the earlier boot's."""
    rx, host, store = rig
    mac = bytes((2, 0, 0, 0, 0, 0x14))
    store.pair(mac, "burrito", seat=2)
    boot_device(rx, host, mac, 0x0C0C, "burrito-1")
    rx.send(event_frame(mac, 2, boot=0x0C0C))
    rx.pump(lambda r: 2 in r.acks(mac))
    boot_device(rx, host, mac, 0x0D0D, "burrito-1")
    boot_device(rx, host, mac, 0x0C0C, "burrito-1")  # rebooted again and drew 0x0C0C again
    drain(host.events)
    rx.send(event_frame(mac, 2, boot=0x0C0C))
    rx.pump(lambda r: r.ack_list(mac, boot=0x0C0C).count(2) == 2)
    assert [e.seq for e in drain(host.events) if isinstance(e, DeviceEvent)] == [2]


# ------------------------------------------------------------------ time sync: rates, and the receiver too


def _rate(times: list[float]) -> float:
    """Requests per second from the median gap: a busy machine may delay one request and send the next at once, which
    moves the first-to-last span but not the schedule being checked."""
    gaps = sorted(b - a for a, b in zip(times, times[1:]))
    return 1.0 / gaps[len(gaps) // 2]


def test_time_sync_requests_go_out_at_20_hz_then_4_hz(tmp_path) -> None:
    """Section 7: 20 Hz until converged, then 4 Hz (measured: each request read from the pty)."""
    rx = FakeReceiver()
    store = PairingStore(tmp_path / "p.json")
    host = start(rx, store)  # the default rates
    try:
        mac = bytes((2, 0, 0, 0, 0, 0x20))
        store.pair(mac, "burrito", seat=1)
        rx.sync_macs.add(mac)
        rx.send(frame(proto.HELLO, mac, 1, (1, 1, 0, 1, 800)))
        end = time.monotonic() + 2.5
        while time.monotonic() < end:
            rx.read(0.05)
        fast = _rate(rx.requests(mac))
        with host._lock:
            host._devices[mac].sync.min_span_us = 0  # converged now: the steady rate
        n0 = len(rx.requests(mac))
        end = time.monotonic() + 4.3
        while time.monotonic() < end:
            rx.read(0.05)
        steady = _rate(rx.requests(mac)[n0 + 1:])
    finally:
        host.stop()
        rx.close()
    assert abs(fast - 20.0) < 0.6, fast
    assert abs(steady - 4.0) < 0.1, steady


def test_the_receiver_answers_time_sync_and_the_host_syncs_its_clock(rig) -> None:
    """Section 6: the receiver is a device of kind 0 that answers TSYNC_REQ; the host syncs it like any device."""
    rx, host, _ = rig
    rx.boots[RX_MAC] = 77
    rx.kinds[RX_MAC] = proto.KIND_RECEIVER
    rx.sync_macs.add(RX_MAC)
    rx.send(frame(proto.HELLO, RX_MAC, 1, (1, 1, 0, proto.CAP_RELAY, 0), proto.KIND_RECEIVER, boot=77))
    rx.pump(lambda r: any(h.name == "receiver" and h.synced for h in host.health()))
    assert rx.requests(RX_MAC)
    assert abs(health(host, "receiver").offset_us - 5_000_000) < 10_000


# ------------------------------------------------------------------ sizes, wrong directions


def _counts(host: DeviceHost) -> tuple[int, int, int]:
    c = host.counters
    return c["corrupt"], c["oversize"], c["malformed"]


@pytest.mark.parametrize("n", [253, 254, 255])  # the frame is n bytes before its 0x00
def test_a_frame_of_up_to_255_bytes_is_decoded_not_discarded_as_oversize(rig, n: int) -> None:
    """Section 2: only a run longer than 255 bytes is oversize; a 253-255 byte frame with a broken COBS chain is
    decoded and counted corrupt."""
    rx, host, _ = rig
    before = _counts(host)
    rx.send(b"\x01" * (n - 1) + b"\x09\x00")  # the last code promises 8 more bytes: the chain breaks
    rx.pump(lambda r: _counts(host) != before)
    c, o, _m = _counts(host)
    assert (c - before[0], o - before[1]) == (1, 0)


def test_a_run_of_256_bytes_is_oversize(rig) -> None:
    rx, host, _ = rig
    before = _counts(host)
    rx.send(b"\x07" * 256 + b"\x00")
    rx.pump(lambda r: _counts(host) != before)
    assert _counts(host)[1] - before[1] == 1 and _counts(host)[0] == before[0]


def test_a_251_byte_packet_with_a_good_crc_is_oversize_not_corrupt(rig) -> None:
    """Section 1: a packet longer than 250 bytes cannot have crossed the radio -- oversize; a 250-byte one is fine."""
    rx, host, store = rig
    mac = bytes((2, 0, 0, 0, 0, 0x30))
    store.pair(mac, "burrito", seat=1)
    hb = proto.pack(proto.HEARTBEAT, proto.KIND_BURRITO, mac, BOOT, 1, (1, 3700, 50, 90, -60, 0, 0))
    big = proto.frame(proto.seal(hb + b"\x01" * (proto.MAX_PACKET + 1 - 2 - len(hb))))
    ok = proto.frame(proto.seal(hb + b"\x01" * (proto.MAX_PACKET - 2 - len(hb))))
    before = _counts(host)
    rx.send(big)
    rx.pump(lambda r: _counts(host) != before)
    assert (_counts(host)[0] - before[0], _counts(host)[1] - before[1]) == (0, 1)
    frames = host.counters["frames"]
    rx.send(ok)
    rx.pump(lambda r: host.counters["frames"] == frames + 1)  # forward-compatible: longer payloads are valid


@pytest.mark.parametrize("mtype, fields", [(proto.ACK, (proto.EVENT, 1, 1)), (proto.TSYNC_REQ, (5,)),
                                           (proto.CONFIG, (1, 0, 1))])
def test_host_to_device_types_from_a_device_are_counted_malformed(rig, mtype: int, fields: tuple) -> None:
    """Section 7: a host -> device type arriving from a device (or the receiver) is dropped and counted."""
    rx, host, store = rig
    mac = bytes((2, 0, 0, 0, 0, 0x40))
    store.pair(mac, "burrito", seat=1)
    m0 = host.counters["malformed"]
    rx.send(frame(mtype, mac, 9, fields))
    rx.send(frame(mtype, RX_MAC, 9, fields, proto.KIND_RECEIVER))
    rx.pump(lambda r: host.counters["malformed"] == m0 + 2)
    assert not rx.acks(mac, mtype)


# ------------------------------------------------------------------ garbage on the wire


def _random_packet(rng: random.Random, macs: list[bytes]) -> bytes:
    """A packet with a good CRC and a plausible header but a random type, kind and payload."""
    mtype = rng.randrange(0, 12)
    kind = rng.randrange(0, 5)
    mac = rng.choice(macs) if rng.random() < 0.7 else bytes(rng.randrange(256) for _ in range(6))
    flags = rng.randrange(4)
    head = bytes((1 if rng.random() < 0.9 else rng.randrange(256), mtype, kind, flags)) + mac
    head += rng.randrange(3).to_bytes(2, "little") + rng.randrange(1, 40).to_bytes(4, "little")
    body = head + bytes(rng.randrange(256) for _ in range(rng.choice((0, 1, 8, 12, 20, 28, 60, 232))))
    return proto.seal(body[: proto.MAX_PACKET - 2 + rng.randrange(3)])


@pytest.fixture(scope="module")
def garbage_rig(tmp_path_factory) -> Iterator[tuple[FakeReceiver, DeviceHost, PairingStore, list[bytes]]]:
    rx = FakeReceiver()
    d = tmp_path_factory.mktemp("garbage")
    store = PairingStore(d / "p.json")
    macs = [bytes((2, 0, 0, 0, 1, k)) for k in range(3)]
    store.pair(macs[0], "burrito", seat=1)
    store.pair(macs[1], "badge", seat=1)
    host = start(rx, store, sync_fast_hz=100, sync_hz=50, trace_dir=d / "traces")
    rx.sync_macs.update(macs)
    yield rx, host, store, macs
    host.stop()
    rx.close()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), noise=st.lists(st.binary(max_size=300), max_size=5),
       n_packets=st.integers(0, 40), chunk=st.integers(1, 300))
def test_garbage_truncated_and_merged_frames_never_raise_out_of_the_reader(garbage_rig, seed, noise, n_packets,
                                                                            chunk) -> None:
    """Random bytes, frames cut short or run together without their 0x00, and well-sealed packets of any type,
    kind and length: the reader never raises (no handler error), and a good event afterwards is still delivered."""
    rx, host, _store, macs = garbage_rig
    rng = random.Random(seed)
    pieces = list(noise)
    for _ in range(n_packets):
        f = proto.frame(_random_packet(rng, macs))
        r = rng.random()
        if r < 0.2:
            f = f[: rng.randrange(1, len(f))]  # truncated: runs into the next frame
        elif r < 0.3:
            f = f[:-1]  # merged with the next frame
        pieces.append(f)
    rng.shuffle(pieces)
    stream = b"".join(pieces) + b"\x00"
    for i in range(0, len(stream), chunk):
        rx.send(stream[i:i + chunk])
    mac = macs[0]
    boot = 0x7000 + rng.randrange(0x0FFF)  # a fresh boot: no fuzzed frame can have made this event a duplicate
    rx.boots[mac] = boot
    rx.send(frame(proto.HELLO, mac, 1, (1, 1, 0, 1, 800), boot=boot))
    rx.pump(lambda r: 1 in r.acks(mac, proto.HELLO, boot) and any(h.name == "burrito-1" and h.synced
                                                                    for h in host.health()))
    rx.send(event_frame(mac, 5, boot=boot))
    rx.pump(lambda r: 5 in r.acks(mac, boot=boot))
    assert host.counters["handler_errors"] == 0
    assert host.link.part is not None and host.link.part.alive
