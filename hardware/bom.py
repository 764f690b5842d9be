"""The bill of materials and the power budget for a table of N seats and K burritos.

Quantities are formulas of the seat, burrito and badge counts, never a fixed
list, so ``burrito-table bom --seats 12`` is right for a twelve-seat table.
The power budget adds what the Pi's own 5 V supply feeds: the Pi, the USB
receiver and audio, the amplifier at full volume and every button LED at full
brightness.  The display has its own mains supply and is listed, not budgeted.

>>> b = build_bom(6, 2)
>>> [(line.qty, line.part) for line in b.lines if line.ref == "BTN"]
[(24, '30 mm arcade push button with LED, 5 V')]
>>> b.budget.total_5v_a <= b.budget.supply_a
True
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import sys
from dataclasses import dataclass, field
from typing import Any

# ---------------------------------------------------------------------------------------
# Electrical design figures.  Each is a datasheet limit or a stated design value; the
# build guide quotes them and the tests recompute the LED driver from them.

SUPPLY_V = 5.1            # Raspberry Pi 27 W USB-C supply: 5.1 V
SUPPLY_A = 5.0            # ... at 5 A
HEADROOM = 0.8            # keep the budget under 80 % of the supply
LED_V = 5.0               # the button LEDs' rated supply (built-in series resistor)
LED_MA = 20.0             # design value per button LED at 5 V (typical parts draw 10-20 mA: measure yours)
BUTTONS_PER_SEAT = 4
GPIO_HIGH_V = 3.3         # a GPIO driven high
VBE_SAT_V = 0.75          # PN2222A base-emitter voltage in saturation, near 100 mA (datasheet max 1.2 V at 150 mA)
HFE_MIN = 50              # PN2222A minimum DC gain at 150 mA, VCE = 1 V (ON Semi datasheet)
R_BASE_OHM = 680          # base resistor: ~3.7 mA of base drive, forced gain ~22 at 80 mA
R_PULLDOWN_OHM = 10_000   # base to emitter: keeps the light off while the GPIO floats at boot
GPIO_PIN_LIMIT_MA = 16.0  # Raspberry Pi guidance: at most 16 mA from one pin ...
GPIO_TOTAL_LIMIT_MA = 50.0  # ... and 50 mA from all GPIO pins together
MCP_IDD_MA = 1.0          # MCP23017 supply current, datasheet maximum
MCP_PIN_LIMIT_MA = 25.0   # MCP23017 per-pin source/sink limit (not used for LEDs here: buttons only)

#: 5 V loads besides the seats, in amps (design estimates, named in the table).
PI_A = 1.4                # Raspberry Pi 5 under full load (~7 W); its documented typical active draw is 0.8 A
RECEIVER_A = 0.12         # XIAO ESP32-S3 receiver, radio listening all the time
USB_AUDIO_A = 0.1         # USB audio adapter (the Pi 5 has no analogue audio out)
AMP_W = 2 * 3.0           # PAM8403: 2 x 3 W into 4 ohm at full volume
AMP_EFFICIENCY = 0.85


@dataclass(frozen=True)
class LedDriver:
    """One seat's light driver: the GPIO, through R_BASE, switches an NPN in the LEDs' return."""

    led_ma: float
    collector_ma: float
    base_ma: float
    forced_beta: float
    hfe_min: float
    gpio_total_ma: float
    seats: int

    @property
    def saturated(self) -> bool:
        """Hard on: the base current is at least twice what the worst-case gain needs."""
        return self.forced_beta <= self.hfe_min / 2

    @property
    def within_gpio_limits(self) -> bool:
        return self.base_ma <= GPIO_PIN_LIMIT_MA and self.gpio_total_ma <= GPIO_TOTAL_LIMIT_MA


def led_driver(seats: int) -> LedDriver:
    """The resistor math of the seat light driver, for ``seats`` lights at full on."""
    collector = BUTTONS_PER_SEAT * LED_MA
    base = (GPIO_HIGH_V - VBE_SAT_V) / R_BASE_OHM * 1000 - VBE_SAT_V / R_PULLDOWN_OHM * 1000
    return LedDriver(led_ma=LED_MA, collector_ma=collector, base_ma=base, forced_beta=collector / base,
                     hfe_min=HFE_MIN, gpio_total_ma=base * seats, seats=seats)


# ---------------------------------------------------------------------------------------
# power budget


@dataclass(frozen=True)
class Load:
    what: str
    rail: str       # "5V" or "3V3"
    amps: float
    note: str = ""


@dataclass(frozen=True)
class Budget:
    loads: list[Load]
    supply_a: float = SUPPLY_A

    @property
    def total_5v_a(self) -> float:
        """Everything on the 5 V input; 3V3 loads come from the Pi's own 5 V, counted 1:1 (a safe upper bound)."""
        return sum(load.amps for load in self.loads)

    @property
    def total_w(self) -> float:
        return self.total_5v_a * SUPPLY_V

    @property
    def share(self) -> float:
        return self.total_5v_a / self.supply_a

    @property
    def ok(self) -> bool:
        return self.share <= HEADROOM

    def verdict(self) -> str:
        if self.ok:
            return (f"fits: {self.total_5v_a:.2f} A of the {self.supply_a:g} A supply "
                    f"({self.share:.0%}, limit {HEADROOM:.0%})")
        leds = sum(load.amps for load in self.loads if load.what.startswith("button LEDs"))
        return (f"too much for one supply: {self.total_5v_a:.2f} A of {self.supply_a:g} A ({self.share:.0%}, limit "
                f"{HEADROOM:.0%}); feed the button LEDs ({leds:.2f} A) from a second 5 V supply, GND joined")


