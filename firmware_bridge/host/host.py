"""The device host: bytes from the receiver in, trustworthy device events on table time out.

Rules it keeps (PROTOCOL.md, "Host duties"):
- An event is acknowledged only after it is in the output queue, so an acknowledged event is never lost; a repeat of an
  acknowledged (boot, seq) is acknowledged again (the first ack may have been lost) but never delivered twice.
- An event from a device whose clock is not yet synchronised is not acknowledged: the device keeps resending it and it
  is delivered, with a proper table time, once the clock is synchronised. Arrival time is never used as event time.
- Only paired devices count. Frames from others, corrupt frames, malformed messages and duplicates are dropped and each
  drop is counted in ``stats`` (link-wide) or in the device's health record.
- A new boot is a boot id never seen before for that device; a late frame of an earlier boot is judged against that
  boot (its clock, its sequence numbers) and never resets the current one.
"""

from __future__ import annotations

import os
import queue
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from firmware_bridge.firmware import proto
from firmware_bridge.host.clocksync import ClockSync
from firmware_bridge.host.events import DeviceEvent, HeartbeatEvent, LinkEvent
from firmware_bridge.host.link import SerialLink
from firmware_bridge.host.pairing import Pairing, PairingStore
from firmware_bridge.host.params import load_params
from firmware_bridge.host.status import DEFAULT, StatusWriter, default_status_path
from firmware_bridge.host.tracestore import TraceRecord, prune
from firmware_bridge.supervise import Supervised

RECEIVER = "receiver"
HOST_MAC = b"\x00\x00\x00\x00\x00\x00"
DEDUPE_WINDOW = proto.DEDUPE_WINDOW  # devices never resend older than proto.MAX_SEQ_AGE
MAX_BOOTS = 4  # boots remembered per device, so a late frame of an earlier boot is known for what it is
MAX_PARTIAL_TRACES = 4  # traces per device being reassembled at once
MAX_UNPAIRED_SEEN = 64  # unpaired MACs listed by name; more (noise, a crowded venue) are only counted
RECENT_EVENTS = 64  # delivered events kept per device, to list in the traces that cover them


@dataclass(frozen=True)
class DeviceHealth:
    """A snapshot of one device's health, for the screen and ``burrito-table devices``."""

    name: str
    mac: str
    kind: str
    seat: int | None
    online: bool
    last_seen: float | None
    firmware: str
    battery_mv: int | None
    battery_pct: int | None
    link_pct: int | None
    rssi_dbm: int | None
    synced: bool
    offset_us: float
    drift_ppm: float
    sync_samples: int
    sync_rejected: int
    rtt_us: float | None  # round trip of the last accepted time-sync sample
    events: int
    duplicates: int
    deferred: int
    malformed: int
    device_pending: int
    device_gave_up: int
    boot: int | None = None
    uptime_s: float | None = None  # the device clock now (time since it booted), once synced
    params_version: int | None = None  # detector parameter version it reports running (0: defaults)
    config_state: str = ""  # "", "pushing", "applied" or "rejected" for the host's parameter file
    traces: int = 0
    traces_dropped: int = 0
    stale: int = 0
    gyro: bool = False  # its HELLO says the gyroscope is on (capability bit 32, protocol 1.2)
    traces_cut: int = 0  # traces it sent without their oldest samples (heartbeat, protocol 1.3; wraps at 65536)


class _Boot:
    """What the host knows about one boot of a device: its clock and the sequence numbers it delivered."""

    def __init__(self, boot: int) -> None:
        self.boot = boot
        self.sync = ClockSync()
        self.seen: set[int] = set()
        self.max_seq = 0
        self.top = 0  # highest seq of any frame of this boot

    def is_duplicate(self, seq: int) -> bool:
        """Seen, or further behind the newest than any resend can be. Sequence numbers wrap at 2**32: "behind" is
        serial-number arithmetic, so a device that has sent four billion messages is still heard."""
        if seq in self.seen:
            return True
        behind = (self.max_seq - seq) & 0xFFFFFFFF
        return DEDUPE_WINDOW <= behind < 0x80000000

    def remember(self, seq: int) -> None:
        self.seen.add(seq)
        if 0 < (seq - self.max_seq) & 0xFFFFFFFF < 0x80000000:
            self.max_seq = seq
        if len(self.seen) > 2 * DEDUPE_WINDOW:  # amortised: at most one prune per DEDUPE_WINDOW events
            top = self.max_seq
            self.seen = {s for s in self.seen if (top - s) & 0xFFFFFFFF < DEDUPE_WINDOW}


