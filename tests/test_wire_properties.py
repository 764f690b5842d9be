"""Property tests over long random play: the firmware's Node and trace ring talking to the real DeviceHost.

One burrito's firmware (``proto.Node`` + ``tracebuf.TraceBuffer``) plays a random stream -- back-to-back throws,
catches and immediate re-throws (overlapping captures), samples stepping back in time, gaps of any length up to hours,
a device clock and sequence numbers that start just before their 32-bit wrap -- and its packets go to a real
``DeviceHost`` as serial bytes; the host's answers come back through pyserial's ``loop://`` port (the host's own link
writes them) to the device. Time is simulated, so hours of device time take milliseconds.

What must hold: nothing raises; every packet packs and unpacks; no trace has more chunks than its one-byte count;
every event the device sends is delivered once, with its device time; every trace arrives with its samples in time
order and within one capture's span, and a trace that had to be cut says so on the wire and in the host's record.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.firmware import proto, tracebuf
from firmware_bridge.host import DeviceEvent, DeviceHost, PairingStore
from firmware_bridge.host.tracestore import TraceRecord

MAC = b"\x02\xb0\x77\x01\x00\x09"
KINDS = ("pickup", "launch", "impact", "catch", "rest", "bounce")
HOUR_US = 3600 * 10**6


@dataclass
class Segment:
    """A stretch of sensor samples after a pause: ``n`` samples ``period_us`` apart; every ``back``-th steps back
    in time (0: none); ``marks`` are events (sample index, how long before that sample it happened, kind)."""

    pause_us: int
    n: int
    period_us: int
    back: int
    marks: list[tuple[int, int, str]]


@dataclass
class Scenario:
    gyro: bool
    rate_hz: int
    dev_start_us: int
    seq_start: int
    drift_ppm: float
    loss: float
    segments: list[Segment]


segments = st.builds(
    Segment,
    pause_us=st.one_of(st.integers(0, 100_000), st.integers(65_000, 3_000_000), st.integers(0, 3 * HOUR_US)),
    n=st.integers(0, 1200),
    period_us=st.sampled_from([150, 1200, 1201, 9615, 70_000]),
    back=st.sampled_from([0, 0, 2, 7, 50]),
    marks=st.lists(st.tuples(st.integers(0, 1199), st.integers(0, 1_000_000), st.sampled_from(KINDS)), max_size=8),
)
scenarios = st.builds(
    Scenario,
    gyro=st.booleans(),
    rate_hz=st.sampled_from([104, 833, 1666, 6664]),
    dev_start_us=st.one_of(st.integers(0, 2**40), st.integers(2**32 - 4_000_000, 2**32 + 10)),
    seq_start=st.one_of(st.just(0), st.integers(2**32 - 400, 2**32 - 1)),
    drift_ppm=st.floats(-80, 80),
    loss=st.sampled_from([0.0, 0.0, 0.1]),
    segments=st.lists(segments, min_size=1, max_size=5),
)


@dataclass
class Rig:
    """The device, the host and the simulated time between them."""

    sc: Scenario
    now: float = 1000.0  # host seconds
    sent: list[bytes] = field(default_factory=list)
    emitted: dict[int, int] = field(default_factory=dict)  # seq -> device t_us
    traces: list[TraceRecord] = field(default_factory=list)
    chunk_counts: list[int] = field(default_factory=list)
    cut_flags: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(len(self.sc.segments) * 7919 + self.sc.rate_hz)
        self.store = PairingStore(None)
        self.store.pair(MAC, "burrito", None, name="burrito-1")
        self.host = DeviceHost("loop://", self.store, clock=lambda: self.now, status_path=None, offline_after_s=3.0)
        assert self.host.link._open(), self.host.link.last_open_error  # the host's own link, on pyserial's loop://
        self.host.on_trace.append(self.traces.append)
        self.back_deframer = proto.Deframer()
        self.ring = tracebuf.TraceBuffer(self.sc.rate_hz, gyro=self.sc.gyro)
        self.node = proto.Node(MAC, proto.KIND_BURRITO, self.rng.getrandbits(16), self.dev_us, self.sent.append,
                               caps=proto.CAP_ACCEL, rate_hz=self.sc.rate_hz, traces=self.ring)
        self.node.seq = self.sc.seq_start

    def dev_us(self) -> int:
        return self.sc.dev_start_us + int(self.now * 1e6 * (1 + self.sc.drift_ppm * 1e-6))

    def exchange(self) -> None:
        """Device packets to the host as serial bytes, the host's tick, its answers back to the device -- and the
        device's replies to those at once (a radio round trip is milliseconds, not a loop step)."""
        self.node.poll()
        self.to_host()
        self.host.tick(self.now)
        for _ in range(3):
            if not self.to_device():
                break
            self.to_host()

    def to_host(self) -> None:
        out, self.sent[:] = list(self.sent), []
        data = b""
        for packet in out:
            mtype, _k, flags, _m, _b, seq, fields = proto.unpack(proto.unseal(packet))
            if mtype in (proto.TRACE, proto.TRACE6):
                self.chunk_counts.append(fields[2])
                if flags & proto.FLAG_TRACE_CUT and not flags & proto.FLAG_RESEND:
                    self.cut_flags += 1
            if mtype == proto.EVENT:
                self.emitted.setdefault(seq, fields[1])
            if self.sc.loss and self.rng.random() < self.sc.loss:
                continue
            data += proto.frame(packet)
        if data:
            self.host.process(data, self.now)

    def to_device(self) -> int:
        ser = self.host.link._ser
        assert ser is not None
        packets = self.back_deframer.feed(ser.read(ser.in_waiting))
        for packet in packets:
            if not (self.sc.loss and self.rng.random() < self.sc.loss):
                self.node.on_packet(packet, self.dev_us())
        return len(packets)

    def idle(self, seconds: float, step: float = 0.02) -> None:
        end = self.now + seconds
        while self.now < end:
            self.now = min(end, self.now + step)
            self.exchange()

    def play(self, seg: Segment) -> None:
        if seg.pause_us > 3_000_000:
            self.idle(3.0)
            self.now += (seg.pause_us - 3_000_000) / 1e6  # hours pass in one step: no samples, no frames
            self.exchange()
        else:
            self.idle(seg.pause_us / 1e6)
        marks = sorted(seg.marks)
        k = 0
        for i in range(seg.n):
            self.now += seg.period_us / 1e6
            t = self.dev_us()
            if seg.back and i % seg.back == seg.back - 1:
                t -= 3 * seg.period_us  # a FIFO read back-dated past the previous one
            if self.sc.gyro:
                self.ring.add(t, i % 50 - 25.0, 0.5, 1.0, 0.1, -0.2, (i % 9) * 10.0)
            else:
                self.ring.add(t, i % 50 - 25.0, 0.5, 1.0)
            while k < len(marks) and marks[k][0] <= i:
                self.node.event(marks[k][2], t - marks[k][1], 4.0)
                k += 1
            if i % 8 == 7:
                self.exchange()