def power_budget(seats: int) -> Budget:
    drv = led_driver(seats)
    amp_a = AMP_W / AMP_EFFICIENCY / LED_V
    loads = [
        Load("Raspberry Pi 5 under full load", "5V", PI_A, "estimate; documented typical 0.8 A"),
        Load("USB receiver (XIAO ESP32-S3)", "5V", RECEIVER_A, "radio always listening"),
        Load("USB audio adapter", "5V", USB_AUDIO_A, ""),
        Load("amplifier at full volume", "5V", round(amp_a, 3), f"{AMP_W:g} W / {AMP_EFFICIENCY:.0%} / 5 V"),
        Load(f"button LEDs at full ({seats} x {BUTTONS_PER_SEAT} x {LED_MA:g} mA)", "5V",
             round(seats * drv.collector_ma / 1000, 3), "all seats on 'winner' at once"),
        Load(f"MCP23017 expanders ({expanders_for(seats)} x {MCP_IDD_MA:g} mA max)", "3V3",
             round(expanders_for(seats) * MCP_IDD_MA / 1000, 4), "buttons only: no LED load"),
        Load(f"light driver base currents ({seats} x {drv.base_ma:.2f} mA)", "3V3",
             round(drv.gpio_total_ma / 1000, 4), f"GPIO total limit {GPIO_TOTAL_LIMIT_MA:g} mA"),
    ]
    return Budget(loads)


# ---------------------------------------------------------------------------------------
# parts list


def _ohms(r: int) -> str:
    return f"{r / 1000:g} kOhm" if r >= 1000 else f"{r} Ohm"


def expanders_for(seats: int) -> int:
    """MCP23017 count: three seats per chip (GPA7/GPB7 are not inputs, so 14 usable, 12 used)."""
    return math.ceil(seats / 3)


@dataclass(frozen=True)
class Line:
    ref: str
    qty: int
    part: str
    example: str
    group: str
    unit_usd: float
    note: str = ""

    @property
    def total_usd(self) -> float:
        return self.qty * self.unit_usd


