"""Burrito Table wire protocol, version 1 (document 1.3) -- shared by the firmware and the Pi.

This file is the executable half of ``firmware_bridge/PROTOCOL.md``. It runs unchanged under MicroPython (copied to the
board as ``proto.py``) and CPython (imported as ``firmware_bridge.firmware.proto``), so devices, the virtual devices and
the host all frame bytes with the same code. It therefore avoids what MicroPython lacks: no ``typing`` or dataclasses at
run time, no ``bytearray.find``, only positional ``int.from_bytes`` and ``struct`` formats the ``ustruct`` port knows.

Layers:
- packet = body + CRC-16/CCITT-FALSE of the body (2 bytes, little-endian). One ESP-NOW payload is one packet.
- serial frame = COBS(packet) + 0x00. The receiver turns radio packets into serial frames and back.
- body = 16-byte header + payload; the header names the device the message is from (device -> host) or for
  (host -> device).

``Node`` is the device-side logic (resend until acked, heartbeats, time-sync replies) and ``Relay`` the receiver's; both
take their clock and radio as callables, so the main loops only glue ``machine``/``espnow`` to them.
"""

import struct

try:  # CPython: the C implementation (CRC-16/CCITT-FALSE with init 0xFFFF)
    from binascii import crc_hqx as _crc_hqx
except ImportError:  # MicroPython's binascii has no crc_hqx
    _crc_hqx = None  # type: ignore[assignment]

PROTO_VERSION = 1

# Message types (header byte 1).
HELLO = 1
EVENT = 2
HEARTBEAT = 3
TSYNC_REQ = 4
TSYNC_RESP = 5
ACK = 6
TRACE = 7  # 1.1: raw samples around events, in chunks
CONFIG = 8  # 1.1: host -> device detector parameters
CONFIG_ACK = 9  # 1.1: device -> host answer to CONFIG
TRACE6 = 10  # 1.2: raw samples with the angular rate (gyroscope on), in chunks
MSG_NAMES = {HELLO: "hello", EVENT: "event", HEARTBEAT: "heartbeat", TSYNC_REQ: "tsync_req",
             TSYNC_RESP: "tsync_resp", ACK: "ack", TRACE: "trace", CONFIG: "config", CONFIG_ACK: "config_ack",
             TRACE6: "trace6"}
#: Types only a host sends; a device never does (the host counts them ``malformed`` when one comes from a device).
HOST_TO_DEVICE = (TSYNC_REQ, ACK, CONFIG)

# Device kinds (header byte 2).
KIND_RECEIVER = 0
KIND_BURRITO = 1
KIND_BADGE = 2
KIND_HOST = 3
DEVICE_KINDS = ("receiver", "burrito", "badge", "host")

# Event kinds (EVENT payload byte 0); code = index + 1.
EVENT_KINDS = ("pickup", "launch", "impact", "catch", "rest", "bounce")

# Capability bits (HELLO payload).
CAP_ACCEL = 1
CAP_DETECT_BURRITO = 2
CAP_DETECT_BADGE = 4
CAP_BATTERY = 8
CAP_RELAY = 16
CAP_GYRO = 32  # 1.2: the gyroscope is on: the detector gets the angular rate and traces go as TRACE6

FLAG_RESEND = 1  # header flags bit 0: this packet repeats an earlier one
FLAG_TRACE_CUT = 2  # 1.3, bit 1 on the last chunk of a trace: it lost its oldest samples (more than 255 chunks' worth)

BROADCAST = b"\xff\xff\xff\xff\xff\xff"
PEAK_NONE = 0xFFFF
UNKNOWN_U8 = 0xFF
UNKNOWN_RSSI = -128
USB_POWERED_MV = 0xFFFF

