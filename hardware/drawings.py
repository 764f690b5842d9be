"""The build guide's pictures, generated from the pin map and the design figures.

Every drawing is made here, from the same data the software reads (the pin
maps, the seat cable, the light driver's values in :mod:`hardware.bom`), so a
picture cannot drift from the code.  Regenerate them all with::

    python -m hardware.drawings            # writes docs/build/
    python -m hardware.drawings --check    # exit 1 if a committed picture is out of date

The drilling template is drawn in millimetres (``viewBox`` = mm, A4 page) so it
prints at true scale; its PDF is made from the same SVG by cairosvg.

>>> svg = drill_template_svg()
>>> 'width="210mm"' in svg and 'viewBox="0 0 210 297"' in svg
True
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from html import escape
from pathlib import Path

from . import bom
from .pinmap import Expander, Panel, PinMap, load_pinmap
from .wiring import seat_cable, wiring_svg

DOCS_BUILD = Path(__file__).resolve().parent.parent / "docs" / "build"
PINMAPS = Path(__file__).resolve().parent
FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'

# ---------------------------------------------------------------------------------------
# the seat light driver


def led_driver_svg(pm: PinMap) -> str:
    """Schematic of one seat's light: GPIO -> 680 ohm -> NPN; the panel's four LEDs in its collector."""
    d = bom.led_driver(pm.seats)
    panel = pm.seat_panels()[0]
    cable = {c.signal: c for c in seat_cable(pm.buttons)}
    w, h = 1040, 600
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" {FONT} '
         f'font-size="13">', f'<rect width="{w}" height="{h}" fill="white"/>',
         '<text x="20" y="30" font-size="18" font-weight="bold">Seat light driver (one per seat)</text>',
         f'<text x="20" y="50" fill="#555">drawn for seat {panel.seat}: GPIO{panel.light.bcm} (header pin '
         f'{panel.light.physical}); every seat is the same with its own GPIO from the pin map</text>']
    g = 'stroke="#111" stroke-width="2" fill="none"'
    rail_y, gnd_y = 90, 520
    # +5 V rail and bulk capacitor
    s.append(f'<line x1="40" y1="{rail_y}" x2="560" y2="{rail_y}" {g}/>')
    s.append(f'<text x="60" y="{rail_y - 8}" fill="#d33" font-weight="bold">+5 V (header pin 2/4, or the LED supply)'
             f'</text>')
    s.append(_capacitor(45, rail_y, gnd_y, "C470u", "470 uF 10 V", "one per board, by the drivers"))
    # the panel: four LEDs in parallel, each with its built-in resistor
    s.append(f'<rect x="170" y="{rail_y + 25}" width="360" height="225" rx="8" stroke="#8b5a2b" '
             f'stroke-dasharray="6 4" fill="#fff7e6"/>')
    join_y = rail_y + 215
    for k, b in enumerate(pm.buttons):
        x = 210 + k * 85
        s.append(f'<line x1="{x}" y1="{rail_y}" x2="{x}" y2="{rail_y + 60}" {g}/>')
        s.append(_resistor_v(x, rail_y + 60, rail_y + 110, "built-in"))
        s.append(_led_v(x, rail_y + 110, rail_y + 160))
        s.append(f'<line x1="{x}" y1="{rail_y + 160}" x2="{x}" y2="{join_y}" {g}/>')
        s.append(f'<text x="{x + 12}" y="{rail_y + 145}" font-size="11">{escape(b)}</text>')
    s.append(f'<line x1="210" y1="{join_y}" x2="{210 + (len(pm.buttons) - 1) * 85}" y2="{join_y}" {g}/>')
    s.append(f'<circle cx="{210 + 85}" cy="{join_y}" r="3" fill="#111"/>')
    s.append(f'<text x="180" y="{rail_y + 240}" font-size="11" fill="#8b5a2b">seat panel: core {cable["+5V"].pin} '
             f'({cable["+5V"].colour}) brings +5 V in, core {cable["LED-"].pin} ({cable["LED-"].colour}) '
             f'takes the return out</text>')
    # collector wire down to the transistor
    qx, qy = 460, 400  # base-bar position
    cx = qx + 30
    s.append(f'<line x1="{210 + 85 * (len(pm.buttons) - 1)}" y1="{join_y}" x2="{cx}" y2="{join_y}" {g}/>')
    s.append(f'<line x1="{cx}" y1="{join_y}" x2="{cx}" y2="{qy - 25}" {g}/>')
    s.append(f'<text x="{cx - 8}" y="{join_y + 50}" font-size="12" text-anchor="end">LED- (core '
             f'{cable["LED-"].pin}) to the collector: {d.collector_ma:g} mA at full</text>')
    s.append(_npn(qx, qy, gnd_y))
    s.append(f'<text x="{qx + 50}" y="{qy + 5}" font-weight="bold">Q{panel.seat} PN2222A</text>')
    s.append(f'<text x="{qx + 50}" y="{qy + 22}" font-size="11" fill="#555">TO-92, flat face: E B C</text>')
    # base resistor from the GPIO, pull-down to GND
    bx = qx - 20
    s.append(f'<line x1="150" y1="{qy}" x2="230" y2="{qy}" {g}/>')
    s.append(_resistor_h(230, 310, qy, f"RB {bom.R_BASE_OHM} ohm"))
    s.append(f'<line x1="310" y1="{qy}" x2="{bx}" y2="{qy}" {g}/>')
    s.append(f'<circle cx="150" cy="{qy}" r="6" fill="#e8a317" stroke="#111"/>')
    s.append(f'<text x="60" y="{qy - 12}" fill="#b77900" font-weight="bold">GPIO{panel.light.bcm} (pin {panel.light.physical})'
             f'</text><text x="60" y="{qy + 24}" font-size="11" fill="#555">PWM, 3.3 V high</text>')
    s.append(f'<circle cx="360" cy="{qy}" r="3" fill="#111"/>')
    s.append(f'<line x1="360" y1="{qy}" x2="360" y2="{qy + 25}" {g}/>')
    s.append(_resistor_v(360, qy + 25, qy + 85, f"RPD {bom.R_PULLDOWN_OHM // 1000} k", left=True))
    s.append(f'<line x1="360" y1="{qy + 85}" x2="360" y2="{gnd_y}" {g}/>')
    s.append(f'<line x1="40" y1="{gnd_y}" x2="560" y2="{gnd_y}" {g}/>')
    s.append(f'<text x="60" y="{gnd_y + 22}" font-weight="bold">GND (Pi GND, cable cores 7 + 8, and the LED '
             f'supply\'s GND if separate)</text>')
    # the math
    tx, ty = 640, 100
    vbe = bom.VBE_SAT_V
    lines = [
        ("The resistor math", "bold"),
        (f"LED current: {len(pm.buttons)} x {d.led_ma:g} mA = {d.collector_ma:g} mA", ""),
        ("  (design value; measure yours: most 5 V arcade LEDs", "small"),
        ("  draw 10-20 mA through their built-in resistor)", "small"),
        (f"Base: ({bom.GPIO_HIGH_V} - {vbe}) V / {bom.R_BASE_OHM} ohm", ""),
        (f"   - {vbe} V / {bom.R_PULLDOWN_OHM // 1000} k = {d.base_ma:.2f} mA", ""),
        (f"Forced gain {d.collector_ma:g} / {d.base_ma:.2f} = {d.forced_beta:.0f}", ""),
        (f"  <= hFE min {d.hfe_min:g} / 2 = {d.hfe_min / 2:g}: saturated,", ""),
        ("  VCE(sat) under 0.3 V: the LEDs get ~4.8 V", ""),
        (f"Q dissipation: {d.collector_ma:g} mA x 0.3 V = {d.collector_ma * 0.3:.0f} mW", ""),
        ("  (PN2222A: 625 mW)", "small"),
        (f"GPIO: {d.base_ma:.2f} mA per pin (limit {bom.GPIO_PIN_LIMIT_MA:g})", ""),
        (f"  6 seats {bom.led_driver(6).gpio_total_ma:.1f} mA, 12 seats {bom.led_driver(12).gpio_total_ma:.1f} mA", ""),
        (f"  of {bom.GPIO_TOTAL_LIMIT_MA:g} mA for all pins together", ""),
        (f"RPD {bom.R_PULLDOWN_OHM // 1000} k holds the base low while the", ""),
        ("  GPIO floats or has its boot pull-up (GPIO0-8:", "small"),
        ("  ~50 k to 3.3 V gives 0.55 V: below VBE, off)", "small"),
        ("The MCP23017 drives no light: it has no PWM", ""),
        (f"  (and {bom.MCP_PIN_LIMIT_MA:g} mA per pin would not do 80 mA)", "small"),
    ]
    for k, (text, style) in enumerate(lines):
        attrs = ' font-weight="bold" font-size="15"' if style == "bold" else (' font-size="11" fill="#555"'
                                                                                if style == "small" else "")
        indent = 14 if text.startswith("  ") else 0
        s.append(f'<text x="{tx + indent}" y="{ty + k * 22}"{attrs}>{escape(text.strip())}</text>')
    s.append("</svg>")
    return "\n".join(s) + "\n"


def _capacitor(x: float, y1: float, y2: float, ref: str, value: str, note: str) -> str:
    g = 'stroke="#111" stroke-width="2"'
    mid = (y1 + y2) / 2
    return (f'<circle cx="{x}" cy="{y1}" r="3" fill="#111"/>'
            f'<line x1="{x}" y1="{y1}" x2="{x}" y2="{mid - 5}" {g}/>'
            f'<line x1="{x - 16}" y1="{mid - 5}" x2="{x + 16}" y2="{mid - 5}" {g}/>'
            f'<path d="M {x - 16} {mid + 9} Q {x} {mid + 1} {x + 16} {mid + 9}" fill="none" {g}/>'
            f'<line x1="{x}" y1="{mid + 5}" x2="{x}" y2="{y2}" {g}/>'
            f'<text x="{x - 12}" y="{mid - 12}" font-size="11">+</text>'
            f'<text x="{x + 22}" y="{mid - 4}" font-size="11">{ref}</text>'
            f'<text x="{x + 22}" y="{mid + 10}" font-size="11">{value}</text>'
            f'<text x="{x + 22}" y="{mid + 24}" font-size="10" fill="#555">{note.split(",")[0]}</text>'
            f'<circle cx="{x}" cy="{y2}" r="3" fill="#111"/>')


def _resistor_v(x: float, y1: float, y2: float, label: str, left: bool = False) -> str:
    zig = " ".join(f"{x + (6 if i % 2 else -6)},{y1 + 8 + i * (y2 - y1 - 16) / 6}" for i in range(7))
    lx, anchor = (x - 12, "end") if left else (x + 12, "start")
    return (f'<polyline points="{x},{y1} {x},{y1 + 8} {zig} {x},{y2}" fill="none" stroke="#111" stroke-width="2"/>'
            f'<text x="{lx}" y="{(y1 + y2) / 2 + 4}" font-size="11" text-anchor="{anchor}">{escape(label)}</text>')


def _resistor_h(x1: float, x2: float, y: float, label: str) -> str:
    zig = " ".join(f"{x1 + 8 + i * (x2 - x1 - 16) / 6},{y + (6 if i % 2 else -6)}" for i in range(7))
    return (f'<polyline points="{x1},{y} {x1 + 8},{y} {zig} {x2},{y}" fill="none" stroke="#111" stroke-width="2"/>'
            f'<text x="{(x1 + x2) / 2}" y="{y - 14}" font-size="12" text-anchor="middle">{escape(label)}</text>')


def _led_v(x: float, y1: float, y2: float) -> str:
    m = (y1 + y2) / 2
    return (f'<line x1="{x}" y1="{y1}" x2="{x}" y2="{m - 10}" stroke="#111" stroke-width="2"/>'
            f'<polygon points="{x - 10},{m - 10} {x + 10},{m - 10} {x},{m + 8}" fill="#ffd54f" stroke="#111" '
            f'stroke-width="2"/><line x1="{x - 10}" y1="{m + 8}" x2="{x + 10}" y2="{m + 8}" stroke="#111" '
            f'stroke-width="2"/><line x1="{x}" y1="{m + 8}" x2="{x}" y2="{y2}" stroke="#111" stroke-width="2"/>'
            f'<path d="M {x + 13} {m - 6} l 9 -7 M {x + 13} {m + 2} l 9 -7" stroke="#e8a317" stroke-width="1.5"/>')


def _npn(bx: float, by: float, gnd_y: float) -> str:
    """NPN: base bar at (bx, by); collector up to by-25, emitter down to GND."""
    cx = bx + 30
    g = 'stroke="#111" stroke-width="2" fill="none"'
    return (f'<circle cx="{bx + 12}" cy="{by}" r="28" {g}/>'
            f'<line x1="{bx - 20}" y1="{by}" x2="{bx}" y2="{by}" {g}/>'
            f'<line x1="{bx}" y1="{by - 14}" x2="{bx}" y2="{by + 14}" stroke="#111" stroke-width="3"/>'
            f'<line x1="{bx}" y1="{by - 6}" x2="{cx}" y2="{by - 25}" {g}/>'
            f'<line x1="{bx}" y1="{by + 6}" x2="{cx}" y2="{by + 25}" {g}/>'
            f'<polygon points="{cx},{by + 25} {cx - 11},{by + 22} {cx - 5},{by + 14}" fill="#111"/>'
            f'<line x1="{cx}" y1="{by + 25}" x2="{cx}" y2="{gnd_y}" {g}/>'
            f'<circle cx="{cx}" cy="{gnd_y}" r="3" fill="#111"/>'
            f'<text x="{cx + 6}" y="{by - 28}" font-size="11">C</text>'
            f'<text x="{bx - 18}" y="{by - 6}" font-size="11">B</text>'
            f'<text x="{cx + 6}" y="{by + 40}" font-size="11">E</text>')


# ---------------------------------------------------------------------------------------
# the seat cable

#: CAT5e conductor: 24 AWG, 0.51 mm, about 0.084 ohm per metre.
CORE_OHM_PER_M = 0.084


def seat_cable_svg(pm: PinMap, length_m: float = 5.0) -> str:
    """The RJ45 pinout of the seat cable, T568B colours, what each core carries and where it lands."""
    cores = seat_cable(pm.buttons)
    d = bom.led_driver(pm.seats)
    drop = d.collector_ma / 1000 * CORE_OHM_PER_M * length_m * 2
    w, h = 980, 560
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" {FONT} '
         f'font-size="13">', f'<rect width="{w}" height="{h}" fill="white"/>',
         '<text x="20" y="30" font-size="18" font-weight="bold">Seat cable: CAT5e, RJ45, T568B at both ends</text>',
         '<text x="20" y="50" fill="#555">a straight patch cable: table-edge keystone to panel keystone; '
         'the same colours at the board\'s 2 x 4 seat header</text>']
    # RJ45 plug face, contacts up, latch down
    px, py = 40, 80
    s.append(f'<rect x="{px}" y="{py}" width="260" height="200" rx="10" fill="#eef" stroke="#333" stroke-width="2"/>')
    s.append(f'<rect x="{px + 85}" y="{py + 200}" width="90" height="40" fill="#9ab" stroke="#333" stroke-width="2"/>')
    s.append(f'<text x="{px + 130}" y="{py + 225}" text-anchor="middle" font-size="11">cable</text>')
    s.append(f'<text x="{px + 130}" y="{py + 262}" text-anchor="middle" font-size="11" fill="#555">plug: gold contacts '
             f'towards you, latch at the back,</text>')
    s.append(f'<text x="{px + 130}" y="{py + 278}" text-anchor="middle" font-size="11" fill="#555">cable down: '
             f'pin 1 on the left</text>')
    for k, c in enumerate(cores):
        x = px + 30 + k * 28
        s.append(_core_rect(x, py + 20, 18, 160, c.hex, c.striped, f"rj45-{c.pin}"))
        s.append(f'<text x="{x + 9}" y="{py + 14}" text-anchor="middle" font-size="12" font-weight="bold">{c.pin}</text>')
    # the table
    tx, ty = 350, 90
    cols = (("pin", 0), ("colour", 40), ("carries", 160), ("lands at the table end", 260))
    for name, dx in cols:
        s.append(f'<text x="{tx + dx}" y="{ty}" font-weight="bold">{name}</text>')
    for k, c in enumerate(cores):
        y = ty + 26 + k * 26
        s.append(f'<text x="{tx}" y="{y}">{c.pin}</text>')
        s.append(_core_rect(tx + 40, y - 12, 30, 14, c.hex, c.striped, f"row-{c.pin}", horizontal=True))
        s.append(f'<text x="{tx + 76}" y="{y}" font-size="12">{c.colour}</text>')
        s.append(f'<text x="{tx + 160}" y="{y}" font-weight="bold" data-core="{c.pin}">{escape(c.signal)}</text>')
        s.append(f'<text x="{tx + 260}" y="{y}" font-size="12">{escape(c.to)}</text>')
    notes = [
        "Pairs: 1-2 orange, 3-6 green, 4-5 blue, 7-8 brown. +5 V and LED- share the blue pair, so the",
        "PWM current goes out and back on one twisted pair; both browns are GND (two cores for the button common).",
        f"Gauge: CAT5e is 24 AWG ({CORE_OHM_PER_M} ohm/m a core). The light's {d.collector_ma:g} mA, out and back "
        f"over {length_m:g} m, loses {drop:.2f} V:",
        "harmless. Buttons carry microamps. Inside the panel use 22 AWG stranded hook-up wire",
        "with 2.8 mm (.110 in) quick-connects on the button tabs (check yours: some microswitches take 4.8 mm).",
        "Longer than 3 m: add a 10 k pull-up to 3V3 at each button input on the board (the expander's own is ~100 k).",
        "In the panel: every button's switch has one tab on its input core and one on GND; every LED+ on +5 V,",
        "every LED- on core 5. Keep I2C on the board: it never goes out on a seat cable.",
    ]
    for k, text in enumerate(notes):
        s.append(f'<text x="20" y="{400 + k * 19}" font-size="12">{escape(text)}</text>')
    s.append("</svg>")
    return "\n".join(s) + "\n"


def _core_rect(x: float, y: float, w: float, h: float, colour: str, striped: bool, ident: str,
               horizontal: bool = False) -> str:
    out = f'<rect id="{ident}" x="{x}" y="{y}" width="{w}" height="{h}" fill="{colour}" stroke="#333"/>'
    if striped:
        # white core with coloured stripes: draw white bands across a coloured base
        n = 6
        for i in range(n):
            if horizontal:
                out += f'<rect x="{x + i * w / n}" y="{y}" width="{w / n / 2}" height="{h}" fill="white"/>'
            else:
                out += f'<rect x="{x}" y="{y + i * h / n}" width="{w}" height="{h / n / 2}" fill="white"/>'
        out += f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="none" stroke="#333"/>'
    return out


# ---------------------------------------------------------------------------------------
# the proto HAT placement plan


HAT_W, HAT_H = 65.0, 56.5  # Raspberry Pi HAT board, mm
PITCH = 2.54


def protohat_svg(pm: PinMap, board: int = 1) -> str:
    """Where each part goes on a 65 x 56.5 mm proto board (0.1 in grid): six seats and two expanders a board.

    Board 1 is the HAT on the Pi's header; board 2 (seats 7-12) takes its rails, I2C, INT and light lines
    from the HAT through a 1-row link header.
    """
    exps = list(pm.expanders.values())[2 * (board - 1):2 * board]
    seats = pm.seat_panels()[6 * (board - 1):6 * board]
    if not seats:
        raise ValueError(f"board {board} has no seats: the pin map has {pm.seats}")
    link = _link_pins(pm, exps, seats) if board > 1 else []
    if len(link) > 23:
        raise ValueError(f"board {board}: {len(link)} link pins do not fit one row of 23")
    first = f"Proto HAT placement plan ({len(seats)} seats, {len(exps)} expanders), top view" if board == 1 else (
        f"Second board placement plan: seats {seats[0].seat}-{seats[-1].seat}, "
        f"{', '.join(e.name for e in exps) or 'no expanders'}, top view")
    more = (f"seats 7-{pm.seats} repeat these blocks on a second board (protohat-12-seats-board2.svg)"
            if board == 1 and pm.seats > 6 else "a second board for seats 7-12: protohat-12-seats-board2.svg"
            if board == 1 else "the link header's wires run to the same pins on the HAT (same rails, I2C, GPIOs)")
    k = 9.0  # px per mm: big enough to read, the grid is still the true 2.54 mm
    ox, oy = 40.0, 110.0
    w, h = int(ox * 2 + HAT_W * k + 340), int(oy + HAT_H * k + 60)

    def X(mm: float) -> float:
        return round(ox + mm * k, 2)

    def Y(mm: float) -> float:
        return round(oy + mm * k, 2)

    def hole(col: float, row: float) -> tuple[float, float]:
        return 5.0 + col * PITCH, 10.5 + row * PITCH

    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" {FONT} '
         f'font-size="12">', f'<rect width="{w}" height="{h}" fill="white"/>',
         f'<text x="20" y="30" font-size="18" font-weight="bold">{escape(first)}</text>',
         '<text x="20" y="50" fill="#555">65 x 56.5 mm board, 2.54 mm hole grid drawn to scale; '
         'wire it from the wiring diagram and the light driver schematic</text>',
         f'<text x="20" y="68" fill="#555">{escape(more)}</text>',
         f'<rect x="{X(0)}" y="{Y(0)}" width="{HAT_W * k}" height="{HAT_H * k}" rx="{3 * k}" fill="#1f6b3a" '
         f'stroke="#333" stroke-width="2"/>']
    for col in range(23):
        for row in range(18):
            hx, hy = hole(col, row)
            s.append(f'<circle cx="{X(hx)}" cy="{Y(hy)}" r="{0.5 * k}" fill="#c9a74a"/>')
    if board == 1:
        # Pi header along the top edge: 2 x 20, pin 1 at the left, odd pins on the inner row
        for n in range(20):
            for r, pin in ((1, 2 * n + 1), (0, 2 * n + 2)):
                x, y = 7.1 + n * PITCH, 3.5 + (r - 0.5) * PITCH
                s.append(f'<rect x="{X(x) - 0.9 * k}" y="{Y(y) - 0.9 * k}" width="{1.8 * k}" height="{1.8 * k}" '
                         f'fill="#222" data-pin="{pin}"/>')
        s.append(f'<text x="{X(7.1)}" y="{Y(0) - 6}" fill="#222">Pi header, pin 1 here (odd pins inner row)</text>')
    else:
        for n, (name, _) in enumerate(link):
            x = 5.0 + n * PITCH
            s.append(f'<rect x="{X(x) - 0.9 * k}" y="{Y(5.0) - 0.9 * k}" width="{1.8 * k}" height="{1.8 * k}" '
                     f'fill="#222" data-link="{escape(name)}"/>')
            s.append(f'<text x="{X(x)}" y="{Y(5.0) - 12}" fill="white" font-size="9" text-anchor="middle">{n + 1}'
                     f'</text>')
        s.append(f'<text x="{X(5.0)}" y="{Y(0) - 6}" fill="#222">link header to the HAT, pin 1 here</text>')

    def part(col: float, row: float, cols: float, rows: float, fill: str, label: str, sub: str = "") -> None:
        x, y = hole(col, row)
        s.append(f'<rect x="{X(x - 0.9)}" y="{Y(y - 0.9)}" width="{(cols * PITCH + 1.8 - PITCH) * k}" '
                 f'height="{(rows * PITCH + 1.8 - PITCH) * k}" rx="3" fill="{fill}" stroke="#111" '
                 f'fill-opacity="0.92"/>')
        cxp = X(x - 0.9) + (cols * PITCH + 1.8 - PITCH) * k / 2
        cyp = Y(y - 0.9) + (rows * PITCH + 1.8 - PITCH) * k / 2
        s.append(f'<text x="{cxp}" y="{cyp + (0 if sub else 4)}" text-anchor="middle" fill="white" '
                 f'font-weight="bold">{escape(label)}</text>')
        if sub:
            s.append(f'<text x="{cxp}" y="{cyp + 14}" text-anchor="middle" fill="white" font-size="10">'
                     f'{escape(sub)}</text>')

    for i, exp in enumerate(exps):
        r0 = 1 + i * 6
        part(0, r0, 14, 4, "#333", f"{exp.name} MCP23017 at 0x{exp.address:02X}",
             "socket; pin 1 bottom left, notch left")
        part(8, r0 + 4, 2, 1, "#c0392b", f"C{exp.name[1:] or i + 1}")  # across pins 9 (VDD) and 10 (VSS)
    for j, panel in enumerate(seats):
        col = 16 + (j % 2) * 4
        row = 1 + (j // 2) * 4
        part(col, row, 3, 1, "#444", f"Q{panel.seat}", "")
        part(col, row + 1, 3, 1, "#b9770e", f"RB{panel.seat}")
        part(col, row + 2, 3, 1, "#7d6608", f"RPD{panel.seat}")
    for j, panel in enumerate(seats):
        col = (j % 3) * 5
        row = 13 + (j // 3) * 3
        part(col, row, 4, 2, "#2c3e50", f"seat {panel.seat}", "2 x 4")
    part(16, 13, 3, 3, "#5b2c6f", "C470u", "5 V")
    part(20, 13, 2, 2, "#c0392b", "C10u", "3V3")
    if board == 1:
        part(20, 16, 2, 1, "#c2185b", "SHDN")
    # legend on the right
    lx, ly = X(HAT_W) + 30, oy + 10
    src = "header" if board == 1 else "link"
    legend = [
        f"{', '.join(e.name for e in exps)}: MCP23017 in a DIP-28 socket",
        f"  {', '.join('C' + (e.name[1:] or '') for e in exps)}: 100 nF right across pins 9-10",
        "Q + RB + RPD: one light driver per seat",
        "  TO-92 flat face to the header: E B C",
        "  RB 680 ohm from the seat's GPIO to B",
        "  RPD 10 k from B to GND",
        "seat N: 2 x 4 header, cores 1-8 as",
        "  the seat cable (pin 1 = white/orange)",
        "C470u: 5 V LED rail; C10u: 3V3 rail",
        "SHDN: 2 pins to the shutdown button" if board == 1 else "",
        "Rails (run bare wire along the edge strips):",
        f"  3V3 from {src} pin 1: expander VDD,",
        "    RESET, address pins tied high",
        f"  5 V LED rail from {src} pin {'2/4' if board == 1 else 2}: LED+ (core 4)",
        f"  GND from {src} pin {'6/9/14' if board == 1 else 3}: VSS, emitters,",
        "    cores 7 + 8, address pins tied low",
        "Never run the expanders from 5 V.",
    ]
    if link:
        legend += ["12 seats: the second 5 V supply feeds the LED", "  rails of both boards, not the Pi (GND joined)",
                   "", "Link header (to the HAT):"]
        legend += [f"  {n + 1}: {name} ({to})" for n, (name, to) in enumerate(link)]
    for n, text in enumerate(legend):
        indent = 14 if text.startswith("  ") else 0
        s.append(f'<text x="{lx + indent}" y="{ly + n * 19}">{escape(text.strip())}</text>')
    h = max(h, int(ly + len(legend) * 19 + 10))
    s[0] = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" {FONT} '
            f'font-size="12">')
    s[1] = f'<rect width="{w}" height="{h}" fill="white"/>'
    s.append("</svg>")
    return "\n".join(s) + "\n"


def _link_pins(pm: PinMap, exps: list[Expander], seats: list[Panel]) -> list[tuple[str, str]]:
    """The second board's link to the HAT: rails, I2C, its expanders' INT lines, its seats' light GPIOs."""
    pins = [("3V3", "header pin 1"), ("LED 5V", "the HAT's LED rail"), ("GND", "header pin 6"),
            ("SDA", "GPIO2, pin 3"), ("SCL", "GPIO3, pin 5")]
    pins += [(f"{e.name} INTA", f"GPIO{e.interrupt.bcm}, pin {e.interrupt.physical}") for e in exps]
    pins += [(f"seat {p.seat} light", f"GPIO{p.light.bcm}, pin {p.light.physical}") for p in seats]
    return pins


