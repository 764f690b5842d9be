"""The MCP23017 backend, with the I2C bus faked at the smbus level (hardware.simbus)."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory
from hwfixtures import mock_factory, poll_until  # noqa: F401  (fixture)

from hardware import mcp23017 as reg
from hardware.mcp23017 import ExpanderError
from hardware.panels import open_table
from hardware.pinmap import load_pinmap
from hardware.simbus import SimulatedI2CBus, SimulatedMCP23017


def test_driver_configures_mirrored_interrupt_on_change_with_pull_ups(mock_factory: MockFactory) -> None:
    pm = load_pinmap()
    with open_table(pm, mock_factory) as table:
        chip = table.bus.chip(0x21)  # E2 carries seats 4-6: A0-A3, B0-B3, A4-A6 + B4
        assert chip.regs[reg.IOCON] == reg.IOCON_MIRROR
        assert (chip.regs[reg.GPINTENA], chip.regs[reg.GPINTENB]) == (0x7F, 0x1F)
        assert (chip.regs[reg.GPPUA], chip.regs[reg.GPPUB]) == (0x7F, 0x1F)
        assert (chip.regs[reg.IODIRA], chip.regs[reg.IODIRB]) == (0x7F, 0x7F)  # GPA7/GPB7: outputs (rev. D)


def test_every_button_of_the_default_six_seat_table_reports_through_the_expanders(mock_factory: MockFactory) -> None:
    pm = load_pinmap()
    with open_table(pm, mock_factory) as table:
        for seat, button, ref in pm.button_pins():
            table.sim.set_button(seat, button, True)
            got = poll_until(table.source, 1)
            table.sim.set_button(seat, button, False)
            time.sleep(pm.timing.debounce_s)
            got += poll_until(table.source, 1)
            assert [(e.seat, e.button, e.action) for e in got] == [
                (seat, button, "press"), (seat, button, "release")], ref.text


def test_a_press_is_stamped_with_the_interrupt_edge_time(mock_factory: MockFactory) -> None:
    pm = load_pinmap()
    with open_table(pm, mock_factory, start=False) as table:  # worker not running: we service by hand
        before = time.monotonic()
        table.sim.set_button(3, "DUEL", True)
        after = time.monotonic()
        time.sleep(0.02)
        table.expanders.service(0, table.expanders._wake.get()[0])
        (event,) = table.source.poll()
        assert (event.seat, event.button) == (3, "DUEL") and before <= event.t <= after


def test_changes_while_the_interrupt_is_pending_are_not_lost(mock_factory: MockFactory) -> None:
    pm = load_pinmap()
    with open_table(pm, mock_factory, start=False) as table:
        table.sim.set_button(1, "SET", True)     # raises INT, captured in INTCAP
        table.sim.set_button(2, "WAR", True)     # INT already low: only visible in GPIO
        table.sim.set_button(1, "SET", False)    # released before the read
        t_int, index = table.expanders._wake.get()
        assert table.expanders._wake.empty()      # one INT edge for three changes
        table.expanders.service(index, t_int)
        time.sleep(pm.timing.debounce_s + 0.005)
        out = [(e.seat, e.button, e.action) for e in table.source.poll()]
        assert sorted(out) == [(1, "SET", "press"), (1, "SET", "release"), (2, "WAR", "press")]
        assert not table.bus.chip(0x20).int_asserted  # the read cleared the interrupt


def test_a_missed_interrupt_edge_is_recovered_by_the_safety_poll(mock_factory: MockFactory) -> None:
    pm = load_pinmap()
    with open_table(pm, mock_factory) as table:
        chip = table.bus.chip(0x20)
        pin = mock_factory.pin("GPIO4")
        when = pin.when_changed
        pin.when_changed = None           # the edge is lost (as if it came before we listened)
        table.sim.set_button(2, "BRAWL", True)  # E1:B1
        pin.when_changed = when
        assert chip.int_asserted
        got = poll_until(table.source, 1, timeout=1.0)
        assert [(e.seat, e.button, e.action) for e in got] == [(2, "BRAWL", "press")]


def test_an_expander_that_is_absent_at_start_is_a_clear_error(mock_factory: MockFactory) -> None:
    pm = load_pinmap()
    bus = SimulatedI2CBus.for_pinmap(pm, mock_factory, absent={0x21})
    with pytest.raises(ExpanderError, match="no answer from the MCP23017 at 0x21"):
        open_table(pm, mock_factory, bus=bus)


def test_an_expander_that_stops_answering_is_reported_once_and_recovers(mock_factory: MockFactory) -> None:
    pm = load_pinmap()
    with open_table(pm, mock_factory) as table:
        table.bus.absent.add(0x20)
        table.sim.set_button(1, "WAR", True)
        time.sleep(0.2)
        assert table.source.poll() == []
        faults = table.source.faults()
        assert [f.kind for f in faults] == ["expander"] and "E1 (0x20) stopped answering" in faults[0].message
        table.bus.absent.clear()
        got = poll_until(table.source, 1)
        assert [(e.seat, e.button) for e in got] == [(1, "WAR")]  # the press is read after recovery
        assert [f.message for f in table.source.faults()] == ["expander E1 answers again"]


def test_simulated_chip_without_mirror_does_not_raise_inta_for_port_b() -> None:
    """Guards the model the driver is tested against: INTA follows port B only with MIRROR."""
    chip = SimulatedMCP23017(0x20)
    bus = SimulatedI2CBus({0x20: chip})
    bus.write_byte_data(0x20, reg.GPPUB, 0xFF)
    bus.write_byte_data(0x20, reg.GPINTENB, 0xFF)
    chip.set_input("B", 0, False)
    assert not chip.int_asserted
    bus.read_byte_data(0x20, reg.GPIOB)
    bus.write_byte_data(0x20, reg.IOCON, reg.IOCON_MIRROR)
    chip.set_input("B", 0, True)
    assert chip.int_asserted
    assert bus.read_i2c_block_data(0x20, reg.INTFA, 6)[1] == 0x01  # INTFB flags GPB0


def test_twelve_seats_of_four_buttons_pressed_within_one_ms_are_all_delivered_in_order(
        mock_factory: MockFactory) -> None:
    pm = load_pinmap("hardware/pinmaps/twelve-seats.toml")
    with open_table(pm, mock_factory) as table:
        start = time.monotonic()
        for seat, button, _ in pm.button_pins():
            table.sim.set_button(seat, button, True)
        assert time.monotonic() - start < 0.5  # a burst (the 1 ms figure is measured in benchmarks/bench_seats.py)
        got = poll_until(table.source, 48)
        assert len(got) == 48 and {(e.seat, e.button) for e in got} == {(s, b) for s, b, _ in pm.button_pins()}
        assert [e.t for e in got] == sorted(e.t for e in got)
        assert table.source.late == 0
