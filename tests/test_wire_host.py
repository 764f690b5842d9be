"""The device host over a real pty: acks, de-duplication, drop counting, sync gating, pairing, and fuzzing.

The test holds the pty master and plays the receiver byte for byte; the host opens the slave with pyserial exactly as
it opens a real receiver.
"""

from __future__ import annotations

import queue
import random
import time
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wire_helpers import FakeReceiver, event_frame, frame

from firmware_bridge.firmware import proto
from firmware_bridge.host import DeviceEvent, DeviceHost, HeartbeatEvent, LinkEvent, PairingStore


def drain(q: queue.Queue) -> list:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


@pytest.fixture
def rig(tmp_path) -> Iterator[tuple[FakeReceiver, DeviceHost, PairingStore]]:
    rx = FakeReceiver()
    rx.sync_macs = set()
    store = PairingStore(tmp_path / "pairings.json")
    host = DeviceHost(rx.path, store, sync_fast_hz=100, sync_hz=50).start()
    deadline = time.monotonic() + 3
    while not host.link.connected:
        assert time.monotonic() < deadline, host.link.last_open_error
        time.sleep(0.01)
    yield rx, host, store
    host.stop()
    rx.close()


def synced_device(rx: FakeReceiver, host: DeviceHost, store: PairingStore, n: int) -> bytes:
    """Pair a device, announce it, and answer time-sync until the host trusts its clock."""
    mac = bytes((2, 0, 0, 0, 0, n))
    name = store.pair(mac, "burrito", seat=n).name
    rx.sync_macs.add(mac)
    rx.send(frame(proto.HELLO, mac, 1, (1, 0, 0, 1, 800)))
    rx.pump(lambda r: any(h.name == name and h.synced for h in host.health()))
    return mac


def test_events_from_unsynced_devices_wait_unacked_then_arrive_on_table_time(rig) -> None:
    """No ack (so the device keeps resending) until the clock is synced; then the event is delivered with
    t = device time converted through the offset (device clock = host + 5 s), not the arrival time."""
    rx, host, store = rig
    mac = bytes((2, 0, 0, 0, 0, 9))
    store.pair(mac, "burrito")
    rx.send(event_frame(mac, 2))
    rx.pump(lambda r: host.counters["deferred_unsynced"] >= 1)
    assert rx.acks(mac) == set()
    rx.sync_macs.add(mac)
    rx.pump(lambda r: any(h.synced for h in host.health()))
    rx.send(event_frame(mac, 2))
    rx.pump(lambda r: 2 in r.acks(mac))
    ev = [e for e in drain(host.events) if isinstance(e, DeviceEvent)]
    assert len(ev) == 1 and ev[0].device == "burrito-1" and ev[0].kind == "impact" and ev[0].peak_g == 1.5
    assert abs(ev[0].t - (5_002_000 - 5_000_000) / 1e6) < 0.005


def test_duplicates_are_acked_again_but_delivered_once(rig) -> None:
    rx, host, store = rig
    mac = synced_device(rx, host, store, 1)
    for _ in range(3):
        rx.send(event_frame(mac, 7))
    rx.pump(lambda r: host.counters["duplicate"] >= 2)
    rx.pump(lambda r: sum(1 for m in r.from_host if m[0] == proto.ACK and m[6][2] == 7) == 3)
    assert len([e for e in drain(host.events) if isinstance(e, DeviceEvent)]) == 1


def test_unpaired_devices_are_counted_and_ignored(rig) -> None:
    """The next table's burritos: never delivered, never acked (their own table acks them), counted by MAC."""
    rx, host, _ = rig
    stranger = bytes((2, 9, 9, 9, 9, 9))
    rx.send(event_frame(stranger, 1) + frame(proto.HELLO, stranger, 2, (1, 0, 0, 0, 0)))
    rx.pump(lambda r: host.counters["unpaired"] == 2)
    assert host.unpaired_seen == {proto.mac_str(stranger): 2}
    assert not rx.acks(stranger)
    assert not [e for e in drain(host.events) if isinstance(e, DeviceEvent)]


def test_pairing_window_pairs_the_shaken_device_and_persists_it(rig, tmp_path) -> None:
    """Seat button held + device shaken: the first motion event from an unpaired device pairs it to that seat."""
    rx, host, store = rig
    newbie = bytes((2, 1, 1, 1, 1, 1))
    host.open_pairing(seat=4, seconds=5)
    rx.send(frame(proto.EVENT, newbie, 3, (1, 1000, 2000), proto.KIND_BADGE))
    paired = host.wait_paired(3)
    assert paired is not None and paired.name == "badge-1" and paired.seat == 4
    rx.pump(lambda r: 3 in r.acks(newbie))
    saved = PairingStore(tmp_path / "pairings.json").get(newbie)
    assert saved is not None and saved.seat == 4
    links = [e for e in drain(host.events) if isinstance(e, LinkEvent) and e.state == "paired"]
    assert [e.device for e in links] == ["badge-1"]


def test_silent_device_goes_offline_and_comes_back(rig) -> None:
    rx, host, store = rig
    host.offline_after_s = 0.3
    mac = synced_device(rx, host, store, 2)
    name = store.get(mac).name
    rx.sync_macs.discard(mac)
    deadline = time.monotonic() + 3
    states = []
    while "offline" not in states:
        assert time.monotonic() < deadline
        states += [e.state for e in drain(host.events) if isinstance(e, LinkEvent) and e.device == name]
        time.sleep(0.02)
    rx.send(frame(proto.HEARTBEAT, mac, 50, (1, 3700, 44, 90, -61, 0, 0)))
    rx.pump(lambda r: any(h.name == name and h.online for h in host.health()))
    h = next(h for h in host.health() if h.name == name)
    assert (h.battery_mv, h.battery_pct, h.link_pct, h.rssi_dbm) == (3700, 44, 90, -61)