HEADER = "<BBBB6sHI"  # version, type, device kind, flags, MAC, boot id, sequence
HEADER_LEN = 16
CRC_LEN = 2
MAX_PACKET = 250  # ESP-NOW's payload limit: a longer packet cannot have crossed the radio ("oversize")
MAX_FRAME = 255  # bytes before the 0x00 that a reader buffers; a longer run is discarded whole ("oversize")

# Payload layouts; a longer payload is accepted (later minor versions append fields), a shorter one is malformed.
PAYLOADS = {
    HELLO: "<BBBHH",  # fw major, minor, patch, capability bits, sample rate Hz
    EVENT: "<BQH",  # event kind code, device time us of the causing sample, peak milli-g (0xFFFF: none)
    HEARTBEAT: "<QHBBbBH",  # device time us, battery mV, battery %, link %, RSSI dBm, pending, given up
    TSYNC_REQ: "<Q",  # t1: host time us when sent
    TSYNC_RESP: "<QQQ",  # t1 echoed, t2 device time us at receipt, t3 device time us at send
    ACK: "<BHI",  # acked message type, acked boot id, acked sequence
    TRACE: "<HBBQ",  # trace id, chunk index, chunk count, device time us of the chunk's first sample; then samples
    CONFIG: "<HBB",  # parameter version, part index, part count; then entries
    CONFIG_ACK: "<HBBB",  # parameter version, part index, part count, status (CFG_*)
    TRACE6: "<HBBQ",  # as TRACE; then 6-axis samples
}
# Appended fields by minor version (an older sender omits them; readers take every level that is present).
EXTENSIONS = {
    HELLO: ("<H",),  # 1.1: detector parameter version running (0: firmware defaults)
    HEARTBEAT: ("<HH",  # 1.1: detector parameter version running, traces dropped (wraps)
                "<H"),  # 1.3: traces cut (wraps): sent without their oldest samples
}
PAYLOAD_LEN = {}
for _t in PAYLOADS:
    PAYLOAD_LEN[_t] = struct.calcsize(PAYLOADS[_t])
#: every layout a message type has had, shortest first: [(format, bytes, fields), ...]
LAYOUTS = {}
for _t in PAYLOADS:
    _f = PAYLOADS[_t]
    LAYOUTS[_t] = [(_f, PAYLOAD_LEN[_t], len(_f) - 1)]
    for _e in EXTENSIONS.get(_t, ()):
        _f = _f + _e[1:]
        LAYOUTS[_t].append((_f, struct.calcsize(_f), len(_f) - 1))

NEEDS_ACK = (HELLO, EVENT, TRACE, TRACE6)

# TRACE samples: dt us since the previous sample of the chunk (0 for the first), then x, y, z in milli-g.
SAMPLE = "<Hhhh"
SAMPLE_LEN = 8
TRACE_FIXED = 12
TRACE_MAX_SAMPLES = (MAX_PACKET - HEADER_LEN - CRC_LEN - TRACE_FIXED) // SAMPLE_LEN  # 27
# TRACE6 samples: as TRACE's, then the angular rate x, y, z in milli-rad/s (clipped to +-32767).
SAMPLE6 = "<Hhhhhhh"
SAMPLE6_LEN = 14
TRACE6_MAX_SAMPLES = (MAX_PACKET - HEADER_LEN - CRC_LEN - TRACE_FIXED) // SAMPLE6_LEN  # 15
SAMPLE_LENS = {TRACE: SAMPLE_LEN, TRACE6: SAMPLE6_LEN}
# CONFIG entries: name length, ASCII name, value as float32.
CONFIG_MAX_ENTRIES_BYTES = MAX_PACKET - HEADER_LEN - CRC_LEN - 4  # 228
CONFIG_MAX_PARTS = 16
CFG_STORED = 0  # part kept, more parts to come
CFG_APPLIED = 1  # every part in, parameters applied: the device now runs this version
CFG_REJECTED = 2  # unknown name, bad value or too many parts: the device keeps what it ran
DEDUPE_WINDOW = 10000  # the host remembers this many sequence numbers back from the newest
MAX_SEQ_AGE = 8000  # so a device never resends a message older than this
TRACE_GIVE_UP_US = 30000000  # a trace chunk unacked this long: the rest of that trace is dropped


