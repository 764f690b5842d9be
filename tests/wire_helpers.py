"""A receiver played byte for byte on a real pty, for the device host's tests.

The test holds the pty master; the host opens the slave with pyserial exactly as it opens a real receiver. The fake
answers time-sync requests for the MACs in ``sync_macs`` as a device whose clock is host + 5 s, under that MAC's
current boot id (``boots``), as a device would after a reboot.
"""

from __future__ import annotations

import os
import pty
import select
import time
import tty

from firmware_bridge.firmware import proto

BOOT = 321


class FakeReceiver:
    """The master side of a pty: write device frames, read what the host sends back."""

    def __init__(self) -> None:
        self.master, slave = pty.openpty()
        tty.setraw(slave)
        self.slave = slave
        self.path = os.ttyname(slave)
        self.deframer = proto.Deframer()
        self.from_host: list[tuple] = []
        self.times: list[float] = []  # monotonic time each host frame was read
        self.sync_macs: set[bytes] = set()
        self.boots: dict[bytes, int] = {}
        self.kinds: dict[bytes, int] = {}

    def send(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = os.write(self.master, view)
            view = view[n:]

    def pump(self, until, timeout: float = 5.0) -> None:
        """Read host frames until ``until(self)`` holds; fails after ``timeout``."""
        end = time.monotonic() + timeout
        while not until(self):
            left = end - time.monotonic()
            assert left > 0, "host did not answer in time"
            self.read(min(left, 0.05))

    def read(self, wait: float) -> None:
        if select.select([self.master], [], [], wait)[0]:
            now = time.monotonic()
            for packet in self.deframer.feed(os.read(self.master, 65536)):
                self.from_host.append(proto.unpack(proto.unseal(packet)))
                self.times.append(now)
                self.answer_sync(self.from_host[-1])

    def answer_sync(self, msg: tuple) -> None:
        """Answer time-sync requests at once, as a device whose clock is host + 5 s."""
        mtype, _k, _f, mac, _b, _s, fields = msg
        if mtype == proto.TSYNC_REQ and mac in self.sync_macs:
            now = int(time.monotonic() * 1e6) + 5_000_000
            self.send(frame(proto.TSYNC_RESP, mac, 0, (fields[0], now, now), self.kinds.get(mac, proto.KIND_BURRITO),
                            boot=self.boots.get(mac, BOOT)))

    def ack_list(self, mac: bytes, mtype: int = proto.EVENT, boot: int | None = None) -> list[int]:
        """Sequence numbers the host acknowledged for ``mac`` (every ack, repeats included)."""
        return [m[6][2] for m in self.from_host if m[0] == proto.ACK and m[3] == mac and m[6][0] == mtype
                and (boot is None or m[6][1] == boot)]

    def acks(self, mac: bytes, mtype: int = proto.EVENT, boot: int | None = None) -> set[int]:
        return set(self.ack_list(mac, mtype, boot))

    def requests(self, mac: bytes, mtype: int = proto.TSYNC_REQ) -> list[float]:
        """When the host's frames of ``mtype`` to ``mac`` were read."""
        return [t for m, t in zip(self.from_host, self.times) if m[0] == mtype and m[3] == mac]

    def close(self) -> None:
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


def frame(mtype: int, mac: bytes, seq: int, fields: tuple, kind: int = proto.KIND_BURRITO, boot: int = BOOT,
          flags: int = 0, tail: bytes = b"") -> bytes:
    return proto.frame(proto.seal(proto.pack(mtype, kind, mac, boot, seq, fields, flags=flags, tail=tail)))


def event_frame(mac: bytes, seq: int, kind: int = proto.KIND_BURRITO, boot: int = BOOT, flags: int = 0,
                t_us: int | None = None) -> bytes:
    """An impact stamped ``t_us`` (default 5 s + seq ms on the device clock)."""
    return frame(proto.EVENT, mac, seq, (3, 5_000_000 + seq * 1000 if t_us is None else t_us, 1500), kind,
                 boot=boot, flags=flags)
