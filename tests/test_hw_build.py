"""The build guide's pictures and parts list: generated from the pin map, valid, true to scale, and counted right."""

from __future__ import annotations

import csv
import io
import math
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from game.cli import main
from hardware import bom, drawings
from hardware.pinmap import PinMap, load_pinmap, parse_pinmap
from hardware.wiring import seat_cable, wiring_svg

SVG = "{http://www.w3.org/2000/svg}"
BUILD = Path("docs/build")
MAPS = ["hardware/pinmap.toml", "hardware/pinmaps/twelve-seats.toml", "hardware/pinmaps/direct-four-seats.toml"]


# ---------------------------------------------------------------------------------------
# the pictures


def test_committed_pictures_are_what_the_generator_makes_now(tmp_path: Path) -> None:
    """A picture that drifted from the pin map or the design figures fails here: rerun python -m hardware.drawings.

    SVGs must match byte for byte.  The PDF is compared as printed (ghostscript raster), so another cairo
    version's different object layout does not fail the test, but any change in what is drawn does.
    """
    made = drawings.pictures()
    assert sorted(p.name for p in BUILD.iterdir()) == sorted(made)
    for name, make in made.items():
        data = make()
        if isinstance(data, str):
            assert (BUILD / name).read_text(encoding="utf-8") == data, f"{name} is out of date"
        else:
            fresh = tmp_path / name
            fresh.write_bytes(data)
            assert _render_pdf(50, fresh) == _render_pdf(50, BUILD / name), f"{name} is out of date"