class _Device:
    """Mutable per-device state; only touched under DeviceHost._lock."""

    def __init__(self, name: str, mac: bytes, kind: str, seat: int | None) -> None:
        self.name, self.mac, self.kind, self.seat = name, mac, kind, seat
        self.online = False
        self.last_seen: float | None = None
        self.firmware = ""
        self.rate_hz = 0
        self.gyro = False
        self.battery_mv: int | None = None
        self.battery_pct: int | None = None
        self.link_pct: int | None = None
        self.rssi: int | None = None
        self.boots: dict[int, _Boot] = {}  # oldest first
        self.cur = _Boot(-1)  # placeholder until the first frame
        self.next_sync = 0.0
        self.events = self.duplicates = self.deferred = self.malformed = self.stale = 0
        self.device_pending = self.device_gave_up = 0
        self.params_version: int | None = None
        self.cfg_acked: set[int] = set()
        self.cfg_state = ""
        self.cfg_next = 0.0
        self.cfg_interval = 0.0
        # (boot, trace id) -> (chunk count, when first seen, chunks by index, message type: TRACE or TRACE6,
        # [whether its last chunk says the trace was cut])
        self.partial: dict[tuple[int, int], tuple[int, float, dict[int, list], int, list[bool]]] = {}
        self.recent: deque[DeviceEvent] = deque(maxlen=RECENT_EVENTS)
        self.traces = 0
        self.traces_dropped = 0
        self.traces_cut = 0

    @property
    def boot(self) -> int | None:
        return None if self.cur.boot < 0 else self.cur.boot

    @property
    def sync(self) -> ClockSync:
        return self.cur.sync

    def health(self, now: float) -> DeviceHealth:
        s = self.sync
        uptime = s.to_device_us(now * 1e6) / 1e6 if s.synced else None
        return DeviceHealth(self.name, proto.mac_str(self.mac), self.kind, self.seat, self.online, self.last_seen,
                            self.firmware, self.battery_mv, self.battery_pct, self.link_pct, self.rssi, s.synced,
                            s.offset_us, s.drift_ppm, s.accepted, s.rejected_rtt + s.rejected_outlier, s.accepted_rtt_us,
                            self.events, self.duplicates, self.deferred, self.malformed, self.device_pending,
                            self.device_gave_up, self.boot, uptime, self.params_version, self.cfg_state,
                            self.traces, self.traces_dropped, self.stale, self.gyro, self.traces_cut)

    def boot_of(self, boot: int, mtype: int, seq: int, flags: int) -> tuple[_Boot, bool]:
        """The boot state a frame belongs to, and whether it is the current boot.

        A new boot is a boot id never seen before for this device -- not merely one that differs from the last, so a
        late frame of an earlier boot never resets the current one. One exception: a first HELLO (seq 1, not a
        resend) of a remembered id after later frames of it is the device picking that random id again: afresh.
        """
        old = self.boots.get(boot)
        restart = old is not None and mtype == proto.HELLO and seq == 1 and not flags & proto.FLAG_RESEND \
            and old.top > 1
        if old is not None and not restart:
            old.top = max(old.top, seq)
            return old, old is self.cur
        self.boots.pop(boot, None)
        b = self.boots[boot] = _Boot(boot)
        b.top = seq
        while len(self.boots) > MAX_BOOTS:
            del self.boots[next(iter(self.boots))]
        self.cur = b
        self.next_sync = 0.0
        self.params_version = None
        self.cfg_acked = set()
        self.cfg_next = 0.0
        self.device_pending = self.device_gave_up = 0
        return b, True


