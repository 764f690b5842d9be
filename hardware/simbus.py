"""A simulated I2C bus with MCP23017 chips, at the smbus level.

Used by the tests ("the I2C bus faked at the smbus level") and by simulation
mode on a laptop, so the real :mod:`hardware.mcp23017` driver and worker run
unchanged.  The model follows the datasheet where the driver depends on it:

* BANK = 0 register addresses, sequential reads auto-increment;
* interrupt-on-change against the previous value (INTCON = 0) or DEFVAL
  (INTCON = 1), only for GPINTEN bits;
* the first change captures the port into INTCAP and sets INTF; further changes
  raise nothing until INTCAP or GPIO of that port is read;
* INTA follows port A only, unless IOCON.MIRROR ORs both ports onto it; it is
  active-low unless IOCON.INTPOL (ignored when IOCON.ODR makes it open-drain).

The INT output drives a gpiozero MockPin, so the GPIO edge reaches the driver
through the same pin-factory callback as on a Pi.

>>> bus = SimulatedI2CBus({0x20: SimulatedMCP23017(0x20)})
>>> bus.write_byte_data(0x20, 0x0C, 0xFF)    # GPPUA: pull-ups on port A
>>> bus.chip(0x20).set_input("A", 3, False)  # a button pulls GPA3 to ground
>>> hex(bus.read_byte_data(0x20, 0x12))
'0xf7'
>>> bus.read_byte_data(0x21, 0x12)
Traceback (most recent call last):
...
OSError: [Errno 121] Remote I/O error: no device at 0x21
"""

from __future__ import annotations

import errno
import threading
from typing import Any

from .mcp23017 import (
    DEFVALA,
    GPINTENA,
    GPIOA,
    GPIOB,
    GPPUA,
    INTCAPA,
    INTCAPB,
    INTCONA,
    INTFA,
    IOCON,
    IOCON_BANK,
    IOCON_INTPOL,
    IOCON_MIRROR,
    IOCON_ODR,
    IODIRA,
    IPOLA,
    OLATA,
    bit_index,
)

_REGS = 0x16


class SimulatedMCP23017:
    """Register model of one MCP23017; ``set_input`` is a button at a pin."""

    def __init__(self, address: int, int_pin: Any = None, lock: threading.RLock | None = None) -> None:
        self.address = address
        self.int_pin = int_pin
        self.lock = lock or threading.RLock()
        self.regs = bytearray(_REGS)
        self.regs[IODIRA] = self.regs[IODIRA + 1] = 0xFF
        self.driven: dict[int, bool] = {}  # bit -> level forced from outside
        self._int_asserted = False
        self._prev = self._gpio_word()

    # -- the outside world ---------------------------------------------------------
    def set_input(self, port: str, bit: int, level: bool | None) -> None:
        """Drive a pin high/low from outside, or let it float (None)."""
        with self.lock:
            i = bit_index(port, bit)
            if level is None:
                self.driven.pop(i, None)
            else:
                self.driven[i] = level
            self._changed()

    def _level(self, i: int) -> bool:
        if i in self.driven:
            return self.driven[i]
        pu = self.regs[GPPUA + (i >> 3)]
        return bool(pu >> (i & 7) & 1)  # pulled up reads 1; a floating pin reads 0 here

    def _gpio_word(self) -> int:
        word = 0
        for i in range(16):
            if self._level(i):
                word |= 1 << i
        ipol = self.regs[IPOLA] | self.regs[IPOLA + 1] << 8
        iodir = self.regs[IODIRA] | self.regs[IODIRA + 1] << 8
        olat = self.regs[OLATA] | self.regs[OLATA + 1] << 8
        return ((word ^ ipol) & iodir) | (olat & ~iodir & 0xFFFF)

    def _changed(self) -> None:
        new = self._gpio_word()
        old, self._prev = self._prev, new
        for p in (0, 1):
            self._check_port(p, (old >> 8 * p) & 0xFF, (new >> 8 * p) & 0xFF)
        self._drive_int()

    def _check_port(self, p: int, old: int, new: int) -> None:
        if self.regs[INTFA + p]:
            return  # interrupt pending: nothing new is captured
        en, intcon, defval = self.regs[GPINTENA + p], self.regs[INTCONA + p], self.regs[DEFVALA + p]
        cond = ((new ^ old) & ~intcon) | ((new ^ defval) & intcon)
        flags = cond & en & 0xFF
        if flags:
            self.regs[INTFA + p] = flags
            self.regs[INTCAPA + p] = new

    def _drive_int(self) -> None:
        iocon = self.regs[IOCON]
        a, b = self.regs[INTFA] != 0, self.regs[INTFA + 1] != 0
        asserted = (a or b) if iocon & IOCON_MIRROR else a
        self._int_asserted = asserted
        if self.int_pin is None:
            return
        active_high = bool(iocon & IOCON_INTPOL) and not iocon & IOCON_ODR
        level = asserted == active_high
        if level:
            self.int_pin.drive_high()
        else:
            self.int_pin.drive_low()

    @property
    def int_asserted(self) -> bool:
        return self._int_asserted

    # -- the bus side ----------------------------------------------------------------
    def read(self, reg: int) -> int:
        with self.lock:
            if reg >= _REGS:
                return 0
            if reg in (GPIOA, GPIOB):
                p = reg - GPIOA
                value = (self._gpio_word() >> 8 * p) & 0xFF
                self._clear(p)
                return value
            if reg in (INTCAPA, INTCAPB):
                value = self.regs[reg]
                self._clear(reg - INTCAPA)
                return value
            if reg == IOCON + 1:
                reg = IOCON
            return self.regs[reg]

    def _clear(self, p: int) -> None:
        if self.regs[INTFA + p]:
            self.regs[INTFA + p] = 0
            # in DEFVAL mode a condition that still holds interrupts again at once
            cur = (self._gpio_word() >> 8 * p) & 0xFF
            flags = (cur ^ self.regs[DEFVALA + p]) & self.regs[INTCONA + p] & self.regs[GPINTENA + p]
            if flags:
                self.regs[INTFA + p] = flags
                self.regs[INTCAPA + p] = cur
            self._drive_int()

    def write(self, reg: int, value: int) -> None:
        with self.lock:
            if reg >= _REGS:
                return
            value &= 0xFF
            if reg in (IOCON, IOCON + 1):
                if value & IOCON_BANK:
                    raise NotImplementedError("the simulated MCP23017 models IOCON.BANK = 0 only")
                self.regs[IOCON] = value & 0xFE
            elif reg in (GPIOA, GPIOB):
                self.regs[OLATA + reg - GPIOA] = value
            elif reg in (INTFA, INTFA + 1, INTCAPA, INTCAPB):
                return  # read-only
            else:
                self.regs[reg] = value
            self._changed()


