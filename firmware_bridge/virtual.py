"""Virtual burritos, badges and receiver that speak the real protocol over a pseudo-terminal.

The host cannot tell a ``VirtualTable`` from a real receiver: it opens the pty slave (or a symlink to it) with
pyserial, and every byte it reads was framed by the same ``proto.Node``/``proto.Relay`` code the firmware runs. Between
the devices and the virtual receiver sits a simulated radio (delay, jitter, 100 ms spikes, loss), and each device has
its own drifting clock, so clock sync, resends and de-duplication are exercised for real.

Devices are driven by scripts: ``emit(device, kind, at=...)`` for an event at a true host time, or ``play_trace`` to
run accelerometer samples through part A's detector (``firmware_bridge.firmware.detector.Detector``) exactly as the
firmware would. A device added with ``gyro=True`` is one whose gyroscope is on (protocol 1.2): it plays rows with the
angular rate, feeds it to its detector, says so in HELLO and sends its traces as TRACE6 chunks. ``truth`` records what really happened, for tests and benchmarks.

Everything runs on one thread (an event loop over a heap of due actions plus ``select`` on the pty), so no locks are
needed inside; the public methods hand work to that thread through a queue. The thread is a supervised part ("virtual
devices"): an exception in the loop is logged once and the loop restarts with the devices as they were.

A device has one sensor: a trace played while an earlier one is still playing on the same device takes over from its
start (the earlier one stops there), so the device's sample stream runs forward in time as a real sensor's does.
"""

from __future__ import annotations

import heapq
import itertools
import os
import pty
import queue
import random
import select
import threading
import time
import tty
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge.firmware import proto, tracebuf
from firmware_bridge.supervise import Supervised
from firmware_bridge.tracefile import Row

KIND_CODES = {"burrito": proto.KIND_BURRITO, "badge": proto.KIND_BADGE}


@dataclass
class Radio:
    """One-way radio delay model: ``delay_ms`` uniform range, ``spike_p`` chance of +``spike_ms``, ``loss`` chance."""

    delay_ms: tuple[float, float] = (1.0, 3.0)
    loss: float = 0.0
    spike_p: float = 0.0
    spike_ms: float = 100.0

    def delay(self, rng: random.Random) -> float | None:
        """Seconds until delivery, or None if the packet is lost."""
        if self.loss and rng.random() < self.loss:
            return None
        d = rng.uniform(*self.delay_ms)
        if self.spike_p and rng.random() < self.spike_p:
            d += self.spike_ms
        return d / 1000.0


@dataclass(frozen=True)
class TruthEvent:
    """What physically happened: true host time ``t`` (``time.monotonic``), device label, kind."""

    t: float
    device: str
    kind: str
    device_t_us: int


@dataclass
class VirtualDevice:
    """A burrito or badge: a MAC, a drifting clock and the firmware's ``proto.Node``."""

    name: str
    kind: str
    mac: bytes
    drift_ppm: float = 0.0
    offset_us: int = 0
    heartbeat_s: float = 1.0
    resend_s: float = 0.06
    battery_mv: int = 3900
    powered: bool = True
    rate_hz: int = 833
    #: the gyroscope is on: samples carry the angular rate (rad/s) to the detector and into TRACE6 chunks
    gyro: bool = False
    node: proto.Node | None = field(default=None, repr=False)
    #: the ring of raw samples, as on the firmware (filled by ``play_trace``)
    traces: tracebuf.TraceBuffer | None = field(default=None, repr=False)
    #: detector parameters pushed by the host (CONFIG), kept across reboots as the firmware keeps params.json
    params: dict = field(default_factory=dict)
    params_version: int = 0
    _trace: list = field(default_factory=list, repr=False)

    def device_us(self, host_t: float) -> int:
        """This device's clock at true host time ``host_t`` (seconds)."""
        return int(self.offset_us + host_t * 1e6 * (1.0 + self.drift_ppm * 1e-6))


