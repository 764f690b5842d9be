"""MCP23017 I2C port expanders for tables with more buttons than the header has.

Each chip gives 16 inputs (4 seats of 4 buttons).  Its INTA line, with
``IOCON.MIRROR`` so either port raises it, goes to a GPIO.  The GPIO callback
only enqueues the edge time; an :class:`ExpanderInputs` worker thread then
reads INTF, INTCAP and GPIO of both ports in one 6-byte I2C transaction
(~0.25 ms at 400 kHz) and turns changed bits into button edges:

* bits flagged in INTF changed at the INT edge: they get its timestamp;
* any other difference between the last known state and GPIO happened while
  the interrupt was pending (the chip does not re-interrupt then): those get
  the read time.

A slow safety poll re-reads a chip whose INT line is still asserted (a missed
edge) and retries a chip that stopped answering, which is reported once as a
:class:`~hardware.events.Fault`.  The bus is any object with smbus2's
``read_byte_data``/``write_byte_data``/``read_i2c_block_data``: a real
``smbus2.SMBus`` on the Pi, :class:`hardware.simbus.SimulatedI2CBus` in tests
and simulation.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from .events import Fault
from .gpio import EdgeClock, EdgeInput

IODIRA, IODIRB = 0x00, 0x01
IPOLA, IPOLB = 0x02, 0x03
GPINTENA, GPINTENB = 0x04, 0x05
DEFVALA, DEFVALB = 0x06, 0x07
INTCONA, INTCONB = 0x08, 0x09
IOCON = 0x0A
GPPUA, GPPUB = 0x0C, 0x0D
INTFA, INTFB = 0x0E, 0x0F
INTCAPA, INTCAPB = 0x10, 0x11
GPIOA, GPIOB = 0x12, 0x13
OLATA, OLATB = 0x14, 0x15

IOCON_BANK, IOCON_MIRROR, IOCON_SEQOP, IOCON_ODR, IOCON_INTPOL = 0x80, 0x40, 0x20, 0x04, 0x02


class ExpanderError(RuntimeError):
    """An expander that does not answer or does not behave like an MCP23017."""


def bit_index(port: str, bit: int) -> int:
    """Port A bits are 0-7, port B bits 8-15 of the 16-bit state words."""
    return bit + (8 if port == "B" else 0)


class MCP23017:
    """Register-level access to one chip (IOCON.BANK = 0 addressing)."""

    def __init__(self, bus: Any, address: int) -> None:
        self.bus = bus
        self.address = address

    def configure(self, inputs: int, pull_up: bool = True) -> None:
        """Inputs with interrupt-on-change on ``inputs`` (16-bit mask); INT mirrored, active-low.

        GPA7 and GPB7 are made outputs (driven low): the 2022 datasheet (rev. D)
        says they must not be inputs, as that can corrupt SDA.
        """
        a, b = inputs & 0xFF, inputs >> 8
        w = self.bus.write_byte_data
        try:
            w(self.address, IOCON, IOCON_MIRROR)
            for reg, val in ((IODIRA, 0x7F), (IODIRB, 0x7F), (IPOLA, 0), (IPOLB, 0), (DEFVALA, 0), (DEFVALB, 0),
                             (INTCONA, 0), (INTCONB, 0), (GPPUA, a if pull_up else 0), (GPPUB, b if pull_up else 0),
                             (GPINTENA, a), (GPINTENB, b)):
                w(self.address, reg, val)
            check = (self.bus.read_byte_data(self.address, IOCON), self.bus.read_byte_data(self.address, GPINTENA),
                     self.bus.read_byte_data(self.address, GPINTENB))
        except OSError as exc:
            raise ExpanderError(f"no answer from the MCP23017 at 0x{self.address:02X}: {exc}") from None
        if check != (IOCON_MIRROR, a, b):
            raise ExpanderError(
                f"the chip at 0x{self.address:02X} does not read back its settings "
                f"(IOCON/GPINTENA/GPINTENB = {check}); is it an MCP23017?")

    def read_state(self) -> tuple[int, int, int]:
        """(INTF, INTCAP, GPIO) as 16-bit words; reading GPIO clears the interrupt."""
        d = self.bus.read_i2c_block_data(self.address, INTFA, 6)
        return d[0] | d[1] << 8, d[2] | d[3] << 8, d[4] | d[5] << 8

    def read_gpio(self) -> int:
        d = self.bus.read_i2c_block_data(self.address, GPIOA, 2)
        return d[0] | d[1] << 8


class _Chip:
    def __init__(self, name: str, chip: MCP23017, bits: dict[int, tuple[int, str]]) -> None:
        self.name = name
        self.chip = chip
        self.bits = bits
        self.mask = sum(1 << i for i in bits)
        self.last = self.mask  # all released (pulled up)
        self.failed = False
        self.int_input: EdgeInput | None = None


class ExpanderInputs:
    """All expanders of a pin map, feeding a PanelSource from one worker thread."""

    def __init__(self, pinmap: Any, source: Any, factory: Any, bus: Any, *, safety_poll_s: float = 0.05,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.source = source
        self.bus = bus
        self.pull_up = pinmap.pull_up
        self.safety_poll_s = safety_poll_s
        self.clock = clock
        self.edge_clock = EdgeClock(factory)
        self._wake: queue.SimpleQueue[tuple[float, int] | None] = queue.SimpleQueue()
        self.chips: list[_Chip] = []
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        by_exp: dict[str, dict[int, tuple[int, str]]] = {name: {} for name in pinmap.expanders}
        for seat, button, ref in pinmap.button_pins():
            if ref.expander is not None:
                by_exp[ref.expander][bit_index(ref.port, ref.bit)] = (seat, button)
        try:
            for name, exp in pinmap.expanders.items():
                c = _Chip(name, MCP23017(bus, exp.address), by_exp[name])
                c.chip.configure(c.mask, pull_up=self.pull_up)
                c.last = c.chip.read_gpio() & c.mask  # also clears anything pending
                idx = len(self.chips)
                c.int_input = EdgeInput(exp.interrupt.gpiozero_name, pull_up=True, clock=self.edge_clock,
                                        pin_factory=factory,
                                        sink=partial(self._interrupt, idx))
                self.chips.append(c)
        except Exception:
            self.close()
            raise

    def start(self) -> None:
        """Start the worker thread (daemon: it never keeps the program alive)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="mcp23017", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                item = self._wake.get(timeout=self.safety_poll_s)
            except queue.Empty:
                for i, c in enumerate(self.chips):
                    if c.failed or (c.int_input is not None and c.int_input.is_active):
                        self.service(i, None)
                continue
            if item is None:
                break
            self.service(item[1], item[0])

    def _pressed(self, level_bit: int) -> bool:
        return not level_bit if self.pull_up else bool(level_bit)

    def service(self, index: int, t_int: float | None) -> None:
        """Read one chip and emit an edge for every changed button bit."""
        c = self.chips[index]
        try:
            intf, intcap, gpio = c.chip.read_state()
        except OSError as exc:
            if not c.failed:
                c.failed = True
                self.source.fault(Fault(self.clock(), "expander", 0, "",
                                        f"expander {c.name} (0x{c.chip.address:02X}) stopped answering: {exc}"))
            return
        t_read = self.clock()
        if c.failed:
            c.failed = False
            self.source.fault(Fault(t_read, "expander", 0, "", f"expander {c.name} answers again"))
        for port_mask in (0x00FF, 0xFF00):
            if intf & port_mask:
                m = c.mask & port_mask
                self._emit(c, (intcap ^ c.last) & m, intcap, t_int if t_int is not None else t_read)
                c.last = (c.last & ~m) | (intcap & m)
        self._emit(c, (gpio ^ c.last) & c.mask, gpio, t_read)
        c.last = gpio & c.mask

    def _emit(self, c: _Chip, changed: int, levels: int, t: float) -> None:
        while changed:
            low = changed & -changed
            i = low.bit_length() - 1
            seat, button = c.bits[i]
            self.source.edge(t, seat, button, self._pressed(levels & low))
            changed ^= low

    def pressed_now(self) -> list[str]:
        """Expander pins that read pressed at start-up (for the doctor)."""
        out = []
        for c in self.chips:
            for i, (_seat, _button) in c.bits.items():
                if self._pressed(c.last & (1 << i)):
                    out.append(f"{c.name}:{'AB'[i // 8]}{i % 8}")
        return out

    def _interrupt(self, idx: int, t: float, active: bool) -> None:
        """An expander's interrupt line fell: wake the reader for chip ``idx`` (runs on the GPIO callback thread)."""
        if active:
            self._wake.put((t, idx))

    def close(self) -> None:
        self._stop.set()
        self._wake.put(None)
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        for c in self.chips:
            if c.int_input is not None:
                c.int_input.close()
                c.int_input = None