class ProtocolError(ValueError):
    """A packet that passed no check, with the reason in its message."""


class OversizeError(ProtocolError):
    """A packet longer than MAX_PACKET: it cannot have crossed the radio."""


# ---------------------------------------------------------------- CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF)

_CRC_TABLE = None


def _crc_table():
    global _CRC_TABLE
    if _CRC_TABLE is None:
        table = []
        for byte in range(256):
            crc = byte << 8
            for _ in range(8):
                crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            table.append(crc & 0xFFFF)
        _CRC_TABLE = table
    return _CRC_TABLE


def crc16_py(data, crc=0xFFFF):
    """Table-driven CRC-16/CCITT-FALSE; the path MicroPython takes ("123456789" -> 0x29B1)."""
    table = _crc_table()
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ b) & 0xFF]
    return crc


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE, in C where the interpreter has it."""
    if _crc_hqx is not None:
        return _crc_hqx(data, crc)
    return crc16_py(data, crc)


# ---------------------------------------------------------------- COBS


def cobs_encode(data):
    """Consistent-overhead byte stuffing: the output has no 0x00, so 0x00 can end a frame."""
    data = bytes(data)
    out = bytearray()
    n = len(data)
    i = 0
    while True:
        j = data.find(b"\x00", i)
        end = n if j < 0 else j
        full = False
        while end - i >= 254:
            out.append(255)
            out += data[i:i + 254]
            i += 254
            full = True
        if j < 0 and full and i == end:
            break  # canonical COBS: a full block that ends the data needs no trailing 0x01
        out.append(end - i + 1)
        out += data[i:end]
        if j < 0:
            break
        i = j + 1
    return bytes(out)


def cobs_decode(data):
    """Inverse of ``cobs_encode`` for one frame without its 0x00; raises ProtocolError on a broken chain."""
    out = bytearray()
    n = len(data)
    i = 0
    while i < n:
        code = data[i]
        if code == 0:
            raise ProtocolError("cobs: zero byte inside frame")
        j = i + code
        if j > n:
            raise ProtocolError("cobs: block runs past end of frame")
        out += data[i + 1:j]
        i = j
        if code < 255 and i < n:
            out.append(0)
    return bytes(out)


# ---------------------------------------------------------------- packets and frames


def seal(body):
    """body -> packet (body + little-endian CRC)."""
    c = crc16(body)
    return bytes(body) + bytes((c & 0xFF, c >> 8))


def unseal(packet):
    """packet -> body, or ProtocolError if short or the CRC is wrong."""
    if len(packet) < HEADER_LEN + CRC_LEN:
        raise ProtocolError("short packet (%d bytes)" % len(packet))
    if len(packet) > MAX_PACKET:
        raise OversizeError("oversize packet (%d bytes)" % len(packet))
    body = packet[:-2]
    if crc16(body) != packet[-2] | (packet[-1] << 8):
        raise ProtocolError("bad crc")
    return body


def frame(packet):
    """packet -> serial frame (COBS + 0x00 delimiter)."""
    return cobs_encode(packet) + b"\x00"


def _format(mtype, n):
    """The payload format for ``n`` fields: the layout of the minor version that has that many."""
    for fmt, _size, count in LAYOUTS[mtype]:
        if count == n:
            return fmt
    return PAYLOADS[mtype]


def pack(mtype, dkind, mac, boot, seq, fields, flags=0, tail=b""):
    """Build a body: header + payload (fields: PAYLOADS[mtype], or with appended fields) + ``tail``.

    Header numbers are taken modulo their width (boot id 16 bits, sequence 32, flags 8): they wrap by design."""
    return (struct.pack(HEADER, PROTO_VERSION, mtype, dkind, flags & 0xFF, mac, boot & 0xFFFF, seq & 0xFFFFFFFF)
            + struct.pack(_format(mtype, len(fields)), *fields) + bytes(tail))


def unpack(body):
    """body -> (type, device kind, flags, mac, boot, seq, fields); ProtocolError if the header or payload is bad."""
    if len(body) < HEADER_LEN:
        raise ProtocolError("short header (%d bytes)" % len(body))
    ver, mtype, dkind, flags, mac, boot, seq = struct.unpack_from(HEADER, body, 0)
    if ver != PROTO_VERSION:
        raise ProtocolError("unsupported protocol version %d" % ver)
    need = PAYLOAD_LEN.get(mtype)
    if need is None:
        raise ProtocolError("unknown message type %d" % mtype)
    if dkind >= len(DEVICE_KINDS):
        raise ProtocolError("unknown device kind %d" % dkind)
    if len(body) - HEADER_LEN < need:
        raise ProtocolError("short %s payload (%d < %d bytes)" % (MSG_NAMES[mtype], len(body) - HEADER_LEN, need))
    fmt = PAYLOADS[mtype]
    for layout in LAYOUTS[mtype]:
        if len(body) - HEADER_LEN >= layout[1]:
            fmt = layout[0]
    fields = struct.unpack_from(fmt, body, HEADER_LEN)
    if mtype == EVENT and not 1 <= fields[0] <= len(EVENT_KINDS):
        raise ProtocolError("unknown event kind %d" % fields[0])
    if mtype == TRACE or mtype == TRACE6:
        if fields[2] == 0 or fields[1] >= fields[2]:
            raise ProtocolError("trace chunk %d of %d" % (fields[1], fields[2]))
        extra = len(body) - HEADER_LEN - need
        if extra == 0 or extra % SAMPLE_LENS[mtype]:
            raise ProtocolError("%s chunk with %d sample bytes" % (MSG_NAMES[mtype], extra))
    if mtype == CONFIG and (fields[2] == 0 or fields[1] >= fields[2]):
        raise ProtocolError("config part %d of %d" % (fields[1], fields[2]))
    return mtype, dkind, flags, mac, boot, seq, fields


def trace_samples(body):
    """The samples of a TRACE or TRACE6 body (checked by ``unpack``) on the device clock: [(t_us, x_mg, y_mg, z_mg),
    ...] from TRACE, [(t_us, x_mg, y_mg, z_mg, gx_mrad, gy_mrad, gz_mrad), ...] from TRACE6."""
    t = struct.unpack_from("<Q", body, HEADER_LEN + 4)[0]
    out = []
    pos = HEADER_LEN + TRACE_FIXED
    if body[1] == TRACE6:
        while pos + SAMPLE6_LEN <= len(body):
            dt, x, y, z, gx, gy, gz = struct.unpack_from(SAMPLE6, body, pos)
            t += dt
            out.append((t, x, y, z, gx, gy, gz))
            pos += SAMPLE6_LEN
        return out
    while pos + SAMPLE_LEN <= len(body):
        dt, x, y, z = struct.unpack_from(SAMPLE, body, pos)
        t += dt
        out.append((t, x, y, z))
        pos += SAMPLE_LEN
    return out


def config_parts(version, params):
    """Parameter dict -> list of CONFIG payload tails (entries), each fitting one packet; names sorted.

    Raises ValueError for a name that is not 1-32 ASCII characters, a value that is not a number, or more than
    CONFIG_MAX_PARTS parts.
    """
    if not 1 <= version <= 0xFFFF:
        raise ValueError("parameter version must be 1-65535, not %r" % (version,))
    parts = [b""]
    for name in sorted(params):
        raw = name.encode()
        if not 1 <= len(raw) <= 32 or len(raw) != len(name):
            raise ValueError("parameter name must be 1-32 ASCII characters: %r" % (name,))
        value = params[name]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError("parameter %s must be a number, not %r" % (name, value))
        entry = bytes((len(raw),)) + raw + struct.pack("<f", value)
        if len(parts[-1]) + len(entry) > CONFIG_MAX_ENTRIES_BYTES:
            parts.append(b"")
        parts[-1] += entry
    if len(parts) > CONFIG_MAX_PARTS:
        raise ValueError("too many parameters: %d parts (at most %d)" % (len(parts), CONFIG_MAX_PARTS))
    return parts


def config_entries(tail):
    """CONFIG entries -> {name: float}; ProtocolError if they do not parse."""
    out = {}
    pos = 0
    n = len(tail)
    while pos < n:
        k = tail[pos]
        if k == 0 or pos + 1 + k + 4 > n:
            raise ProtocolError("config entry at byte %d runs past the end" % pos)
        try:
            name = bytes(tail[pos + 1:pos + 1 + k]).decode()
        except UnicodeError:
            raise ProtocolError("config name at byte %d is not ASCII" % pos) from None
        out[name] = struct.unpack_from("<f", tail, pos + 1 + k)[0]
        pos += 1 + k + 4
    return out


def header_mac(packet):
    """The MAC field of a packet (no checks); the receiver compares it with the radio sender."""
    return bytes(packet[4:10])


def peak_to_mg(peak_g):
    """g -> milli-g in 0..0xFFFE (0xFFFF means none); NaN reads 0, anything huge the largest value."""
    if peak_g is None:
        return PEAK_NONE
    mg = peak_g * 1000 + 0.5
    if mg >= PEAK_NONE - 1:
        return PEAK_NONE - 1
    if not mg >= 0:
        return 0
    return int(mg)


def clamp(v, lo, hi):
    """``v`` as an int within lo..hi: what a field of that width can hold (a reading off its scale pins at the
    end, it never raises)."""
    v = int(v)
    return lo if v < lo else (hi if v > hi else v)


U64 = 0xFFFFFFFFFFFFFFFF


def mg_to_peak(mg):
    return None if mg == PEAK_NONE else mg / 1000.0


def mac_str(mac):
    """b'\\xaa...' -> 'aa:bb:cc:dd:ee:ff'."""
    return ":".join("%02x" % b for b in mac)


def mac_bytes(text):
    """'aa:bb:cc:dd:ee:ff' (or without colons) -> 6 bytes; ValueError otherwise."""
    hexs = text.replace(":", "").replace("-", "")
    if len(hexs) != 12:
        raise ValueError("MAC must have 6 bytes: %r" % text)
    return bytes(int(hexs[k:k + 2], 16) for k in range(0, 12, 2))


class Deframer:
    """Splits a byte stream at 0x00 and yields checked packets; counts everything it throws away.

    It never raises on input: garbage, truncated frames and runs longer than any legal frame are counted in
    ``corrupt``/``oversize`` and the stream resynchronises at the next 0x00.
    """

    def __init__(self, max_frame=MAX_FRAME):
        self.max_frame = max_frame
        self.buf = b""
        self.skipping = False
        self.corrupt = 0
        self.oversize = 0
        self.frames = 0

    def reset(self):
        """Forget a partial frame (after an unplug); it counts as corrupt."""
        if self.buf or self.skipping:
            self.corrupt += 1
        self.buf = b""
        self.skipping = False

    def feed(self, data):
        """Bytes in, list of packets (body + CRC checked) out."""
        parts = (self.buf + bytes(data)).split(b"\x00")
        self.buf = parts.pop()
        out = []
        for raw in parts:
            if self.skipping:
                self.skipping = False
                continue
            if not raw:
                continue  # idle delimiters are allowed between frames
            if len(raw) > self.max_frame:
                self.oversize += 1
                continue
            try:
                packet = cobs_decode(raw)
                unseal(packet)
            except OversizeError:
                self.oversize += 1
                continue
            except ProtocolError:
                self.corrupt += 1
                continue
            self.frames += 1
            out.append(packet)
        if len(self.buf) > self.max_frame:
            self.oversize += 1
            self.buf = b""
            self.skipping = True
        return out


# ---------------------------------------------------------------- device clock


class Clock64:
    """A 64-bit microsecond clock from a wrapping ``ticks_us`` (MicroPython wraps at 2**30).

    Call ``now()`` at least every few minutes (every loop does) so no wrap is missed.
    """

    def __init__(self, ticks_us, ticks_diff):
        self._ticks = ticks_us
        self._diff = ticks_diff
        self._last = ticks_us()
        self._acc = 0

    def now(self):
        t = self._ticks()
        self._acc += self._diff(t, self._last)
        self._last = t
        return self._acc


# ---------------------------------------------------------------- device logic


class Node:
    """One device's protocol state: numbered messages, resend until acked, heartbeats, time-sync replies.

    ``now_us()`` is the device's 64-bit microsecond clock, the one event timestamps use. ``send(packet)`` hands a
    packet to the radio. The main loop calls ``on_packet`` for every packet received and ``poll`` often.
    Pending messages are resent with back-off (``resend_us`` doubling to 1 s) until acked; past ``max_pending``
    the oldest is given up and counted in ``gave_up`` (reported in heartbeats), so memory stays bounded.
    """

    def __init__(self, mac, dkind, boot, now_us, send, fw=(1, 0, 0), caps=0, rate_hz=0,
                 resend_us=60000, heartbeat_us=1000000, max_pending=32, battery=None, traces=None,
                 apply_config=None, params_version=0, trace_window=4):
        self.mac = bytes(mac)
        self.dkind = dkind
        self.boot = boot & 0xFFFF
        self.now_us = now_us
        self.send = send
        self.fw = fw
        self.caps = caps
        self.rate_hz = rate_hz
        self.resend_us = resend_us
        self.heartbeat_us = heartbeat_us
        self.max_pending = max_pending
        self.battery = battery  # callable -> (mV, percent) or None
        self.seq = 0
        self.pending = []  # [seq, mtype, body, next_due_us, interval_us], oldest first
        self.gave_up = 0
        self.sent = 0
        self.acked = 0
        self.link_pct = UNKNOWN_U8
        self.rssi = UNKNOWN_RSSI
        self._win_sent = 0
        self._win_acked = 0
        self._next_hb = 0
        self.hello_acked = False
        # 1.1: raw traces (a tracebuf.TraceBuffer or None) sent as TRACE chunks (TRACE6 from a buffer that keeps the
        # angular rate), at most trace_window unacked
        self.traces = traces
        self.trace_window = trace_window
        self.tpending = []  # same layout as pending, plus the time it was first sent
        self.traces_dropped = 0
        # 1.1: detector parameters pushed by the host; apply_config(params, version) raises ValueError to reject
        self.apply_config = apply_config
        self.params_version = clamp(params_version, 0, 0xFFFF)
        self._cfg_version = 0
        self._cfg_parts = {}

    def _next_seq(self):
        self.seq = (self.seq + 1) & 0xFFFFFFFF
        return self.seq

    def _send_new(self, mtype, fields):
        seq = self._next_seq()
        body = pack(mtype, self.dkind, self.mac, self.boot, seq, fields)
        if mtype in NEEDS_ACK:
            if len(self.pending) >= self.max_pending:
                self.pending.pop(0)
                self.gave_up += 1
            self.pending.append([seq, mtype, body, self.now_us() + self.resend_us, self.resend_us])
            self._win_sent += 1
        self.sent += 1
        self.send(seal(body))
        return seq

    def hello(self):
        """Announce firmware version, capabilities and parameter version; resent until acked (at boot)."""
        return self._send_new(HELLO, (self.fw[0] & 0xFF, self.fw[1] & 0xFF, self.fw[2] & 0xFF, self.caps & 0xFFFF,
                                      clamp(self.rate_hz, 0, 0xFFFF), self.params_version))

    def event(self, kind, t_us, peak_g=None):
        """Queue a detected event stamped with the device time of the sample that caused it (and, with a trace
        buffer, keep the raw samples around it for the host)."""
        if self.traces is not None:
            self.traces.mark(t_us)
        return self._send_new(EVENT, (EVENT_KINDS.index(kind) + 1, clamp(t_us, 0, U64), peak_to_mg(peak_g)))

    def _send_traces(self, now):
        """Fill the trace window with the next chunks; give a trace up after TRACE_GIVE_UP_US without an ack."""
        if self.tpending and now - self.tpending[0][5] > TRACE_GIVE_UP_US:
            tid = self.tpending[0][6]
            self.tpending = [p for p in self.tpending if p[6] != tid]
            self.traces.drop(tid)
            self.traces_dropped += 1
        while len(self.tpending) < self.trace_window:
            chunk = self.traces.next_chunk()
            if chunk is None:
                return
            tid, idx, count, t_first, tail, cut = chunk
            mtype = TRACE6 if self.traces.gyro else TRACE
            seq = self._next_seq()
            body = pack(mtype, self.dkind, self.mac, self.boot, seq, (tid, idx, count, clamp(t_first, 0, U64)),
                        flags=FLAG_TRACE_CUT if cut else 0, tail=tail)
            self.tpending.append([seq, mtype, body, now + self.resend_us, self.resend_us, now, tid])
            self.sent += 1
            self.send(seal(body))

    def heartbeat(self):
        """Health for the host; every count wraps at its field's width and every reading pins at its ends."""
        mv, pct = (USB_POWERED_MV, UNKNOWN_U8) if self.battery is None else self.battery()
        if self._win_sent:
            self.link_pct = min(100, self._win_acked * 100 // self._win_sent)
            self._win_sent = self._win_acked = 0
        dropped = self.traces_dropped + (self.traces.dropped if self.traces is not None else 0)
        cut = self.traces.cut if self.traces is not None else 0
        return self._send_new(HEARTBEAT, (clamp(self.now_us(), 0, U64), clamp(mv, 0, 0xFFFF), clamp(pct, 0, 0xFF),
                                          clamp(self.link_pct, 0, 0xFF), clamp(self.rssi, -128, 127),
                                          min(len(self.pending), 255), self.gave_up & 0xFFFF,
                                          self.params_version, dropped & 0xFFFF, cut & 0xFFFF))

    def poll(self):
        """Resend what is due and send a heartbeat when due; cheap enough to call every loop."""
        now = self.now_us()
        while self.pending and (self.seq - self.pending[0][0]) & 0xFFFFFFFF > MAX_SEQ_AGE:
            self.pending.pop(0)  # older than the host's de-duplication window: a resend could be misjudged
            self.gave_up += 1
        for p in self.pending:
            if now >= p[3]:
                self._resend(p, now)
                self._win_sent += 1
        if self.traces is not None:
            self.traces.poll(now)
            for p in self.tpending:
                if now >= p[3]:
                    self._resend(p, now)
            self._send_traces(now)
        if now >= self._next_hb:
            self._next_hb = now + self.heartbeat_us
            self.heartbeat()

    def _resend(self, p, now):
        p[4] = min(p[4] * 2, 1000000)
        p[3] = now + p[4]
        body = bytearray(p[2])
        body[3] |= FLAG_RESEND
        self.sent += 1
        self.send(seal(body))

    def on_packet(self, packet, rx_us=None):
        """Handle a packet for this device; returns the message type handled or None if it was not for us."""
        if rx_us is None:
            rx_us = self.now_us()
        try:
            mtype, _dk, _fl, mac, _boot, _seq, fields = unpack(unseal(packet))
        except ProtocolError:
            return None
        if mac != self.mac:
            return None
        if mtype == ACK:
            atype, aboot, aseq = fields
            if aboot == self.boot and (atype == TRACE or atype == TRACE6):
                for k in range(len(self.tpending)):
                    if self.tpending[k][0] == aseq:
                        self.tpending.pop(k)
                        self.acked += 1
                        break
            elif aboot == self.boot:
                for k in range(len(self.pending)):
                    if self.pending[k][0] == aseq:
                        self.pending.pop(k)
                        self.acked += 1
                        self._win_acked += 1
                        if atype == HELLO:
                            self.hello_acked = True
                        break
            return ACK
        if mtype == TSYNC_REQ:
            body = pack(TSYNC_RESP, self.dkind, self.mac, self.boot, self._next_seq(),
                        (fields[0], clamp(rx_us, 0, U64), clamp(self.now_us(), 0, U64)))
            self.sent += 1
            self.send(seal(body))
            return TSYNC_REQ
        if mtype == CONFIG:
            self._on_config(fields, unseal(packet)[HEADER_LEN + PAYLOAD_LEN[CONFIG]:])
            return CONFIG
        return None

    def _on_config(self, fields, tail):
        """Collect the parts of one parameter version; apply them when all are in; answer every part."""
        version, part, parts = fields
        if version == self.params_version and version != 0:
            status = CFG_APPLIED  # a resend after we applied it: the host missed our answer
        elif parts > CONFIG_MAX_PARTS or self.apply_config is None:
            status = CFG_REJECTED
        else:
            if version != self._cfg_version:
                self._cfg_version = version
                self._cfg_parts = {}
            self._cfg_parts[part] = bytes(tail)
            status = CFG_STORED
            if len(self._cfg_parts) == parts and all(k in self._cfg_parts for k in range(parts)):
                status = CFG_REJECTED
                try:
                    params = {}
                    for k in range(parts):
                        params.update(config_entries(self._cfg_parts[k]))
                    self.apply_config(params, version)
                    self.params_version = version
                    status = CFG_APPLIED
                except ValueError:  # ProtocolError is one too
                    pass
                self._cfg_parts = {}
                self._cfg_version = 0
        body = pack(CONFIG_ACK, self.dkind, self.mac, self.boot, self._next_seq(), (version, part, parts, status))
        self.sent += 1
        self.send(seal(body))


class Relay:
    """The receiver's logic: radio packets to serial frames, serial frames to radio packets.

    ``to_host(bytes)`` writes to the USB serial port; ``to_radio(mac, packet)`` sends by ESP-NOW. The receiver is
    itself a Node (kind receiver) so it says hello, sends heartbeats and answers time-sync on the serial side.
    """

    def __init__(self, mac, boot, now_us, to_host, to_radio, fw=(1, 0, 0)):
        self.to_host = to_host
        self.to_radio = to_radio
        self.node = Node(mac, KIND_RECEIVER, boot, now_us, lambda p: to_host(frame(p)), fw=fw, caps=CAP_RELAY)
        self.deframer = Deframer()
        self.relayed_up = 0
        self.relayed_down = 0
        self.bad_radio = 0  # failed CRC, or header MAC differs from the radio sender

    def from_radio(self, sender_mac, packet):
        try:
            unseal(packet)
        except ProtocolError:
            self.bad_radio += 1
            return False
        if packet[2] != KIND_BURRITO and packet[2] != KIND_BADGE:
            self.bad_radio += 1  # only burritos and badges talk by radio: a "receiver" or "host" there is an impostor
            return False
        if header_mac(packet) != bytes(sender_mac):
            self.bad_radio += 1
            return False
        self.relayed_up += 1
        self.to_host(frame(packet))
        return True

    def from_host(self, data, rx_us=None):
        for packet in self.deframer.feed(data):
            mac = header_mac(packet)
            if mac == self.node.mac:
                self.node.on_packet(packet, rx_us)
            else:
                self.relayed_down += 1
                self.to_radio(mac, packet)