def delivered(host: DeviceHost) -> list[DeviceEvent]:
    out = []
    while not host.events.empty():
        ev = host.events.get_nowait()
        if isinstance(ev, DeviceEvent):
            out.append(ev)
    return out


def run(sc: Scenario) -> Rig:
    rig = Rig(sc)
    rig.node.hello()
    rig.idle(1.5)  # hello acked, clock synced
    events: list[DeviceEvent] = []
    for seg in sc.segments:
        rig.play(seg)
        events += delivered(rig.host)
    rig.idle(5.0, step=0.05)  # every capture closes, every trace and resend goes out
    if sc.loss:
        rig.idle(35.0, step=0.2)  # past TRACE_GIVE_UP_US: a trace whose chunks were lost is given up
    events += delivered(rig.host)
    check(rig, events)
    return rig


def check(rig: Rig, events: list[DeviceEvent]) -> None:
    sc, host, node, ring = rig.sc, rig.host, rig.node, rig.ring
    assert rig.chunk_counts == [] or max(rig.chunk_counts) <= tracebuf.MAX_CHUNKS
    seqs = [e.seq for e in events]
    assert len(seqs) == len(set(seqs)), "an event was delivered twice"
    assert all(rig.emitted[e.seq] == e.device_t_us for e in events)
    for rec in rig.traces:
        times = [s[0] for s in rec.samples]
        assert times == sorted(times)
        assert times[-1] - times[0] <= tracebuf.MAX_SPAN_US
    assert host.counters["corrupt"] == 0 and host.counters["oversize"] == 0
    if sc.loss == 0:
        assert host.counters["malformed"] == 0
        assert node.gave_up == 0 and sorted(seqs) == sorted(rig.emitted), "an event was lost"
        assert len(rig.traces) == ring.traces and node.traces_dropped == 0
        assert sum(rec.cut for rec in rig.traces) == ring.cut == rig.cut_flags
        health = next(h for h in host.health() if h.name == "burrito-1")
        assert health.traces_cut == ring.cut and health.online
        assert host.counters["traces_cut"] == ring.cut


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(sc=scenarios)
def test_long_random_play_between_the_firmware_and_the_host_never_breaks_the_wire(sc: Scenario) -> None:
    """Back-to-back throws, re-throws, gappy and back-stepping samples, hours of device time, counters past their
    32-bit wrap: every event arrives once, every trace arrives in order and fits its one-byte chunk count."""
    run(sc)


