"""Raw samples around every event, for the host to fetch (PROTOCOL.md 1.1, section 10). MicroPython and CPython.

Every accelerometer sample goes into a fixed ring (``RING_US`` of samples, 10 bytes each: the low 32 bits of the
device time in microseconds and x, y, z in milli-g; with the gyroscope on (``gyro=True``, protocol 1.2) 16 bytes, the
angular rate x, y, z in milli-rad/s after them, and the traces go out as TRACE6 chunks). An event opens a *capture* from ``PRE_US`` before its stamp to
``POST_US`` after it; events inside an open capture widen it, up to ``MAX_SPAN_US``. When the clock passes the end,
the capture is copied out of the ring into a *trace* that waits to be sent as TRACE chunks (``next_chunk``).

Why these numbers: a table throw flies at most about a second, so one second before an impact or catch holds its
launch, and half a second after holds what tells an impact from a catch (the detector looks 200-300 ms on). The
detector may report an event up to a second after its stamp, and the ring holds two seconds, so the whole window is
still there when the capture closes. Memory is fixed at boot: at 833 Hz the ring is 16.7 KB and each trace at most
15 KB; at most ``MAX_TRACES`` wait (and one is being sent), so the whole feature stays under 62 KB (with the gyroscope
on, 26.7 KB, 24 KB and under 100 KB). A trace that does
not fit is dropped and counted (``dropped``, reported in heartbeats), never blocks events.

Bounds (protocol 1.3): the ring's time only runs forward (a back-dated sample is kept at the newest time, counted in
``backsteps``), so a chunk's dt never goes negative; a trace that needs more chunks than the one-byte count holds keeps
its newest ``MAX_CHUNKS`` and is counted in ``cut`` (the node flags its last chunk and the heartbeat reports the count).

No ``typing``, no dataclasses, only ``struct`` formats MicroPython's ``ustruct`` knows.
"""

import struct

RING_US = 2000000
PRE_US = 1000000
POST_US = 500000
MAX_SPAN_US = 1800000
MAX_TRACES = 2
CLOSE_LAG_US = 50000  # the FIFO is read late: wait this long past the end before closing on the clock alone
MAX_MARKS = 8
REC = 10  # ring record: u32 low bits of t_us, x, y, z in milli-g
REC6 = 16  # with the gyroscope on: then gx, gy, gz in milli-rad/s
SAMPLES_PER_CHUNK = 27  # fills a 250-byte packet (proto.TRACE_MAX_SAMPLES)
SAMPLES_PER_CHUNK6 = 15  # fills a 250-byte packet with 6-axis samples (proto.TRACE6_MAX_SAMPLES)
MAX_DT = 0xFFFF  # a longer gap between two samples starts a new chunk (dt is a u16)
MAX_CHUNKS = 255  # the chunk count is one byte: a trace that needs more keeps its newest 255 chunks and says "cut"
MAX_STEP_US = 0x7FFFFFFF  # a longer pause between samples empties the ring (32-bit stamps could no longer be told apart)


def to_milli(v):
    """g -> milli-g, or rad/s -> milli-rad/s, as a signed 16-bit value (clipped at +-32767; NaN reads 0)."""
    m = v * 1000
    if m >= 32767:
        return 32767
    if m <= -32767:
        return -32767
    if m != m:
        return 0
    return int(m + (0.5 if m >= 0 else -0.5))


to_mg = to_milli