class SimulatedI2CBus:
    """An ``smbus2.SMBus`` stand-in holding simulated MCP23017 chips.

    An address with no chip (or listed in ``absent``) raises ``OSError(121)``
    like a real bus where nothing acknowledges.
    """

    def __init__(self, chips: dict[int, SimulatedMCP23017] | None = None, absent: set[int] | None = None) -> None:
        self.lock = threading.RLock()
        self.chips: dict[int, SimulatedMCP23017] = {}
        for addr, chip in (chips or {}).items():
            chip.lock = self.lock
            self.chips[addr] = chip
        self.absent = set(absent or ())
        self.transactions = 0

    @classmethod
    def for_pinmap(cls, pinmap: Any, factory: Any, absent: set[int] | None = None) -> SimulatedI2CBus:
        """One chip per expander of the pin map, its INT wired to a MockFactory pin."""
        chips = {e.address: SimulatedMCP23017(e.address, factory.pin(e.interrupt.gpiozero_name))
                 for e in pinmap.expanders.values()}
        return cls(chips, absent)

    def chip(self, address: int) -> SimulatedMCP23017:
        return self.chips[address]

    def _get(self, address: int) -> SimulatedMCP23017:
        self.transactions += 1
        chip = self.chips.get(address)
        if chip is None or address in self.absent:
            raise OSError(errno.EREMOTEIO, f"Remote I/O error: no device at 0x{address:02X}")
        return chip

    def read_byte_data(self, i2c_addr: int, register: int, force: Any = None) -> int:
        with self.lock:
            return self._get(i2c_addr).read(register)

    def write_byte_data(self, i2c_addr: int, register: int, value: int, force: Any = None) -> None:
        with self.lock:
            self._get(i2c_addr).write(register, value)

    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int, force: Any = None) -> list[int]:
        with self.lock:
            chip = self._get(i2c_addr)
            return [chip.read(register + k) for k in range(length)]

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: list[int], force: Any = None) -> None:
        with self.lock:
            chip = self._get(i2c_addr)
            for k, v in enumerate(data):
                chip.write(register + k, v)

    def close(self) -> None:
        pass