class DeviceHost:
    """Runs the serial link, the protocol, the registry and clock sync; events go to ``self.events``.

    ``port``: pyserial URL or path (``hwgrep://VID:PID``, ``/dev/ttyACM0``). ``clock``: the host clock, seconds
    (``time.monotonic``; table time is this clock). ``status_path``: where the device status is published every
    second for ``burrito-table devices`` (default: ``status.default_status_path()``; None: not published).
    ``trace_dir``: where fetched event traces are saved (None: kept only for ``on_trace`` listeners).
    ``params_path``: a detector parameter file watched once a second and pushed to the devices whenever it changes.
    """

    def __init__(self, port: str, pairings: PairingStore | None = None, events: queue.Queue | None = None, *,
                 clock: Callable[[], float] = time.monotonic, offline_after_s: float = 3.0,
                 sync_fast_hz: float = 20.0, sync_hz: float = 4.0, tick_s: float = 0.02,
                 retry_s: float = 0.1, status_path: str | os.PathLike[str] | None | object = DEFAULT,
                 trace_dir: str | os.PathLike[str] | None = None,
                 params_path: str | os.PathLike[str] | None = None) -> None:
        self.pairings = pairings if pairings is not None else PairingStore(None)
        self.events: queue.Queue = events if events is not None else queue.Queue()
        self.clock = clock
        self.offline_after_s = offline_after_s
        self.sync_fast_s = 1.0 / sync_fast_hz
        self.sync_s = 1.0 / sync_hz
        self.tick_s = tick_s
        self._lock = threading.RLock()
        self._deframer = proto.Deframer()
        self._devices: dict[bytes, _Device] = {}
        self._receiver: _Device | None = None
        self._boot = random.getrandbits(16)
        self._seq = 0
        self._pair_window: tuple[int | None, float] | None = None
        self._paired = threading.Event()
        self.last_paired: Pairing | None = None
        self.unpaired_seen: dict[str, int] = {}
        self.stats = {"frames": 0, "malformed": 0, "duplicate": 0, "unpaired": 0, "deferred_unsynced": 0,
                      "events": 0, "acks_sent": 0, "tsync_sent": 0, "kind_mismatch": 0, "write_failures": 0,
                      "stale": 0, "trace_chunks": 0, "traces": 0, "traces_incomplete": 0, "config_sent": 0,
                      "trace_write_failures": 0, "params_errors": 0, "traces_cut": 0}
        self._config: tuple[int, dict[str, float], list[bytes]] | None = None
        self.trace_dir = Path(trace_dir) if trace_dir is not None else None
        self.on_trace: list[Callable[[TraceRecord], None]] = []
        self.params_path = Path(params_path) if params_path is not None else None
        self.params_error = ""
        self._params_seen: tuple[int, int] | None = None
        self._params_stat: tuple[int, int] | None = None  # the file's stat at the last poll
        self._params_next = 0.0
        path = default_status_path() if status_path is DEFAULT else status_path
        self.status = StatusWriter(path) if path is not None else None  # type: ignore[arg-type]
        self.link = SerialLink(port, self.process, self._link_up, self._link_down, clock=clock, retry_s=retry_s)
        self._stop = threading.Event()
        self.part: Supervised | None = None  # the tick loop, supervised as "device host"

    # ------------------------------------------------------------ lifecycle

    def start(self) -> DeviceHost:
        self.link.start()
        self.part = Supervised("device host", self._tick_loop, stop=self._stop, backoff=(0.05, 2.0)).start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self.part is not None:
            self.part.stop()
        self.link.stop()
        if self.status is not None:
            self.status.remove()

    def __enter__(self) -> DeviceHost:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def counters(self) -> dict[str, int]:
        """Every drop and delivery, link-wide: frames, corrupt, oversize, malformed, duplicate, unpaired, ..."""
        with self._lock:
            c = dict(self.stats)
            c["corrupt"] = self._deframer.corrupt
            c["oversize"] = self._deframer.oversize
            c["write_failures"] += self.link.write_failures
            c["reconnects"] = max(0, self.link.connects - 1)
            c["handler_errors"] = self.link.handler_errors
            return c

    def health(self) -> list[DeviceHealth]:
        with self._lock:
            now = self.clock()
            devs = list(self._devices.values())
            if self._receiver is not None:
                devs.insert(0, self._receiver)
            return [d.health(now) for d in devs]

    # ------------------------------------------------------------ pairing

    def open_pairing(self, seat: int | None, seconds: float = 10.0) -> None:
        """Seat button held: the next unpaired burrito or badge that reports motion within ``seconds`` is paired."""
        with self._lock:
            self._pair_window = (seat, self.clock() + seconds)
            self._paired.clear()

    def wait_paired(self, timeout: float) -> Pairing | None:
        return self.last_paired if self._paired.wait(timeout) else None

    # ------------------------------------------------------------ detector parameters (CONFIG)

    def push_config(self, version: int, params: dict[str, float]) -> None:
        """Send this detector parameter version to every paired burrito and badge, resending until each answers.

        Raises ValueError (nothing changes) for a version outside 1-65535, a bad name or value, or too many.
        """
        parts = proto.config_parts(version, params)
        with self._lock:
            self._config = (version, dict(params), parts)
            for dev in self._devices.values():
                dev.cfg_acked = set()
                dev.cfg_state = "applied" if dev.params_version == version else "pushing"
                dev.cfg_next = 0.0
                dev.cfg_interval = 0.0

    def config_report(self) -> dict[str, tuple[int | None, str]]:
        """Device name -> (parameter version it reports running, or None if unknown; push state)."""
        with self._lock:
            return {d.name: (d.params_version, d.cfg_state) for d in self._devices.values()}

    # ------------------------------------------------------------ link callbacks

    def _link_up(self) -> None:
        with self._lock:
            self._deframer.reset()
            self.events.put(LinkEvent(self.clock(), RECEIVER, "receiver", "online", f"opened {self.link.url}"))

    def _link_down(self, reason: str) -> None:
        with self._lock:
            self._deframer.reset()  # a frame cut by the unplug is counted corrupt, never glued to the next one
            if self._receiver is not None:
                self._receiver.online = False
            self.events.put(LinkEvent(self.clock(), RECEIVER, "receiver", "offline", reason))

    def process(self, data: bytes, t: float) -> None:
        """Bytes from the port, read at host time ``t`` (seconds); never raises on any input."""
        with self._lock:
            for packet in self._deframer.feed(data):
                self.stats["frames"] += 1
                self._on_packet(packet, t)

    # ------------------------------------------------------------ protocol

    def _send(self, mtype: int, mac: bytes, fields: tuple, tail: bytes = b"") -> bool:
        self._seq = (self._seq + 1) & 0xFFFFFFFF
        body = proto.pack(mtype, proto.KIND_HOST, mac, self._boot, self._seq, fields, tail=tail)
        return self.link.write(proto.frame(proto.seal(body)))

    def _ack(self, mac: bytes, mtype: int, boot: int, seq: int) -> None:
        if self._send(proto.ACK, mac, (mtype, boot, seq)):
            self.stats["acks_sent"] += 1

    def _malformed(self, dev: _Device | None) -> None:
        self.stats["malformed"] += 1
        if dev is not None:
            dev.malformed += 1

    def _on_packet(self, packet: bytes, t: float) -> None:
        body = packet[:-2]
        try:
            mtype, dkind, flags, mac, boot, seq, fields = proto.unpack(body)
        except proto.ProtocolError:
            self.stats["malformed"] += 1
            return
        if dkind == proto.KIND_RECEIVER:
            self._on_receiver(mtype, flags, mac, boot, seq, fields, t)
            return
        if dkind == proto.KIND_HOST:
            self.stats["malformed"] += 1  # our own kind coming back: a loop or a confused device
            return
        kind = proto.DEVICE_KINDS[dkind]
        pairing = self.pairings.get(mac)
        if pairing is None:
            if not self._try_pair(mtype, mac, kind, boot, seq, fields, t):
                self._unpaired(mac)
            return
        if pairing.kind != kind:
            self.stats["kind_mismatch"] += 1
            return
        dev = self._devices.get(mac)
        if dev is None:
            dev = self._devices[mac] = _Device(pairing.name, mac, pairing.kind, pairing.seat)
            if self._config is not None:
                dev.cfg_state = "pushing"
        dev.seat = pairing.seat
        if mtype in proto.HOST_TO_DEVICE:
            self._malformed(dev)  # a host -> device type from a device: a bug or a loop, never acted on
            return
        b, current = dev.boot_of(boot, mtype, seq, flags)
        if not current:
            self._on_stale(dev, b, mtype, seq, fields, body, t)
            return
        self._seen(dev, t)
        self._on_current(dev, b, mtype, mac, boot, seq, fields, body, t)

    def _unpaired(self, mac: bytes) -> None:
        self.stats["unpaired"] += 1
        key = proto.mac_str(mac)
        if key in self.unpaired_seen or len(self.unpaired_seen) < MAX_UNPAIRED_SEEN:
            self.unpaired_seen[key] = self.unpaired_seen.get(key, 0) + 1

    def _on_current(self, dev: _Device, b: _Boot, mtype: int, mac: bytes, boot: int, seq: int, fields: tuple,
                    body: bytes, t: float) -> None:
        """A frame of the device's current boot, by type."""
        if mtype == proto.EVENT:
            self._on_event(dev, b, seq, fields)
        elif mtype == proto.TRACE or mtype == proto.TRACE6:
            self._on_trace(dev, b, seq, fields, body)
        elif mtype == proto.TSYNC_RESP:
            t1, t2, t3 = fields
            t4 = t * 1e6
            if not 0 <= t4 - t1 <= 10e6:
                self._malformed(dev)  # not an answer to any request of this host in the last 10 s
            else:
                b.sync.add(t1, t2, t3, t4)
        elif mtype == proto.HEARTBEAT:
            self._on_heartbeat(dev, b, fields)
        elif mtype == proto.HELLO:
            dev.firmware = "%d.%d.%d" % fields[:3]
            dev.rate_hz = fields[4]
            dev.gyro = bool(fields[3] & proto.CAP_GYRO)
            if len(fields) > 5:  # a 1.0 device does not say: its version stays unknown
                self._params_reported(dev, fields[5])
            self._ack(mac, mtype, boot, seq)
        elif mtype == proto.CONFIG_ACK:
            self._on_config_ack(dev, fields)

    def _on_heartbeat(self, dev: _Device, b: _Boot, fields: tuple) -> None:
        """Health fields of the 1.0 layout, then whatever later minor versions appended (1.1, 1.3)."""
        _t, mv, pct, link, rssi, pending, gave_up = fields[:7]
        dev.battery_mv = None if mv == proto.USB_POWERED_MV else mv
        dev.battery_pct = None if pct == proto.UNKNOWN_U8 else pct
        dev.link_pct = None if link == proto.UNKNOWN_U8 else link
        dev.rssi = None if rssi == proto.UNKNOWN_RSSI else rssi
        dev.device_pending, dev.device_gave_up = pending, gave_up
        if len(fields) > 7:
            self._params_reported(dev, fields[7])
            dev.traces_dropped = fields[8]
        if len(fields) > 9:
            dev.traces_cut = fields[9]
        if b.sync.synced:  # on table time, or not at all: an arrival time proves nothing
            self.events.put(HeartbeatEvent(b.sync.to_host_us(_t) / 1e6, dev.name, dev.kind, pending, gave_up,
                                           dev.battery_pct, dev.link_pct))

    def _on_stale(self, dev: _Device, b: _Boot, mtype: int, seq: int, fields: tuple, body: bytes, t: float) -> None:
        """A late frame of an earlier boot: it may still carry an event that boot never got acked, on that boot's
        clock; nothing in it touches the current boot (its clock sync, its health, its sequence numbers)."""
        if mtype == proto.EVENT and (b.is_duplicate(seq) or b.sync.synced):
            self._on_event(dev, b, seq, fields)
        elif mtype == proto.TRACE or mtype == proto.TRACE6:
            self._on_trace(dev, b, seq, fields, body)
        else:
            dev.stale += 1
            self.stats["stale"] += 1

    def _params_reported(self, dev: _Device, version: int) -> None:
        dev.params_version = version
        cfg = self._config
        if cfg is None:
            return
        if version == cfg[0]:
            dev.cfg_state = "applied"
        elif dev.cfg_state == "applied":
            dev.cfg_state = "pushing"  # it runs something else now (rebooted to its saved or default parameters)
            dev.cfg_acked = set()

    def _on_config_ack(self, dev: _Device, fields: tuple) -> None:
        version, part, parts, status = fields
        cfg = self._config
        if cfg is None or version != cfg[0] or parts != len(cfg[2]):
            dev.stale += 1  # an answer to an earlier push
            self.stats["stale"] += 1
            return
        if status == proto.CFG_STORED:
            dev.cfg_acked.add(part)
        elif status == proto.CFG_APPLIED:
            dev.params_version = version
            dev.cfg_state = "applied"
        elif status == proto.CFG_REJECTED:
            dev.cfg_state = "rejected"
        else:
            self._malformed(dev)

    def _on_event(self, dev: _Device, b: _Boot, seq: int, fields: tuple) -> None:
        code, t_us, peak_mg = fields
        if b.is_duplicate(seq):
            dev.duplicates += 1
            self.stats["duplicate"] += 1
            self._ack(dev.mac, proto.EVENT, b.boot, seq)
            return
        if not b.sync.synced:
            dev.deferred += 1
            self.stats["deferred_unsynced"] += 1
            return  # not acked: the device resends it until the clock is synchronised
        t = b.sync.to_host_us(t_us) / 1e6
        ev = DeviceEvent(t, dev.name, dev.kind, proto.EVENT_KINDS[code - 1], seq, t_us, proto.mg_to_peak(peak_mg))
        self.events.put(ev)
        dev.recent.append(ev)
        b.remember(seq)
        dev.events += 1
        self.stats["events"] += 1
        self._ack(dev.mac, proto.EVENT, b.boot, seq)

    def _on_trace(self, dev: _Device, b: _Boot, seq: int, fields: tuple, body: bytes) -> None:
        """One TRACE or TRACE6 chunk: kept (then acked under its own type) until the trace is whole, then saved and
        handed on. The chunks of one trace agree on their count and their type (with or without the angular rate)."""
        mtype = body[1]
        if b.is_duplicate(seq):
            dev.duplicates += 1
            self.stats["duplicate"] += 1
            self._ack(dev.mac, mtype, b.boot, seq)
            return
        tid, idx, count, _t_first = fields
        key = (b.boot, tid)
        entry = dev.partial.get(key)
        if entry is None:
            if len(dev.partial) >= MAX_PARTIAL_TRACES:
                oldest = min(dev.partial, key=lambda k: dev.partial[k][1])
                del dev.partial[oldest]
                self.stats["traces_incomplete"] += 1
            entry = dev.partial[key] = (count, self.clock(), {}, mtype, [False])
        if entry[0] != count or entry[3] != mtype:
            self._malformed(dev)  # the chunk count of one trace cannot change, nor whether it carries the rate
            return
        entry[2][idx] = proto.trace_samples(body)
        if body[3] & proto.FLAG_TRACE_CUT:
            entry[4][0] = True
        b.remember(seq)
        self.stats["trace_chunks"] += 1
        self._ack(dev.mac, mtype, b.boot, seq)
        if len(entry[2]) == count:
            del dev.partial[key]
            samples = [s for k in range(count) for s in entry[2][k]]  # chunk order: the device's order
            self._trace_done(dev, b, tid, samples, entry[4][0])

    def _trace_done(self, dev: _Device, b: _Boot, tid: int, samples: list, cut: bool = False) -> None:
        s = b.sync
        first, last = samples[0][0], samples[-1][0]
        host_first = s.to_host_us(first) / 1e6 if s.synced else None
        per_us = (s.to_host_us(last) - s.to_host_us(first)) / 1e6 / (last - first) if s.synced and last > first \
            else 1e-6
        events = [{"kind": e.kind, "t_us": e.device_t_us, "t": round(e.t, 6), "seq": e.seq} for e in dev.recent
                  if first <= e.device_t_us <= last]
        rec = TraceRecord(dev.name, dev.kind, b.boot, tid, dev.rate_hz,
                          [(s[0], s[1] / 1000.0, s[2] / 1000.0, s[3] / 1000.0) for s in samples],
                          host_first, per_us, events,
                          [(s[4] / 1000.0, s[5] / 1000.0, s[6] / 1000.0) for s in samples] if len(samples[0]) == 7
                          else [], cut)
        dev.traces += 1
        self.stats["traces"] += 1
        if cut:
            self.stats["traces_cut"] += 1
        if self.trace_dir is not None:
            try:
                rec.save(self.trace_dir)
                if self.stats["traces"] % 100 == 1:
                    prune(self.trace_dir)
            except OSError:
                self.stats["trace_write_failures"] += 1
        for fn in list(self.on_trace):
            fn(rec)

    def _on_receiver(self, mtype: int, flags: int, mac: bytes, boot: int, seq: int, fields: tuple,
                     t: float) -> None:
        rec = self._receiver
        if rec is None or rec.mac != mac:
            rec = self._receiver = _Device(RECEIVER, mac, "receiver", None)
        if mtype in proto.HOST_TO_DEVICE or mtype not in (proto.HELLO, proto.HEARTBEAT, proto.TSYNC_RESP):
            self._malformed(rec)  # the receiver relays, it detects nothing: no events, traces or config answers
            return
        b, current = rec.boot_of(boot, mtype, seq, flags)
        if not current:
            rec.stale += 1
            self.stats["stale"] += 1
            return
        self._seen(rec, t)
        if mtype == proto.HELLO:
            rec.firmware = "%d.%d.%d" % fields[:3]
            self._ack(mac, mtype, boot, seq)
        elif mtype == proto.HEARTBEAT:
            rec.link_pct = None if fields[3] == proto.UNKNOWN_U8 else fields[3]
        elif mtype == proto.TSYNC_RESP:
            t1, t2, t3 = fields
            if not 0 <= t * 1e6 - t1 <= 10e6:
                self._malformed(rec)
            else:
                b.sync.add(t1, t2, t3, t * 1e6)

    def _try_pair(self, mtype: int, mac: bytes, kind: str, boot: int, seq: int, fields: tuple, t: float) -> bool:
        win = self._pair_window
        if win is None or mtype != proto.EVENT or proto.EVENT_KINDS[fields[0] - 1] == "rest":
            return False
        seat, deadline = win
        if t > deadline:
            self._pair_window = None
            return False
        self._pair_window = None
        p = self.pairings.pair(mac, kind, seat)
        self.last_paired = p
        dev = self._devices[mac] = _Device(p.name, mac, p.kind, p.seat)
        b, _ = dev.boot_of(boot, mtype, seq, 0)
        b.remember(seq)  # the shake that paired it is not a game event
        self._seen(dev, t)
        self._ack(mac, proto.EVENT, boot, seq)
        self.events.put(LinkEvent(t, p.name, p.kind, "paired", f"{p.mac} at seat {seat}"))
        self._paired.set()
        return True

    def _seen(self, dev: _Device, t: float) -> None:
        dev.last_seen = t
        if not dev.online:
            dev.online = True
            if dev is self._receiver:
                return  # the link itself already reported "online"
            self.events.put(LinkEvent(t, dev.name, dev.kind, "online", "frame received"))

    # ------------------------------------------------------------ periodic work

    def _sync_due(self, dev: _Device, now: float) -> bool:
        """Time-sync requests keep their rate: the next is due one period after the last was due, not after the
        tick that sent it (that lag made 20 Hz into 16.5 Hz)."""
        if now < dev.next_sync:
            return False
        period = self.sync_s if dev.sync.converged else self.sync_fast_s
        # a late tick is caught up (up to two periods behind); past that -- a stalled process -- the schedule restarts
        dev.next_sync = dev.next_sync + period if now - dev.next_sync < 2 * period else now + period
        return True

    def tick(self, now: float | None = None) -> None:
        """Send due time-sync requests and parameter pushes, mark silent devices offline, publish the status."""
        with self._lock:
            now = self.clock() if now is None else now
            for dev in self._devices.values():
                if dev.online and dev.last_seen is not None and now - dev.last_seen > self.offline_after_s:
                    dev.online = False
                    self.events.put(LinkEvent(now, dev.name, dev.kind, "offline",
                                              f"no frame for {now - dev.last_seen:.1f} s"))
                if dev.online and self.link.connected and self._sync_due(dev, now):
                    if self._send(proto.TSYNC_REQ, dev.mac, (int(self.clock() * 1e6),)):
                        self.stats["tsync_sent"] += 1
                if dev.online and self.link.connected:
                    self._push_config(dev, now)
            rec = self._receiver
            if rec is not None and rec.online and rec.last_seen is not None and \
                    now - rec.last_seen > self.offline_after_s:
                rec.online = False
            if rec is not None and rec.online and self.link.connected and self._sync_due(rec, now):
                if self._send(proto.TSYNC_REQ, rec.mac, (int(self.clock() * 1e6),)):
                    self.stats["tsync_sent"] += 1
            status = self.status
            snapshot = None
            if status is not None and status.due(now):
                snapshot = self._status_snapshot()
        if status is not None and snapshot is not None:
            status.write(snapshot)
        if self.params_path is not None and now >= self._params_next:
            self._params_next = now + 1.0
            self._watch_params(self.params_path)

    def _watch_params(self, path: Path) -> None:
        """Push the parameter file when it appears or changes; a bad file is reported, never raised.  A file is
        read once its stat held still for one poll: an editor or `traces push` caught mid-write (truncated, not yet
        written) is not a bad file."""
        try:
            st = path.stat()
        except OSError:
            return  # no file: the devices keep what they run
        seen = (st.st_mtime_ns, st.st_size)
        settled = seen == self._params_stat
        self._params_stat = seen
        if seen == self._params_seen or not settled:
            return
        self._params_seen = seen
        try:
            version, params = load_params(path)
        except ValueError as exc:
            self.params_error = str(exc)
            with self._lock:
                self.stats["params_errors"] += 1
            return
        self.params_error = ""
        cfg = self._config
        if cfg is None or cfg[0] != version or cfg[1] != params:
            self.push_config(version, params)
    def _push_config(self, dev: _Device, now: float) -> None:
        cfg = self._config
        if cfg is None or dev.cfg_state != "pushing" or now < dev.cfg_next:
            return
        version, _params, parts = cfg
        dev.cfg_interval = min(2.0, max(0.25, dev.cfg_interval * 2))
        dev.cfg_next = now + dev.cfg_interval
        for k, tail in enumerate(parts):
            if k not in dev.cfg_acked and self._send(proto.CONFIG, dev.mac, (version, k, len(parts)), tail):
                self.stats["config_sent"] += 1

    def _status_snapshot(self) -> dict:
        cfg = self._config
        return {"port": self.link.url, "connected": self.link.connected,
                "last_open_error": self.link.last_open_error, "counters": self.counters,
                "devices": [asdict(h) for h in self.health()],
                "paired": [asdict(p) for p in self.pairings.all()],
                "unpaired": dict(self.unpaired_seen),
                "config_version": cfg[0] if cfg is not None else None,
                "params_path": str(self.params_path) if self.params_path is not None else None,
                "params_error": self.params_error}

    def _next_due(self) -> float:
        """The earliest time-sync request due: the tick loop wakes for it instead of up to ``tick_s`` late."""
        with self._lock:
            devs = [d for d in self._devices.values() if d.online]
            if self._receiver is not None and self._receiver.online:
                devs.append(self._receiver)
            return min((d.next_sync for d in devs), default=float("inf"))

    def _tick_loop(self, stop: threading.Event) -> None:
        wait = self.tick_s
        while not stop.wait(wait):
            self.tick()
            wait = max(0.001, min(self.tick_s, self._next_due() - self.clock()))
