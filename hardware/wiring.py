"""Wiring tables and the SVG wiring diagram, generated from the pin map.

Makers get the same facts three ways, all from one source so they never
disagree: ``burrito-table pins`` (plain text), ``--markdown`` (for the docs)
and ``--svg FILE`` (a drawing of the header and the expanders).

>>> from hardware.pinmap import load_pinmap
>>> rows = wiring_rows(load_pinmap())
>>> rows[0]
WireRow(seat='1', item='SET', bcm='', physical='', expander='E1 (0x20)', port='GPA0 (chip pin 21)')
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path

from .bom import R_BASE_OHM
from .header import HEADER, I2C_PINS, UART_PINS
from .pinmap import MCP_PIN_NUMBER, PinMap, PinRef


@dataclass(frozen=True)
class WireRow:
    seat: str
    item: str
    bcm: str
    physical: str
    expander: str
    port: str


COLUMNS = ("seat", "button", "BCM", "physical pin", "expander", "port")


def _row(pm: PinMap, seat: str, item: str, ref: PinRef) -> WireRow:
    if ref.is_gpio:
        return WireRow(seat, item, f"GPIO{ref.bcm}", str(ref.physical), "", "")
    assert ref.expander is not None and ref.port is not None
    exp = pm.expanders[ref.expander]
    return WireRow(seat, item, "", "", f"{exp.name} (0x{exp.address:02X})",
                   f"{ref.port_name} (chip pin {MCP_PIN_NUMBER[f'{ref.port}{ref.bit}']})")


def wiring_rows(pm: PinMap) -> list[WireRow]:
    """Every wire of the table: buttons and light per seat, then shared lines."""
    rows: list[WireRow] = []
    for panel in pm.seat_panels():
        for button in pm.buttons:
            rows.append(_row(pm, str(panel.seat), button, panel.buttons[button]))
        rows.append(_row(pm, str(panel.seat), "light (PWM)", panel.light))
    for exp in pm.expanders.values():
        rows.append(WireRow("-", f"{exp.name} INTA (chip pin 20)", f"GPIO{exp.interrupt.bcm}",
                            str(exp.interrupt.physical), f"{exp.name} (0x{exp.address:02X})", "INTA"))
    if pm.i2c_enabled:
        for bcm, what in I2C_PINS.items():
            chip_pin = "SDA (chip pin 13)" if "SDA" in what else "SCK (chip pin 12)"
            rows.append(WireRow("-", what, f"GPIO{bcm}", str(_phys(bcm)), "all expanders" if pm.expanders else "",
                                chip_pin if pm.expanders else ""))
    if pm.shutdown is not None:
        rows.append(WireRow("-", "shutdown button (to GND)", f"GPIO{pm.shutdown.bcm}", str(pm.shutdown.physical), "", ""))
    return rows


def _phys(bcm: int) -> int:
    return next(k for k, v in HEADER.items() if v == bcm)


def _cells(r: WireRow) -> tuple[str, ...]:
    return (r.seat, r.item, r.bcm or "-", r.physical or "-", r.expander or "-", r.port or "-")


def text_table(pm: PinMap) -> str:
    """Aligned plain-text wiring table."""
    rows = [COLUMNS] + [_cells(r) for r in wiring_rows(pm)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return f"# {pm.source}: {pm.seats} seats\n" + "\n".join(lines) + "\n"


def markdown_table(pm: PinMap) -> str:
    """The wiring table as GitHub markdown."""
    out = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    out += ["| " + " | ".join(_cells(r)) + " |" for r in wiring_rows(pm)]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------------------
# The seat cable: one CAT5e per seat, T568B at both ends.


@dataclass(frozen=True)
class CableCore:
    """One core of the seat cable: RJ45 pin, T568B colour, and what it carries."""

    pin: int
    colour: str      # T568B name, e.g. "white/orange"
    hex: str         # the colour drawn
    striped: bool    # white with a coloured stripe
    signal: str      # SET, BRAWL, WAR, DUEL, +5V, LED-, GND
    to: str          # where it lands at the table end


#: RJ45 pins that carry the four buttons, in layout order.  The LED supply and its
#: switched return share the blue pair (4/5) so the PWM current loop is a twisted pair;
#: both browns are GND so the button common has two cores.
BUTTON_CORES = (1, 2, 3, 6)
_T568B = {1: ("white/orange", "#f07d00", True), 2: ("orange", "#f07d00", False),
          3: ("white/green", "#2e9e3e", True), 4: ("blue", "#1f5fd1", False),
          5: ("white/blue", "#1f5fd1", True), 6: ("green", "#2e9e3e", False),
          7: ("white/brown", "#8b5a2b", True), 8: ("brown", "#8b5a2b", False)}


def seat_cable(buttons: tuple[str, ...]) -> list[CableCore]:
    """The eight cores for a panel layout of up to four buttons (T568B colours)."""
    if len(buttons) > len(BUTTON_CORES):
        raise ValueError(f"the seat cable carries at most {len(BUTTON_CORES)} buttons, the layout has {len(buttons)}")
    signal: dict[int, tuple[str, str]] = {
        4: ("+5V", "5 V LED rail (all LED+ in the panel)"),
        5: ("LED-", "the seat's light transistor, collector"),
        7: ("GND", "GND (button common)"), 8: ("GND", "GND (button common)"),
    }
    for pin, name in zip(BUTTON_CORES, buttons):
        signal[pin] = (name, f"{name} input (expander port or GPIO)")
    cores = []
    for pin in range(1, 9):
        colour, hexc, striped = _T568B[pin]
        name, to = signal.get(pin, ("spare", "not connected"))
        cores.append(CableCore(pin, colour, hexc, striped, name, to))
    return cores


# ------------------------------------------------------------------------------------------
# SVG wiring diagram: every wire drawn, from each seat's cable to the header or expander pin.

_COLOURS = {"button": "#2f7de1", "light": "#e8a317", "int": "#9b40c9", "i2c": "#1a9c5b", "scl": "#0b6b3a",
            "power": "#d33", "gnd": "#222", "uart": "#888", "shutdown": "#c2185b", "free": "#bbb"}
_P = 16  # row pitch in px


def _header_roles(pm: PinMap) -> dict[int, tuple[str, str]]:
    """Physical pin -> (label, colour key) from the pin map."""
    roles: dict[int, tuple[str, str]] = {}
    for phys, v in HEADER.items():
        if v == "3V3":
            roles[phys] = ("3V3", "power")
        elif v == "5V":
            roles[phys] = ("5V", "power")
        elif v == "GND":
            roles[phys] = ("GND", "gnd")
        else:
            roles[phys] = (f"GPIO{v}", "free")
    if pm.i2c_enabled:
        for bcm, what in I2C_PINS.items():
            roles[_phys(bcm)] = (f"GPIO{bcm} {what.split()[-1]}", "i2c" if "SDA" in what else "scl")
    if pm.uart_enabled:
        for bcm, what in UART_PINS.items():
            roles[_phys(bcm)] = (f"GPIO{bcm} {what.split()[-1]} (kept free)", "uart")
    for panel in pm.seat_panels():
        roles[panel.light.physical or 0] = (f"GPIO{panel.light.bcm} seat {panel.seat} light", "light")
        for b, ref in panel.buttons.items():
            if ref.is_gpio:
                roles[ref.physical or 0] = (f"GPIO{ref.bcm} seat {panel.seat} {b}", "button")
    for exp in pm.expanders.values():
        roles[exp.interrupt.physical or 0] = (f"GPIO{exp.interrupt.bcm} {exp.name} INTA", "int")
    if pm.shutdown is not None:
        roles[pm.shutdown.physical or 0] = (f"GPIO{pm.shutdown.bcm} shutdown", "shutdown")
    return roles


@dataclass
class _Wire:
    src: tuple[float, float]
    dst: tuple[float, float]
    colour: str
    striped: bool
    src_name: str
    dst_name: str
    leftward: bool = False  # the source is in the right-hand column too (expander INT/I2C)


def _pad_key(ref: PinRef) -> str:
    return f"GPIO{ref.bcm}" if ref.is_gpio else f"{ref.expander}:{ref.port}{ref.bit}"


def wiring_svg(pm: PinMap) -> str:
    """A self-contained SVG with every wire drawn: seat cables on the left, header and expanders on the right."""
    cable = {c.signal: c for c in seat_cable(pm.buttons)}
    top = 120
    # right column: header pads, then each expander's pads, one row each
    pads: dict[str, tuple[float, float]] = {}
    right: list[str] = []
    row = 2
    header_top = top + row * _P
    for phys in range(1, 41):
        v = HEADER[phys]
        pads[f"pin{phys}" if not isinstance(v, int) else f"GPIO{v}"] = (0, top + (row + phys - 1) * _P)
    row += 40 + 3
    exp_rows: dict[str, int] = {}
    for exp in pm.expanders.values():
        exp_rows[exp.name] = row
        row += 3  # title lines
        for k, port in enumerate([f"A{i}" for i in range(8)] + [f"B{i}" for i in range(8)]):
            pads[f"{exp.name}:{port}"] = (0, top + (row + k) * _P)
        row += 16
        for k, sig in enumerate(("INTA", "SDA", "SCK")):
            pads[f"{exp.name}:{sig}"] = (0, top + (row + k) * _P)
        row += 3 + 2
    right_height = top + row * _P
    del right

    # left column: seat panels spread over the height, rows on half-pitch so no horizontal overlaps
    panel_rows = len(pm.buttons) + 3
    blocks = pm.seats + (1 if pm.shutdown is not None else 0)
    span = max(panel_rows + 2, (row - 2) // max(blocks, 1))
    wires: list[_Wire] = []
    panel_y: dict[int, float] = {}
    for i, panel in enumerate(pm.seat_panels()):
        y0 = top + (2 + i * span) * _P + _P / 2
        panel_y[panel.seat] = y0
        for k, b in enumerate(pm.buttons):
            ref = panel.buttons[b]
            core = cable[b]
            wires.append(_Wire((0, y0 + (k + 1) * _P), pads[_pad_key(ref)], core.hex, core.striped,
                               f"seat {panel.seat} {b}", _pad_key(ref)))
        wires.append(_Wire((0, y0 + (len(pm.buttons) + 1) * _P), pads[_pad_key(panel.light)], _COLOURS["light"],
                           False, f"seat {panel.seat} light", _pad_key(panel.light)))
    shut_y = top + (2 + pm.seats * span) * _P + _P / 2
    if pm.shutdown is not None:
        wires.append(_Wire((0, shut_y + _P), pads[_pad_key(pm.shutdown)], _COLOURS["shutdown"], False,
                           "shutdown button", _pad_key(pm.shutdown)))
    for exp in pm.expanders.values():
        wires.append(_Wire(pads[f"{exp.name}:INTA"], pads[f"GPIO{exp.interrupt.bcm}"], _COLOURS["int"], False,
                           f"{exp.name}:INTA", f"GPIO{exp.interrupt.bcm}", leftward=True))
        wires.append(_Wire(pads[f"{exp.name}:SDA"], pads["GPIO2"], _COLOURS["i2c"], False,
                           f"{exp.name}:SDA", "GPIO2", leftward=True))
        wires.append(_Wire(pads[f"{exp.name}:SCK"], pads["GPIO3"], _COLOURS["scl"], False,
                           f"{exp.name}:SCK", "GPIO3", leftward=True))

    panel_w, gap, step = 250, 20, 8
    ch0 = 20 + panel_w + gap
    tx = ch0 + len(wires) * step + gap
    width = tx + 330
    height = max(right_height, shut_y + 4 * _P) + 20
    # channel order: by destination, then source, so most wires nest instead of crossing
    order = sorted(range(len(wires)), key=lambda i: (wires[i].dst[1], wires[i].src[1]))
    lane = {w: ch0 + n * step for n, w in enumerate(order)}

    s: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="20" y="28" font-size="18" font-weight="bold">Burrito Table wiring: {pm.seats} seats, every wire</text>',
        f'<text x="20" y="48" fill="#555">generated from {escape(Path(pm.source).name)} (python -m hardware.drawings); '
        f'buttons switch to GND, pull-ups inside the Pi and the MCP23017</text>',
        f'<text x="20" y="66" fill="#555">wire colours = seat cable cores (T568B, striped = white/colour); '
        f'amber = GPIO to the seat light driver ({R_BASE_OHM} ohm, PN2222A)</text>',
    ]
    lx = 20
    for kind, text in (("light", "light GPIO"), ("int", "INTA"), ("i2c", "SDA"), ("scl", "SCL"),
                       ("shutdown", "shutdown"), ("power", "power"), ("gnd", "GND"), ("free", "free")):
        s.append(f'<circle cx="{lx + 6}" cy="86" r="6" fill="{_COLOURS[kind]}"/>'
                 f'<text x="{lx + 16}" y="90">{text}</text>')
        lx += 16 + 7 * len(text) + 22
    # wires first, pads on top
    for i, w in enumerate(wires):
        cx = lane[i]
        x0 = tx if w.leftward else 20 + panel_w
        pts = f"{x0},{w.src[1]} {cx},{w.src[1]} {cx},{w.dst[1]} {tx},{w.dst[1]}"
        attrs = (f'class="wire" data-from="{escape(w.src_name)}" data-to="{escape(w.dst_name)}" '
                 f'points="{pts}" fill="none" stroke-linejoin="round"')
        s.append(f'<polyline {attrs} stroke="{w.colour}" stroke-width="2.2"/>')
        if w.striped:
            s.append(f'<polyline points="{pts}" fill="none" stroke="white" stroke-width="1.2" '
                     f'stroke-dasharray="4 4"/>')
        s.append(f'<circle cx="{cx}" cy="{w.dst[1]}" r="2" fill="{w.colour}"/>')
    # seat panels
    for panel in pm.seat_panels():
        y0 = panel_y[panel.seat]
        h = (len(pm.buttons) + 3) * _P
        s.append(f'<rect x="20" y="{y0 - _P / 2 - 4}" width="{panel_w}" height="{h + _P / 2}" rx="5" '
                 f'fill="#fff7e6" stroke="#333"/>')
        s.append(f'<text x="28" y="{y0 + 4}" font-weight="bold">Seat {panel.seat} cable (RJ45, T568B)</text>')
        for k, b in enumerate(pm.buttons):
            core = cable[b]
            y = y0 + (k + 1) * _P
            s.append(f'<text x="28" y="{y + 4}">{core.pin} {core.colour}</text>'
                     f'<text x="{20 + panel_w - 10}" y="{y + 4}" text-anchor="end" font-weight="bold">{escape(b)}</text>')
            s.append(_pad(20 + panel_w, y, core.hex, f"seat{panel.seat}-{b}"))
        y = y0 + (len(pm.buttons) + 1) * _P
        # the light: core 5 goes to the driver's collector, never to a pin; the GPIO wire starts at the driver
        qx = 20 + panel_w - 92
        s.append(f'<text x="28" y="{y + 4}">5 white/blue LED-</text>'
                 f'<line x1="{qx - 22}" y1="{y}" x2="{qx}" y2="{y}" stroke="#1f5fd1" stroke-width="2"/>'
                 f'<rect x="{qx}" y="{y - 7}" width="82" height="14" rx="3" fill="#fde9b8" stroke="#b77900"/>'
                 f'<text x="{qx + 41}" y="{y + 4}" text-anchor="middle" font-size="10">Q{panel.seat} + {R_BASE_OHM} ohm'
                 f'</text><line x1="{qx + 82}" y1="{y}" x2="{20 + panel_w}" y2="{y}" stroke="{_COLOURS["light"]}" '
                 f'stroke-width="2"/>')
        s.append(_pad(20 + panel_w, y, _COLOURS["light"], f"seat{panel.seat}-light"))
        y += _P
        s.append(f'<text x="28" y="{y + 4}" fill="#555" font-size="10">4 blue +5V rail; 7+8 GND; Q{panel.seat} '
                 f'driver on the HAT</text>')
    if pm.shutdown is not None:
        s.append(f'<rect x="20" y="{shut_y - _P / 2 - 4}" width="{panel_w}" height="{2.5 * _P + 4}" rx="5" '
                 f'fill="#fde7f0" stroke="#333"/>')
        s.append(f'<text x="28" y="{shut_y + 4}" font-weight="bold">Shutdown button (other leg to GND)</text>')
        s.append(f'<text x="28" y="{shut_y + _P + 4}">dtoverlay=gpio-shutdown,gpio_pin={pm.shutdown.bcm}</text>')
        s.append(_pad(20 + panel_w, shut_y + _P, _COLOURS["shutdown"], "shutdown"))
    # header
    roles = _header_roles(pm)
    s.append(f'<rect x="{tx - 12}" y="{header_top - 2.5 * _P}" width="{width - tx - 8}" height="{42.5 * _P}" rx="6" '
             f'fill="#f3f3f3" stroke="#333"/>')
    s.append(f'<text x="{tx}" y="{header_top - 1.5 * _P + 2}" font-weight="bold">Raspberry Pi 40-pin header, by pin number</text>')
    s.append(f'<text x="{tx}" y="{header_top - 0.5 * _P - 2}" fill="#555" font-size="10">'
             f'(odd pins: inner row, even: board edge)</text>')
    for phys in range(1, 41):
        v = HEADER[phys]
        key = f"GPIO{v}" if isinstance(v, int) else f"pin{phys}"
        label, kind = roles[phys]
        y = pads[key][1]
        s.append(_pad(tx, y, _COLOURS[kind], f"hdr-{phys}"))
        s.append(f'<text x="{tx + 12}" y="{y + 4}">{phys:>2}</text>'
                 f'<text x="{tx + 34}" y="{y + 4}" fill="{_COLOURS[kind] if kind != "free" else "#999"}">'
                 f'{escape(label)}</text>')
    # expanders
    for exp in pm.expanders.values():
        r0 = exp_rows[exp.name]
        ey = top + r0 * _P
        s.append(f'<rect x="{tx - 12}" y="{ey - _P}" width="{width - tx - 8}" height="{23 * _P}" rx="6" '
                 f'fill="#eef4ff" stroke="#333"/>')
        s.append(f'<text x="{tx}" y="{ey + 2}" font-weight="bold">MCP23017 {escape(exp.name)} at 0x{exp.address:02X} '
                 f'(A2 A1 A0 = {(exp.address >> 2) & 1} {(exp.address >> 1) & 1} {exp.address & 1})</text>')
        s.append(f'<text x="{tx}" y="{ey + _P + 2}" fill="#555" font-size="10">VDD 9, RESET 18 to 3V3; VSS 10 to GND; '
                 f'100 nF</text>')
        used: dict[str, str] = {}
        for panel in pm.seat_panels():
            for b, ref in panel.buttons.items():
                if ref.expander == exp.name:
                    used[f"{ref.port}{ref.bit}"] = f"seat {panel.seat} {b}"
        for port in [f"A{i}" for i in range(8)] + [f"B{i}" for i in range(8)]:
            y = pads[f"{exp.name}:{port}"][1]
            label = used.get(port, "output only (rev. D)" if port.endswith("7") else "free")
            colour = _COLOURS["button"] if port in used else "#999"
            s.append(_pad(tx, y, colour if port in used else _COLOURS["free"], f"{exp.name}-{port}"))
            s.append(f'<text x="{tx + 12}" y="{y + 4}">GP{port} ({MCP_PIN_NUMBER[port]})</text>'
                     f'<text x="{tx + 100}" y="{y + 4}" fill="{colour}">{escape(label)}</text>')
        for sig, chip_pin, kind, to in (("INTA", 20, "int", f"GPIO{exp.interrupt.bcm} (pin {exp.interrupt.physical})"),
                                        ("SDA", 13, "i2c", "GPIO2 (pin 3)"), ("SCK", 12, "scl", "GPIO3 (pin 5)")):
            y = pads[f"{exp.name}:{sig}"][1]
            s.append(_pad(tx, y, _COLOURS[kind], f"{exp.name}-{sig}"))
            s.append(f'<text x="{tx + 12}" y="{y + 4}">{sig} ({chip_pin})</text>'
                     f'<text x="{tx + 100}" y="{y + 4}" fill="{_COLOURS[kind]}">to {to}</text>')
    s.append("</svg>")
    return "\n".join(s) + "\n"


def _pad(x: float, y: float, colour: str, ident: str) -> str:
    return f'<circle id="pad-{escape(ident).replace(":", "-")}" cx="{x}" cy="{y}" r="5" fill="{colour}" stroke="#333"/>'
