"""The device host: bytes from the receiver in, trustworthy device events on table time out.

Rules it keeps (PROTOCOL.md, "Host duties"):
- An event is acknowledged only after it is in the output queue, so an acknowledged event is never lost; a repeat of an
  acknowledged (boot, seq) is acknowledged again (the first ack may have been lost) but never delivered twice.
- An event from a device whose clock is not yet synchronised is not acknowledged: the device keeps resending it and it
  is delivered, with a proper table time, once the clock is synchronised. Arrival time is never used as event time.
- Only paired devices count. Frames from others, corrupt frames, malformed messages and duplicates are dropped and each
  drop is counted in ``stats`` (link-wide) or in the device's health record.
"""

from __future__ import annotations

import queue
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.firmware import proto
from firmware_bridge.host.clocksync import ClockSync
from firmware_bridge.host.events import DeviceEvent, HeartbeatEvent, LinkEvent
from firmware_bridge.host.link import SerialLink
from firmware_bridge.host.pairing import Pairing, PairingStore

RECEIVER = "receiver"
HOST_MAC = b"\x00\x00\x00\x00\x00\x00"
DEDUPE_WINDOW = proto.DEDUPE_WINDOW  # devices never resend older than proto.MAX_SEQ_AGE


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
    rtt_us: float | None
    events: int
    duplicates: int
    deferred: int
    malformed: int
    device_pending: int
    device_gave_up: int


class _Device:
    """Mutable per-device state; only touched under DeviceHost._lock."""

    def __init__(self, name: str, mac: bytes, kind: str, seat: int | None) -> None:
        self.name, self.mac, self.kind, self.seat = name, mac, kind, seat
        self.online = False
        self.last_seen: float | None = None
        self.firmware = ""
        self.battery_mv: int | None = None
        self.battery_pct: int | None = None
        self.link_pct: int | None = None
        self.rssi: int | None = None
        self.boot: int | None = None
        self.sync = ClockSync()
        self.next_sync = 0.0
        self.seen: set[int] = set()
        self.max_seq = 0
        self.events = self.duplicates = self.deferred = self.malformed = 0
        self.device_pending = self.device_gave_up = 0

    def health(self) -> DeviceHealth:
        s = self.sync
        return DeviceHealth(self.name, proto.mac_str(self.mac), self.kind, self.seat, self.online, self.last_seen,
                            self.firmware, self.battery_mv, self.battery_pct, self.link_pct, self.rssi, s.synced,
                            s.offset_us, s.drift_ppm, s.accepted, s.rejected_rtt + s.rejected_outlier, s.last_rtt_us,
                            self.events, self.duplicates, self.deferred, self.malformed, self.device_pending,
                            self.device_gave_up)

    def new_boot(self, boot: int) -> None:
        """The device restarted: new clock, new sequence numbers."""
        self.boot = boot
        self.sync.reset()
        self.seen.clear()
        self.max_seq = 0
        self.next_sync = 0.0

    def is_duplicate(self, seq: int) -> bool:
        if seq in self.seen or seq <= self.max_seq - DEDUPE_WINDOW:
            return True
        return False

    def remember(self, seq: int) -> None:
        self.seen.add(seq)
        if seq > self.max_seq:
            self.max_seq = seq
        if len(self.seen) > 2 * DEDUPE_WINDOW:  # amortised: at most one prune per DEDUPE_WINDOW events
            floor = self.max_seq - DEDUPE_WINDOW
            self.seen = {s for s in self.seen if s > floor}