def test_a_device_past_its_sequence_wrap_and_the_32_bit_clock_wrap_is_still_heard() -> None:
    """Sequence numbers from 2**32 - 20 on, the device clock crossing 2**32 us during a throw: the events after the
    wrap are delivered (not judged duplicates of four billion earlier ones) and the trace across it keeps its time."""
    sc = Scenario(False, 833, 2**32 - 1_001_500_000 - 1_500_000, 2**32 - 20, 0.0, 0.0,
                  [Segment(0, 1200, 1200, 0, [(600, 0, "launch"), (900, 0, "impact"), (1100, 0, "rest")]),
                   Segment(40_000, 1200, 1200, 0, [(300, 0, "pickup"), (700, 0, "catch")])])
    rig = run(sc)
    assert len(rig.emitted) == 5 and rig.node.seq < 1000  # it did wrap
    assert len(rig.traces) >= 2


def test_a_fast_sensor_trace_is_cut_to_255_chunks_and_the_host_records_it() -> None:
    """6.6 kHz with the gyroscope on: a capture needs ~670 chunks; the host gets 255, a record marked cut, and the
    heartbeat's count of cut traces."""
    sc = Scenario(True, 6664, 5_000_000, 0, 0.0, 0.0, [Segment(0, 12000, 150, 0, [(11000, 0, "impact")])])
    rig = run(sc)
    assert rig.ring.cut == 1 and [rec.cut for rec in rig.traces] == [True]
    assert 254 * tracebuf.SAMPLES_PER_CHUNK6 < len(rig.traces[0].samples) <= 255 * tracebuf.SAMPLES_PER_CHUNK6
    assert rig.traces[0].samples[-1][0] >= rig.emitted[min(rig.emitted)]  # it kept the newest: the event's side


# ---------------------------------------------------------------- garbage on the wire

RANGES = {"B": (0, 255), "b": (-128, 127), "H": (0, 0xFFFF), "h": (-32768, 32767), "I": (0, 0xFFFFFFFF),
          "Q": (0, 2**64 - 1)}


@st.composite
def wellformed(draw) -> bytes:
    """A packet with a good CRC and any field values its layout can hold: from the paired burrito or anyone, of any
    type and minor version, with any tail -- it passes the deframer and reaches the host's protocol logic."""
    mtype = draw(st.sampled_from(sorted(proto.LAYOUTS)))
    fmt = draw(st.sampled_from(proto.LAYOUTS[mtype]))[0]
    fields = tuple(draw(st.integers(*RANGES[c])) for c in fmt[1:])
    mac = draw(st.sampled_from([MAC, b"\x02\xb0\x77\x00\x00\x01", bytes(6)]))
    tail = draw(st.binary(max_size=proto.MAX_PACKET - proto.HEADER_LEN - proto.CRC_LEN - 30))
    body = proto.pack(mtype, draw(st.integers(0, 5)) % 4, mac, draw(st.integers(0, 0xFFFF)),
                      draw(st.integers(0, 0xFFFFFFFF)), fields, flags=draw(st.integers(0, 255)), tail=tail)
    return proto.seal(body)