@dataclass(frozen=True)
class Bom:
    seats: int
    burritos: int
    badges: int
    lines: list[Line]
    budget: Budget
    driver: LedDriver = field(repr=False, default_factory=lambda: led_driver(1))

    @property
    def total_usd(self) -> float:
        return sum(line.total_usd for line in self.lines)

    def qty(self, ref: str) -> int:
        return next(line.qty for line in self.lines if line.ref == ref)


class BomError(ValueError):
    """Counts the table cannot be built with."""


def build_bom(seats: int, burritos: int = 2, badges: int | None = None, cable_m: int = 3) -> Bom:
    """Every part with its quantity for ``seats`` seats (1-12), ``burritos`` burritos and ``badges`` badges."""
    from .pinmap import MAX_SEATS

    if not 1 <= seats <= MAX_SEATS:
        raise BomError(f"--seats must be 1-{MAX_SEATS}, got {seats}")
    if not 0 <= burritos <= 8:
        raise BomError(f"--burritos must be 0-8, got {burritos}")
    if not 1 <= cable_m <= 20:
        raise BomError(f"--cable-m must be 1-20 m (button lines are not meant for longer runs), got {cable_m}")
    badges = seats if badges is None else badges
    if not 0 <= badges <= MAX_SEATS:
        raise BomError(f"--badges must be 0-{MAX_SEATS}, got {badges}")
    n, e, nodes = seats, expanders_for(seats), burritos + badges
    extra_boards = 1 if n > 6 else 0
    lines = [
        Line("PI", 1, "Raspberry Pi 5, 4 GB", "Raspberry Pi 5 4GB", "computer", 60),
        Line("PSU", 1, "Raspberry Pi 27 W USB-C power supply, 5.1 V 5 A", "official 27W USB-C PSU", "computer", 12),
        Line("SD", 1, "microSD card 32 GB, A1", "SanDisk SDSQUA4-032G", "computer", 8),
        Line("COOL", 1, "Raspberry Pi 5 Active Cooler (it sits in a closed box under the table)", "official Active Cooler",
             "computer", 5),
        Line("TV", 1, "TV or monitor with an HDMI input, 32 in or larger, on its own mains supply", "any",
             "display and sound", 150, "not on the Pi's supply"),
        Line("HDMI", 1, "micro-HDMI to HDMI cable, 2 m", "any", "display and sound", 8),
        Line("USBA", 1, "USB audio adapter, stereo line out (the Pi 5 has no analogue audio)", "C-Media CM108 dongle",
             "display and sound", 8, "or use the TV's speakers over HDMI and skip USBA/AMP/SPK/AUX"),
        Line("AMP", 1, "class-D amplifier board 2 x 3 W, 5 V", "PAM8403 module",
             "display and sound", 4),
        Line("SPK", 2, "speaker 4 ohm 3 W, 40-50 mm", "any", "display and sound", 2),
        Line("AUX", 1, "3.5 mm stereo cable, 0.3 m", "-", "display and sound", 2),
        Line("HAT", 1, "proto HAT for the Pi (header, power rails)", "Adafruit Perma-Proto HAT 2310", "driver board", 8),
        Line("HAT2", extra_boards, "second proto board for seats 7-12 (E3, E4, drivers), linked to the HAT",
             "a second Perma-Proto HAT 2310, no Pi header", "driver board", 8),
        Line("U", e, "MCP23017 16-bit I2C port expander, DIP-28 (three seats each)", "Microchip MCP23017-E/SP",
             "driver board", 2),
        Line("SKT", e, "28-pin narrow DIP socket", "-", "driver board", 0.5),
        Line("C100N", e, "100 nF ceramic capacitor (expander decoupling, at VDD)", "-", "driver board", 0.1),
        Line("C10U", 1, "10 uF ceramic capacitor, 3V3 rail by the expanders", "-", "driver board", 0.2),
        Line("C470U", 1, "470 uF 10 V electrolytic, 5 V LED rail by the drivers", "-", "driver board", 0.3),
        Line("Q", n, "NPN transistor, seat light driver", "PN2222A (TO-92)", "driver board", 0.1),
        Line("RB", n, f"{_ohms(R_BASE_OHM)} resistor 1/4 W (transistor base)", "-", "driver board", 0.05),
        Line("RPD", n, f"{_ohms(R_PULLDOWN_OHM)} resistor 1/4 W (base pull-down)", "-", "driver board", 0.05),
        Line("HDR", n, "2 x 4 pin header on the board, one per seat", "-", "driver board", 0.2),
        Line("DUP", n, "2 x 4 Dupont housing + 8 female crimp pins (seat jack lead)", "-", "driver board", 0.5),
        Line("SHDN", 1, "momentary push button, 12 mm panel mount (safe shutdown)", "-", "driver board", 1),
        Line("BTN", 4 * n, "30 mm arcade push button with LED, 5 V", "Adafruit 3489 (or any 30 mm 5 V LED arcade)",
             "seat panels", 2.5),
        Line("FAST", 16 * n, "2.8 mm (.110 in) insulated female quick-connect", "-", "seat panels", 0.05,
             "4 per button: 2 switch, 2 LED; check your switch's tab size"),
        Line("WIRE", math.ceil(1.5 * n), "hook-up wire 22 AWG stranded, metres (panel inside)", "-", "seat panels", 0.3),
        Line("BOX", n, "seat panel box, top at least 190 x 70 mm, 3 mm or thinner where the buttons snap in",
             "wood or ABS project box", "seat panels", 6),
        Line("CAB", n, f"CAT5e patch cable, {cable_m} m (solid or stranded 24 AWG, T568B)", "-", "seat cable", 3),
        Line("KEY", 2 * n, "RJ45 keystone jack, T568B punch-down (table edge and panel)", "-", "seat cable", 2),
        Line("CUT", n, "CAT5e offcut 0.3 m (keystone to the board's seat header)", "-", "seat cable", 0.2),
        Line("RX", 1, "receiver: Seeed XIAO ESP32-S3 + USB-C cable", "Seeed 113991114", "devices", 8),
        Line("NODE", nodes, "node board for each burrito and badge: Seeed XIAO ESP32-S3", "Seeed 113991114",
             "devices", 7.5),
        Line("IMU", nodes, "LSM6DSOX 6-DoF breakout, STEMMA QT", "Adafruit 4438", "devices", 12),
        Line("LIPO", nodes, "LiPo 3.7 V 400 mAh with protection", "Adafruit 3898", "devices", 7),
        Line("RDIV", 2 * nodes, "100 kOhm resistor (battery divider)", "-", "devices", 0.05),
        Line("QT", nodes, "STEMMA QT to bare-wire cable, 100 mm", "Adafruit 4209", "devices", 1),
        Line("SW", nodes, "slide switch on the battery lead", "C&K JS102011SAQN", "devices", 0.5),
        Line("FOAM", burritos, "foam burrito (from the game box) to hold a node", "-", "devices", 0),
        Line("CHG", 1 if nodes else 0, "USB-C charger with several ports, for the nodes (own mains supply)", "-",
             "devices", 15, "not on the Pi's supply"),
    ]
    budget = power_budget(seats)
    if not budget.ok:
        lines.insert(2, Line("PSU2", 1, "second 5 V supply for the button LEDs, 2 A or more, GND joined to the Pi's",
                             "Mean Well GST25E05-P1J or any 5 V 2 A+", "computer", 12, "the budget is over 80 % of one supply"))
    return Bom(seats, burritos, badges, lines, budget, led_driver(seats))


