"""Put a table together from a pin map: inputs, lights, keyboard, one event source.

This is the entry point for the game's main loop::

    table = open_table(load_pinmap())          # real pins (GPIOZERO_PIN_FACTORY honoured)
    while running:
        for event in table.source.poll():      # SeatEvents in timestamp order
            ...
        table.lights.cue(3, "battle")

On a laptop, the mock factory stands in for the pins and a simulated I2C bus
for the expanders, and the keyboard presses those mock pins, so simulation runs
the same GPIO and expander code as the Pi:

>>> from hardware.pinmap import load_pinmap
>>> from hardware.gpio import make_factory
>>> table = open_table(load_pinmap(), make_factory("mock"))
>>> table.keyboard.key("w", True)          # seat 2, BRAWL (on expander E1)
True
>>> [(e.seat, e.button, e.action) for e in table.wait_for(1)]
[(2, 'BRAWL', 'press')]
>>> table.close()
"""

from __future__ import annotations

import time
from typing import Any

from gpiozero.pins.mock import MockFactory

from .events import SeatEvent
from .gpio import GpioButtons, make_factory
from .keyboard import DirectTarget, KeyboardPanel
from .lights import Lights
from .mcp23017 import ExpanderInputs, bit_index
from .pinmap import PinMap
from .simbus import SimulatedI2CBus
from .source import PanelSource


class BusError(RuntimeError):
    """The I2C bus for the expanders cannot be opened."""


def open_i2c_bus(bus: int) -> Any:
    """The real smbus2 bus, with a clear message when I2C is off or missing."""
    from smbus2 import SMBus

    try:
        return SMBus(bus)
    except (OSError, FileNotFoundError) as exc:
        raise BusError(
            f"cannot open I2C bus {bus} (/dev/i2c-{bus}): {exc.strerror or exc}; enable I2C with "
            f"'sudo raspi-config nonint do_i2c 0' or dtparam=i2c_arm=on in /boot/firmware/config.txt"
        ) from None


class MockPinTarget:
    """Simulation: a button press drives the MockFactory pin (or simulated expander pin) it is wired to."""

    def __init__(self, pinmap: PinMap, factory: MockFactory, bus: SimulatedI2CBus | None) -> None:
        self.pinmap = pinmap
        self.factory = factory
        self.bus = bus

    def set_button(self, seat: int, button: str, pressed: bool, t: float = 0.0) -> None:
        ref = self.pinmap.panels[seat].buttons[button]
        level = (not pressed) if self.pinmap.pull_up else pressed
        if ref.is_gpio:
            pin = self.factory.pin(ref.gpiozero_name)
            pin.drive_high() if level else pin.drive_low()
        else:
            assert self.bus is not None and ref.expander is not None and ref.port is not None and ref.bit is not None
            address = self.pinmap.expanders[ref.expander].address
            self.bus.chip(address).set_input(ref.port, ref.bit, level)


class Table:
    """Everything hardware/ runs for one table.  Close it (or use ``with``)."""

    def __init__(self, pinmap: PinMap, source: PanelSource, factory: Any = None, gpio: GpioButtons | None = None,
                 expanders: ExpanderInputs | None = None, lights: Lights | None = None,
                 keyboard: KeyboardPanel | None = None, bus: Any = None, sim: MockPinTarget | None = None) -> None:
        self.pinmap = pinmap
        self.source = source
        self.factory = factory
        self.gpio = gpio
        self.expanders = expanders
        self.lights = lights
        self.keyboard = keyboard
        self.bus = bus
        self.sim = sim

    def poll(self) -> list[SeatEvent]:
        return self.source.poll()

    def wait_for(self, count: int, timeout: float = 2.0) -> list[SeatEvent]:
        """Poll until ``count`` events arrived or ``timeout`` passed (tests, doctor)."""
        out: list[SeatEvent] = []
        deadline = time.monotonic() + timeout
        while len(out) < count and time.monotonic() < deadline:
            got = self.source.poll()
            if got:
                out += got
            else:
                time.sleep(0.0005)
        return out

    def pressed_at_start(self) -> list[str]:
        """Inputs reading pressed now: stuck buttons or a wrong pull_up setting."""
        return (self.gpio.pressed_now() if self.gpio else []) + (self.expanders.pressed_now() if self.expanders else [])

    def close(self) -> None:
        if self.expanders is not None:
            self.expanders.close()
        if self.gpio is not None:
            self.gpio.close()
        if self.lights is not None:
            self.lights.close()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def open_table(pinmap: PinMap, factory: Any = None, *, bus: Any = None, keyboard_only: bool = False,
               start: bool = True) -> Table:
    """Open every input and light of a pin map.

    ``factory`` None chooses one with :func:`hardware.gpio.make_factory`.  With a
    MockFactory and no ``bus``, a :class:`~hardware.simbus.SimulatedI2CBus` stands
    in for the expanders, and the keyboard drives the mock pins.
    ``keyboard_only`` opens no pins at all: keys go straight to the event source.
    """
    source = PanelSource(pinmap.seats, pinmap.buttons, pinmap.timing)
    if keyboard_only:
        return Table(pinmap, source, keyboard=KeyboardPanel(pinmap.keymap, DirectTarget(source)))
    if factory is None:
        factory = make_factory()
    mock = isinstance(factory, MockFactory)
    needs_bus = any(not ref.is_gpio for _, _, ref in pinmap.button_pins())
    if bus is None and needs_bus:
        bus = SimulatedI2CBus.for_pinmap(pinmap, factory) if mock else open_i2c_bus(pinmap.i2c_bus)
    table = Table(pinmap, source, factory=factory, bus=bus)
    try:
        table.gpio = GpioButtons(pinmap, source, factory)
        if needs_bus:
            table.expanders = ExpanderInputs(pinmap, source, factory, bus)
            if start:
                table.expanders.start()
        table.lights = Lights(pinmap, factory)
    except Exception:
        table.close()
        raise
    if mock:
        table.sim = MockPinTarget(pinmap, factory, bus if isinstance(bus, SimulatedI2CBus) else None)
        table.keyboard = KeyboardPanel(pinmap.keymap, table.sim)
    else:
        table.keyboard = KeyboardPanel(pinmap.keymap, DirectTarget(source))
    return table


__all__ = ["BusError", "MockPinTarget", "Table", "open_table", "open_i2c_bus", "bit_index"]