class TraceBuffer:
    """The ring, the open capture and the traces waiting to be sent; ``gyro``: every sample carries the angular rate
    (fixed at boot, as the ring's size is)."""

    def __init__(self, rate_hz, ring_us=RING_US, pre_us=PRE_US, post_us=POST_US, max_span_us=MAX_SPAN_US,
                 max_traces=MAX_TRACES, gyro=False):
        self.gyro = bool(gyro)
        self.rec = REC6 if self.gyro else REC
        self.per_chunk = SAMPLES_PER_CHUNK6 if self.gyro else SAMPLES_PER_CHUNK
        self.n = max(16, int(rate_hz) * ring_us // 1000000 + 1)
        self.ring = bytearray(self.n * self.rec)
        self.head = 0  # next slot to write
        self.count = 0
        self.newest = None  # full device time of the newest sample
        self.pre_us = pre_us
        self.post_us = post_us
        self.max_span_us = max_span_us
        self.max_traces = max_traces
        self.capture = None  # [start_us, end_us]
        self.marks = []  # event stamps the open capture could not take
        self.ready = []  # [trace id, bytes of ring records, [(first record, full t of it), ...], cut]
        self._cur = None  # the trace being sent: ready entry + [next chunk index]
        self.next_id = 1
        self.dropped = 0
        self.traces = 0
        self.cut = 0  # traces sent without their oldest samples: they needed more than MAX_CHUNKS chunks
        self.backsteps = 0  # samples stamped before the newest one, kept at the newest one's time

    def add(self, t_us, ax, ay, az, gx=None, gy=None, gz=None):
        """One sample (device time in us, acceleration in g, and with ``gyro`` the angular rate in rad/s, which it
        then needs); closes the capture once a sample passes its end.

        The ring's time only runs forward: a sample stamped before the newest (a FIFO back-dated past the last read)
        is kept at the newest one's time, so chunks never step back. After a pause longer than ``MAX_STEP_US`` the
        ring starts empty, as 32-bit stamps that far apart could no longer be ordered."""
        newest = self.newest
        if newest is not None:
            if t_us < newest:
                t_us = newest
                self.backsteps += 1
            elif t_us - newest > MAX_STEP_US:
                self.count = 0
        if self.gyro:
            if gx is None or gy is None or gz is None:
                raise ValueError("this trace buffer keeps the angular rate: a sample without it")
            struct.pack_into("<Ihhhhhh", self.ring, self.head * REC6, t_us & 0xFFFFFFFF, to_milli(ax), to_milli(ay),
                             to_milli(az), to_milli(gx), to_milli(gy), to_milli(gz))
        else:
            struct.pack_into("<Ihhh", self.ring, self.head * REC, t_us & 0xFFFFFFFF, to_milli(ax), to_milli(ay),
                             to_milli(az))
        self.head = (self.head + 1) % self.n
        if self.count < self.n:
            self.count += 1
        self.newest = t_us
        if self.capture is not None and t_us >= self.capture[1]:
            self._close()

    def mark(self, t_us):
        """An event stamped ``t_us``: keep the samples around it."""
        cap = self.capture
        if cap is None:
            self.capture = [t_us - self.pre_us, t_us + self.post_us]
            if self.newest is not None and self.newest >= self.capture[1]:
                self._close()  # reported after its window had passed: take what the ring still holds
            return
        if t_us - self.pre_us <= cap[1]:
            end = t_us + self.post_us
            cap[1] = max(cap[1], min(end, cap[0] + self.max_span_us))
            if end <= cap[1]:
                return
        if len(self.marks) < MAX_MARKS:
            self.marks.append(t_us)

    def poll(self, now_us):
        """Close a capture whose end has passed even if no sample came (the sensor paused, a replay ended)."""
        if self.capture is not None and now_us >= self.capture[1] + CLOSE_LAG_US:
            self._close()

    def _close(self):
        start, end = self.capture
        self.capture = None
        data, t_first = self._copy(start, end)
        if data:
            if len(self.ready) >= self.max_traces:
                self.dropped += 1
            else:
                bounds = self._bounds(data, t_first)
                cut = len(bounds) > MAX_CHUNKS
                if cut:  # keep the newest chunks: they hold the event and what followed it
                    first = bounds[len(bounds) - MAX_CHUNKS][0]
                    data = data[first * self.rec:]
                    bounds = [(i - first, t) for i, t in bounds[len(bounds) - MAX_CHUNKS:]]
                    self.cut += 1
                self.ready.append([self.next_id, data, bounds, cut])
                self.next_id = (self.next_id % 0xFFFF) + 1
                self.traces += 1
        marks, self.marks = self.marks, []
        for t in marks:
            if t + self.post_us > end:
                if self.capture is None:
                    self.capture = [max(t - self.pre_us, end + 1), t + self.post_us]
                else:
                    self.mark(t)

    def _copy(self, start, end):
        """The ring records with start <= t <= end, oldest first, and the full time of the first."""
        if self.count == 0:
            return b"", 0
        t = self.newest
        prev_low = t & 0xFFFFFFFF
        first = last = -1
        t_first = 0
        k = 0
        rec = self.rec
        while k < self.count:  # newest to oldest; each step back is under 2**31 us (``add``), so exact
            i = (self.head - 1 - k) % self.n
            low = struct.unpack_from("<I", self.ring, i * rec)[0]
            t -= (prev_low - low) & 0xFFFFFFFF
            prev_low = low
            if t < start:
                break
            if t <= end:
                if last < 0:
                    last = k
                first = k
                t_first = t
            k += 1
        if first < 0:
            return b"", 0
        lo = (self.head - 1 - first) % self.n  # oldest record wanted
        hi = (self.head - 1 - last) % self.n  # newest record wanted
        if lo <= hi:  # one or two slices: no per-sample allocation (MicroPython's heap is small)
            return bytes(self.ring[lo * rec:(hi + 1) * rec]), t_first
        return bytes(self.ring[lo * rec:]) + bytes(self.ring[:(hi + 1) * rec]), t_first

    def _bounds(self, data, t_first):
        """Where each chunk starts (record index, full time): every ``per_chunk`` records or at a long gap."""
        bounds = [(0, t_first)]
        t = t_first
        prev = struct.unpack_from("<I", data, 0)[0]
        rec = self.rec
        n = len(data) // rec
        start = 0
        for i in range(1, n):
            low = struct.unpack_from("<I", data, i * rec)[0]
            dt = (low - prev) & 0xFFFFFFFF
            t += dt
            prev = low
            if i - start >= self.per_chunk or dt > MAX_DT:
                bounds.append((i, t))
                start = i
        return bounds

    def next_chunk(self):
        """(trace id, chunk index, chunk count, full time of its first sample, sample bytes, cut) or None; the samples
        are TRACE's ``<Hhhh`` or, with ``gyro``, TRACE6's ``<Hhhhhhh``; ``cut`` is true on the last chunk of a trace
        that lost its oldest samples (``MAX_CHUNKS``)."""
        if self._cur is None:
            if not self.ready:
                return None
            self._cur = self.ready.pop(0) + [0]
        tid, data, bounds, cut, k = self._cur
        count = len(bounds)
        b, t0 = bounds[k]
        rec = self.rec
        e = bounds[k + 1][0] if k + 1 < count else len(data) // rec
        tail = bytearray()
        prev = struct.unpack_from("<I", data, b * rec)[0]
        if self.gyro:
            for i in range(b, e):
                low, x, y, z, gx, gy, gz = struct.unpack_from("<Ihhhhhh", data, i * rec)
                tail += struct.pack("<Hhhhhhh", (low - prev) & 0xFFFFFFFF, x, y, z, gx, gy, gz)
                prev = low
        else:
            for i in range(b, e):
                low, x, y, z = struct.unpack_from("<Ihhh", data, i * rec)
                tail += struct.pack("<Hhhh", (low - prev) & 0xFFFFFFFF, x, y, z)
                prev = low
        if k + 1 >= count:
            self._cur = None  # every chunk is out (the node holds the packets until acked): free the copy
        else:
            self._cur[4] = k + 1
        return tid, k, count, t0, bytes(tail), cut and k + 1 >= count

    def drop(self, tid):
        """The host never acknowledged a chunk of trace ``tid``: stop sending the rest of it."""
        if self._cur is not None and self._cur[0] == tid:
            self._cur = None