class VirtualTable:
    """A virtual receiver on a pty plus any number of virtual devices behind a simulated radio.

    ``link``: optional symlink path kept pointing at the current pty slave -- open that path in the host, and
    ``unplug()``/``replug()`` behave like pulling the USB cable and plugging it back in.
    """

    def __init__(self, link: str | os.PathLike[str] | None = None, radio: Radio | None = None, seed: int = 0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.link = Path(link) if link is not None else None
        self.radio = radio or Radio()
        self.rng = random.Random(seed)
        self.clock = clock
        self.devices: dict[str, VirtualDevice] = {}
        self.truth: list[TruthEvent] = []
        self.wire_times: dict[tuple[str, int], float] = {}  # (device, seq) -> clock() after the EVENT frame hit the pty
        self.lost_to_host = 0  # frames the relay could not write (unplugged / host not reading)
        self._master: int | None = None
        self._slave: int | None = None
        self.slave_name = ""
        self._heap: list = []
        self._count = itertools.count()
        self._cmds: queue.Queue = queue.Queue()
        self.part: Supervised | None = None
        self._mac_serial = itertools.count(1)
        self.relay = self._new_relay()

    # ------------------------------------------------------------ set-up (before or after start)

    @property
    def path(self) -> str:
        """What the host should open."""
        return str(self.link) if self.link is not None else self.slave_name

    def add(self, kind: str, name: str | None = None, *, drift_ppm: float | None = None,
            offset_us: int | None = None, heartbeat_s: float = 1.0, resend_s: float = 0.06,
            gyro: bool = False) -> VirtualDevice:
        """A new device; drift and offset are random (seeded) unless given; ``gyro``: its gyroscope is on."""
        if kind not in KIND_CODES:
            raise ValueError(f"virtual device kind must be burrito or badge, not {kind!r}")
        n = next(self._mac_serial)
        if name is None:
            name = f"{kind}-{sum(1 for d in self.devices.values() if d.kind == kind) + 1}"
        if name in self.devices:
            raise ValueError(f"virtual device {name!r} exists")
        mac = bytes((0x02, 0xB0, 0x77, KIND_CODES[kind], n >> 8, n & 0xFF))
        dev = VirtualDevice(name, kind, mac,
                            drift_ppm=self.rng.uniform(-100, 100) if drift_ppm is None else drift_ppm,
                            offset_us=self.rng.randrange(1, 2**40) if offset_us is None else offset_us,
                            heartbeat_s=heartbeat_s, resend_s=resend_s, gyro=gyro)
        self._attach(dev)
        self.devices[name] = dev
        return dev

    def pair_all(self, store) -> None:  # store: firmware_bridge.host.PairingStore (host side; not imported here)
        """Pair every virtual device under its own name, as if each had been shaken at a seat: ``badge-N`` is worn
        at seat N (so a table fed by it maps every badge); burritos belong to the table, not to a seat."""
        for dev in self.devices.values():
            seat = int(dev.name.rsplit("-", 1)[1]) if dev.kind == "badge" and dev.name.rsplit("-", 1)[-1].isdigit() \
                else None
            store.pair(dev.mac, dev.kind, seat, name=dev.name)

    def _attach(self, dev: VirtualDevice) -> None:
        """Boot the device: a new boot id, the firmware's Node and trace ring, its saved parameters."""
        caps = proto.CAP_ACCEL | proto.CAP_BATTERY | (
            proto.CAP_DETECT_BURRITO if dev.kind == "burrito" else proto.CAP_DETECT_BADGE) | (
            proto.CAP_GYRO if dev.gyro else 0)
        dev.traces = tracebuf.TraceBuffer(dev.rate_hz, gyro=dev.gyro)

        def apply(params: dict, version: int, d: VirtualDevice = dev) -> None:
            from firmware_bridge.firmware.detector import Detector

            Detector(d.kind, params)  # as the firmware's configure: an unknown name raises ValueError
            d.params = dict(params)

        dev.node = proto.Node(dev.mac, KIND_CODES[dev.kind], self.rng.getrandbits(16),
                              lambda d=dev: d.device_us(self.clock()),
                              lambda packet, d=dev: self._radio_up(d, packet),
                              caps=caps, rate_hz=dev.rate_hz, resend_us=int(dev.resend_s * 1e6),
                              heartbeat_us=int(dev.heartbeat_s * 1e6),
                              battery=lambda d=dev: (d.battery_mv, max(0, min(100, (d.battery_mv - 3300) // 9))),
                              traces=dev.traces, apply_config=apply, params_version=dev.params_version)

    def _new_relay(self) -> proto.Relay:
        mac = bytes((0x02, 0xB0, 0x77, 0x00, 0x00, 0x01))
        return proto.Relay(mac, self.rng.getrandbits(16), lambda: int(self.clock() * 1e6), self._to_host,
                           self._radio_down)

    # ------------------------------------------------------------ lifecycle

    def start(self) -> VirtualTable:
        self._open_pty()
        self.part = Supervised("virtual devices", self._run, backoff=(0.05, 2.0)).start()
        self.call(self._boot_all)
        return self

    def stop(self) -> None:
        if self.part is not None:
            self.part.stop()
        self._close_pty()
        if self.link is not None:
            try:
                self.link.unlink()
            except FileNotFoundError:
                pass

    def __enter__(self) -> VirtualTable:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def call(self, fn: Callable[[], object]) -> None:
        """Run ``fn`` on the table thread (all device state lives there)."""
        self._cmds.put(fn)

    def _boot_all(self) -> None:
        self.relay.node.hello()
        for dev in self.devices.values():
            if dev.powered and dev.node is not None:
                dev.node.hello()

    # ------------------------------------------------------------ scripts

    def emit(self, device: str, kind: str, at: float | None = None, peak_g: float | None = None) -> None:
        """The device detects ``kind`` at true host time ``at`` (default now); sent when that time has come."""
        if kind not in proto.EVENT_KINDS:
            raise ValueError(f"unknown event kind {kind!r}")
        dev = self.devices[device]
        t = self.clock() if at is None else at

        def fire() -> None:
            if not dev.powered or dev.node is None:
                return
            t_us = dev.device_us(t)
            seq = dev.node.event(kind, t_us, peak_g)
            self.truth.append(TruthEvent(t, dev.name, kind, t_us))
            self.wire_times.setdefault((dev.name, seq), 0.0)

        self.call(lambda: self._at(max(t, self.clock()), fire))

    def play_script(self, script: Iterable[tuple[float, str, str, float | None]], start: float | None = None) -> None:
        """Rows of (seconds after start, device, kind, peak_g)."""
        t0 = self.clock() if start is None else start
        for dt, device, kind, peak in script:
            self.emit(device, kind, t0 + dt, peak)

    def play_trace(self, device: str, samples: Iterable[Row], start: float | None = None) -> None:
        """Feed (t_us from trace start, ax, ay, az) samples through the real detector as the clock reaches them.

        Rows (t_us, ax, ay, az, gx, gy, gz) bring the angular rate in rad/s: a device with its gyroscope on needs it
        on every row (ValueError otherwise) and feeds it to its detector and trace ring; a device with it off never
        sees it, as on the firmware.
        """
        try:
            from firmware_bridge.firmware.detector import Detector
        except ImportError as exc:  # part A not installed yet
            raise RuntimeError(f"play_trace needs firmware_bridge.firmware.detector: {exc}") from None
        dev = self.devices[device]
        t0 = self.clock() if start is None else start
        rows: list[Row] = list(samples)
        if dev.gyro:
            bad = next((i for i, r in enumerate(rows) if len(r) != 7), None)
            if bad is not None:
                raise ValueError(f"{device} has its gyroscope on: row {bad} has no angular rate")
        else:
            rows = [(r[0], r[1], r[2], r[3]) for r in rows]

        def begin() -> None:
            det = Detector(dev.kind, dev.params or None)
            base = dev.device_us(t0)
            for tr in dev._trace:
                tr[5][0] = min(tr[5][0], t0)  # one sensor: the earlier trace ends where this one starts
            dev._trace.append((det, iter(rows), t0, base, [None], [float("inf")]))

        self.call(begin)

    def _feed_traces(self, now: float) -> None:
        for dev in self.devices.values():
            for tr in list(dev._trace):
                det, it, t0, base, nxt, until = tr
                while True:
                    row = nxt[0] if nxt[0] is not None else next(it, None)
                    if row is None or t0 + row[0] / 1e6 >= until[0]:
                        dev._trace.remove(tr)
                        break
                    if t0 + row[0] / 1e6 > now:
                        nxt[0] = row
                        break
                    nxt[0] = None
                    t_dev = base + int(row[0])
                    if dev.powered and dev.traces is not None:
                        dev.traces.add(t_dev, *row[1:])
                    for t_us, kind, peak in det.feed(t_dev, *row[1:]):
                        if dev.powered and dev.node is not None:
                            host_t = t0 + (t_us - base) / 1e6
                            dev.node.event(kind, t_us, peak)
                            self.truth.append(TruthEvent(host_t, dev.name, kind, t_us))

    def power(self, device: str, on: bool) -> None:
        """Switch a device off (silent, deaf: the host should mark it offline) or back on (it reboots)."""
        dev = self.devices[device]

        def set_power() -> None:
            dev.powered = on
            if on:
                self._attach(dev)
                assert dev.node is not None
                dev.node.hello()

        self.call(set_power)

    # ------------------------------------------------------------ plug

    def unplug(self, mid_frame: bool = False) -> None:
        """Pull the USB cable; with ``mid_frame`` the host first receives half a frame."""
        done = threading.Event()

        def close() -> None:
            self._close_pty()
            done.set()

        def pull() -> None:
            if mid_frame and self._master is not None:
                half = proto.frame(proto.seal(proto.pack(proto.HEARTBEAT, proto.KIND_RECEIVER, self.relay.node.mac,
                                                         0, 0, (0, 0, 0, 0, 0, 0, 0))))
                try:
                    os.write(self._master, half[: len(half) // 2])
                except OSError:
                    pass
                self._at(self.clock() + 0.05, close)  # the half frame reaches the host, then the cable goes
            else:
                close()

        self.call(pull)
        done.wait(2.0)

    def replug(self) -> None:
        """Plug back in: a new pty (as after a real replug) and a rebooted receiver."""
        done = threading.Event()

        def plug() -> None:
            self._open_pty()
            self.relay = self._new_relay()
            self.relay.node.hello()
            done.set()

        self.call(plug)
        done.wait(2.0)

    def _open_pty(self) -> None:
        master, slave = pty.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.slave_name = os.ttyname(slave)
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            try:
                tmp.unlink()
            except FileNotFoundError:
                pass
            os.symlink(self.slave_name, tmp)
            os.replace(tmp, self.link)

    def _close_pty(self) -> None:
        for fd in (self._master, self._slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = None

    # ------------------------------------------------------------ the simulated radio and receiver

    def _at(self, t: float, fn: Callable[[], object]) -> None:
        heapq.heappush(self._heap, (t, next(self._count), fn))

    def _radio_up(self, dev: VirtualDevice, packet: bytes) -> None:
        if not dev.powered:
            return
        d = self.radio.delay(self.rng)
        if d is not None:
            self._at(self.clock() + d, lambda: self.relay.from_radio(dev.mac, packet))

    def _radio_down(self, mac: bytes, packet: bytes) -> None:
        dev = next((d for d in self.devices.values() if d.mac == mac), None)
        if dev is None:
            return  # nobody with that MAC on the air
        d = self.radio.delay(self.rng)
        if d is None:
            return

        def deliver() -> None:
            if dev.powered and dev.node is not None:
                dev.node.on_packet(packet, dev.device_us(self.clock()))

        self._at(self.clock() + d, deliver)

    def _to_host(self, data: bytes) -> None:
        if self._master is None:
            self.lost_to_host += 1
            return
        try:
            n = os.write(self._master, data)
        except OSError:
            self.lost_to_host += 1
            return
        if n != len(data):
            self.lost_to_host += 1
            return
        if len(data) > 20:
            try:
                mtype, _k, _f, mac, _b, seq, _fl = proto.unpack(proto.cobs_decode(data[:-1])[:-2])
            except proto.ProtocolError:
                return
            if mtype == proto.EVENT:
                name = next((d.name for d in self.devices.values() if d.mac == mac), "")
                if self.wire_times.get((name, seq), 1.0) == 0.0:
                    self.wire_times[(name, seq)] = self.clock()

    def _run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            while True:
                try:
                    self._cmds.get_nowait()()
                except queue.Empty:
                    break
            now = self.clock()
            while self._heap and self._heap[0][0] <= now:
                heapq.heappop(self._heap)[2]()
            self._feed_traces(now)
            for dev in self.devices.values():
                if dev.powered and dev.node is not None:
                    dev.node.poll()
                    if dev.node.params_version != dev.params_version:
                        dev.params_version = dev.node.params_version  # survives a reboot, as params.json does
            self.relay.node.poll()
            wait = 0.002
            if self._heap:
                wait = max(0.0, min(wait, self._heap[0][0] - self.clock()))
            master = self._master
            if master is None:
                stop.wait(wait)
                continue
            try:
                ready, _, _ = select.select([master], [], [], wait)
            except (OSError, ValueError):
                continue
            if ready:
                try:
                    data = os.read(master, 4096)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    continue
                self.relay.from_host(data, int(self.clock() * 1e6))


def simulate_clock_sync(seed: int, duration_s: float = 300.0, drift_ppm: float | None = None,
                        delay_ms: tuple[float, float] = (1.0, 20.0), spike_p: float = 0.03, spike_ms: float = 100.0,
                        loss: float = 0.05, fast_hz: float = 20.0, steady_hz: float = 4.0,
                        settle_s: float = 0.0) -> list[float]:
    """Clock sync against a simulated device, no sleeping: returns |table-time error| in seconds at random event times.

    Same schedule as DeviceHost (``fast_hz`` requests until converged, then ``steady_hz``); each request and reply is
    lost with ``loss / 2``, one-way delays are uniform in ``delay_ms`` plus a ``spike_ms`` spike with ``spike_p``,
    drift is +-50..100 ppm unless given. Errors are sampled only once the host calls the clock synced (events before
    that wait unacked on the device) and after ``settle_s``.
    """
    from firmware_bridge.host.clocksync import ClockSync

    rng = random.Random(seed)
    drift = (drift_ppm if drift_ppm is not None else rng.choice((-1, 1)) * rng.uniform(50, 100)) * 1e-6
    off0 = rng.uniform(-1e9, 1e9)

    def dev(h: float) -> float:
        return off0 + h * (1.0 + drift)

    def one_way() -> float:
        d = rng.uniform(delay_ms[0], delay_ms[1]) * 1000
        return d + spike_ms * 1000 if rng.random() < spike_p else d

    cs = ClockSync()
    h, errs = 0.0, []
    while h < duration_s * 1e6:
        if rng.random() >= loss:
            d1, d2, proc = one_way(), one_way(), rng.uniform(100, 2000)
            cs.add(h, dev(h + d1), dev(h + d1 + proc), h + d1 + proc + d2)
        period = 1e6 / (steady_hz if cs.converged else fast_hz)
        if cs.synced and h >= settle_s * 1e6:
            for _ in range(3):
                q = h + rng.uniform(0, period)
                errs.append(abs(cs.to_host_us(dev(q)) - q) / 1e6)
        h += period
    return errs
