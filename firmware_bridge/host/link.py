"""The serial link to the receiver: open by VID:PID or path, read on a thread, reopen after an unplug.

The port is named as pyserial URL: ``hwgrep://303a:1001`` (first port whose hardware id matches the USB VID:PID, found
again after every replug even if it comes back as another ttyACM) or a path such as ``/dev/ttyACM0`` or a
symlink. The reader is the loop of ``serial.threaded.ReaderThread``, widened so that any OSError (USB gone, pty hung
up) ends the connection instead of killing the thread, and put inside a retry loop that reopens the port every
``retry_s`` -- so the program survives an unplug and is reading again within about ``retry_s`` of the replug. The
loop is a supervised part ("receiver link"): anything else it raises is logged once and the loop restarts.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import serial

from firmware_bridge.supervise import Supervised

BAUD = 921600  # USB CDC ignores it; a UART bridge on the receiver would use it


class SerialLink:
    """Owns the port and the reader thread; calls ``on_data(bytes, t)``, ``on_up()`` and ``on_down(reason)``.

    ``t`` is the host clock (``clock()``, seconds) read right after the bytes came back from the OS.
    """

    def __init__(self, url: str, on_data: Callable[[bytes, float], None], on_up: Callable[[], None],
                 on_down: Callable[[str], None], clock: Callable[[], float] = time.monotonic,
                 retry_s: float = 0.1, baudrate: int = BAUD) -> None:
        self.url = url
        self.on_data = on_data
        self.on_up = on_up
        self.on_down = on_down
        self.clock = clock
        self.retry_s = retry_s
        self.baudrate = baudrate
        self._ser: serial.SerialBase | None = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self.part: Supervised | None = None
        self.connects = 0
        self.disconnects = 0
        self.write_failures = 0
        self.last_open_error = ""
        self.handler_errors = 0

    @property
    def connected(self) -> bool:
        return self._ser is not None

    def start(self) -> None:
        self.part = Supervised("receiver link", self._run, stop=self._stop, backoff=(0.05, 2.0)).start()

    def stop(self) -> None:
        self._stop.set()
        ser = self._ser
        if ser is not None:
            try:
                ser.cancel_read()
            except Exception:  # noqa: BLE001 - best effort wake-up; the read timeout ends it anyway
                pass
        if self.part is not None:
            self.part.stop()
        self._close("stopped")

    def write(self, data: bytes) -> bool:
        """Send bytes; False (and counted) when the port is gone -- the device resends, nothing is lost."""
        ser = self._ser
        if ser is None:
            self.write_failures += 1
            return False
        try:
            with self._write_lock:
                ser.write(data)
            return True
        except (serial.SerialException, OSError, TypeError, AttributeError):
            self.write_failures += 1
            return False

    def _open(self) -> bool:
        try:
            ser = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0.2, write_timeout=0.5,
                                        exclusive=True)
        except (serial.SerialException, OSError, ValueError) as exc:
            self.last_open_error = str(exc)
            return False
        self._ser = ser
        self.connects += 1
        self.on_up()
        return True

    def _close(self, reason: str) -> None:
        ser, self._ser = self._ser, None
        if ser is None:
            return
        try:
            ser.close()
        except Exception:  # noqa: BLE001 - the port is already gone
            pass
        self.disconnects += 1
        self.on_down(reason)

    def _run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            ser = self._ser
            if ser is None:
                if not self._open():
                    self._stop.wait(self.retry_s)
                continue
            try:
                data = ser.read(ser.in_waiting or 1)
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                if not self._stop.is_set():
                    self._close(f"read failed: {exc}")
                continue
            if data:
                try:
                    self.on_data(data, self.clock())
                except Exception:  # noqa: BLE001 - a bug downstream must not stop the reader; it is counted
                    self.handler_errors += 1
