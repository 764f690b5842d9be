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
# SVG

_COLOURS = {"button": "#2f7de1", "light": "#e8a317", "int": "#9b40c9", "i2c": "#1a9c5b", "power": "#d33",
            "gnd": "#222", "uart": "#888", "shutdown": "#c2185b", "free": "#bbb"}


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
            roles[_phys(bcm)] = (f"GPIO{bcm} {what.split()[-1]}", "i2c")
    if pm.uart_enabled:
        for bcm, what in UART_PINS.items():
            roles[_phys(bcm)] = (f"GPIO{bcm} {what.split()[-1]} (kept free)", "uart")
    for panel in pm.seat_panels():
        roles[panel.light.physical or 0] = (f"GPIO{panel.light.bcm} seat {panel.seat} light", "light")
        for b, ref in panel.buttons.items():
            if ref.is_gpio:
                roles[ref.physical or 0] = (f"GPIO{ref.bcm} seat {panel.seat} {b}", "button")
    for exp in pm.expanders.values():
        roles[exp.interrupt.physical or 0] = (f"GPIO{exp.interrupt.bcm} {exp.name} INT", "int")
    if pm.shutdown is not None:
        roles[pm.shutdown.physical or 0] = (f"GPIO{pm.shutdown.bcm} shutdown button", "shutdown")
    return roles


def wiring_svg(pm: PinMap) -> str:
    """A self-contained SVG: the 40-pin header labelled from the pin map, and each expander's ports."""
    row_h, top = 22, 90
    hx = 330  # x of the odd-pin column
    exp_x = 820
    exp_h = 16 * row_h + 80
    width = exp_x + 420 if pm.expanders else 960
    height = max(top + 20 * row_h + 200, top + len(pm.expanders) * (exp_h + 30) + 40)
    s: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="20" y="30" font-size="18" font-weight="bold">Burrito Table wiring: {pm.seats} seats</text>',
        f'<text x="20" y="52" fill="#555">generated from {escape(Path(pm.source).name)} by burrito-table pins --svg; '
        f'buttons switch to GND (internal pull-ups)</text>',
        f'<text x="{hx - 10}" y="{top - 12}" font-weight="bold">Raspberry Pi 40-pin header (pin 1 top left)</text>',
        f'<rect x="{hx - 14}" y="{top - 6}" width="{row_h + 28}" height="{20 * row_h + 8}" rx="6" '
        f'fill="#f3f3f3" stroke="#333"/>',
    ]
    roles = _header_roles(pm)
    for phys in range(1, 41):
        r, odd = (phys - 1) // 2, phys % 2 == 1
        x = hx if odd else hx + row_h
        y = top + r * row_h + row_h / 2
        label, kind = roles[phys]
        colour = _COLOURS[kind]
        s.append(f'<circle cx="{x}" cy="{y}" r="7" fill="{colour}" stroke="#333"/>')
        s.append(f'<text x="{x}" y="{y + 3}" font-size="8" text-anchor="middle" fill="white">{phys}</text>')
        if odd:
            s.append(f'<text x="{x - 14}" y="{y + 4}" text-anchor="end" fill="{colour}">{escape(label)}</text>')
        else:
            s.append(f'<text x="{x + 14}" y="{y + 4}" fill="{colour}">{escape(label)}</text>')
    # legend
    ly = top + 20 * row_h + 40
    for i, (kind, text) in enumerate([("button", "button input"), ("light", "seat light (PWM, via transistor)"),
                                      ("int", "expander INT"), ("i2c", "I2C to expanders"),
                                      ("shutdown", "safe-shutdown button"), ("power", "power"), ("gnd", "ground"),
                                      ("free", "free")]):
        x = 20 + (i % 3) * 240
        y = ly + (i // 3) * 22
        s.append(f'<circle cx="{x}" cy="{y}" r="6" fill="{_COLOURS[kind]}"/>')
        s.append(f'<text x="{x + 12}" y="{y + 4}">{escape(text)}</text>')
    # expanders
    for n, exp in enumerate(pm.expanders.values()):
        ex, ey = exp_x, top + n * (exp_h + 30)
        s.append(f'<rect x="{ex}" y="{ey}" width="400" height="{exp_h}" rx="6" fill="#eef4ff" stroke="#333"/>')
        s.append(f'<text x="{ex + 10}" y="{ey + 20}" font-weight="bold">MCP23017 {escape(exp.name)} at '
                 f'0x{exp.address:02X} (A2 A1 A0 = {(exp.address >> 2) & 1} {(exp.address >> 1) & 1} '
                 f'{exp.address & 1})</text>')
        s.append(f'<text x="{ex + 10}" y="{ey + 38}" fill="#555">VDD 9 + RESET 18 to 3V3, VSS 10 to GND, '
                 f'SCK 12 to pin 5,</text>')
        s.append(f'<text x="{ex + 10}" y="{ey + 54}" fill="{_COLOURS["int"]}">SDA 13 to pin 3, INTA 20 to GPIO{exp.interrupt.bcm} '
                 f'(pin {exp.interrupt.physical})</text>')
        used: dict[str, str] = {}
        for panel in pm.seat_panels():
            for b, ref in panel.buttons.items():
                if ref.expander == exp.name:
                    used[f"{ref.port}{ref.bit}"] = f"seat {panel.seat} {b}"
        for k, port in enumerate([f"A{i}" for i in range(8)] + [f"B{i}" for i in range(8)]):
            y = ey + 76 + k * row_h
            label = used.get(port, "output only (rev. D)" if port.endswith("7") else "free")
            colour = _COLOURS["button"] if port in used else _COLOURS["free"]
            s.append(f'<circle cx="{ex + 20}" cy="{y}" r="6" fill="{colour}"/>')
            s.append(f'<text x="{ex + 34}" y="{y + 4}">GP{port} (pin {MCP_PIN_NUMBER[port]})</text>')
            s.append(f'<text x="{ex + 170}" y="{y + 4}" fill="{colour}">{escape(label)}</text>')
    s.append("</svg>")
    return "\n".join(s) + "\n"