# ---------------------------------------------------------------------------------------
# the panel drilling template (true scale)

A4_W, A4_H = 210.0, 297.0
HOLE_MM = 30.0           # the arcade button's mounting hole
HOLE_ALT_MM = 28.0       # screw-in buttons whose threaded body is 28 mm
BEZEL_MM = 34.0          # the ring on top of the panel, to check clearance
SPACING_MM = 40.0        # centre to centre: 10 mm of panel between holes, 6 mm between bezels
PANEL_W, PANEL_H = 190.0, 70.0
SCALE_BAR_MM = 100.0
SHUTDOWN_HOLE_MM = 12.0


def hole_centres(n: int = 4) -> list[tuple[float, float]]:
    """Button hole centres on the A4 page, mm, left to right."""
    cy = 40.0 + PANEL_H / 2
    return [(A4_W / 2 + (i - (n - 1) / 2) * SPACING_MM, cy) for i in range(n)]


def drill_template_svg(buttons: tuple[str, ...] = ("SET", "BRAWL", "WAR", "DUEL")) -> str:
    """A4 page in millimetres: the panel's four button holes, their spacing, a 100 mm check bar."""
    centres = hole_centres(len(buttons))
    px, py = (A4_W - PANEL_W) / 2, 40.0
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{A4_W:g}mm" height="{A4_H:g}mm" '
         f'viewBox="0 0 {A4_W:g} {A4_H:g}" {FONT} font-size="4">',
         f'<rect width="{A4_W:g}" height="{A4_H:g}" fill="white"/>',
         '<text x="10" y="14" font-size="6" font-weight="bold">Burrito Table seat panel: drilling template</text>',
         '<text x="10" y="21">Print at 100 % (actual size, no "fit to page"); check the 100 mm bar below first.</text>',
         '<text x="10" y="27">Tape it to the panel top, centre-punch the crosses, drill a 3 mm pilot, then the hole.'
         '</text>',
         f'<rect x="{px:g}" y="{py:g}" width="{PANEL_W:g}" height="{PANEL_H:g}" rx="4" fill="none" stroke="#555" '
         f'stroke-width="0.4" stroke-dasharray="3 1.5"/>',
         f'<text x="{px + 2:g}" y="{py - 2:g}" font-size="3.2" fill="#555">panel top, {PANEL_W:g} x {PANEL_H:g} mm '
         f'(cut line)</text>']
    for (cx, cy), name in zip(centres, buttons):
        s.append(f'<circle class="bezel" cx="{cx:g}" cy="{cy:g}" r="{BEZEL_MM / 2:g}" fill="none" stroke="#bbb" '
                 f'stroke-width="0.3" stroke-dasharray="1 1"/>')
        s.append(f'<circle class="hole" data-button="{escape(name)}" cx="{cx:g}" cy="{cy:g}" r="{HOLE_MM / 2:g}" '
                 f'fill="none" stroke="#000" stroke-width="0.35"/>')
        s.append(f'<circle class="hole-alt" cx="{cx:g}" cy="{cy:g}" r="{HOLE_ALT_MM / 2:g}" fill="none" '
                 f'stroke="#c0392b" stroke-width="0.25" stroke-dasharray="2 1"/>')
        s.append(f'<circle class="pilot" cx="{cx:g}" cy="{cy:g}" r="1.5" fill="none" stroke="#000" '
                 f'stroke-width="0.25"/>')
        s.append(f'<path d="M {cx - 4:g} {cy:g} H {cx + 4:g} M {cx:g} {cy - 4:g} V {cy + 4:g}" stroke="#000" '
                 f'stroke-width="0.2"/>')
        s.append(f'<text x="{cx:g}" y="{cy + BEZEL_MM / 2 + 5:g}" text-anchor="middle" font-weight="bold">'
                 f'{escape(name)}</text>')
    # spacing dimension between the first two centres, and overall
    y = centres[0][1] - BEZEL_MM / 2 - 5
    for (a, _), (b, _) in zip(centres, centres[1:]):
        s.append(f'<path d="M {a:g} {y:g} H {b:g} M {a:g} {y - 1.5:g} V {y + 1.5:g} M {b:g} {y - 1.5:g} '
                 f'V {y + 1.5:g}" stroke="#1f5fd1" stroke-width="0.25"/>')
        s.append(f'<text x="{(a + b) / 2:g}" y="{y - 1:g}" text-anchor="middle" font-size="3" fill="#1f5fd1">'
                 f'{b - a:g} mm</text>')
    # scale bar
    sx, sy = (A4_W - SCALE_BAR_MM) / 2, 140.0
    s.append(f'<path class="scale-bar" d="M {sx:g} {sy:g} H {sx + SCALE_BAR_MM:g}" stroke="#000" '
             f'stroke-width="0.4"/>')
    for i in range(11):
        tick = 4 if i % 5 == 0 else 2
        s.append(f'<path d="M {sx + i * 10:g} {sy:g} V {sy - tick:g}" stroke="#000" stroke-width="0.3"/>')
    s.append(f'<text x="{A4_W / 2:g}" y="{sy + 6:g}" text-anchor="middle">this bar must measure exactly '
             f'{SCALE_BAR_MM:g} mm</text>')
    # the shutdown button hole, for the box under the table
    shx, shy = 40.0, 175.0
    s.append(f'<circle class="hole-shutdown" cx="{shx:g}" cy="{shy:g}" r="{SHUTDOWN_HOLE_MM / 2:g}" fill="none" '
             f'stroke="#000" stroke-width="0.35"/><path d="M {shx - 3:g} {shy:g} H {shx + 3:g} M {shx:g} '
             f'{shy - 3:g} V {shy + 3:g}" stroke="#000" stroke-width="0.2"/>')
    s.append(f'<text x="{shx + 10:g}" y="{shy + 1.5:g}">safe-shutdown button on the Pi\'s box: '
             f'{SHUTDOWN_HOLE_MM:g} mm hole</text>')
    notes = [
        ("Which hole: black circle, 30 mm.", "bold"),
        ("A \"30 mm\" arcade button is named after its mounting hole. Snap-in buttons (Sanwa OBSF-30,", ""),
        ("Seimitsu PS-14-D) and most 30 mm LED buttons sold for makers want a 30 mm hole: a 30 mm", ""),
        ("Forstner bit or hole saw. Snap-in clips only grip a panel about 1.5-3 mm thick; in thicker", ""),
        ("wood, rebate the underside down to that around each hole.", ""),
        ("Red dashed circle, 28 mm: some screw-in buttons have a 28 mm threaded body held by a nut.", ""),
        ("In a 30 mm hole they wobble; drill 28 mm for those.", ""),
        ("Measure the body just under the bezel with a caliper before you drill: hole = body + 0-0.5 mm.", ""),
        (f"Grey dotted circle: the {BEZEL_MM:g} mm bezel, to check clearance. Centres {SPACING_MM:g} mm apart:", ""),
        (f"{SPACING_MM - HOLE_MM:g} mm of panel between 30 mm holes, {SPACING_MM - BEZEL_MM:g} mm between bezels.", ""),
    ]
    for k, (text, style) in enumerate(notes):
        weight = ' font-weight="bold"' if style == "bold" else ""
        s.append(f'<text x="12" y="{200 + k * 6:g}" font-size="3.6"{weight}>{escape(text)}</text>')
    s.append("</svg>")
    return "\n".join(s) + "\n"