def test_generator_writes_every_picture_and_check_spots_a_stale_one(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert drawings.main(["--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(drawings.pictures())
    assert drawings.main(["--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "led-driver.svg").write_text("<svg/>")
    capsys.readouterr()
    assert drawings.main(["--out", str(tmp_path), "--check"]) == 1
    assert "led-driver.svg" in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(n for n in drawings.pictures() if n.endswith(".svg")))
def test_every_svg_is_well_formed_with_a_size_and_a_matching_viewbox(name: str) -> None:
    root = ET.parse(BUILD / name).getroot()
    assert root.tag == f"{SVG}svg"
    x0, y0, w, h = (float(v) for v in root.attrib["viewBox"].split())
    assert (x0, y0) == (0, 0) and w > 0 and h > 0
    width, height = root.attrib["width"], root.attrib["height"]
    unit = "mm" if width.endswith("mm") else ""
    assert float(width.removesuffix(unit)) == w and float(height.removesuffix(unit)) == h
    for el in root.iter():  # no element is drawn outside the page
        for attr, limit in (("x", w), ("cx", w), ("y", h), ("cy", h)):
            if attr in el.attrib:
                assert -1 <= float(el.attrib[attr]) <= limit + 1, f"{name}: {el.tag} {attr}={el.attrib[attr]}"


def _points(el: ET.Element) -> list[tuple[float, float]]:
    return [(float(a), float(b)) for a, b in (p.split(",") for p in el.attrib["points"].split())]


def _pad(root: ET.Element, ident: str) -> tuple[float, float]:
    el = root.find(f".//{SVG}circle[@id='pad-{ident}']")
    assert el is not None, f"no pad {ident}"
    return float(el.attrib["cx"]), float(el.attrib["cy"])


def _check_every_pin_is_wired(pm: PinMap) -> int:
    root = ET.fromstring(wiring_svg(pm))
    wires = {(w.attrib["data-from"], w.attrib["data-to"]): _points(w) for w in root.iter(f"{SVG}polyline")
             if w.attrib.get("class") == "wire"}
    expected: list[tuple[str, str, str, str]] = []  # (from, to, from pad, to pad)
    for panel in pm.seat_panels():
        for b, ref in panel.buttons.items():
            key = f"GPIO{ref.bcm}" if ref.is_gpio else f"{ref.expander}:{ref.port}{ref.bit}"
            to_pad = f"hdr-{ref.physical}" if ref.is_gpio else f"{ref.expander}-{ref.port}{ref.bit}"
            expected.append((f"seat {panel.seat} {b}", key, f"seat{panel.seat}-{b}", to_pad))
        expected.append((f"seat {panel.seat} light", f"GPIO{panel.light.bcm}", f"seat{panel.seat}-light",
                         f"hdr-{panel.light.physical}"))
    for exp in pm.expanders.values():
        expected.append((f"{exp.name}:INTA", f"GPIO{exp.interrupt.bcm}", f"{exp.name}-INTA",
                         f"hdr-{exp.interrupt.physical}"))
        expected.append((f"{exp.name}:SDA", "GPIO2", f"{exp.name}-SDA", "hdr-3"))
        expected.append((f"{exp.name}:SCK", "GPIO3", f"{exp.name}-SCK", "hdr-5"))
    if pm.shutdown is not None:
        expected.append(("shutdown button", f"GPIO{pm.shutdown.bcm}", "shutdown", f"hdr-{pm.shutdown.physical}"))
    for src, dst, src_pad, dst_pad in expected:
        pts = wires.pop((src, dst), None)
        assert pts is not None, f"no wire from {src} to {dst}"
        assert pts[0] == _pad(root, src_pad) or pts[0][1] == _pad(root, src_pad)[1], f"{src} starts off its pad"
        assert pts[-1] == _pad(root, dst_pad), f"{src} does not end on {dst_pad}"
        assert all(a[0] == b[0] or a[1] == b[1] for a, b in zip(pts, pts[1:])), "wires run square"
    assert not wires, f"wires the pin map does not have: {sorted(wires)}"
    return len(expected)


@pytest.mark.parametrize("path", MAPS)
def test_every_pin_in_the_map_has_its_wire_from_the_seat_cable_to_that_pin(path: str) -> None:
    pm = load_pinmap(path)
    n = _check_every_pin_is_wired(pm)
    assert n == pm.seats * (len(pm.buttons) + 1) + 3 * len(pm.expanders) + 1


def test_a_changed_pin_map_moves_the_wire() -> None:
    """Seat 1 SET moved from E1:A0 to E1:B5: the drawing follows the map, not a fixed picture."""
    text = Path("hardware/pinmap.toml").read_text().replace('SET = "E1:A0"', 'SET = "E1:B5"')
    pm = parse_pinmap(text, "moved.toml")
    _check_every_pin_is_wired(pm)
    svg = wiring_svg(pm)
    assert 'data-from="seat 1 SET" data-to="E1:B5"' in svg and 'data-to="E1:A0"' not in svg


def test_seat_cable_uses_t568b_colours_and_carries_every_signal() -> None:
    cores = seat_cable(("SET", "BRAWL", "WAR", "DUEL"))
    assert [c.colour for c in cores] == ["white/orange", "orange", "white/green", "blue", "white/blue", "green",
                                         "white/brown", "brown"]
    assert {c.signal for c in cores} == {"SET", "BRAWL", "WAR", "DUEL", "+5V", "LED-", "GND"}
    by = {c.signal: c.pin for c in cores if c.signal != "GND"}
    assert {by["+5V"], by["LED-"]} == {4, 5}, "the LED current loop rides one twisted pair (blue)"
    root = ET.parse(BUILD / "seat-cable.svg").getroot()
    shown = {el.attrib["data-core"]: el.text for el in root.iter(f"{SVG}text") if "data-core" in el.attrib}
    assert shown == {str(c.pin): c.signal for c in cores}
    with pytest.raises(ValueError, match="at most 4 buttons"):
        seat_cable(("A", "B", "C", "D", "E"))


# ---------------------------------------------------------------------------------------
# the drilling template: true scale


def _template() -> ET.Element:
    return ET.parse(BUILD / "drill-template.svg").getroot()


def test_drill_template_is_an_a4_page_whose_user_unit_is_one_millimetre() -> None:
    root = _template()
    assert (root.attrib["width"], root.attrib["height"]) == ("210mm", "297mm")
    assert root.attrib["viewBox"] == "0 0 210 297"
    bar = next(el for el in root.iter(f"{SVG}path") if el.attrib.get("class") == "scale-bar")
    start, end = bar.attrib["d"].split(" H ")
    assert float(end) - float(start.split()[1]) == 100.0


def test_drill_template_holes_are_30_mm_with_28_mm_marks_40_mm_apart_in_a_row() -> None:
    root = _template()
    holes = [el for el in root.iter(f"{SVG}circle") if el.attrib.get("class") == "hole"]
    alts = [el for el in root.iter(f"{SVG}circle") if el.attrib.get("class") == "hole-alt"]
    assert [h.attrib["data-button"] for h in holes] == ["SET", "BRAWL", "WAR", "DUEL"]
    assert {float(h.attrib["r"]) * 2 for h in holes} == {30.0} and {float(a.attrib["r"]) * 2 for a in alts} == {28.0}
    xs = [float(h.attrib["cx"]) for h in holes]
    assert [b - a for a, b in zip(xs, xs[1:])] == [40.0, 40.0, 40.0]
    assert len({h.attrib["cy"] for h in holes}) == 1
    assert math.isclose((xs[0] + xs[-1]) / 2, 105.0), "centred on the page"
    assert xs[0] - 15 > 10 and xs[-1] + 15 < 200, "every hole inside the panel outline"


def _render_pdf(dpi: int, path: Path = BUILD / "drill-template.pdf") -> tuple[int, int, bytes]:
    gs = shutil.which("gs")
    assert gs, "ghostscript (gs) is needed to check the PDF's scale: sh tests/install-system-deps.sh"
    out = subprocess.run([gs, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=ppmraw", f"-r{dpi}",
                          "-sOutputFile=-", str(path)], capture_output=True, timeout=60,
                         check=True).stdout
    fields: list[bytes] = []
    while len(fields) < 3:  # the PPM header, skipping gs's comment line
        line, out = out.split(b"\n", 1)
        if not line.startswith(b"#"):
            fields.append(line)
    magic, dims, maxval = fields
    rest = out
    assert magic == b"P6" and maxval == b"255"
    w, h = (int(v) for v in dims.split())
    return w, h, rest


def test_drill_template_pdf_is_a4_and_prints_holes_40_mm_apart_and_a_100_mm_bar() -> None:
    pdf = (BUILD / "drill-template.pdf").read_bytes()
    box = pdf.split(b"/MediaBox [")[1].split(b"]")[0].split()
    assert [float(v) for v in box] == pytest.approx([0, 0, 210 / 25.4 * 72, 297 / 25.4 * 72], abs=1e-3)
    w, h, px = _render_pdf(254)  # 10 pixels per millimetre
    assert (w, h) == (2100, 2970)

    def black_runs(y_mm: float) -> list[float]:
        row = px[int(y_mm * 10) * w * 3:(int(y_mm * 10) + 1) * w * 3]
        dark = [max(row[i * 3:i * 3 + 3]) < 60 for i in range(w)]
        runs, start = [], None
        for x, d in enumerate(dark + [False]):
            if d and start is None:
                start = x
            elif not d and start is not None:
                runs.append((start + x - 1) / 2 / 10)
                start = None
        return runs

    # 10 mm above the hole centres the only black is the 30 mm circles: two crossings per hole
    cy = drawings.hole_centres()[0][1]
    crossings = black_runs(cy - 10)
    assert len(crossings) == 8, crossings
    centres = [(a + b) / 2 for a, b in zip(crossings[::2], crossings[1::2])]
    assert [round(b - a, 1) for a, b in zip(centres, centres[1:])] == [40.0, 40.0, 40.0]
    half_chord = [(b - a) / 2 for a, b in zip(crossings[::2], crossings[1::2])]
    assert all(abs(c - math.sqrt(15**2 - 10**2)) < 0.2 for c in half_chord), "30 mm diameter"
    # the scale bar's 4 mm ticks at 0, 50 and 100 mm, read 2.5 mm above the bar
    ticks = black_runs(140 - 2.5)
    assert [round(t - ticks[0], 1) for t in ticks] == [0.0, 50.0, 100.0]


# ---------------------------------------------------------------------------------------
# the parts list and the power budget


@pytest.mark.parametrize("seats", range(1, 13))
@pytest.mark.parametrize("burritos", [0, 2, 5])
def test_parts_follow_the_seat_and_burrito_counts(seats: int, burritos: int) -> None:
    b = bom.build_bom(seats, burritos)
    assert b.qty("BTN") == 4 * seats and b.qty("FAST") == 16 * seats
    assert b.qty("Q") == b.qty("RB") == b.qty("RPD") == b.qty("CAB") == b.qty("HDR") == seats
    assert b.qty("KEY") == 2 * seats, "a keystone at the table edge and one in the panel"
    assert b.qty("U") == b.qty("SKT") == b.qty("C100N") == math.ceil(seats / 3), "three seats per MCP23017"
    assert b.qty("HAT2") == (1 if seats > 6 else 0)
    assert b.qty("NODE") == b.qty("IMU") == b.qty("LIPO") == burritos + seats  # a badge per seat by default
    assert b.qty("RDIV") == 2 * (burritos + seats) and b.qty("FOAM") == burritos
    for ref in ("PI", "PSU", "TV", "HDMI", "USBA", "AMP", "RX", "SHDN"):
        assert b.qty(ref) == 1
    assert b.qty("SPK") == 2


def test_the_expander_count_matches_the_shipped_pin_maps() -> None:
    for path in MAPS[:2]:
        pm = load_pinmap(path)
        assert bom.expanders_for(pm.seats) == len(pm.expanders)


def test_power_budget_counts_pi_receiver_audio_and_every_led_at_full() -> None:
    six, twelve = bom.power_budget(6), bom.power_budget(12)
    leds6 = next(x for x in six.loads if x.what.startswith("button LEDs"))
    assert leds6.amps == pytest.approx(6 * 4 * 0.020)
    assert {x.what.split(" (")[0] for x in six.loads} >= {"Raspberry Pi 5 under full load", "USB receiver",
                                                          "USB audio adapter", "amplifier at full volume",
                                                          "button LEDs at full", "MCP23017 expanders"}
    assert not any("TV" in x.what or "display" in x.what for x in six.loads), "the display has its own supply"
    assert twelve.total_5v_a - six.total_5v_a == pytest.approx(6 * 0.080 + 2 * 0.001 + 6 * 0.00367, abs=1e-3)
    assert six.ok and six.total_5v_a == pytest.approx(3.536, abs=0.002)
    assert not twelve.ok and "second 5 V supply" in twelve.verdict()
    assert bom.build_bom(12, 2).qty("PSU2") == 1
    assert all(line.ref != "PSU2" for line in bom.build_bom(6, 2).lines)


def test_light_driver_saturates_the_transistor_within_the_gpio_limits() -> None:
    """80 mA of LEDs from a 3.3 V GPIO: forced gain at most half the PN2222A's minimum, pins under 16/50 mA."""
    for seats in (1, 6, 12):
        d = bom.led_driver(seats)
        assert d.collector_ma == 80 and d.saturated and d.within_gpio_limits
    d = bom.led_driver(12)
    assert d.base_ma == pytest.approx((3.3 - 0.75) / 680 * 1000 - 0.75 / 10, abs=1e-6)
    assert d.gpio_total_ma < 50
    guide = Path("docs/build-guide.md").read_text()
    for figure in (f"{d.base_ma:.2f} mA", f"{d.forced_beta:.0f}", f"{bom.led_driver(6).gpio_total_ma:.1f} mA",
                   f"{d.gpio_total_ma:.1f} mA", "680"):
        assert figure in guide, f"the build guide does not state {figure}"


def test_bom_command_prints_a_table_and_csv_with_quantities(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bom", "--seats", "12", "--burritos", "3"]) == 0
    out = capsys.readouterr().out
    assert "12 seats, 3 burritos" in out and "Power budget" in out and "feed the button LEDs" in out
    assert any(line.split()[:2] == ["BTN", "48"] for line in out.splitlines())
    assert main(["bom", "--seats", "6", "--csv"]) == 0
    parts, budget = capsys.readouterr().out.split("\n\n")
    rows = list(csv.DictReader(io.StringIO(parts)))
    qty = {r["ref"]: int(r["qty"]) for r in rows}
    assert qty["BTN"] == 24 and qty["U"] == 2 and qty["NODE"] == 8
    assert all(float(r["total_usd"]) == pytest.approx(int(r["qty"]) * float(r["unit_usd"])) for r in rows)
    total = list(csv.reader(io.StringIO(budget)))[-1]
    assert total[:3] == ["total", "5V", "3.536"] and total[3].startswith("fits")


@pytest.mark.parametrize("argv,message", [
    (["--seats", "0"], "--seats must be 1-12, got 0"),
    (["--seats", "13"], "--seats must be 1-12, got 13"),
    (["--burritos", "-1"], "--burritos must be 0-8, got -1"),
    (["--cable-m", "50"], "--cable-m must be 1-20 m"),
])
def test_bom_rejects_counts_a_table_cannot_have_in_one_line_with_exit_2(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bom", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_proto_plans_place_each_boards_expanders_and_drivers_and_link_the_second_board() -> None:
    twelve = load_pinmap(MAPS[1])
    one = ET.fromstring(drawings.protohat_svg(twelve, board=1))
    two = ET.fromstring(drawings.protohat_svg(twelve, board=2))

    def texts(root: ET.Element) -> str:
        return " | ".join(t.text or "" for t in root.iter(f"{SVG}text"))

    assert "E1 MCP23017 at 0x20" in texts(one) and "E3" not in texts(one) and "Q6" in texts(one)
    assert "E3 MCP23017 at 0x22" in texts(two) and "E4 MCP23017 at 0x23" in texts(two) and "Q12" in texts(two)
    assert len([r for r in one.iter(f"{SVG}rect") if "data-pin" in r.attrib]) == 40, "the Pi's 2 x 20 header"
    link = [r.attrib["data-link"] for r in two.iter(f"{SVG}rect") if "data-link" in r.attrib]
    assert link[:5] == ["3V3", "LED 5V", "GND", "SDA", "SCL"]
    assert link[5:] == ["E3 INTA", "E4 INTA"] + [f"seat {n} light" for n in range(7, 13)]
    assert "E3 INTA (GPIO27, pin 13)" in texts(two), "the link names the HAT pin each line goes to"
    with pytest.raises(ValueError, match="board 2 has no seats"):
        drawings.protohat_svg(load_pinmap(MAPS[0]), board=2)


def test_build_guide_quotes_the_budget_the_bom_command_computes() -> None:
    """The guide's power table is typed by hand: it must carry today's figures for 6 and 12 seats."""
    guide = Path("docs/build-guide.md").read_text()
    for seats in (6, 12):
        b = bom.power_budget(seats)
        assert f"{b.total_5v_a:.3f} A = {b.total_w:.1f} W" in guide
        assert f"{b.share:.0%}".replace("%", " %") in guide
        for load in b.loads:
            assert f"{load.amps:.3f} A" in guide, load.what
    assert f"About US${bom.build_bom(6, 2).total_usd:.0f}" in guide