@st.composite
def damaged(draw) -> bytes:
    """Serial bytes: random noise, or a framed packet bit-flipped, truncated, doubled or spliced into another."""
    packet = draw(wellformed())
    data = bytearray(proto.frame(packet))
    how = draw(st.sampled_from(["noise", "flip", "cut", "double", "splice", "none"]))
    if how == "noise":
        return draw(st.binary(max_size=600))
    if how == "flip" and len(data) > 1:
        i = draw(st.integers(0, len(data) - 2))
        data[i] ^= 1 << draw(st.integers(0, 7))
    elif how == "cut":
        data = data[:draw(st.integers(0, len(data)))]
    elif how == "double":
        data = data + bytes(data)
    elif how == "splice":
        other = proto.frame(draw(wellformed()))
        data = data[:len(data) // 2] + other[len(other) // 3:]
    return bytes(data)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(garbage=st.lists(damaged(), max_size=25), cuts=st.lists(st.integers(1, 97), min_size=1, max_size=6),
       jumps=st.lists(st.floats(0, 7200), max_size=4))
def test_garbage_and_damaged_frames_never_raise_out_of_the_host_and_never_stop_it(garbage, cuts, jumps) -> None:
    """Random bytes and damaged or hostile frames (good CRC, any field values, from the paired burrito too), split at
    random points and fed between clock jumps of up to two hours, never raise out of the host's reader; afterwards the
    burrito's events and traces still arrive."""
    sc = Scenario(False, 833, 10**9, 0, 0.0, 0.0, [Segment(0, 900, 1200, 0, [(700, 0, "impact")])])
    rig = Rig(sc)
    stream = b"".join(garbage)
    pos = k = 0
    while pos < len(stream):
        step = cuts[k % len(cuts)]
        rig.host.process(stream[pos:pos + step], rig.now)
        if k < len(jumps):
            rig.now += jumps[k]
            rig.host.tick(rig.now)
        pos += step
        k += 1
    rig.host.process(b"\x00", rig.now)  # ends whatever frame the garbage left open
    ser = rig.host.link._ser
    assert ser is not None
    ser.reset_input_buffer()  # the host's answers to the garbage go nowhere
    rig.node.hello()
    rig.idle(1.5)
    events: list[DeviceEvent] = []
    rig.play(sc.segments[0])
    rig.idle(5.0, step=0.05)
    events += delivered(rig.host)
    assert [e.kind for e in events if e.device == "burrito-1"][-1:] == ["impact"]
    assert rig.traces and rig.traces[-1].samples


def test_frames_from_thousands_of_unpaired_macs_keep_the_hosts_memory_bounded() -> None:
    """Noise or a crowded venue: frames from 5,000 different unpaired MACs are all counted, but only the first
    MAX_UNPAIRED_SEEN are listed by name, so a table that runs for months cannot grow without end."""
    from firmware_bridge.host import host as host_mod

    host = DeviceHost("loop://", PairingStore(None), clock=lambda: 5.0, status_path=None)
    for n in range(5000):
        mac = bytes((2, 0x55, n >> 16 & 0xFF, n >> 8 & 0xFF, n & 0xFF, 7))
        host.process(proto.frame(proto.seal(proto.pack(proto.HEARTBEAT, proto.KIND_BADGE, mac, 1, 1,
                                                       (0, 3900, 60, 100, -40, 0, 0)))), 5.0)
    assert host.counters["unpaired"] == 5000
    assert len(host.unpaired_seen) == host_mod.MAX_UNPAIRED_SEEN