def drill_template_pdf(svg: str) -> bytes:
    """The template as a one-page A4 PDF at true scale (cairosvg maps mm to points exactly)."""
    try:
        import cairosvg
    except ImportError as exc:  # a missing libcairo2 shows up here too
        raise RuntimeError(f"the PDF needs cairosvg and libcairo2 (pip install '.[docs]'): {exc}") from None
    pdf: bytes = cairosvg.svg2pdf(bytestring=svg.encode("utf-8"))
    # cairo stamps the creation time: pin it (same length, so the xref offsets stay right) to keep
    # the committed PDF reproducible
    return re.sub(rb"/CreationDate \(D:([^)]*)\)", _fixed_date, pdf)


def _fixed_date(m: re.Match[bytes]) -> bytes:
    fixed = iter(b"20240101000000" + b"0" * 16)
    stamp = bytes(next(fixed) if chr(c).isdigit() else c for c in m.group(1))
    return b"/CreationDate (D:" + stamp + b")"


# ---------------------------------------------------------------------------------------
# the generator


def pictures() -> dict[str, Callable[[], str | bytes]]:
    """File name under docs/build -> a function that makes it."""
    six = load_pinmap(PINMAPS / "pinmap.toml")
    twelve = load_pinmap(PINMAPS / "pinmaps" / "twelve-seats.toml")
    four = load_pinmap(PINMAPS / "pinmaps" / "direct-four-seats.toml")
    return {
        "wiring-6-seats.svg": lambda: wiring_svg(six),
        "wiring-12-seats.svg": lambda: wiring_svg(twelve),
        "wiring-4-seats-direct.svg": lambda: wiring_svg(four),
        "led-driver.svg": lambda: led_driver_svg(six),
        "seat-cable.svg": lambda: seat_cable_svg(six),
        "protohat-6-seats.svg": lambda: protohat_svg(six),
        "protohat-12-seats-board2.svg": lambda: protohat_svg(twelve, board=2),
        "drill-template.svg": lambda: drill_template_svg(six.buttons),
        "drill-template.pdf": lambda: drill_template_pdf(drill_template_svg(six.buttons)),
    }


def main(argv: list[str] | None = None) -> int:
    """Write every picture, or with --check report the ones that differ (exit 1)."""
    ap = argparse.ArgumentParser(prog="python -m hardware.drawings", description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=DOCS_BUILD, help="folder (default docs/build)")
    ap.add_argument("--check", action="store_true", help="compare with the files there instead of writing")
    args = ap.parse_args(argv)
    stale = []
    for name, make in pictures().items():
        try:
            data = make()
        except RuntimeError as exc:
            print(f"error: {name}: {exc}", file=sys.stderr)
            return 1
        raw = data.encode("utf-8") if isinstance(data, str) else data
        path = args.out / name
        if args.check:
            if not path.is_file() or path.read_bytes() != raw:
                stale.append(name)
            continue
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(raw)
        except OSError as exc:
            print(f"error: {path}: cannot write: {exc.strerror or exc}", file=sys.stderr)
            return 1
        print(f"wrote {path}")
    if stale:
        print(f"out of date in {args.out}: {', '.join(stale)} (run python -m hardware.drawings)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