def test_a_heartbeat_reaches_the_queue_on_table_time_with_what_is_still_waiting_for_an_ack(rig) -> None:
    """The referee holds a miss until every badge's heartbeat says nothing is left to send: the host passes it on,
    stamped by the device clock through clock sync (device clock = host + 5 s), never by its arrival."""
    rx, host, store = rig
    mac = synced_device(rx, host, store, 3)
    drain(host.events)
    rx.send(frame(proto.HEARTBEAT, mac, 60, (5_004_000, 3700, 44, 90, -61, 2, 7)))
    rx.pump(lambda r: not host.events.empty())
    beats = [e for e in drain(host.events) if isinstance(e, HeartbeatEvent)]
    assert len(beats) == 1 and beats[0].device == store.get(mac).name
    assert (beats[0].pending, beats[0].gave_up, beats[0].battery_pct, beats[0].link_pct) == (2, 7, 44, 90)
    assert abs(beats[0].t - 0.004) < 0.005


# ------------------------------------------------------------------ fuzz: nothing acked is lost, every drop counted


def _corrupt(f: bytes, rng: random.Random) -> bytes:
    """Flip bits in one data byte (never a COBS code byte, never to 0x00): the CRC must catch it."""
    enc = bytearray(f[:-1])
    codes, i = set(), 0
    while i < len(enc):
        codes.add(i)
        i += enc[i]
    data_pos = [k for k in range(len(enc)) if k not in codes]
    k = rng.choice(data_pos)
    mask = rng.choice([m for m in range(1, 256) if m != enc[k]])  # changes the byte, never to 0x00
    enc[k] ^= mask
    return bytes(enc) + b"\x00"


@pytest.fixture(scope="module")
def fuzz_rig(tmp_path_factory) -> Iterator[tuple[FakeReceiver, DeviceHost, PairingStore]]:
    rx = FakeReceiver()
    rx.sync_macs = set()
    store = PairingStore(tmp_path_factory.mktemp("fuzz") / "p.json")
    host = DeviceHost(rx.path, store, sync_fast_hz=100, sync_hz=50).start()
    deadline = time.monotonic() + 3
    while not host.link.connected:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    yield rx, host, store
    host.stop()
    rx.close()


_macs = iter(range(10, 10_000))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seqs=st.lists(st.integers(100, 9_000), min_size=1, max_size=12, unique=True),
       copies=st.lists(st.integers(1, 3), min_size=12, max_size=12),
       junk=st.lists(st.binary(max_size=40), max_size=6),
       n_corrupt=st.integers(0, 6), n_truncated=st.integers(0, 4), n_strangers=st.integers(0, 3),
       seed=st.integers(0, 2**32))
def test_fuzzed_stream_loses_no_acked_event_and_counts_every_drop(fuzz_rig, seqs, copies, junk, n_corrupt,
                                                                  n_truncated, n_strangers, seed) -> None:
    """Duplicates, reordering, bad CRCs, truncated frames, garbage and strangers in one stream:
    every acked event is delivered exactly once, nothing is delivered twice or invented, and each drop is counted."""
    rx, host, store = fuzz_rig
    rng = random.Random(seed)
    n = next(_macs)
    mac = bytes((2, 0, 0, 0, n >> 8, n & 0xFF))
    store.pair(mac, "burrito")
    rx.sync_macs.add(mac)
    rx.send(frame(proto.HELLO, mac, 1, (1, 0, 0, 1, 800)))
    rx.pump(lambda r: any(h.mac == proto.mac_str(mac) and h.synced for h in host.health()))
    drain(host.events)
    before = host.counters
    good = [event_frame(mac, s) for s, c in zip(seqs, copies) for _ in range(c)]
    bad = [_corrupt(rng.choice(good), rng) for _ in range(n_corrupt)]
    cut = [rng.choice(good)[: rng.randrange(1, 20)] + b"\x00" for _ in range(n_truncated)]
    strangers = [event_frame(bytes((6, 6, 6, 6, 6, k)), 5) for k in range(n_strangers)]
    garbage = [j.replace(b"\x00", b"") + b"\x00" for j in junk]
    pieces = good + bad + cut + strangers + garbage
    rng.shuffle(pieces)
    stream = b"".join(pieces)
    for i in range(0, len(stream), 61):  # arbitrary write boundaries
        rx.send(stream[i:i + 61])
    sentinel = 9_500  # within the 10,000-seq de-duplication window (PROTOCOL.md)
    rx.send(event_frame(mac, sentinel))
    rx.pump(lambda r: sentinel in r.acks(mac))
    after = host.counters
    delivered = [e.seq for e in drain(host.events) if isinstance(e, DeviceEvent) and e.device == store.get(mac).name]
    acked = rx.acks(mac)
    assert sorted(delivered) == sorted(set(delivered)), "an event was delivered twice"
    assert set(delivered) <= set(seqs) | {sentinel}, "an event was invented"
    assert acked <= set(delivered), "an acknowledged event was lost"
    assert set(delivered) == set(seqs) | {sentinel}  # every intact event arrived
    dup = after["duplicate"] - before["duplicate"]
    assert dup == len(good) - len(seqs)
    assert after["unpaired"] - before["unpaired"] == n_strangers
    dropped_bad = (after["corrupt"] - before["corrupt"]) + (after["malformed"] - before["malformed"]) + \
        (after["oversize"] - before["oversize"])
    assert dropped_bad >= n_corrupt + n_truncated
