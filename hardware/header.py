"""The Raspberry Pi 40-pin header: BCM numbers <-> physical pins, and pin names.

Kept as static data (identical on every 40-pin Pi, 1 B+ to 5) so the pin map
can be validated and printed on a laptop without any pin factory.  A test
cross-checks it against gpiozero's own board data.

>>> parse_gpio_name("GPIO17"), parse_gpio_name("BOARD11"), parse_gpio_name("BCM17")
(17, 17, 17)
>>> PHYSICAL_OF_BCM[17]
11
"""

from __future__ import annotations

import re

#: Physical pin -> BCM GPIO number, or the name of a power/ground pin.
HEADER: dict[int, int | str] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}

#: BCM GPIO number -> physical pin.
PHYSICAL_OF_BCM: dict[int, int] = {v: k for k, v in HEADER.items() if isinstance(v, int)}

#: Pins with a fixed second job on the header.
I2C_PINS: dict[int, str] = {2: "I2C1 SDA", 3: "I2C1 SCL"}
UART_PINS: dict[int, str] = {14: "UART TXD", 15: "UART RXD"}
ID_EEPROM_PINS: dict[int, str] = {0: "HAT ID EEPROM (ID_SD)", 1: "HAT ID EEPROM (ID_SC)"}

_NAME = re.compile(r"^(GPIO|BCM|BOARD|J8:)(\d+)$")


class PinNameError(ValueError):
    """A pin name that is not a usable header GPIO."""


def parse_gpio_name(name: str) -> int:
    """Return the BCM number for a gpiozero-style name (GPIOn, BCMn, BOARDn, J8:n).

    >>> parse_gpio_name("BOARD1")
    Traceback (most recent call last):
    ...
    hardware.header.PinNameError: BOARD1 is the 3V3 pin, not a GPIO
    """
    m = _NAME.match(name.strip().upper())
    if not m:
        raise PinNameError(
            f"{name!r} is not a pin name (write GPIO17, BCM17, BOARD11 or an expander pin like E1:A0)"
        )
    kind, num = m.group(1), int(m.group(2))
    if kind in ("GPIO", "BCM"):
        if num not in PHYSICAL_OF_BCM:
            raise PinNameError(f"{name} is not on the 40-pin header (GPIO0-GPIO27)")
        return num
    if num not in HEADER:
        raise PinNameError(f"{name} is not on the 40-pin header (physical pins 1-40)")
    target = HEADER[num]
    if isinstance(target, str):
        raise PinNameError(f"{name} is the {target} pin, not a GPIO")
    return target