# ---------------------------------------------------------------------------------------
# output

BOM_COLUMNS = ("ref", "qty", "part", "example", "group", "unit_usd", "total_usd", "note")


def bom_csv(b: Bom) -> str:
    """The parts list, then the power budget, as CSV (one header row each, a blank row between)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(BOM_COLUMNS)
    for line in b.lines:
        w.writerow([line.ref, line.qty, line.part, line.example, line.group, f"{line.unit_usd:.2f}",
                    f"{line.total_usd:.2f}", line.note])
    w.writerow([])
    w.writerow(("load", "rail", "amps", "note"))
    for load in b.budget.loads:
        w.writerow([load.what, load.rail, f"{load.amps:.3f}", load.note])
    w.writerow(["total", "5V", f"{b.budget.total_5v_a:.3f}", b.budget.verdict()])
    return out.getvalue()


def bom_text(b: Bom) -> str:
    """The parts list as an aligned table, then the power budget and the light driver's figures."""
    rows = [("ref", "qty", "part", "example", "each", "total")]
    for line in b.lines:
        if line.qty:
            rows.append((line.ref, str(line.qty), line.part, line.example, f"${line.unit_usd:.2f}",
                         f"${line.total_usd:.2f}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [f"# Burrito Table bill of materials: {b.seats} seats, {b.burritos} burritos, {b.badges} badges"]
    for i, r in enumerate(rows):
        lines.append("  ".join(c.rjust(wd) if i and k in (1, 4, 5) else c.ljust(wd)
                               for k, (c, wd) in enumerate(zip(r, widths))).rstrip())
        if i == 0:
            lines.append("  ".join("-" * wd for wd in widths))
    lines.append(f"about ${b.total_usd:.0f} (2024 list prices, rough)")
    lines.append("")
    lines.append(f"# Power budget on the Pi's {SUPPLY_V:g} V {SUPPLY_A:g} A supply (the display has its own)")
    width = max(len(load.what) for load in b.budget.loads)
    for load in b.budget.loads:
        lines.append(f"{load.what.ljust(width)}  {load.rail:>3}  {load.amps:6.3f} A  {load.note}".rstrip())
    lines.append(f"{'total'.ljust(width)}  {'5V':>3}  {b.budget.total_5v_a:6.3f} A  = {b.budget.total_w:.1f} W")
    lines.append(b.budget.verdict())
    d = b.driver
    lines.append("")
    lines.append(f"# Seat light driver: {d.collector_ma:g} mA per seat ({BUTTONS_PER_SEAT} LEDs x {d.led_ma:g} mA), "
                 f"base {d.base_ma:.2f} mA, forced gain {d.forced_beta:.0f} (hFE min {d.hfe_min:g}): "
                 f"{'saturated' if d.saturated else 'NOT saturated'}; GPIO total {d.gpio_total_ma:.1f} mA of "
                 f"{GPIO_TOTAL_LIMIT_MA:g}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# command line


def add_command(subparsers: Any) -> None:
    """Register ``burrito-table bom``."""
    p = subparsers.add_parser("bom", help="the bill of materials and power budget for a table of N seats",
                              description="Print every part with its quantity for a table of N seats and K "
                                          "burritos, then the power budget of the Pi's supply.")
    p.add_argument("--seats", type=int, default=6, metavar="N", help="seats, 1-12 (default 6)")
    p.add_argument("--burritos", type=int, default=2, metavar="K", help="burritos with a node, 0-8 (default 2)")
    p.add_argument("--badges", type=int, default=None, metavar="B", help="badges with a node (default: one per seat)")
    p.add_argument("--cable-m", type=int, default=3, metavar="M", help="seat cable length in metres (default 3)")
    p.add_argument("--csv", action="store_true", help="print CSV: the parts, a blank row, then the power budget")
    p.set_defaults(func=cmd_bom)


def cmd_bom(args: argparse.Namespace) -> int:
    """Exit 2 on counts the table cannot have, with one line naming the option."""
    try:
        b = build_bom(args.seats, args.burritos, args.badges, args.cable_m)
    except BomError as exc:
        print(f"error: bom: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(bom_csv(b) if args.csv else bom_text(b))
    return 0