class DeviceHost:
    """Runs the serial link, the protocol, the registry and clock sync; events go to ``self.events``.

    ``port``: pyserial URL or path (``hwgrep://VID:PID``, ``/dev/ttyACM0``). ``clock``: the host clock, seconds
    (``time.monotonic``; table time is this clock).
    """

    def __init__(self, port: str, pairings: PairingStore | None = None, events: queue.Queue | None = None, *,
                 clock: Callable[[], float] = time.monotonic, offline_after_s: float = 3.0,
                 sync_fast_hz: float = 20.0, sync_hz: float = 4.0, tick_s: float = 0.02,
                 retry_s: float = 0.1) -> None:
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
                      "events": 0, "acks_sent": 0, "tsync_sent": 0, "kind_mismatch": 0, "write_failures": 0}
        self.link = SerialLink(port, self.process, self._link_up, self._link_down, clock=clock, retry_s=retry_s)
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    # ------------------------------------------------------------ lifecycle

    def start(self) -> DeviceHost:
        self.link.start()
        self._ticker = threading.Thread(target=self._tick_loop, name="device-host tick", daemon=True)
        self._ticker.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join(timeout=2.0)
        self.link.stop()

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
            devs = list(self._devices.values())
            if self._receiver is not None:
                devs.insert(0, self._receiver)
            return [d.health() for d in devs]

    # ------------------------------------------------------------ pairing

    def open_pairing(self, seat: int | None, seconds: float = 10.0) -> None:
        """Seat button held: the next unpaired burrito or badge that reports motion within ``seconds`` is paired."""
        with self._lock:
            self._pair_window = (seat, self.clock() + seconds)
            self._paired.clear()

    def wait_paired(self, timeout: float) -> Pairing | None:
        return self.last_paired if self._paired.wait(timeout) else None

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

    def _send(self, mtype: int, mac: bytes, fields: tuple) -> bool:
        self._seq = (self._seq + 1) & 0xFFFFFFFF
        body = proto.pack(mtype, proto.KIND_HOST, mac, self._boot, self._seq, fields)
        return self.link.write(proto.frame(proto.seal(body)))

    def _ack(self, mac: bytes, mtype: int, boot: int, seq: int) -> None:
        if self._send(proto.ACK, mac, (mtype, boot, seq)):
            self.stats["acks_sent"] += 1

    def _on_packet(self, packet: bytes, t: float) -> None:
        try:
            mtype, dkind, _flags, mac, boot, seq, fields = proto.unpack(packet[:-2])
        except proto.ProtocolError:
            self.stats["malformed"] += 1
            return
        if dkind == proto.KIND_RECEIVER:
            self._on_receiver(mtype, mac, boot, seq, fields, t)
            return
        if dkind == proto.KIND_HOST:
            self.stats["malformed"] += 1  # our own kind coming back: a loop or a confused device
            return
        kind = proto.DEVICE_KINDS[dkind]
        pairing = self.pairings.get(mac)
        if pairing is None:
            if not self._try_pair(mtype, mac, kind, boot, seq, fields, t):
                self.stats["unpaired"] += 1
                key = proto.mac_str(mac)
                self.unpaired_seen[key] = self.unpaired_seen.get(key, 0) + 1
            return
        if pairing.kind != kind:
            self.stats["kind_mismatch"] += 1
            return
        dev = self._devices.get(mac)
        if dev is None:
            dev = self._devices[mac] = _Device(pairing.name, mac, pairing.kind, pairing.seat)
        self._seen(dev, t)
        if dev.boot != boot:
            dev.new_boot(boot)
        if mtype == proto.EVENT:
            self._on_event(dev, boot, seq, fields)
        elif mtype == proto.TSYNC_RESP:
            t1, t2, t3 = fields
            t4 = t * 1e6
            if not 0 <= t4 - t1 <= 10e6:
                dev.malformed += 1  # not an answer to any request of this host in the last 10 s
            else:
                dev.sync.add(t1, t2, t3, t4)
        elif mtype == proto.HEARTBEAT:
            _t, mv, pct, link, rssi, pending, gave_up = fields
            dev.battery_mv = None if mv == proto.USB_POWERED_MV else mv
            dev.battery_pct = None if pct == proto.UNKNOWN_U8 else pct
            dev.link_pct = None if link == proto.UNKNOWN_U8 else link
            dev.rssi = None if rssi == proto.UNKNOWN_RSSI else rssi
            dev.device_pending, dev.device_gave_up = pending, gave_up
            if dev.sync.synced:  # on table time, or not at all: an arrival time proves nothing
                self.events.put(HeartbeatEvent(dev.sync.to_host_us(_t) / 1e6, dev.name, dev.kind, pending, gave_up,
                                               dev.battery_pct, dev.link_pct))
        elif mtype == proto.HELLO:
            dev.firmware = "%d.%d.%d" % fields[:3]
            self._ack(mac, mtype, boot, seq)
        else:
            dev.malformed += 1  # ACK / TSYNC_REQ are host -> device only

    def _on_event(self, dev: _Device, boot: int, seq: int, fields: tuple) -> None:
        code, t_us, peak_mg = fields
        if dev.is_duplicate(seq):
            dev.duplicates += 1
            self.stats["duplicate"] += 1
            self._ack(dev.mac, proto.EVENT, boot, seq)
            return
        if not dev.sync.synced:
            dev.deferred += 1
            self.stats["deferred_unsynced"] += 1
            return  # not acked: the device resends it until the clock is synchronised
        t = dev.sync.to_host_us(t_us) / 1e6
        self.events.put(DeviceEvent(t, dev.name, dev.kind, proto.EVENT_KINDS[code - 1], seq, t_us,
                                    proto.mg_to_peak(peak_mg)))
        dev.remember(seq)
        dev.events += 1
        self.stats["events"] += 1
        self._ack(dev.mac, proto.EVENT, boot, seq)

    def _on_receiver(self, mtype: int, mac: bytes, boot: int, seq: int, fields: tuple, t: float) -> None:
        rec = self._receiver
        if rec is None or rec.mac != mac:
            rec = self._receiver = _Device(RECEIVER, mac, "receiver", None)
        self._seen(rec, t)
        rec.boot = boot
        if mtype == proto.HELLO:
            rec.firmware = "%d.%d.%d" % fields[:3]
            self._ack(mac, mtype, boot, seq)
        elif mtype == proto.HEARTBEAT:
            rec.link_pct = None if fields[3] == proto.UNKNOWN_U8 else fields[3]
        elif mtype == proto.TSYNC_RESP:
            rec.sync.add(fields[0], fields[1], fields[2], t * 1e6)

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
        dev.boot = boot
        dev.remember(seq)  # the shake that paired it is not a game event
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

    def tick(self, now: float | None = None) -> None:
        """Send due time-sync requests and mark silent devices offline."""
        with self._lock:
            now = self.clock() if now is None else now
            for dev in self._devices.values():
                if dev.online and dev.last_seen is not None and now - dev.last_seen > self.offline_after_s:
                    dev.online = False
                    self.events.put(LinkEvent(now, dev.name, dev.kind, "offline",
                                              f"no frame for {now - dev.last_seen:.1f} s"))
                if dev.online and now >= dev.next_sync and self.link.connected:
                    dev.next_sync = now + (self.sync_s if dev.sync.converged else self.sync_fast_s)
                    if self._send(proto.TSYNC_REQ, dev.mac, (int(self.clock() * 1e6),)):
                        self.stats["tsync_sent"] += 1
            rec = self._receiver
            if rec is not None and rec.online and rec.last_seen is not None and \
                    now - rec.last_seen > self.offline_after_s:
                rec.online = False

    def _tick_loop(self) -> None:
        while not self._stop.wait(self.tick_s):
            self.tick()
